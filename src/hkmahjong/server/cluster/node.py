"""節點 one ``hkmj serve`` process among several (docs/deploy.md).

:class:`Cluster` keeps this process's heartbeat (a thread and a database connection of its own:
neither a busy event loop nor a full pool can make a live process look dead), takes over the open tables no
live process owns (every third of the lease: :meth:`Cluster.sweep`; several at a time, each
giving up quickly on a lease row that stays locked), drops a table whose lease it lost, and hands
every table over when it stops. A client may reach any process: a table's socket held here for
a table owned elsewhere is a :class:`Proxy` (the client's frames go to the owner, the owner's
frames for that connection come back — each connection addressed alone, so a seat still receives
only what its own view holds, a spectator only the public frames), and the owner serves it with
a :class:`RemoteConnection`, as any connection of its own. HTTP requests for such a table go to
the owner too (:mod:`hkmahjong.server.cluster.forward`). Lobby listings are shared through
Redis, each rewritten on a timer with an expiry, so every process's ``/ws/lobby`` lists every live
process's tables (within seconds of a heartbeat lapse, too).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hkmahjong.parlor.environ import env_number
from hkmahjong.parlor.league_tables import LeagueTables
from hkmahjong.parlor.lobby import Lobby, quick_listed
from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.parlor.table import Table, TableError
from hkmahjong.server.cluster.bus import Bus, Message
from hkmahjong.server.cluster.leases import LeaseBook, Limits, Located, cluster_store
from hkmahjong.server.cluster.store import ClusterTableStore, FencedLedger, Fences
from hkmahjong.server.store.db import Store
from hkmahjong.server.ws import WsConnection, _Attached, bind

__all__ = ["CLOSE_MOVED", "CLOSE_RETRY", "Cluster", "ClusterConfig", "Proxy", "RemoteConnection"]

log = logging.getLogger(__name__)

CLOSE_MOVED = 1012
"""The close code of a socket whose table moves to another process (or whose process stops):
the client reconnects, to any process (websocket's "service restart")."""
CLOSE_RETRY = 1013
"""The close code of a socket whose table is open but being taken over (no live process has
rebuilt it yet): the client waits a moment and reconnects (websocket's "try again later"),
never told "no such table" (4404, final)."""
ADOPT_AT_ONCE = 4
"""How many tables one sweep rebuilds at a time (one slow table never holds the others up)."""
LISTING_EVERY_MAX = 2.0
"""A process rewrites its lobby listing in Redis at least this often (seconds; a third of the
lease when shorter); the listing expires after three such periods without one."""


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """How this process joins the others: Redis, the key prefix, the lease, its name."""

    redis_url: str
    prefix: str = "hkmj"
    lease_s: float = 10.0
    owner: str = ""

    @classmethod
    def from_env(cls, redis_url: str | None = None) -> ClusterConfig | None:
        """``HKMJ_REDIS_URL`` (or ``redis_url``), ``HKMJ_CLUSTER_PREFIX``,
        ``HKMJ_LEASE_SECONDS``, ``HKMJ_NODE_ID``; None when no Redis is named (one process).

        :raises ValueError: when the lease is not from 1 to 300 seconds.
        """
        url = redis_url or os.environ.get("HKMJ_REDIS_URL")
        if not url:
            return None
        lease = env_number("HKMJ_LEASE_SECONDS", "10", low=1, high=300, seconds=True)
        owner = os.environ.get("HKMJ_NODE_ID") or (
            f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(3)}"
        )
        return cls(url, os.environ.get("HKMJ_CLUSTER_PREFIX", "hkmj"), lease, owner[:64])


class RemoteConnection:
    """A client connected to another process, as a table here sees it: its frames are sent to
    that process, addressed to that one connection."""

    __slots__ = ("bus", "cid", "closed", "origin")

    def __init__(self, bus: Bus, origin: str, cid: str) -> None:
        self.bus, self.origin, self.cid = bus, origin, cid
        self.closed = False

    def send(self, text: str) -> None:
        """Queue ``text`` for the client."""
        if not self.closed:
            self.bus.send(self.origin, {"k": "out", "c": self.cid, "x": text})

    def close(self, code: int, reason: str) -> None:
        """Close the client's socket."""
        if not self.closed:
            self.closed = True
            self.bus.send(self.origin, {"k": "close", "c": self.cid, "code": code, "why": reason})


class Proxy:
    """A client's table socket held here for a table live elsewhere (or not yet found): its
    frames wait until the table is found, then go to the owner (or to the table, once it is
    taken over here)."""

    __slots__ = ("buffer", "cid", "cluster", "conn", "ended", "local", "owner")

    def __init__(self, cluster: Cluster, conn: WsConnection) -> None:
        self.cluster = cluster
        self.conn = conn
        self.cid = secrets.token_hex(8)
        self.owner: str | None = None
        self.local: _Attached[WsConnection] | None = None
        self.buffer: list[str] = []
        self.ended = False

    def deliver(self, data: str | bytes) -> None:
        """A frame from the client."""
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        if self.local is not None:
            self.local.deliver(text)
        elif self.owner is not None:
            message = {"k": "in", "c": self.cid, "o": self.cluster.owner, "x": text}
            self.cluster.send(self.owner, message)
        else:
            self.buffer.append(text)

    def detach(self) -> None:
        """The client went away."""
        self.ended = True
        self.cluster.proxies.pop(self.cid, None)
        if self.local is not None:
            self.local.detach()
        elif self.owner is not None:
            self.cluster.send(self.owner, {"k": "end", "c": self.cid, "o": self.cluster.owner})


class Cluster:
    """This process among several: leases, take-overs, and the tables' traffic between them."""

    def __init__(self, config: ClusterConfig, store: Store, *, address: str = "") -> None:
        self.config = config
        self.owner = config.owner
        self.limits = Limits.for_lease(config.lease_s)
        self.store = cluster_store(store, self.limits)
        """The tables', their jade's and the leases' database connections, every wait bounded
        (:class:`~hkmahjong.server.cluster.leases.Limits`)."""
        self.book = LeaseBook(
            self.store, config.owner, ttl=config.lease_s, address=address, limits=self.limits
        )
        self.fences = Fences(config.owner)
        self.fences.on_lost = self._lost
        self.tables = ClusterTableStore(self.store, self.book, self.fences)
        self.ledger = FencedLedger(self.store, self.fences)
        self.bus: Bus | None = None
        self.lobby: Lobby | None = None
        self.app: Any = None
        """The ASGI app that serves requests forwarded here."""
        self.live: set[str] = set()
        self.proxies: dict[str, Proxy] = {}
        self.remote: dict[tuple[str, str], _Attached[RemoteConnection]] = {}
        self.requests: dict[str, asyncio.Future[Message]] = {}
        self._adopting: dict[int, asyncio.Task[Table | None]] = {}
        self._adopting_public: dict[str, asyncio.Task[Table | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._beater: threading.Thread | None = None
        self._halt = threading.Event()
        """Set when the heartbeat thread is to end."""
        self.beaten: float | None = None
        """When (``time.monotonic()``) the heartbeat last succeeded."""
        self.closing = False
        self._listing_due = False
        self._lobby_dirty = False
        self._lobby_reading = False
        self.adopted = 0
        self.dropped = 0
        self.league_tables: LeagueTables | None = None
        """The leagues' rounds: played by one process at a time, the leader, which alone owns
        the league tables (their rounds read and close tables live in this process)."""
        self.leader = False

    def live_tables(self) -> int:
        """How many open tables are live in this process."""
        lobby = self.lobby
        return 0 if lobby is None else sum(1 for t in lobby.tables.values() if t.open)

    @property
    def every(self) -> float:
        """How often the heartbeat and the sweep run: a third of the lease."""
        return self.config.lease_s / 3

    @property
    def listing_every(self) -> float:
        """How often this process rewrites its lobby listing in Redis."""
        return min(self.every, LISTING_EVERY_MAX)

    def send(self, owner: str, message: Message) -> None:
        """Queue a message for the process ``owner`` (dropped once the bus is stopped)."""
        if self.bus is not None:
            self.bus.send(owner, message)

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    def _spawn(self, coro: Awaitable[Any], name: str) -> None:
        if self.closing:  # stopping: nothing new starts (it would race the bus closing)
            if asyncio.iscoroutine(coro):
                coro.close()
            return
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- life -----------------------------------------------------------------------------------
    async def start(self, lobby: Lobby) -> None:
        """Join: heartbeat, the bus, take over the tables nobody alive owns; from now on the
        heartbeat, the sweep and the lobby listing each run on their own timer."""
        self.lobby = lobby
        lobby.on_listing = self._listing_changed
        for attempt in range(3):  # a database that does not answer at all stops the start
            try:
                self._set_live(await asyncio.to_thread(self._beat_once))
                break
            except Exception as exc:
                if attempt == 2:
                    raise
                log.warning("cluster %s: the first heartbeat failed (%s); again", self.owner, exc)
                await asyncio.sleep(0.5)
        self._halt.clear()
        self._beater = threading.Thread(
            target=self._beat_thread,
            args=(asyncio.get_running_loop(),),
            name="hkmj-heartbeat",
            daemon=True,
        )
        self._beater.start()
        self.bus = Bus(self.config.redis_url, self.config.prefix, self.owner)
        self.bus.handle = self._handle
        self.bus.on_lobby = self._lobby_heard
        await self.bus.start()
        try:
            await self.sweep()
        except Exception:  # the sweep comes again every third of the lease
            log.exception("cluster %s: the first sweep failed; again in %.1f s", self.owner,
                          self.every)  # fmt: skip
        self._loops = [
            asyncio.create_task(self._sweep_loop(), name="cluster-sweep"),
            asyncio.create_task(self._listing_loop(), name="cluster-listing"),
        ]
        self._listing_changed()

    async def stop(self) -> None:
        """Leave: drop every table here (their clients reconnect elsewhere), hand the leases
        over at once, close the proxies, stop the bus — in that order, each part finished
        before the next (nothing still running meets the bus closed). The heartbeat goes on
        until the leases are handed over: a slow stop never lets another process take a table
        that is still live here."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        self.closing = True
        loops, self._loops = self._loops, []
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        if self.bus is not None:  # hear nothing more: no new work starts while stopping
            self.bus.handle = lambda message: None
            self.bus.on_lobby = lambda owner: None
        adopting = list(self._adopting.values())
        for adoption in adopting:
            adoption.cancel()
        await asyncio.gather(*adopting, return_exceptions=True)
        lobby = self.lobby
        if lobby is not None:
            lobby.on_listing = None
            for public_id in list(lobby.tables):
                await lobby.drop(public_id, CLOSE_MOVED, "the server stops; reconnect")
        self.fences.held.clear()
        if self.league_tables is not None and self.leader:
            await self.league_tables.stop()
        self.leader = False
        await self._db(self.book.resign)
        await asyncio.to_thread(self._stop_beating)  # its last beat done: leave after it
        try:
            await self._db(self.book.leave)
        except Exception:
            log.exception("cluster: could not hand the tables over (they expire instead)")
        await self._db(self.book.close_heartbeat)
        for proxy in list(self.proxies.values()):
            proxy.conn.close(CLOSE_MOVED, "the server stops; reconnect")
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.bus.forget_listing(self.owner), 2)
            await self.bus.stop()
            self.bus = None
        took = loop.time() - began
        if took > self.config.lease_s:
            log.warning("cluster %s: stopping took %.1f s", self.owner, took)

    def close(self) -> None:
        """Close the cluster's database connections (after :meth:`stop` and the lobby's)."""
        self.store.close()

    def _beat_once(self) -> set[str]:
        """One heartbeat (in the calling thread): the processes alive now.

        :raises Exception: the database's error, when it could not be renewed.
        """
        live = self.book.heartbeat()
        self.beaten = time.monotonic()
        return live

    def _beat_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        """The heartbeat: every third of the lease, in a thread of its own — whatever the event
        loop is doing. A failed beat is tried again within half a second (the lease allows two
        more periods); once none has succeeded for a whole lease, the other processes may take
        this one's tables, so they are dropped here (:meth:`_fence_self`)."""
        while not self._halt.is_set():
            began = time.monotonic()
            try:
                live = self._beat_once()
                wait = self.every
            except Exception as exc:
                wait = min(self.every, 0.5)
                log.warning("cluster %s: the heartbeat failed (%s); again in %.1f s",
                            self.owner, exc, wait)  # fmt: skip
                beaten = self.beaten
                if beaten is None or time.monotonic() - beaten > self.config.lease_s:
                    self._to_loop(loop, self._fence_self)
            else:
                self._to_loop(loop, self._set_live, live)
            self._halt.wait(max(0.0, wait - (time.monotonic() - began)))

    @staticmethod
    def _to_loop(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the process ends
            loop.call_soon_threadsafe(fn, *args)

    def _stop_beating(self) -> None:
        """Stop the heartbeat thread after its current beat (blocking: a worker thread's)."""
        self._halt.set()
        beater, self._beater = self._beater, None
        if beater is not None:
            beater.join(self.limits.beat_ms / 1000 + 1)

    def _fence_self(self) -> None:
        """No heartbeat for a lease (the database out of reach, or this process starved):
        this process may be taken for dead, so it stops its tables now and closes their
        sockets with 1012 — the clients reconnect, to a process that can serve them — rather
        than let them wait for writes that must fail. Taken over again (here or elsewhere)
        once the database answers."""
        lobby = self.lobby
        if lobby is None or not lobby.tables:
            return
        log.warning("cluster %s: no heartbeat for %.1f s; dropping the %d tables here",
                    self.owner, self.config.lease_s, len(lobby.tables))  # fmt: skip
        self.fences.held.clear()
        for public_id in list(lobby.tables):
            self.dropped += 1
            self._spawn(
                lobby.drop(public_id, CLOSE_MOVED, "this server lost its database; reconnect"),
                f"drop-{public_id}",
            )

    def _set_live(self, live: set[str]) -> None:
        """The processes alive now: close the sockets whose other end no longer is, and read
        the lobby listings again when the set changed."""
        if live == self.live:
            return
        gone = self.live - live
        self.live = live
        for proxy in list(self.proxies.values()):
            if proxy.owner is not None and proxy.owner not in live:
                proxy.conn.close(CLOSE_MOVED, "the table moves to another server; reconnect")
        for key, attached in list(self.remote.items()):
            if key[0] not in live:
                self.remote.pop(key, None)
                attached.conn.closed = True
                attached.detach()
        if gone:
            log.info("cluster %s: not alive now: %s", self.owner, ", ".join(sorted(gone)))
        self._refresh_soon()  # a process back from a lapse is listed again at once

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception:
                log.exception("cluster: the sweep failed; again in %.1f s", self.every)

    async def sweep(self) -> None:
        """Drop the tables whose lease another process took; take over those no live process
        owns (:data:`ADOPT_AT_ONCE` at a time; one whose lease row stays locked is left for
        the next sweep)."""
        await self._lead()
        before = dict(self.fences.held)  # a take-over while the query runs is not a loss
        held: dict[int, int] = await self._db(self.book.held)
        for table_id, fence in before.items():
            if held.get(table_id) != fence[1] and self.fences.held.get(table_id) == fence:
                self.fences.lost(table_id)
        orphans: list[int] = await self._db(self.book.orphans)
        # Held here by the database but not live here (dropped after a refused write that did
        # not mean a take-over): nobody else would take them, so take them again.
        orphans += [t for t in held if t not in self.fences.held and t not in self._adopting]
        turns = asyncio.Semaphore(ADOPT_AT_ONCE)

        async def one(table_id: int) -> None:
            async with turns:
                try:
                    await self.adopt(table_id)
                except Exception:
                    log.exception("cluster %s: taking table %d over failed", self.owner, table_id)

        await asyncio.gather(*(one(t) for t in orphans))
        self._refresh_soon()  # a lost lobby message is made good within one sweep

    async def _lead(self) -> None:
        """Become the leader when no process is (the leagues' rounds start here), or notice
        that this process no longer is (they stop)."""
        leads: bool = await self._db(self.book.try_lead)
        if leads == self.leader:
            return
        self.leader = leads
        if self.league_tables is None:
            return
        if leads:
            log.info("cluster %s: leading (the leagues' rounds are played here)", self.owner)
            self._spawn(self.league_tables.start(), "league-tables-start")
        else:
            await self.league_tables.stop()

    # --- tables ---------------------------------------------------------------------------------
    async def adopt(self, table_id: int) -> Table | None:
        """Take the table over if no live process owns it: acquire its lease (the epoch grows)
        and rebuild it from its log; the live table, or None. One take-over of a table at a
        time in this process: a second call waits for the first."""
        running = self._adopting.get(table_id)
        if running is None:
            if self.closing:
                return None
            running = asyncio.create_task(self._adopt(table_id), name=f"adopt-{table_id}")
            self._adopting[table_id] = running
            running.add_done_callback(lambda _: self._adopting.pop(table_id, None))
        return await asyncio.shield(running)

    async def _adopt(self, table_id: int) -> Table | None:
        lobby = self.lobby
        assert lobby is not None
        if table_id in self.fences.held:
            return next((t for t in lobby.tables.values() if t.id == table_id), None)
        found = await self.tables.get(table_id)
        if found is None:
            return None
        if found.config.get("league") is not None and not self.leader:
            return None  # a league's table: the leader takes it
        task = self._adopting.get(table_id)
        if task is not None:  # a reconnect for it meanwhile waits for it (not "no such table")
            self._adopting_public[found.public_id] = task
        try:
            return await self._take(table_id)
        finally:
            self._adopting_public.pop(found.public_id, None)

    async def _take(self, table_id: int) -> Table | None:
        lobby = self.lobby
        assert lobby is not None
        epoch = await self._db(self.book.acquire, table_id)
        if epoch is None:
            return None
        self.fences.held[table_id] = (self.owner, epoch)
        row = await self.tables.get(table_id)
        if row is None or row.status not in OPEN_STATUSES:
            return None
        if row.public_id in lobby.tables:  # a stale copy (lost, then taken back)
            await lobby.drop(row.public_id, CLOSE_MOVED, "the table was rebuilt; reconnect")
        table = await lobby.adopt(row)
        self.adopted += 1
        log.info("cluster %s: took table %s over (epoch %d)", self.owner, row.public_id, epoch)
        return table

    def _lost(self, table_id: int) -> None:
        lobby = self.lobby
        if lobby is None:
            return
        for public_id, table in list(lobby.tables.items()):
            if table.id == table_id:
                self.dropped += 1
                log.warning("cluster %s: lost table %s; dropping it", self.owner, public_id)
                self._spawn(
                    lobby.drop(public_id, CLOSE_MOVED, "the table moved to another server"),
                    f"drop-{public_id}",
                )

    async def locate(self, public_id: str) -> Located | None:
        """Where the table is (None: no such table); one with no live owner that is open is
        taken over here first, and one this process is taking over is waited for. Its owner
        is still None when it could not be taken over now (its lease row is locked, or it is a
        league's table and this process does not lead): the client is to retry."""
        lobby = self.lobby
        for _ in range(3):
            where: Located | None = await self._db(self.book.locate, public_id)
            if where is None or where.status not in OPEN_STATUSES:
                return where
            if where.owner is not None and where.owner != self.owner:
                return where
            if where.owner == self.owner and (lobby is None or lobby.get(public_id) is not None):
                return where
            # No live owner, or this process but not live here yet (being rebuilt).
            await self.adopt(where.table_id)
        return where

    # --- sockets held here for tables elsewhere ---------------------------------------------------
    def attach(
        self, public_id: str, user_id: int | None, invite: str | None, conn: WsConnection
    ) -> _Attached[WsConnection]:
        """Admit ``conn`` to a table not live here: its frames wait while the table is found."""
        proxy = Proxy(self, conn)
        self.proxies[proxy.cid] = proxy
        self._spawn(self._connect(proxy, public_id, user_id, invite), f"proxy-{proxy.cid}")
        return _Attached(conn, proxy.deliver, proxy.detach)

    async def _connect(
        self, proxy: Proxy, public_id: str, user_id: int | None, invite: str | None
    ) -> None:
        lobby = self.lobby
        assert lobby is not None and self.bus is not None
        try:
            where = await self.locate(public_id)
        except Exception:
            log.exception("cluster: locating table %s failed", public_id)
            proxy.conn.close(CLOSE_RETRY, "try again later")
            return
        if proxy.ended:
            return
        table = lobby.get(public_id)
        if table is not None:
            got = bind(table, user_id, invite, lambda: proxy.conn)
            if isinstance(got, tuple):
                proxy.conn.close(*got)
                return
            proxy.local = got
        elif where is not None and where.owner is not None and where.owner != self.owner:
            proxy.owner = where.owner
            self.bus.send(
                where.owner,
                {"k": "open", "c": proxy.cid, "o": self.owner, "p": public_id, "u": user_id,
                 "i": invite},
            )  # fmt: skip
        elif where is None or where.status not in OPEN_STATUSES:
            proxy.conn.close(4404, "no such table")
            return
        else:  # open, but no live process has it rebuilt yet
            proxy.conn.close(CLOSE_RETRY, "the table is being taken over; retry in a moment")
            return
        buffered, proxy.buffer = proxy.buffer, []
        for text in buffered:
            proxy.deliver(text)

    # --- the bus ----------------------------------------------------------------------------------
    def _handle(self, m: Message) -> None:
        kind = m["k"]
        if kind == "out":
            proxy = self.proxies.get(m["c"])
            if proxy is not None:
                proxy.conn.send(m["x"])
        elif kind == "in":
            got = self.remote.get((m["o"], m["c"]))
            if got is not None:
                got.deliver(m["x"])
        elif kind == "close":
            proxy = self.proxies.get(m["c"])
            if proxy is not None:
                proxy.conn.close(int(m["code"]), str(m["why"]))
        elif kind == "open":
            self._open_remote(m)
        elif kind == "end":
            got = self.remote.pop((m["o"], m["c"]), None)
            if got is not None:
                got.conn.closed = True
                got.detach()
        elif kind == "req":
            self._spawn(self._serve_forwarded(m), f"req-{m['r']}")
        elif kind == "join":
            self._spawn(self._serve_join(m), f"join-{m['r']}")
        elif kind == "resp":
            future = self.requests.pop(m["r"], None)
            if future is not None and not future.done():
                future.set_result(m)

    def _open_remote(self, m: Message) -> None:
        assert self.bus is not None and self.lobby is not None
        public_id = str(m["p"])
        if self.lobby.get(public_id) is None and public_id in self._adopting_public:
            self._spawn(self._open_adopted(m), f"open-{m['c']}")
            return
        self._bind_remote(m)

    async def _open_adopted(self, m: Message) -> None:
        """A socket for a table this process is rebuilding: admitted once it is live."""
        task = self._adopting_public.get(str(m["p"]))
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        self._bind_remote(m)

    def _bind_remote(self, m: Message) -> None:
        assert self.bus is not None and self.lobby is not None
        origin, cid = str(m["o"]), str(m["c"])
        table = self.lobby.get(str(m["p"]))
        conn = RemoteConnection(self.bus, origin, cid)
        if table is None:
            conn.close(CLOSE_MOVED, "the table moved to another server; reconnect")
            return
        got = bind(table, m.get("u"), m.get("i"), lambda: conn)
        if isinstance(got, tuple):
            conn.close(*got)
            return
        self.remote[(origin, cid)] = got

    # --- HTTP requests for tables elsewhere ---------------------------------------------------------
    async def forward(self, owner: str, request: Message) -> Message:
        """Send an HTTP request to the process ``owner`` and wait for its answer (bound the wait
        with ``asyncio.timeout``: :data:`FORWARD_SECONDS` in the middleware)."""
        return await self.call(owner, "req", request)

    async def _serve_forwarded(self, m: Message) -> None:
        from hkmahjong.server.cluster.forward import serve_request

        answer = await serve_request(self.app, m)
        assert self.bus is not None
        self.bus.send(str(m["o"]), {**answer, "k": "resp", "r": m["r"]})

    # --- quick match across processes --------------------------------------------------------------
    async def quick_join(self, user_id: int, name: str, level: int = 1) -> str | None:
        """快速配對 at another process's waiting quick-match table of ``level``: the public id
        of the table joined, or None (none listed, or every one refused: full, started, the
        balance)."""
        if self.bus is None:
            return None
        listings = await self.bus.listings()
        for owner, listing in sorted(listings.items()):
            if owner == self.owner or owner not in self.live:
                continue
            for info in listing:
                if not quick_listed(info, level):
                    continue
                request = {"p": info["id"], "u": user_id, "n": name}
                try:
                    async with asyncio.timeout(5.0):
                        answer = await self.call(owner, "join", request)
                except TimeoutError:
                    break
                if answer.get("ok"):
                    return str(info["id"])
        return None

    async def call(self, owner: str, kind: str, message: Message) -> Message:
        """Send a request of ``kind`` to the process ``owner`` and wait for its answer (the
        caller bounds the wait: ``async with asyncio.timeout(...)``)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.requests[rid] = future
        self.send(owner, {**message, "k": kind, "r": rid, "o": self.owner})
        try:
            return await future
        finally:
            self.requests.pop(rid, None)

    async def _serve_join(self, m: Message) -> None:
        assert self.lobby is not None
        table = self.lobby.get(str(m["p"]))
        answer: Message = {"ok": False}
        if table is not None:
            try:
                await table.join(int(m["u"]), str(m["n"]))
                answer = {"ok": True}
            except TableError as exc:
                answer = {"ok": False, "code": exc.code}
        self.send(str(m["o"]), {**answer, "k": "resp", "r": m["r"]})

    # --- the lobby ----------------------------------------------------------------------------------
    def _listing_changed(self) -> None:
        if self._listing_due or self.bus is None or self.closing:
            return
        self._listing_due = True
        asyncio.get_running_loop().call_later(0.05, self._publish_listing)

    def _publish_listing(self) -> None:
        self._listing_due = False
        if self.bus is not None and self.lobby is not None:
            self._spawn(self._write_listing(), "lobby-publish")

    async def _write_listing(self) -> None:
        bus, lobby = self.bus, self.lobby
        if bus is None or lobby is None or self.closing:
            return
        try:
            await bus.publish_listing(lobby.local_listing(), ttl=3 * self.listing_every)
        except Exception as exc:  # Redis away: the timer writes it again
            if not self.closing:
                log.warning("cluster %s: writing the lobby listing failed: %s", self.owner, exc)

    async def _listing_loop(self) -> None:
        """Rewrite this process's listing (it expires unless rewritten: a process that died
        leaves none behind) and read the others' again, whether or not anything changed — so a
        listing lost or expired during a lapse is back within one period."""
        while True:
            await asyncio.sleep(self.listing_every)
            await self._write_listing()
            self._refresh_soon()

    def _lobby_heard(self, owner: str) -> None:
        if owner != self.owner:
            self._refresh_soon()

    def _refresh_soon(self) -> None:
        """Read the other processes' listings again: one read at a time, and one more after it
        when something changed meanwhile (an older read never overwrites a newer one)."""
        if self.closing:
            return
        self._lobby_dirty = True
        if not self._lobby_reading:
            self._lobby_reading = True
            self._spawn(self._refresh_lobby(), "lobby-refresh")

    async def _refresh_lobby(self) -> None:
        try:
            while (
                self._lobby_dirty
                and not self.closing
                and self.bus is not None
                and self.lobby is not None
            ):
                self._lobby_dirty = False
                listings = await self.bus.listings()
                merged = self._merge(listings)
                if merged != self.lobby.remote_listing:
                    self.lobby.remote_listing = merged
                    self.lobby.refresh()
        except Exception as exc:  # Redis away: the next period reads again
            if not self.closing:
                log.warning("cluster %s: reading the lobby listings failed: %s", self.owner, exc)
        finally:
            self._lobby_reading = False

    def _merge(self, listings: dict[str, list[Any]]) -> list[Any]:
        """The other live processes' listings, each table once and none live here (a table
        just taken over may still be in its old owner's listing until that expires)."""
        assert self.lobby is not None
        seen: set[Any] = set(self.lobby.tables)
        merged: list[Any] = []
        for owner, listing in sorted(listings.items()):
            if owner == self.owner or (self.live and owner not in self.live):
                continue
            for info in listing:
                ident = info.get("id") if isinstance(info, dict) else None
                if ident in seen:
                    continue
                seen.add(ident)
                merged.append(info)
        return merged
