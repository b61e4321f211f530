"""Hidden information is the server's job: the raw frames a seat receives do not depend on what it
may not see (issue 14, *The table: one actor, one log*) — by content or by time (issue 29).

A hand is played twice at a table on two walls that differ only in what seat E can never see:
the other seats' concealed tiles (never discarded: the other seats are sat out, so the passive
player discards every tile it draws and never claims or wins) and the part of the wall nobody
draws. E plays the same way on both (and sends the same bad messages). Every frame E receives up
to the hand's end — events, prompts, versions, errors — must be byte for byte the same.

The shuffles change who *could* claim: a sat-out seat dealt a pair of a tile E discards gets a
claim window (it passes). So the same comparison, with the virtual time each frame was sent and
with E reconnecting (a plain ``hello`` and a resync) right after its discards — inside the hold,
inside another seat's window or not — shows that snapshots, prompts, errors and their timing are
the same whether or not another seat could claim.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, settle, watch_send

from hkmahjong.engine import runner as runner_module
from hkmahjong.engine.record import hand_seed, seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import DEAL_POSITIONS
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ports import MemoryConnection, MemoryTableStore, SeatRow, TableRow
from hkmahjong.parlor.seats import passive_choice
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Tile, Wind

_DEAL = HandState.new
"""The engine's own deal (HandState.new, bound to the class), taken before any test stacks a wall
(read as a bound method, not from the class's ``__dict__``: compiled by mypyc, a classmethod there
has no ``__func__``)."""
RULES = get_preset("parlor")
MATCH_SEED = seed_from_text("leak-test")


def _simulate(wall: list[int]) -> tuple[list[str], int, int]:
    """Every seat passive: the public event texts E sees, and the undrawn range of the wall."""
    seen, head, tail, _ = _simulate_windows(wall)
    return seen, head, tail


def _simulate_windows(wall: list[int]) -> tuple[list[str], int, int, tuple[int, ...]]:
    """:func:`_simulate`, and the discards (numbered) after which a claim window opened for a
    seat other than E."""
    state = HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0), wall=[Tile(t) for t in wall])
    seen = [str(e.for_seat(Wind.EAST)) for e in state.initial_events if e.for_seat(Wind.EAST)]
    windows: list[int] = []
    discards = 0
    while not state.is_over:
        seat = state.to_act[0]
        events = state.apply(seat, passive_choice(state.view(seat), state.legal_actions(seat)))
        seen += [str(e.for_seat(Wind.EAST)) for e in events if e.for_seat(Wind.EAST)]
        discards += sum(1 for e in events if e.kind.value == "discard")
        window = not state.is_over and state.phase.value in ("claim", "rob")
        if window and any(w is not Wind.EAST for w in state.to_act) and discards not in windows:
            windows.append(discards)
    return seen, state.head, state.tail, tuple(windows)


def _walls() -> Iterator[tuple[list[int], list[int]]]:
    """Pairs of walls that differ only in tiles hidden from E for the whole hand."""
    base = HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0))
    wall = list(base.wall)
    seen, head, tail = _simulate(wall)
    hidden = [p for s in (1, 2, 3) for p in DEAL_POSITIONS[s]] + list(range(head, tail))
    pool = [p for p in hidden if wall[p] < 34]
    for n in range(3):
        other = list(wall)
        values = [wall[p] for p in pool]
        random.Random(n).shuffle(values)
        for p, t in zip(pool, values, strict=True):
            other[p] = t
        assert other != wall
        assert _simulate(other)[0] == seen, "the shuffle changed what E can see: bad test setup"
        yield wall, other


async def _frames(
    wall: list[int], monkeypatch: pytest.MonkeyPatch, *, reconnect: bool = False
) -> list[str]:
    original = _DEAL  # never a wall stacked by an earlier run: patches would chain

    def stacked(cls: type[HandState], ruleset: Any, **kw: Any) -> HandState:
        kw["wall"] = [Tile(t) for t in wall]
        return original(ruleset, **kw)

    monkeypatch.setattr(runner_module.HandState, "new", classmethod(stacked))
    store = MemoryTableStore()
    config = TableConfig.of("online", RULES, length="one-hand", clocks=FAST)
    seats = [SeatRow(0, 1, "ann", None, "away")] + [
        SeatRow(p, p + 1, f"p{p}", None, "sat_out") for p in (1, 2, 3)
    ]
    row = TableRow(1, "leak", "online", "waiting", config.to_json(),
                   str(config.rules["digest"]), MATCH_SEED.hex())  # fmt: skip
    await store.create(row, seats)
    clock = FakeClock()
    table = Table(row, seats, store, clock=clock, epoch="fixed")
    await table.start()
    ann = Client(table, 0)
    timed: list[str] = []
    """Every frame E receives on any of its connections, with the virtual time it was sent."""

    class Timed(MemoryConnection):
        def send(self, text: str) -> None:
            if self.closed is None:
                who = "watcher" if self is watcher else "E"
                timed.append(f"{clock.now():.3f} {who} {text}")
            super().send(text)

    watcher: MemoryConnection | None = None

    def connect(since: int | None = None) -> None:
        conn = Timed()
        ann.conn = conn
        table.connect(0, conn)
        hello: dict[str, Any] = {"t": "hello", "proto": 1}
        if since is not None:
            hello.update(epoch=table.epoch, since=since)
        ann.send(hello)

    if reconnect:
        connect()
        watcher = Timed()  # a spectator (gallery: one discard behind) with the same clock
        table.watch(watcher)
        watch_send(table, watcher, '{"t":"hello","proto":1}')
    else:
        ann.connect()
    await settle(table, clock, 0.2)
    assert table.runner is not None and table.runner._state is not None
    assert table.runner._state.wall == wall, "the hand is not dealt from the stacked wall"
    acts = 0
    for _ in range(400):
        if any('"t":"hand_end"' in f for f in ann.conn.frames):
            break
        prompt = ann.open_prompt()
        if prompt is not None:
            ann.send({"t": "act", "action": "kong", "v": prompt["v"], "id": "bad"})
            ann.send({"t": "act", "action": "pass", "v": prompt["v"] + 7, "id": "old"})
            legal = prompt["legal"]
            kinds = {i["kind"]: i["action"] for i in legal}
            discards = [i["action"] for i in legal if i["kind"] == "discard"]
            action = kinds.get("pass") or discards[-1]
            view = table.runner.view(0) if table.runner else None
            if view is not None and view.last_drawn is not None and "pass" not in kinds:
                action = f"discard {view.last_drawn.mpsz}"
            ann.send({"t": "act", "action": action, "v": prompt["v"], "id": "ok"})
            acts += 1
            if reconnect and acts % 2 == 0:  # at once: inside the hold after E's discard
                table.disconnect(0, ann.conn)
                last = max(
                    (json.loads(t.split(" ", 2)[2]).get("v", 0) for t in timed if " E " in t),
                    default=0,
                )
                connect(since=last if acts % 4 == 0 else None)
        await settle(table, clock, 0.3)
        if reconnect and any('"t":"hand_end"' in t for t in timed):
            break
    await table.stop()
    if reconnect:
        end = next(i for i, t in enumerate(timed) if '"t":"hand_end"' in t)
        return timed[:end]
    frames = ann.conn.frames
    end = next(i for i, f in enumerate(frames) if '"t":"hand_end"' in f)
    return frames[:end]


def test_shuffling_what_a_seat_cannot_see_changes_no_byte_it_receives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for wall, other in _walls():
        first = asyncio.run(_frames(wall, monkeypatch))
        second = asyncio.run(_frames(other, monkeypatch))
        assert len(first) > 50
        assert any('"t":"error"' in f for f in first)
        assert first == second


def test_snapshots_prompts_errors_and_their_timing_do_not_tell_that_a_window_opened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29, defects 2 and 3: E reconnects right after its discards (inside the hold; inside
    a sat-out seat's claim window on one wall, after an unclaimable discard on the other) and gets
    the same snapshots and resyncs, at the same (virtual) times, as every other frame; and a
    spectator gets the same frames at the same times."""
    differs = 0
    for wall, other in _walls():
        windows = (_simulate_windows(wall)[3], _simulate_windows(other)[3])
        first = asyncio.run(_frames(wall, monkeypatch, reconnect=True))
        second = asyncio.run(_frames(other, monkeypatch, reconnect=True))
        kinds = [json.loads(t.split(" ", 2)[2])["t"] for t in first if " E " in t]
        assert sum(" watcher " in t for t in first) > 40  # the spectator's frames, timed too
        assert kinds.count("snapshot") >= 5 and kinds.count("synced") >= 3, kinds
        assert first == second, windows
        differs += windows[0] != windows[1]
        for t in first:  # a snapshot never shows a window (E never claims: passive play)
            msg = json.loads(t.split(" ", 2)[2])
            if msg["t"] == "snapshot" and msg["view"] is not None:
                assert msg["view"]["phase"] in ("turn", "over"), msg["view"]
                assert msg["view"]["pending_tile"] is None
    assert differs, "no pair of walls differed in the windows that opened: bad test setup"
