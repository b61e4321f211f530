"""``hkmj play``: the terminal parlor (麻雀館) — a full match against three bots."""

from __future__ import annotations

import argparse
from pathlib import Path

from hkmahjong.argtypes import non_negative_float, positive_float

__all__ = ["DEFAULT_PRIORITY", "HELP", "NAME", "default_main", "register", "run"]

NAME = "play"
HELP = "play a match of Hong Kong mahjong (香港麻雀) against three bots in the terminal"
ORDER = 1

OPPONENTS = ("easy", "normal", "hard", "expert")


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``play`` options to ``parser``."""
    parser.add_argument(
        "--rules", default="parlor", help="ruleset preset or TOML file (default: parlor)"
    )
    parser.add_argument(
        "--length",
        default=None,
        help="match length, one the ruleset offers (hkmj rules NAME lists its match_lengths; "
        "parlor: four-rounds 四圈, 8-hands, 16-hands, bankruptcy, online); default: the first",
    )
    parser.add_argument(
        "--opponents", default="normal", choices=OPPONENTS, help="bot strength (default: normal)"
    )
    parser.add_argument(
        "--seed", default=None, help="match seed (the same seed deals the same walls)"
    )
    parser.add_argument(
        "--lang",
        default=None,
        choices=("zh-Hant", "zh-Hans", "en"),
        help="screen language (default: zh-Hant, or the saved game's)",
    )
    parser.add_argument(
        "--resume", type=Path, default=None, metavar="FILE", help="resume a saved match"
    )
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="where s saves (default: hkmj-match.jsonl in $HKMJ_DATA_DIR, else "
        "$XDG_DATA_HOME/hkmahjong or ~/.local/share/hkmahjong)",
    )
    parser.add_argument(
        "--claim-timer",
        type=positive_float,
        default=None,
        metavar="SECONDS",
        help="seconds to answer a claim prompt before it passes (default: no timer)",
    )
    parser.add_argument(
        "--tiles",
        choices=("auto", "text", "ascii", "glyph"),
        default="auto",
        help="tile style: text labels (5萬), ascii (5m), Unicode glyphs (only if your terminal draws them wide)",
    )
    parser.add_argument(
        "--debug-hints",
        action="store_true",
        help="the hint (h) also shows the advising bot's raw trace: candidates and their scores",
    )
    parser.add_argument(
        "--speed",
        type=non_negative_float,
        default=0.35,
        metavar="SECONDS",
        help="pause after each bot move",
    )


def run(args: argparse.Namespace) -> int:
    """Start the parlor app with ``args``; returns the exit status."""
    from hkmahjong.cli.tui.launch import play_from_args

    return play_from_args(args)


DEFAULT_PRIORITY = 100
"""A bare ``hkmj`` starts the game."""


def default_main(parser: argparse.ArgumentParser) -> int:
    """What a bare ``hkmj`` runs: a new match with the default options."""
    import sys

    from hkmahjong.errors import MahjongError

    own = argparse.ArgumentParser(prog="hkmj play")
    register(own)
    try:
        return run(own.parse_args([]))
    except MahjongError as exc:
        print(f"hkmj: error: {exc}", file=sys.stderr)
        return 2
