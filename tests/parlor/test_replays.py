"""牌譜重播: a hand's frames from the table's record, and who may see them (issue 18, *Replays and
records*: "each seat's view … or all hands open once the hand is over"; tested so that a seat's
replay of an unfinished hand never shows another seat's concealed tiles)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, settle
from tests.parlor.test_leak import MATCH_SEED, RULES, _walls

from hkmahjong.engine import Visibility
from hkmahjong.engine import record as record_module
from hkmahjong.engine import runner as runner_module
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, seed_from_text, verify
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.state import HandState
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ports import MemoryTableStore, SeatRow, TableRow
from hkmahjong.parlor.replays import (
    ReplayError,
    TableRecord,
    hand_replay,
    record_text,
    viewer_of,
)
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.parlor.wire import dumps, view_json
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Tile, Wind

_DEAL = HandState.new
"""The engine's own deal (HandState.new, bound to the class), taken before any test stacks a wall
(read as a bound method, not from the class's ``__dict__``: compiled by mypyc, a classmethod there
has no ``__func__``)."""
SEATS = [SeatRow(p, 10 + p, f"p{p}", None, "connected") for p in range(4)]


def _table(
    seed: str = "replays",
    hands: int = 3,
    *,
    private: bool = False,
    cut: int | None = None,
) -> tuple[TableRecord, GameRecord]:
    players = [RandomPlayer(f"{seed}/{i}", win_bias=0.5) for i in range(4)]
    match = Match(length=MatchLength.OPEN, max_hands=hands)
    record = run_match(match, get_preset("parlor"), players, match_seed=seed_from_text(seed))
    lines = record.dumps().splitlines()
    if cut is not None:
        lines = lines[:cut]
    row = TableRow(1, "tbl", "online", "finished" if cut is None else "playing", {}, "",
                   seed_from_text(seed).hex(), private=private,
                   invite_token="secret-invite" if private else None)  # fmt: skip
    return TableRecord(row, SEATS, lines), record


def test_all_hands_open_shows_every_step_and_every_hand() -> None:
    """Open (the default for someone who did not play): one frame per step (passes too), every
    event whole, each seat's concealed tiles; the deal, the seed and its commitment."""
    table, record = _table()
    out = hand_replay(table, 1, None, None)
    hand = record.hands[1]
    assert out["seat"] is None and out["over"] and out["match_over"]
    assert len(out["frames"]) == len(hand.actions) + 1
    ats = [f["at"] for f in out["frames"]]
    assert ats == sorted(ats) and ats[0] > 4
    assert [f["actions"] for f in out["frames"][1:]] == [[a.action] for a in hand.actions]
    first = out["frames"][0]["view"]
    assert sorted(first["hands"]) == ["E", "N", "S", "W"]
    assert [len(out["deal"][w]) for w in "ESWN"] == [14, 13, 13, 13]
    assert out["seed"] == hand.seed.hex()
    assert hashlib.sha256(bytes.fromhex(out["seed"])).hexdigest() == out["commitment"]
    assert out["start"].startswith("hand 1") and "dice" in out["start"]
    assert out["frames"][-1]["view"]["outcome"] is not None
    assert out["seats"] == {w: (hand.dealer + i) % 4 for i, w in enumerate("ESWN")}
    assert [h["hand"] for h in out["hands"]] == [0, 1, 2]
    assert out["table"]["players"] == ["p0", "p1", "p2", "p3"]


def test_a_seats_view_is_the_engines_view_at_points_it_could_see() -> None:
    """A seat's frames: its own PlayerView (the engine's), its events as it saw them; a frame
    ends only on a turn, at the end, or where the seat itself decides."""
    table, record = _table()
    out = hand_replay(table, 0, "S", None)
    views: dict[int, dict[str, Any]] = {}
    known = 0

    def step(r: MatchRunner, s: Any) -> None:
        nonlocal known
        if r.hand_number == 0:
            known += sum(e.visibility is not Visibility.REFEREE for e in s.events)
            views[known] = view_json(r.view(Wind.SOUTH))

    runner = MatchRunner.resume(record, seed_from_text("replays"), on_step=step)
    assert runner.match_over
    for frame in out["frames"]:
        view = frame["view"]
        assert view["seat"] == "S" and view == views[frame["at"]]
        assert view["phase"] in ("turn", "over") or view["to_act"] == ["S"]
        for e in frame["events"]:
            if e["kind"] in ("deal", "draw") and e["seat"] != "S":
                assert e["tiles"] == [] and e["tile"] is None
    assert out["frames"][-1]["view"]["phase"] == "over"
    assert len(out["frames"]) < len(record.hands[0].actions) + 1


def test_who_may_look() -> None:
    """Players always; anyone a table that is not private; a private one by its invite only."""
    table, _ = _table(private=True)
    assert viewer_of(table.row, SEATS, 12, None) == 2
    assert viewer_of(table.row, SEATS, 99, "secret-invite") is None
    for user, invite in ((99, None), (None, "wrong"), (None, None)):
        with pytest.raises(ReplayError) as err:
            viewer_of(table.row, SEATS, user, invite)
        assert err.value.code == "forbidden"
    public, _ = _table()
    assert viewer_of(public.row, SEATS, None, None) is None
    bot = [SeatRow(0, None, "bot", "easy", "bot"), *SEATS[1:]]
    assert viewer_of(public.row, bot, None, None) is None


def test_a_hand_being_played_is_its_players_own_seat_only() -> None:
    """Hand 2 is being played: others may not see it at all; a player sees their own seat by
    default and no other seat, nor all hands open; the finished hands are open to anyone."""
    full, record = _table(hands=3)
    lines = full.lines
    start = next(i for i, line in enumerate(lines) if '"t":"hand","hand":2' in line)
    table, _ = _table(hands=3, cut=start + 15)
    assert hand_replay(table, 1, None, None)["over"]
    with pytest.raises(ReplayError, match="being played") as err:
        hand_replay(table, 2, None, None)
    assert err.value.code == "forbidden"
    dealer = record.hands[2].dealer
    viewer = (dealer + 3) % 4  # North in hand 2
    mine = hand_replay(table, 2, None, viewer)
    assert mine["seat"] == "N" and not mine["over"] and mine["seed"] is None
    assert mine["deal"] is None and mine["match_seed"] is None
    assert all(f["view"]["seat"] == "N" and "hands" not in f["view"] for f in mine["frames"])
    for seat in ("E", "open"):
        with pytest.raises(ReplayError) as err:
            hand_replay(table, 2, seat, viewer)
        assert err.value.code == "forbidden"
    with pytest.raises(ReplayError) as err:
        hand_replay(table, 3, None, viewer)
    assert err.value.code == "not_found"
    with pytest.raises(ReplayError) as err:
        hand_replay(table, 1, "X", viewer)
    assert err.value.code == "bad_request"


def test_the_record_to_download_verifies() -> None:
    """The download is the record up to the last hand that ended; a finished match's passes
    ``verify``; a hand being played is left out."""
    table, record = _table()
    text = record_text(table, None)
    assert text == record.dumps()
    assert verify(GameRecord.loads(text)).hands == 3
    start = next(i for i, line in enumerate(table.lines) if '"t":"hand","hand":1' in line)
    partial, _ = _table(cut=start + 5)
    assert record_text(partial, 0).splitlines() == table.lines[:start]
    early, _ = _table(cut=3)
    with pytest.raises(ReplayError, match="no hand has ended"):
        record_text(early, 0)


# --- a seat's replay of a hand in progress, on raw bytes ----------------------------------------
async def _replay_bytes(wall: list[int], monkeypatch: pytest.MonkeyPatch) -> bytes:
    """East's replay of the first hand while it is being played (the other seats sat out)."""
    original = _DEAL  # never a wall stacked by an earlier run: patches would chain

    def stacked(cls: type[HandState], ruleset: Any, **kw: Any) -> HandState:
        kw["wall"] = [Tile(t) for t in wall]
        return original(ruleset, **kw)

    monkeypatch.setattr(runner_module.HandState, "new", classmethod(stacked))
    monkeypatch.setattr(record_module.HandState, "new", classmethod(stacked))
    store = MemoryTableStore()
    config = TableConfig.of("online", RULES, length="one-hand", clocks=FAST)
    seats = [SeatRow(0, 1, "ann", None, "away")] + [
        SeatRow(p, p + 1, f"p{p}", None, "sat_out") for p in (1, 2, 3)
    ]
    row = TableRow(1, "replay", "online", "waiting", config.to_json(),
                   str(config.rules["digest"]), MATCH_SEED.hex())  # fmt: skip
    await store.create(row, seats)
    clock = FakeClock()
    table = Table(row, seats, store, clock=clock, epoch="fixed")
    await table.start()
    ann = Client(table, 0)
    ann.connect()
    await settle(table, clock, 0.2)
    assert table.runner is not None and table.runner._state is not None
    assert table.runner._state.wall == wall, "the hand is not dealt from the stacked wall"
    acted = 0
    while acted < 12:
        prompt = ann.open_prompt()
        if prompt is not None:
            kinds = {i["kind"]: i["action"] for i in prompt["legal"]}
            view = table.runner.view(0) if table.runner else None
            action = kinds.get("pass") or [i["action"] for i in prompt["legal"]][-1]
            if view is not None and view.last_drawn is not None and "pass" not in kinds:
                action = f"discard {view.last_drawn.mpsz}"
            ann.send({"t": "act", "action": action, "v": prompt["v"], "id": "ok"})
            acted += 1
        await settle(table, clock, 0.3)
    await settle(table, clock, 0.1)
    assert table.runner is not None and table.runner.in_hand
    lines = await store.lines(1)
    await table.stop()
    out = hand_replay(TableRecord(row, seats, lines), 0, None, 0)
    assert out["seat"] == "E" and not out["over"] and len(out["frames"]) > 10
    return dumps(out).encode()


def test_a_seats_replay_of_a_hand_in_progress_shows_nothing_it_cannot_see(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Replayed from the log mid-hand, East's replay is byte for byte the same whatever the
    other seats hold and whatever lies in the wall nobody has drawn."""
    for wall, other in _walls():
        first = asyncio.run(_replay_bytes(wall, monkeypatch))
        second = asyncio.run(_replay_bytes(other, monkeypatch))
        assert first == second
        shown = json.loads(first)
        assert shown["frames"][0]["view"]["concealed"]
