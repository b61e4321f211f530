"""GameRecord JSON Lines format, fair-wall seeds and commitments (no engine needed) — docs/records.md."""

from __future__ import annotations

import hashlib
import json

import pytest

import hkmahjong
from hkmahjong.engine.match import HandResult
from hkmahjong.engine.record import (
    ActionRecord,
    GameRecord,
    HandRecord,
    RecordError,
    commitment,
    events_digest,
    hand_seed,
    new_match_seed,
    seed_from_text,
)
from hkmahjong.tiles import Wind


def sample() -> GameRecord:
    """A two-hand record built by hand."""
    seed = seed_from_text(7)
    rec = GameRecord(
        {"preset": "parlor"},
        {"players": ["a", "b", "c", "d"], "length": "8-hands"},
        commitment(seed),
    )
    for n in range(2):
        hs = hand_seed(seed, n)
        hand = HandRecord(n, 0, Wind.EAST, commitment(hs), events_digest([{"deal": n}]))
        hand.actions.append(ActionRecord(Wind.EAST, "discard 1m", events_digest([n, 1])))
        hand.actions.append(ActionRecord(Wind.SOUTH, "pass", events_digest([n, 2])))
        hand.seed = hs
        hand.result = HandResult((0, 0, 0, 0), drawn=True)
        hand.end_digest = events_digest([n])
        rec.hands.append(hand)
    rec.match_seed = seed
    rec.totals = [0, 0, 0, 0]
    return rec


def test_hand_seeds_are_derived_by_hashing() -> None:
    """Fair walls: each hand's seed = SHA-256(tag, match seed, hand number); all distinct."""
    m = seed_from_text("42")
    assert (
        hand_seed(m, 3)
        == hashlib.sha256(b"hkmj/hand-seed/v1\x00" + m + (3).to_bytes(8, "big")).digest()
    )
    assert len({hand_seed(m, n) for n in range(100)}) == 100
    assert hand_seed(m, 0) != hand_seed(seed_from_text("43"), 0)
    assert seed_from_text(42) == seed_from_text("42")


def test_commitment_is_sha256_of_the_seed() -> None:
    """The commitment published before a hand is the hex SHA-256 of the seed revealed after it."""
    s = bytes(range(32))
    assert commitment(s) == hashlib.sha256(s).hexdigest()


def test_live_seeds_come_from_secrets() -> None:
    """Live play takes 32 random bytes from secrets, never the clock."""
    a, b = new_match_seed(), new_match_seed()
    assert len(a) == 32 and a != b


def test_round_trip_is_exact() -> None:
    """A record written and read back is the same record, line for line."""
    rec = sample()
    text = rec.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    assert again.hands[1].actions[1].seat is Wind.SOUTH
    assert again.hands[1].actions[1].line == 8
    assert json.loads(text.splitlines()[0])["engine"] == hkmahjong.__version__


def test_commitments_precede_seeds_in_the_file() -> None:
    """The hand line carries only the commitment; the seed appears on the end line after the actions."""
    lines = [json.loads(x) for x in sample().dumps().splitlines()]
    assert "seed" not in lines[1] and lines[1]["t"] == "hand"
    assert lines[4]["t"] == "end" and lines[4]["seed"] == hand_seed(seed_from_text(7), 0).hex()


def edit(
    text: str, line: int, change: dict[str, object] | None = None, raw: str | None = None
) -> str:
    lines = text.splitlines()
    if raw is not None:
        lines[line - 1] = raw
    else:
        obj = json.loads(lines[line - 1])
        obj.update(change or {})
        lines[line - 1] = json.dumps(obj)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: "\n".join(t.splitlines()[:6]) + "\n", "line 7: truncated"),
        (lambda t: edit(t, 1, {"engine": "0.0.1"}), "line 1: recorded by engine version 0.0.1"),
        (lambda t: edit(t, 1, {"format": "x"}), "line 1: not an hkmj-record file"),
        (lambda t: edit(t, 3, raw='{"t": "act", '), "line 3: not JSON"),
        (lambda t: edit(t, 3, {"i": 5}), "line 3: action number 5, expected 0"),
        (lambda t: edit(t, 3, {"seat": "Q"}), "line 3: unknown wind 'Q'"),
        (
            lambda t: edit(t, 5, raw='{"t":"act","hand":0,"i":2,"seat":"E","action":"x","ev":"0"}'),
            "line 6: hand 0 has no end line",
        ),
        (lambda t: edit(t, 5, {"seed": "zz"}), "line 5: hand seed 'zz' is not hex"),
        (
            lambda t: edit(t, 5, {"result": {"deltas": [1, 0, 0, 0], "drawn": True}}),
            "line 5: .*sum to 1",
        ),
        (lambda t: edit(t, 6, {"hand": 3}), "line 6: hand number 3, expected 1"),
        (lambda t: t + '{"t": "hand"}\n', "line 11: line after the match_end"),
        (lambda t: "", "empty record"),
    ],
)
def test_bad_records_name_the_first_bad_line(mutate: object, message: str) -> None:
    """A truncated, tampered or foreign record gets a RecordError naming its first bad line."""
    text = mutate(sample().dumps())  # type: ignore[operator]
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def test_partial_records_are_accepted_when_asked() -> None:
    """A match in progress (no match_end yet) reads with partial=True."""
    text = "\n".join(sample().dumps().splitlines()[:4]) + "\n"
    rec = GameRecord.loads(text, partial=True)
    assert not rec.complete and len(rec.hands[0].actions) == 2 and rec.hands[0].seed is None


def test_load_names_the_file(tmp_path: object) -> None:
    """Errors from a file name the file."""
    from pathlib import Path

    p = Path(str(tmp_path)) / "r.jsonl"
    p.write_text('{"t": "hand"}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"r\.jsonl line 1: the first line must be the header"):
        GameRecord.load(p)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(p.with_name("missing.jsonl"))
