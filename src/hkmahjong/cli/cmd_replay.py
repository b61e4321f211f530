"""``hkmj replay``: 重播 — show a recorded hand step by step, or verify a whole record."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import TextIO

from hkmahjong.argtypes import positive_int
from hkmahjong.engine.events import Event, EventKind
from hkmahjong.engine.match import Match
from hkmahjong.engine.record import (
    GameRecord,
    ReplayStep,
    VerifyReport,
    read_records,
    replay,
    rules_from_spec,
    verify,
)
from hkmahjong.errors import MahjongError
from hkmahjong.tiles import Wind

NAME = "replay"
HELP = "重播 replay: show a game record step by step, or --verify its walls and events"
ORDER = 71


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``replay`` options."""
    parser.add_argument(
        "file",
        help="a game record (JSON Lines) written by hkmj sim or the parlor, or a stream of records "
        "(hkmj arena --log)",
    )
    parser.add_argument(
        "--record",
        type=positive_int,
        default=None,
        help="in a stream of records, show record N (1-based); --verify checks them all",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check every wall against its commitment and every event against the actions",
    )
    parser.add_argument(
        "--hand",
        type=positive_int,
        default=None,
        help="show only hand N (1-based; default: every hand)",
    )
    parser.add_argument(
        "--seat",
        default=None,
        help="show what one seat (E, S, W, N) saw instead of the referee's full view",
    )
    parser.add_argument(
        "--step", action="store_true", help="wait for Enter after each action (interactive)"
    )
    parser.add_argument(
        "--tui",
        action="store_true",
        help="step through the record in the terminal parlor's interface (hkmj play's screen)",
    )
    parser.add_argument(
        "--lang", default="zh-Hant", choices=("zh-Hant", "zh-Hans", "en"), help="with --tui"
    )


def run(args: argparse.Namespace) -> int:
    """Show or verify the record."""
    if args.tui and not args.verify:
        from hkmahjong.cli.tui.replay import run_replay_app

        return run_replay_app(args.file, lang=args.lang)
    out = sys.stdout
    if args.verify:
        print(f"{args.file}: {verify_stream(args.file)}", file=out)
        return 0
    record = pick_record(args.file, args.record)
    seat = Wind.parse(args.seat) if args.seat else None
    if args.hand is not None and not 1 <= args.hand <= len(record.hands):
        raise MahjongError(f"--hand {args.hand}: the record has hands 1 to {len(record.hands)}")
    show(record, out, hand=None if args.hand is None else args.hand - 1, seat=seat, step=args.step)
    return 0


def verify_stream(path: str) -> str:
    """Verify every record of the file (one, or a stream): one line saying what was checked.

    :raises RecordError: naming the record and line of the first thing that does not hold.
    """
    total = VerifyReport()
    count = 0
    for record in read_records(path):
        report = verify(record)
        count += 1
        total.hands += report.hands
        total.actions += report.actions
        total.events += report.events
    if count == 1:
        return report.text
    return f"{count} records; " + total.text


def pick_record(path: str, number: int | None) -> GameRecord:
    """Record ``number`` (1-based) of the file; with ``None`` the file must hold just one.

    :raises MahjongError: when there is no such record, or several and none was chosen.
    """
    count = 0
    chosen: GameRecord | None = None
    for count, record in enumerate(read_records(path), start=1):
        if number is None and count == 2:
            raise MahjongError(
                f"{path} holds several records (a stream, as hkmj arena --log writes): "
                "choose one with --record N"
            )
        if count == number:
            return record
        chosen = record
    if number is not None:
        raise MahjongError(f"--record {number}: {path} holds {count} record(s)")
    assert chosen is not None
    return chosen


def show(
    record: GameRecord,
    out: TextIO,
    *,
    hand: int | None = None,
    seat: Wind | None = None,
    step: bool = False,
) -> None:
    """Print the record's hands step by step (every event, or what ``seat`` saw)."""
    match = Match.from_config(record.match)
    print(
        f"牌譜 record: engine {record.engine_version}, rules {_rules_name(record)}, "
        f"{match.length.zh} ({match.length.value}), players {', '.join(match.players)}",
        file=out,
    )
    for s in replay(record):
        h = s.hand
        if hand is not None and h.number != hand:
            continue
        if s.action is None:
            dealer = match.players[h.dealer]
            print(
                f"\n=== 第{h.number + 1}局 hand {h.number + 1}: {h.prevailing.zh}風 "
                f"莊 {dealer}; commitment {h.commitment[:16]}… ===",
                file=out,
            )
            for line in _events(s.events, seat):
                print(f"  {line}", file=out)
            continue
        assert s.action is not None and s.seat is not None
        if seat is None or s.seat == seat:
            print(f"{s.seat.letter} {s.seat.zh}> {s.action.text}  ({s.action.zh})", file=out)
        for line in _events(s.events, seat):
            print(f"  {line}", file=out)
        if step:
            _pause()
        if s.state.is_over:
            _end(s, out)


def _events(events: Iterable[Event], seat: Wind | None) -> list[str]:
    lines = []
    for e in events:
        shown = e if seat is None else e.for_seat(seat)
        if shown is not None:
            lines.append(event_line(shown))
    return lines


def event_line(event: Event) -> str:
    """An event as the text replay prints it: hands numbered from 1 as everywhere a person reads
    them, and a deal as a sorted hand in standard notation (``2569m8p36s133z12g``)."""
    if event.kind is EventKind.DEAL and event.tiles:
        event = replace(event, tiles=tuple(sorted(event.tiles)))
    text = event.text
    if event.kind is EventKind.HAND_START:
        text = _HAND_NUMBER.sub(lambda m: f"(hand {int(m.group(1)) + 1}", text, count=1)
    return text


_HAND_NUMBER = re.compile(r"\(hand (\d+)")
"""The engine's hand_start detail counts hands from 0 (it is hashed into every record's digests,
so the record keeps it); the replay shows it from 1."""


def _end(s: ReplayStep, out: TextIO) -> None:
    h = s.hand
    if h.result is None:
        return
    deltas = "  ".join(f"{w.letter} {d:+}" for w, d in zip(Wind, h.result.deltas, strict=True))
    print(
        f"--- hand {h.number + 1} over: {deltas}; seed {h.seed.hex() if h.seed else '?'}", file=out
    )


def _rules_name(record: GameRecord) -> str:
    if "preset" in record.rules:
        return str(record.rules["preset"])
    return f"{rules_from_spec(record.rules, source=record.source).name} (TOML in the record)"


def _pause() -> None:
    if sys.stdin.isatty():
        input()
