"""Parlor server benchmark: how many tables of four people one ``hkmj serve`` process carries.

    .venv/bin/python bench/bench_server.py                      # the curve, then flat-out (≤ ~10 min)
    .venv/bin/python bench/bench_server.py --steps 50,100 --seconds 10 --flat-seconds 10
    .venv/bin/python bench/bench_server.py --db postgresql://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/bench_server.py --db postgresql://postgres@127.0.0.1:5432/postgres \
        --procs 2 --redis redis://127.0.0.1:6379/0              # two processes (docs/deploy.md)

Everything runs on loopback (127.0.0.1) and is bounded: ``--max-tables``, ``--seconds`` per step and
``--budget`` seconds for the whole run.

**The curve** (human pace). One server process (``hkmj serve`` on a fresh data directory, SQLite by
default; ``--db`` names a PostgreSQL server on which the bench creates and then drops its own
database). Its users are seeded directly into the store *before* the server starts (a registered
account with an argon2 password hash, a session and the starting grant of jade each: exactly the
rows ``/register`` writes); the tables are then created and joined through the public API
(``POST /api/tables``, ``POST /api/tables/{id}/join``, cookie session + ``X-CSRF-Token``): online
tables, ml rules (its 四圈), level 1 (stake 1024), production clocks. Four scripted websocket clients
per table (all in this one client process, asyncio) answer each prompt after a human-like pause
(``--think``, uniform between ½ and 1½ times it), so a table makes about one action a second.

For N = 50, 100, 200, … tables it measures, over ``--seconds`` after a ``--warmup``:

- **action → broadcast latency**: from the client's ``act`` frame being sent to each of the four
  clients receiving the event that action caused (the discard, claim, kong or win event of the
  acting seat; after a final ``pass``, the next event). Only actions whose result comes at once
  are measured: an act is measured when no other client of its table holds an open prompt (a
  ``pass`` while another seat still decides causes nothing until that seat decides). The table's
  deliberate 0.6 s pause after a discard comes *after* the discard event, so it is never inside
  a measured interval; the claim prompts it delays are answered by the clients, not measured.
- actions/s (every ``act`` the clients sent and the server accepted), server CPU % (from
  ``/proc``), server RSS and (RSS − RSS before any table) / N, the client process's CPU % and its
  event-loop lag (when the client process itself is saturated, the latencies are upper bounds).

It stops at the first N whose p99 is ≥ 100 ms (``--keep-going``: it measures every step), and
prints the largest N under it.

**Several processes** (``--procs N``, N ≥ 2; needs a PostgreSQL ``--db``): N ``hkmj serve``
processes on the one database and ``--redis`` (a key prefix of the run's own, deleted at the end),
as docs/deploy.md runs them. Table k is made through process k mod N, which owns it (its lease);
its four sockets go to that process (``--placement owner``: nothing relayed, what N processes carry
by themselves) or each to a process at random (``--placement random``: seats at another process
are relayed over Redis, as behind a balancer that does not know the owner). Server CPU %,
ms/action and RSS are then the processes' sums; each step also prints how many tables each
process owns (from the leases) and how many seats are relayed. With one process (the default)
nothing of this runs: the single parlor without Redis.

**Master tables** (``--master-tables K``): besides the curve's tables, K practice tables where one
seat in four is ``master`` (大師: a scripted person, ``master`` and two ``easy`` bots, the person
answering after ``--master-think``) play through every step, started before the first: ``master``
searches in the server's worker process (docs/server.md, *The table actor*) while the human
tables are measured. Their own actions are not measured; each row adds their actions/s
(``mst/s``) and the server's CPU includes its worker processes'.

**Reviews in the background** (``--reviews K``): K clients that, all through the curve, ask the
server for the 覆盤 review (``GET /api/review/{table}/{hand}``, the server's default budget, as
the replay page does) of each hand the curve's tables finish, one after another, as a player of
that table (newest hand first). The server computes them in its review worker process, at a
lower priority (docs/review.md); its CPU is counted with the server's. Each row adds the reviews
finished in the window (``rev``), their median wall time and how many were refused as busy
(429): the human tables' latency is measured while the reviews run.

**Flat-out** (bots): a second server with zero delays (``discard_delay_ms`` 0, ``bot_ms`` 0,
``next_hand_ms`` 0) and ``--flat-tables`` online tables of one scripted client (answering at once)
and three server bots (``--bot-level``): actions/s the server commits (``act`` lines of the game
records written per second, bots' and the client's), hands/s, server CPU %.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import os
import platform
import random
import resource
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import httpx
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hkmahjong.parlor.ledger import starting_grant
from hkmahjong.server.auth import SESSION_COOKIE, Auth, hash_token
from hkmahjong.server.heap import HeapKeeper, HeapSettings
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import post_in
from hkmahjong.server.store.models import SessionRow, User, utcnow
from serving import ServeError, start_serve  # the bench folder is no package

TARGET_TABLES = 1000
TARGET_P99_MS = 100.0
TARGET_KB_PER_TABLE = 100.0
DEFAULT_STEPS = (50, 100, 200, 400, 700, 1000, 1300, 1600)
RULES = "ml"
"""The tables' ruleset: ml offers 四圈 online (ML 單局 / 東圈 / 四圈); the parlor's own online
tables are 四局, too short for a steady curve (docs/rules.md, match lengths)."""
LEVEL = 1
"""The tables' level: stake = ml's table value (1024, seed 002 牌桌價值) × 1."""
SECRET = "bench-secret-" + "s" * 24
PASSWORD = "bench password"
FLAT_CLOCKS = {"discard_delay_ms": 0, "bot_ms": 0, "next_hand_ms": 0}
TICK = os.sysconf("SC_CLK_TCK")
MIN_GAP_S = 1 / 8
"""A client's least time between two answers (the server allows 10 messages a second)."""


# --- conditions and /proc ---------------------------------------------------------------------------
def conditions(db: str) -> dict[str, Any]:
    """What the numbers were measured on."""
    return {
        "cpus": os.cpu_count(),
        "load_avg_at_start": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "database": db,
        "client_loop": type(asyncio.get_event_loop_policy()).__module__.split(".")[0],
    }


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def family_cpu_s(pid: int) -> float:
    """:func:`proc_cpu_s` of a process and its child processes (a server's search workers)."""
    total = proc_cpu_s(pid)
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                with contextlib.suppress(OSError, ValueError):
                    total += proc_cpu_s(int(child))
    return total


def proc_rss_kb(pid: int) -> int:
    """Resident set size of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pct(values: Sequence[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


# --- the database and the server --------------------------------------------------------------------
@dataclass
class Account:
    """A seeded user: its session token (the cookie) and the CSRF token bound to it."""

    user_id: int
    name: str
    token: str
    csrf: str


class Database:
    """SQLite in the data directory, or a fresh PostgreSQL database made (and dropped) here."""

    def __init__(self, data_dir: Path, pg_admin: str | None) -> None:
        self.data_dir = data_dir
        self.pg_admin = pg_admin
        self.pg_name: str | None = None
        self.url: str | None = None  # the server's --db (None: SQLite under the data dir)
        if pg_admin is not None:
            self.pg_name = f"hkmj_bench_{os.getpid()}_{secrets.token_hex(3)}"
            admin = create_engine(_pg(pg_admin), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{self.pg_name}"'))
            admin.dispose()
            self.url = pg_admin.rsplit("/", 1)[0] + "/" + self.pg_name

    @property
    def settings(self) -> Settings:
        return Settings(data_dir=self.data_dir, db_url=self.url, secret=SECRET)

    def drop(self) -> None:
        if self.pg_admin is not None and self.pg_name is not None:
            admin = create_engine(_pg(self.pg_admin), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)'))
            admin.dispose()

    def count_acts(self) -> tuple[int, int]:
        """(``act`` lines, ``end`` lines) in every table's game record so far."""
        query = (
            'SELECT SUM(CASE WHEN line LIKE \'{"t":"act"%\' THEN 1 ELSE 0 END), '
            'SUM(CASE WHEN line LIKE \'{"t":"end"%\' THEN 1 ELSE 0 END) FROM table_log'
        )
        if self.url is None:
            path = self.data_dir / "parlor.db"
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            try:
                acts, ends = conn.execute(query).fetchone()
            finally:
                conn.close()
        else:
            engine = create_engine(_pg(self.url))
            with engine.connect() as c:
                acts, ends = c.execute(text(query)).one()
            engine.dispose()
        return int(acts or 0), int(ends or 0)


def _pg(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def seed_accounts(db: Database, count: int, prefix: str) -> list[Account]:
    """Registered users written straight into the store before the server starts: the rows
    ``/register`` and ``/login`` write (user with an argon2 hash, session, starting grant)."""
    settings = db.settings
    store = Store.open(settings.database_url)
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    auth = Auth(store, settings, hasher)
    hashed = hasher.hash(PASSWORD)
    now = utcnow()
    accounts: list[Account] = []
    try:
        for start in range(0, count, 500):
            with store.session() as s:
                users = [
                    User(name=f"{prefix}{i:05d}", password_hash=hashed, is_guest=False, lang="en")
                    for i in range(start, min(count, start + 500))
                ]
                s.add_all(users)
                s.flush()
                for u in users:
                    token = secrets.token_urlsafe(32)
                    s.add(
                        SessionRow(
                            token_hash=hash_token(token),
                            user_id=u.id,
                            created_at=now,
                            expires_at=now + timedelta(days=1),
                        )
                    )
                    post_in(s, starting_grant(u.id, settings.starting_grant))
                    accounts.append(Account(u.id, u.name, token, auth.csrf_for(hash_token(token))))
    finally:
        store.close()
    return accounts


class Server:
    """``hkmj serve --port 0`` in its own process, on loopback; with ``cluster`` (a Redis URL
    and a key prefix) one process of several on the same PostgreSQL database (docs/deploy.md)."""

    def __init__(
        self,
        db: Database,
        clocks: dict[str, int] | None = None,
        cluster: tuple[str, str] | None = None,
        name: str = "server",
    ) -> None:
        env = {"HKMJ_SECRET": SECRET, "HKMJ_TABLE_CLOCKS": ""}  # "": the parlor's own clocks
        if clocks:
            env["HKMJ_TABLE_CLOCKS"] = json.dumps(clocks)
        if cluster is not None:
            env["HKMJ_REDIS_URL"], env["HKMJ_CLUSTER_PREFIX"] = cluster
        args = ["--host", "127.0.0.1", "--port", "0", "--data-dir", str(db.data_dir)]
        if db.url is not None:
            args += ["--db", db.url]
        db.data_dir.mkdir(parents=True, exist_ok=True)  # on PostgreSQL nothing made it yet
        self.log = db.data_dir / f"{name}.log"
        try:
            self.served = start_serve(None, env=env, log=self.log, timeout=120, args=args)
        except ServeError as exc:
            raise SystemExit(f"the server did not start: {exc}") from None
        self.proc = self.served.proc
        self.url = self.served.url
        self.pid = self.proc.pid
        self.owner = ""  # the cluster's name of the process (its leases' owner)
        if cluster is not None:
            for _ in range(3):  # the "cluster node NAME: …" line
                more = self.served.readline(10) or ""
                if more.startswith("cluster node "):
                    self.owner = more.split()[2].rstrip(":")
                    break

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Servers:
    """The server processes of one measurement: one (``--procs 1``, no Redis: exactly the
    single-process parlor), or ``--procs N`` cluster processes on one PostgreSQL database and
    one Redis, under a key prefix of this run's own (dropped at the end)."""

    def __init__(
        self, db: Database, args: argparse.Namespace, clocks: dict[str, int] | None = None
    ):
        self.redis: str | None = None
        self.prefix = ""
        if args.procs == 1:
            self.procs = [Server(db, clocks)]
            return
        self.redis = args.redis
        self.prefix = f"hkmjbench:{secrets.token_hex(4)}"
        self.procs = []
        try:
            for i in range(args.procs):
                self.procs.append(Server(db, clocks, (args.redis, self.prefix), name=f"server{i}"))
        except BaseException:
            self.stop()
            raise

    @property
    def pids(self) -> list[int]:
        return [s.pid for s in self.procs]

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.procs]

    def rss_kb(self) -> int:
        """The processes' resident set sizes, summed (KiB)."""
        return sum(proc_rss_kb(pid) for pid in self.pids)

    def stop(self) -> None:
        """Stop every process: all signalled at once (a cluster process that stops gracefully
        hands its tables over, which the others should not start taking), then waited for."""
        if len(self.procs) == 1:
            self.procs[0].stop()
            return
        for s in self.procs:
            if s.proc.poll() is None:
                s.proc.send_signal(signal.SIGINT)
        for s in self.procs:
            s.stop()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                import redis

                r = redis.Redis.from_url(self.redis)
                keys = list(r.scan_iter(f"{self.prefix}:*"))
                if keys:
                    r.delete(*keys)
                r.close()


def placed(db: Database, servers: Servers, runs: list[TableRun]) -> tuple[list[int], int]:
    """Several processes: (tables each process owns, seats connected to a process that does not
    own their table, i.e. relayed) from the leases in the database."""
    assert db.url is not None
    engine = create_engine(_pg(db.url))
    with engine.connect() as c:
        owners: dict[str, str] = dict(
            c.execute(
                text(
                    "SELECT t.public_id, l.owner FROM table_leases l "
                    "JOIN parlor_tables t ON t.id = l.table_id"
                )
            ).all()
        )
    engine.dispose()
    by_owner = {s.owner: s.url for s in servers.procs}
    held = [0] * len(servers.procs)
    relayed = 0
    for r in runs:
        owner_url = by_owner.get(owners.get(r.public_id, ""))
        if owner_url is not None:
            held[servers.urls.index(owner_url)] += 1
        relayed += sum(1 for c in r.clients if c.url != owner_url)
    return held, relayed


# --- the clients ------------------------------------------------------------------------------------
@dataclass
class Pending:
    """A measured act: when it was sent and which event it causes."""

    sent: float
    actor: int
    kind: str | None  # the event kind it causes (None: a final pass, any next event)
    seat: str | None
    tile: str | None
    waiting: set[int] = field(default_factory=lambda: {0, 1, 2, 3})


@dataclass
class Meter:
    """What the clients measured in the current window."""

    recording: bool = False
    all_ms: list[float] = field(default_factory=list)
    actor_ms: list[float] = field(default_factory=list)
    acts: int = 0
    frames: int = 0
    errors: int = 0
    timeouts: int = 0
    lag_ms: list[float] = field(default_factory=list)
    finished: deque[tuple[str, int, Account]] = field(default_factory=deque)
    """Hands the tables finished (table, the hand's index in its record, a player there), for
    the background reviews (``--reviews``); kept across windows."""
    reviews: int = 0
    review_s: list[float] = field(default_factory=list)
    reviews_busy: int = 0

    def reset(self) -> None:
        self.all_ms, self.actor_ms, self.lag_ms, self.review_s = [], [], [], []
        self.acts = self.frames = self.errors = self.timeouts = 0
        self.reviews = self.reviews_busy = 0


EXPECTED = {
    "discard": "discard",
    "chow": "claim",
    "pung": "claim",
    "kong": "claim",
    "concealed_kong": "concealed_kong",
    "added_kong": "added_kong",
    "self_draw": "win",
    "win": "win",
    "bonus_win": "win",
}


class WsClient(asyncio.Protocol):
    """A minimal RFC 6455 websocket client (text frames, ping/pong, close; no extensions).

    The load generator shares the two cores with the server, so it must cost little: the
    ``websockets`` library spends several times more CPU per frame. Frames are parsed in
    ``data_received``, so a frame's arrival time is taken as it comes off the socket.
    """

    def __init__(self, host: str, path: str, cookie: str, on_text: Any) -> None:
        self.host, self.path, self.cookie = host, path, cookie
        self.on_text = on_text
        self.buf = bytearray()
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.fragments: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, but have its methods
        self.transport = cast(asyncio.Transport, transport)
        transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nCookie: {self.cookie}\r\n\r\n"
            ).encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(ConnectionError(f"closed before the handshake: {exc}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1")
            del buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1((self.key + WS_GUID).encode()).digest()).decode()
            if not head.startswith("HTTP/1.1 101") or accept not in head:
                self.open.set_exception(ConnectionError(f"handshake refused: {head[:200]}"))
                assert self.transport is not None
                self.transport.close()
                return
            self.open.set_result(None)
        now = time.perf_counter()
        while len(buf) >= 2:
            b0, n = buf[0], buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at : at + n])
            del buf[: at + n]
            opcode = b0 & 0x0F
            if opcode in (1, 0):  # text, continuation
                self.fragments.append(payload)
                if b0 & 0x80:
                    text = b"".join(self.fragments).decode()
                    self.fragments = []
                    self.on_text(text, now)
            elif opcode == 9:  # ping
                self._frame(0x8A, payload)
            elif opcode == 8:  # close: answer it
                self._frame(0x88, payload[:2])
                assert self.transport is not None
                self.transport.close()

    def _frame(self, first: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        mask = os.urandom(4)
        if n < 126:
            head = bytes((first, 0x80 | n))
        elif n < 65536:
            head = bytes((first, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((first, 0x80 | 127)) + n.to_bytes(8, "big")
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
        self.transport.write(head + mask + masked)

    def send(self, text: str) -> None:
        """Send a text frame."""
        self._frame(0x81, text.encode())

    def close(self) -> None:
        """Send a close frame (1000) and close the connection."""
        self._frame(0x88, (1000).to_bytes(2, "big"))
        if self.transport is not None:
            self.transport.close()


WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Client:
    """One seat's scripted player: a websocket, a pause before each answer, a simple policy."""

    def __init__(self, bench: TableRun, idx: int, account: Account, think: float) -> None:
        self.table = bench
        self.idx = idx
        self.account = account
        self.think = think
        self.rng = random.Random(account.user_id)
        self.ws: WsClient | None = None
        self.player: int | None = None
        self.seat: str | None = None
        self.prompt: dict[str, Any] | None = None
        self.finished = False
        self.last_send = -1.0
        self.down = False
        self.error: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.url = ""
        self.hands_ended = 0

    async def run(self, url: str) -> None:
        self.url = url
        host_port = url.split("://", 1)[1]
        host, port = host_port.rsplit(":", 1)
        path = f"/ws/table/{self.table.public_id}"
        cookie = f"{SESSION_COOKIE}={self.account.token}"
        loop = asyncio.get_running_loop()
        try:
            _, ws = await loop.create_connection(
                lambda: WsClient(host_port, path, cookie, self._on_text), host, int(port)
            )
            self.ws = ws
            try:
                await ws.open
                ws.send('{"t":"hello","proto":1}')
                await ws.closed
            finally:
                ws.close()
        except (OSError, ConnectionError) as exc:
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.down = True

    def _on_text(self, raw: str, now: float) -> None:
        meter = self.table.meter
        if meter.recording:
            meter.frames += 1
        # The server writes "t" first: the frequent frames this client does not need to read
        # are passed over without parsing them (events are read only while one is awaited).
        if raw.startswith('{"t":"event"'):
            pending = self.table.pending
            if pending is not None and self.idx in pending.waiting:
                self.table.on_event(self.idx, json.loads(raw)["event"], now)
            return
        if raw.startswith('{"t":"clock"'):
            return
        msg = json.loads(raw)
        t = msg["t"]
        if t == "prompt":
            self._prompt(msg)
        elif t == "done":
            if self.prompt is not None and msg["prompt"] == self.prompt["v"]:
                self.prompt = None
            if msg["by"] == "timeout" and meter.recording:
                meter.timeouts += 1
        elif t == "hand":
            for letter, player in msg["seats"].items():
                if player == self.player:
                    self.seat = letter
        elif t == "snapshot":
            self.player = msg["table"]["you"]
            if msg["view"] is not None:
                self.seat = msg["view"]["seat"]
            if msg["prompt"] is not None:
                self._prompt(msg["prompt"])
        elif t == "hand_end":
            assert self.ws is not None
            self.ws.send('{"t":"ready"}')
            if self.idx == 0:  # one player of the table offers the hand for a review
                meter.finished.append((self.table.public_id, self.hands_ended, self.account))
            self.hands_ended += 1
        elif t == "match_end":
            self.finished = True
        elif t == "error" and meter.recording:
            meter.errors += 1

    def _prompt(self, prompt: dict[str, Any]) -> None:
        self.prompt = prompt
        claim = prompt["clock"]["kind"] == "claim"
        delay = self.think * self.rng.uniform(0.5, 1.5) * (0.6 if claim else 1.0)
        # Never faster than the server's per-connection message rate (10/s): a flat-out client
        # would be refused (rate_limited) and its table would wait for the turn clock.
        loop = asyncio.get_running_loop()
        delay = max(delay, self.last_send + MIN_GAP_S - loop.time())
        loop.call_later(delay, self._answer, prompt)

    def _choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        by_kind: dict[str, dict[str, Any]] = {}
        for item in legal:
            by_kind.setdefault(item["kind"], item)
        for kind in ("win", "self_draw", "bonus_win"):
            if kind in by_kind:
                return by_kind[kind]
        r = self.rng.random()
        for kind, p in (("kong", 0.5), ("pung", 0.5), ("chow", 0.3), ("concealed_kong", 0.5)):
            if kind in by_kind and r < p:
                return by_kind[kind]
        if "pass" in by_kind:
            return by_kind["pass"]
        discards = [i for i in legal if i["kind"] == "discard"]
        if discards:
            return discards[-1] if r < 0.7 else self.rng.choice(discards)
        return legal[0]

    def _answer(self, prompt: dict[str, Any]) -> None:
        if self.prompt is not prompt or self.ws is None:
            return
        item = self._choose(prompt["legal"])
        table = self.table
        now = time.perf_counter()
        if any(c.prompt is not None for c in table.clients if c is not self):
            table.pending = None  # its result waits for another seat's decision: not measured
        else:
            kind = EXPECTED.get(item["kind"])
            table.pending = Pending(
                now, self.idx, kind, self.seat if kind else None,
                item.get("tile") if kind == "discard" else None,
            )  # fmt: skip
        self.prompt = None
        self.last_send = asyncio.get_running_loop().time()
        if table.meter.recording:
            table.meter.acts += 1
        self.ws.send(
            json.dumps({"t": "act", "action": item["action"], "v": prompt["v"], "id": "b"})
        )


class TableRun:
    """A table under test and its four clients."""

    def __init__(self, public_id: str, meter: Meter) -> None:
        self.public_id = public_id
        self.meter = meter
        self.clients: list[Client] = []
        self.pending: Pending | None = None

    def on_event(self, idx: int, ev: dict[str, Any], now: float) -> None:
        p = self.pending
        if p is None or idx not in p.waiting:
            return
        if p.kind is not None and (
            ev["kind"] != p.kind or ev["seat"] != p.seat or (p.tile and ev["tile"] != p.tile)
        ):
            return
        p.waiting.discard(idx)
        if self.meter.recording:
            ms = (now - p.sent) * 1000
            self.meter.all_ms.append(ms)
            if idx == p.actor:
                self.meter.actor_ms.append(ms)


async def api(http: httpx.AsyncClient, who: Account, path: str, body: dict[str, Any]) -> Any:
    """A POST as ``who`` (session cookie + CSRF header)."""
    r = await http.post(
        path,
        json=body,
        headers={"Cookie": f"{SESSION_COOKIE}={who.token}", "X-CSRF-Token": who.csrf},
    )
    if r.status_code != 200:
        raise SystemExit(f"{path}: {r.status_code} {r.text[:300]}")
    return r.json()


async def open_table(
    http: httpx.AsyncClient,
    urls: Sequence[str],
    seats: Sequence[Account],
    meter: Meter,
    think: float,
    *,
    length: str,
    bots: str | None = None,
) -> TableRun:
    """Create an online table as ``seats[0]``, the others join (or bots fill it), connect
    (seat i's socket to ``urls[i]``)."""
    body = {"kind": "online", "rules": {"preset": RULES}, "level": LEVEL, "length": length}
    made = await api(http, seats[0], "/api/tables", body)
    run = TableRun(made["id"], meter)
    for account in seats[1:]:
        await api(http, account, f"/api/tables/{run.public_id}/join", {})
    for i, account in enumerate(seats):
        client = Client(run, i, account, think)
        run.clients.append(client)
        client.task = asyncio.create_task(client.run(urls[i]))
    if bots is not None:
        await api(http, seats[0], f"/api/tables/{run.public_id}/bots", {"level": bots})
    return run


async def open_practice(
    http: httpx.AsyncClient, url: str, account: Account, meter: Meter, think: float, bots: list[str]
) -> TableRun:
    """A practice table of ``account`` and three bots (``bots``), its person connected."""
    made = await api(http, account, "/api/tables", {"kind": "practice", "length": "16-hands",
                                                     "bots": bots})  # fmt: skip
    run = TableRun(made["id"], meter)
    client = Client(run, 0, account, think)
    run.clients.append(client)
    client.task = asyncio.create_task(client.run(url))
    return run


async def add_tables(
    https: Sequence[httpx.AsyncClient],
    urls: Sequence[str],
    accounts: list[Account],
    runs: list[TableRun],
    count: int,
    meter: Meter,
    think: float,
    per_table: int,
    *,
    length: str,
    bots: str | None = None,
    placement: str = "owner",
) -> None:
    """Open ``count`` more tables, 8 at a time. With several processes, table k is made through
    process k mod N (which then owns it); its seats' sockets go to that process (``owner``) or
    each to a process at random (``random``: seeded by k)."""
    sem = asyncio.Semaphore(8)

    async def one(k: int) -> None:
        async with sem:
            seats = accounts[k * per_table : (k + 1) * per_table]
            home = k % len(urls)
            if placement == "random":
                rng = random.Random(k)
                socket_urls = [rng.choice(urls) for _ in seats]
            else:
                socket_urls = [urls[home]] * len(seats)
            runs.append(
                await open_table(
                    https[home], socket_urls, seats, meter, think, length=length, bots=bots
                )
            )

    first = len(runs)
    await asyncio.gather(*(one(k) for k in range(first, first + count)))


async def reviewer(http: httpx.AsyncClient, meter: Meter) -> None:
    """Ask for the review of each finished hand (the newest first) as a player of its table,
    one at a time, until cancelled (``--reviews``)."""
    while True:
        if not meter.finished:
            await asyncio.sleep(0.5)
            continue
        public_id, hand, account = meter.finished.pop()
        t0 = time.perf_counter()
        r = await http.get(
            f"/api/review/{public_id}/{hand}",
            headers={"Cookie": f"{SESSION_COOKIE}={account.token}"},
        )
        if not meter.recording:
            continue
        if r.status_code == 200:
            meter.reviews += 1
            meter.review_s.append(time.perf_counter() - t0)
        elif r.status_code == 429:
            meter.reviews_busy += 1
            meter.finished.append((public_id, hand, account))
            await asyncio.sleep(1.0)
        else:
            meter.errors += 1


async def lag_monitor(meter: Meter) -> None:
    """The client process's event-loop lag (how late a 50 ms sleep wakes)."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.05)
        if meter.recording:
            meter.lag_ms.append((time.perf_counter() - t - 0.05) * 1000)


async def close_all(runs: list[TableRun]) -> None:
    for run in runs:
        for c in run.clients:
            if c.task is not None:
                c.task.cancel()
    for run in runs:
        for c in run.clients:
            if c.task is not None:
                with contextlib.suppress(BaseException):
                    await c.task


# --- the two measurements ---------------------------------------------------------------------------
@dataclass
class Window:
    """CPU and wall clock at the start of a measured window."""

    wall: float
    server_cpu: float
    client_cpu: float

    @classmethod
    def start(cls, pids: Sequence[int]) -> Window:
        return cls(time.perf_counter(), sum(map(family_cpu_s, pids)), time.process_time())

    def cpu(self, pids: Sequence[int]) -> tuple[float, float, float]:
        """(seconds, server CPU % (the processes' sum, their search workers included), client
        CPU %) since the start."""
        wall = time.perf_counter() - self.wall
        server = (sum(map(family_cpu_s, pids)) - self.server_cpu) / wall * 100
        client = (time.process_time() - self.client_cpu) / wall * 100
        return wall, server, client


async def curve(args: argparse.Namespace, db: Database, deadline: float) -> dict[str, Any]:
    """Tables at human pace, N growing step by step, until p99 ≥ 100 ms or the limits."""
    steps = [n for n in args.steps if n <= args.max_tables]
    print(f"seeding {4 * steps[-1]} accounts …", flush=True)
    accounts = seed_accounts(db, 4 * steps[-1], "p")
    masters_by = seed_accounts(db, args.master_tables, "m") if args.master_tables else []
    servers = Servers(db, args)
    meter = Meter()
    master_meter = Meter()  # the master tables' person: not measured, its acts counted
    master_runs: list[TableRun] = []
    runs: list[TableRun] = []
    rows: list[dict[str, Any]] = []
    reviewers: list[asyncio.Task[None]] = []
    monitor = asyncio.create_task(lag_monitor(meter))
    try:
        limits = httpx.Limits(max_connections=16)
        async with contextlib.AsyncExitStack() as stack:
            https = [
                await stack.enter_async_context(
                    httpx.AsyncClient(base_url=url, timeout=120, limits=limits)
                )
                for url in servers.urls
            ]
            await asyncio.sleep(1.0)
            rss0 = servers.rss_kb()
            for server in servers.procs:
                print(
                    f"server {server.url} pid {server.pid}, "
                    f"RSS {proc_rss_kb(server.pid) / 1024:.1f} MiB before tables"
                    + (f" (cluster node {server.owner})" if server.owner else "")
                )
            for k, account in enumerate(masters_by):
                master_runs.append(
                    await open_practice(
                        https[k % len(https)], servers.urls[k % len(https)], account,
                        master_meter, args.master_think, ["master", "easy", "easy"],
                    )
                )  # fmt: skip
            if master_runs:
                print(f"{len(master_runs)} practice tables with a master seat playing", flush=True)
            reviewers.extend(
                asyncio.create_task(reviewer(https[0], meter)) for _ in range(args.reviews)
            )
            if reviewers:
                print(f"{len(reviewers)} background review client(s)", flush=True)
            print(_header(), flush=True)
            step_cost = args.warmup + args.seconds
            per_table_s = 0.05  # setup time per table, updated from each step
            for n in steps:
                if time.monotonic() + step_cost + per_table_s * (n - len(runs)) > deadline:
                    print(f"(stopping before N={n}: the time budget would be exceeded)")
                    break
                t0, before = time.perf_counter(), len(runs)
                await add_tables(
                    https, servers.urls, accounts, runs, n - len(runs), meter, args.think, 4,
                    length="four-rounds", placement=args.placement,
                )  # fmt: skip
                setup_s = time.perf_counter() - t0
                per_table_s = setup_s / max(1, n - before)
                await asyncio.sleep(args.warmup)
                if args.verbose:
                    print(f"(measuring {n} tables, set up in {setup_s:.1f} s)", flush=True)
                meter.reset()
                master_meter.reset()
                window = Window.start(servers.pids)
                meter.recording = master_meter.recording = True
                await asyncio.sleep(args.seconds)
                meter.recording = master_meter.recording = False
                wall, server_cpu, client_cpu = window.cpu(servers.pids)
                rss = servers.rss_kb()
                row = {
                    "tables": n,
                    "finished": sum(1 for r in runs if any(c.finished for c in r.clients)),
                    "measured": len(meter.actor_ms),
                    "p50_ms": pct(meter.all_ms, 0.50),
                    "p95_ms": pct(meter.all_ms, 0.95),
                    "p99_ms": pct(meter.all_ms, 0.99),
                    "max_ms": max(meter.all_ms, default=float("nan")),
                    "actor_p99_ms": pct(meter.actor_ms, 0.99),
                    "actions_per_s": meter.acts / wall,
                    "per_table_per_s": meter.acts / wall / n,
                    "server_cpu_pct": server_cpu,
                    "client_cpu_pct": client_cpu,
                    "server_cpu_ms_per_action": server_cpu * 10 * wall / max(1, meter.acts),
                    "client_cpu_ms_per_action": client_cpu * 10 * wall / max(1, meter.acts),
                    "frames_per_s": meter.frames / wall,
                    "client_lag_p99_ms": pct(meter.lag_ms, 0.99),
                    "rss_mib": rss / 1024,
                    "kib_per_table": (rss - rss0) / n,
                    "timeouts": meter.timeouts,
                    "clients_down": sum(c.down for r in runs for c in r.clients),
                    "errors": meter.errors,
                    "setup_s": setup_s,
                    "load_avg": os.getloadavg()[0],
                    "master_tables": len(master_runs),
                    "master_actions_per_s": master_meter.acts / wall,
                    "reviews": meter.reviews,
                    "review_p50_s": pct(meter.review_s, 0.50),
                    "reviews_busy": meter.reviews_busy,
                }
                if len(servers.procs) > 1:
                    held, relayed = await asyncio.to_thread(placed, db, servers, runs)
                    row["tables_per_process"], row["relayed_seats"] = held, relayed
                row["heap"] = await heap_keeper(servers.urls)
                rows.append(row)
                print(_line(row), flush=True)
                if row["heap"]:
                    h = row["heap"][0]
                    print(
                        f"       (server heap keeper so far: {h['ticks']:.0f} ticks, "
                        f"{h['tick_ms_total']:.0f} ms in all, longest {h['tick_ms_max']:.1f} ms; "
                        f"{h.get('trims', 0):.0f} trims, {h.get('trim_ms_total', 0):.0f} ms in all, "
                        f"longest {h.get('trim_ms_max', 0):.1f} ms)",
                        flush=True,
                    )
                if args.reviews:
                    print(
                        f"       (reviews in the background: {row['reviews']} finished in the "
                        f"window, median {row['review_p50_s']:.1f} s each, "
                        f"{row['reviews_busy']} refused as busy)",
                        flush=True,
                    )
                if len(servers.procs) > 1:
                    print(
                        f"       (tables owned per process {row['tables_per_process']}, "
                        f"seats relayed {row['relayed_seats']} of {4 * n})",
                        flush=True,
                    )
                if not row["p99_ms"] < TARGET_P99_MS and not args.keep_going:
                    break
    finally:
        monitor.cancel()
        for task in reviewers:
            task.cancel()
        await close_all(runs + master_runs)
        servers.stop()
    ok = [r for r in rows if r["p99_ms"] < TARGET_P99_MS]
    marginal = None
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        marginal = (b["rss_mib"] - a["rss_mib"]) * 1024 / (b["tables"] - a["tables"])
    return {
        "rows": rows,
        "largest_ok": max((r["tables"] for r in ok), default=0),
        "kib_per_table_marginal": marginal,
    }


def _header() -> str:
    return (
        f"{'tables':>6} {'p50ms':>6} {'p95ms':>6} {'p99ms':>6} {'maxms':>6} {'act/s':>7} "
        f"{'/table':>6} {'srvCPU%':>7} {'ms/act':>6} {'cliCPU%':>7} {'ms/act':>6} "
        f"{'cliLag99':>8} {'RSS MiB':>7} "
        f"{'KiB/tbl':>7} {'t/o':>4} {'err':>4} {'down':>4} {'load1':>5} {'mst/s':>5}"
    )


def _line(r: dict[str, Any]) -> str:
    return (
        f"{r['tables']:>6} {r['p50_ms']:>6.1f} {r['p95_ms']:>6.1f} {r['p99_ms']:>6.1f} "
        f"{r['max_ms']:>6.0f} {r['actions_per_s']:>7.1f} {r['per_table_per_s']:>6.2f} "
        f"{r['server_cpu_pct']:>7.0f} {r['server_cpu_ms_per_action']:>6.2f} "
        f"{r['client_cpu_pct']:>7.0f} {r['client_cpu_ms_per_action']:>6.2f} "
        f"{r['client_lag_p99_ms']:>8.1f} "
        f"{r['rss_mib']:>7.1f} {r['kib_per_table']:>7.1f} {r['timeouts']:>4} {r['errors']:>4} "
        f"{r['clients_down']:>4} {r['load_avg']:>5.2f} {r.get('master_actions_per_s', 0):>5.1f}"
    )


async def flat_out(args: argparse.Namespace, db: Database) -> dict[str, Any]:
    """Tables of one instant client and three bots, no delays: actions/s the server commits."""
    accounts = seed_accounts(db, args.flat_tables, "f")
    servers = Servers(db, args, FLAT_CLOCKS)
    meter = Meter()
    runs: list[TableRun] = []
    try:
        async with contextlib.AsyncExitStack() as stack:
            https = [
                await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=120))
                for url in servers.urls
            ]
            await add_tables(
                https, servers.urls, accounts, runs, args.flat_tables, meter, 0.0, 1,
                length="four-rounds", bots=args.bot_level, placement=args.placement,
            )  # fmt: skip
            await asyncio.sleep(min(3.0, args.warmup))
            acts0, ends0 = db.count_acts()
            window = Window.start(servers.pids)
            await asyncio.sleep(args.flat_seconds)
            acts1, ends1 = db.count_acts()
            wall, server_cpu, client_cpu = window.cpu(servers.pids)
    finally:
        await close_all(runs)
        servers.stop()
    return {
        "tables": args.flat_tables,
        "bot_level": args.bot_level,
        "actions_per_s": (acts1 - acts0) / wall,
        "hands_per_s": (ends1 - ends0) / wall,
        "server_cpu_pct": server_cpu,
        "client_cpu_pct": client_cpu,
        "seconds": wall,
    }


async def heap_keeper(urls: Sequence[str]) -> list[dict[str, float]]:
    """Each server's heap keeper figures (``/healthz``), when it runs."""
    out: list[dict[str, float]] = []
    async with httpx.AsyncClient(timeout=10) as http:
        for url in urls:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                heap = (await http.get(f"{url}/healthz")).json().get("heap")
                if heap:
                    out.append(heap)
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    # The client process holds thousands of sockets' state too: without the server's heap
    # keeper its own full collections stop it for hundreds of milliseconds, which the
    # latencies it measures would include.
    keeper = HeapKeeper(HeapSettings())
    keeper.start()
    try:
        return await _run(args)
    finally:
        await keeper.stop()


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.monotonic()
    deadline = started + args.budget
    root = Path(tempfile.mkdtemp(prefix="hkmj-bench-"))
    result: dict[str, Any] = {
        "conditions": conditions("PostgreSQL" if args.db else "SQLite (WAL, synchronous=NORMAL)")
    }
    c = result["conditions"]
    if args.procs > 1:
        c["procs"], c["placement"], c["redis"] = args.procs, args.placement, args.redis
    print(
        f"conditions: {c['cpus']} CPUs, load average {c['load_avg_at_start']} at start, "
        f"Python {c['python']}, {c['database']}, client loop {c['client_loop']}, "
        f"{c['platform']}"
    )
    if args.procs > 1:
        print(
            f"{args.procs} server processes (one PostgreSQL database, Redis {args.redis}); "
            f"tables made through them round-robin, seats' sockets placed: {args.placement}; "
            "server CPU %, ms/action and RSS are the processes' sums",
            flush=True,
        )
    print(
        f"curve: steps {','.join(map(str, args.steps))} (max {args.max_tables}), "
        f"{args.warmup:g} s warm-up + {args.seconds:g} s per step, think {args.think:g} s; "
        f"budget {args.budget:g} s",
        flush=True,
    )
    try:
        if not args.no_curve:
            db = Database(root / "curve", args.db)
            try:
                result["curve"] = await curve(args, db, deadline - args.flat_seconds - 20)
            finally:
                db.drop()
        if args.flat_seconds > 0 and args.flat_tables > 0:
            db = Database(root / "flat", args.db)
            try:
                result["flat_out"] = await flat_out(args, db)
            finally:
                db.drop()
    finally:
        if args.keep:
            print(f"kept the data directories and server logs under {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    result["load_avg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    result["elapsed_s"] = time.monotonic() - started
    return result


def summary(result: dict[str, Any]) -> None:
    """The figures the issue asks for."""
    print()
    cv = result.get("curve")
    if cv is not None:
        largest = cv["largest_ok"]
        verdict = "meets" if largest >= TARGET_TABLES else "misses"
        procs = result["conditions"].get("procs", 1)
        print(
            f"largest N with action-to-broadcast p99 < {TARGET_P99_MS:g} ms: {largest} tables "
            + (f"on {procs} processes " if procs > 1 else "")
            + f"({verdict} the target of >= {TARGET_TABLES})"
        )
        print("curve (tables -> p99 ms): " + ", ".join(
            f"{r['tables']}->{r['p99_ms']:.1f}" for r in cv["rows"]))  # fmt: skip
        if cv["rows"]:
            last = cv["rows"][-1]
            marginal = cv["kib_per_table_marginal"]
            shown = f"{marginal:.1f} KiB between the first and last step" if marginal else "n/a"
            print(
                f"memory per table: {last['kib_per_table']:.1f} KiB at {last['tables']} tables "
                f"(server RSS growth / tables); marginal {shown} (target < {TARGET_KB_PER_TABLE:g})"
            )
    fo = result.get("flat_out")
    if fo is not None:
        print(
            f"flat-out: {fo['actions_per_s']:.0f} actions/s committed ({fo['hands_per_s']:.2f} "
            f"hands/s) on {fo['tables']} tables of 1 instant client + 3 {fo['bot_level']} bots, "
            f"server CPU {fo['server_cpu_pct']:.0f}%, client CPU {fo['client_cpu_pct']:.0f}%"
        )
    print(f"load average at end {result['load_avg_at_end']}; run took {result['elapsed_s']:.0f} s")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its numbers (``--json``: one JSON object as well)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default=",".join(map(str, DEFAULT_STEPS)),
                        help="table counts of the curve (default %(default)s)")  # fmt: skip
    parser.add_argument("--max-tables", type=int, default=1600)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds before measuring")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean pause before a turn's answer (s)"
    )
    parser.add_argument(
        "--master-tables",
        type=int,
        default=0,
        help="practice tables with a master seat playing beside the curve's (default 0)",
    )
    parser.add_argument(
        "--master-think", type=float, default=0.1, help="their person's pause before answering"
    )
    parser.add_argument("--flat-tables", type=int, default=40)
    parser.add_argument("--flat-seconds", type=float, default=30.0)
    parser.add_argument("--bot-level", default="easy")
    parser.add_argument("--no-curve", action="store_true", help="flat-out only")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds for the whole run")
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="a PostgreSQL server's URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres): "
        "the bench creates its own database there and drops it (default: SQLite)",
    )
    parser.add_argument(
        "--procs",
        type=int,
        default=1,
        metavar="N",
        help="server processes (default 1); N >= 2: a cluster on the --db PostgreSQL and --redis, "
        "tables made through the processes round-robin",
    )
    parser.add_argument(
        "--placement",
        choices=["owner", "random"],
        default="owner",
        help="with --procs >= 2: each seat's socket to its table's owner (default: nothing "
        "relayed) or to a process at random (relayed through Redis unless it is the owner)",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("HKMJ_TEST_REDIS", "redis://127.0.0.1:6379/0"),
        metavar="URL",
        help="the Redis of --procs >= 2 (a key prefix of the run's own; default %(default)s)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="measure every step, also past the first whose p99 is >= 100 ms",
    )
    parser.add_argument(
        "--client-loop",
        choices=["uvloop", "asyncio"],
        default="uvloop",
        help="the client process's event loop (default uvloop, as the server's)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        metavar="K",
        help="K clients asking for reviews of the finished hands all through the curve",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="say when each window starts")
    parser.add_argument("--keep", action="store_true", help="keep the data dirs and server logs")
    args = parser.parse_args(argv)
    args.steps = sorted({int(s) for s in str(args.steps).split(",") if s.strip()})
    if not args.steps or args.steps[0] < 1:
        parser.error("--steps: positive table counts, e.g. 50,100,200")
    if args.procs < 1:
        parser.error("--procs: at least 1")
    if args.procs > 1 and not str(args.db or "").startswith(("postgresql", "postgres://")):
        parser.error(
            f"--procs {args.procs} needs --db postgresql://… (several processes share one "
            "PostgreSQL database and one Redis; SQLite is one process only)"
        )
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 8 * max(args.steps) + 256
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if args.client_loop == "uvloop":
        import uvloop  # uvicorn's [standard] loop, installed with the server extra

        uvloop.install()
    result = asyncio.run(run(args))
    summary(result)
    if args.json:
        print(json.dumps(result, default=lambda x: None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
