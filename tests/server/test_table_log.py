"""The tables' game-record log in SQL (server/store/tables.py): every append is committed before it
returns, a wrong line number is a LogConflictError, and on PostgreSQL the writer thread's group
commit lets one bad append fail alone (issue 14: "every action is committed to the database before
any seat is told"). On SQLite, commits never checkpoint: the background checkpointer copies the WAL
into the database file.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from hkmahjong.parlor.ports import LogConflictError, SeatRow, TableRow
from hkmahjong.server.store import Store
from hkmahjong.server.store.tables import LogWriter, SqlTableStore


def _row(public_id: str) -> TableRow:
    return TableRow(0, public_id, "online", "waiting", {}, "digest", "00" * 32, None, False, None)


async def _tables(tables: SqlTableStore, count: int) -> list[int]:
    return [
        await tables.create(_row(f"t{i}"), [SeatRow(p) for p in range(4)]) for i in range(count)
    ]


def test_append_commits_in_order_and_refuses_a_wrong_line_number(store: Store) -> None:
    tables = SqlTableStore(store)

    async def main() -> None:
        (tid,) = await _tables(tables, 1)
        await tables.append(tid, 0, ["header", "hand"])
        await tables.append(tid, 2, ["act 0"])
        for seq in (2, 0, 5):  # written already, written already, a gap
            with pytest.raises(LogConflictError):
                await tables.append(tid, seq, ["again"])
        assert await tables.lines(tid) == ["header", "hand", "act 0"]

    asyncio.run(main())
    with store.session() as s:  # committed, with its timestamp
        stamps = s.execute(text("SELECT created_at FROM table_log")).scalars().all()
    assert len(stamps) == 3 and all(stamps)


def test_the_writer_thread_commits_many_tables_at_once_and_a_bad_append_fails_alone(
    store: Store,
) -> None:
    writer = LogWriter(store)  # the PostgreSQL path, on both databases
    tables = SqlTableStore(store)

    async def main() -> None:
        ids = await _tables(tables, 12)
        for tid in ids:
            await writer.append(tid, 0, ["header"])
        nxt = dict.fromkeys(ids, 1)
        for round_ in range(1, 4):
            bad = ids[round_]  # one append per round at a line the log already has
            results = await asyncio.gather(
                *(writer.append(t, 0 if t == bad else nxt[t], [f"line {round_}"]) for t in ids),
                return_exceptions=True,
            )
            for tid, result in zip(ids, results, strict=True):
                if tid == bad:
                    assert isinstance(result, LogConflictError), result
                else:
                    assert result is None, result
                    nxt[tid] += 1
        for i, tid in enumerate(ids):
            lines = await tables.lines(tid)
            assert lines[0] == "header" and len(lines) == (3 if 1 <= i <= 3 else 4), (i, lines)

    asyncio.run(main())
    assert writer.appends == 12 + 3 * 12
    assert writer.batches <= writer.appends


def test_two_appends_at_one_line_one_wins(store: Store) -> None:
    writer = LogWriter(store)
    tables = SqlTableStore(store)

    async def main() -> None:
        (tid,) = await _tables(tables, 1)
        results = await asyncio.gather(
            writer.append(tid, 0, ["a"]), writer.append(tid, 0, ["b"]), return_exceptions=True
        )
        assert sorted(type(r).__name__ for r in results) == ["LogConflictError", "NoneType"]
        assert len(await tables.lines(tid)) == 1

    asyncio.run(main())


def test_sqlite_commits_leave_checkpoints_to_the_background(tmp_path: Path) -> None:
    path = tmp_path / "parlor.db"
    store = Store.open(f"sqlite:///{path}")
    try:
        with store.session() as s:
            assert s.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 0
        tables = SqlTableStore(store)

        async def main() -> int:
            (tid,) = await _tables(tables, 1)
            for seq in range(200):
                await tables.append(tid, seq, [f"line {seq} " + "x" * 200])
            return tid

        tid = asyncio.run(main())
        copy = tmp_path / "main-file-only.db"
        deadline = time.monotonic() + 30
        count = 0
        while time.monotonic() < deadline:  # the checkpointer runs every second
            shutil.copyfile(path, copy)  # the database file without its WAL
            with sqlite3.connect(copy) as conn:
                try:
                    count = conn.execute(
                        "SELECT count(*) FROM table_log WHERE table_id = ?", (tid,)
                    ).fetchone()[0]
                except sqlite3.DatabaseError:
                    count = 0
            copy.unlink()
            if count == 200:
                break
            time.sleep(0.2)
        assert count == 200
    finally:
        store.close()
