"""Review benchmark (issue 37): a four-hand match (四局, ``online``) of four ``strong`` reviewed for
one player at the default budget; wall and CPU seconds, with the conditions.

    .venv/bin/python bench/bench_review.py                 # default budget, one process
    .venv/bin/python bench/bench_review.py --jobs 2        # two worker processes
    .venv/bin/python bench/bench_review.py --budget 16 --seeds bench-review,b2

Target: <= 60 s of wall time for the match on the development machine (2 cores shared). The
reference, measured in the same run, is the time the same four hands take to play (four
``strong`` deciding): the review's cost is printed as a multiple of it. CPU seconds include the
worker processes' (``--jobs``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time

import hkmahjong
from hkmahjong.bots import get_bot
from hkmahjong.bots.review import REVIEW_BUDGET, ReviewConfig, review_match
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import run_match
from hkmahjong.engine.record import GameRecord, seed_from_text
from hkmahjong.rules import get_preset

TARGET_S = 60.0


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _play(seed: str, rules: str) -> tuple[GameRecord, float, float]:
    ruleset = get_preset(rules)
    players = [get_bot("strong", seed=i, ruleset=ruleset) for i in range(4)]
    t, c = time.perf_counter(), _cpu()
    record = run_match(
        Match(("P1", "P2", "P3", "P4"), MatchLength("online")),
        ruleset,
        players,
        match_seed=seed_from_text(seed),
    )
    return record, time.perf_counter() - t, _cpu() - c


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its numbers (``--json`` for one JSON object per match)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="bench-review", help="match seeds, comma-separated")
    parser.add_argument("--rules", default="parlor")
    parser.add_argument("--budget", type=int, default=REVIEW_BUDGET)
    parser.add_argument("--player", type=int, default=1, help="1-4 (default 1)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    print(
        f"# hkmahjong {hkmahjong.__version__} ({hkmahjong.build_info()}), Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at start",
        file=sys.stderr,
    )
    worst = 0.0
    for seed in args.seeds.split(","):
        record, play_wall, play_cpu = _play(seed, args.rules)
        config = ReviewConfig(budget=args.budget)
        t, c = time.perf_counter(), _cpu()
        review = review_match(record, args.player - 1, config, jobs=args.jobs)
        wall, cpu = time.perf_counter() - t, _cpu() - c
        worst = max(worst, wall)
        decisions = review.decisions
        rollouts = sum(d.samples * len(d.candidates) for d in decisions)
        totals = review.totals
        row = {
            "seed": seed,
            "rules": args.rules,
            "hands": len(review.hands),
            "player": args.player,
            "budget": args.budget,
            "jobs": args.jobs,
            "decisions": totals.reviewed,
            "forced": sum(h.forced for h in review.hands),
            "rollouts": rollouts,
            "extended": sum(1 for d in decisions if d.samples > args.budget),
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "ms_per_rollout_cpu": round(1000 * cpu / max(1, rollouts), 1),
            "play_wall_s": round(play_wall, 2),
            "play_cpu_s": round(play_cpu, 2),
            "review_over_play_cpu": round(cpu / max(play_cpu, 1e-9), 1),
            "load_after": round(os.getloadavg()[0], 1),
            "accuracy": totals.accuracy,
            "verdicts": totals.verdicts,
            "within_target": wall <= TARGET_S,
        }
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{seed}: {row['hands']} hands, player P{args.player}, budget {args.budget} "
                f"(jobs {args.jobs}): {row['decisions']} decisions ({row['forced']} forced), "
                f"{rollouts} rollouts ({row['extended']} decisions extended); review "
                f"{wall:.1f} s wall, {cpu:.1f} s CPU ({row['ms_per_rollout_cpu']} ms a rollout); "
                f"playing the match {play_wall:.2f} s wall, {play_cpu:.2f} s CPU → review "
                f"{row['review_over_play_cpu']}× the play's CPU; load {row['load_after']} after; "
                f"target ≤ {TARGET_S:g} s wall: {'met' if wall <= TARGET_S else 'MISSED'}"
            )
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
