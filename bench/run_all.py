"""Run every benchmark under bench/ with its default (short) settings, one after another.

    python bench/run_all.py [--full]

Each script measures its reference in the same run and prints the ratios; ``--full`` passes
``--full`` to the scripts that have a long mode (the 100,000-hand cross-checks and invariant runs).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "bench_hand.py",
    "bench_scoring.py",
    "bench_engine.py",
    "bench_env.py",
    "bench_bots.py",
    "bench_builds.py",
    "bench_ray.py",
]
HAS_FULL = {"bench_hand.py", "bench_scoring.py", "bench_engine.py"}


def main() -> int:
    full = "--full" in sys.argv[1:]
    status = 0
    for name in SCRIPTS:
        path = HERE / name
        if not path.exists():
            continue
        args = [sys.executable, str(path)] + (["--full"] if full and name in HAS_FULL else [])
        print(f"=== {name} {' '.join(args[2:])}", flush=True)
        status |= subprocess.call(args)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
