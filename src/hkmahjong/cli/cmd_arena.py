"""``hkmj arena``: 競技場 — bots play duplicate hand-sets; points per hand with 95% CIs."""

from __future__ import annotations

import argparse
import json
import os
import sys

from hkmahjong.argtypes import positive_float, positive_int
from hkmahjong.bots.arena import ArenaConfig, ArenaError, run_arena
from hkmahjong.cli.backend_options import add_backend_options, jobs_for
from hkmahjong.cli.record_sink import record_sink
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset

NAME = "arena"
HELP = (
    "競技場: bots play the same walls in every seat; summary with 95 per cent confidence intervals"
)
ORDER = 60


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arena's options to ``parser``."""
    parser.add_argument(
        "--bots",
        default="strong,fan,fan,fan",
        help="four bot names, comma-separated; the first is the challenger (default %(default)s)",
    )
    parser.add_argument("--hands", type=positive_int, default=100, help="hand-sets (walls) to play")
    parser.add_argument(
        "--rules", default="parlor", help="ruleset preset (parlor, qingzhang, ml, …)"
    )
    parser.add_argument("--seed", default="0", help="seed: the same seed plays the same walls")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each wall once per rotation of the line-up (the challenger in every seat)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        help=f"worker processes, or the CPUs of a local Ray instance (this machine has "
        f"{os.cpu_count()}; default 1, with --backend ray all of them)",
    )
    add_backend_options(parser, "hand-sets")
    parser.add_argument(
        "--budget", type=positive_float, default=0.5, help="per-decision time budget (s)"
    )
    parser.add_argument(
        "--log",
        default=None,
        metavar="FILE",
        help="write every hand's game record here as it is played (a stream of one-hand "
        "records, JSON Lines; hkmj replay --verify checks it; - for standard output)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    """Run the arena and print its summary.

    :raises ArenaError: for a bad line-up, hand count or job count.
    """
    names = tuple(n.strip() for n in str(args.bots).split(",") if n.strip())
    if len(names) != 4:
        raise ArenaError(f"--bots needs four comma-separated names, got {args.bots!r}")
    get_preset(args.rules)
    cfg = ArenaConfig(
        bots=(names[0], names[1], names[2], names[3]),
        hands=args.hands,
        ruleset=args.rules,
        seed=str(args.seed),
        duplicate=bool(args.duplicate),
        jobs=jobs_for(args),
        time_budget=args.budget,
        backend=args.backend,
        address=args.address,
    )
    with record_sink(args.log) as write:
        result = run_arena(
            cfg,
            HandState.new,
            progress=None if args.quiet else sys.stderr,
            write=write,
            keep_sets=False,  # the summary needs only running sums: flat memory for long runs
        )
    out = sys.stderr if args.log == "-" else sys.stdout
    if args.json:
        print(json.dumps(result.summary(), ensure_ascii=False, indent=2), file=out)
    else:
        print(result.text(), file=out)
    return 0
