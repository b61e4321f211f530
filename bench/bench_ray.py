"""Ray benchmark: arena hands/s on a local Ray instance vs ``--jobs 1`` and ``--jobs 2`` for the
same run, Ray's start time, and its overhead per task (no-op tasks, one-hand-set tasks).

    .venv/bin/python bench/bench_ray.py                 # 40 duplicate hand-sets of fan,fan,fan,fan
    .venv/bin/python bench/bench_ray.py --hands 200 --bots strong,fan,fan,fan --json

Needs the ``ray`` extra (``pip install -e '.[ray]'``); without it, says so and exits 0. Every run
plays the same walls: the summaries (all but the times) must be the same on every backend, and the
script checks it. Conditions printed with the numbers: the load average before and after (the
machine may be shared), CPU count, Ray's version, hands, bots, ruleset.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from hkmahjong.bots.arena import ArenaConfig, _play_set, run_arena
from hkmahjong.bots.backend import Backend, imap_indexed, ray_available, ray_init, ray_shutdown
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset


def _noop(x: int) -> int:
    return x


def _one_set(args: tuple[ArenaConfig, int]) -> int:
    cfg, wall = args
    _play_set(cfg, get_preset(cfg.ruleset), HandState.new, wall)
    return wall


def _strip(summary: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in summary.items() if "second" not in k}
    per = json.loads(json.dumps(out["per_bot"]))
    for b in per.values():
        b.pop("latency_median_ms")
        b.pop("latency_p99_ms")
    out["per_bot"] = per
    return out


def _arena(cfg: ArenaConfig) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    res = run_arena(cfg, HandState.new)
    seconds = time.perf_counter() - t0
    return res.hands / seconds, _strip(res.summary())


def _per_task_ms(backend: Backend, n: int) -> tuple[float, float]:
    """(ms per task when ``n`` no-op tasks are in flight together, ms for one task's round trip
    when submitted one at a time)."""
    t0 = time.perf_counter()
    assert len(dict(imap_indexed(_noop, list(range(n)), backend))) == n
    batch = (time.perf_counter() - t0) / n * 1e3
    if backend.name != "ray":  # a single item runs in process: no round trip to measure
        return batch, 0.0
    rounds = 20
    t0 = time.perf_counter()
    for i in range(rounds):
        assert dict(imap_indexed(_noop, [i], backend)) == {0: i}
    return batch, (time.perf_counter() - t0) / rounds * 1e3


def _one_set_ms(cfg: ArenaConfig, backend: Backend, walls: int) -> tuple[float, float, float]:
    """Medians over ``walls`` walls of: a one-hand-set Ray task's round trip (submitted one at a
    time), the same hand-set played in this process, and their difference per wall (the two
    interleaved, so that the machine's load hits both alike)."""
    remote, here, diff = [], [], []
    for w in range(walls):
        t0 = time.perf_counter()
        assert dict(imap_indexed(_one_set, [(cfg, w)], backend)) == {0: w}
        t1 = time.perf_counter()
        _one_set((cfg, w))
        t2 = time.perf_counter()
        remote.append((t1 - t0) * 1e3)
        here.append((t2 - t1) * 1e3)
        diff.append(remote[-1] - here[-1])
    return statistics.median(remote), statistics.median(here), statistics.median(diff)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its numbers (``--json`` for one JSON object)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=40, help="duplicate hand-sets (default 40)")
    parser.add_argument("--bots", default="fan,fan,fan,fan")
    parser.add_argument("--rules", default="parlor")
    parser.add_argument("--jobs", type=int, default=2, help="Ray's CPUs and the local pool's size")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not ray_available():
        print("bench_ray: skipped, Ray is not installed (pip install -e '.[ray]')")
        return 0
    import ray

    names = tuple(args.bots.split(","))
    assert len(names) == 4, "--bots needs four names"
    load_before = os.getloadavg()
    cfg = ArenaConfig(
        bots=(names[0], names[1], names[2], names[3]),
        hands=args.hands,
        ruleset=args.rules,
        seed="bench-ray",
        duplicate=True,
        time_budget=3600.0,  # no decision cut short by a loaded machine: same walls, same play
    )
    one_hps, one = _arena(cfg)
    two_hps, two = _arena(dataclasses.replace(cfg, jobs=args.jobs))
    pool_batch, _ = _per_task_ms(Backend(jobs=args.jobs), 500)  # (before Ray: a forking pool)
    backend = Backend("ray", jobs=args.jobs)
    t0 = time.perf_counter()
    ray_init(backend)
    start_s = time.perf_counter() - t0
    ray_cfg = dataclasses.replace(cfg, backend="ray", jobs=args.jobs)
    cold_hps, cold = _arena(ray_cfg)  # worker processes start and import hkmahjong
    warm_hps, warm = _arena(ray_cfg)
    same = one == two == cold == warm
    noop_ray_batch, noop_ray_round = _per_task_ms(backend, 500)
    set_ray, set_here, set_over = _one_set_ms(cfg, backend, 30)
    ray_shutdown()
    result = {
        "bots": list(cfg.bots),
        "rules": cfg.ruleset,
        "hand_sets": cfg.hands,
        "hands": cfg.hands * cfg.rotations,
        "cpus": os.cpu_count(),
        "jobs": args.jobs,
        "ray": ray.__version__,
        "python": platform.python_version(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "hands_per_s_jobs_1": round(one_hps, 1),
        f"hands_per_s_jobs_{args.jobs}": round(two_hps, 1),
        "hands_per_s_ray_cold": round(cold_hps, 1),
        "hands_per_s_ray_warm": round(warm_hps, 1),
        "ray_vs_jobs": round(warm_hps / two_hps, 3),
        "ray_start_s": round(start_s, 2),
        "noop_task_ms_batched": {"ray": round(noop_ray_batch, 3), "pool": round(pool_batch, 3)},
        "noop_task_ms_round_trip_ray": round(noop_ray_round, 2),
        "one_hand_set_ms": {"ray": round(set_ray, 1), "in_process": round(set_here, 1)},
        "one_hand_set_overhead_ms": round(set_over, 1),
        "same_results": same,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"arena {','.join(cfg.bots)} under {cfg.ruleset!r}: {result['hands']} hands "
            f"({cfg.hands} duplicate hand-sets); {os.cpu_count()} CPUs; Ray {ray.__version__}, "
            f"Python {platform.python_version()}; load average before {result['load_before']}, "
            f"after {result['load_after']}"
        )
        print(f"  --jobs 1             {one_hps:8.1f} hands/s")
        print(f"  --jobs {args.jobs}             {two_hps:8.1f} hands/s")
        print(f"  --backend ray (cold) {cold_hps:8.1f} hands/s  (first run: workers start)")
        print(
            f"  --backend ray (warm) {warm_hps:8.1f} hands/s  = {warm_hps / two_hps:.2f}× "
            f"--jobs {args.jobs}; Ray's start {start_s:.1f} s (not in these rates)"
        )
        print(
            f"  per no-op task: Ray {noop_ray_batch:.2f} ms batched (500 in flight), "
            f"{noop_ray_round:.1f} ms round trip (one at a time); local pool of {args.jobs} "
            f"{pool_batch:.3f} ms batched (its start included)"
        )
        print(
            f"  one-hand-set task (medians of 30 walls, interleaved): Ray {set_ray:.1f} ms round "
            f"trip vs {set_here:.1f} ms in process → {set_over:.1f} ms overhead"
        )
        print(f"  same summaries on every backend: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
