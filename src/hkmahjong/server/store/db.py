"""庫 the parlor's database: an engine for SQLite (WAL) or PostgreSQL (psycopg 3), the session
factory, and the Alembic migrations applied at start."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["MIGRATIONS", "Store", "alembic_config", "make_engine"]

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x686B6D6A  # "hkmj": the advisory lock held while migrating PostgreSQL

log = logging.getLogger(__name__)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    assert isinstance(dbapi_conn, sqlite3.Connection)
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def _sqlite_begin(conn: Any) -> None:
    # Every transaction takes the write lock at its start, so two writers never both read a balance
    # and then fail to upgrade (SQLite's deferred transactions would deadlock into SQLITE_BUSY).
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """An engine for ``url``: SQLite gets WAL, foreign keys, a busy timeout and immediate
    transactions (its file's folder is created); PostgreSQL uses psycopg 3."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, echo=echo, pool_pre_ping=True, pool_size=10, max_overflow=20)


def alembic_config(engine: Engine) -> Config:
    """The Alembic configuration of the shipped migrations, bound to ``engine``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    return cfg


class Store:
    """倉 the database of one parlor: ``session()`` opens a unit of work, ``migrate()`` brings the
    schema to the newest revision."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)
        # SQLite has one writer, and every transaction here takes the write lock at its start
        # (BEGIN IMMEDIATE). Threads of this process that met on SQLite's lock would wait in its
        # busy handler, which sleeps 1, 2, 5, … up to 100 ms between tries: under load a commit
        # would wait tens of milliseconds with the database idle. They queue on this lock instead
        # and each starts the moment the one before it commits (another process, such as
        # ``hkmj admin``, still meets the busy timeout). Re-entrant: a thread that opened a
        # session inside another would only wait for itself.
        self._turn: threading.RLock | None = (
            threading.RLock() if engine.dialect.name == "sqlite" else None
        )
        self._checkpointer: _Checkpointer | None = None
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        if path and path != ":memory:" and not path.startswith("file:"):
            # Commits never run a checkpoint (its fsyncs): a background thread does (_Checkpointer).
            event.listen(engine, "connect", _no_autocheckpoint)
            self._checkpointer = _Checkpointer(path)

    @classmethod
    def open(cls, url: str, *, migrate: bool = True) -> Store:
        """The store at ``url``, migrated to the newest revision unless ``migrate`` is false."""
        store = cls(make_engine(url))
        if migrate:
            store.migrate()
        return store

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Apply every Alembic revision not yet applied (a no-op when the schema is current).

        On PostgreSQL under an advisory lock: several server processes starting at once on one
        database migrate it one after the other (the later ones find it current).
        """
        if self.dialect != "postgresql":
            command.upgrade(alembic_config(self.engine), "head")
            return
        with self.engine.connect() as lock:
            lock.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            try:
                command.upgrade(alembic_config(self.engine), "head")
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})

    def revision(self) -> str | None:
        """The schema revision the database is at (None before the first migration)."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def head(self) -> str | None:
        """The newest revision the shipped migrations know."""
        return ScriptDirectory.from_config(alembic_config(self.engine)).get_current_head()

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        """A session in one transaction: committed when the block ends, rolled back on error.

        On SQLite, one at a time in this process (see ``__init__``).
        """
        if self._turn is None:
            with self.sessions.begin() as session:
                yield session
            return
        with self._turn, self.sessions.begin() as session:
            yield session

    def turn(self) -> contextlib.AbstractContextManager[Any]:
        """This process's turn at the database for a transaction that does not go through
        :meth:`session` (raw driver calls): on SQLite the lock of ``__init__``, else nothing."""
        return self._turn if self._turn is not None else contextlib.nullcontext()

    def close(self) -> None:
        """Close every pooled connection (and stop the SQLite checkpointer)."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")


class _Checkpointer:
    """Copies SQLite's write-ahead log back into the database file from a background thread.

    By default SQLite checkpoints inside the commit that takes the WAL past 1000 pages, and a
    checkpoint writes those pages and fsyncs twice: a commit that happened to run it would wait
    milliseconds (tens, on a busy disk), and the table that made it with it. Here commits only
    append to the WAL, and this thread runs a PASSIVE checkpoint (it never blocks a writer or a
    reader) every ``every`` seconds, on its own connection. What a crash can lose does not change:
    the WAL holds every commit until it is copied.
    """

    def __init__(self, path: str, every: float = 1.0) -> None:
        self.path = path
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hkmj-wal-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while not self._stop.wait(self.every):
                try:
                    if conn is None:
                        if not Path(self.path).exists():
                            continue
                        conn = sqlite3.connect(self.path, isolation_level=None, timeout=0)
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # busy, or the file went away: try again later
                    log.debug("checkpoint of %s: %s", self.path, exc)
        finally:
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                conn.close()

    def stop(self) -> None:
        """Run a last checkpoint and stop the thread."""
        self._stop.set()
        self._thread.join(10)
