"""The actor never waits (issue 32 item 1, docs/server.md *The table actor*): one table whose bot
thinks for 2 s, or whose ledger is blocked for 2 s by a database lock, cannot delay another
table's action → broadcast. Real clocks, one event loop, the process's shared bot threads; the
bound (300 ms) is generous: the point is that the other table is never stalled for the 2 s."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.parlor.tablekit import Client, act

from hkmahjong.engine.actions import Action
from hkmahjong.engine.view import PlayerView
from hkmahjong.parlor.clocks import ClockSettings
from hkmahjong.parlor.ledger import grant
from hkmahjong.parlor.ports import MemoryConnection, MemoryTableStore
from hkmahjong.parlor.seats import passive_choice
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.rules import get_preset
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import SqlLedger

QUICK = ClockSettings(turn_ms=0, claim_ms=0, bank_ms=0, grace_ms=0, discard_delay_ms=50,
                      bot_ms=10, next_hand_ms=100)  # fmt: skip
BOUND_S = 0.3


class SlowBot:
    """A bot that thinks for ``seconds`` of pure Python (it holds the GIL, as a search does)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0
        self.called = threading.Event()

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.calls += 1
        self.called.set()
        end = time.perf_counter() + self.seconds
        n = 0
        while time.perf_counter() < end:
            n += 1
        return passive_choice(view, legal)


class Stamped(MemoryConnection):
    """Keeps when each frame was sent, and wakes whoever waits for the next one."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []
        self.arrived = asyncio.Event()

    def send(self, text: str) -> None:
        if self.closed is None:
            self.at.append(time.perf_counter())
        super().send(text)
        self.arrived.set()

    async def next_frame(self, seconds: float) -> bool:
        """Wait for a frame sent after the last :meth:`expect` (False: none in ``seconds``)."""
        try:
            async with asyncio.timeout(seconds):
                await self.arrived.wait()
        except TimeoutError:
            return False
        return True

    def expect(self) -> None:
        """From now on, :meth:`next_frame` waits for a frame not yet sent."""
        self.arrived.clear()


def seated(table: Table) -> Client:
    """The person of a practice table, connected (frames stamped with when they were sent)."""
    ann = Client(table, 0)
    ann.conn = Stamped()
    table.connect(0, ann.conn)
    ann.send({"t": "hello", "proto": 1})
    return ann


async def latencies(ann: Client, count: int, busy: Any) -> list[float]:
    """Act ``count`` times while ``busy()`` holds: each act's time until its discard is
    broadcast to the actor."""
    got: list[float] = []
    conn = ann.conn
    assert isinstance(conn, Stamped)
    for _ in range(4000):
        if len(got) >= count:
            break
        conn.expect()
        prompt = ann.open_prompt()
        if prompt is None or not busy():
            await conn.next_frame(0.05)  # a prompt comes as a frame
            continue
        if prompt["clock"]["kind"] != "turn":
            act(ann, "pass")
            await conn.next_frame(1)  # its answer (every path through the loop awaits a frame)
            continue
        seen = len(conn.frames)
        sent = time.perf_counter()
        discards = [i["action"] for i in prompt["legal"] if i["kind"] == "discard"]
        act(ann, discards[-1])
        while not any('"kind":"discard"' in f for f in conn.frames[seen:]):
            conn.expect()  # (nothing runs between the check and this: one event loop)
            assert await conn.next_frame(5), "the act was never broadcast"
        i = next(i for i, f in enumerate(conn.frames) if i >= seen and '"kind":"discard"' in f)
        got.append(conn.at[i] - sent)
    return got


async def practice_table() -> Table:
    config = TableConfig.of("practice", get_preset("parlor"), length="8-hands", clocks=QUICK,
                            bots=(None, "easy", "easy", "easy"), hints=True)  # fmt: skip
    table = await Table.create(MemoryTableStore(), config, creator=(1, "ann"))
    await table.start()
    return table


def test_a_bot_thinking_for_2_s_does_not_delay_another_table() -> None:
    async def main() -> None:
        other = await practice_table()
        ann = seated(other)
        await latencies(ann, 2, lambda: True)  # (the first win checks build the engine's tables)
        slow = SlowBot(2.0)
        config = TableConfig.of("online", get_preset("parlor"), length="8-hands", clocks=QUICK,
                                bots=("easy", "easy", "easy", "easy"))  # fmt: skip
        busy = await Table.create(MemoryTableStore(), config)
        for seat in busy.seats:
            seat.controller = slow  # every decision of that table takes 2 s
        await busy.start()
        started = time.perf_counter()
        assert await asyncio.to_thread(slow.called.wait, 10), "the slow bot was never asked"
        measured = await latencies(ann, 6, lambda: time.perf_counter() - started < 30)
        assert slow.calls >= 1
        assert max(measured) < BOUND_S, measured
        await busy.stop()
        await other.stop()

    asyncio.run(main())


def test_a_ledger_blocked_by_a_database_lock_does_not_delay_another_table(
    tmp_path: Path,
) -> None:
    """A staked table starts while another connection holds SQLite's write lock for 2.5 s: its
    buy-in waits (in a worker thread) and the table commits it once the lock is gone; another
    table plays on meanwhile."""
    path = tmp_path / "parlor.db"
    store = Store.open(f"sqlite:///{path}")
    ledger = SqlLedger(store)
    for user in (1, 2):
        ledger.post_sync(grant(f"user:{user}", 1000, f"grant:test:{user}"))

    async def main() -> None:
        other = await practice_table()
        ann = seated(other)
        await latencies(ann, 2, lambda: True)  # (the first win checks build the engine's tables)
        config = TableConfig.of("online", get_preset("parlor"), length="online", clocks=QUICK,
                                stake=100, bots=(None, None, "easy", "easy"))  # fmt: skip
        staked = await Table.create(MemoryTableStore(), config, creator=(1, "ann"), ledger=ledger)
        await staked.start()
        locked = threading.Event()
        done = threading.Event()

        def hold_the_lock() -> None:
            con = sqlite3.connect(path, isolation_level=None)
            con.execute("BEGIN IMMEDIATE")
            locked.set()
            time.sleep(2.5)
            con.execute("ROLLBACK")
            con.close()
            done.set()

        holder = threading.Thread(target=hold_the_lock)
        holder.start()
        locked.wait(5)
        joining = asyncio.ensure_future(staked.join(2, "bo"))  # the buy-in waits for the lock
        measured = await latencies(ann, 5, lambda: not done.is_set())
        assert not joining.done() and not done.is_set()  # all measured while the lock was held
        await joining
        assert staked.status == "playing"
        assert await ledger.balance("user:1") == 900
        assert max(measured) < BOUND_S, measured
        holder.join()
        await staked.stop()
        await other.stop()

    asyncio.run(main())
    store.close()
