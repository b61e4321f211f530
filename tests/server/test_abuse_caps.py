"""Abuse caps (issue 29, defect 8: one account opened 1,000 waiting online tables in seconds,
one guest 300 practice tables, the lobby listing grew to 730 KB and was re-sent whole on every
change, one client could take all 50 spectator slots of a table); docs/security.md *Abuse
limits*. Each cap is a setting (``HKMJ_MAX_OPEN_TABLES``, ``HKMJ_MAX_GUEST_TABLES``,
``HKMJ_WAITING_TABLE_SECONDS``, ``HKMJ_SPECTATORS_PER_ADDRESS``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect
from tests.server import people
from tests.server.conftest import cheap_argon2
from tests.server.waits import Changes, chain

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings
from hkmahjong.server.store.models import TableAudit

PASSWORD = "long enough pw"


def make(tmp_path: Path, **caps: Any) -> FastAPI:
    settings = Settings(data_dir=tmp_path / "data", secret="caps-secret-" + "x" * 20, **caps)
    return create_app(settings, password_hash=cheap_argon2())


def register(client: TestClient, name: str) -> None:
    """Sign up (people.register) and send the new session's CSRF token with every request."""
    people.register(client, name, PASSWORD)
    client.headers["X-CSRF-Token"] = people.csrf(client)


def as_guest(client: TestClient) -> None:
    """Come in as a guest (people.guest) and send its CSRF token with every request."""
    people.guest(client)
    client.headers["X-CSRF-Token"] = people.csrf(client)


def online(client: TestClient, **extra: Any) -> Any:
    return client.post("/api/tables", json={"kind": "online", "level": 0, **extra})


def practice(client: TestClient) -> Any:
    return client.post(
        "/api/tables",
        json={"kind": "practice", "bots": ["easy", "easy", "easy"]},
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = make(tmp_path, max_open_tables=3, max_guest_tables=2)
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client


def test_an_account_opens_a_few_tables_not_a_thousand(client: TestClient) -> None:
    register(client, "ann")
    ids = [online(client).json()["id"] for _ in range(3)]
    refused = online(client)
    assert refused.status_code == 429
    assert refused.json()["detail"]["code"] == "too_many_tables"
    assert "3 open tables" in refused.json()["detail"]["message"]
    assert client.post("/api/quick").status_code == 429
    assert client.post(f"/api/tables/{ids[0]}/leave").status_code == 200
    assert online(client).status_code == 200  # room again
    register(client, "bo")
    for table in ids[1:]:
        assert client.post(f"/api/tables/{table}/join", json={}).status_code == 200
    assert online(client).status_code == 200
    other = online(client)  # bo sits at 3 now (two joined, one created)
    assert other.status_code == 429


def test_a_guests_oldest_paused_practice_table_makes_room(client: TestClient) -> None:
    as_guest(client)
    first, second = practice(client).json()["id"], practice(client).json()["id"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    for table in (first, second):
        assert client.post(f"/api/tables/{table}/leave").status_code == 200  # paused
    assert lobby.get(first).status in ("paused", "waiting")
    third = practice(client)
    assert third.status_code == 200
    assert lobby.get(first).status == "cancelled" and lobby.get(second).open
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        reasons = session.scalars(
            select(TableAudit.reason).where(TableAudit.table_id == lobby.get(first).id)
        ).all()
    assert any("make room" in r for r in reasons)


def test_a_guest_at_the_cap_with_no_paused_table_is_refused(client: TestClient) -> None:
    as_guest(client)
    for _ in range(2):
        assert practice(client).status_code == 200
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    for table in lobby.tables.values():
        if table.status in ("paused", "waiting"):  # as if someone played at them
            table.status = "playing"
    refused = practice(client)
    assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too_many_tables"


def test_a_waiting_table_expires_refunded_and_logged(tmp_path: Path) -> None:
    app = make(tmp_path, waiting_table_s=0.3)
    with TestClient(app, base_url="http://testserver") as client:
        register(client, "ann")
        jade = client.get("/api/me").json()["jade"]
        table_id = online(client, level=1).json()["id"]
        live = app.state.lobby.get(table_id)
        changes = Changes()
        chain(live, "on_change", changes.fire)
        with client.websocket_connect("/ws/lobby") as ws:
            assert [t["id"] for t in ws.receive_json()["tables"]] == [table_id]
            # the lobby looks every 2 s
            changes.until(lambda: live.status != "waiting", 15, "the waiting table's expiry")
            msg = ws.receive_json()
            while msg["t"] != "lobby_diff" or not msg["remove"]:
                msg = ws.receive_json()
            assert msg["remove"] == [table_id]
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "cancelled"
        assert client.get("/api/me").json()["jade"] == jade
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.session() as session:
            audit = session.execute(select(TableAudit.kind, TableAudit.reason)).all()
        assert any(k == "cancelled" and "expired" in r for k, r in audit)


def test_one_address_takes_a_few_spectator_slots_not_all(tmp_path: Path) -> None:
    """Behind a trusted proxy (so one test client can speak for several addresses)."""
    app = make(tmp_path, spectators_per_address=2, trusted_proxies=("10.0.0.0/8",))
    with TestClient(app, base_url="http://testserver", client=("10.0.0.5", 1)) as client:
        register(client, "ann")
        table_id = online(client).json()["id"]
        client.cookies.clear()
        path = f"/ws/table/{table_id}"
        mallory = {"X-Forwarded-For": "198.51.100.7"}
        with (
            client.websocket_connect(path, headers=mallory) as one,
            client.websocket_connect(path, headers=mallory) as two,
        ):
            for ws in (one, two):
                ws.send_json({"t": "hello", "proto": 1})
                assert ws.receive_json()["t"] == "snapshot"
            with (
                pytest.raises(WebSocketDisconnect) as info,
                client.websocket_connect(path, headers=mallory) as third,
            ):
                third.receive_json()
            assert info.value.code == 4429 and "one address" in info.value.reason
            someone = {"X-Forwarded-For": "198.51.100.8"}
            with client.websocket_connect(path, headers=someone) as other:
                other.send_json({"t": "hello", "proto": 1})
                assert other.receive_json()["t"] == "snapshot"
        with client.websocket_connect(path, headers=mallory) as again:  # slots given back
            again.send_json({"t": "hello", "proto": 1})
            assert again.receive_json()["t"] == "snapshot"
            assert app.state.spectator_slots.held(table_id, "198.51.100.7") == 1


def test_the_lobby_sends_changes_not_the_whole_listing(client: TestClient) -> None:
    """Defect 8: the whole listing was re-sent to every watcher on every change."""
    register(client, "ann")
    first = online(client).json()["id"]
    register(client, "bo")
    second = online(client).json()["id"]
    with client.websocket_connect("/ws/lobby") as ws:
        whole = ws.receive_json()
        assert whole["t"] == "lobby" and {t["id"] for t in whole["tables"]} == {first, second}
        third = online(client).json()["id"]
        diff = ws.receive_json()
        assert diff["t"] == "lobby_diff" and diff["v"] == whole["v"] + 1
        assert [t["id"] for t in diff["upsert"]] == [third] and diff["remove"] == []
        register(client, "cy")
        assert client.post(f"/api/tables/{first}/join", json={}).status_code == 200
        diff = ws.receive_json()
        assert [t["id"] for t in diff["upsert"]] == [first]
        assert [p["name"] for p in diff["upsert"][0]["players"]][:2] == ["ann", "cy"]
        assert len(json.dumps(diff)) < len(json.dumps(whole)) * 0.7
        assert client.post(f"/api/tables/{first}/leave").status_code == 200  # cy leaves
        diff = ws.receive_json()
        assert diff["v"] == whole["v"] + 3 and [t["id"] for t in diff["upsert"]] == [first]
        ws.send_json({"t": "ping"})
        while (msg := ws.receive_json())["t"] != "pong":
            assert msg["t"] == "lobby_diff"


def test_your_table_reaches_only_that_players_lobby_sockets(client: TestClient) -> None:
    register(client, "ann")
    table_id = online(client).json()["id"]
    ann_cookies = dict(client.cookies.items())
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with (
        client.websocket_connect("/ws/lobby") as mine,
        client.websocket_connect("/ws/lobby") as also,
    ):
        client.cookies.clear()
        with client.websocket_connect("/ws/lobby") as stranger:
            for ws in (mine, also, stranger):
                assert ws.receive_json()["t"] == "lobby"
            client.portal.call(_notify, lobby, lobby.get(table_id))  # type: ignore[union-attr]
            for ws in (mine, also):
                assert ws.receive_json() == {"t": "your_table", "id": table_id, "status": "waiting"}
            stranger.send_json({"t": "ping"})
            assert stranger.receive_json() == {"t": "pong"}
        for name, value in ann_cookies.items():
            client.cookies.set(name, value)


async def _notify(lobby: Any, table: Any) -> None:
    lobby.notify_players(table)
