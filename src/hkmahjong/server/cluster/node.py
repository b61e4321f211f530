"""節點 one ``hkmj serve`` process among several (docs/deploy.md).

:class:`Cluster` keeps this process's heartbeat, takes over the open tables no live process owns
(every third of the lease: :meth:`Cluster.sweep`), drops a table whose lease it lost, and hands
every table over when it stops. A client may reach any process: a table's socket held here for
a table owned elsewhere is a :class:`Proxy` (the client's frames go to the owner, the owner's
frames for that connection come back — each connection addressed alone, so a seat still receives
only what its own view holds, a spectator only the public frames), and the owner serves it with
a :class:`RemoteConnection`, as any connection of its own. HTTP requests for such a table go to
the owner too (:mod:`hkmahjong.server.cluster.forward`). Lobby listings are shared through
Redis, so every process's ``/ws/lobby`` lists every process's tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hkmahjong.parlor.league_tables import LeagueTables
from hkmahjong.parlor.lobby import Lobby, quick_listed
from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.parlor.table import Table, TableError
from hkmahjong.server.cluster.bus import Bus, Message
from hkmahjong.server.cluster.leases import LeaseBook, Located
from hkmahjong.server.cluster.store import ClusterTableStore, FencedLedger, Fences
from hkmahjong.server.store.db import Store
from hkmahjong.server.ws import WsConnection, _Attached, bind

__all__ = ["CLOSE_MOVED", "Cluster", "ClusterConfig", "Proxy", "RemoteConnection"]

log = logging.getLogger(__name__)

CLOSE_MOVED = 1012
"""The close code of a socket whose table moves to another process (or whose process stops):
the client reconnects, to any process (websocket's "service restart")."""


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
        lease = float(os.environ.get("HKMJ_LEASE_SECONDS", "10"))
        if not 1 <= lease <= 300:
            raise ValueError(f"HKMJ_LEASE_SECONDS={lease}: expected 1 to 300 seconds")
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
        self.book = LeaseBook(store, config.owner, ttl=config.lease_s, address=address)
        self.fences = Fences(config.owner)
        self.fences.on_lost = self._lost
        self.tables = ClusterTableStore(store, self.book, self.fences)
        self.ledger = FencedLedger(store, self.fences)
        self.bus: Bus | None = None
        self.lobby: Lobby | None = None
        self.app: Any = None
        """The ASGI app that serves requests forwarded here."""
        self.live: set[str] = set()
        self.proxies: dict[str, Proxy] = {}
        self.remote: dict[tuple[str, str], _Attached[RemoteConnection]] = {}
        self.requests: dict[str, asyncio.Future[Message]] = {}
        self._adopting: dict[int, asyncio.Task[Table | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
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

    def send(self, owner: str, message: Message) -> None:
        """Queue a message for the process ``owner`` (dropped once the bus is stopped)."""
        if self.bus is not None:
            self.bus.send(owner, message)

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    def _spawn(self, coro: Awaitable[Any], name: str) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- life -----------------------------------------------------------------------------------
    async def start(self, lobby: Lobby) -> None:
        """Join: heartbeat, the bus, take over the tables nobody alive owns, sweep from now on."""
        self.lobby = lobby
        lobby.on_listing = self._listing_changed
        await self._db(self.book.heartbeat)
        self.bus = Bus(self.config.redis_url, self.config.prefix, self.owner)
        self.bus.handle = self._handle
        self.bus.on_lobby = self._lobby_heard
        await self.bus.start()
        await self.sweep()
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="cluster-sweep")
        self._listing_changed()

    async def stop(self) -> None:
        """Leave: drop every table here (their clients reconnect elsewhere), hand the leases
        over at once, close the proxies, stop the bus."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
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
        try:
            await self._db(self.book.leave)
        except Exception:
            log.exception("cluster: could not hand the tables over (they expire instead)")
        for proxy in list(self.proxies.values()):
            proxy.conn.close(CLOSE_MOVED, "the server stops; reconnect")
        for task in list(self._tasks):
            task.cancel()
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await self.bus.forget_listing(self.owner)
            await self.bus.stop()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception:
                log.exception("cluster: the sweep failed; again in %.1f s", self.every)

    async def sweep(self) -> None:
        """Heartbeat; drop the tables whose lease another process took; take over those no live
        process owns; close the sockets whose other end is no longer alive."""
        await self._db(self.book.heartbeat)
        await self._lead()
        live: set[str] = await self._db(self.book.live_nodes)
        gone = self.live - live
        self.live = live
        before = dict(self.fences.held)  # a take-over while the query runs is not a loss
        held: dict[int, int] = await self._db(self.book.held)
        for table_id, fence in before.items():
            if held.get(table_id) != fence[1] and self.fences.held.get(table_id) == fence:
                self.fences.lost(table_id)
        orphans: list[int] = await self._db(self.book.orphans)
        # Held here by the database but not live here (dropped after a refused write that did
        # not mean a take-over): nobody else would take them, so take them again.
        orphans += [t for t in held if t not in self.fences.held and t not in self._adopting]
        for table_id in orphans:
            await self.adopt(table_id)
        for proxy in list(self.proxies.values()):
            if proxy.owner is not None and proxy.owner not in live:
                proxy.conn.close(CLOSE_MOVED, "the table moves to another server; reconnect")
        for key, attached in list(self.remote.items()):
            if key[0] not in live:
                self.remote.pop(key, None)
                attached.conn.closed = True
                attached.detach()
        if gone and self.bus is not None:
            for owner in gone:
                with contextlib.suppress(Exception):
                    await self.bus.forget_listing(owner)
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
        and rebuild it from its log; the live table, or None."""
        running = self._adopting.get(table_id)
        if running is None:
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
        if found is not None and found.config.get("league") is not None and not self.leader:
            return None  # a league's table: the leader takes it
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
        taken over here first."""
        for _ in range(3):
            where: Located | None = await self._db(self.book.locate, public_id)
            if where is None:
                return None
            if where.owner is not None or where.status not in OPEN_STATUSES:
                return where
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
            proxy.conn.close(1013, "try again later")
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
        else:
            proxy.conn.close(4404, "no such table")
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
    async def forward(self, owner: str, request: Message, timeout: float = 15.0) -> Message:
        """Send an HTTP request to the process ``owner`` and wait for its answer.

        :raises TimeoutError: when no answer comes in ``timeout`` seconds.
        """
        return await self.call(owner, "req", request, timeout)

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
                    answer = await self.call(owner, "join", request, timeout=5.0)
                except TimeoutError:
                    break
                if answer.get("ok"):
                    return str(info["id"])
        return None

    async def call(self, owner: str, kind: str, message: Message, timeout: float) -> Message:
        """Send a request of ``kind`` to the process ``owner`` and wait for its answer.

        :raises TimeoutError: when no answer comes in ``timeout`` seconds.
        """
        rid = secrets.token_hex(8)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.requests[rid] = future
        self.send(owner, {**message, "k": kind, "r": rid, "o": self.owner})
        try:
            return await asyncio.wait_for(future, timeout)
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
        if self._listing_due or self.bus is None:
            return
        self._listing_due = True
        asyncio.get_running_loop().call_later(0.05, self._publish_listing)

    def _publish_listing(self) -> None:
        self._listing_due = False
        if self.bus is not None and self.lobby is not None:
            self._spawn(self.bus.publish_listing(self.lobby.local_listing()), "lobby-publish")

    def _lobby_heard(self, owner: str) -> None:
        if owner != self.owner:
            self._refresh_soon()

    def _refresh_soon(self) -> None:
        """Read the other processes' listings again: one read at a time, and one more after it
        when something changed meanwhile (an older read never overwrites a newer one)."""
        self._lobby_dirty = True
        if not self._lobby_reading:
            self._lobby_reading = True
            self._spawn(self._refresh_lobby(), "lobby-refresh")

    async def _refresh_lobby(self) -> None:
        try:
            while self._lobby_dirty and self.bus is not None and self.lobby is not None:
                self._lobby_dirty = False
                listings = await self.bus.listings()
                merged: list[Any] = []
                for owner, listing in sorted(listings.items()):
                    if owner != self.owner and (owner in self.live or not self.live):
                        merged.extend(listing)
                if merged != self.lobby.remote_listing:
                    self.lobby.remote_listing = merged
                    self.lobby.refresh()
        except Exception:  # Redis away: the next sweep reads again
            log.exception("cluster: reading the lobby listings failed")
        finally:
            self._lobby_reading = False
