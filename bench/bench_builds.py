"""The pure and the compiled build side by side (issue 16), with the Rust ``riichienv`` as reference.

    .venv/bin/python bench/bench_builds.py                 # 3 interleaved rounds
    .venv/bin/python bench/bench_builds.py --rounds 5 --walls 100 --hands 300 --json

Each round runs one child process per build (``HKMJ_BUILD=pure`` and ``HKMJ_BUILD=compiled``; the
compiled build must be built: ``make build``) and one ``riichienv`` child, in turn, so a change of
machine load hits them alike. A child measures, in CPU seconds of its one core:

* the engine with random legal players, bare (legal actions + apply) and with a ``PlayerView`` per
  decision (``bench_engine.hands_per_second``, ``--hands`` parlor hands);
* four ``fan`` bots on fresh walls (``hkmj arena`` without ``--duplicate``, ``--walls`` walls);
* ``strong`` + three ``fan`` (duplicate, ``--walls`` / 4 hand-sets): ``strong``'s median and p99
  decision time (wall clock of the decision, as the arena reports it).

Printed: per build the median over rounds (and the range), compiled ÷ pure, the engine loops ÷
``riichienv`` (its random agent on one-hand riichi games, ``bench_engine.RIICHI_SCRIPT``; install it
with ``python3 -m venv /tmp/riichi_venv && /tmp/riichi_venv/bin/pip install riichienv``), and issue
16's targets: engine with views >= 1.0x and bare >= 1.5x riichienv, four ``fan`` >= 60 hands per
CPU-second on fresh walls, ``strong`` median <= 0.3 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILDS = ("pure", "compiled")
TARGETS = {
    "engine_bare_vs_riichienv": 1.5,
    "engine_views_vs_riichienv": 1.0,
    "fan_fresh_hands_per_cpu_s": 60.0,
    "strong_median_ms": 0.3,
}

CHILD = """
import json, sys
sys.path.insert(0, {here!r})
import hkmahjong
from bench_engine import hands_per_second
from hkmahjong.bots.arena import ArenaConfig, run_arena
from hkmahjong.engine.state import HandState
hands, walls = {hands}, {walls}
bare, _ = hands_per_second("parlor", hands, views=False)
views, _ = hands_per_second("parlor", hands, views=True)
def arena(bots, n, duplicate):
    cfg = ArenaConfig(bots=bots, hands=n, ruleset="parlor", seed="bench-builds",
                      duplicate=duplicate, jobs=1)
    return run_arena(cfg, HandState.new).summary()
fan = arena(("fan",) * 4, walls, False)
strong = arena(("strong", "fan", "fan", "fan"), max(1, walls // 4), True)["per_bot"]["strong"]
print(json.dumps({{
    "build": str(hkmahjong.build_info()),
    "kind": hkmahjong.build_info().kind,
    "engine_bare": bare,
    "engine_views": views,
    "fan_fresh_hands_per_cpu_s": fan["hands_per_cpu_second"],
    "strong_median_ms": strong["latency_median_ms"],
    "strong_p99_ms": strong["latency_p99_ms"],
    "strong_decisions": strong["decisions"],
}}))
"""


def run_build(build: str, hands: int, walls: int) -> dict[str, object]:
    """One child process of ``build``: its measurements (see the module docstring)."""
    env = {**os.environ, "HKMJ_BUILD": build}
    code = CHILD.format(here=str(HERE), hands=hands, walls=walls)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"bench_builds: the {build} child failed:\n{out.stderr}")
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    if result["kind"] != build:
        raise SystemExit(
            f"bench_builds: asked for the {build} build, the child ran {result['build']}"
        )
    return result


def riichienv(python: str, hands: int) -> float | None:
    """riichienv's random-agent hands per CPU-second (None when it is not installed)."""
    sys.path.insert(0, str(HERE))
    from bench_engine import riichienv_hands_per_second

    return riichienv_hands_per_second(python, hands)


def _fmt(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.3f}"


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Run the rounds and print the comparison (``--json``: one JSON object)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hands", type=int, default=300, help="engine hands per loop and round")
    ap.add_argument("--walls", type=int, default=60, help="fresh walls for four fan per round")
    ap.add_argument("--riichienv-python", default="/tmp/riichi_venv/bin/python")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows: dict[str, list[dict[str, object]]] = {b: [] for b in BUILDS}
    ref: list[float] = []
    for r in range(args.rounds):
        for build in BUILDS:
            rows[build].append(run_build(build, args.hands, args.walls))
        one = riichienv(args.riichienv_python, args.hands)
        if one is not None:
            ref.append(one)
        print(f"round {r + 1}/{args.rounds} done; load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    keys = [
        "engine_bare",
        "engine_views",
        "fan_fresh_hands_per_cpu_s",
        "strong_median_ms",
        "strong_p99_ms",
    ]
    med = {b: {k: _median([float(x[k]) for x in rows[b]]) for k in keys} for b in BUILDS}  # type: ignore[arg-type]
    ref_med = _median(ref) if ref else None
    report: dict[str, object] = {
        "rounds": args.rounds,
        "hands": args.hands,
        "walls": args.walls,
        "load_average": os.getloadavg()[0],
        "builds": {b: rows[b][0]["build"] for b in BUILDS},
        "median": med,
        "per_round": rows,
        "riichienv_hands_per_cpu_s": ref,
        "targets": TARGETS,
    }
    if ref_med:
        for b in BUILDS:
            med[b]["engine_bare_vs_riichienv"] = med[b]["engine_bare"] / ref_med
            med[b]["engine_views_vs_riichienv"] = med[b]["engine_views"] / ref_med
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(
        f"builds benchmark: {args.rounds} interleaved rounds, CPU time, medians (range); "
        f"load average {report['load_average']:.1f}"
    )
    print(f"  pure = {report['builds']['pure']}; compiled = {report['builds']['compiled']}")  # type: ignore[index]
    labels = {
        "engine_bare": "engine bare loop, hands/CPU-s",
        "engine_views": "engine + a view per decision, hands/CPU-s",
        "fan_fresh_hands_per_cpu_s": "four fan, fresh walls, hands/CPU-s",
        "strong_median_ms": "strong decision median, ms",
        "strong_p99_ms": "strong decision p99, ms",
    }
    print(f"  {'':44} {'pure':>18} {'compiled':>18} {'compiled/pure':>14}")
    for k in keys:
        cells = []
        for b in BUILDS:
            vals = [float(x[k]) for x in rows[b]]  # type: ignore[arg-type]
            cells.append(f"{_fmt(med[b][k]):>7} ({_fmt(min(vals))}-{_fmt(max(vals))})")
        print(
            f"  {labels[k]:44} {cells[0]:>18} {cells[1]:>18} {med['compiled'][k] / med['pure'][k]:13.2f}x"
        )
    if ref_med:
        print(
            f"  riichienv (Rust, random agent), hands/CPU-s: {ref_med:.0f} (rounds: {', '.join(f'{x:.0f}' for x in ref)})"
        )
        for k in ("engine_bare_vs_riichienv", "engine_views_vs_riichienv"):
            print(
                f"  {k:44} {med['pure'][k]:8.2f}x {med['compiled'][k]:17.2f}x"
                f"   target >= {TARGETS[k]}"
            )
    else:
        print(f"  riichienv: not available at {args.riichienv_python}")
    c = med["compiled"]
    print(
        f"  targets (compiled): fan fresh {c['fan_fresh_hands_per_cpu_s']:.1f} >= 60 "
        f"{'OK' if c['fan_fresh_hands_per_cpu_s'] >= 60 else 'NOT MET'}; strong median "
        f"{c['strong_median_ms']:.3f} <= 0.3 ms {'OK' if c['strong_median_ms'] <= 0.3 else 'NOT MET'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
