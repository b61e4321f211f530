"""``hkmj sim``: 模擬 — play seeded matches with random (or bot) players and write game records."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hkmahjong.argtypes import non_negative_int, positive_float, positive_int
from hkmahjong.bots.backend import Backend, imap_indexed
from hkmahjong.cli.backend_options import add_backend_options, jobs_for
from hkmahjong.cli.record_sink import record_sink
from hkmahjong.engine.match import Match, MatchError, MatchLength
from hkmahjong.engine.players import Controller, FirstPlayer, RandomPlayer, run_match
from hkmahjong.engine.record import HandRecord, new_match_seed, seed_from_text
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


def _progress_line(hand: HandRecord, m: Match) -> str:
    """The readable line of a finished hand: the standings after it, and who won (or 流局)."""
    assert hand.result is not None
    e = m.ledger[-1]
    r = hand.result
    what = (
        "流局 drawn"
        if r.drawn
        else "糊 " + " ".join(f"{m.players[(e.dealer + w) % 4]}" for w in r.winners)
    )
    return f"{m.standings_row(e)}  {what}"


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
        "first, or a bot of hkmahjong.bots (efficient, fan, strong, master, easy ... expert); "
        "default random",
    )
    parser.add_argument(
        "--time-budget",
        type=positive_float,
        default=0.05,
        help="seconds per decision for bots that search (default 0.05)",
    )
    parser.add_argument(
        "--matches",
        type=positive_int,
        default=1,
        help="matches to play (default 1): the first from --seed, match k (k ≥ 2) from "
        "'SEED#k'; they run in parallel with --jobs or --backend ray",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        help=f"worker processes for --matches, or the CPUs of a local Ray instance (this machine "
        f"has {os.cpu_count()}; default 1, with --backend ray all of them)",
    )
    add_backend_options(parser, "matches")
    parser.add_argument(
        "--log",
        default=None,
        help="write the game record (JSON Lines) here; with --matches N > 1, one file per match "
        "(match.jsonl → match-1.jsonl … match-N.jsonl); '-': standard output, in match order",
    )
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
    """Play the match (or ``--matches`` matches) and write the records."""
    if args.matches == 1 and args.backend == "local":
        return _run_here(args)
    return _run_matches(args)


def _run_here(args: argparse.Namespace) -> int:
    """One match in this process: each hand printed and its record lines written as it ends."""
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
    # --log -: the record alone on standard output, the readable lines on standard error
    out = sys.stderr if args.log == "-" else sys.stdout

    def progress(hand: HandRecord, m: Match) -> None:
        if not args.quiet and hand.result is not None:
            print(_progress_line(hand, m), file=out)

    if not args.quiet:
        print(match.standings_head(), file=out)
    with record_sink(args.log) as write:
        start = time.perf_counter()
        # The record goes to the file line by line; nothing of a finished hand stays in memory.
        run_match(
            match,
            ruleset,
            controllers,
            match_seed=match_seed,
            on_hand=progress,
            write=write,
            keep=False,
        )
        seconds = time.perf_counter() - start
    if not args.quiet:
        print(match.standings_total(), file=out)
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


def match_seed_text(seed: str, k: int) -> str:
    """The seed text of match ``k`` (0-based) of a ``--matches`` run: ``seed``, ``seed#2``, …"""
    return seed if k == 0 else f"{seed}#{k + 1}"


@dataclass(frozen=True)
class SimJob:
    """One match of ``hkmj sim``: everything a worker (a process or a Ray task) needs to play it."""

    ruleset: Ruleset
    length: MatchLength
    start: int
    cap: int
    seed: str
    bots: str
    time_budget: float
    lines: bool
    """Whether to keep the readable lines (not with --quiet)."""
    record: bool
    """Whether to return the record's text (only with --log)."""


@dataclass
class SimResult:
    """What a match of ``hkmj sim`` printed and recorded."""

    seed: str
    hands: int = 0
    lines: list[str] = field(default_factory=list)
    record: str = ""
    length_reached: bool = True


def play_sim_match(job: SimJob) -> SimResult:
    """Play one match of ``hkmj sim`` in a worker: its readable lines (as :func:`run` prints them
    for one match) and its record (its lines joined: a worker holds one match's record) come back
    with the result."""
    match = Match(length=job.length, starting_balance=job.start, max_hands=job.cap)
    controllers = make_controllers(job.bots, job.seed, job.ruleset, job.time_budget)
    out = SimResult(job.seed)

    def progress(hand: HandRecord, m: Match) -> None:
        if job.lines and hand.result is not None:
            out.lines.append(_progress_line(hand, m))

    if job.lines:
        out.lines.append(match.standings_head())
    record: list[str] = []
    run_match(
        match,
        job.ruleset,
        controllers,
        match_seed=seed_from_text(job.seed),
        on_hand=progress,
        write=record.append if job.record else None,
        keep=False,
    )
    if job.lines:
        out.lines.append(match.standings_total())
    out.hands = match.hand_number
    out.record = "".join(record)
    out.length_reached = job.length is MatchLength.OPEN or _length_reached(match)
    return out


def _run_matches(args: argparse.Namespace) -> int:
    """``--matches`` matches (or one on Ray) on the backend; printed and saved in match order."""
    ruleset = load_ruleset(args.rules)
    try:
        length = MatchLength.parse(args.length)
        cap = args.hands or (16 if length is MatchLength.OPEN else SAFETY_CAP)
        Match(length=length, starting_balance=args.start, max_hands=cap)
    except MatchError as exc:
        raise MahjongError(str(exc)) from None
    seed_text = args.seed if args.seed is not None else new_match_seed().hex()
    make_controllers(args.bots, seed_text, ruleset, args.time_budget)  # a bad --bots fails here
    backend = Backend(args.backend, jobs_for(args), args.address)
    jobs = [
        SimJob(
            ruleset,
            length,
            args.start,
            cap,
            match_seed_text(seed_text, k),
            args.bots,
            args.time_budget,
            lines=not args.quiet,
            record=bool(args.log),
        )
        for k in range(args.matches)
    ]
    paths = log_paths(args.log, len(jobs)) if args.log else []
    for path in dict.fromkeys(paths):  # a bad path fails before any match is played
        with record_sink(path):
            pass
    out = sys.stderr if args.log == "-" else sys.stdout
    start = time.perf_counter()
    done = dict(imap_indexed(play_sim_match, jobs, backend))
    results = [done[i] for i in range(len(jobs))]
    seconds = time.perf_counter() - start
    for res, path in zip(results, paths, strict=False):
        with record_sink(path) as write:
            assert write is not None
            write(res.record)
    for k, res in enumerate(results):
        if len(results) > 1 and not args.quiet:
            print(f"match {k + 1}/{len(results)} (seed {res.seed!r})", file=out)
        for line in res.lines:
            print(line, file=out)
    hands = sum(r.hands for r in results)
    rate = hands / seconds if seconds > 0 else float("inf")
    logged = f"; record: {args.log}" if args.log else ""
    print(
        f"{hands} hands ({ruleset.name}, {len(results)} match{'es' if len(results) > 1 else ''}, "
        f"seed {seed_text!r}, {backend.name} backend) in {seconds:.2f} s, {rate:.0f} hands/s"
        f"{logged}",
        file=out,
    )
    for k, res in enumerate(results):
        if not res.length_reached:
            print(
                f"note: match {k + 1}: stopped after {res.hands} hands (--hands cap) before the "
                f"match length {length.value} was reached",
                file=out,
            )
    return 0


def log_paths(path: str, matches: int) -> list[str]:
    """Where ``--log PATH`` writes each of ``matches`` records: PATH itself for one match, else
    ``stem-1.suffix`` … ``stem-N.suffix`` beside it (``-``: standard output, in match order)."""
    if matches == 1 or path == "-":
        return [path] * matches
    p = Path(path)
    return [str(p.with_name(f"{p.stem}-{k + 1}{p.suffix}")) for k in range(matches)]


def _length_reached(match: Match) -> bool:
    """Whether the match ended by its own length (not by the --hands cap)."""
    hands, deals = match.length.hand_limit, match.length.deal_limit
    if hands is not None and match.hand_number >= hands:
        return True
    if deals is not None and match.deals_passed >= deals:
        return True
    return match.length is MatchLength.BANKRUPTCY and any(b <= 0 for b in match.balances)
