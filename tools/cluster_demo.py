"""Two ``hkmj serve`` processes behind one address, on the local PostgreSQL and Redis (docs/deploy.md).

    make cluster-demo                      # or: .venv/bin/python tools/cluster_demo.py [--procs 3]

Creates the database ``hkmj_demo`` on the local PostgreSQL when it is missing, starts the
processes on ports 8001, 8002, … (same database, same Redis, same secret, a 3 s lease) and a tiny
TCP proxy on http://127.0.0.1:8000/ that hands each new connection to one of them at random
(HTTP and websockets alike: any process serves any request). Play in the browser; ``kill -9`` one
of the printed process ids and watch its tables go on in the other after the lease (the page
reconnects). Ctrl-C stops everything with SIGTERM (a graceful stop: the tables are handed over).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

ADMIN = os.environ.get("HKMJ_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def ensure_database(name: str) -> str:
    """The URL of database ``name`` on the local server, created when missing."""
    admin = create_engine(ADMIN.replace("postgresql://", "postgresql+psycopg://", 1),
                          isolation_level="AUTOCOMMIT")  # fmt: skip
    with admin.connect() as conn:
        found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
        if found.first() is None:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return ADMIN.rsplit("/", 1)[0] + "/" + name


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    with contextlib.suppress(ConnectionError, OSError):
        writer.close()


async def proxy(port: int, backends: list[int]) -> None:
    """Each connection to ``port`` goes to a backend at random (the next one if it refuses)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for backend in random.sample(backends, len(backends)):
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", backend)
            except OSError:
                continue
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
            return
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args(argv)
    db = ensure_database("hkmj_demo")
    data = Path(os.environ.get("HKMJ_DATA_DIR", Path.home() / ".local/share/hkmahjong-demo"))
    data.mkdir(parents=True, exist_ok=True)
    secret_file = data / "secret"
    if not secret_file.exists():
        secret_file.write_text(secrets.token_urlsafe(32))
    env = {**os.environ, "HKMJ_SECRET": secret_file.read_text().strip(),
           "HKMJ_REDIS_URL": args.redis, "HKMJ_LEASE_SECONDS": "3"}  # fmt: skip
    ports = [args.port + 1 + i for i in range(args.procs)]
    procs = []
    for p in ports:
        args_p = [sys.executable, "-m", "hkmahjong.entry", "serve", "--db", db, "--port", str(p),
                  "--data-dir", str(data)]  # fmt: skip
        procs.append(subprocess.Popen(args_p, env=env))
    print(f"processes {[p.pid for p in procs]} on ports {ports}; "
          f"open http://127.0.0.1:{args.port}/ (Ctrl-C stops)", flush=True)  # fmt: skip

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # stopped by a signal too: stop the servers gracefully
    try:
        asyncio.run(proxy(args.port, ports))
    except KeyboardInterrupt:
        pass
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
