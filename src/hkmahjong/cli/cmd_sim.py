"""``hkmj sim``: 模擬 — play seeded matches with random (or bot) players and write game records."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

from hkmahjong.argtypes import non_negative_int, positive_float, positive_int
from hkmahjong.engine.match import Match, MatchError, MatchLength
from hkmahjong.engine.players import Controller, FirstPlayer, RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, HandRecord, new_match_seed, seed_from_text
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, load_ruleset

NAME = "sim"
HELP = "模擬 simulate: play seeded matches with random or bot players and write game records"
ORDER = 70

_BUILTIN: dict[str, Callable[[str], Controller]] = {
    "random": lambda seed: RandomPlayer(seed),
    "random-win": lambda seed: RandomPlayer(seed, win_bias=1.0),
    "first": lambda seed: FirstPlayer(),
}


SAFETY_CAP = 1000
"""Hands after which a match of another length than ``open`` stops when --hands is not given."""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``sim`` options."""
    parser.add_argument(
        "--hands",
        type=positive_int,
        default=None,
        help="hands to play: exactly this many with --length open (default 16); with another "
        f"length, a cap (default {SAFETY_CAP}: random players may draw hand after hand)",
    )
    parser.add_argument(
        "--seed",
        default=None,
        help="simulation seed (any text); the same seed replays the same match. "
        "Default: a fresh seed from the secrets module",
    )
    parser.add_argument(
        "--rules", default="parlor", help="preset name or ruleset TOML file (default parlor)"
    )
    parser.add_argument(
        "--length",
        default="open",
        help="match length: one-hand, east-round, four-rounds, 8-hands, 16-hands, bankruptcy, "
        "online, open (default open: just --hands hands)",
    )
    parser.add_argument(
        "--start",
        type=non_negative_int,
        default=0,
        help="starting jade per player (bankruptcy needs > 0)",
    )
    parser.add_argument(
        "--bots",
        default="random",
        help="one name for all four seats or four names, comma-separated: random, random-win, "
        "first, or a bot of hkmahjong.bots (efficient, fan, strong, easy ... expert); "
        "default random",
    )
    parser.add_argument(
        "--time-budget",
        type=positive_float,
        default=0.05,
        help="seconds per decision for bots that search (default 0.05)",
    )
    parser.add_argument("--log", default=None, help="write the game record (JSON Lines) here")
    parser.add_argument("--quiet", action="store_true", help="print only the final line")


def make_controllers(
    spec: str, seed: str, ruleset: Ruleset | None = None, time_budget: float = 0.05
) -> list[Controller]:
    """Four controllers from ``random`` or ``random,fan,...``: built-in players or bots by name.

    :raises MahjongError: for an unknown name or a list that is not one or four names.
    """
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise MahjongError(f"--bots needs one name or four, got {len(names)}: {spec!r}")
    return [
        _controller(name, f"{seed}/player/{i}", ruleset, time_budget)
        for i, name in enumerate(names)
    ]


def _controller(name: str, seed: str, ruleset: Ruleset | None, budget: float) -> Controller:
    if name in _BUILTIN:
        return _BUILTIN[name](seed)
    bots = importlib.import_module("hkmahjong.bots")
    get_bot = getattr(bots, "get_bot", None)
    if get_bot is None:
        raise MahjongError(f"unknown player {name!r}: expected {', '.join(_BUILTIN)}")
    bot: Controller = get_bot(name, seed, ruleset=ruleset, time_budget=budget)
    return bot


def run(args: argparse.Namespace) -> int:
    """Play the match and write its record."""
    ruleset = load_ruleset(args.rules)
    try:
        length = MatchLength.parse(args.length)
        cap = args.hands or (16 if length is MatchLength.OPEN else SAFETY_CAP)
        match = Match(length=length, starting_balance=args.start, max_hands=cap)
    except MatchError as exc:
        raise MahjongError(str(exc)) from None
    seed_text = args.seed if args.seed is not None else new_match_seed().hex()
    match_seed = seed_from_text(seed_text)
    controllers = make_controllers(args.bots, seed_text, ruleset, args.time_budget)
    out = sys.stdout

    def progress(hand: HandRecord, m: Match) -> None:
        if args.quiet or hand.result is None:
            return
        e = m.ledger[-1]
        r = hand.result
        what = (
            "流局 drawn"
            if r.drawn
            else "糊 " + " ".join(f"{m.players[(e.dealer + w) % 4]}" for w in r.winners)
        )
        print(f"hand {hand.number + 1:>4}  {e.label:<12} {what}", file=out)

    start = time.perf_counter()
    record = run_match(match, ruleset, controllers, match_seed=match_seed, on_hand=progress)
    seconds = time.perf_counter() - start
    if args.log:
        _save(record, args.log)
    if not args.quiet:
        print(match.standings(), file=out)
    rate = match.hand_number / seconds if seconds > 0 else float("inf")
    logged = f"; record: {args.log}" if args.log else ""
    print(
        f"{match.hand_number} hands ({ruleset.name}, seed {seed_text!r}) in {seconds:.2f} s, "
        f"{rate:.0f} hands/s{logged}",
        file=out,
    )
    if length is not MatchLength.OPEN and not _length_reached(match):
        print(
            f"note: stopped after {match.hand_number} hands (--hands cap) before the match "
            f"length {length.value} was reached",
            file=out,
        )
    return 0


def _save(record: GameRecord, path: str) -> None:
    if path == "-":
        sys.stdout.write(record.dumps())
        return
    try:
        Path(path).write_text(record.dumps(), encoding="utf-8")
    except OSError as exc:
        raise MahjongError(f"cannot write the record to {path}: {exc.strerror}") from None


def _length_reached(match: Match) -> bool:
    """Whether the match ended by its own length (not by the --hands cap)."""
    hands, deals = match.length.hand_limit, match.length.deal_limit
    if hands is not None and match.hand_number >= hands:
        return True
    if deals is not None and match.deals_passed >= deals:
        return True
    return match.length is MatchLength.BANKRUPTCY and any(b <= 0 for b in match.balances)
