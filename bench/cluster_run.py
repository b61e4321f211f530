"""Several ``hkmj serve`` processes on one PostgreSQL and one Redis (issue 19, docs/deploy.md):
tables played to the end by scripted websocket clients while processes are killed with ``kill -9``.

    .venv/bin/python bench/cluster_run.py                         # 3 processes, 6 tables, 2 kills
    .venv/bin/python bench/cluster_run.py --procs 2 --tables 8 --kills 0 --json
    .venv/bin/python bench/cluster_run.py --procs 1 --kills 0     # the same load on one process

What it does, all on loopback: creates its own PostgreSQL database (``--pg-admin``) and Redis key
prefix; seeds two registered accounts per table (user, session, starting grant: the rows
``/register`` writes); starts ``--procs`` processes (``hkmj serve --db … --redis …``, a lease of
``--lease`` seconds, fast table clocks); opens ``--tables`` online tables through the public API,
each request sent to a process chosen at random (level 1: stake 192, two people and two bots, ``--length``);
connects each person's scripted client to a process chosen at random — again after every close
(a process stopped or killed, the table moved); ``--placement owner`` connects it to the table's
owner instead (no relayed seats: what the relaying costs). Meanwhile it kills ``--kills`` processes with
SIGKILL at seeded random moments (``--seed``), each replaced by a new process a moment later, and
times each take-over: from the kill until every table the victim owned has a live owner again.

At the end (every table over, or ``--budget`` seconds) it checks: every table finished; every
game record passes the engine's ``verify`` (every wall against its commitment, every event
against the actions); the ledger balances (every transaction sums to zero, every escrow is
empty) and every player's jade is exactly the starting grant plus what their tables' final totals
give them (a buy-in, a hand's move or a release paid twice would show); then stops the processes
with SIGTERM (a graceful stop must exit) and drops the database. ``--json`` prints the result.
Exit status 0 when every check holds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import websockets
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.parlor import stakes
from hkmahjong.parlor.ledger import starting_grant
from hkmahjong.server.auth import SESSION_COOKIE, Auth, hash_token
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import post_in
from hkmahjong.server.store.models import SessionRow, User, utcnow
from serving import ServeError, start_serve  # the bench folder is no package

SECRET = "cluster-secret-" + "c" * 24
LEVEL = 1
"""The tables' level: stake = the parlor's table value (192, seed 002 牌桌價值) × 1."""
GRANT = 10_000
MIN_GAP_S = 1 / 8
"""A client's least time between two answers (the server allows 10 messages a second)."""
CLOCKS = {
    "discard_delay_ms": 0,
    "bot_ms": 0,
    "next_hand_ms": 300,
    "turn_ms": 4000,
    "claim_ms": 2000,
    "bank_ms": 4000,
    "grace_ms": 3000,
}
OVER = ("finished", "cancelled", "aborted")


def _pg(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class Account:
    user_id: int
    token: str
    csrf: str
    name: str = ""


class Database:
    """A fresh PostgreSQL database of its own, dropped at the end."""

    def __init__(self, admin: str) -> None:
        self.admin = _pg(admin)
        self.name = f"hkmj_cluster_{os.getpid()}_{secrets.token_hex(3)}"
        engine = create_engine(self.admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{self.name}"'))
        engine.dispose()
        self.url = self.admin.rsplit("/", 1)[0] + "/" + self.name
        self.engine = create_engine(self.url)

    def query(self, sql: str, **params: Any) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(text(sql), params).all())

    def drop(self) -> None:
        self.engine.dispose()
        engine = create_engine(self.admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        engine.dispose()


def seed_accounts(db: Database, count: int) -> list[Account]:
    """Registered users with a session and the starting grant, written before any server runs
    (the store is migrated here)."""
    settings = Settings(data_dir=Path(tempfile.gettempdir()), db_url=db.url, secret=SECRET)
    store = Store.open(db.url)
    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    auth = Auth(store, settings, hasher)
    accounts = []
    try:
        with store.session() as s:
            users = [User(name=f"cl{i:04d}", password_hash=None, lang="en") for i in range(count)]
            s.add_all(users)
            s.flush()
            for u in users:
                token = secrets.token_urlsafe(32)
                now = utcnow()
                s.add(SessionRow(token_hash=hash_token(token), user_id=u.id, created_at=now,
                                 expires_at=now + timedelta(days=1)))  # fmt: skip
                post_in(s, starting_grant(u.id, GRANT))
                csrf = auth.csrf_for(hash_token(token))
                accounts.append(Account(u.id, token, csrf, u.name))
    finally:
        store.close()
    return accounts


class Server:
    """One ``hkmj serve --redis …`` process on a free loopback port (fast table clocks,
    :data:`CLOCKS`, unless ``clocks`` says otherwise)."""

    def __init__(
        self,
        db: Database,
        redis_url: str,
        prefix: str,
        lease: float,
        log: Path,
        clocks: dict[str, int] | None = CLOCKS,
    ) -> None:
        env = {
            "HKMJ_SECRET": SECRET,
            "HKMJ_REDIS_URL": redis_url,
            "HKMJ_CLUSTER_PREFIX": prefix,
            "HKMJ_LEASE_SECONDS": str(lease),
            "HKMJ_LEAGUE_SYNC_SECONDS": "0.5",
            "PYTHONFAULTHANDLER": "1",  # a hung stop's stacks to the log (stop)
        }
        if clocks is not None:  # None: the parlor's own clocks
            env["HKMJ_TABLE_CLOCKS"] = json.dumps(clocks)
        args = ["--host", "127.0.0.1", "--port", "0", "--db", db.url.replace("+psycopg", ""),
                "--data-dir", str(log.parent), "--log-level", "warning"]  # fmt: skip
        self.log = log
        try:
            self.served = start_serve(None, env=env, log=log, timeout=60, args=args)
        except ServeError as exc:
            raise SystemExit(f"a server did not start: {exc}") from None
        self.proc = self.served.proc
        self.url = self.served.url
        self.owner = ""
        for _ in range(3):  # the "cluster node NAME: …" line
            more = self.served.readline(10) or ""
            if more.startswith("cluster node "):
                self.owner = more.split()[2].rstrip(":")
                break

    def cpu_s(self) -> float:
        """The process's CPU time so far (user + system, from /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int | None:
        """SIGTERM, then wait (a graceful stop hands the tables over); its exit status, or None
        when it did not stop within 20 s (then SIGABRT: Python's fault handler writes every
        thread's stack to its log — then SIGKILL)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGABRT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=3)
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode


@dataclass
class Run:
    """The cluster under test: its live processes and what happened."""

    servers: list[Server]
    rng: random.Random
    reconnects: int = 0
    acts: int = 0
    retried: int = 0
    errors: list[str] = field(default_factory=list)
    db: Database | None = None
    """With ``--placement owner``: where to look up each table's owner."""

    def url(self) -> str:
        live = [s for s in self.servers if s.proc.poll() is None]
        return self.rng.choice(live).url

    async def socket_url(self, public_id: str) -> str:
        """A process at random, or (``--placement owner``) the table's owner when it is live."""
        if self.db is not None:
            rows = await asyncio.to_thread(
                self.db.query,
                "SELECT l.owner FROM table_leases l JOIN parlor_tables t ON t.id = l.table_id "
                "WHERE t.public_id = :p",
                p=public_id,
            )
            owner = rows[0][0] if rows else None
            for server in self.servers:
                if server.owner == owner and server.proc.poll() is None:
                    return server.url
        return self.url()


class Client:
    """One person's scripted client: answers each prompt (least gap 1/8 s), ``ready`` after
    each hand, reconnects to a process at random after every close until the match is over.
    Without an account: a spectator (旁觀), until stopped. Either checks what it is shown: no
    draw of another seat (a spectator: of any seat) may carry its tile."""

    def __init__(self, run: Run, public_id: str, account: Account | None, seed: int) -> None:
        self.run = run
        self.public_id = public_id
        self.account = account
        self.rng = random.Random(seed)
        self.finished = False
        self.last = 0.0
        self.player: int | None = None
        self.seat: str | None = None
        self.events = 0

    async def play(self) -> None:
        while not self.finished:
            url = await self.run.socket_url(self.public_id)
            url = url.replace("http://", "ws://") + f"/ws/table/{self.public_id}"
            try:
                async with websockets.connect(
                    url,
                    additional_headers=(
                        {}
                        if self.account is None
                        else {"Cookie": f"{SESSION_COOKIE}={self.account.token}"}
                    ),
                    open_timeout=5,
                    ping_interval=None,
                ) as ws:
                    await ws.send('{"t":"hello","proto":1}')
                    async for raw in ws:
                        await self._on(ws, json.loads(raw))
                        if self.finished:
                            return
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            if not self.finished:
                self.run.reconnects += 1
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _on(self, ws: Any, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if t == "event":
            ev = msg["event"]
            self.events += 1
            if ev["kind"] == "draw" and ev["tile"] is not None and ev["seat"] != self.seat:
                self.run.errors.append(f"{self.public_id}: seat {self.seat} was shown {ev}")
            return
        if t == "hand":
            for letter, player in msg["seats"].items():
                if player == self.player and self.player is not None:
                    self.seat = letter
        if t == "snapshot":
            self.player = msg["table"]["you"]
            view = msg.get("view")
            self.seat = None if view is None else view.get("seat")
            if msg["table"]["status"] in OVER:
                self.finished = True
            elif msg.get("prompt") is not None:
                await self._answer(ws, msg["prompt"])
        elif t == "prompt":
            await self._answer(ws, msg)
        elif t == "hand_end":
            await ws.send('{"t":"ready"}')
        elif t == "match_end" or (t == "table" and msg["table"]["status"] in OVER):
            self.finished = True

    async def _answer(self, ws: Any, prompt: dict[str, Any]) -> None:
        legal = prompt["legal"]
        by_kind = {item["kind"]: item for item in reversed(legal)}
        item = next((by_kind[k] for k in ("win", "self_draw", "bonus_win") if k in by_kind), None)
        if item is None:
            item = by_kind.get("pass") or self.rng.choice(legal)
        loop = asyncio.get_running_loop()
        wait = self.last + MIN_GAP_S - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last = loop.time()
        self.run.acts += 1
        await ws.send(json.dumps({"t": "act", "action": item["action"], "v": prompt["v"]}))


async def post(http: httpx.AsyncClient, run: Run, who: Account, path: str, body: Any) -> Any:
    """A POST to a process at random (session cookie + CSRF header), retried while processes
    come and go."""
    for attempt in range(20):
        try:
            r = await http.post(
                run.url() + path,
                json=body,
                headers={"Cookie": f"{SESSION_COOKIE}={who.token}", "X-CSRF-Token": who.csrf},
            )
        except httpx.HTTPError:
            await asyncio.sleep(0.3)
            continue
        if r.status_code == 200:
            return r.json()
        if attempt and r.status_code == 409 and path != "/api/tables":
            run.retried += 1  # an earlier try was applied though its answer was lost
            return {}
        if r.status_code < 500 and r.status_code != 404:
            raise SystemExit(f"{path}: {r.status_code} {r.text[:300]}")
        await asyncio.sleep(0.3)
    raise SystemExit(f"{path}: no answer")


async def open_table(http: httpx.AsyncClient, run: Run, a: Account, b: Account, length: str) -> str:
    """An online table made by ``a`` and joined by ``b`` (each request to a process at random)."""
    body = {"kind": "online", "level": LEVEL, "length": length}
    made = await post(http, run, a, "/api/tables", body)
    public_id = str(made["id"])
    await post(http, run, b, f"/api/tables/{public_id}/join", {})
    return public_id


async def lobbies_list(http: httpx.AsyncClient, run: Run, tables: list[str]) -> float:
    """Seconds until every process's ``/api/lobby`` lists every one of these waiting tables
    (listings travel through Redis); -1 when they do not within 5 s."""
    started = time.monotonic()
    while time.monotonic() - started < 5:
        seen = []
        for server in run.servers:
            listing = (await http.get(server.url + "/api/lobby")).json()
            seen.append({t["id"] for t in listing} >= set(tables))
        if all(seen):
            return round(time.monotonic() - started, 2)
        await asyncio.sleep(0.05)
    return -1.0


async def quick_pair(http: httpx.AsyncClient, servers: list[Server], who: list[Account]) -> bool:
    """Two people ask for a quick match, each at another process: the same table?"""
    ids = []
    for server, account in zip(servers[:2], who, strict=True):
        r = await http.post(
            server.url + "/api/quick",
            json={},
            headers={"Cookie": f"{SESSION_COOKIE}={account.token}", "X-CSRF-Token": account.csrf},
        )
        ids.append(r.json().get("id"))
        await asyncio.sleep(0.5)  # the first table's listing reaches Redis (50 ms) meanwhile
    return ids[0] is not None and ids[0] == ids[1]


def make_league(db: Database, entrants: list[Account]) -> int:
    """A league of one round at one table for these four people (no fee, no stake), started:
    the leader process opens its table (docs/leagues.md)."""
    from hkmahjong.server.admin import create_league, league_desk

    store = Store.open(db.url)
    try:
        league = create_league(store, "Cluster Cup", rounds=1, bot_level="easy", prizes="100")
        desk = league_desk(store)
        for a in entrants:
            desk.join(league.id, a.user_id, a.name)
        desk.start(league.id, early=True)
        return league.id
    finally:
        store.close()


async def league_tables(db: Database, seconds: float) -> list[str]:
    """The public ids of the league's tables once one is open (none after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = await asyncio.to_thread(
            db.query, "SELECT public_id FROM parlor_tables WHERE public_id LIKE 'lg%'"
        )
        if rows:
            return [str(r[0]) for r in rows]
        await asyncio.sleep(0.2)
    return []


def owned_by(db: Database, owner: str) -> set[int]:
    rows = db.query(
        "SELECT l.table_id FROM table_leases l JOIN parlor_tables t ON t.id = l.table_id "
        "WHERE l.owner = :o AND t.status IN ('waiting', 'playing', 'paused')",
        o=owner,
    )
    return {int(r[0]) for r in rows}


def live_owned(db: Database, tables: set[int], dead: str) -> bool:
    """Whether every one of these tables is owned by a live process other than ``dead``, or
    over."""
    if not tables:
        return True
    rows = db.query(
        "SELECT t.id FROM parlor_tables t LEFT JOIN table_leases l ON l.table_id = t.id "
        "WHERE t.id = ANY(:ids) AND t.status IN ('waiting', 'playing', 'paused') AND (l.owner = :d "
        "OR NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.owner = l.owner "
        "AND n.expires_at > now()))",
        ids=list(tables),
        d=dead,
    )
    return not rows


async def killer(
    run: Run, db: Database, args: argparse.Namespace, make: Any, takeovers: list[dict[str, Any]]
) -> None:
    """Kill ``--kills`` processes at seeded moments, each replaced a moment later; time each
    take-over (the victim's open tables all owned by a live process again)."""
    events = ["kill"] * args.kills + ["stop"] * args.stops
    run.rng.shuffle(events)
    for event in events:
        await asyncio.sleep(run.rng.uniform(args.kill_after[0], args.kill_after[1]))
        live = [s for s in run.servers if s.proc.poll() is None]
        victim = run.rng.choice(live)
        held = await asyncio.to_thread(owned_by, db, victim.owner)
        if event == "kill":
            victim.kill()
        else:  # SIGTERM: a graceful stop hands the tables over at once
            stopping = asyncio.create_task(asyncio.to_thread(victim.stop))
        killed = time.monotonic()
        fresh = asyncio.create_task(asyncio.to_thread(make))
        # polls the database (no event to wait on)
        while not await asyncio.to_thread(live_owned, db, held, victim.owner):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        took = round(time.monotonic() - killed, 2)
        league_held = await asyncio.to_thread(
            db.query,
            "SELECT count(*) FROM parlor_tables WHERE id = ANY(:ids) AND public_id LIKE 'lg%'",
            ids=list(held),
        )
        takeovers.append({"how": event, "tables": len(held), "seconds": took,
                          "league_tables": int(league_held[0][0])})  # fmt: skip
        await fresh  # in run.servers already (make)
        if event == "stop":
            code = await stopping
            if code not in (0, -signal.SIGTERM):
                run.errors.append(f"a graceful stop exited with {code}")


def check(db: Database, tables: list[str]) -> dict[str, Any]:
    """Every table over and finished, every record verified, the ledger exact."""
    problems: list[str] = []
    rows = db.query(
        "SELECT id, public_id, status, match_seed, config FROM parlor_tables "
        "WHERE public_id = ANY(:p)",
        p=tables,
    )
    expected: dict[str, int] = {}
    verified = hands = actions = 0
    for tid, public_id, status, seed, config in rows:
        if status != "finished":
            tail = db.query(
                "SELECT seq, left(line, 160) FROM table_log WHERE table_id = :t "
                "ORDER BY seq DESC LIMIT 3", t=tid)  # fmt: skip
            lease = db.query("SELECT owner, epoch FROM table_leases WHERE table_id = :t", t=tid)
            problems.append(f"table {public_id} is {status}; lease {lease}; log ends {tail}")
            continue
        lines = [r[0] for r in db.query(
            "SELECT line FROM table_log WHERE table_id = :t ORDER BY seq", t=tid)]  # fmt: skip
        try:
            report = verify(GameRecord.loads("\n".join(lines), source=public_id))
        except Exception as exc:
            problems.append(f"table {public_id}: the record does not verify: {exc}")
            continue
        verified += 1
        hands += report.hands
        actions += report.actions
        runner = MatchRunner.resume(lines, bytes.fromhex(seed))
        start = runner.match.starting_balance
        totals = [b - start for b in runner.match.balances]
        seats = db.query("SELECT player, user_id FROM table_seats WHERE table_id = :t", t=tid)
        owners: list[int | None] = [None] * 4
        for player, user_id in seats:
            owners[int(player)] = None if user_id is None else int(user_id)
        stake = int(config.get("stake") or 0)
        for p, share in enumerate(stakes.staked_shares(stake, totals) if stake else []):
            key = stakes.owner_of(owners[p])
            expected[key] = expected.get(key, 0) + share - stake
    balances = {k: int(v) for k, v in db.query(
        "SELECT a.key, COALESCE(SUM(r.amount), 0) FROM accounts a "
        "LEFT JOIN ledger_rows r ON r.account_id = a.id GROUP BY a.key")}  # fmt: skip
    total = sum(balances.values())
    unbalanced = db.query("SELECT txn_id FROM ledger_rows GROUP BY txn_id HAVING SUM(amount) <> 0")
    escrows = {k: v for k, v in balances.items() if k.startswith("escrow:") and v}
    if total != 0 or unbalanced:
        problems.append(f"the ledger does not balance: sum {total}, {len(unbalanced)} txns")
    if escrows:
        problems.append(f"escrows not empty: {escrows}")
    for key, delta in expected.items():
        if key.startswith("user:") and balances.get(key, 0) != GRANT + delta:
            problems.append(f"{key}: {balances.get(key)} jade, expected {GRANT + delta}")
    return {
        "finished": sum(1 for r in rows if r[2] == "finished"),
        "verified": verified,
        "hands": hands,
        "actions": actions,
        "problems": problems,
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    db = Database(args.pg_admin)
    prefix = f"hkmjtest:{secrets.token_hex(4)}"
    work = Path(tempfile.mkdtemp(prefix="hkmj-cluster-"))
    servers: list[Server] = []
    spawning: list[int] = []
    result: dict[str, Any] = {"procs": args.procs, "tables": args.tables, "kills": args.kills,
                              "placement": args.placement,
                              "seed": args.seed, "length": args.length, "lease_s": args.lease}  # fmt: skip
    try:
        extra = 2 + (4 if args.league else 0)  # the quick-match pair, the league's entrants
        accounts = await asyncio.to_thread(seed_accounts, db, 2 * args.tables + extra)
        counter = iter(range(1000))

        def make() -> Server:
            """A new process, in ``servers`` as soon as it runs (stopped at the end even when
            the killer that asked for it was cancelled meanwhile)."""
            n = next(counter)
            spawning.append(n)
            try:
                server = Server(db, args.redis, prefix, args.lease, work / f"server{n}.log")
                servers.append(server)
                return server
            finally:
                spawning.remove(n)

        for _ in range(args.procs):
            await asyncio.to_thread(make)
        run = Run(servers, random.Random(args.seed))
        if args.placement == "owner":
            run.db = db
        started = time.monotonic()
        cpu0 = sum(s.cpu_s() for s in servers)
        async with httpx.AsyncClient(timeout=30) as http:
            if len(servers) > 1:  # quick match pairs people who asked different processes
                # (first: the tables below are quick-match tables too until their bots sit)
                result["quick_paired"] = await quick_pair(http, servers, accounts[-2:])
                if not result["quick_paired"]:
                    result.setdefault("problems", []).append("quick match did not pair")
            tables = await asyncio.gather(
                *(open_table(http, run, accounts[2 * k], accounts[2 * k + 1], args.length)
                  for k in range(args.tables))
            )  # fmt: skip
            result["lobby_s"] = await lobbies_list(http, run, list(tables))
            if result["lobby_s"] < 0:
                result.setdefault("problems", []).append("a process's lobby misses tables")
            await asyncio.gather(
                *(post(http, run, accounts[2 * k], f"/api/tables/{t}/bots", {"level": "easy"})
                  for k, t in enumerate(tables))
            )  # fmt: skip
        clients = [
            Client(run, public_id, accounts[2 * k + i], args.seed * 1000 + 2 * k + i)
            for k, public_id in enumerate(tables)
            for i in range(2)
        ]
        tables = list(tables)
        league = None
        if args.league:  # a league round at one table, played where the leader process is
            entrants = accounts[2 * args.tables : 2 * args.tables + 4]
            league = await asyncio.to_thread(make_league, db, entrants)
            found = await league_tables(db, 20)
            if not found:
                result.setdefault("problems", []).append("no league table was opened")
            for public_id in found[:1]:
                tables.append(public_id)
                clients += [Client(run, public_id, a, args.seed * 77 + i)
                            for i, a in enumerate(entrants)]  # fmt: skip
        watchers = [
            Client(run, public_id, None, args.seed * 1000 + 999 - k)
            for k, public_id in enumerate(tables)
            for _ in range(args.spectators)
        ]
        takeovers: list[dict[str, Any]] = []
        kills = asyncio.create_task(killer(run, db, args, make, takeovers))
        playing = [asyncio.create_task(c.play()) for c in clients + watchers]
        deadline = started + args.budget
        while time.monotonic() < deadline:
            statuses = await asyncio.to_thread(
                db.query, "SELECT status FROM parlor_tables WHERE public_id = ANY(:p)", p=tables
            )
            league_over = league is None or (
                await asyncio.to_thread(
                    db.query, "SELECT status FROM leagues WHERE id = :i", i=league
                )
            )[0][0] in ("finished", "cancelled")
            if all(s[0] in OVER for s in statuses) and kills.done() and league_over:
                break
            await asyncio.sleep(0.25)
        result["seconds"] = round(time.monotonic() - started, 1)
        cpu = sum(s.cpu_s() for s in servers if s.proc.poll() is None) - cpu0
        result["server_cpu_s"] = round(cpu, 2)  # meaningful without kills
        for task in [*playing, kills]:
            task.cancel()
        await asyncio.gather(*playing, kills, return_exceptions=True)
        result["takeovers"] = takeovers
        result["spectator_events"] = sum(w.events for w in watchers)
        if run.errors:
            result.setdefault("problems", []).extend(run.errors)
        result["reconnects"] = run.reconnects
        result["http_retried"] = run.retried
        result["client_acts"] = run.acts
        if league is not None:
            rows = await asyncio.to_thread(
                db.query, "SELECT status FROM leagues WHERE id = :i", i=league
            )
            result["league"] = rows[0][0]
            if result["league"] != "finished":
                result.setdefault("problems", []).append(f"the league is {result['league']}")
        checked = await asyncio.to_thread(check, db, list(tables))
        checked["problems"] = result.get("problems", []) + checked["problems"]
        result.update(checked)
        if result["actions"]:
            result["actions_per_s"] = round(result["actions"] / result["seconds"], 1)
            result["server_cpu_ms_per_action"] = round(
                1000 * result["server_cpu_s"] / result["actions"], 2
            )
    finally:
        # a process still starting (its killer cancelled): stop it too
        while spawning:  # noqa: ASYNC110 (a list the starting threads empty)
            await asyncio.sleep(0.1)
        exits = [s.stop() for s in servers if s.proc.poll() is None]
        result["graceful_exits"] = exits
        if any(code not in (0, -signal.SIGTERM) for code in exits):
            result.setdefault("problems", []).append(f"a graceful stop failed: {exits}")
        with contextlib.suppress(Exception):
            import redis

            r = redis.Redis.from_url(args.redis)
            keys = list(r.scan_iter(f"{prefix}:*"))
            if keys:
                r.delete(*keys)
            r.close()
        db.drop()
        result["logs"] = str(work)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=3)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--league", action="store_true",
                        help="a league round too, played by the leader process")  # fmt: skip
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table")
    parser.add_argument("--stops", type=int, default=0, help="graceful stops (SIGTERM) as well")
    parser.add_argument("--kill-after", type=float, nargs=2, default=(2.0, 6.0),
                        metavar=("MIN", "MAX"), help="seconds before each kill (uniform)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--placement", choices=["random", "owner"], default="random",
                        help="which process each table socket connects to")  # fmt: skip
    parser.add_argument("--length", default="online", help="match length (online: 4 hands)")
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--budget", type=float, default=50.0)
    parser.add_argument("--pg-admin", default=os.environ.get(
        "HKMJ_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres"))  # fmt: skip
    parser.add_argument("--redis", default=os.environ.get("HKMJ_TEST_REDIS",
                                                          "redis://127.0.0.1:6379/0"))  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 1 if result.get("problems") else 0


if __name__ == "__main__":
    sys.exit(main())
