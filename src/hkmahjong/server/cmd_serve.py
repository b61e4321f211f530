"""``hkmj serve``: 麻雀館 start the web parlor (FastAPI on uvicorn) and print the address to open.

Imports only the standard library until it runs, so ``hkmj`` works without the ``[server]`` extra.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from typing import Any

from hkmahjong.argtypes import port_number
from hkmahjong.server.settings import Settings, SettingsError

NAME = "serve"
HELP = "麻雀館 serve: start the web parlor in the browser (needs the [server] extra)"
ORDER = 5

INSTALL_HINT = (
    "hkmj serve needs the server extra: pip install 'hkmahjong[server]' (in a checkout: make run)"
)


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``serve`` options."""
    parser.add_argument(
        "--data-dir",
        default=None,
        help="where the SQLite database and the secret live (default: $HKMJ_DATA_DIR or "
        "~/.local/share/hkmahjong)",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="database URL, e.g. postgresql://user@127.0.0.1:5432/parlor (default: SQLite file)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="several processes (docs/deploy.md): the shared Redis, e.g. redis://127.0.0.1:6379/0 "
        "(default: $HKMJ_REDIS_URL; none: one process); needs a PostgreSQL --db",
    )
    parser.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_number, default=None, help="port (default 8000; 0 picks a free one)"
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="proxies whose X-Forwarded-For is believed: addresses or networks, comma-separated "
        "(default: $HKMJ_TRUSTED_PROXIES; none: the peer's address is the client's)",
    )
    parser.add_argument(
        "--log-level",
        default=None,
        choices=["critical", "error", "warning", "info", "debug"],
        help="the server's log level (default: $HKMJ_LOG_LEVEL or warning; docs/operations.md)",
    )
    parser.add_argument(
        "--log-format",
        default=None,
        choices=["auto", "json", "text"],
        help="log lines as JSON or text (default: $HKMJ_LOG_FORMAT or auto: text on a terminal, "
        "JSON otherwise)",
    )
    parser.add_argument(
        "--metrics-port",
        type=port_number,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics at /metrics on this port, without a token (default: "
        "$HKMJ_METRICS_PORT; none: off, or /metrics on the main port with $HKMJ_METRICS_TOKEN)",
    )
    parser.add_argument(
        "--metrics-host",
        default=None,
        help="the metrics port's address (default: $HKMJ_METRICS_HOST or 127.0.0.1)",
    )


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"hkmj serve: cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it is stopped (Ctrl-C)."""
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from hkmahjong.server import logs
        from hkmahjong.server.app import create_app
        from hkmahjong.server.cluster.node import ClusterConfig
        from hkmahjong.server.metrics import MetricsConfig
        from hkmahjong.server.ws import websocket_protocol
        from hkmahjong.server.wsframes import ParlorHttpProtocol
    except ImportError as exc:
        print(f"{INSTALL_HINT}; missing module: {exc.name}", file=sys.stderr)
        return 2
    try:
        settings = Settings.from_env(
            data_dir=args.data_dir,
            db_url=args.db,
            host=args.host,
            port=args.port,
            trusted_proxies=(
                None
                if not getattr(args, "forwarded_allow_ips", None)
                else args.forwarded_allow_ips.split(",")
            ),
        )
        level, log_format = logs.resolve(
            getattr(args, "log_level", None), getattr(args, "log_format", None)
        )
        metrics = MetricsConfig.from_env(
            getattr(args, "metrics_port", None), getattr(args, "metrics_host", None)
        )
    except SettingsError as exc:
        print(f"hkmj serve: {exc}", file=sys.stderr)
        return 2
    logs.configure(level, log_format)
    try:
        cluster = ClusterConfig.from_env(getattr(args, "redis", None))
    except ValueError as exc:
        print(f"hkmj serve: {exc}", file=sys.stderr)
        return 2
    if cluster is not None and not settings.database_url.startswith("postgresql"):
        print("hkmj serve: several processes (--redis) need a PostgreSQL --db", file=sys.stderr)
        return 2
    app = create_app(settings, settle_heap=True, cluster=cluster, metrics=metrics)
    sock = _bind(settings.host, settings.port)
    port = sock.getsockname()[1]
    shown = Settings(data_dir=settings.data_dir, host=settings.host, port=port)
    database = make_url(settings.database_url).render_as_string(hide_password=True)
    print(f"麻雀館 hkmj parlor: open {shown.url}", flush=True)
    print(f"database: {database}  (Ctrl-C stops)", flush=True)
    if cluster is not None:
        print(f"cluster node {cluster.owner}: lease {cluster.lease_s:g} s", flush=True)
    # No permessage-deflate: the table's frames are small JSON, and each compressed connection
    # would hold ~40 KiB of zlib state and spend CPU on every frame (docs/server.md, Capacity).
    # The websocket protocol is uvicorn's websockets-sansio with a direct frame writer, serving
    # the tables' sockets natively (hkmahjong.server.wsframes, docs/server.md *Capacity*).
    config = uvicorn.Config(
        app,
        http=ParlorHttpProtocol,
        ws=websocket_protocol(app),
        log_level=level,
        log_config=None,  # the handler of hkmahjong.server.logs.configure
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        lifespan="on",
        access_log=False,
        # X-Forwarded-For is believed from the operator's proxies only (--forwarded-allow-ips,
        # hkmahjong.server.proxies), never from uvicorn's default 127.0.0.1 (issue 29).
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    if metrics.port is not None:
        _announce_metrics(app, server, metrics.host)
    # SIGTERM is a graceful stop (docs/operations.md): uvicorn closes the sockets (tables' with
    # 1012: reconnect), then the app's shutdown lets each table finish its commits. uvicorn
    # raises the signal it caught again once it is done; with this handler in place (restored
    # after) that ends here, and a graceful stop exits 0.
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        server.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def _stopped(signum: int, frame: Any) -> None:
    """SIGTERM after uvicorn's graceful stop: nothing more to do."""


def _announce_metrics(app: Any, server: Any, host: str) -> None:
    """Print the metrics port's address once the app has started (it may be ``0``: a free one)."""
    started = server.startup

    async def startup(*args: Any, **kwargs: Any) -> None:
        await started(*args, **kwargs)
        port = getattr(app.state, "metrics_port", None)
        if port is not None:
            print(f"metrics: http://{host}:{port}/metrics", flush=True)

    server.startup = startup
