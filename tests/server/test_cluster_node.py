"""Two server processes' nodes in one test process (issue 36, docs/deploy.md *Faults*), each app
with its own cluster node on the real PostgreSQL and Redis: a reconnect that arrives while its
table is being taken over is told to retry (1013) or waits for the rebuild, never "no such table"
(4404); lobby listings expire and are rewritten on a timer; a graceful stop logs no error while
the other processes' lobby messages keep coming."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import _truncate, cheap_argon2
from tests.server.people import csrf, guest

from hkmahjong.parlor.lobby import Lobby
from hkmahjong.server.app import create_app
from hkmahjong.server.cluster.bus import Bus
from hkmahjong.server.cluster.node import CLOSE_RETRY, ClusterConfig
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store

REDIS = os.environ.get("HKMJ_TEST_REDIS", "redis://127.0.0.1:6379/0")
SECRET = "node-secret-" + "n" * 20


@pytest.fixture
def pg(pg_url: str) -> Iterator[Store]:
    opened = Store.open(pg_url)
    _truncate(opened)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def prefix() -> Iterator[str]:
    name = f"hkmjtest:{secrets.token_hex(4)}"
    yield name
    r = redis.Redis.from_url(REDIS)
    keys = list(r.scan_iter(f"{name}:*"))
    if keys:
        r.delete(*keys)
    r.close()


def _node(
    tmp_path: Path, pg_url: str, store: Store, prefix: str, owner: str, lease: float
) -> TestClient:
    settings = Settings(data_dir=tmp_path / owner, db_url=pg_url, secret=SECRET)
    config = ClusterConfig(REDIS, prefix, lease, owner)
    app = create_app(settings, store=store, password_hash=cheap_argon2(), cluster=config)
    return TestClient(app, base_url="http://testserver")


def _guest_table(client: TestClient) -> str:
    guest(client)
    token = csrf(client)
    r = client.post(
        "/api/tables",
        json={"kind": "practice", "length": "four-rounds", "bots": ["easy", "easy", "easy"]},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _first(client: TestClient, public_id: str) -> dict[str, Any] | int:
    """Open the table's socket: its first frame, or the close code."""
    try:
        with client.websocket_connect(f"/ws/table/{public_id}") as ws:
            ws.send_json({"t": "hello", "proto": 1})
            got: dict[str, Any] = ws.receive_json()
            return got
    except WebSocketDisconnect as exc:
        return exc.code


def test_a_reconnect_during_a_take_over_is_told_to_retry_then_served(
    tmp_path: Path, pg_url: str, pg: Store, prefix: str
) -> None:
    """Node a makes a table and stops (its lease handed over); node b has not swept yet. While
    the table's lease row is locked (an old owner's write in flight) b cannot take it: a socket
    to b is closed with 1013 (retry), not 4404, an API request answered 503 (Retry-After: 1);
    once the row is free the next ones are served."""
    with _node(tmp_path, pg_url, pg, prefix, "node-b", 30) as b:  # sweeps every 10 s
        with _node(tmp_path, pg_url, pg, prefix, "node-a", 30) as a:
            public_id = _guest_table(a)
        b.cookies.update(a.cookies)  # the same person, at the other process
        with pg.session() as s:
            tid = s.execute(
                text("SELECT id FROM parlor_tables WHERE public_id = :p"), {"p": public_id}
            ).scalar_one()
        with pg.engine.connect() as hold:
            hold.execute(
                text("SELECT 1 FROM table_leases WHERE table_id = :t FOR SHARE"), {"t": tid}
            )
            assert _first(b, public_id) == CLOSE_RETRY
            r = b.get(f"/api/tables/{public_id}")  # an API request: try again in a second
            assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
            hold.rollback()
        r = b.get(f"/api/tables/{public_id}")
        assert r.status_code == 200, r.text
        got = _first(b, public_id)
        assert isinstance(got, dict) and got["t"] == "snapshot", got
        assert got["table"]["you"] == 0  # the person's own seat, served by b now
        assert _first(b, "nosuchtable") == 4404  # a table that does not exist is still final


def test_a_reconnect_while_the_table_is_rebuilt_waits_for_it(
    tmp_path: Path, pg_url: str, pg: Store, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node b holds the lease but is still rebuilding the table: a second socket to b waits for
    the rebuild and is served (before issue 36 it was closed with 4404 "no such table")."""
    with _node(tmp_path, pg_url, pg, prefix, "node-b", 30) as b:
        with _node(tmp_path, pg_url, pg, prefix, "node-a", 30) as a:
            public_id = _guest_table(a)
        b.cookies.update(a.cookies)
        entered, release = threading.Event(), threading.Event()
        rebuild = Lobby.adopt

        async def slow_adopt(self: Lobby, row: Any) -> Any:
            entered.set()
            assert await asyncio.to_thread(release.wait, 30)  # set by the test's thread
            return await rebuild(self, row)

        monkeypatch.setattr(Lobby, "adopt", slow_adopt)
        got: dict[str, dict[str, Any] | int] = {}
        first = threading.Thread(target=lambda: got.update(first=_first(b, public_id)))
        first.start()
        assert entered.wait(10), "the first socket did not start the take-over"
        second = threading.Thread(target=lambda: got.update(second=_first(b, public_id)))
        second.start()
        time.sleep(0.5)
        assert "second" not in got, got  # not refused: waiting for the rebuild
        release.set()
        first.join(10)
        second.join(10)
        for key in ("first", "second"):
            frame = got[key]
            assert isinstance(frame, dict) and frame["t"] == "snapshot", got


def test_a_listing_expires_unless_rewritten_and_no_process_removes_another(
    prefix: str,
) -> None:
    async def main() -> None:
        a = Bus(REDIS, prefix, "node-a")
        b = Bus(REDIS, prefix, "node-b")
        try:
            assert await a.publish_listing([{"id": "t1"}], ttl=0.4) is True
            assert await a.publish_listing([{"id": "t1"}], ttl=0.4) is False  # unchanged
            assert await b.listings() == {"node-a": [{"id": "t1"}]}
            await asyncio.sleep(0.6)  # not rewritten: gone, and its name let go
            assert await b.listings() == {}
            assert await b.redis.smembers(b.listers) == set()
            assert await a.publish_listing([{"id": "t1"}], ttl=5) is True  # back: told again
            assert await b.listings() == {"node-a": [{"id": "t1"}]}
            await a.forget_listing("node-a")
            assert await b.listings() == {}
        finally:
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(main())


def test_a_graceful_stop_logs_no_error_while_lobby_messages_arrive(
    tmp_path: Path, pg_url: str, pg: Store, prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 36, finding 5: another process's lobby messages started a listing read during the
    stop that met the Redis connection closed (a traceback at every such stop)."""
    stop = threading.Event()

    def flood() -> None:
        r = redis.Redis.from_url(REDIS)
        try:
            while not stop.is_set():
                r.publish(f"{prefix}:lobby", "node-x")
                r.set(f"{prefix}:listing:node-x", "[]", px=5000)
                r.sadd(f"{prefix}:listers", "node-x")
        finally:
            r.close()

    caplog.set_level(logging.WARNING)
    for round_ in range(3):
        node = _node(tmp_path, pg_url, pg, prefix, f"node-{round_}", 30)
        with node:
            _guest_table(node)
            flooding = threading.Thread(target=flood)
            flooding.start()
            time.sleep(0.3)
        stop.set()
        flooding.join()
        stop.clear()
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == [], [r.getMessage() for r in errors]


def test_a_process_without_heartbeat_for_a_lease_drops_its_tables(
    tmp_path: Path, pg_url: str, pg: Store, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database out of reach of this process alone: once no heartbeat has succeeded for a
    lease, the others may take its tables, so it stops them and closes their sockets (1012)
    rather than keep players waiting on writes that must fail; taken back once it beats."""
    with _node(tmp_path, pg_url, pg, prefix, "node-a", 1.5) as a:
        public_id = _guest_table(a)
        node: Any = a.app.state.cluster  # type: ignore[attr-defined]
        lobby: Lobby = a.app.state.lobby  # type: ignore[attr-defined]
        with a.websocket_connect(f"/ws/table/{public_id}") as ws:
            ws.send_json({"t": "hello", "proto": 1})
            assert ws.receive_json()["t"] == "snapshot"

            def unreachable() -> set[str]:
                raise ConnectionError("the database is out of reach")

            monkeypatch.setattr(node.book, "heartbeat", unreachable)
            started = time.monotonic()
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 1012
            # a lease after the last beat, which came up to one beat period (a third of the
            # lease) before the database went away
            assert 1.5 - node.every <= time.monotonic() - started < 4.5
            assert lobby.get(public_id) is None
        monkeypatch.undo()  # the database is back: the table is taken again at the next sweep
        deadline = time.monotonic() + 10
        while lobby.get(public_id) is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert lobby.get(public_id) is not None
