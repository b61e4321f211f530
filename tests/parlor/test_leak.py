"""Hidden information is the server's job: the raw frames a seat receives do not depend on what it
may not see (issue 14, *The table: one actor, one log*).

A hand is played twice at a table on two walls that differ only in what seat E can never see:
the other seats' concealed tiles (never discarded: the other seats are sat out, so the passive
player discards every tile it draws and never claims or wins) and the part of the wall nobody
draws. E plays the same way on both (and sends the same bad messages). Every frame E receives up
to the hand's end — events, prompts, versions, errors — must be byte for byte the same.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, settle

from hkmahjong.engine import runner as runner_module
from hkmahjong.engine.record import hand_seed, seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import DEAL_POSITIONS
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ports import MemoryTableStore, SeatRow, TableRow
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
    state = HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0), wall=[Tile(t) for t in wall])
    seen = [str(e.for_seat(Wind.EAST)) for e in state.initial_events if e.for_seat(Wind.EAST)]
    while not state.is_over:
        seat = state.to_act[0]
        events = state.apply(seat, passive_choice(state.view(seat), state.legal_actions(seat)))
        seen += [str(e.for_seat(Wind.EAST)) for e in events if e.for_seat(Wind.EAST)]
    return seen, state.head, state.tail


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


async def _frames(wall: list[int], monkeypatch: pytest.MonkeyPatch) -> list[str]:
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
    ann.connect()
    await settle(table, clock, 0.2)
    assert table.runner is not None and table.runner._state is not None
    assert table.runner._state.wall == wall, "the hand is not dealt from the stacked wall"
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
        await settle(table, clock, 0.3)
    await table.stop()
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
