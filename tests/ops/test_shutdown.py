"""Graceful shutdown (docs/operations.md, *Stopping*): SIGTERM lets each table finish the commit
it is in (and tell its players), closes the table sockets with 1012 (reconnect) and exits 0; the
tables resume from their logs at the next start with every acknowledged action kept."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.ops.conftest import Seat, guest_table, mid_hand, start_server
from tests.parlor.tablekit import Client, act, make_table, settle
from websockets.exceptions import ConnectionClosed

from hkmahjong.parlor.ports import MemoryTableStore


class GatedStore(MemoryTableStore):
    """Appends wait for ``gate`` once ``hold`` is set (a commit in flight at the stop)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def append(
        self, table_id: int, seq: int, lines: Sequence[str], results: Any = None
    ) -> None:
        if self.hold:
            self.waiting.set()
            await self.gate.wait()
        await super().append(table_id, seq, lines, results)


@pytest.mark.parametrize("drain_s", [2.0, 0.0])
def test_a_graceful_stop_finishes_the_commit_in_flight(drain_s: float) -> None:
    async def main() -> None:
        store = GatedStore()
        table, _, clock = await make_table(kind="practice", store=store)
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 1.0)
        prompt = ann.open_prompt()
        assert prompt is not None
        before = len(store.log[table.id])
        store.hold = True
        act(ann, prompt["legal"][-1]["action"])
        await asyncio.wait_for(store.waiting.wait(), 5)  # the actor is inside the commit
        stopping = asyncio.ensure_future(table.stop(drain_s=drain_s))
        await asyncio.sleep(0.05)
        store.gate.set()
        await asyncio.wait_for(stopping, 5)
        committed = len(store.log[table.id]) > before
        told = any(m["t"] == "done" and m["prompt"] == prompt["v"] for m in ann.messages)
        if drain_s:
            assert committed and told  # finished, and its player told
        else:
            assert not committed and not told  # cut where it was: nothing said either

    asyncio.run(main())


def test_sigterm_closes_sockets_with_1012_exits_0_and_the_table_resumes(
    tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    data = tmp_path / "data"
    served = start_server(data)
    guests: list[httpx.Client] = []

    def practice() -> tuple[str, str]:
        http, cookie, table = guest_table(served.url)
        guests.append(http)
        return table, cookie

    table, cookie, seat, _ = mid_hand(practice, lambda t, c: seat_at(served.url, t, c), actions=4)
    assert served.stop(signal.SIGTERM) == 0  # uvicorn's SIGTERM ends here, not re-raised
    with pytest.raises(ConnectionClosed):
        while True:
            seat.messages.append(json.loads(seat.ws.recv(timeout=30)))
    rcvd = seat.ws.protocol.close_rcvd
    assert rcvd is not None and rcvd.code == 1012
    acked = sum(1 for m in seat.messages if m["t"] == "done" and m.get("by") == "you")
    assert acked >= 3
    log = served.stderr.read_text(encoding="utf-8")
    assert "Traceback" not in log, log[-3000:]

    served = start_server(data)
    try:
        again = seat_at(served.url, table, cookie)
        again.play(until="match_end")
        assert again.messages[0]["t"] == "snapshot"
        record = httpx.get(
            f"{served.url}/api/tables/{table}/record", headers={"Cookie": cookie}, timeout=30
        ).text
        mine = [
            line
            for line in map(json.loads, record.splitlines())
            if line["t"] == "act" and line["seat"] == "E"
        ]
        assert len(mine) >= acked  # every action the person was told of is in the log
    finally:
        assert served.stop() == 0
        for http in guests:
            http.close()
