"""量度 the parlor's metrics for an operator: ``/metrics`` in the Prometheus text format.

Off by default. Turned on by either (or both) of:

- ``HKMJ_METRICS_TOKEN`` (at least 16 characters): ``GET /metrics`` on the server's own port,
  answered only to ``Authorization: Bearer TOKEN`` (401 otherwise; without a token the route
  answers 404 as any unknown path);
- ``hkmj serve --metrics-port PORT`` (``HKMJ_METRICS_PORT``): a second listener, on loopback
  unless ``--metrics-host`` (``HKMJ_METRICS_HOST``) says otherwise, that answers ``GET
  /metrics`` without a token — for a Prometheus on the same host, or behind a firewall.

What is counted (docs/operations.md lists every metric): the tables report their actions,
commits and bots' think times through the parlor's probe (:class:`ParlorMetrics` implements
:class:`~hkmahjong.parlor.probes.TableProbe`: a few microseconds an action); HTTP requests are
counted by route template and status by :class:`HttpMetrics`; everything else — tables by kind
and status, seats, spectators, sockets, the heap keeper, the log writer, the cluster — is read
from the live state when scraped (:class:`StateCollector`), costing nothing between scrapes.

Each app has a registry of its own (tests run several apps in one process).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import os
from collections import Counter as Tally
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    Metric,
    SummaryMetricFamily,
)
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hkmahjong.parlor.environ import env_number
from hkmahjong.server.settings import SettingsError

__all__ = [
    "HttpMetrics",
    "MetricsConfig",
    "MetricsPort",
    "ParlorMetrics",
    "StateCollector",
    "router",
]

TOKEN_MIN = 16
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0)
"""Seconds: the action → broadcast and log-commit histograms (the capacity target is a p99
under 100 ms, docs/server.md *Capacity*)."""
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
BY = ("you", "auto", "timeout")


@dataclass(frozen=True)
class MetricsConfig:
    """Where the metrics are served: ``token`` (``/metrics`` on the main port, bearer) and/or a
    separate ``port`` on ``host``; neither: off."""

    token: str | None = None
    port: int | None = None
    host: str = "127.0.0.1"

    @property
    def enabled(self) -> bool:
        """Whether metrics are collected and served at all."""
        return self.token is not None or self.port is not None

    @classmethod
    def from_env(
        cls, port: int | None = None, host: str | None = None, env: dict[str, str] | None = None
    ) -> MetricsConfig:
        """From the options (``port``, ``host``) or ``HKMJ_METRICS_TOKEN``, ``HKMJ_METRICS_PORT``,
        ``HKMJ_METRICS_HOST``.

        :raises SettingsError: naming the variable, for a short token or a bad port.
        """
        env = dict(os.environ) if env is None else env
        token = env.get("HKMJ_METRICS_TOKEN") or None
        if token is not None and len(token) < TOKEN_MIN:
            raise SettingsError(
                f"HKMJ_METRICS_TOKEN: at least {TOKEN_MIN} characters (it guards /metrics)"
            )
        if port is None and env.get("HKMJ_METRICS_PORT"):
            port = int(env_number("HKMJ_METRICS_PORT", "", low=0, high=65535, env=env))
        return cls(token, port, host or env.get("HKMJ_METRICS_HOST") or "127.0.0.1")


class ParlorMetrics:
    """The app's registry and the counters updated as things happen (the tables' probe)."""

    def __init__(self, app: Any = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.actions = Counter(
            "hkmj_actions", "Actions applied at the tables, by who decided them", ["by"], registry=r
        )
        self.action_latency = Histogram(
            "hkmj_action_broadcast_seconds",
            "From the engine taking an action to its frames handed to every seat's socket "
            "(commit included; a discard's deliberate hold not included)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_latency = Histogram(
            "hkmj_log_commit_seconds",
            "One step's game-record append, queued and committed (group commit)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_failures = Counter(
            "hkmj_log_commit_failures", "Log appends that failed (the table rebuilt)", registry=r
        )
        self.think = Histogram(
            "hkmj_bot_think_seconds",
            "A bot's decision, off the event loop, waiting for a worker included",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.ledger = Counter(
            "hkmj_ledger_transactions",
            "Jade transactions this process posted (posted: new; repeated: its key was posted "
            "before, nothing moved)",
            ["result"],
            registry=r,
        )
        self.http = Counter(
            "hkmj_http_requests",
            "HTTP requests by route template, method and status",
            ["route", "method", "status"],
            registry=r,
        )
        self.http_latency = Histogram(
            "hkmj_http_request_seconds",
            "HTTP requests' time to the response's start",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self._by = {by: self.actions.labels(by) for by in BY}
        self._think: dict[str, Any] = {}
        self._posted = self.ledger.labels("posted")
        self._repeated = self.ledger.labels("repeated")
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        if app is not None:
            r.register(StateCollector(app))

    # --- TableProbe -------------------------------------------------------------------------------
    def action(self, by: str, seconds: float) -> None:
        """An action applied and broadcast."""
        counter = self._by.get(by)
        if counter is None:
            counter = self._by[by] = self.actions.labels(by)
        counter.inc()
        self.action_latency.observe(seconds)

    def commit(self, seconds: float, ok: bool) -> None:
        """A log append."""
        self.commit_latency.observe(seconds)
        if not ok:
            self.commit_failures.inc()

    def thought(self, level: str, seconds: float) -> None:
        """A bot's decision."""
        child = self._think.get(level)
        if child is None:
            child = self._think[level] = self.think.labels(level)
        child.observe(seconds)

    # --- the ledger (SqlLedger.on_post) -------------------------------------------------------------
    def posted(self, new: bool) -> None:
        """A jade transaction posted (``new``) or found posted already."""
        (self._posted if new else self._repeated).inc()

    def text(self) -> bytes:
        """The exposition (Prometheus text format 0.0.4)."""
        return generate_latest(self.registry)


def _tables(app: Any) -> list[Any]:
    lobby = getattr(app.state, "lobby", None)
    if lobby is None:
        return []
    return list(lobby.tables.values())  # a snapshot (one C call: no other thread runs meanwhile)


class StateCollector(Collector):
    """Read at each scrape from the app's live state: tables, seats, sockets, the heap keeper, the
    log writer and (several processes) the cluster."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        app = self.app
        tables = _tables(app)
        by_status: Tally[tuple[str, str]] = Tally()
        seated: Tally[str] = Tally()
        connected = spectators = 0
        for table in tables:
            by_status[(table.config.kind, table.status)] += 1
            if not table.open:
                continue
            for seat in table.seats:
                if seat.kind in ("human", "bot"):
                    seated[seat.kind] += 1
                if seat.conn is not None:
                    connected += 1
            spectators += table.gallery.count
        g = GaugeMetricFamily(
            "hkmj_tables",
            "Tables live in this process, by kind and status",
            labels=["kind", "status"],
        )
        for (kind, status), n in sorted(by_status.items()):
            g.add_metric([kind, status], n)
        yield g
        g = GaugeMetricFamily(
            "hkmj_seated_players", "Seats taken at open tables, by people or bots", labels=["kind"]
        )
        for kind in ("human", "bot"):
            g.add_metric([kind], seated[kind])
        yield g
        yield GaugeMetricFamily(
            "hkmj_spectators", "Spectators watching open tables", value=spectators
        )
        lobby = getattr(app.state, "lobby", None)
        lobby_sockets = 0 if lobby is None else len(lobby.watchers)
        cluster = getattr(app.state, "cluster", None)
        g = GaugeMetricFamily(
            "hkmj_sockets", "Open websockets, by what they serve", labels=["kind"]
        )
        g.add_metric(["seat"], connected)
        g.add_metric(["spectator"], spectators)
        g.add_metric(["lobby"], lobby_sockets)
        if cluster is not None:
            g.add_metric(["relayed_out"], len(cluster.proxies))
            g.add_metric(["relayed_in"], len(cluster.remote))
        yield g
        yield from _heap(getattr(app.state, "heap", None))
        yield from _writer(lobby)
        if cluster is not None:
            yield from _cluster(cluster)


def _heap(keeper: Any) -> Iterator[Metric]:
    if keeper is None or not keeper.active:
        return
    s = SummaryMetricFamily(
        "hkmj_heap_keeper_tick_seconds",
        "The heap keeper's ticks (young collection + freeze): each one a pause of the loop",
        count_value=keeper.ticks,
        sum_value=keeper.tick_ms_total / 1000,
    )
    yield s
    yield GaugeMetricFamily(
        "hkmj_heap_keeper_tick_max_seconds",
        "The longest tick so far",
        value=keeper.tick_ms_max / 1000,
    )
    yield CounterMetricFamily(
        "hkmj_heap_keeper_sweeps",
        "Full collections (unfreeze, collect, freeze)",
        value=len(keeper.sweeps),
    )
    last = keeper.sweeps[-1].pause_ms / 1000 if keeper.sweeps else 0.0
    yield GaugeMetricFamily(
        "hkmj_heap_keeper_last_sweep_seconds", "The last full collection's pause", value=last
    )
    yield SummaryMetricFamily(
        "hkmj_heap_keeper_trim_seconds",
        "Memory given back to the system (malloc_trim)",
        count_value=keeper.trims,
        sum_value=keeper.trim_ms_total / 1000,
    )


def _writer(lobby: Any) -> Iterator[Metric]:
    writer = getattr(getattr(lobby, "store", None), "writer", None)
    if writer is None:
        return
    yield CounterMetricFamily(
        "hkmj_log_writer_batches", "Group commits of the log writer thread", value=writer.batches
    )
    yield CounterMetricFamily(
        "hkmj_log_writer_appends", "Tables' appends those commits carried", value=writer.appends
    )


def _cluster(cluster: Any) -> Iterator[Metric]:
    yield CounterMetricFamily(
        "hkmj_cluster_takeovers",
        "Tables this process took over (their owner died or handed them over)",
        value=cluster.adopted,
    )
    yield CounterMetricFamily(
        "hkmj_cluster_tables_lost",
        "Tables this process dropped because another one took them over",
        value=cluster.dropped,
    )
    yield GaugeMetricFamily(
        "hkmj_cluster_live_tables", "Open tables live in this process", value=cluster.live_tables()
    )
    yield GaugeMetricFamily(
        "hkmj_cluster_leader",
        "1 while this process plays the leagues' rounds",
        value=int(cluster.leader),
    )
    bus = getattr(cluster, "bus", None)
    if bus is not None:
        for name, attr, what in (
            ("hkmj_cluster_relayed_frames_sent", "sent", "Messages published to other processes"),
            ("hkmj_cluster_relayed_frames_received", "received", "Messages heard from them"),
        ):
            value = getattr(bus, attr, None)
            if isinstance(value, int):
                yield CounterMetricFamily(name, what, value=value)


class HttpMetrics:
    """ASGI middleware: every HTTP request counted by its route's template (``/api/tables/{id}``,
    never the path itself: an unknown path is ``<unmatched>``), method and status."""

    def __init__(self, app: ASGIApp, metrics: ParlorMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                self.metrics.http_latency.observe(loop.time() - started)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "<unmatched>"
            method = scope.get("method", "GET")
            if method not in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"):
                method = "other"
            self.metrics.http.labels(template, method, str(status)).inc()


router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The metrics, for ``Authorization: Bearer HKMJ_METRICS_TOKEN`` only (404 without a token
    configured, 401 with a wrong or missing one). On the event loop (not a worker thread), as
    the metrics port: the live state is read between two of the tables' messages."""
    state = request.app.state
    config: MetricsConfig | None = getattr(state, "metrics_config", None)
    found: ParlorMetrics | None = getattr(state, "metrics", None)
    if config is None or config.token is None or found is None:
        return Response('{"detail":"Not Found"}', 404, media_type="application/json")
    given = request.headers.get("authorization", "")
    scheme, _, token = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        token.strip().encode(), config.token.encode()
    ):
        return Response(
            "metrics: Authorization: Bearer <HKMJ_METRICS_TOKEN> required\n",
            401,
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
            media_type="text/plain",
        )
    return Response(found.text(), media_type=CONTENT_TYPE_LATEST)


class MetricsPort:
    """The separate metrics listener (``--metrics-port``): a minimal HTTP/1.0 server on the
    event loop (so a scrape reads the tables between two of their messages, never during one)
    that answers ``GET /metrics`` and 404 to anything else; one request per connection, a
    request head of at most 8 KiB read within 5 s."""

    def __init__(self, metrics: ParlorMetrics, host: str, port: int) -> None:
        self.metrics = metrics
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        """Listen; the port (``0`` picks a free one)."""
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        """Stop listening."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            line = head.split(b"\r\n", 1)[0].decode("latin-1").split()
            if (
                len(line) == 3
                and line[0] in ("GET", "HEAD")
                and line[1].split("?")[0] == "/metrics"
            ):
                body = self.metrics.text()
                status, kind = "200 OK", CONTENT_TYPE_LATEST
            else:
                body, status, kind = b"not found\n", "404 Not Found", "text/plain"
            writer.write(
                f"HTTP/1.0 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            if line and line[0] != "HEAD":
                writer.write(body)
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
