"""``--backend``/``--address`` (and the default of ``--jobs``) shared by ``hkmj arena`` and ``sim``."""

from __future__ import annotations

import argparse
import os

from hkmahjong.bots.backend import BACKENDS


def add_backend_options(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--backend`` and ``--address``; ``what`` names the pieces of work (for the help)."""
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help=f"where the {what} run: local processes (--jobs) or Ray tasks (needs the ray extra: "
        "pip install 'hkmahjong[ray]'); the results are the same (default %(default)s)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --backend ray: a Ray cluster to use (auto, or HOST:PORT of `ray start "
        "--head`); default: a private local Ray instance on this machine",
    )


def jobs_for(args: argparse.Namespace) -> int:
    """``--jobs`` as given, else 1 (local) or this machine's CPU count (a local Ray instance)."""
    if args.jobs is not None:
        return int(args.jobs)
    return (os.cpu_count() or 1) if args.backend == "ray" else 1
