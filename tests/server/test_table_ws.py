"""The table websocket in-process: Origin check, seats, rate limit, the lobby socket, and a fuzzer
of random and mutated frames (zero server errors, zero state changes from invalid input)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import cheap_argon2
from tests.server.people import cookies, csrf, guest, register

from hkmahjong.server import ws as ws_module
from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings


@pytest.fixture
def app_client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def practice(client: TestClient) -> str:
    token = csrf(client)
    r = client.post(
        "/api/tables",
        json={
            "kind": "practice",
            "rules": {
                "preset": "ml"
            },  # 單局 is ml's (seed 003's practice: 四圈, 八局, 十六局, 破產)
            "length": "one-hand",
            "bots": ["easy", "easy", "easy"],
        },
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def read_until(ws: Any, kind: str, limit: int = 500) -> list[dict[str, Any]]:
    out = []
    for _ in range(limit):
        msg = ws.receive_json()
        out.append(msg)
        if msg["t"] == kind:
            return out
    raise AssertionError(f"no {kind} in {out[-5:]}")


def test_origin_seat_and_session_are_checked(app_client: TestClient) -> None:
    guest(app_client)
    table = practice(app_client)
    with (
        app_client.websocket_connect(
            f"/ws/table/{table}", headers={"Origin": "http://evil.example"}
        ) as ws,
        pytest.raises(WebSocketDisconnect) as info,
    ):
        ws.receive_text()
    assert info.value.code == 4403
    with (
        app_client.websocket_connect("/ws/table/nope") as ws,
        pytest.raises(WebSocketDisconnect) as info,
    ):
        ws.receive_text()
    assert info.value.code == 4404
    guest(app_client)  # another guest, not seated at that table: a spectator
    with app_client.websocket_connect(f"/ws/table/{table}") as ws:
        ws.send_json({"t": "hello", "proto": 1})
        snap = ws.receive_json()
        assert snap["t"] == "snapshot" and snap["table"]["you"] is None
    app_client.cookies.clear()  # no session at all: a spectator of a table that is not private
    with app_client.websocket_connect(f"/ws/table/{table}") as ws:
        ws.send_json({"t": "hello", "proto": 1})
        assert ws.receive_json()["table"]["you"] is None


def test_rate_limit_refuses_then_closes(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the rate: rate_limited errors; far over it (refused messages pile past 4 s of the
    rate): 1008 — however slowly a loaded server reads the flood."""
    monkeypatch.setattr(ws_module, "RATE_PER_SECOND", 2.0)
    monkeypatch.setattr(ws_module, "RATE_BURST", 5.0)
    guest(app_client)
    table = practice(app_client)
    with app_client.websocket_connect(
        f"/ws/table/{table}", headers={"Origin": "http://testserver"}
    ) as ws:
        ws.send_json({"t": "hello", "proto": 1})
        assert ws.receive_json()["t"] == "snapshot"
        for _ in range(60):
            ws.send_json({"t": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(1000):  # the practice game's own events come in between
                msg = ws.receive_json()
                codes.append(msg.get("code", msg["t"]))
        assert codes.count("rate_limited") >= 5
        assert info.value.code == 1008


def test_token_bucket_closes_a_flood_read_slowly_and_forgives_a_client_that_slows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr(ws_module.time, "monotonic", lambda: now[0])
    bucket = ws_module.TokenBucket(rate=2.0, burst=5.0)
    results = []
    for _ in range(40):  # a flood, read by a busy server at 10 messages a second (5x the rate)
        now[0] += 0.1
        results.append(bucket.take())
        if bucket.abusive:
            break
    assert bucket.abusive and results.count(False) > 8
    calm = ws_module.TokenBucket(rate=2.0, burst=5.0)
    for _ in range(12):  # over the rate for a moment ...
        calm.take()
    for _ in range(60):  # ... then at the rate: forgiven
        now[0] += 0.5
        assert calm.take() or not calm.abusive
    assert not calm.abusive and calm.refused == 0


def test_lobby_socket_lists_open_tables(app_client: TestClient) -> None:
    with app_client.websocket_connect("/ws/lobby") as ws:
        first = ws.receive_json()
        assert first["t"] == "lobby" and first["tables"] == []
        ws.send_json({"t": "ping"})
        assert ws.receive_json() == {"t": "pong"}
        ws.send_text("{")
        assert ws.receive_json()["code"] == "bad_json"


def _mutations(rng: random.Random, prompt_v: int) -> Iterator[str]:
    valid: list[dict[str, Any]] = [
        {"t": "act", "action": "discard 1m", "v": prompt_v, "id": "x"},
        {"t": "act", "action": "pass", "v": prompt_v},
        {"t": "hello", "proto": 1},
        {"t": "sit_back"},
        {"t": "ready"},
        {"t": "ping"},
        {"t": "hint"},
    ]
    junk: list[Any] = [None, True, -1, 2**60, 1.5, "", "x" * 70, [], {}, {"a": 1}, "碰" * 30]
    for _ in range(400):
        kind = rng.random()
        if kind < 0.15:
            yield "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 40)))
        elif kind < 0.2:
            yield json.dumps(rng.choice(junk))
        else:
            msg = dict(rng.choice(valid))
            op = rng.randrange(5)
            keys = list(msg)
            if op == 0 and len(keys) > 1:
                del msg[rng.choice(keys[1:])]
            elif op == 1:
                msg[rng.choice(keys)] = rng.choice(junk)
            elif op == 2:
                msg[rng.choice(["extra", "V", "t2", "id"])] = rng.choice(junk)
            elif op == 3 and "v" in msg:
                msg["v"] = prompt_v + rng.choice([-2, -1, 1, 5])
            elif op == 4 and "action" in msg:
                msg["action"] = rng.choice(
                    ["pung", "kong", "win", "chow 123m", "discard 9z", "discard", "self_draw", "🀄"]
                )
            text = json.dumps(msg)
            if rng.random() < 0.1:
                text = text[: rng.randrange(len(text))]
            yield text


def test_fuzzed_frames_change_nothing_and_never_break_the_server(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ws_module, "RATE_PER_SECOND", 10_000.0)
    monkeypatch.setattr(ws_module, "RATE_BURST", 10_000.0)
    guest(app_client)
    table_id = practice(app_client)
    table = app_client.app.state.lobby.get(table_id)  # type: ignore[attr-defined]
    with app_client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.send_json({"t": "hello", "proto": 1})
        snapshot = ws.receive_json()
        prompt = snapshot["prompt"]
        if prompt is None:
            prompt = next(m for m in read_until(ws, "prompt") if m["t"] == "prompt")
        legal = {item["action"] for item in prompt["legal"]}
        seq = table.seq
        replies = 0
        for frame in _mutations(random.Random(14), prompt["v"]):
            try:
                parsed = json.loads(frame)
            except ValueError:
                parsed = None
            if (
                isinstance(parsed, dict)
                and parsed.get("t") == "act"
                and parsed.get("v") == prompt["v"]
                and parsed.get("action") in legal
                and set(parsed) <= {"t", "action", "v", "id"}
                and (parsed.get("id") is None or isinstance(parsed.get("id"), str))
            ):
                continue  # a valid decision: not invalid input
            ws.send_text(frame)
            ws.send_json({"t": "ping"})
            for msg in read_until(ws, "pong"):
                if msg["t"] == "pong":
                    break
                replies += 1
                assert msg["t"] in ("error", "hint", "synced", "snapshot"), (frame, msg)
                if msg["t"] == "error":
                    assert msg["code"] != "internal", (frame, msg)
            assert table.seq == seq, frame
        assert replies > 300
        ws.send_json({"t": "act", "action": sorted(legal)[0], "v": prompt["v"]})
        got = read_until(ws, "done")
        assert got[-1]["by"] == "you"


def test_an_online_table_with_an_entry_fee_shows_it_in_the_lobby(app_client: TestClient) -> None:
    """Seed 002: a match has an entry fee (手續費) besides the stake; the lobby and the table's
    facts show both and what a seat pays to sit (the buy-in)."""
    register(app_client, "Fee Payer")
    token = csrf(app_client)
    body = {"kind": "online", "level": 1, "fee": 25, "length": "online"}
    r = app_client.post("/api/tables", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    public_id = r.json()["id"]
    (listed,) = app_client.get("/api/lobby").json()
    assert (listed["id"], listed["stake"], listed["fee"], listed["buy_in"]) == (
        public_id,
        192,  # the parlor's table value × level 1 (seed 002 牌桌價值)
        25,
        217,
    )
    assert app_client.get(f"/api/tables/{public_id}").json()["fee"] == 25
    too_much = {**body, "fee": 10**6}
    r = app_client.post("/api/tables", json=too_much, headers={"X-CSRF-Token": token})
    assert r.status_code == 402 and r.json()["detail"]["code"] == "balance"
    r = app_client.post("/api/tables", json={**body, "fee": -1}, headers={"X-CSRF-Token": token})
    assert r.status_code == 422


DEEP = "[" * 1000 + "]" * 1000
"""A frame of 1,000 nested arrays (2 KB, under the 4 KB limit): before the door parsed frames,
``json.loads`` raised ``RecursionError`` inside the table's actor and the table was aborted
(issue 29, defect 1)."""


def test_nothing_a_client_sends_ends_a_table(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29 ("a table ends only by its own rules or an operator"): at a staked online table,
    frames that aborted tables before — from a seat, from a seat before its hello, from a
    spectator with no cookie — and a failure injected into the table's handling of a seat's and
    a spectator's message are answered with an error to their sender only; the table still
    plays, and no jade moved."""
    from hkmahjong.parlor.clocks import ClockSettings
    from hkmahjong.parlor.gallery import Gallery
    from hkmahjong.parlor.table import Table

    app = app_client.app
    lobby = app.state.lobby  # type: ignore[attr-defined]
    lobby.online_clocks = ClockSettings(discard_delay_ms=50, bot_ms=20, next_hand_ms=500)
    ledger = app.state.auth.ledger  # type: ignore[attr-defined]
    register(app_client, "Ann Door")
    ann = cookies(app_client)
    token = csrf(app_client)
    r = app_client.post(
        "/api/tables",
        json={"kind": "online", "level": 1, "length": "online"},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text
    public_id = r.json()["id"]
    register(app_client, "Bo Door")
    bo = cookies(app_client)
    token = csrf(app_client)
    assert app_client.post(f"/api/tables/{public_id}/join", json={},
                           headers={"X-CSRF-Token": token}).status_code == 200  # fmt: skip
    app_client.cookies.update(ann)
    token = csrf(app_client)
    r = app_client.post(f"/api/tables/{public_id}/bots", json={"level": "easy"},
                        headers={"X-CSRF-Token": token})  # fmt: skip
    assert r.status_code == 200, r.text
    table = lobby.get(public_id)
    assert table.status == "playing"
    accounts = ["user:1", "user:2", *(f"escrow:table:{table.id}:p{p}" for p in range(4))]
    jade = ledger.balances_sync(accounts)

    failing: set[str] = {"seat", "spectator"}
    on_message = Table._on_message
    gallery_receive = Gallery.receive

    async def broken_on_message(self: Table, seat: Any, conn: Any, msg: Any) -> None:
        if type(msg).__name__ == "Ping" and "seat" in failing:
            failing.discard("seat")
            raise RuntimeError("injected failure in a seat's handler")
        await on_message(self, seat, conn, msg)

    def broken_receive(self: Gallery, conn: Any, msg: Any) -> None:
        if type(msg).__name__ == "Ping" and "spectator" in failing:
            failing.discard("spectator")
            raise RuntimeError("injected failure in a spectator's handler")
        gallery_receive(self, conn, msg)

    monkeypatch.setattr(Table, "_on_message", broken_on_message)
    monkeypatch.setattr(Gallery, "receive", broken_receive)

    def codes_until_pong(ws: Any) -> list[str]:
        got = []
        for msg in read_until(ws, "pong"):
            if msg["t"] == "error":
                got.append(msg["code"])
        return got

    app_client.cookies.clear()
    app_client.cookies.update(bo)
    with app_client.websocket_connect(f"/ws/table/{public_id}") as seat_ws:
        seat_ws.send_text(DEEP)  # before hello
        assert seat_ws.receive_json()["code"] in ("bad_json", "bad_message")
        seat_ws.send_json({"t": "hello", "proto": 1})
        assert seat_ws.receive_json()["t"] == "snapshot"
        for frame in (DEEP, "[" * 3000, '{"t":' * 500, "1e999999", "\ud800"):
            seat_ws.send_text(frame)
        seat_ws.send_json({"t": "ping"})  # the injected failure: internal, then a recovery
        seat_ws.send_json({"t": "ping"})
        codes = codes_until_pong(seat_ws)
        assert "internal" in codes and set(codes) <= {"bad_json", "bad_message", "internal"}
        app_client.cookies.clear()
        with app_client.websocket_connect(f"/ws/table/{public_id}") as watcher:
            watcher.send_text(DEEP)
            assert watcher.receive_json()["code"] in ("bad_json", "bad_message")
            watcher.send_json({"t": "hello", "proto": 1})
            assert watcher.receive_json()["t"] == "snapshot"
            watcher.send_text(DEEP)
            watcher.send_json({"t": "ping"})
            watcher.send_json({"t": "ping"})
            assert "internal" in codes_until_pong(watcher)
        assert not failing
        assert table.status == "playing" and lobby.get(public_id) is table
        assert ledger.balances_sync(accounts) == jade
        seq = table.seq
        for _ in range(400):  # the table still plays: Bo answers, the match moves on
            msg = seat_ws.receive_json()
            prompt = msg if msg["t"] == "prompt" else msg.get("prompt")
            if msg["t"] in ("prompt", "snapshot", "synced") and prompt is not None:
                legal = [item["action"] for item in prompt["legal"]]
                action = "pass" if "pass" in legal else legal[-1]
                seat_ws.send_json({"t": "act", "action": action, "v": prompt["v"]})
            if table.seq > seq + 8:
                break
        assert table.seq > seq + 8 and table.status == "playing"
