"""旁觀 the gallery: spectators watch with a delay, cannot act, are counted and bounded (issue 18,
*Spectating*: "with a delay (default 1 hand-turn or a configurable number of seconds) … the
players see the spectator count")."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from tests.parlor.tablekit import FAST, Client, idle, settle, watch_send

from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.gallery import CLOSE_FULL
from hkmahjong.parlor.ports import MemoryConnection, MemoryTableStore
from hkmahjong.parlor.table import Table, TableConfig, TableError
from hkmahjong.rules import get_preset

HELLO = '{"t":"hello","proto":1}'


async def _bot_table(
    delay_ms: int | None = None, *, store: MemoryTableStore | None = None, limit: int = 50
) -> tuple[Table, MemoryTableStore, FakeClock]:
    store = store or MemoryTableStore()
    clock = FakeClock()
    config = TableConfig.of(
        "online", get_preset("parlor"), length="one-hand", clocks=FAST,
        bots=("easy", "easy", "easy", "easy"), watch_delay_ms=delay_ms,
    )  # fmt: skip
    table = await Table.create(store, config, clock=clock, watch_limit=limit)
    return table, store, clock


def _watch(table: Table) -> MemoryConnection:
    conn = MemoryConnection()
    table.watch(conn)
    watch_send(table, conn, HELLO)
    return conn


def _msgs(conn: MemoryConnection) -> list[dict[str, Any]]:
    return [json.loads(f) for f in conn.frames]


def _discards(conn: MemoryConnection) -> int:
    return sum(1 for m in _msgs(conn) if m["t"] == "event" and m["event"]["kind"] == "discard")


async def _snapshot_of(table: Table, clock: FakeClock) -> tuple[dict[str, Any], MemoryConnection]:
    """A new spectator's snapshot (the actor may be sleeping through a discard delay)."""
    conn = _watch(table)
    for _ in range(100):
        await idle(table)
        if conn.frames:
            table.unwatch(conn)
            return json.loads(conn.frames[0]), conn
        await settle(table, clock, 0.01, step=0.01)
    raise AssertionError("no snapshot")


def test_spectators_are_one_discard_behind_and_see_the_end_at_once() -> None:
    """One hand-turn (the default): at every moment a spectator has every discard but the latest
    (the discarder's turn is where it stands); a newcomer's snapshot stands where the stream
    does, never in a claim window; the hand's end reaches it at once."""

    async def run() -> None:
        table, _, clock = await _bot_table()
        early = _watch(table)
        await table.start()
        behind = snapshots = 0
        for _ in range(4000):
            await settle(table, clock, 0.05)
            runner = table.runner
            if runner is None or runner.hand_number < 0:
                continue
            if not runner.in_hand:
                break
            total = sum(len(r) for r in runner.public_view().discards)
            if total:
                assert _discards(early) == total - 1
                behind += 1
            if behind % 25 == 1:
                snap, _ = await _snapshot_of(table, clock)
                snapshots += 1
                assert snap["t"] == "snapshot" and snap["view"]["phase"] in ("turn", "over")
                upto = [m for m in _msgs(early)[1:] if m["v"] <= snap["v"]]
                assert upto[-1]["v"] == snap["v"]
                shown = sum(
                    1 for m in upto if m["t"] == "event" and m["event"]["kind"] == "discard"
                )
                assert sum(map(len, snap["view"]["discards"])) == shown
        # a hand that ends 流局 on its last discard ends after the discard delay (0.6 s)
        await settle(table, clock, 0.7)
        assert behind > 20 and snapshots > 2
        kinds = [m["t"] for m in _msgs(early)]
        assert "hand_end" in kinds and "match_end" in kinds
        end = next(m for m in _msgs(early) if m["t"] == "hand_end")
        assert set(end["hands"]) == {"E", "S", "W", "N"} and end["seed"]
        await table.stop()

    asyncio.run(run())


def test_a_timed_delay_holds_everything_back_that_long() -> None:
    """``watch_delay_ms``: nothing of the hand reaches a spectator before the delay has passed;
    every snapshot is of a settled table (a turn, or the end)."""

    async def run() -> None:
        table, _, clock = await _bot_table(4000)
        early = _watch(table)
        await table.start()
        await settle(table, clock, 3.0)
        assert table.runner is not None and table.runner.hand_number == 0
        assert [m["t"] for m in _msgs(early)] == ["snapshot"]
        assert _msgs(early)[0]["view"] is None
        await settle(table, clock, 1.5)
        assert "hand" in [m["t"] for m in _msgs(early)]
        for _ in range(60):
            await settle(table, clock, 0.7)
            snap, _ = await _snapshot_of(table, clock)
            view = snap["view"]
            assert view is None or view["phase"] in ("turn", "over")
        await table.stop()

    asyncio.run(run())


def test_spectators_cannot_act_are_counted_and_bounded() -> None:
    """A spectator's act is refused (``not_seated``), ping answered; the players are told how many
    watch (``watchers``, and ``table.watchers``); past the table's limit a spectator is closed."""

    async def run() -> None:
        store = MemoryTableStore()
        clock = FakeClock()
        config = TableConfig.of("online", get_preset("parlor"), length="one-hand", clocks=FAST,
                                bots=(None, "easy", "easy", "easy"))  # fmt: skip
        table = await Table.create(store, config, creator=(1, "ann"), clock=clock, watch_limit=2)
        await table.start()
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 0.2)
        one, two, three = _watch(table), _watch(table), _watch(table)
        await idle(table)
        assert three.closed == (CLOSE_FULL, "the gallery is full")
        assert table.info().watchers == 2
        counts = [m["count"] for m in ann.messages if m["t"] == "watchers"]
        assert counts == [1, 2]
        watch_send(table, one, '{"t":"act","action":"pass","v":3,"id":"q"}')
        watch_send(table, one, '{"t":"ping"}')
        watch_send(table, one, '{"t":"hello","proto":1}')
        watch_send(table, one, "not json")
        await idle(table)
        tail = [json.loads(f) for f in one.frames[-4:]]
        # a frame that is not a message is answered at the door at once; the others by the table
        assert tail[0]["code"] == "bad_json"
        assert tail[1] == {
            "t": "error",
            "code": "not_seated",
            "message": "you are watching: spectators cannot act",
            "ref": "q",
        }
        assert tail[2] == {"t": "pong"}
        assert tail[3]["code"] == "hello_first"
        table.unwatch(two)
        await idle(table)
        assert table.info().watchers == 1
        assert [m["count"] for m in ann.messages if m["t"] == "watchers"] == [1, 2, 1]
        await table.stop()

    asyncio.run(run())


def test_a_spectator_resyncs_after_a_short_drop() -> None:
    """Reconnecting with ``epoch`` and ``since`` re-sends the missed messages, then ``synced``."""

    async def run() -> None:
        table, _, clock = await _bot_table()
        first = _watch(table)
        await table.start()
        await settle(table, clock, 8.0)
        msgs = _msgs(first)
        since = msgs[-1]["v"] - 3
        table.unwatch(first)
        again = MemoryConnection()
        table.watch(again)
        watch_send(table, again, json.dumps({"t": "hello", "proto": 1, "epoch": table.epoch,
                                               "since": since}))  # fmt: skip
        for _ in range(100):
            await settle(table, clock, 0.01, step=0.01)
            if again.frames and '"t":"synced"' in again.frames[-1]:
                break
        got = _msgs(again)
        assert got[-1]["t"] == "synced" and got[-1]["prompt"] is None
        assert [m["v"] for m in got[:-1]] == [m["v"] for m in msgs if m["v"] > since][
            : len(got) - 1
        ]
        await table.stop()

    asyncio.run(run())


def test_a_spectator_back_after_play_went_on_unwatched_gets_a_snapshot() -> None:
    """Released while nobody watched, messages are numbered but not kept (nor encoded): a
    spectator back with an older ``since`` gets a snapshot, never a resync with a hole."""

    async def run() -> None:
        table, _, clock = await _bot_table()
        first = _watch(table)
        await table.start()
        await settle(table, clock, 4.0)
        since = _msgs(first)[-1]["v"]
        table.unwatch(first)
        await settle(table, clock, 6.0)  # discards released with no spectator
        again = MemoryConnection()
        table.watch(again)
        watch_send(table, again, json.dumps({"t": "hello", "proto": 1, "epoch": table.epoch,
                                               "since": since}))  # fmt: skip
        for _ in range(100):
            await settle(table, clock, 0.01, step=0.01)
            if again.frames:
                break
        first_msg = _msgs(again)[0]
        assert first_msg["t"] == "snapshot"
        assert first_msg["v"] > since
        await table.stop()

    asyncio.run(run())


def test_a_rebuilt_table_shows_spectators_a_settled_point() -> None:
    """After a restart mid-hand the table is rebuilt from its log; a spectator's snapshot stands
    where the replayed stream had been released to (a turn, one discard behind)."""

    async def run() -> None:
        table, store, clock = await _bot_table()
        await table.start()
        await settle(table, clock, 12.0)
        assert table.runner is not None and table.runner.in_hand
        total = sum(len(r) for r in table.runner.public_view().discards)
        await table.stop()
        row = await store.get(table.id)
        assert row is not None
        again = await Table.restore(store, row, clock=clock)
        snap = again.gallery.snapshot()
        assert snap["view"]["phase"] == "turn" and snap["table"]["you"] is None
        assert sum(map(len, snap["view"]["discards"])) == total - 1

    asyncio.run(run())


def test_the_delay_is_checked() -> None:
    rules = get_preset("parlor")
    for bad in (-1, 600_001, 1.5, True):
        try:
            TableConfig.of("online", rules, watch_delay_ms=bad)
        except TableError as exc:
            assert exc.code == "bad_config"
        else:
            raise AssertionError(f"{bad!r} accepted")
    config = TableConfig.of("online", rules, watch_delay_ms=5000)
    assert TableConfig.from_json(config.to_json()) == config
    assert replace(config, watch_delay_ms=None).to_json()["watch_delay_ms"] is None
