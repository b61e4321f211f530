"""Issue 29, defect 1: a websocket frame of 1,000 nested arrays (2 KB, under the frame limit)
made ``json.loads`` raise ``RecursionError``; it reached ``Table.run`` and the table was aborted
with every stake refunded — from a spectator with no cookie, a seated player, or before
``hello``. The lobby socket failed the same way. Now each sender gets ``bad_json`` and the table
plays on (in-process here; ``test_hostile_clients.py`` does the same and more against a real
``hkmj serve``'s native sockets on SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import cheap_argon2
from tests.server.people import cookies, csrf, register

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings

DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def as_user(client: TestClient, cookies: dict[str, str] | None) -> None:
    client.cookies.clear()
    for name, value in (cookies or {}).items():
        client.cookies.set(name, value)


def recv(ws: Any, seconds: float = 20.0) -> Any:
    """The next message, or a failure after ``seconds`` (before the fix, an aborted table
    never answered: the test client would wait forever)."""

    async def bounded() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(bounded)
    ws._raise_on_close(message)
    return json.loads(message["text"])


def errors_until_pong(ws: Any) -> list[dict[str, Any]]:
    """Read until ``pong`` (the frames before it were handled); the errors met on the way."""
    out = []
    for _ in range(200):
        msg = recv(ws)
        if msg["t"] == "pong":
            return out
        if msg["t"] == "error":
            out.append(msg)
    raise AssertionError("no pong")


def deep_from_everyone(client: TestClient, table_id: str, seat: dict[str, str]) -> None:
    """The deep frame from the seated player (before and after hello), a spectator with a
    session and a stranger without a cookie (before and after hello)."""
    register(client, "onlooker")
    other = cookies(client)
    for who in (seat, other, None):
        as_user(client, who)
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            ws.send_text(DEEP)
            assert recv(ws)["code"] in ("bad_json", "hello_first")
            ws.send_json({"t": "hello", "proto": 1})
            seen = [recv(ws)]
            while seen[-1]["t"] not in ("snapshot", "synced"):
                seen.append(recv(ws))
            ws.send_text(DEEP)
            ws.send_json({"t": "ping"})
            codes = [e["code"] for e in errors_until_pong(ws)]
            assert codes == ["bad_json"]


def test_a_deep_frame_leaves_a_staked_waiting_table_waiting(app_client: TestClient) -> None:
    register(app_client, "ann")
    ann = cookies(app_client)
    r = app_client.post(
        "/api/tables",
        json={"kind": "online", "level": 1},
        headers={"X-CSRF-Token": csrf(app_client)},
    )
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    deep_from_everyone(app_client, table_id, ann)
    info = app_client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "waiting"
    table = app_client.app.state.lobby.get(table_id)  # type: ignore[attr-defined]
    assert table.open and table.status == "waiting"
    as_user(app_client, ann)
    r = app_client.post(
        f"/api/tables/{table_id}/bots",
        json={"level": "easy"},
        headers={"X-CSRF-Token": csrf(app_client)},
    )
    assert r.status_code == 200 and r.json()["filled"] == [1, 2, 3]
    assert app_client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_a_deep_frame_leaves_a_practice_table_playing(app_client: TestClient) -> None:
    app_client.cookies.clear()
    r = app_client.post("/guest", data={"csrf": csrf(app_client)}, follow_redirects=False)
    assert r.status_code == 303
    me = dict(app_client.cookies.items())
    r = app_client.post(
        "/api/tables",
        json={"kind": "practice", "bots": ["easy", "easy", "easy"]},
        headers={"X-CSRF-Token": csrf(app_client)},
    )
    table_id = r.json()["id"]
    deep_from_everyone(app_client, table_id, me)
    table = app_client.app.state.lobby.get(table_id)  # type: ignore[attr-defined]
    assert table.open and table.status in ("playing", "paused")


def test_the_lobby_socket_answers_a_deep_frame_and_stays_open(app_client: TestClient) -> None:
    with app_client.websocket_connect("/ws/lobby") as ws:
        assert recv(ws)["t"] == "lobby"
        for frame in (DEEP, '{"t":"ping","t":"ping"}', '{"t":"hello","proto":NaN}', "{"):
            ws.send_text(frame)
            assert recv(ws)["code"] == "bad_json"
        ws.send_bytes(b"\xff\xfe")
        assert recv(ws)["code"] == "bad_json"
        ws.send_json({"t": "act", "action": "pung", "v": 1})
        assert recv(ws)["code"] == "bad_message"
        ws.send_json({"t": "ping"})
        assert recv(ws) == {"t": "pong"}


def test_a_failure_serving_one_lobby_client_closes_only_that_socket(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.websockets import WebSocketDisconnect

    from hkmahjong.server import ws as ws_module

    with app_client.websocket_connect("/ws/lobby") as calm:
        assert calm.receive_json()["t"] == "lobby"
        with app_client.websocket_connect("/ws/lobby") as doomed:
            assert doomed.receive_json()["t"] == "lobby"

            def broken(data: str | bytes) -> str:
                raise RuntimeError("a defect")

            monkeypatch.setattr(ws_module, "lobby_reply", broken)
            doomed.send_json({"t": "ping"})
            with pytest.raises(WebSocketDisconnect) as info:
                doomed.receive_json()
            assert info.value.code == 1011
        monkeypatch.undo()
        calm.send_json({"t": "ping"})
        assert calm.receive_json() == {"t": "pong"}
