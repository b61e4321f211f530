"""Faults of several ``hkmj serve`` processes on one PostgreSQL and one Redis (issue 36,
docs/deploy.md *Faults*): each scenario injects one fault into a running cluster and measures how
long the cluster takes to recover, and checks that it stalls nothing else.

    .venv/bin/python bench/cluster_faults.py                      # every scenario, 3 processes
    .venv/bin/python bench/cluster_faults.py --scenario stuck --lease 4 --json

Scenarios (``--scenario``, several allowed; default all, in this order):

``lapse``
    A process's heartbeat lapses without a take-over: its node row is made to look expired for
    longer than a sweep (its tables' lease rows held ``FOR SHARE`` meanwhile, so no process can
    take them). Measures how long, once it is alive again, until every other process's lobby
    (``/api/lobby``) lists its tables again (``relist_s``).
``stuck``
    The issue's reproduction: a connection of its own holds ``SELECT … FROM table_leases …
    FOR SHARE`` on one table's lease row (a stuck owner's transaction, a partition) while that
    table's owner is killed with ``kill -9``; the lock is let go after ``--hold`` leases. The other
    processes must stay alive throughout, the owner's other tables be taken over within two
    leases of the kill (``others_s``), the held one within a lease of the release
    (``held_after_release_s``), and every table's epoch step by exactly one.
``paused``
    An owner paused inside a fenced write: a table is played by two scripted people and two bots;
    when one person is asked to discard, a row of this process's own (uncommitted) takes the log
    line that discard will be written at, so the owner's group commit waits there holding the
    table's lease row ``FOR SHARE``; then the owner is stopped (SIGSTOP) and, half a lease later,
    killed (SIGKILL). The table must be taken over within two leases of the pause (``adopt_s``),
    the owner's stuck database session end by itself (``stuck_session_s``), the other processes
    stay alive, and an action the person was told was done (``done``) be the one the log keeps
    (``undone`` lists each one that is not: the table must not say ``done`` before the commit).
    Meanwhile a probe reconnects to every live process again and again: no reconnect may be
    answered "no such table" (4404) while the table is being taken over. The table is then
    played to the end and its record verified.

After the scenarios every process is stopped gracefully (SIGTERM): each must exit cleanly and
log no traceback while stopping. ``--json`` prints the result; exit status 0 when every check
holds. Needs the local PostgreSQL (tools/ensure_postgres.sh) and Redis (tools/ensure_redis.sh);
each run has its own database and Redis key prefix.
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
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_run import (  # the bench folder is no package
    LEVEL,
    OVER,
    SESSION_COOKIE,
    Account,
    Client,
    Database,
    Run,
    Server,
    check,
    seed_accounts,
)

SCENARIOS = ("lapse", "stuck", "paused")
POLL_S = 0.05


class Harness:
    """The cluster under test: its processes, accounts and database."""

    def __init__(self, args: argparse.Namespace, db: Database, work: Path) -> None:
        self.args = args
        self.lease: float = args.lease
        self.db = db
        self.work = work
        self.prefix = f"hkmjtest:{secrets.token_hex(4)}"
        self.servers: list[Server] = []
        self.accounts: list[Account] = []
        self.next_account = 0
        self.counter = 0
        self.http = httpx.AsyncClient(timeout=30)
        self.rng = random.Random(args.seed)

    async def start(self, procs: int) -> None:
        self.accounts = await asyncio.to_thread(seed_accounts, self.db, 24)
        await asyncio.gather(*(self.spawn() for _ in range(procs)))

    async def spawn(self) -> Server:
        """A new process, in :attr:`servers` once it runs (started in a worker thread: it
        waits for the process's address)."""
        n = self.counter
        self.counter += 1

        def make() -> Server:
            server = Server(self.db, self.args.redis, self.prefix, self.lease,
                            self.work / f"server{n}.log")  # fmt: skip
            self.servers.append(server)
            return server

        return await asyncio.to_thread(make)

    def live(self) -> list[Server]:
        return [s for s in self.servers if s.proc.poll() is None]

    def account(self) -> Account:
        a = self.accounts[self.next_account]
        self.next_account += 1
        return a

    async def post(self, server: Server, who: Account, path: str, body: Any) -> Any:
        """A POST to one process (session cookie + CSRF header); its JSON answer."""
        r = await self.http.post(
            server.url + path,
            json=body,
            headers={"Cookie": f"{SESSION_COOKIE}={who.token}", "X-CSRF-Token": who.csrf},
        )
        if r.status_code != 200:
            raise SystemExit(f"{server.url}{path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def table_on(
        self, server: Server, *, play: bool = False
    ) -> tuple[str, int, list[Account]]:
        """A waiting online table made at ``server`` (which owns it); ``play``: joined by a
        second person and filled with bots (it starts). Its public id, id and people."""
        a = self.account()
        made = await self.post(server, a, "/api/tables",
                               {"kind": "online", "level": LEVEL, "length": "online"})  # fmt: skip
        public_id = str(made["id"])
        people = [a]
        if play:
            b = self.account()
            await self.post(server, b, f"/api/tables/{public_id}/join", {})
            await self.post(server, a, f"/api/tables/{public_id}/bots", {"level": "easy"})
            people.append(b)
        rows = await self.q("SELECT id FROM parlor_tables WHERE public_id = :p", p=public_id)
        return public_id, int(rows[0][0]), people

    async def q(self, sql: str, **params: Any) -> list[Any]:
        return await asyncio.to_thread(self.db.query, sql, **params)

    async def write(self, sql: str, **params: Any) -> None:
        """One statement, committed."""

        def run() -> None:
            with self.db.engine.begin() as conn:
                conn.execute(text(sql), params)

        await asyncio.to_thread(run)

    async def leases(self, ids: list[int]) -> dict[int, tuple[str, int, bool]]:
        """Each table's lease: owner, epoch, and whether the owner is alive now."""
        rows = await self.q(
            "SELECT l.table_id, l.owner, l.epoch, EXISTS (SELECT 1 FROM cluster_nodes n "
            "WHERE n.owner = l.owner AND n.expires_at > clock_timestamp()) "
            "FROM table_leases l WHERE l.table_id = ANY(:ids)",
            ids=ids,
        )
        return {int(t): (str(o), int(e), bool(a)) for t, o, e, a in rows}

    async def alive(self) -> set[str]:
        """The processes whose heartbeat is current now (by the database's clock)."""
        rows = await self.q("SELECT owner FROM cluster_nodes WHERE expires_at > clock_timestamp()")
        return {str(r[0]) for r in rows}

    async def lobby_ids(self, server: Server) -> set[str]:
        try:
            r = await self.http.get(server.url + "/api/lobby", timeout=5)
            return {str(t["id"]) for t in r.json()}
        except (httpx.HTTPError, ValueError):
            return set()

    def hold(self) -> Any:
        """A connection of the harness's own, in a transaction (the caller locks rows with it)."""
        return self.db.engine.connect()


async def watch_alive(
    h: Harness, owners: set[str], stop: asyncio.Event, lapses: list[dict[str, Any]], t0: float
) -> None:
    """Until ``stop``: record each moment one of ``owners`` is not alive."""
    while not stop.is_set():
        alive = await h.alive()
        for owner in owners - alive:
            lapses.append({"owner": owner, "at_s": round(time.monotonic() - t0, 2)})
        await asyncio.sleep(POLL_S)


async def until(  # polls what no event signals (processes, the database)
    check_fn: Callable[[], Awaitable[bool]],
    timeout: float,  # noqa: ASYNC109
    poll: float = POLL_S,
) -> float | None:
    """Seconds until ``check_fn`` holds, or None after ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if await check_fn():
            return round(time.monotonic() - started, 2)
        await asyncio.sleep(poll)
    return None


# --- lapse -----------------------------------------------------------------------------------------
async def scenario_lapse(h: Harness) -> dict[str, Any]:
    L = h.lease
    owner_srv = h.live()[0]
    readers = [s for s in h.live() if s is not owner_srv]
    made = [await h.table_on(owner_srv) for _ in range(2)]
    public = {m[0] for m in made}
    ids = [m[1] for m in made]
    out: dict[str, Any] = {"tables": len(made), "problems": []}

    async def listed() -> bool:
        return all([public <= await h.lobby_ids(r) for r in readers])

    if await until(listed, 10) is None:
        out["problems"].append("the tables were never listed by every process")
        return out
    before = await h.leases(ids)
    hold = h.hold()
    hidden = False
    try:
        hold.execute(text("SELECT 1 FROM table_leases WHERE table_id = ANY(:ids) FOR SHARE"),
                     {"ids": ids})  # fmt: skip
        lapse_s = L / 3 * 1.5 + 0.5  # longer than a sweep of every other process
        started = time.monotonic()
        while time.monotonic() - started < lapse_s:
            await h.write(
                "UPDATE cluster_nodes SET expires_at = clock_timestamp() - interval '1 second' "
                "WHERE owner = :o",
                o=owner_srv.owner,
            )
            if not hidden and not all([public <= await h.lobby_ids(r) for r in readers]):
                hidden = True
            await asyncio.sleep(POLL_S)

        async def owner_alive() -> bool:
            return owner_srv.owner in await h.alive()

        back = await until(owner_alive, 2 * L)
        out["owner_alive_again_s"] = back
        hold.rollback()  # the owner is alive again: nobody may take its tables now
    finally:
        hold.close()
    out["hidden_during_lapse"] = hidden
    # From the moment it is alive again, for three leases: how long are its tables missing
    # from another process's lobby (in all), and are they listed at the end?
    alive_at = time.monotonic()
    window = max(3 * L, 4.0)
    missing = 0.0
    last = alive_at
    listed_now = False
    while time.monotonic() - alive_at < window:
        listed_now = await listed()
        now = time.monotonic()
        if not listed_now:
            missing += now - last
        last = now
        await asyncio.sleep(POLL_S)
    out["missing_after_lapse_s"] = round(missing, 2)
    out["listed_at_end"] = listed_now
    after = await h.leases(ids)
    out["taken_over"] = sum(1 for t in ids if after[t][1] != before[t][1])
    if not hidden:
        out["problems"].append("no other process noticed the lapse (nothing was tested)")
    if missing > L or not listed_now:
        out["problems"].append(
            f"a live process's tables were missing from another lobby for {missing:.1f} s "
            f"of the {window:.0f} s after its lapse (listed at the end: {listed_now})"
        )
    if out["taken_over"]:
        out["problems"].append("a table was taken over during a lapse that held its lease")
    return out


# --- stuck -----------------------------------------------------------------------------------------
async def scenario_stuck(h: Harness) -> dict[str, Any]:
    L = h.lease
    victim = h.live()[0]
    survivors = [s for s in h.live() if s is not victim]
    made = [await h.table_on(victim) for _ in range(3)]
    for s in survivors:
        await h.table_on(s)
    ids = [m[1] for m in made]
    held = ids[0]  # the lowest id: the first a sweep tries
    before = await h.leases(ids)
    out: dict[str, Any] = {"tables": len(ids), "hold_s": round(h.args.hold * L, 2),
                           "problems": []}  # fmt: skip
    lapses: list[dict[str, Any]] = []
    stop = asyncio.Event()
    hold = h.hold()
    try:
        hold.execute(text("SELECT owner, epoch FROM table_leases WHERE table_id = :t FOR SHARE"),
                     {"t": held})  # fmt: skip
        t0 = time.monotonic()
        victim.kill()
        watcher = asyncio.create_task(
            watch_alive(h, {s.owner for s in survivors}, stop, lapses, t0)
        )

        async def others_owned() -> bool:
            now = await h.leases(ids)
            return all(now[t][2] and now[t][0] != victim.owner for t in ids if t != held)

        others = await until(others_owned, h.args.hold * L)
        out["others_s"] = others
        remaining = h.args.hold * L - (time.monotonic() - t0)
        if remaining > 0:
            await asyncio.sleep(remaining)
        now = await h.leases([held])
        out["held_taken_while_locked"] = now[held][1] != before[held][1]
        hold.rollback()
    finally:
        hold.close()

    async def held_owned() -> bool:
        now = await h.leases([held])
        return now[held][2] and now[held][0] != victim.owner

    got = await until(held_owned, 4 * L)
    out["held_after_release_s"] = got
    await asyncio.sleep(L)  # one lease more: no second take-over may follow
    stop.set()
    await watcher
    after = await h.leases(ids)
    out["epoch_steps"] = [after[t][1] - before[t][1] for t in ids]
    out["survivors_lapsed"] = lapses[:10]
    out["survivors_running"] = all(s.proc.poll() is None for s in survivors)
    if lapses:
        out["problems"].append(f"a live process looked dead {len(lapses)} times")
    if not out["survivors_running"]:
        out["problems"].append("a surviving process exited")
    if out.get("others_s") is None or out["others_s"] > 2 * L:
        out["problems"].append(
            f"the other tables were not taken over within 2 leases: {out.get('others_s')}"
        )
    if out["held_taken_while_locked"]:
        out["problems"].append("the held table was taken over while its lease row was locked")
    if got is None or got > L + 0.5:
        out["problems"].append(f"the held table was not taken over within a lease: {got}")
    if out["epoch_steps"] != [1] * len(ids):
        out["problems"].append(f"epochs stepped {out['epoch_steps']}, expected one each")
    await h.spawn()  # the cluster back to its size
    return out


# --- paused ----------------------------------------------------------------------------------------
class FaultClient(Client):
    """A scripted person (:class:`cluster_run.Client`) that records how each socket closed, the
    ``done`` frames it got, and lets the harness act before one chosen answer goes out."""

    def __init__(self, run: Run, public_id: str, account: Account | None, seed: int) -> None:
        super().__init__(run, public_id, account, seed)
        self.codes: list[int | None] = []
        self.acts = 0
        self.before_answer: Callable[[dict[str, Any]], Awaitable[None]] | None = None
        self.done: list[dict[str, Any]] = []

    async def play(self) -> None:
        while not self.finished:
            base = await self.run.socket_url(self.public_id)
            url = base.replace("http://", "ws://") + f"/ws/table/{self.public_id}"
            headers = {} if self.account is None else {
                "Cookie": f"{SESSION_COOKIE}={self.account.token}"}  # fmt: skip
            code: int | None = None
            try:
                async with websockets.connect(url, additional_headers=headers, open_timeout=5,
                                              ping_interval=None) as ws:  # fmt: skip
                    await ws.send('{"t":"hello","proto":1}')
                    try:
                        async for raw in ws:
                            msg = json.loads(raw)
                            if msg["t"] == "done":
                                self.done.append(msg)
                            await self._on(ws, msg)
                            if self.finished:
                                return
                    except websockets.ConnectionClosed:
                        pass
                    code = ws.close_code
            except (OSError, websockets.WebSocketException, TimeoutError):
                code = None
            self.codes.append(code)
            if not self.finished:
                self.run.reconnects += 1
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _answer(self, ws: Any, prompt: dict[str, Any]) -> None:
        legal = prompt["legal"]
        kinds = {item["kind"] for item in legal}
        hook = self.before_answer
        if hook is not None and "discard" in kinds and "pass" not in kinds and not kinds & {
            "win", "self_draw", "bonus_win"}:  # fmt: skip
            self.before_answer = None
            item = next(i for i in legal if i["kind"] == "discard")
            await hook(item)
            self.acts += 1
            await ws.send(json.dumps({"t": "act", "action": item["action"], "v": prompt["v"]}))
            return
        self.acts += 1
        await super()._answer(ws, prompt)


async def probe(
    h: Harness,
    public_id: str,
    targets: list[Server],
    stop: asyncio.Event,
    seen: list[tuple[float, str, str]],
    t0: float,
) -> None:
    """Until ``stop``: a spectator connects to each of ``targets`` in turn, again and again;
    how each attempt ended (seconds since ``t0``, the process, the first frame's type or the
    close code)."""
    n = 0
    while not stop.is_set():
        server = targets[n % len(targets)]
        n += 1
        url = server.url.replace("http://", "ws://") + f"/ws/table/{public_id}"
        began = round(time.monotonic() - t0, 2)
        how = "error"
        try:
            async with websockets.connect(url, open_timeout=2, ping_interval=None) as ws:
                await ws.send('{"t":"hello","proto":1}')
                try:
                    raw = await asyncio.wait_for(ws.recv(), h.lease)
                    how = str(json.loads(raw).get("t"))
                except websockets.ConnectionClosed:
                    how = str(ws.close_code)
                except TimeoutError:
                    how = "silent"
        except (OSError, websockets.WebSocketException, TimeoutError):
            how = "error"
        seen.append((began, server.owner[-6:], how))
        await asyncio.sleep(0.1)


async def scenario_paused(h: Harness) -> dict[str, Any]:
    L = h.lease
    victim = h.live()[0]
    survivors = [s for s in h.live() if s is not victim]
    public_id, tid, people = await h.table_on(victim, play=True)
    run = Run(h.servers, random.Random(h.args.seed))
    clients = [FaultClient(run, public_id, a, h.args.seed * 10 + i) for i, a in enumerate(people)]
    out: dict[str, Any] = {"problems": []}
    pending: dict[str, Any] = {}
    blocked = asyncio.Event()
    hold = h.hold()
    pid = int(hold.execute(text("SELECT pg_backend_pid()")).scalar_one())
    hold.commit()

    async def before_answer(item: dict[str, Any]) -> None:
        """Take the log line this discard will be written at, in an open transaction."""
        rows = await h.q("SELECT coalesce(max(seq), -1) + 1 FROM table_log WHERE table_id = :t",
                         t=tid)  # fmt: skip
        seq = int(rows[0][0])
        await asyncio.to_thread(
            hold.execute,
            text("INSERT INTO table_log (table_id, seq, line, created_at) "
                 "VALUES (:t, :s, '{\"t\":\"held by the fault harness\"}', now())"),
            {"t": tid, "s": seq},
        )  # fmt: skip
        pending.update(seq=seq, action=item["action"], client=clients[0])
        blocked.set()

    playing = [asyncio.create_task(c.play()) for c in clients]
    lapses: list[dict[str, Any]] = []
    stop_watch = asyncio.Event()
    stop_probe = asyncio.Event()
    seen: list[tuple[float, str, str]] = []
    try:
        started = time.monotonic()
        while clients[0].acts < 6 and time.monotonic() - started < 30:  # noqa: ASYNC110
            await asyncio.sleep(POLL_S)
        clients[0].before_answer = before_answer
        await asyncio.wait_for(blocked.wait(), 30)

        async def stuck() -> bool:
            rows = await h.q("SELECT pid FROM pg_stat_activity WHERE :p = ANY(pg_blocking_pids(pid))",
                             p=pid)  # fmt: skip
            if rows:
                pending["backend"] = int(rows[0][0])
            return bool(rows)

        if await until(stuck, 5, 0.01) is None:
            out["problems"].append("the owner's write never waited on the held log line")
            return out
        seen_done = await until(
            lambda: _true(any(d.get("by") == "you" and d.get("action") == pending["action"]
                              for d in clients[0].done)), 0.3, 0.01)  # fmt: skip
        out["done_before_commit"] = seen_done is not None
        t0 = time.monotonic()
        victim.proc.send_signal(signal.SIGSTOP)
        watcher = asyncio.create_task(
            watch_alive(h, {s.owner for s in survivors}, stop_watch, lapses, t0)
        )
        prober = asyncio.create_task(probe(h, public_id, survivors, stop_probe, seen, t0))
        await asyncio.sleep(L / 2)
        victim.kill()
        out["killed_at_s"] = round(time.monotonic() - t0, 2)

        async def session_gone() -> bool:
            rows = await h.q("SELECT 1 FROM pg_stat_activity WHERE pid = :b",
                             b=pending["backend"])  # fmt: skip
            return not rows

        gone = await until(session_gone, 4 * L, 0.02)
        out["stuck_session_s"] = None if gone is None else round(time.monotonic() - t0, 2)
        await asyncio.to_thread(hold.rollback)

        async def owned() -> bool:
            now = await h.leases([tid])
            return now[tid][2] and now[tid][0] != victim.owner

        adopted = await until(owned, 6 * L)
        out["adopt_s"] = None if adopted is None else round(time.monotonic() - t0, 2)
        await asyncio.sleep(1.0)  # the reconnects after the take-over, probed too
        stop_probe.set()
        stop_watch.set()
        await asyncio.gather(prober, watcher)
        await h.spawn()
        deadline = time.monotonic() + h.args.budget
        while time.monotonic() < deadline:
            rows = await h.q("SELECT status FROM parlor_tables WHERE id = :t", t=tid)
            if rows[0][0] in OVER:
                break
            await asyncio.sleep(0.25)
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        with contextlib.suppress(Exception):
            hold.rollback()
        hold.close()
    codes: dict[str, int] = {}
    for _, _, how in seen:
        codes[how] = codes.get(how, 0) + 1
    out["probe"] = codes
    out["probe_seen"] = seen[:40]
    out["client_close_codes"] = sorted({c for cl in clients for c in cl.codes if c is not None})
    out["survivors_lapsed"] = lapses[:10]
    line = await h.q("SELECT line FROM table_log WHERE table_id = :t AND seq = :s", t=tid,
                     s=pending.get("seq", -1))  # fmt: skip
    kept = json.loads(line[0][0]) if line else None
    out["held_line_kept"] = kept
    checked = await asyncio.to_thread(check, h.db, [public_id])
    out["finished"] = checked["finished"]
    out["verified"] = checked["verified"]
    out["problems"] += checked["problems"]
    out["undone"] = []
    if out["done_before_commit"] and (
        kept is None or kept.get("t") != "act" or kept.get("action") != pending["action"]
    ):  # kept apart from the problems: the table's part of issue 36 (its item 2)
        out["undone"].append(
            f"told done for {pending['action']!r}, the log keeps {kept} at line {pending.get('seq')}"
        )
    if lapses:
        out["problems"].append(f"a live process looked dead {len(lapses)} times")
    if out.get("adopt_s") is None or out["adopt_s"] > 2 * L:
        out["problems"].append(
            f"the table was not taken over within 2 leases: {out.get('adopt_s')}"
        )
    if out.get("stuck_session_s") is None:
        out["problems"].append("the dead owner's stuck database session never ended")
    if codes.get("4404") or 4404 in out["client_close_codes"]:
        out["problems"].append(
            f"a reconnect during the take-over was told 'no such table': {codes}"
        )
    if checked["finished"] != 1:
        out["problems"].append("the table did not finish")
    return out


async def _true(value: bool) -> bool:
    return value


# --- the run ---------------------------------------------------------------------------------------
async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    db = Database(args.pg_admin)
    work = Path(tempfile.mkdtemp(prefix="hkmj-faults-"))
    h = Harness(args, db, work)
    result: dict[str, Any] = {"procs": args.procs, "lease_s": args.lease, "seed": args.seed,
                              "scenarios": {}, "problems": [], "logs": str(work)}  # fmt: skip
    runners = {"lapse": scenario_lapse, "stuck": scenario_stuck, "paused": scenario_paused}
    started = time.monotonic()
    try:
        await h.start(args.procs)
        result["start_s"] = round(time.monotonic() - started, 1)
        for name in args.scenario or SCENARIOS:
            began = time.monotonic()
            got = await runners[name](h)
            got["seconds"] = round(time.monotonic() - began, 1)
            result["scenarios"][name] = got
            result["problems"] += [f"{name}: {p}" for p in got["problems"]]
            result["problems"] += [f"{name}: an acknowledged action was undone: {u}"
                                   for u in got.get("undone", [])]  # fmt: skip
    finally:
        sizes = {s.log: s.log.stat().st_size if s.log.exists() else 0 for s in h.servers}
        exits = [s.stop() for s in h.servers if s.proc.poll() is None]
        result["graceful_exits"] = exits
        if any(code not in (0, -signal.SIGTERM) for code in exits):
            result["problems"].append(f"a graceful stop failed: {exits}")
        for log, size in sizes.items():
            with contextlib.suppress(OSError), log.open("rb") as f:
                f.seek(size)
                tail = f.read().decode("utf-8", "replace")
                if "Traceback" in tail:
                    result["problems"].append(f"a traceback while stopping, {log.name}: "
                                              f"{tail[tail.index('Traceback'):][:1500]}")  # fmt: skip
        await h.http.aclose()
        with contextlib.suppress(Exception):
            import redis

            r = redis.Redis.from_url(args.redis)
            keys = list(r.scan_iter(f"{h.prefix}:*"))
            if keys:
                r.delete(*keys)
            r.close()
        db.drop()
        result["seconds"] = round(time.monotonic() - started, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=3)
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="the scenarios to run (repeat; default every one)")  # fmt: skip
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--hold", type=float, default=2.5,
                        help="stuck: how many leases the lease row stays locked after the kill")  # fmt: skip
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--budget", type=float, default=60.0,
                        help="paused: seconds to play the table to its end")  # fmt: skip
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
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
