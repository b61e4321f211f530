"""應用 ``create_app(settings)``: the parlor's FastAPI application with every router included.

Each feature lives in its own module with a ``router`` (auth, REST API, tables, websockets, pages);
this module only wires them together, with the store and settings on ``app.state``.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from fastapi import FastAPI
from pwdlib import PasswordHash

from hkmahjong import __version__
from hkmahjong.hand import is_complete_counts, shanten_counts
from hkmahjong.parlor.clocks import ClockSettings as TableClocks
from hkmahjong.parlor.environ import env_number
from hkmahjong.parlor.league import LeagueDesk
from hkmahjong.parlor.league_tables import LeagueTables
from hkmahjong.parlor.lobby import Caps, Lobby
from hkmahjong.server import (
    api,
    auth,
    health,
    leagues,
    me,
    options,
    pages,
    players,
    replays,
    tables,
    ws,
)
from hkmahjong.server.auth import Auth, CookieMiddleware
from hkmahjong.server.faults import ServerFaults
from hkmahjong.server.headers import SecurityHeaders
from hkmahjong.server.heap import HeapKeeper, HeapSettings
from hkmahjong.server.limits import DOOR_RESPONSES, BodySizeLimit, SpectatorSlots, UrlLimits
from hkmahjong.server.logs import RequestIds
from hkmahjong.server.metrics import HttpMetrics, MetricsConfig, MetricsPort, ParlorMetrics
from hkmahjong.server.metrics import router as metrics_router
from hkmahjong.server.proxies import ClientAddress, TrustedProxies
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.leagues import SqlLeagueStore
from hkmahjong.server.store.tables import SqlTableStore

if TYPE_CHECKING:
    from hkmahjong.server.cluster.node import Cluster, ClusterConfig

__all__ = ["create_app"]

log = logging.getLogger(__name__)

STOP_DRAIN_S = 5.0
"""At a graceful stop (SIGTERM), how long each table may take to handle what its queue holds
(its commit in flight included) before it is stopped where it is (docs/operations.md)."""


def _league_sync() -> float:
    """``HKMJ_LEAGUE_SYNC_SECONDS``: how often league tables are synced (default 5; tests: less).

    :raises ValueError: when it is not a number of seconds from 0.05 to 3600.
    """
    return env_number("HKMJ_LEAGUE_SYNC_SECONDS", "5", low=0.05, high=3600, seconds=True)


def _settle_heap() -> None:
    """Build the hand tables the engine loads on first use, then move everything alive now
    (modules, those tables, the rebuilt tables) out of the garbage collector's sight.

    ``gc.freeze()``: a full collection walks every tracked object, and these hundreds of
    thousands live as long as the server, so each full collection would stop every table for
    their sake (a pause that grows with the heap, tens of milliseconds and more).
    """
    counts = [0] * 34
    for tile in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 27):
        counts[tile] += 1
    shanten_counts(counts)
    is_complete_counts(counts)
    gc.collect()
    gc.freeze()


def create_app(
    settings: Settings | None = None,
    *,
    store: Store | None = None,
    password_hash: PasswordHash | None = None,
    settle_heap: bool = False,
    cluster: ClusterConfig | None = None,
    metrics: MetricsConfig | None = None,
) -> FastAPI:
    """The parlor's app for ``settings`` (default: :meth:`Settings.from_env`).

    Opens the store (SQLite under the data directory, or ``settings.db_url``) and applies the
    migrations, unless an open ``store`` is given (tests share one); creates the data directory's
    secret on first start. ``password_hash`` replaces pwdlib's recommended argon2 parameters
    (tests use cheaper ones). ``settle_heap`` (``hkmj serve``): once the tables are rebuilt, load
    the engine's tables and freeze the heap out of the garbage collector's way (``_settle_heap``).

    On ``app.state``: ``settings``, ``store``, ``auth`` (:class:`~hkmahjong.server.auth.Auth`),
    ``lobby`` (:class:`~hkmahjong.parlor.lobby.Lobby`: the live tables, rebuilt at start),
    ``leagues`` (:class:`~hkmahjong.parlor.league.LeagueDesk` on the store), ``league_tables``
    (:class:`~hkmahjong.parlor.league_tables.LeagueTables`: league rounds at the lobby's tables).

    ``cluster`` (several processes on one PostgreSQL and one Redis, docs/deploy.md): tables are
    owned by lease and fenced, taken over from processes that died, reached from any process
    (``app.state.cluster``, :class:`~hkmahjong.server.cluster.node.Cluster`).

    ``metrics`` (default: :meth:`MetricsConfig.from_env`): where ``/metrics`` is served, if
    anywhere (docs/operations.md); when on, ``app.state.metrics`` is the
    :class:`~hkmahjong.server.metrics.ParlorMetrics` the tables, the ledger and the HTTP
    middleware report to, and ``app.state.metrics_port`` the separate listener's port, if any.
    """
    settings = (settings or Settings.from_env()).with_secret()
    league_sync = _league_sync()
    metrics = metrics if metrics is not None else MetricsConfig.from_env()
    heap = HeapSettings.from_env() if settle_heap else HeapSettings(0, 0)
    owned = store is None
    if store is None:
        store = Store.open(settings.database_url)
    opened: Store = store
    node: Cluster | None = None
    if cluster is not None:
        from hkmahjong.server.cluster.node import Cluster

        node = Cluster(cluster, store, address=settings.url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby: Lobby = app.state.lobby
        league_tables: LeagueTables = app.state.league_tables
        if node is None:
            await lobby.start()  # rebuild every unfinished table from its log
            await league_tables.start()  # open, collect and close league tables; every few s
        else:  # take over the tables no live process owns, one by one (docs/deploy.md)
            await lobby.start(rebuild=False)
            await node.start(lobby)
        keeper = HeapKeeper(heap)
        app.state.heap = keeper
        if settle_heap:
            _settle_heap()
            keeper.start()
        port: MetricsPort | None = None
        if counted is not None and metrics.port is not None:
            port = MetricsPort(counted, metrics.host, metrics.port)
            app.state.metrics_port = await port.start()
        try:
            yield
        finally:
            if port is not None:
                await port.stop()
            await keeper.stop()
            await league_tables.stop()
            if node is not None:
                await node.stop()  # hand every table over at once, then stop the bus
            # single process: every table's commits in flight end before the store closes
            live, began = len(lobby.tables), time.perf_counter()
            await lobby.stop(drain_s=STOP_DRAIN_S if node is None else 0.0)
            log.info(
                "stopped: %d table(s) stopped in %.2f s (kept as stored; rebuilt at the next start)",
                live,
                time.perf_counter() - began,
            )
            if node is not None:
                node.close()  # the cluster's own database connections, once nothing uses them
            if owned:
                opened.close()

    app = FastAPI(
        title="hkmahjong parlor 麻雀館",
        version=__version__,
        description="Hong Kong mahjong (香港麻雀) parlor: tables, jade ledger, calculator API.",
        lifespan=lifespan,
        responses=DOOR_RESPONSES,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.auth = Auth(store, settings, password_hash)
    app.state.metrics_config = metrics
    app.state.metrics_port = None
    counted = ParlorMetrics(app) if metrics.enabled else None
    app.state.metrics = counted
    if counted is not None:
        app.state.auth.ledger.on_post = counted.posted
        if node is not None:
            node.ledger.on_post = counted.posted
    c = settings.clocks
    online = TableClocks(
        turn_ms=c.turn_ms,
        claim_ms=c.claim_ms,
        bank_ms=c.bank_ms,
        grace_ms=c.grace_ms,
        discard_delay_ms=c.discard_delay_ms,
    )
    lobby = Lobby(
        SqlTableStore(store) if node is None else node.tables,
        ledger=app.state.auth.ledger if node is None else node.ledger,
        online_clocks=online,
        watch_limit=settings.max_spectators,
        caps=Caps(
            open_tables=settings.max_open_tables,
            guest_tables=settings.max_guest_tables,
            waiting_s=settings.waiting_table_s,
        ),
        probe=counted,
    )
    override = os.environ.get("HKMJ_TABLE_CLOCKS")
    if override:  # JSON of parlor ClockSettings fields, for every new table (tests, benchmarks)
        lobby.online_clocks = replace(online, **json.loads(override))
        lobby.practice_clocks = replace(lobby.practice_clocks, **json.loads(override))
    app.state.lobby = lobby
    app.state.leagues = LeagueDesk(SqlLeagueStore(store))
    app.state.league_tables = LeagueTables(lobby, app.state.leagues, interval=league_sync)
    if node is not None:
        node.league_tables = app.state.league_tables  # played by the leader only
    app.add_middleware(ServerFaults)  # innermost: its 500 still gets the cookies and headers
    app.add_middleware(CookieMiddleware)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(UrlLimits)
    app.state.proxies = TrustedProxies(settings.trusted_proxies)
    app.state.spectator_slots = SpectatorSlots(settings.spectators_per_address)
    app.add_middleware(ClientAddress, proxies=app.state.proxies)
    if counted is not None:
        app.add_middleware(HttpMetrics, metrics=counted)
    app.state.cluster = node
    if node is not None:
        from hkmahjong.server.cluster.forward import ForwardTables

        node.app = app
        app.add_middleware(ForwardTables, cluster=node)
    app.add_middleware(RequestIds)  # outermost: every log line of a request names it
    app.include_router(health.router)
    app.include_router(metrics_router)
    app.include_router(auth.router)
    app.include_router(api.router)
    app.include_router(tables.router)
    app.include_router(options.router)
    app.include_router(replays.router)
    app.include_router(leagues.router)
    app.include_router(players.router)
    app.include_router(me.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.add_exception_handler(404, pages.not_found_page)
    return app
