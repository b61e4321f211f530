"""Fixtures of the parlor server's tests: settings in a temporary data directory, the app on
SQLite, and a fresh PostgreSQL database per test run on the real local server."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import create_engine, text

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store

PG_ADMIN_URL = os.environ.get(
    "HKMJ_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings with a temporary data directory (SQLite there) and a fixed secret."""
    return Settings(data_dir=tmp_path / "data", secret="test-secret-" + "x" * 20)


def cheap_argon2() -> PasswordHash:
    """argon2id with small costs: the same code path as production, fast enough for many tests."""
    return PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A test client of the app on a fresh SQLite database."""
    app = create_app(settings, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


@pytest.fixture
def pg_client(tmp_path: Path, pg_url: str) -> Iterator[TestClient]:
    """A test client of the app on the run's PostgreSQL database (emptied first)."""
    store = Store.open(pg_url)
    _truncate(store)
    settings = Settings(data_dir=tmp_path / "data", db_url=pg_url, secret="pg-secret-" + "x" * 20)
    app = create_app(settings, store=store, password_hash=cheap_argon2())
    try:
        with TestClient(app, base_url="http://127.0.0.1") as test_client:
            yield test_client
    finally:
        store.close()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test run (this worker), dropped at the end.

    The local server is started by ``tools/ensure_postgres.sh`` (``make test`` runs it).
    """
    name = f"hkmj_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # pragma: no cover - a setup failure, reported as such
        admin.dispose()
        pytest.fail(
            f"PostgreSQL at {PG_ADMIN_URL} is not usable ({exc.__class__.__name__}: {exc}); "
            "run tools/ensure_postgres.sh or set HKMJ_TEST_PG"
        )
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A migrated store on SQLite (a temporary file) and on PostgreSQL (emptied before each test)."""
    if request.param == "sqlite":
        opened = Store.open(f"sqlite:///{tmp_path / 'parlor.db'}")
    else:
        opened = Store.open(request.getfixturevalue("pg_url"))
        _truncate(opened)
    try:
        yield opened
    finally:
        opened.close()


def _truncate(store: Store) -> None:
    from hkmahjong.server.store.models import Base

    names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with store.session() as session:
        session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
