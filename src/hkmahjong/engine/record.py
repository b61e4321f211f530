"""牌譜 (game record): engine version + ruleset + seeds + actions, as JSON Lines; fair walls.

A record is enough to replay every event of a match exactly. Each hand's wall comes from a hand
seed derived from the match seed and the hand number by hashing; before a hand the record publishes
a commitment (SHA-256 of the hand seed) and reveals the seed after the hand, so anyone can check that
the wall was fixed before play. The format is documented in ``docs/records.md``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import hkmahjong
from hkmahjong.engine.actions import Action
from hkmahjong.engine.events import Event, EventKind, FalseWinRecord, HandOutcome
from hkmahjong.engine.match import Amount, HandResult, Match, MatchError
from hkmahjong.engine.settle import settle_records
from hkmahjong.engine.state import HandState
from hkmahjong.errors import MahjongError
from hkmahjong.hand.meld import MeldKind
from hkmahjong.rules import PRESETS, Ruleset, get_preset, loads_ruleset, ruleset_to_toml
from hkmahjong.rules.presets import preset_versions
from hkmahjong.tiles import Wind, format_tiles

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "ActionRecord",
    "GameRecord",
    "HandRecord",
    "RecordError",
    "ReplayStep",
    "VerifyReport",
    "commitment",
    "digest_of",
    "event_key",
    "events_digest",
    "hand_seed",
    "iter_records",
    "match_result",
    "new_match_seed",
    "read_records",
    "record_from_actions",
    "replay",
    "replay_hand",
    "result_of",
    "rules_from_spec",
    "rules_spec",
    "seed_from_text",
    "verify",
]

FORMAT = "hkmj-record"
FORMAT_VERSION = 1
DIGEST_CHARS = 16
"""Hex characters kept of an events digest (64 bits: tampering is caught, the file stays small)."""


class RecordError(MahjongError):
    """A record that is malformed, truncated, tampered with or from another engine version.

    ``line`` is the 1-based number of the first line that does not hold (``None``: the whole file).
    """

    def __init__(self, message: str, line: int | None = None, source: str = "record") -> None:
        self.line = line
        self.source = source
        where = f"{source} line {line}: " if line is not None else f"{source}: "
        super().__init__(where + message)


def new_match_seed() -> bytes:
    """A fresh match seed for live play: 32 bytes from :mod:`secrets` (never the clock)."""
    return secrets.token_bytes(32)


def seed_from_text(text: str | int) -> bytes:
    """The match seed of a simulation seed such as ``42`` (the same text gives the same match)."""
    return hashlib.sha256(b"hkmj/match-seed/v1\x00" + str(text).encode()).digest()


def hand_seed(match_seed: bytes, hand_number: int) -> bytes:
    """The wall seed of hand ``hand_number`` (0-based): SHA-256 of the match seed and the number."""
    if hand_number < 0:
        raise RecordError(f"hand numbers start at 0, got {hand_number}")
    return hashlib.sha256(
        b"hkmj/hand-seed/v1\x00" + match_seed + hand_number.to_bytes(8, "big")
    ).digest()


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: the hex SHA-256 of its bytes."""
    return hashlib.sha256(seed).hexdigest()


def events_digest(events: Iterable[Any]) -> str:
    """A short digest of JSON-able events (canonical JSON, SHA-256, first 16 hex characters)."""
    text = json.dumps(list(events), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def _seed_hex(value: object, line: int, source: str, what: str) -> bytes:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a hex string, got {value!r}", line, source)
    try:
        seed = bytes.fromhex(value)
    except ValueError:
        raise RecordError(f"{what} {value!r} is not hex", line, source) from None
    if not seed:
        raise RecordError(f"{what} is empty", line, source)
    return seed


@dataclass(slots=True)
class ActionRecord:
    """One action in a hand: which seat did what (text form), and the digest of the events it made."""

    seat: Wind
    action: str
    digest: str
    line: int = 0


@dataclass
class HandRecord:
    """One hand (局) of a record: where it was played, its commitment, its actions and its end."""

    number: int
    dealer: int
    prevailing: Wind
    commitment: str
    start_digest: str
    actions: list[ActionRecord] = field(default_factory=list)
    seed: bytes | None = None
    result: HandResult | None = None
    end_digest: str = ""
    line: int = 0
    end_line: int = 0

    def start_json(self) -> dict[str, Any]:
        """The ``hand`` line: published before play (commitment, no seed)."""
        return {
            "t": "hand",
            "hand": self.number,
            "dealer": self.dealer,
            "prevailing": self.prevailing.letter,
            "commitment": self.commitment,
            "ev": self.start_digest,
        }

    def action_json(self, index: int) -> dict[str, Any]:
        """The ``act`` line of action ``index``."""
        a = self.actions[index]
        return {
            "t": "act",
            "hand": self.number,
            "i": index,
            "seat": a.seat.letter,
            "action": a.action,
            "ev": a.digest,
        }

    def end_json(self) -> dict[str, Any]:
        """The ``end`` line: the seed revealed, the result and the ledger deltas (by seat)."""
        if self.seed is None or self.result is None:
            raise RecordError(f"hand {self.number} has not ended")
        return {
            "t": "end",
            "hand": self.number,
            "seed": self.seed.hex(),
            "result": self.result.to_json(),
            "ev": self.end_digest,
        }


@dataclass
class GameRecord:
    """牌譜: a whole match as data — engine version, ruleset, match settings, seeds and actions."""

    rules: dict[str, Any]
    match: dict[str, Any]
    commitment: str
    engine_version: str = hkmahjong.__version__
    hands: list[HandRecord] = field(default_factory=list)
    match_seed: bytes | None = None
    totals: list[Any] | None = None
    source: str = "record"
    physical_table: bool = False
    """Hands were played in ``physical_table`` mode (false wins 詐糊 may be declared)."""
    footer_line: int = 0
    """Line number of the ``match_end`` line when read from text (0: not read)."""

    @property
    def complete(self) -> bool:
        """Whether the match ended and its seed was revealed."""
        return self.match_seed is not None

    def header_json(self) -> dict[str, Any]:
        """The first line: format, engine version, rules, match settings, match-seed commitment."""
        head = {
            "t": "header",
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "engine": self.engine_version,
            "rules": self.rules,
            "match": self.match,
            "commitment": self.commitment,
        }
        if self.physical_table:
            head["physical_table"] = True
        return head

    def footer_json(self) -> dict[str, Any]:
        """The last line: the match seed revealed and the final totals per player."""
        if self.match_seed is None:
            raise RecordError("the match has not ended")
        return {"t": "match_end", "seed": self.match_seed.hex(), "totals": self.totals}

    def iter_lines(self) -> Iterator[str]:
        """The record as JSON Lines (no trailing newlines), in order."""
        yield _dumps(self.header_json())
        for hand in self.hands:
            yield _dumps(hand.start_json())
            for i in range(len(hand.actions)):
                yield _dumps(hand.action_json(i))
            if hand.seed is not None:
                yield _dumps(hand.end_json())
        if self.match_seed is not None:
            yield _dumps(self.footer_json())

    def dumps(self) -> str:
        """The whole record as one JSON Lines string."""
        return "".join(line + "\n" for line in self.iter_lines())

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` (UTF-8 JSON Lines)."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file.

        :raises RecordError: naming the first line that does not parse or does not fit the format.
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read: {exc.strerror}", source=str(p)) from None
        except UnicodeDecodeError:
            raise RecordError("not UTF-8 text", source=str(p)) from None
        return cls.loads(text, source=str(p))

    @classmethod
    def loads(cls, text: str, *, source: str = "record", partial: bool = False) -> GameRecord:
        """Parse a record from JSON Lines text; ``partial`` accepts a match still in progress.

        :raises RecordError: naming the first line that does not parse or does not fit the format
            (wrong order, wrong hand or action number, another engine version, missing end).
        """
        return _Parser(source, partial).parse(text)


_HEADER_LINE = re.compile(r'^\s*\{\s*"t"\s*:\s*"header"')


def iter_records(lines: Iterable[str], *, source: str = "record") -> Iterator[GameRecord]:
    """The records of a record stream, one after another, each parsed as soon as it is complete.

    A stream is records written one after another (``hkmj arena --log``: a one-hand match per
    hand); a lone record is a stream of one. Each record starts at a header line; only the record
    being read is held in memory. An error in a stream's second or later record names the record,
    the stream line it starts at, and the line within it.

    :raises RecordError: for the first line that does not parse or fit the format.
    """
    buf: list[str] = []
    start = 1
    number = 0

    def parse() -> GameRecord:
        alone = number == 1 and start == 1
        where = source if alone else f"{source} record {number} (from line {start})"
        return GameRecord.loads("".join(buf), source=where)

    n = 0
    for n, raw in enumerate(lines, start=1):
        line = raw if raw.endswith("\n") else raw + "\n"
        if buf and _HEADER_LINE.match(line):
            yield parse()
            buf = []
            start = n
        if not buf:
            number += 1
        buf.append(line)
    if buf:
        yield parse()
    elif n == 0:
        raise RecordError("empty record (no header line)", source=source)


def read_records(path: str | Path) -> Iterator[GameRecord]:
    """The records of the file ``path`` (one, or a stream of them), read as they come.

    :raises RecordError: when the file cannot be read, or for its first bad line.
    """
    p = Path(path)
    try:
        with p.open(encoding="utf-8") as handle:
            yield from iter_records(handle, source=str(p))
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror}", source=str(p)) from None
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", source=str(p)) from None


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


_LINE_KEYS: dict[str, frozenset[str]] = {
    "header": frozenset(
        {"t", "format", "version", "engine", "rules", "match", "commitment", "physical_table"}
    ),
    "hand": frozenset({"t", "hand", "dealer", "prevailing", "commitment", "ev"}),
    "act": frozenset({"t", "hand", "i", "seat", "action", "ev"}),
    "end": frozenset({"t", "hand", "seed", "result", "ev"}),
    "match_end": frozenset({"t", "seed", "totals"}),
}
"""The fields of each line type (docs/records.md); any other field is refused."""
_RESULT_KEYS = frozenset({"deltas", "winners", "drawn", "false_winners"})
"""The fields of an ``end`` line's ``result`` (``HandResult.to_json``); any other is refused."""


class _Parser:
    def __init__(self, source: str, partial: bool) -> None:
        self.source = source
        self.partial = partial

    def fail(self, message: str, line: int | None) -> RecordError:
        return RecordError(message, line, self.source)

    def keys(self, obj: Mapping[str, Any], n: int) -> None:
        """Refuse a line with fields its type does not have (a typo, or data smuggled in)."""
        unknown = sorted(set(obj) - _LINE_KEYS[obj["t"]])
        if unknown:
            raise self.fail(f"unknown field(s) in a {obj['t']!r} line: {', '.join(unknown)}", n)

    def field(self, obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], n: int) -> Any:
        if key not in obj:
            raise self.fail(f"missing field {key!r}", n)
        value = obj[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise self.fail(f"field {key!r} has the wrong type: {value!r}", n)
        return value

    def parse(self, text: str) -> GameRecord:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            raise self.fail("empty record (no header line)", None)
        record: GameRecord | None = None
        hand: HandRecord | None = None
        for n, raw in enumerate(lines, start=1):
            if not raw.strip():
                raise self.fail("blank line", n)
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise self.fail(f"not JSON: {exc.msg} (column {exc.colno})", n) from None
            if not isinstance(obj, dict):
                raise self.fail("a record line must be a JSON object", n)
            kind = obj.get("t")
            if isinstance(kind, str) and kind in _LINE_KEYS:
                self.keys(obj, n)
            if record is None:
                if kind != "header":
                    raise self.fail(f"the first line must be the header, got {kind!r}", n)
                record = self.header(obj, n)
                continue
            if record.match_seed is not None:
                raise self.fail(f"line after the match_end line ({kind!r})", n)
            if kind == "hand":
                if hand is not None and hand.seed is None:
                    raise self.fail(f"hand {hand.number} has no end line before this hand", n)
                hand = self.hand(obj, n, len(record.hands))
                record.hands.append(hand)
            elif kind == "act":
                if hand is None or hand.seed is not None:
                    raise self.fail("an action outside a hand", n)
                self.action(obj, n, hand)
            elif kind == "end":
                if hand is None or hand.seed is not None:
                    raise self.fail("an end line outside a hand", n)
                self.end(obj, n, hand)
            elif kind == "match_end":
                if hand is not None and hand.seed is None:
                    raise self.fail(f"match ends inside hand {hand.number}", n)
                record.match_seed = _seed_hex(obj.get("seed"), n, self.source, "match seed")
                record.totals = self.field(obj, "totals", list, n)
                record.footer_line = n
            else:
                raise self.fail(f"unknown line type {kind!r}", n)
        assert record is not None
        if not self.partial and record.match_seed is None:
            last = len(lines)
            raise self.fail(
                f"truncated: the record stops after line {last} without a match_end line", last + 1
            )
        return record

    def header(self, obj: Mapping[str, Any], n: int) -> GameRecord:
        if obj.get("format") != FORMAT:
            raise self.fail(f"not an {FORMAT} file (format {obj.get('format')!r})", n)
        version = obj.get("version")
        if version != FORMAT_VERSION:
            raise self.fail(
                f"record format version {version!r}; this engine reads {FORMAT_VERSION}", n
            )
        engine = self.field(obj, "engine", str, n)
        if engine != hkmahjong.__version__:
            raise self.fail(
                f"recorded by engine version {engine}, this is {hkmahjong.__version__}: "
                "replay it with that version",
                n,
            )
        rules = self.field(obj, "rules", dict, n)
        match = self.field(obj, "match", dict, n)
        commit = self.field(obj, "commitment", str, n)
        physical = obj.get("physical_table", False)
        if not isinstance(physical, bool):
            raise self.fail(f"field 'physical_table' must be true or false, got {physical!r}", n)
        return GameRecord(rules, match, commit, engine, source=self.source, physical_table=physical)

    def hand(self, obj: Mapping[str, Any], n: int, expected: int) -> HandRecord:
        number = self.field(obj, "hand", int, n)
        if number != expected:
            raise self.fail(f"hand number {number}, expected {expected}", n)
        dealer = self.field(obj, "dealer", int, n)
        if not 0 <= dealer < 4:
            raise self.fail(f"dealer must be a player 0-3, got {dealer}", n)
        text = self.field(obj, "prevailing", str, n)
        try:
            prevailing = Wind.parse(text)
        except MahjongError as exc:
            raise self.fail(str(exc), n) from None
        commit = self.field(obj, "commitment", str, n)
        digest = self.field(obj, "ev", str, n)
        return HandRecord(number, dealer, prevailing, commit, digest, line=n)

    def action(self, obj: Mapping[str, Any], n: int, hand: HandRecord) -> None:
        if self.field(obj, "hand", int, n) != hand.number:
            raise self.fail(f"action of hand {obj['hand']} inside hand {hand.number}", n)
        index = self.field(obj, "i", int, n)
        if index != len(hand.actions):
            raise self.fail(f"action number {index}, expected {len(hand.actions)}", n)
        text = self.field(obj, "seat", str, n)
        try:
            seat = Wind.parse(text)
        except MahjongError as exc:
            raise self.fail(str(exc), n) from None
        action = self.field(obj, "action", str, n)
        digest = self.field(obj, "ev", str, n)
        hand.actions.append(ActionRecord(seat, action, digest, n))

    def end(self, obj: Mapping[str, Any], n: int, hand: HandRecord) -> None:
        if self.field(obj, "hand", int, n) != hand.number:
            raise self.fail(f"end of hand {obj['hand']} inside hand {hand.number}", n)
        hand.seed = _seed_hex(obj.get("seed"), n, self.source, "hand seed")
        result = self.field(obj, "result", dict, n)
        unknown = sorted(set(result) - _RESULT_KEYS)
        if unknown:
            raise self.fail(f"unknown field(s) in the hand result: {', '.join(unknown)}", n)
        try:
            hand.result = HandResult.from_json(result)
        except MatchError as exc:
            raise self.fail(str(exc), n) from None
        hand.end_digest = self.field(obj, "ev", str, n)
        hand.end_line = n


# --------------------------------------------------------------------------------------------
# rules in a record
# --------------------------------------------------------------------------------------------
def rules_spec(ruleset: Ruleset) -> dict[str, Any]:
    """How a record names its ruleset: ``{"preset": name}``, or TOML text (the nearest preset plus
    overrides, else the full table), with a digest of the full ruleset."""
    digest = _rules_digest(ruleset)
    if ruleset.name in PRESETS and ruleset in preset_versions(ruleset.name):
        return {"preset": ruleset.name, "digest": digest}  # now, or an earlier version
    texts = [ruleset_to_toml(ruleset, base=base) for base in PRESETS.values()]
    return {"toml": min(texts, key=len), "digest": digest}


def rules_from_spec(spec: Mapping[str, Any], *, line: int = 1, source: str = "record") -> Ruleset:
    """The ruleset a record names (a preset, or TOML text), checked against its digest.

    The spec holds exactly one of ``preset`` / ``toml`` and the ``digest`` (required), nothing else.

    :raises RecordError: when the spec is malformed, the ruleset cannot be loaded, or it differs
        from the one recorded.
    """
    unknown = sorted(set(spec) - _RULES_KEYS)
    if unknown:
        raise RecordError(f"unknown field(s) in the rules: {', '.join(unknown)}", line, source)
    if "preset" in spec and "toml" in spec:
        raise RecordError(
            "the rules hold both 'preset' and 'toml': a record names its ruleset one way",
            line,
            source,
        )
    digest = spec.get("digest")
    if not isinstance(digest, str):
        raise RecordError(
            "the rules need a 'digest' (of the full ruleset), got "
            + ("none" if digest is None else repr(digest)),
            line,
            source,
        )
    try:
        if "preset" in spec:
            ruleset = get_preset(str(spec["preset"]))
        elif "toml" in spec:
            ruleset = loads_ruleset(str(spec["toml"]), source="the record's ruleset")
        else:
            raise RecordError("the rules need a 'preset' or a 'toml' field", line, source)
    except MahjongError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"cannot load the ruleset: {exc}", line, source) from None
    if digest != _rules_digest(ruleset):
        earlier = _earlier_version(spec, digest)
        if earlier is not None:
            return earlier
        raise RecordError(
            f"the ruleset {ruleset.name!r} differs from the one recorded (digest {digest})",
            line,
            source,
        )
    return ruleset


def _earlier_version(spec: Mapping[str, Any], digest: str) -> Ruleset | None:
    """The ruleset a spec names under an **earlier version** of its preset, when its digest is
    that one's (``rules.presets.PAST_VERSIONS``: a record or a stored table from before a preset
    changed), else None."""
    try:
        if "preset" in spec:
            for past in preset_versions(str(spec["preset"]))[1:]:
                if _rules_digest(past) == digest:
                    return past
            return None
        text = str(spec["toml"])
        named = tomllib.loads(text.removeprefix("\ufeff")).get("preset")
        if not isinstance(named, str):
            return None
        for past in preset_versions(named)[1:]:
            candidate = loads_ruleset(text, source="the record's ruleset", base=past)
            if _rules_digest(candidate) == digest:
                return candidate
    except (MahjongError, tomllib.TOMLDecodeError):
        return None
    return None


_RULES_KEYS = frozenset({"preset", "toml", "digest"})


@functools.lru_cache(maxsize=64)
def _rules_digest(ruleset: Ruleset) -> str:
    # A ruleset is a frozen value: its digest is computed once (writing the full TOML takes
    # milliseconds, and a parlor table asks for it each time one is created or rebuilt).
    return hashlib.sha256(ruleset_to_toml(ruleset).encode()).hexdigest()[:DIGEST_CHARS]


# --------------------------------------------------------------------------------------------
# events
# --------------------------------------------------------------------------------------------
def event_key(event: Event) -> str:
    """The canonical one-line text of an event, every field included (what digests hash)."""
    return "|".join(
        (
            event.kind.value,
            "" if event.seat is None else event.seat.letter,
            "" if event.tile is None else event.tile.mpsz,
            format_tiles(event.tiles) if event.tiles else "",
            "" if event.meld is None else event.meld.text,
            "" if event.source is None else event.source.letter,
            event.detail,
            str(int(event.visibility)),
        )
    )


def digest_of(events: Iterable[Event]) -> str:
    """The digest recorded for a list of events: SHA-256 of their canonical lines, 16 hex chars."""
    h = hashlib.sha256()
    for e in events:
        h.update(event_key(e).encode())
        h.update(b"\n")
    return h.hexdigest()[:DIGEST_CHARS]


def result_of(outcome: HandOutcome) -> HandResult:
    """The match-level result (deltas, winners, draw, false winners) of a hand's outcome."""
    return HandResult(outcome.deltas, outcome.winners, outcome.drawn, outcome.false_winners)


def match_result(
    outcome: HandOutcome,
    ruleset: Ruleset,
    match: Match,
    events: Sequence[Event] | None = None,
) -> HandResult:
    """The hand's result for ``match``: in a match until bankruptcy, payers pay what they hold.

    The hand is settled by the engine without balances; when a payer cannot cover, the hand's
    wins and false wins (詐糊) are settled again, in order, by the one settlement
    (:func:`~hkmahjong.engine.settle.settle_records`, ``scoring.payment.settle_hand``) with the
    seats' balances (docs/rules.md §9, §11, P: a payer who cannot cover pays what it holds). Who fed
    an exposed kong whose replacement won (出槓) comes from the win record; ``events`` are a
    fallback for outcomes built without it.
    """
    result = result_of(outcome)
    balances = match.seat_balances()
    if balances is None or all(balances[s] + result.deltas[s] >= 0 for s in Wind):
        return result
    wins = [
        replace(win, kong_discarder=_kong_feeder(events, win.seat))
        if win.kong_discarder is None and win.context.kong_replacement
        else win
        for win in outcome.wins
    ]
    false_wins = outcome.false_wins or tuple(
        FalseWinRecord(seat, self_drawn=True) for seat in outcome.false_winners
    )
    settled = settle_records(wins, false_wins, ruleset, balances=balances)
    return HandResult(settled.as_tuple(), result.winners, result.drawn, result.false_winners)


def _kong_feeder(events: Sequence[Event] | None, winner: Wind) -> Wind | None:
    """Who discarded the tile of the winner's last kong, if that kong was exposed (明槓)."""
    for e in reversed(events or ()):
        if e.seat != winner:
            continue
        if e.kind is EventKind.CLAIM and e.meld is not None:
            return e.source if e.meld.kind is MeldKind.KONG else None
        if e.kind in (EventKind.CONCEALED_KONG, EventKind.ADDED_KONG):
            return None
    return None


# --------------------------------------------------------------------------------------------
# replay and verify
# --------------------------------------------------------------------------------------------
@dataclass
class ReplayStep:
    """One step of a replay: a hand's start (``action is None``) or one action, with its events."""

    hand: HandRecord
    line: int
    seat: Wind | None
    action: Action | None
    events: list[Event]
    state: HandState


@dataclass
class VerifyReport:
    """What :func:`verify` checked."""

    hands: int = 0
    actions: int = 0
    events: int = 0
    totals: dict[str, Amount] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """One line for people."""
        return (
            f"OK: {self.hands} hands, {self.actions} actions, {self.events} events replayed "
            "exactly; every wall matches its commitment"
        )


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Replay a record, yielding each hand start and each action with the events it made.

    Every wall is checked against its commitment and every digest against the replayed events.

    :raises RecordError: naming the first line that does not hold (wrong seed, an event that does
        not follow, an illegal action, a result or dealer that differs).
    """
    src = record.source
    ruleset = rules_from_spec(record.rules, source=src)
    try:
        match = Match.from_config(record.match)
    except MatchError as exc:
        raise RecordError(f"bad match settings: {exc}", 1, src) from None
    footer = record.footer_line or None
    if record.match_seed is not None and commitment(record.match_seed) != record.commitment:
        raise RecordError("the match seed does not match the header's commitment", footer, src)
    for hand in record.hands:
        if match.finished:
            raise RecordError(f"hand {hand.number} after the match was over", hand.line, src)
        if hand.dealer != match.dealer or hand.prevailing is not match.prevailing:
            raise RecordError(
                f"hand {hand.number}: dealer P{hand.dealer + 1} in a {hand.prevailing.zh} round, "
                f"but the match says P{match.dealer + 1} in a {match.prevailing.zh} round",
                hand.line,
                src,
            )
        seed = hand.seed
        if seed is None:
            if record.match_seed is None:
                return  # a hand in progress: its wall is not revealed yet
            seed = hand_seed(record.match_seed, hand.number)
        where = hand.end_line or hand.line
        if commitment(seed) != hand.commitment:
            if record.match_seed is not None and seed == hand_seed(record.match_seed, hand.number):
                # the seed follows from the (verified) match seed: the hand line's commitment is bad
                raise RecordError(
                    f"hand {hand.number}: the commitment does not match the hand's seed "
                    f"(revealed on line {where}, derived from the match seed)",
                    hand.line,
                    src,
                )
            raise RecordError(
                f"hand {hand.number}: the revealed seed does not match its commitment "
                f"(line {hand.line})",
                where,
                src,
            )
        if record.match_seed is not None and seed != hand_seed(record.match_seed, hand.number):
            raise RecordError(
                f"hand {hand.number}: the seed is not the one derived from the match seed",
                where,
                src,
            )
        every: list[Event] = []
        state: HandState | None = None
        for step in _play_hand(record, ruleset, hand, seed, every):
            state = step.state
            yield step
        assert state is not None
        if hand.result is None:
            if state.is_over:
                raise RecordError(f"hand {hand.number} is over but has no end line", None, src)
            return
        outcome = state.outcome
        if outcome is None:
            raise RecordError(
                f"hand {hand.number} ends here but the replayed hand is not over", where, src
            )
        try:
            replayed = match_result(outcome, ruleset, match, every)
        except MatchError as exc:
            raise RecordError(f"hand {hand.number}: {exc}", where, src) from None
        if replayed != hand.result:
            raise RecordError(
                f"hand {hand.number}: recorded result {hand.result.to_json()} differs from the "
                f"replayed {replayed.to_json()}",
                where,
                src,
            )
        if digest_of(every) != hand.end_digest:
            raise RecordError(f"hand {hand.number}: the hand's event digest differs", where, src)
        try:
            match.record(hand.result, allow_debt=not ruleset.payment.bankrupt_cap)
        except MatchError as exc:
            raise RecordError(f"hand {hand.number}: {exc}", where, src) from None
    if record.match_seed is not None and not match.finished:
        raise RecordError(
            f"the match ends after {match.hand_number} hands but its length "
            f"({match.length.zh}) is not reached",
            footer,
            src,
        )
    if record.totals is not None and record.totals != list(match.totals().values()):
        raise RecordError(
            f"recorded totals {record.totals} differ from the replayed "
            f"{list(match.totals().values())}",
            footer,
            src,
        )


def _play_hand(
    record: GameRecord, ruleset: Ruleset, hand: HandRecord, seed: bytes, every: list[Event]
) -> Iterator[ReplayStep]:
    """Deal ``hand`` from ``seed`` and play its actions, checking every digest; ``every`` collects
    the hand's events."""
    src = record.source
    state = HandState.new(
        ruleset,
        seed=seed,
        prevailing_wind=hand.prevailing,
        hand_number=hand.number,
        physical_table=record.physical_table,
    )
    start = list(state.initial_events)
    if digest_of(start) != hand.start_digest:
        raise RecordError(
            f"hand {hand.number}: the deal does not follow from the seed", hand.line, src
        )
    every.extend(start)
    yield ReplayStep(hand, hand.line, None, None, start, state)
    for a in hand.actions:
        try:
            action = Action.from_text(a.action)
            events = state.apply(a.seat, action)
        except MahjongError as exc:
            raise RecordError(f"hand {hand.number}: {exc}", a.line, src) from None
        if digest_of(events) != a.digest:
            raise RecordError(
                f"hand {hand.number}: the events of {a.seat.letter} {a.action!r} differ "
                "from the record",
                a.line,
                src,
            )
        every.extend(events)
        yield ReplayStep(hand, a.line, a.seat, action, events, state)


def replay_hand(
    record: GameRecord, number: int, *, seed: bytes | None = None
) -> Iterator[ReplayStep]:
    """Replay hand ``number`` of a record on its own: its start, then each action with its events.

    The wall comes from the hand's revealed seed, or (once the match is over) from the match
    seed, or — for a hand still being played — from ``seed``, which only the server holds; each
    must match the hand's commitment. Every event digest is checked as by :func:`replay` (the
    hand's result against the match's balances is :func:`verify`'s job). The steps share one
    :class:`HandState`: read what you need (a view, the public view) before taking the next.

    :raises RecordError: when there is no such hand, no seed to deal it, or a line does not hold.
    """
    src = record.source
    if not 0 <= number < len(record.hands):
        raise RecordError(f"no hand {number}: the record holds {len(record.hands)}", None, src)
    hand = record.hands[number]
    wall_seed = hand.seed
    if wall_seed is None and record.match_seed is not None:
        wall_seed = hand_seed(record.match_seed, number)
    if wall_seed is None:
        wall_seed = seed
    if wall_seed is None:
        raise RecordError(
            f"hand {number} is being played: its seed is not revealed", hand.line, src
        )
    if commitment(wall_seed) != hand.commitment:
        raise RecordError(
            f"hand {number}: the seed does not match its commitment",
            hand.end_line or hand.line,
            src,
        )
    ruleset = rules_from_spec(record.rules, source=src)
    every: list[Event] = []
    state: HandState | None = None
    for step in _play_hand(record, ruleset, hand, wall_seed, every):
        state = step.state
        yield step
    assert state is not None
    if hand.result is not None:
        if not state.is_over:
            raise RecordError(
                f"hand {number} ends here but the replayed hand is not over", hand.end_line, src
            )
        if digest_of(every) != hand.end_digest:
            raise RecordError(f"hand {number}: the hand's event digest differs", hand.end_line, src)


def verify(record: GameRecord) -> VerifyReport:
    """Check a whole record: every wall against its commitment, every event against the actions.

    :raises RecordError: naming the first line that does not hold.
    """
    if not record.complete:
        raise RecordError("truncated: no match_end line, so the seeds are not all revealed")
    report = VerifyReport()
    for step in replay(record):
        if step.action is None:
            report.hands += 1
        else:
            report.actions += 1
        report.events += len(step.events)
    return report


def record_from_actions(
    ruleset: Ruleset,
    match: Match,
    match_seed: bytes,
    hands: Sequence[Sequence[tuple[Wind, Action | str]]],
    *,
    physical_table: bool = False,
) -> GameRecord:
    """牌譜 of hands already played from ``match_seed`` (the arena, the research env), rebuilt.

    Each hand is its ``(seat, action text)`` list; hand ``n`` was dealt from
    ``hand_seed(match_seed, n)`` with the dealer and prevailing wind that ``match`` (fresh, its
    settings as played) gives it. The hands are played again through
    :class:`~hkmahjong.engine.runner.MatchRunner` (which enters them in ``match``), so the record
    has every digest, result and the totals, and passes :func:`verify` exactly when the hands were
    played that way and they end the match.

    :raises RecordError: when an action is not legal, a hand does not end with its actions, or
        there are hands after the match is over.
    """
    from hkmahjong.engine.runner import MatchRunner  # the runner is built on this module

    runner = MatchRunner(match, ruleset, match_seed, physical_table=physical_table)
    for played in hands:
        n = match.hand_number
        try:
            runner.start_hand()
        except MahjongError as exc:
            raise RecordError(f"hand {n}: {exc}") from None
        for seat, action in played:
            if runner.hand_over:
                raise RecordError(f"hand {n} ended before its {len(played)} actions were played")
            try:
                runner.apply(Wind(seat), action)
            except MahjongError as exc:
                raise RecordError(f"hand {n}: {exc}") from None
        if runner.in_hand:
            raise RecordError(f"hand {n} does not end after its {len(played)} actions")
    record = runner.record
    if not runner.match_over:  # the hands did not end the match: closed all the same (verify
        # then says that its length is not reached)
        record.match_seed = match_seed
        record.totals = list(match.totals().values())
    return record
