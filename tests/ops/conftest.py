"""Running the parlor as a service (docs/operations.md): real ``hkmj serve`` processes, a scripted
person playing a practice hand over the table socket, and reading what the server logged."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

FAST_CLOCKS = json.dumps(
    {"discard_delay_ms": 0, "bot_ms": 0, "next_hand_ms": 200, "turn_ms": 20000, "claim_ms": 20000}
)
SECRET = "ops-test-secret-0123456789abcdef"


@dataclass
class Served:
    """A running ``hkmj serve``: its process, URL, the lines it printed and its stderr file."""

    proc: subprocess.Popen[str]
    url: str
    printed: list[str]
    stderr: Path

    def line(self, start: str) -> str | None:
        return next((x for x in self.printed if x.startswith(start)), None)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return int(self.proc.returncode)


def start_server(
    data_dir: Path,
    *extra: str,
    env: dict[str, str] | None = None,
    log: Path | None = None,
    hkmj: Sequence[str] = (sys.executable, "-m", "hkmahjong.entry"),
    cwd: Path | None = None,
) -> Served:
    """``hkmj serve --port 0`` on ``data_dir`` with fast table clocks; waits for ``/healthz``
    (``hkmj``: the command, e.g. another installation's)."""
    full = {
        **os.environ,
        "HKMJ_SECRET": SECRET,
        "HKMJ_TABLE_CLOCKS": FAST_CLOCKS,
        "HKMJ_SEARCH_WORKERS": "0",
        **(env or {}),
    }
    log = log or data_dir.with_name(data_dir.name + "-stderr.log")
    log.parent.mkdir(parents=True, exist_ok=True)
    err = log.open("a", encoding="utf-8")
    args = [*hkmj, "serve", "--port", "0"]
    proc = subprocess.Popen(
        [*args, "--data-dir", str(data_dir), *extra],
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
        env=full,
        cwd=cwd,
    )
    err.close()
    assert proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()

    def drain(out: Any) -> None:  # a server that hangs before printing fails, never blocks
        for line in out:
            lines.put(line)

    threading.Thread(target=drain, args=(proc.stdout,), daemon=True).start()
    printed: list[str] = []
    deadline = time.monotonic() + 120
    url = None
    last = "metrics:" if "--metrics-port" in extra else "cluster node" if "--redis" in extra else ""
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        printed.append(line.strip())
        if "open http" in line:
            url = line.split("open ", 1)[1].split()[0].rstrip("/")
        if url is not None and line.startswith(last):
            break
    if url is None:
        proc.kill()
        proc.wait()
        raise AssertionError(f"no address printed: {printed} {log.read_text()[-2000:]}")
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    return Served(proc, url, printed, log)


def guest_table(url: str, length: str = "one-hand") -> tuple[httpx.Client, str, str]:
    """A new guest (its HTTP client), its session cookie header and a practice table of theirs
    (ml's rules, three easy bots)."""
    http = httpx.Client(base_url=url, timeout=60)
    token = http.get("/api/me").json()["csrf"]
    r = http.post("/guest", data={"csrf": token})
    assert r.status_code in (200, 303), r.text
    token = http.get("/api/me").json()["csrf"]
    body = {"kind": "practice", "rules": {"preset": "ml"}, "length": length, "bots": ["easy"] * 3}
    r = http.post("/api/tables", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    return http, cookie, str(r.json()["id"])


def register(url: str, name: str) -> httpx.Client:
    """A registered user's HTTP client (the starting grant is posted)."""
    http = httpx.Client(base_url=url, timeout=60)
    token = http.get("/api/me").json()["csrf"]
    r = http.post("/register", data={"name": name, "password": "long password", "csrf": token})
    assert r.status_code in (200, 303), r.text
    return http


@dataclass
class Seat:
    """One person's table socket, answering prompts: win when it can, else pass, else discard
    the drawn tile."""

    ws: ClientConnection
    messages: list[dict[str, Any]] = field(default_factory=list)
    prompt: dict[str, Any] | None = None
    acted: int = 0

    def play(
        self,
        until: str = "hand_end",
        max_actions: int | None = None,
        on_act: Callable[[int], None] | None = None,
    ) -> dict[str, Any]:
        """Answer prompts until a message of type ``until`` (returned) or ``max_actions``."""
        for _ in range(5000):
            msg = json.loads(self.ws.recv(timeout=60))
            self.messages.append(msg)
            t = msg["t"]
            assert t != "error", msg
            if t in ("snapshot", "synced"):
                self.prompt = msg.get("prompt")
            elif t == "prompt":
                self.prompt = msg
            elif t == "done" and self.prompt and msg.get("prompt") == self.prompt.get("v"):
                self.prompt = None
            if t == until:
                return msg
            if self.prompt is not None and t in ("prompt", "snapshot", "synced"):
                if max_actions is not None and self.acted >= max_actions:
                    return msg
                legal = {i["kind"]: i["action"] for i in reversed(self.prompt["legal"])}
                discards = [i["action"] for i in self.prompt["legal"] if i["kind"] == "discard"]
                action = legal.get("win") or legal.get("self_draw") or legal.get("pass")
                action = action or discards[-1]
                time.sleep(0.06)  # a quick person, under the table socket's rate limit
                self.ws.send(json.dumps({"t": "act", "action": action, "v": self.prompt["v"]}))
                self.acted += 1
                if on_act is not None:
                    on_act(self.acted)
        raise AssertionError(f"no {until}: {self.messages[-5:]}")


@pytest.fixture
def seat_at() -> Iterator[Callable[[str, str, str], Seat]]:
    """Open a table socket (``url``, table id, cookie header) and say hello."""
    opened: list[ClientConnection] = []

    def open_seat(url: str, table: str, cookie: str) -> Seat:
        ws = connect(  # closed by the fixture
            "ws" + url.removeprefix("http") + f"/ws/table/{table}",
            additional_headers={"Cookie": cookie},
        )
        opened.append(ws)
        ws.send(json.dumps({"t": "hello", "proto": 1}))
        return Seat(ws)

    yield open_seat
    for ws in opened:
        ws.close()


def scrape(url: str, headers: dict[str, str] | None = None) -> dict[str, float]:
    """The metrics' samples by ``name{labels}`` (labels as printed)."""
    r = httpx.get(url, headers=headers or {}, timeout=30)
    assert r.status_code == 200, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("text/plain"), r.headers
    out = {}
    for line in r.text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


PG_ADMIN_URL = os.environ.get(
    "HKMJ_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


@contextlib.contextmanager
def pg_databases(count: int) -> Iterator[list[str]]:
    """``count`` new PostgreSQL databases on the local server (URLs without the driver), dropped
    at the end."""
    names = [f"hkmj_ops_{os.getpid()}_{secrets.token_hex(3)}_{i}" for i in range(count)]
    engine = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            for name in names:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
        base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("+psycopg", "")
        yield [f"{base}/{name}" for name in names]
    finally:
        with engine.connect() as conn:
            for name in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


def mid_hand(
    open_table: Callable[[], tuple[str, str]],
    open_seat: Callable[[str, str], Seat],
    actions: int,
    tries: int = 8,
) -> tuple[str, str, Seat, int]:
    """A table still in its first hand after its seat has made ``actions`` actions, for a test
    that stops the server mid-hand: its id, cookie header and seat, and how many tables before it
    ended their hand sooner. A hand may end within a few of one seat's actions (a bot's win, or
    the seat's own: it wins when it can), and a one-hand match then ends with it, leaving no
    table to resume; about one table in fifty does, so another is opened (``open_table``: a new
    table's id and cookie; ``open_seat``: its socket, said hello)."""
    for early in range(tries):
        table, cookie = open_table()
        seat = open_seat(table, cookie)
        last = seat.play(max_actions=actions)
        if last["t"] != "hand_end" and seat.acted >= actions:
            return table, cookie, seat, early
        seat.ws.close()
    raise AssertionError(f"{tries} tables in a row ended their hand within {actions} actions")
