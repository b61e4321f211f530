"""``hkmj``: the command line. Each subcommand lives in a module ``cmd_<name>`` of a command package
(``hkmahjong.cli`` here; :mod:`hkmahjong.entry` adds ``hkmahjong.server``) that defines ``NAME``,
``HELP``, ``register(parser)`` and ``run(args) -> int``; they are found here."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

import hkmahjong
import hkmahjong.cli
import hkmahjong.errors

__all__ = ["build_parser", "main"]


def _commands(packages: Sequence[ModuleType]) -> list[ModuleType]:
    mods = []
    for package in packages:
        for info in pkgutil.iter_modules(package.__path__):
            if info.name.startswith("cmd_"):
                mods.append(importlib.import_module(f"{package.__name__}.{info.name}"))
    return sorted(mods, key=lambda m: getattr(m, "ORDER", 50))


def build_parser(packages: Sequence[ModuleType] = (hkmahjong.cli,)) -> argparse.ArgumentParser:
    """The argument parser with every subcommand of ``packages`` registered."""
    parser = argparse.ArgumentParser(
        prog="hkmj",
        description="Hong Kong mahjong (香港麻雀): play, score hands, analyse, simulate.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"hkmj {hkmahjong.__version__} ({hkmahjong.build_info()})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _commands(packages):
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.register(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(
    argv: Sequence[str] | None = None, packages: Sequence[ModuleType] = (hkmahjong.cli,)
) -> int:
    """Run ``hkmj`` with ``argv`` (default: the process arguments); returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
    parser = build_parser(packages)
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        default = getattr(_default_command(packages), "default_main", None)
        if default is not None:
            return int(default(parser))
        parser.print_help()
        return 0
    try:
        return int(run(args))
    except hkmahjong.errors.MahjongError as exc:
        print(f"hkmj: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _default_command(packages: Sequence[ModuleType]) -> ModuleType | None:
    """The module whose ``default_main`` runs for a bare ``hkmj`` (highest DEFAULT priority)."""
    best: tuple[int, ModuleType] | None = None
    for mod in _commands(packages):
        prio = getattr(mod, "DEFAULT_PRIORITY", None)
        if prio is not None and (best is None or prio > best[0]):
            best = (prio, mod)
    return best[1] if best else None


if __name__ == "__main__":
    raise SystemExit(main())
