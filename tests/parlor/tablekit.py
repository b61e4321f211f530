"""Helpers for the table tests: a table on in-memory ports and a virtual clock, scripted clients."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hkmahjong.engine.actions import Action
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.clocks import ClockSettings, FakeClock
from hkmahjong.parlor.ledger import LedgerStore, MemoryLedger, grant
from hkmahjong.parlor.ports import Connection, MemoryConnection, MemoryTableStore
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.parlor.wire import dumps
from hkmahjong.rules import get_preset

T = TypeVar("T")

FAST = ClockSettings(
    turn_ms=10_000,
    claim_ms=6_000,
    bank_ms=20_000,
    grace_ms=15_000,
    discard_delay_ms=600,
    bot_ms=100,
    next_hand_ms=5_000,
)


async def idle(table: Table) -> None:
    """Wait until every queued message of ``table`` is handled and nothing is being computed off
    the loop (the actor then waits on its clock). A test's helper, not the table's: it reads the
    actor's queue and its work in flight.

    The actor may be waiting on a database thread (a log append) or a bot's decision: after the
    first thousand turns of the loop this polls every millisecond, for up to 60 s of the loop's
    time; then it fails with the actor's stack.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    spins = 0
    while True:
        await asyncio.sleep(0 if spins < 1000 else 0.001)
        spins += 1
        if table.queue.empty() and not table._busy and not table._work and not table._soon:
            return
        if loop.time() > deadline:
            break
    stack = table._task.get_stack() if table._task is not None else []
    raise AssertionError(
        f"table {table.public_id} did not become idle in 60 s: {stack} "
        f"q={table.queue.qsize()} busy={table._busy} work={len(table._work)}"
    )


def funded_ledger(grants: dict[str, int]) -> MemoryLedger:
    """The parlor's in-memory ledger with these starting grants."""
    ledger = MemoryLedger()
    for account, amount in grants.items():
        ledger.post_sync(grant(account, amount, f"grant:test:{account}"))
    return ledger


def door(conn: Connection, text: str | bytes) -> proto.ClientMessage | None:
    """What the socket does with a client frame (``server.ws.parse_at_door``): parse it, or
    answer its error and pass nothing on."""
    try:
        return proto.parse_client(text)
    except proto.ProtocolError as exc:
        conn.send(dumps(exc.to_json()))
        return None


def watch_send(table: Table, conn: Connection, text: str) -> None:
    """A spectator's frame, through the door."""
    msg = door(conn, text)
    if msg is not None:
        table.watch_receive(conn, msg)


@dataclass
class Client:
    """A scripted client of one player: sends hello, answers prompts with ``choose``."""

    table: Table
    player: int
    conn: MemoryConnection = field(default_factory=MemoryConnection)
    seen: int = 0

    def connect(self, since: int | None = None, epoch: str | None = None) -> None:
        self.conn = MemoryConnection()
        self.seen = 0
        self.table.connect(self.player, self.conn)
        hello: dict[str, Any] = {"t": "hello", "proto": 1}
        if since is not None:
            hello["since"] = since
            hello["epoch"] = epoch
        self.send(hello)

    def send(self, obj: Any) -> None:
        text = obj if isinstance(obj, str) else json.dumps(obj)
        msg = door(self.conn, text)
        if msg is not None:
            self.table.receive(self.player, self.conn, msg)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(f) for f in self.conn.frames]

    def new(self) -> list[dict[str, Any]]:
        out = [json.loads(f) for f in self.conn.frames[self.seen :]]
        self.seen = len(self.conn.frames)
        return out

    def open_prompt(self) -> dict[str, Any] | None:
        """The latest prompt not closed by a later ``done`` (or a snapshot/synced prompt)."""
        prompt: dict[str, Any] | None = None
        for m in self.messages:
            if m["t"] == "prompt":
                prompt = m
            elif m["t"] in ("snapshot", "synced"):
                prompt = m["prompt"]
            elif m["t"] == "done" and prompt is not None and m["prompt"] == prompt["v"]:
                prompt = None
        return prompt

    def last_v(self) -> int:
        v = 0
        for m in self.messages:
            if "v" in m and m["t"] not in ("error", "hint", "pong"):
                v = m["v"]
        return v


def passive(prompt: dict[str, Any]) -> str:
    """A pass in a window, else the last discard offered (never a win, claim or kong)."""
    kinds = {item["kind"]: item["action"] for item in prompt["legal"]}
    if "pass" in kinds:
        return str(kinds["pass"])
    discards = [item["action"] for item in prompt["legal"] if item["kind"] == "discard"]
    return str(discards[-1])


def first_discard_or_pass(legal: Sequence[dict[str, Any]]) -> str:
    for item in legal:
        if item["kind"] in ("pass",):
            return str(item["action"])
    return str(legal[-1]["action"])


async def settle(table: Table, clock: FakeClock, seconds: float = 0.0, step: float = 0.05) -> None:
    """Let the table run for ``seconds`` of virtual time (in small steps), then until idle."""
    await idle(table)
    t = 0.0
    while t < seconds:
        clock.advance(step)
        t += step
        await asyncio.sleep(0)
        await idle(table)
    await idle(table)


async def drive(clock: FakeClock, coro: Awaitable[T], step: float = 0.05) -> T:
    """Await ``coro`` (a table command) while moving virtual time, so a sleeping actor wakes."""
    task = asyncio.ensure_future(coro)
    for _ in range(10_000):
        await asyncio.sleep(0)
        if task.done():
            return task.result()
        clock.advance(step)
    raise AssertionError("the command never finished")


async def make_table(
    *,
    kind: str = "online",
    bots: tuple[str | None, ...] = (None, "easy", "easy", "easy"),
    clocks: ClockSettings = FAST,
    stake: int | None = None,
    fee: int = 0,
    ledger: LedgerStore | None = None,
    store: MemoryTableStore | None = None,
    length: str = "one-hand",
    hints: bool = False,
) -> tuple[Table, MemoryTableStore, FakeClock]:
    store = store or MemoryTableStore()
    clock = FakeClock()
    config = TableConfig.of(
        kind, get_preset("parlor"), length=length, stake=stake, clocks=clocks, bots=bots,
        hints=hints, fee=fee,
    )  # fmt: skip
    table = await Table.create(store, config, creator=(1, "ann"), clock=clock, ledger=ledger)
    await table.start()
    return table, store, clock


def act(client: Client, action: str | Action, v: int | None = None, ref: str = "x") -> None:
    prompt = client.open_prompt()
    text = action if isinstance(action, str) else action.text
    client.send({"t": "act", "action": text, "v": prompt["v"] if v is None else v, "id": ref})
