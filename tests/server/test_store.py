"""The store: migrations applied at start build exactly the models' schema, on SQLite (WAL) and on
PostgreSQL; applying them again changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from hkmahjong.server.store import Store
from hkmahjong.server.store.models import Base


@pytest.mark.filterwarnings("ignore:.*expression-based index")
def test_migrations_build_the_models_schema(store: Store) -> None:
    assert store.revision() == store.head() == "0008"
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    tables = set(inspect(store.engine).get_table_names())
    assert {t.name for t in Base.metadata.sorted_tables} <= tables


def test_migrate_twice_is_a_no_op(store: Store) -> None:
    store.migrate()
    assert store.revision() == "0008"


def test_sqlite_file_is_created_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "parlor.db"
    store = Store.open(f"sqlite:///{path}")
    try:
        assert path.exists()
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        store.close()


def test_user_names_are_unique_ignoring_case(store: Store) -> None:
    from sqlalchemy.exc import IntegrityError

    from hkmahjong.server.store.models import User

    with store.session() as session:
        session.add(User(name="Ah Wing"))
    with pytest.raises(IntegrityError), store.session() as session:
        session.add(User(name="ah wing"))


def test_table_statuses_for_many_tables_and_no_log_line_once_a_table_is_over(store: Store) -> None:
    """The lobby's watch asks for every live table's status at once (more than SQLite's
    bound-parameter limit of old builds); a table that is over takes no more log lines."""
    import asyncio

    from hkmahjong.parlor.ports import SeatRow, TableClosedError, TableRow
    from hkmahjong.server.store.models import ParlorTable
    from hkmahjong.server.store.tables import SqlTableStore

    with store.session() as session:
        session.add_all(
            ParlorTable(
                public_id=f"t{i}",
                kind="online",
                status="cancelled" if i % 7 else "playing",
                config={},
                ruleset_digest="d",
                match_seed="00",
            )
            for i in range(1200)
        )
    tables = SqlTableStore(store)

    async def main() -> None:
        with store.session() as session:
            ids = [t.id for t in session.query(ParlorTable).order_by(ParlorTable.id)]
        found = await tables.statuses(ids)
        assert len(found) == 1200 and list(found.values()).count("playing") == 172
        row = TableRow(0, "live", "online", "playing", {}, "d", "00")
        table_id = await tables.create(row, [SeatRow(p) for p in range(4)])
        await tables.append(table_id, 0, ['{"t":"header"}'])
        await tables.set_status(table_id, "cancelled")
        with pytest.raises(TableClosedError, match="cancelled"):
            await tables.append(table_id, 1, ['{"t":"hand"}'])
        assert await tables.lines(table_id) == ['{"t":"header"}']

    asyncio.run(main())
