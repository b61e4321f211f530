"""備份 backups of the parlor's database: ``hkmj admin backup DEST`` and ``hkmj admin restore SRC``.

**SQLite**: the backup is SQLite's online backup API (``sqlite3.Connection.backup``) from a
connection of its own, in one step: a consistent copy of the database as of one moment (the
write-ahead log included) while the server goes on writing — in WAL mode the copy reads a
snapshot and never blocks the server's writers. It is written beside ``DEST`` and renamed into
place once its ``PRAGMA integrity_check`` passes. The data directory's ``secret`` file (which
signs the sessions' CSRF tokens) is copied to ``DEST.secret`` (mode 600).

**PostgreSQL**: ``pg_dump --format=custom`` (from the PostgreSQL client tools, which must be on
``PATH``: Debian's ``postgresql-client``), itself consistent while the server writes (one
repeatable-read snapshot); restored with ``pg_restore``. The password, if the URL holds one, is
passed in ``PGPASSWORD``, never on a command line.

**Restore** refuses a target that holds anything (a live server's database always does), and a
backup whose schema revision this release does not know (made by a newer release). It restores
into the target, applies the migrations (an older backup is upgraded), then **verifies**: every
table's game record is replayed through the engine (every wall against its commitment, every
event digest, every line regenerated: :meth:`MatchRunner.resume`), and the ledger balances
(every transaction's rows sum to zero, and so does the whole). A restore that fails to verify
says which table or transaction and exits 2 (on SQLite the target is then left untouched).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from hkmahjong.engine.runner import MatchRunner
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.server.store.db import MIGRATIONS, Store
from hkmahjong.server.store.models import LedgerRow, ParlorTable, TableLog

__all__ = ["BackupError", "Restored", "Verified", "backup", "restore", "verify"]


class BackupError(MahjongError):
    """A backup or restore that cannot be done (says what and why)."""


@dataclass
class Verified:
    """What :func:`verify` checked."""

    tables: int = 0
    """Tables whose log was replayed (those with at least one line)."""
    finished: int = 0
    lines: int = 0
    transactions: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """One line for people."""
        return (
            f"verified: {self.tables} table log(s) replayed ({self.finished} finished, "
            f"{self.lines} lines), {self.transactions} ledger transaction(s) balanced"
        )


@dataclass
class Restored:
    """A restore: the revision the backup was at and what was verified."""

    revision: str | None
    verified: Verified


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError(f"{url}: an in-memory database has nothing to back up")
    return Path(parsed.database)


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq URL (no driver, no password) and the environment that carries the password."""
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} was not found on PATH: install PostgreSQL's client tools (Debian: "
            f"apt-get install postgresql-client; the same major version as the server or newer), "
            f"or run {name} yourself (docs/operations.md, Backups)"
        )
    return found


def _known_revisions() -> set[str]:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}


def backup(url: str, dest: Path, data_dir: Path | None = None) -> str:
    """Back the database at ``url`` up to ``dest`` (a new file); what was written, for people.

    :raises BackupError: when ``dest`` exists, the database is missing, or (PostgreSQL)
        ``pg_dump`` is missing or fails.
    """
    if dest.exists():
        raise BackupError(f"{dest} exists: give a new file name (nothing is overwritten)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    path = _sqlite_path(url)
    if path is None:
        return _pg_dump(url, dest)
    if not path.exists():
        raise BackupError(f"{path}: no database there (is --data-dir / --db the server's?)")
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(partial)
        try:
            source.backup(target)  # one step: one consistent snapshot
            check = target.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"the copy does not pass integrity_check: {check}")
            revision = _revision_of(target)
            tables = target.execute("SELECT count(*) FROM parlor_tables").fetchone()[0]
        finally:
            target.close()
    finally:
        source.close()
    os.replace(partial, dest)
    said = f"backed up {path} to {dest} ({dest.stat().st_size:,} bytes, schema {revision}, "
    said += f"{tables} table(s))"
    secret = (data_dir or path.parent) / "secret"
    if secret.exists():
        kept = dest.with_name(dest.name + ".secret")
        shutil.copyfile(secret, kept)
        kept.chmod(0o600)
        said += f"; the secret to {kept}"
    return said


def _revision_of(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def _pg_dump(url: str, dest: Path) -> str:
    tool = _tool("pg_dump")
    target, env = _libpq(url)
    partial = dest.with_name(dest.name + ".partial")
    done = subprocess.run(
        [tool, "--format=custom", "--no-owner", "--file", str(partial), "--dbname", target],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed ({done.returncode}): {done.stderr.strip()}")
    os.replace(partial, dest)
    shown = make_url(url).render_as_string(hide_password=True)
    return f"backed up {shown} to {dest} with pg_dump ({dest.stat().st_size:,} bytes)"


def restore(
    url: str, src: Path, data_dir: Path | None = None, *, open_only: bool = False
) -> Restored:
    """Restore the backup ``src`` into the empty database at ``url``, migrate and verify it
    (``open_only``: replay the logs of the tables not over only — the ones a server rebuilds;
    the ledger is checked whole either way).

    :raises BackupError: when the target holds anything, the backup is not one (or of a schema
        this release does not know), or the restored database does not verify.
    """
    if not src.is_file():
        raise BackupError(f"{src}: no such backup file")
    path = _sqlite_path(url)
    if path is None:
        return _pg_restore(url, src, open_only)
    for leftover in (path, path.with_name(path.name + "-wal")):
        if leftover.exists() and leftover.stat().st_size > 0:
            raise BackupError(
                f"{leftover} exists: restore refuses to overwrite a database (stop the server "
                "and restore into a new data directory, or move the old database away first)"
            )
    try:
        probe = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
        try:
            check = probe.execute("PRAGMA integrity_check").fetchone()[0]
            revision = _revision_of(probe)
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{src}: not an SQLite backup of a parlor ({exc})") from None
    if check != "ok":
        raise BackupError(f"{src}: does not pass integrity_check: {check}")
    _check_revision(src, revision)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".restore-") as work:
        staged = Path(work) / path.name
        source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
        try:
            target = sqlite3.connect(staged)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
        store = Store.open(f"sqlite:///{staged}")  # migrated: an older backup is upgraded
        try:
            verified = verify(store, open_only=open_only)
        finally:
            store.close()
        if verified.failures:
            raise BackupError(_failed(verified))
        os.replace(staged, path)
    secret = src.with_name(src.name + ".secret")
    target_secret = (data_dir or path.parent) / "secret"
    if secret.exists() and not target_secret.exists():
        shutil.copyfile(secret, target_secret)
        target_secret.chmod(0o600)
    return Restored(revision, verified)


def _check_revision(src: Path, revision: str | None) -> None:
    if revision is None:
        raise BackupError(f"{src}: no schema revision (alembic_version): not a parlor backup")
    if revision not in _known_revisions():
        raise BackupError(
            f"{src}: schema revision {revision} is not one this release knows (a backup made by "
            "a newer hkmahjong): restore it with that release or newer"
        )


def _failed(verified: Verified) -> str:
    shown = "; ".join(verified.failures[:5])
    more = len(verified.failures) - 5
    return f"the restored database does not verify: {shown}" + (
        f" (and {more} more)" if more > 0 else ""
    )


def _pg_restore(url: str, src: Path, open_only: bool) -> Restored:
    tool = _tool("pg_restore")
    store = Store.open(url, migrate=False)
    try:
        with store.engine.connect() as conn:
            found = conn.execute(
                text("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
            ).scalar_one()
        if found:
            raise BackupError(
                f"{make_url(url).render_as_string(hide_password=True)} holds {found} table(s): "
                "restore refuses to overwrite a database (restore into a new, empty one)"
            )
        listed = subprocess.run(
            [tool, "--data-only", "--table=alembic_version", "--file=-", str(src)],
            capture_output=True,
            text=True,
            check=False,
        )
        if listed.returncode != 0:
            raise BackupError(f"{src}: not a pg_dump archive ({listed.stderr.strip()})")
        revision = _copied_revision(listed.stdout)
        _check_revision(src, revision)
        target, env = _libpq(url)
        done = subprocess.run(
            [tool, "--no-owner", "--exit-on-error", "--dbname", target, str(src)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed ({done.returncode}): {done.stderr.strip()}")
        store.migrate()
        verified = verify(store, open_only=open_only)
    finally:
        store.close()
    if verified.failures:
        raise BackupError(_failed(verified))
    return Restored(revision, verified)


def _copied_revision(dump: str) -> str | None:
    """The revision in ``pg_restore --data-only --table=alembic_version`` output (a COPY)."""
    lines = dump.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line and i + 1 < len(lines):
            value = lines[i + 1].strip()
            return None if value in ("", "\\.") else value
    return None


def verify(store: Store, *, open_only: bool = False) -> Verified:
    """Replay every table's log (``open_only``: of the tables not over) and check the ledger
    balances (see the module's docstring)."""
    out = Verified()
    query = select(ParlorTable.id, ParlorTable.public_id, ParlorTable.match_seed)
    if open_only:
        query = query.where(ParlorTable.status.in_(OPEN_STATUSES))
    with store.session() as session:
        tables = session.execute(query).all()
    for table_id, public_id, seed in tables:
        with store.session() as session:
            lines = list(
                session.scalars(
                    select(TableLog.line)
                    .where(TableLog.table_id == table_id)
                    .order_by(TableLog.seq)
                )
            )
        if not lines:
            continue
        try:
            runner = MatchRunner.resume(lines, bytes.fromhex(seed))
        except (MahjongError, ValueError) as exc:
            out.failures.append(f"table {public_id}: its log does not replay: {exc}")
            continue
        out.tables += 1
        out.lines += len(lines)
        out.finished += int(runner.match_over)
    with store.session() as session:
        sums = session.execute(
            select(LedgerRow.txn_id, func.sum(LedgerRow.amount)).group_by(LedgerRow.txn_id)
        ).all()
        total = session.scalar(select(func.coalesce(func.sum(LedgerRow.amount), 0)))
    out.transactions = len(sums)
    for txn_id, amount in sums:
        if amount != 0:
            out.failures.append(f"ledger transaction {txn_id}: its rows sum to {amount}, not 0")
    if total != 0:
        out.failures.append(f"the ledger's rows sum to {total}, not 0")
    return out
