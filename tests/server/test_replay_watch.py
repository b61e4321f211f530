"""Replays, the record download and spectators through the app (issue 18, *Replays and records*,
*Spectating*): who may look (players, anyone at a public table, a private one by invite), the
record passing ``verify``, a spectator's socket (invite, limit, rate limit, the players' count)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import cheap_argon2
from tests.server.people import PASSWORD, csrf, register

from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, seed_from_text, verify
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.rules import get_preset
from hkmahjong.server import replays as replays_module
from hkmahjong.server import ws as ws_module
from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings, password_hash=cheap_argon2())
    replays_module._cache.clear()
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def stored_table(
    client: TestClient, users: list[int], *, private: bool = False, cut: int | None = None
) -> tuple[str, GameRecord]:
    """A match of random players stored as a table's log (finished, or cut inside a hand)."""
    seed = seed_from_text("server-replays")
    players = [RandomPlayer(f"sr/{i}", win_bias=0.5) for i in range(4)]
    record = run_match(Match(length=MatchLength.OPEN, max_hands=2), get_preset("parlor"),
                       players, match_seed=seed)  # fmt: skip
    lines = record.dumps().splitlines()
    if cut is not None:
        lines = lines[:cut]
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    public_id = f"rp{len(users)}{int(private)}{cut or 0}"
    row = TableRow(0, public_id, "online", "playing", {}, "", seed.hex(), private=private,
                   invite_token="the-invite" if private else None)  # fmt: skip
    seats = [SeatRow(p, users[p], f"u{p}", None, "connected") for p in range(4)]

    async def store() -> None:
        ident = await lobby.store.create(row, seats)
        await lobby.store.append(ident, 0, lines)
        if cut is None:
            await lobby.store.set_status(ident, "finished")

    asyncio.run(store())
    return public_id, record


def test_replay_api_and_record_by_who_looks(app_client: TestClient, tmp_path: Path) -> None:
    users = [register(app_client, f"player{i}") for i in range(4)]
    public, record = stored_table(app_client, users)
    app_client.cookies.clear()
    r = app_client.get(f"/api/replay/{public}/1", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    data = r.json()
    assert data["seat"] is None and data["over"] and data["you"] is None
    assert len(data["frames"]) == len(record.hands[1].actions) + 1
    seat = app_client.get(f"/api/replay/{public}/1?seat=W").json()
    assert seat["seat"] == "W" and all(f["view"]["seat"] == "W" for f in seat["frames"])
    assert app_client.get(f"/api/replay/{public}/9").status_code == 404
    assert app_client.get(f"/api/replay/{public}/0?seat=Q").status_code == 422
    assert app_client.get("/api/replay/nope/0").status_code == 404
    text = app_client.get(f"/api/tables/{public}/record?download=1")
    assert text.headers["content-disposition"] == f'attachment; filename="hkmj-{public}.jsonl"'
    path = tmp_path / "r.jsonl"
    path.write_text(text.text, encoding="utf-8")
    assert verify(GameRecord.load(path)).hands == 2
    # a player gets their own seat by default
    app_client.cookies.clear()
    r = app_client.post("/login", data={"name": "player2", "password": PASSWORD,
                                         "csrf": csrf(app_client)}, follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    mine = app_client.get(f"/api/replay/{public}/1").json()
    dealer = record.hands[1].dealer
    assert mine["you"] == 2 and mine["seat"] == "ESWN"[(2 - dealer) % 4]
    assert app_client.get(f"/api/replay/{public}/1?seat=open").json()["you"] == 2
    app_client.cookies.clear()  # the cache keeps each viewer's own answer
    assert app_client.get(f"/api/replay/{public}/1?seat=open").json()["you"] is None


def test_a_private_table_needs_its_invite(app_client: TestClient) -> None:
    users = [register(app_client, f"priv{i}") for i in range(4)]
    table, _ = stored_table(app_client, users, private=True)
    app_client.get("/api/me")  # still player priv3
    assert app_client.get(f"/api/replay/{table}/0").status_code == 200
    register(app_client, "stranger")
    for path in (f"/api/replay/{table}/0", f"/api/tables/{table}/record"):
        assert app_client.get(path).status_code == 403
        assert app_client.get(path + "?invite=wrong").status_code == 403
        assert app_client.get(path + "?invite=the-invite").status_code == 200
    page = app_client.get(f"/replay/{table}?lang=en")
    assert page.status_code == 403
    assert app_client.get(f"/replay/{table}?invite=the-invite").status_code == 200


def test_a_hand_being_played_is_its_players_own(app_client: TestClient) -> None:
    users = [register(app_client, f"live{i}") for i in range(4)]
    _, record = stored_table(app_client, users)
    lines = record.dumps().splitlines()
    start = next(i for i, line in enumerate(lines) if '"t":"hand","hand":1' in line)
    table, _ = stored_table(app_client, users, cut=start + 30)
    # the client is logged in as live3
    dealer = record.hands[1].dealer
    mine = app_client.get(f"/api/replay/{table}/1")
    assert mine.status_code == 200, mine.text
    body = mine.json()
    assert body["seat"] == "ESWN"[(3 - dealer) % 4] and not body["over"]
    assert body["seed"] is None and body["deal"] is None
    assert app_client.get(f"/api/replay/{table}/1?seat=open").status_code == 403
    app_client.cookies.clear()
    assert app_client.get(f"/api/replay/{table}/1").status_code == 403
    assert app_client.get(f"/api/replay/{table}/0").status_code == 200
    record_text = app_client.get(f"/api/tables/{table}/record").text
    assert record_text.splitlines() == lines[:start]


def _practice(client: TestClient) -> str:
    client.cookies.clear()
    token = csrf(client)
    r = client.post("/guest", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 303
    r = client.post(
        "/api/tables",
        json={
            "kind": "practice",
            "rules": {"preset": "ml"},
            "length": "one-hand",
            "bots": ["easy", "easy", "easy"],
        },
        headers={"X-CSRF-Token": csrf(client)},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _next(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        msg = ws.receive_json()
        if msg["t"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind}")


def test_spectators_socket_invite_limit_and_count(settings: Settings) -> None:
    """A private table is watched by invite only; a full gallery closes the socket (4429); the
    seated player is told how many watch; a spectator's flood is refused and then closed."""
    app = create_app(
        Settings(data_dir=settings.data_dir, secret=settings.secret, max_spectators=1),
        password_hash=cheap_argon2(),
    )
    with TestClient(app, base_url="http://testserver") as client:
        owner = register(client, "owner")
        r = client.post(
            "/api/tables",
            json={"kind": "online", "level": 0, "private": True},
            headers={"X-CSRF-Token": csrf(client)},
        )
        assert r.status_code == 200, r.text
        table, invite = r.json()["id"], r.json()["invite"]
        owner_cookies = dict(client.cookies.items())
        client.cookies.clear()
        with (
            client.websocket_connect(f"/ws/table/{table}") as ws,
            pytest.raises(WebSocketDisconnect) as info,
        ):
            ws.receive_text()
        assert info.value.code == 4403
        client.cookies.update(owner_cookies)
        with client.websocket_connect(f"/ws/table/{table}") as seat:
            seat.send_json({"t": "hello", "proto": 1})
            assert seat.receive_json()["table"]["you"] == 0
            client.cookies.clear()
            with client.websocket_connect(f"/ws/table/{table}?invite={invite}") as ws:
                ws.send_json({"t": "hello", "proto": 1})
                snap = ws.receive_json()
                assert snap["t"] == "snapshot" and snap["table"]["you"] is None
                assert snap["view"] is None and snap["table"]["watchers"] == 1
                assert _next(seat, "watchers")["count"] == 1
                with (
                    client.websocket_connect(f"/ws/table/{table}?invite={invite}") as full,
                    pytest.raises(WebSocketDisconnect) as info,
                ):
                    full.receive_text()
                assert info.value.code == 4429
            assert _next(seat, "watchers")["count"] == 0
        assert owner > 0


def test_a_spectators_flood_is_refused_then_closed(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ws_module, "RATE_PER_SECOND", 2.0)
    monkeypatch.setattr(ws_module, "RATE_BURST", 5.0)
    table = _practice(app_client)
    app_client.cookies.clear()
    with app_client.websocket_connect(f"/ws/table/{table}") as ws:
        ws.send_json({"t": "hello", "proto": 1})
        assert ws.receive_json()["t"] == "snapshot"
        for _ in range(60):
            ws.send_json({"t": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(1000):
                msg = ws.receive_json()
                codes.append(msg.get("code", msg["t"]))
        assert codes.count("rate_limited") >= 5
        assert info.value.code == 1008


def test_the_replay_page_renders(app_client: TestClient) -> None:
    users = [register(app_client, f"page{i}") for i in range(4)]
    table, _ = stored_table(app_client, users)
    html = app_client.get(f"/replay/{table}?lang=en").text
    assert 'id="replay-app"' in html and "/static/js/replay.js" in html
    assert app_client.get("/replay/nope?lang=en").status_code == 404
    plain = app_client.get(f"/api/replay/{table}/0", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and json.loads(plain.content)["hand"] == 0
