"""Peak memory of ``hkmj sim`` over long runs (issue 16: the record must stream, memory stay flat).

    .venv/bin/python bench/bench_sim_memory.py                     # 1,000 and 10,000 hands
    .venv/bin/python bench/bench_sim_memory.py --hands 1000 10000 100000
    .venv/bin/python bench/bench_sim_memory.py --kept              # also the in-memory record
    .venv/bin/python bench/bench_sim_memory.py --arena             # also hkmj arena

Each run is a fresh child process (``hkmj sim --hands N --seed bench-memory --quiet``, random
players, parlor rules, ``--length open``), measured with ``os.wait4``: its peak resident set size
(ru_maxrss), wall and CPU seconds. ``--log`` runs write the record to a temporary file (its size is
printed; it is verified with ``hkmj replay --verify`` when ``--verify`` is given). ``--kept`` adds,
for comparison, a child that plays the same match with ``run_match(..., keep=True)`` — the whole
record held in memory, as ``hkmj sim`` did before it streamed. ``--arena`` adds ``hkmj arena`` with
N hand-sets of four random bots, without and with ``--log`` (each hand's record streamed as it is
played; besides, the arena keeps each hand-set's points per bot name for its confidence intervals,
a few dozen bytes per set).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEED = "bench-memory"
ARENA_BOTS = "random,random,random,random"


def _child_kept(hands: int) -> None:
    """Play the match keeping the record in memory (the pre-streaming ``hkmj sim``)."""
    from hkmahjong.cli.cmd_sim import make_controllers
    from hkmahjong.engine.match import Match, MatchLength
    from hkmahjong.engine.players import run_match
    from hkmahjong.engine.record import seed_from_text
    from hkmahjong.rules import get_preset

    rules = get_preset("parlor")
    record = run_match(
        Match(length=MatchLength.OPEN, max_hands=hands),
        rules,
        make_controllers("random", SEED, rules),
        match_seed=seed_from_text(SEED),
    )
    print(len(record.hands))


def _run(cmd: list[str]) -> tuple[float, float, float]:
    """(peak RSS in MB, wall seconds, CPU seconds) of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with {proc.returncode}")
    # Linux reports ru_maxrss in KiB, macOS in bytes
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)
    return usage.ru_maxrss * scale, wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    """Measure and print one line per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--kept", action="store_true", help="also the in-memory record")
    parser.add_argument("--verify", action="store_true", help="replay --verify each log")
    parser.add_argument(
        "--arena", action="store_true", help=f"also hkmj arena --bots {ARENA_BOTS} (hand-sets)"
    )
    parser.add_argument("--arena-only", action="store_true", help="only the arena runs")
    parser.add_argument("--child-kept", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_kept:
        _child_kept(args.child_kept)
        return
    py = sys.executable
    sim = [py, "-m", "hkmahjong.cli.main", "sim", "--seed", SEED, "--quiet"]
    print(
        f"hkmj sim peak RSS — python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; random players, parlor, "
        f"seed {SEED!r}, one child process per run (os.wait4 ru_maxrss)"
    )
    print(f"{'run':<28} {'hands':>8} {'peak RSS MB':>12} {'wall s':>8} {'CPU s':>8} {'record':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for hands in args.hands:
            runs: list[tuple[str, list[str], Path | None]] = []
            if not args.arena_only:
                runs.append(("sim, no --log", [*sim, "--hands", str(hands)], None))
                log = Path(tmp) / f"sim-{hands}.jsonl"
                runs.append(
                    (
                        "sim --log FILE (streamed)",
                        [*sim, "--hands", str(hands), "--log", str(log)],
                        log,
                    )
                )
            if args.kept:
                kept = [py, __file__, "--child-kept", str(hands)]
                runs.append(("record kept in memory", kept, None))
            if args.arena or args.arena_only:
                arena = [py, "-m", "hkmahjong.cli.main", "arena", "--bots", ARENA_BOTS]
                arena += ["--hands", str(hands), "--seed", SEED, "--quiet"]
                runs.append(("arena (hand-sets)", arena, None))
                alog = Path(tmp) / f"arena-{hands}.jsonl"
                runs.append(("arena --log FILE (streamed)", [*arena, "--log", str(alog)], alog))
            for name, cmd, path in runs:
                rss, wall, cpu = _run(cmd)
                size = f"{path.stat().st_size / 1e6:.1f} MB" if path is not None else "-"
                print(f"{name:<28} {hands:>8,} {rss:>12.1f} {wall:>8.1f} {cpu:>8.1f} {size:>10}")
                if path is not None and args.verify:
                    check = [py, "-m", "hkmahjong.cli.main", "replay", "--verify", str(path)]
                    result = subprocess.run(check, capture_output=True, text=True, check=False)
                    print(
                        f"{'':<28} replay --verify: {result.stdout.strip() or result.stderr.strip()}"
                    )
                if path is not None:
                    path.unlink()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
