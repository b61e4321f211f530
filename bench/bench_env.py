"""Research env speed (issue 7): steps/s and hands/s with random agents through the AEC env (with
and without the feature planes) and the self-play dict env, next to the engine's own random-player
driver (the reference) and a bare legal-actions-and-apply loop, on the same seeds in the same run.

    python bench/bench_env.py [--hands N] [--rounds R]     # default 600 hands; 2400 for a longer run

The engine's driver asks each seat's player to choose from its ``PlayerView`` (what any agent
needs); the env loops additionally build the observation planes and the action mask (what a learner
needs) — that is the overhead measured. Target: the AEC env and the self-play env within 30 % of
the engine's driver. The drivers run interleaved in rounds, so a change in machine load (another
job on the machine) hits them alike; run it a few times and read the spread.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings

import numpy as np

from hkmahjong.engine.players import RandomPlayer, play_hand
from hkmahjong.engine.state import HandState
from hkmahjong.env import SelfPlayEnv, hand_seed, raw_env
from hkmahjong.rules import get_preset

warnings.filterwarnings("ignore")


def engine_players(hands: int) -> tuple[int, float]:
    """The engine's own driver: RandomPlayer.choose(view, legal) through players.play_hand."""
    ruleset = get_preset("parlor")
    steps = 0
    t0 = time.perf_counter()
    for h in range(hands):
        st = HandState.new(ruleset, seed=hand_seed(h, 0))
        players = [RandomPlayer(f"{h}:{s}") for s in range(4)]
        steps += len(play_hand(st, players)) - len(st.initial_events)
        _ = st.outcome
    return steps, time.perf_counter() - t0


def bare_engine(hands: int) -> tuple[int, float]:
    ruleset = get_preset("parlor")
    steps = 0
    t0 = time.perf_counter()
    for h in range(hands):
        rng = random.Random(h)
        st = HandState.new(ruleset, seed=hand_seed(h, 0))
        while not st.is_over:
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
        _ = st.outcome
    return steps, time.perf_counter() - t0


def aec_env(hands: int, planes: bool = True) -> tuple[int, float]:
    """Random agents through the AEC env; ``planes=False`` reads only the mask (no feature planes)."""
    e = raw_env(rules="parlor")
    steps = 0
    t0 = time.perf_counter()
    for h in range(hands):
        rng = random.Random(h)
        e.reset(seed=h)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last(observe=planes)
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"] if planes else e.action_mask(agent)
            legal = np.flatnonzero(mask)
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.perf_counter() - t0


def aec_env_mask_only(hands: int) -> tuple[int, float]:
    """The AEC adapter without the feature planes: last(observe=False) and the mask only."""
    return aec_env(hands, planes=False)


def selfplay_env(hands: int) -> tuple[int, float]:
    sp = SelfPlayEnv(rules="parlor")
    steps = 0
    t0 = time.perf_counter()
    for h in range(hands):
        rng = random.Random(h)
        obs, _ = sp.reset(seed=h)
        while obs:
            acts = {}
            for a, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                acts[a] = int(legal[rng.randrange(len(legal))])
            obs, *_ = sp.step(acts)
            steps += len(acts)
    return steps, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args()
    drivers = (
        ("engine players", engine_players),
        ("minimal loop", bare_engine),
        ("AEC env", aec_env),
        ("AEC, no planes", aec_env_mask_only),
        ("self-play env", selfplay_env),
    )
    totals = {name: [0, 0.0] for name, _ in drivers}
    per_round = max(1, args.hands // args.rounds)
    for _round in range(args.rounds):  # interleaved, so a change in machine load hits all alike
        for name, fn in drivers:
            steps, secs = fn(per_round)
            if name == "engine players":
                steps = _count_decisions(per_round)
            totals[name][0] += steps
            totals[name][1] += secs
    args.hands = per_round * args.rounds
    rows = [(name, int(t[0]), float(t[1])) for name, t in totals.items()]
    base = rows[0][2]
    print(f"{'driver':<16}{'hands/s':>10}{'steps/s':>11}{'time vs engine players':>24}")
    for name, steps, secs in rows:
        print(
            f"{name:<16}{args.hands / secs:>10.0f}{steps / secs:>11.0f}"
            f"{(secs / base - 1) * 100:>+23.1f}%"
        )
    print(
        "engine players = the engine's own random-player driver (a view per decision), the "
        "reference;\nminimal loop = legal actions + apply only (no view, no observation);\n"
        "AEC, no planes = the PettingZoo adapter with the mask but without the feature planes."
    )


def _count_decisions(hands: int) -> int:
    return bare_engine(hands)[0]


if __name__ == "__main__":
    main()
