"""庫 the parlor's database: an engine for SQLite (WAL) or PostgreSQL (psycopg 3), the session
factory, and the Alembic migrations applied at start."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["MIGRATIONS", "Store", "alembic_config", "make_engine"]

MIGRATIONS = Path(__file__).with_name("migrations")


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
        """Apply every Alembic revision not yet applied (a no-op when the schema is current)."""
        command.upgrade(alembic_config(self.engine), "head")

    def revision(self) -> str | None:
        """The schema revision the database is at (None before the first migration)."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def head(self) -> str | None:
        """The newest revision the shipped migrations know."""
        return ScriptDirectory.from_config(alembic_config(self.engine)).get_current_head()

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        """A session in one transaction: committed when the block ends, rolled back on error."""
        with self.sessions.begin() as session:
            yield session

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
