"""Backups (docs/operations.md, *Backups*): ``hkmj admin backup`` while a table is played, then
``hkmj admin restore`` into a fresh data directory and a server started on it: the table resumes
and finishes, the ledger balances, the record verifies. Restore refuses a database that holds
anything and a backup of a schema this release does not know."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.ops.conftest import Seat, mid_hand, pg_databases, register, start_server

from hkmahjong.entry import main
from hkmahjong.parlor import stakes

pytestmark = pytest.mark.slow

GRANT = 10_000
STAKE = 1024
"""A level-1 online table under ml's rules: its table value, the stake of every seat."""


@dataclass
class Ran:
    """What an ``hkmj`` command said and its exit status."""

    returncode: int
    stdout: str
    stderr: str


def hkmj(*args: str) -> Ran:
    """``hkmj ARGS`` in this process (the server runs in its own)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return Ran(code, out.getvalue(), err.getvalue())


def admin(*args: str) -> Ran:
    return hkmj("admin", *args)


def csrf(http: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": str(http.get("/api/me").json()["csrf"])}


@pytest.fixture(params=["sqlite", "postgresql"])
def places(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[list[str]]]:
    """Three databases, as ``hkmj`` options: the played one, the restored one, a third."""
    if request.param == "sqlite":
        yield [["--data-dir", str(tmp_path / name)] for name in ("data", "fresh", "third")]
        return
    with pg_databases(3) as urls:
        yield [["--data-dir", str(tmp_path / f"d{i}"), "--db", url] for i, url in enumerate(urls)]


def test_backup_while_playing_then_restore_resumes_the_table(
    tmp_path: Path, places: list[list[str]], seat_at: Callable[[str, str, str], Seat]
) -> None:
    played, restored, third = places
    data = Path(played[1])
    sqlite = len(played) == 2
    dest = tmp_path / "backups" / "parlor-backup.db"
    served = start_server(data, *played[2:])
    try:
        http = register(served.url, "backup kim")

        def online() -> tuple[str, str]:
            body = {"kind": "online", "rules": {"preset": "ml"}, "level": 1, "length": "one-hand"}
            r = http.post("/api/tables", json=body, headers=csrf(http))
            assert r.status_code == 200, r.text
            table = str(r.json()["id"])
            r = http.post(f"/api/tables/{table}/bots", json={"level": "easy"}, headers=csrf(http))
            assert r.status_code == 200, r.text
            return table, "; ".join(f"{k}={v}" for k, v in http.cookies.items())

        table, cookie, seat, early = mid_hand(
            online, lambda t, c: seat_at(served.url, t, c), actions=3
        )
        before = http.get("/api/me").json()["jade"] + STAKE  # what an early table left, if any
        # (the servers here take HKMJ_SECRET; a data directory's own secret file goes along)
        data.mkdir(parents=True, exist_ok=True)
        (data / "secret").write_text("file-secret-" + "y" * 32, encoding="utf-8")
        done = admin(*played, "backup", str(dest))  # the server is running
        assert done.returncode == 0, done.stderr
        assert "backed up" in done.stdout and dest.exists()
        if sqlite:
            assert (dest.with_name(dest.name + ".secret")).stat().st_mode & 0o777 == 0o600
        again = admin(*played, "backup", str(dest))
        assert again.returncode == 2 and "exists" in again.stderr
        http.close()
    finally:
        assert served.stop() == 0

    done = admin(*restored, "restore", str(dest))
    assert done.returncode == 0, done.stderr
    replayed = f"verified: {1 + early} table log(s) replayed ({early} finished"
    assert replayed in done.stdout, done.stdout
    assert "ledger transaction(s) balanced" in done.stdout
    if sqlite:
        fresh = Path(restored[1])
        assert (fresh / "secret").read_bytes() == (data / "secret").read_bytes()
    refused = admin(*restored, "restore", str(dest))
    assert refused.returncode == 2 and "refuses to overwrite" in refused.stderr

    served = start_server(Path(restored[1]), *restored[2:])
    try:
        http = httpx.Client(base_url=served.url, timeout=60)
        for part in cookie.split("; "):
            name, _, value = part.partition("=")
            http.cookies.set(name, value)
        assert http.get("/api/me").json()["user"]["name"] == "backup kim"  # the session too
        seat = seat_at(served.url, table, cookie)
        seat.play(until="match_end")
        assert seat.messages[0]["t"] == "snapshot"
        record = http.get(f"/api/tables/{table}/record").text
        totals = json.loads(record.splitlines()[-1])["totals"]
        jade = http.get("/api/me").json()["jade"]
        assert before == GRANT or early
        assert jade == before - STAKE + stakes.staked_shares(STAKE, totals)[0]
        http.close()
    finally:
        assert served.stop() == 0
    kept = tmp_path / "record.jsonl"
    kept.write_text(record, encoding="utf-8")
    verify = hkmj("replay", "--verify", str(kept))
    assert verify.returncode == 0, verify.stderr
    # a second backup of the finished parlor restores and verifies the finished table
    final = tmp_path / "backups" / "final.db"
    assert admin(*restored, "backup", str(final)).returncode == 0
    done = admin(*third, "restore", str(final))
    assert done.returncode == 0 and f"({1 + early} finished" in done.stdout, (
        done.stdout + done.stderr
    )
    if sqlite:  # --verify open: only the tables a server would rebuild (none now); the ledger
        from hkmahjong.server.backup import restore

        fourth = tmp_path / "fourth" / "parlor.db"
        quick = restore(f"sqlite:///{fourth}", final, open_only=True)
        assert quick.verified.tables == 0 and quick.verified.transactions >= 3


def test_restore_refuses_an_unknown_schema_and_a_broken_log(tmp_path: Path) -> None:
    from hkmahjong.server.backup import BackupError, backup, restore
    from hkmahjong.server.store import Store

    url = f"sqlite:///{tmp_path / 'data' / 'parlor.db'}"
    Store.open(url).close()
    dest = tmp_path / "b.db"
    assert "backed up" in backup(url, dest)
    newer = tmp_path / "newer.db"
    newer.write_bytes(dest.read_bytes())
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'v9999_future'")
    target = tmp_path / "x" / "parlor.db"
    with pytest.raises(BackupError, match=r"v9999_future.*newer"):
        restore(f"sqlite:///{target}", newer)
    assert not target.exists()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database", encoding="utf-8")
    with pytest.raises(BackupError, match="not an SQLite backup"):
        restore(f"sqlite:///{target}", junk)
    with sqlite3.connect(dest) as conn:  # a ledger row changed by hand: the restore says which
        conn.execute("INSERT INTO accounts (id, key) VALUES (900, 'x:1')")
        conn.execute(
            "INSERT INTO ledger_txns (id, idem_key, kind, memo, created_at) "
            "VALUES (900, 'k', 'grant', '', '2026-01-01')"
        )
        conn.execute("INSERT INTO ledger_rows (txn_id, account_id, amount) VALUES (900, 900, 5)")
    with pytest.raises(BackupError, match="ledger transaction 900: its rows sum to 5"):
        restore(f"sqlite:///{target}", dest)
    assert not target.exists()
