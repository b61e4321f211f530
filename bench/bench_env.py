"""Research env speed (issues 7 and 16): steps/s and hands/s with random agents through the AEC env
(with and without the feature planes) and the self-play dict env, next to the engine's own
random-player driver and a bare legal-actions-and-apply loop, on the same seeds in the same run —
and the Rust ``riichienv`` simulator's random loop (riichi rules, one-hand games) as the outside
reference, plain and with its feature tensor (``obs.encode()``) built for every observation an
agent acts on (the counterpart of our planes).

    python bench/bench_env.py [--hands N] [--rounds R] [--riichienv-python PATH]

Times are CPU time (``time.process_time``) of this process, or of riichienv's own interpreter
(measured inside it: start-up and imports excluded). riichienv runs when it is installed in a
scratch venv (default ``/tmp/riichi_venv/bin/python``; ``python3 -m venv /tmp/riichi_venv &&
/tmp/riichi_venv/bin/pip install riichienv``), else its rows say "not available".

Our random agents take a uniform legal index from the mask (``mask.nonzero()[0]``: one NumPy
call; ``np.flatnonzero`` would add ~0.5 µs of Python wrappers a step), riichienv's its
``RandomAgent`` (``rng.choice(obs.legal_actions())``).

Targets: the AEC env and the self-play env within 30 % of the engine's driver (issue 7); the AEC
env (with planes) at least as many hands per CPU-second as riichienv (issue 16: AEC ÷ riichienv
≥ 1.0, stated against both riichienv variants). The drivers run interleaved in rounds, so a change
in machine load (another job on the machine) hits them alike; run it a few times and read the
spread, and note the load average (printed).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import time
import warnings
from pathlib import Path

from hkmahjong.engine.players import RandomPlayer, play_hand
from hkmahjong.engine.state import HandState
from hkmahjong.env import SelfPlayEnv, hand_seed, raw_env
from hkmahjong.rules import get_preset

warnings.filterwarnings("ignore")


def engine_players(hands: int) -> tuple[int, float]:
    """The engine's own driver: RandomPlayer.choose(view, legal) through players.play_hand."""
    ruleset = get_preset("parlor")
    steps = 0
    t0 = time.process_time()
    for h in range(hands):
        st = HandState.new(ruleset, seed=hand_seed(h, 0))
        players = [RandomPlayer(f"{h}:{s}") for s in range(4)]
        steps += len(play_hand(st, players)) - len(st.initial_events)
        _ = st.outcome
    return steps, time.process_time() - t0


def bare_engine(hands: int) -> tuple[int, float]:
    ruleset = get_preset("parlor")
    steps = 0
    t0 = time.process_time()
    for h in range(hands):
        rng = random.Random(h)
        st = HandState.new(ruleset, seed=hand_seed(h, 0))
        while not st.is_over:
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
        _ = st.outcome
    return steps, time.process_time() - t0


def aec_env(hands: int, planes: bool = True) -> tuple[int, float]:
    """Random agents through the AEC env; ``planes=False`` reads only the mask (no feature planes)."""
    e = raw_env(rules="parlor")
    steps = 0
    t0 = time.process_time()
    for h in range(hands):
        rng = random.Random(h)
        e.reset(seed=h)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last(observe=planes)
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"] if planes else e.action_mask(agent)
            legal = mask.nonzero()[0]  # (np.flatnonzero adds ~0.5 µs of Python wrappers)
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.process_time() - t0


def aec_env_mask_only(hands: int) -> tuple[int, float]:
    """The AEC adapter without the feature planes: last(observe=False) and the mask only."""
    return aec_env(hands, planes=False)


def selfplay_env(hands: int) -> tuple[int, float]:
    sp = SelfPlayEnv(rules="parlor")
    steps = 0
    t0 = time.process_time()
    for h in range(hands):
        rng = random.Random(h)
        obs, _ = sp.reset(seed=h)
        while obs:
            acts = {}
            for a, o in obs.items():
                legal = o["action_mask"].nonzero()[0]
                acts[a] = int(legal[rng.randrange(len(legal))])
            obs, *_ = sp.step(acts)
            steps += len(acts)
    return steps, time.process_time() - t0


RIICHI_SCRIPT = """
import sys, time
from riichienv import RiichiEnv
from riichienv.agents import RandomAgent
hands, seed, encode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "encode"
env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)   # 0 = one hand (一局)
agents = [RandomAgent(seed=seed * 4 + i) for i in range(4)]
def play(n):
    steps = 0
    for _ in range(n):
        obs = env.reset()
        while not env.done():
            if encode:
                for o in obs.values():
                    o.encode()   # the feature tensor of every observation an agent acts on
            steps += len(obs)
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
    return steps
play(2)   # warm-up
start = time.process_time()
steps = play(hands)
print(steps, time.process_time() - start)
"""


def riichienv_loop(python: str, hands: int, seed: int, encode: bool) -> tuple[int, float] | None:
    """riichienv's random loop in its own interpreter: (decisions, CPU seconds), or None when it is
    not installed. ``encode``: also build each acting observation's feature tensor."""
    if not Path(python).exists():
        return None
    try:
        out = subprocess.run(
            [python, "-c", RIICHI_SCRIPT, str(hands), str(seed), "encode" if encode else "plain"],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        steps, secs = out.stdout.strip().splitlines()[-1].split()
        return int(steps), float(secs)
    except (subprocess.SubprocessError, ValueError, IndexError, OSError):
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--riichienv-python", default="/tmp/riichi_venv/bin/python")
    args = ap.parse_args()
    drivers = (
        ("engine players", engine_players),
        ("minimal loop", bare_engine),
        ("AEC env", aec_env),
        ("AEC, no planes", aec_env_mask_only),
        ("self-play env", selfplay_env),
    )
    per_round = max(1, args.hands // args.rounds)
    for _name, fn in drivers:  # warm-up: lazy tables, caches
        fn(2)
    totals: dict[str, list[float]] = {name: [0, 0.0] for name, _ in drivers}
    riichi_names = ("riichienv", "riichienv+encode")
    riichi: dict[str, list[float] | None] = {name: [0, 0.0] for name in riichi_names}
    load_before = os.getloadavg()
    for rnd in range(args.rounds):  # interleaved, so a change in machine load hits all alike
        for name, fn in drivers:
            steps, secs = fn(per_round)
            if name == "engine players":
                steps = _count_decisions(per_round)
            totals[name][0] += steps
            totals[name][1] += secs
        for name in riichi_names:
            acc = riichi[name]
            if acc is None:
                continue
            got = riichienv_loop(args.riichienv_python, per_round, rnd + 1, name.endswith("encode"))
            if got is None:
                riichi[name] = None
                continue
            acc[0] += got[0]
            acc[1] += got[1]
    load_after = os.getloadavg()
    args.hands = per_round * args.rounds
    rows = [(name, int(t[0]), float(t[1])) for name, t in totals.items()]
    base = rows[0][2]
    print(
        f"{args.hands} hands in {args.rounds} interleaved rounds, CPU time; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    print(f"{'driver':<18}{'hands/s':>10}{'steps/s':>11}{'time vs engine players':>24}")
    for name, steps, secs in rows:
        print(
            f"{name:<18}{args.hands / secs:>10.0f}{steps / secs:>11.0f}"
            f"{(secs / base - 1) * 100:>+23.1f}%"
        )
    aec = args.hands / totals["AEC env"][1]
    for name in riichi_names:
        acc = riichi[name]
        if acc is None:
            print(f"{name:<18}{'not available at ' + args.riichienv_python:>45}")
            continue
        ref = args.hands / acc[1]
        print(f"{name:<18}{ref:>10.0f}{acc[0] / acc[1]:>11.0f}{'(Rust, riichi rules)':>24}")
    for name in riichi_names:
        acc = riichi[name]
        if acc is not None:
            print(f"AEC env / {name} = {aec / (args.hands / acc[1]):.2f} (hands per CPU-second)")
    print(
        "engine players = the engine's own random-player driver (a view per decision);\n"
        "minimal loop = legal actions + apply only (no view, no observation);\n"
        "AEC, no planes = the PettingZoo adapter with the mask but without the feature planes;\n"
        "riichienv = its RandomAgent loop; +encode = also obs.encode() (its feature tensor) for\n"
        "every observation an agent acts on. riichienv steps = its observations acted on."
    )


def _count_decisions(hands: int) -> int:
    return bare_engine(hands)[0]


if __name__ == "__main__":
    main()
