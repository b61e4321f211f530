"""Tables over real websockets on a real ``hkmj serve`` process (docs/protocol.md).

Scripted clients play hands to the end (two and four people at one online table, with claims);
the server is killed with SIGKILL mid-hand and restarted: no action is lost, no jade is paid
twice, the hand continues, and the exported record passes ``hkmj replay --verify``.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from bench.serving import start_serve

from hkmahjong.parlor import stakes

FAST_CLOCKS = json.dumps(
    {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 200, "turn_ms": 20000, "claim_ms": 20000}
)
GRANT = 10_000

pytestmark = pytest.mark.slow


def start_server(data_dir: Path) -> tuple[subprocess.Popen[str], str]:
    """``hkmj serve`` with fast table clocks; the process and its URL, answering (the address read
    with a timeout, :mod:`bench.serving`; the first request waits in the listening socket's
    backlog until the app has started)."""
    env = {"HKMJ_SECRET": "table-test-secret-0123456789", "HKMJ_TABLE_CLOCKS": FAST_CLOCKS}
    served = start_serve(data_dir, env=env)
    httpx.get(served.url + "/healthz", timeout=60).raise_for_status()
    return served.proc, served.url


class Player:
    """A registered user with an HTTP client (cookies) and, once seated, a table socket."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.http = httpx.AsyncClient(base_url=url, timeout=30)
        self.ws: Any = None
        self.epoch: str | None = None
        self.v = 0
        self.prompt: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []
        self.claims = 0
        self.acted = 0

    async def csrf(self) -> str:
        return str((await self.http.get("/api/me")).json()["csrf"])

    async def register(self) -> None:
        token = await self.csrf()
        r = await self.http.post(
            "/register", data={"name": self.name, "password": "long password", "csrf": token}
        )
        assert r.status_code in (200, 303), r.text

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.http.post(path, json=body, headers={"X-CSRF-Token": await self.csrf()})
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def jade(self) -> int:
        return int((await self.http.get("/api/me")).json()["jade"])

    async def connect(self, table: str) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/table/{table}"
        self.ws = await websockets.connect(ws_url, additional_headers={"Cookie": cookie})
        hello: dict[str, Any] = {"t": "hello", "proto": 1}
        if self.epoch is not None:
            hello.update(epoch=self.epoch, since=self.v)
        await self.ws.send(json.dumps(hello))

    def choose(self, prompt: dict[str, Any]) -> str:
        """Claim-happy: win, else kong/pung/chow, else pass / discard the drawn (last) tile."""
        by_kind: dict[str, str] = {}
        for item in prompt["legal"]:
            by_kind.setdefault(item["kind"], item["action"])
        for kind in ("win", "self_draw", "kong", "pung", "chow"):
            if kind in by_kind:
                if kind in ("kong", "pung", "chow"):
                    self.claims += 1
                return by_kind[kind]
        if "pass" in by_kind:
            return by_kind["pass"]
        discards = [i["action"] for i in prompt["legal"] if i["kind"] == "discard"]
        return str(discards[-1])

    async def play(self, until: str = "match_end", max_actions: int | None = None) -> None:
        """Answer prompts until a message of type ``until`` (or ``max_actions`` acts)."""
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            self.messages.append(msg)
            t = msg["t"]
            if t == "snapshot":
                self.epoch, self.v, self.prompt = msg["epoch"], msg["v"], msg["prompt"]
            elif t == "synced":
                self.v, self.prompt = msg["v"], msg["prompt"]
            elif "v" in msg and t not in ("error",):
                assert msg["v"] == self.v + 1, (self.name, msg, self.v)
                self.v = msg["v"]
                if t == "prompt":
                    self.prompt = msg
                elif t == "done" and self.prompt and msg["prompt"] == self.prompt["v"]:
                    self.prompt = None
            assert t != "error", msg
            if t == until:
                return
            if t in ("hand_end",):
                await self.ws.send(json.dumps({"t": "ready"}))
            if self.prompt is not None and t in ("prompt", "snapshot", "synced"):
                if max_actions is not None and self.acted >= max_actions:
                    return
                action = self.choose(self.prompt)
                self.acted += 1
                await self.ws.send(
                    json.dumps({"t": "act", "action": action, "v": self.prompt["v"], "id": "a"})
                )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()


def verify_record(text: str, tmp_path: Path) -> str:
    path = tmp_path / "record.jsonl"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "hkmahjong.entry", "replay", "--verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "OK: 1 hands" in done.stdout, done.stdout
    return done.stdout


STAKE = 1024
"""A level-1 table under ml's rules: its table value (seed 002), the stake of every seat."""


async def _seated(url: str, names: list[str]) -> tuple[list[Player], str]:
    """An online one-hand table (單局: ml's rules, level 1) with ``names`` seated."""
    players = [Player(url, n) for n in names]
    for p in players:
        await p.register()
    body = {"kind": "online", "rules": {"preset": "ml"}, "level": 1, "length": "one-hand"}
    table = (await players[0].post("/api/tables", body))["id"]
    for p in players[1:]:
        await p.post(f"/api/tables/{table}/join", {})
    return players, table


def test_two_and_four_people_play_a_hand_with_claims(tmp_path: Path) -> None:
    proc, url = start_server(tmp_path / "data")

    async def main() -> None:
        claims = 0
        for names in (["ann", "bo"], ["cy", "di", "ed", "fay"]):
            players, table = await _seated(url, names)
            for p in players:
                await p.connect(table)
            if len(players) < 4:
                await players[0].post(f"/api/tables/{table}/bots", {"level": "easy"})
            await asyncio.gather(*(p.play() for p in players))
            claims += sum(p.claims for p in players)
            for p in players:
                assert [m["t"] for m in p.messages].count("hand_end") == 1
            r = await players[0].http.get(f"/api/tables/{table}/record")
            assert r.status_code == 200
            verify_record(r.text, tmp_path)
            jade = [await p.jade() for p in players]
            assert all(j >= GRANT - STAKE for j in jade)
            for p in players:
                await p.close()
        assert claims >= 1

    try:
        asyncio.run(main())
    finally:
        proc.kill()
        proc.wait()


def test_sigkill_mid_hand_and_restart_continue_the_hand(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, url = start_server(data)

    async def first_half() -> tuple[str, int, str | None, int]:
        players, table = await _seated(url, ["kim"])
        kim = players[0]
        await kim.connect(table)
        await kim.post(f"/api/tables/{table}/bots", {"level": "easy"})
        await kim.play(max_actions=4)
        # no pause before the kill: an action is committed before its "done" is sent
        acted = sum(1 for m in kim.messages if m["t"] == "done" and m["by"] == "you")
        cookies = dict(kim.http.cookies.items())
        await kim.ws.close()
        await kim.http.aclose()
        return table, acted, json.dumps(cookies), kim.v

    table, acted, cookies, _ = asyncio.run(first_half())
    assert acted >= 3
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc, url = start_server(data)

    async def second_half() -> None:
        kim = Player(url, "kim")
        for k, v in json.loads(cookies or "{}").items():
            kim.http.cookies.set(k, v)
        await kim.connect(table)
        await kim.play()
        kinds = [m["t"] for m in kim.messages]
        assert kinds[0] == "snapshot" and kinds.count("hand_end") == 1
        view = kim.messages[0]["view"]
        assert view is not None and sum(len(d) for d in view["discards"]) >= acted
        r = await kim.http.get(f"/api/tables/{table}/record")
        verify_record(r.text, tmp_path)
        record = [json.loads(line) for line in r.text.splitlines()]
        mine = [line for line in record if line["t"] == "act" and line["seat"] == "E"]
        assert len(mine) >= acted  # kim deals the only hand: every acknowledged action is kept
        totals = record[-1]["totals"]
        expected = GRANT - STAKE + stakes.staked_shares(STAKE, totals)[0]
        assert await kim.jade() == expected
        await kim.close()

    try:
        asyncio.run(second_half())
    finally:
        proc.kill()
        proc.wait()
