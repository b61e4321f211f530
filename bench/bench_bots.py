"""Bots benchmark: arena hands/s with four ``fan`` bots on one core, and ``strong``'s decision
latency (median, p99), each against a reference measured in the same run.

    .venv/bin/python bench/bench_bots.py            # short: 10 duplicate hand-sets per line-up
    .venv/bin/python bench/bench_bots.py --full     # 100 hand-sets per line-up

Reference: the same arena with four ``random`` bots (engine + arena cost only), so the ratio
shows what the bots' thinking costs. Targets (issue 5): >= 50 hands/s with four ``fan`` bots on one
core; ``strong`` decides in < 10 ms median and < 100 ms p99. Also four ``fan`` bots on fresh walls
(``hkmj arena`` without ``--duplicate``: as many hands, each wall once, so no rotation reuses a
wall's cached route plans): issue 16's figure, target >= 60 hands per CPU-second.
"""

from __future__ import annotations

import argparse
import json
import sys

from hkmahjong.bots.arena import ArenaConfig, run_arena
from hkmahjong.engine.state import HandState

TARGET_FAN_HANDS_PER_S = 50.0
TARGET_STRONG_MEDIAN_MS = 10.0
TARGET_STRONG_P99_MS = 100.0


def _run(
    bots: tuple[str, str, str, str], sets: int, rules: str, *, duplicate: bool = True
) -> dict[str, object]:
    cfg = ArenaConfig(
        bots=bots, hands=sets, ruleset=rules, seed="bench", duplicate=duplicate, jobs=1
    )
    return run_arena(cfg, HandState.new).summary()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its numbers (``--json`` for one JSON object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="100 hand-sets per line-up")
    parser.add_argument("--rules", default="parlor")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sets = 100 if args.full else 10
    ref = _run(("random",) * 4, sets, args.rules)  # type: ignore[arg-type]
    fan = _run(("fan",) * 4, sets, args.rules)  # type: ignore[arg-type]
    strong = _run(("strong", "fan", "fan", "fan"), sets, args.rules)
    # fresh walls (hkmj arena without --duplicate): as many hands, each wall played once, so the
    # route-plan cache cannot reuse a wall's plans from another rotation (issue 16's figure)
    fresh = _run(("fan",) * 4, 4 * sets, args.rules, duplicate=False)  # type: ignore[arg-type]
    fresh_hps = float(fresh["hands_per_cpu_second"])  # type: ignore[arg-type]
    ref_hps = float(ref["hands_per_cpu_second"])  # type: ignore[arg-type]
    fan_hps = float(fan["hands_per_cpu_second"])  # type: ignore[arg-type]
    fan_wall = float(fan["hands_per_second"])  # type: ignore[arg-type]
    sb = strong["per_bot"]["strong"]  # type: ignore[index]
    fb = fan["per_bot"]["fan"]  # type: ignore[index]
    rb = ref["per_bot"]["random"]  # type: ignore[index]
    result = {
        "rules": args.rules,
        "hand_sets": sets,
        "random_hands_per_s": ref_hps,
        "fan_hands_per_s": fan_hps,
        "fan_hands_per_wall_s": fan_wall,
        "fan_vs_random_speed": round(fan_hps / ref_hps, 3),
        "fan_fresh_walls_hands_per_s": fresh_hps,
        "fan_target_hands_per_s": TARGET_FAN_HANDS_PER_S,
        "fan_latency_median_ms": fb["latency_median_ms"],
        "fan_latency_p99_ms": fb["latency_p99_ms"],
        "random_latency_median_ms": rb["latency_median_ms"],
        "strong_latency_median_ms": sb["latency_median_ms"],
        "strong_latency_p99_ms": sb["latency_p99_ms"],
        "strong_decisions": sb["decisions"],
        "strong_targets_ms": [TARGET_STRONG_MEDIAN_MS, TARGET_STRONG_P99_MS],
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"bots benchmark ({args.rules}, {sets} duplicate hand-sets per line-up, one core)")
    print("  (hands per CPU-second of the one worker, so a busy machine does not skew it)")
    print(f"  reference: 4 x random  {ref_hps:8.1f} hands/s")
    print(
        f"  4 x fan                {fan_hps:8.1f} hands/s  ({fan_hps / ref_hps:.2f} x reference; "
        f"target >= {TARGET_FAN_HANDS_PER_S:.0f}) {'OK' if fan_hps >= 50 else 'BELOW TARGET'}; "
        f"wall clock {fan_wall:.1f} hands/s"
    )
    print(
        f"  4 x fan, fresh walls   {fresh_hps:8.1f} hands/s  ({4 * sets} walls played once; "
        f"issue 16 target >= 60)"
    )
    print(
        f"  fan decision latency   median {fb['latency_median_ms']:.2f} ms, "
        f"p99 {fb['latency_p99_ms']:.2f} ms (random: median {rb['latency_median_ms']:.3f} ms)"
    )
    ok = (
        sb["latency_median_ms"] < TARGET_STRONG_MEDIAN_MS
        and sb["latency_p99_ms"] < TARGET_STRONG_P99_MS
    )
    print(
        f"  strong decision latency median {sb['latency_median_ms']:.2f} ms, "
        f"p99 {sb['latency_p99_ms']:.2f} ms over {sb['decisions']} decisions "
        f"(target < 10 / < 100 ms) {'OK' if ok else 'ABOVE TARGET'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
