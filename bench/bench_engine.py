"""Engine benchmark: complete hands per CPU-second with random-legal players (one core), memory per live
HandState, and — with ``--full`` — the 100,000-hand random-play invariant run.

    .venv/bin/python bench/bench_engine.py            # short: ~300 hands, a few seconds
    .venv/bin/python bench/bench_engine.py --full     # 100,000 hands with invariant checks

Reference measured in the same run: the Rust ``riichienv`` simulator with its random agent
(riichi rules, one-hand games), if it is installed in a scratch venv (``--riichienv-python``,
default ``/tmp/riichi_venv/bin/python``; ``python3 -m venv /tmp/riichi_venv &&
/tmp/riichi_venv/bin/pip install riichienv``). Targets (issue 4): >= 400 hands/s, < 50 KB/state.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from hkmahjong.engine.actions import ActionKind
from hkmahjong.engine.players import RandomPlayer, play_hand
from hkmahjong.engine.record import hand_seed, seed_from_text
from hkmahjong.engine.state import HandState, PendingKind
from hkmahjong.engine.view import Phase
from hkmahjong.engine.wall import full_tile_set
from hkmahjong.rules import PassRule, Ruleset, get_preset, preset_names
from hkmahjong.tiles import Wind

TARGET_HANDS_PER_S = 400
TARGET_BYTES_PER_STATE = 50_000
WINS = frozenset({ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN})

RIICHI_SCRIPT = """
import sys, time
from riichienv import RiichiEnv
from riichienv.agents import RandomAgent
n = int(sys.argv[1])
env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=1)   # 0 = one hand (一局)
agents = [RandomAgent(seed=i) for i in range(4)]
start = time.process_time()
for _ in range(n):
    obs = env.reset()
    while not env.done():
        obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
print(n / (time.process_time() - start))
"""


def hands_per_second(
    preset: str, hands: int, seed: str = "bench", *, views: bool = True
) -> tuple[float, int]:
    """Complete hands per CPU-second with random-legal players; (hands/s, actions).

    ``views=True`` plays through :func:`play_hand`, building each deciding seat's ``PlayerView``
    as a bot would get it; ``views=False`` is the bare engine loop (legal actions, apply).
    """
    ruleset = get_preset(preset)
    match_seed = seed_from_text(seed)
    players = [RandomPlayer(f"{seed}/{i}") for i in range(4)]
    play_hand(HandState.new(ruleset, seed=b"warm-up"), players)  # lazy tables, caches
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for n in range(hands):
        state = HandState.new(ruleset, seed=hand_seed(match_seed, n), hand_number=n)
        if views:
            actions += len(play_hand(state, players))
            continue
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            actions += 1
    elapsed = time.process_time() - start
    return hands / elapsed, actions


def clones_per_second(preset: str, states: int = 200, steps: int = 40, rounds: int = 20) -> float:
    """HandState.clone() calls per second over ``states`` live states, each ``steps`` actions in
    (a search bot clones once per simulated line)."""
    ruleset = get_preset(preset)
    rng = random.Random(2)
    match_seed = seed_from_text("clone")
    live = []
    for n in range(states):
        state = HandState.new(ruleset, seed=hand_seed(match_seed, n))
        for _ in range(rng.randrange(steps)):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        live.append(state)
    start = time.perf_counter()
    for _ in range(rounds):
        for state in live:
            state.clone()
    return states * rounds / (time.perf_counter() - start)


def bytes_per_state(preset: str, count: int = 200, steps: int = 40) -> float:
    """Average traced memory of ``count`` live states, each played ``steps`` actions in."""
    ruleset = get_preset(preset)
    rng = random.Random(1)
    match_seed = seed_from_text("memory")
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = []
    for n in range(count):
        state = HandState.new(ruleset, seed=hand_seed(match_seed, n))
        for _ in range(steps):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        states.append(state)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(states)


def riichienv_hands_per_second(python: str, hands: int) -> float | None:
    """riichienv's random-agent hands/s in its own interpreter, or None when unavailable."""
    if not Path(python).exists():
        return None
    try:
        out = subprocess.run(
            [python, "-c", RIICHI_SCRIPT, str(hands)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return float(out.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError, OSError):
        return None


def invariant_rulesets() -> list[Ruleset]:
    """Every preset, and the parlor with a grid of switches (dead wall, 一炮多響, no bonus, ...)."""
    parlor = get_preset("parlor")
    grid: list[dict[str, Any]] = [
        {"dead_wall": 14, "multiple_winners": True},
        {"dead_wall": 16, "thirteen_orphans_head_bump_exempt": True},
        {"bonus_tiles": False, "min_fan": 0},
        {"pung_pass_rule": False, "no_swap_discard": False, "min_fan": 1},
        {"pass_rule": PassRule.SAME_WAIT, "multiple_winners": True, "min_fan": 0},
    ]
    return [get_preset(p) for p in preset_names()] + [
        dataclasses.replace(parlor, name=f"parlor-grid-{i}", **g) for i, g in enumerate(grid)
    ]


def invariant_run(hands: int, roundtrip_every: int) -> dict[str, Any]:
    """Random play over every preset and a grid of switches, with checks at every step.

    Checks (docs/rules.md §1, §9; docs/dev/architecture.md practice 7): the referee's census holds every tile kind
    exactly as often as the set has it; all 144 tiles (136 without bonus tiles) are accounted for
    in every seat's view — own concealed tiles, the others' concealed counts, melds, bonus tiles,
    unclaimed discards, tiles left and the reserved tail; seats to act have legal actions; a
    random legal action is accepted; deltas sum to zero; the JSON round trip is exact (every
    ``roundtrip_every`` steps). Half the time a seat takes a win when one is legal. A failing hand
    is recorded (first 10 shown) and the run goes on.
    """
    rulesets = invariant_rulesets()
    rng = random.Random(20261130)
    match_seed = seed_from_text("invariants")
    stats: dict[str, Any] = {"hands": 0, "steps": 0, "roundtrips": 0, "wins": 0, "draws": 0}
    failures: list[str] = []
    for n in range(hands):
        ruleset = rulesets[n % len(rulesets)]
        full = [0] * 42
        for t in full_tile_set(bonus_tiles=ruleset.bonus_tiles):
            full[t] += 1
        try:
            state = HandState.new(ruleset, seed=hand_seed(match_seed, n), hand_number=n)
            while not state.is_over:
                _check(state, ruleset, n)
                if state.census() != full:
                    raise AssertionError(f"hand {n} ({ruleset.name}): census differs from the set")
                if stats["steps"] % roundtrip_every == 0:
                    text = state.to_json()
                    if HandState.from_json(text, ruleset).to_json() != text:
                        raise AssertionError(f"hand {n} ({ruleset.name}): JSON round trip differs")
                    stats["roundtrips"] += 1
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
                wins = [a for a in legal if a.kind in WINS]
                pick = wins[0] if wins and rng.random() < 0.5 else legal[rng.randrange(len(legal))]
                state.apply(seat, pick)
                stats["steps"] += 1
            outcome = state.outcome
            assert outcome is not None
            if sum(outcome.deltas) != 0:
                raise AssertionError(f"hand {n}: payments {outcome.deltas} do not sum to zero")
            stats["draws" if outcome.drawn else "wins"] += 1
        except Exception as exc:  # a broken invariant or an engine crash: record, go on
            failures.append(f"hand {n} ({ruleset.name}): {type(exc).__name__}: {exc}")
        stats["hands"] += 1
        if (n + 1) % 10_000 == 0:
            print(
                f"  ... {n + 1} hands, {stats['steps']} steps, {len(failures)} failures", flush=True
            )
    stats["failures"] = failures
    return stats


def _check(state: HandState, ruleset: Ruleset, n: int) -> None:
    where = f"hand {n} ({ruleset.name}), {state.phase.value}"
    if not state.to_act:
        raise AssertionError(f"{where}: a live hand with nobody to act")
    for seat in state.to_act:
        if not state.legal_actions(seat):
            raise AssertionError(f"{where}: {seat.letter} must act but has no legal action")
    total = 144 if ruleset.bonus_tiles else 136
    # While an added kong may be robbed (搶槓), its tile is in transit: shown as the pending tile,
    # in neither the declarer's hand nor its meld. A concealed kong's tiles stay in the hand.
    in_transit = int(state.phase is Phase.ROB and state.pending_kind is PendingKind.ADDED)
    for seat in Wind:
        v = state.view(seat)
        seen = len(v.concealed) + v.tiles_left + ruleset.dead_wall + in_transit
        for other in Wind:
            if other != seat:
                seen += v.concealed_counts[other]
            seen += sum(len(m.tiles) for m in v.melds[other]) + len(v.bonus[other])
            seen += sum(1 for c in v.claimed[other] if not c)
        if seen != total:
            raise AssertionError(
                f"{where}: {seat.letter}'s view accounts {seen} tiles, not {total}"
            )
        if len(v.concealed) != v.concealed_counts[seat]:
            raise AssertionError(f"{where}: {seat.letter}'s own concealed count differs")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print numbers and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300, help="hands for the speed run")
    ap.add_argument("--preset", default="parlor")
    ap.add_argument("--full", action="store_true", help="also the 100,000-hand invariant run")
    ap.add_argument("--invariant-hands", type=int, default=100_000)
    ap.add_argument("--roundtrip-every", type=int, default=1, help="JSON round trip period")
    ap.add_argument("--riichienv-python", default="/tmp/riichi_venv/bin/python")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="interleaved rounds (hkmahjong bare, with views, riichienv); medians are printed",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON line at the end")
    args = ap.parse_args(argv)

    bares: list[float] = []
    rates: list[float] = []
    refs: list[float] = []
    for _ in range(max(1, args.rounds)):
        bares.append(hands_per_second(args.preset, args.hands, views=False)[0])
        rates.append(hands_per_second(args.preset, args.hands, views=True)[0])
        one = riichienv_hands_per_second(args.riichienv_python, max(50, args.hands))
        if one is not None:
            refs.append(one)
    bare, rate = statistics.median(bares), statistics.median(rates)
    if args.rounds > 1:
        print(
            f"{args.rounds} interleaved rounds, CPU time, medians; load average "
            f"{os.getloadavg()[0]:.1f}"
        )
    print(
        f"hkmahjong  {args.preset}: {bare:8.0f} complete hands per CPU-s, engine loop (random legal, "
        f"1 core, {args.hands} hands); target {TARGET_HANDS_PER_S}: "
        f"{bare / TARGET_HANDS_PER_S:.2f}x"
    )
    print(
        f"hkmahjong  {args.preset}: {rate:8.0f} complete hands per CPU-s with a PlayerView per decision "
        f"(as bots see it); target: {rate / TARGET_HANDS_PER_S:.2f}x"
    )
    ref = statistics.median(refs) if refs else None
    if ref is None:
        print(f"riichienv : not available at {args.riichienv_python} (see the module docstring)")
    else:
        print(
            f"riichienv : {ref:8.0f} riichi hands per CPU-s (Rust, random agent, same machine, same run)"
        )
        print(
            f"ratio hkmahjong / riichienv = {bare / ref:.2f} (engine loop), "
            f"{rate / ref:.2f} (with views)"
        )
        if len(refs) > 1:
            per_round_bare = [b / r for b, r in zip(bares, refs, strict=True)]
            per_round_views = [v / r for v, r in zip(rates, refs, strict=True)]
            print(
                "per-round ratios: engine loop "
                + " ".join(f"{x:.2f}" for x in per_round_bare)
                + "; with views "
                + " ".join(f"{x:.2f}" for x in per_round_views)
            )
    clones = clones_per_second(args.preset)
    print(f"clone     : {clones:8.0f} HandState.clone() per second (200 live states, 1 core)")
    mem = bytes_per_state(args.preset)
    print(
        f"memory    : {mem / 1000:8.1f} KB per live HandState (tracemalloc, 200 states 40 "
        f"actions in); target < {TARGET_BYTES_PER_STATE // 1000} KB: "
        f"{mem / TARGET_BYTES_PER_STATE:.2f}x of the budget"
    )
    result = {
        "hands_per_s": bare,
        "hands_per_s_with_views": rate,
        "riichienv_hands_per_s": ref,
        "bytes_per_state": mem,
        "clones_per_s": clones,
    }
    if args.full:
        start = time.perf_counter()
        stats = invariant_run(args.invariant_hands, args.roundtrip_every)
        secs = time.perf_counter() - start
        failures = stats["failures"]
        verdict = "all held" if not failures else f"{len(failures)} hands FAILED"
        print(
            f"invariants: {stats['hands']} hands ({stats['wins']} won, {stats['draws']} "
            f"drawn), {stats['steps']} steps, {stats['roundtrips']} JSON round trips, "
            f"{len(invariant_rulesets())} rulesets: {verdict}, in {secs:.0f} s"
        )
        for line in failures[:10]:
            print(f"  FAILED {line}")
        result["invariant_hands"] = stats["hands"]
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
