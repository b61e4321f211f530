"""管理 the parlor administrator's operations on the database: list users and tables, grant jade,
make a user an administrator, cancel a table, create / start / cancel / inspect leagues (聯賽).
``hkmj admin`` is their command line."""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select

from hkmahjong.engine.match import MatchLength
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.league import (
    TIE_BREAKS,
    League,
    LeagueConfig,
    LeagueDesk,
    accounts_of,
    round_deadline,
    standings,
)
from hkmahjong.parlor.ledger import grant, user_account
from hkmahjong.parlor.lobby import WATCH_SECONDS
from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.parlor.table import Table
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.rules.toml_io import loads_ruleset
from hkmahjong.server.names import name_key
from hkmahjong.server.store import Store
from hkmahjong.server.store.leagues import SqlLeagueStore
from hkmahjong.server.store.ledger import SqlLedger, account_balances
from hkmahjong.server.store.models import (
    HandDetail,
    MatchResultRow,
    ParlorTable,
    TableLog,
    TableSeat,
    User,
)
from hkmahjong.server.store.tables import SqlTableStore

__all__ = [
    "AdminError",
    "Backfilled",
    "Cancelled",
    "TableRow",
    "UserRow",
    "backfill_history",
    "cancel_table",
    "create_league",
    "grant_jade",
    "league_desk",
    "league_report",
    "list_tables",
    "list_users",
    "set_admin",
]


class AdminError(MahjongError):
    """An admin operation that cannot be done (names the user or table and why)."""


@dataclass(frozen=True)
class UserRow:
    """A user as the admin lists it."""

    id: int
    name: str
    is_guest: bool
    is_admin: bool
    jade: int
    created_at: datetime


@dataclass(frozen=True)
class TableRow:
    """A table as the admin lists it."""

    id: int
    public_id: str
    kind: str
    status: str
    seats: int
    private: bool
    created_at: datetime
    stake: int | None = None
    fee: int = 0


def _user(store: Store, name: str) -> User:
    with store.session() as session:
        row = session.scalar(select(User).where(User.name_key == name_key(name)))
        if row is None:
            raise AdminError(f"no user named {name!r}")
        return row


def list_users(store: Store, *, guests: bool = False, limit: int = 100) -> list[UserRow]:
    """Registered users (and guests when asked), newest first, with their jade."""
    with store.session() as session:
        query = select(User).order_by(User.id.desc()).limit(limit)
        if not guests:
            query = query.where(User.is_guest.is_(False))
        users = list(session.scalars(query))
        jade = account_balances(session, [user_account(u.id) for u in users])
        return [
            UserRow(u.id, u.name, u.is_guest, u.is_admin, jade[user_account(u.id)], u.created_at)
            for u in users
        ]


def grant_jade(store: Store, name: str, amount: int, memo: str = "") -> int:
    """贈玉 give ``amount`` jade to the user ``name`` from the grants account; returns the new
    balance. Each call is its own transaction (a fresh idempotency key).

    :raises AdminError: for an unknown user, a guest, or an amount that is not positive.
    """
    if amount <= 0:
        raise AdminError(f"amount {amount}: expected a positive number of jade")
    user = _user(store, name)
    if user.is_guest:
        raise AdminError(f"{user.name} is a guest: guests hold no jade")
    ledger = SqlLedger(store)
    account = user_account(user.id)
    ledger.post_sync(
        grant(account, amount, f"grant:admin:{uuid.uuid4().hex}", memo or "admin grant")
    )
    return ledger.balance_sync(account)


def set_admin(store: Store, name: str, is_admin: bool = True) -> UserRow:
    """Make ``name`` an administrator (or not).

    :raises AdminError: for an unknown user or a guest.
    """
    user = _user(store, name)
    if user.is_guest:
        raise AdminError(f"{user.name} is a guest: register first")
    with store.session() as session:
        row = session.get(User, user.id)
        assert row is not None
        row.is_admin = is_admin
    return next(u for u in list_users(store, limit=1_000_000) if u.id == user.id)


def list_tables(store: Store, *, status: str | None = None, limit: int = 100) -> list[TableRow]:
    """Tables, newest first (only those with ``status`` when given), with their filled seats."""
    with store.session() as session:
        filled = (
            select(TableSeat.table_id, func.count().label("n"))
            .where((TableSeat.user_id.is_not(None)) | (TableSeat.bot_level.is_not(None)))
            .group_by(TableSeat.table_id)
            .subquery()
        )
        query = (
            select(ParlorTable, func.coalesce(filled.c.n, 0))
            .outerjoin(filled, filled.c.table_id == ParlorTable.id)
            .order_by(ParlorTable.id.desc())
            .limit(limit)
        )
        if status is not None:
            query = query.where(ParlorTable.status == status)
        return [
            TableRow(
                t.id,
                t.public_id,
                t.kind,
                t.status,
                int(n),
                t.private,
                t.created_at,
                (t.config or {}).get("stake"),
                int((t.config or {}).get("fee") or 0),
            )
            for t, n in session.execute(query)
        ]


# -- tables ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cancelled:
    """A table cancelled by :func:`cancel_table`."""

    public_id: str
    reason: str
    """As logged in the table's audit."""
    refunded: str | None
    """What went back to the seats, or None when nothing had been paid in."""


def _find_table(store: Store, ref: str) -> ParlorTable:
    with store.session() as session:
        row = session.scalar(select(ParlorTable).where(ParlorTable.public_id == ref.strip()))
        if row is None and ref.strip().isdigit():
            row = session.get(ParlorTable, int(ref))
        if row is None:
            raise AdminError(f"no table {ref!r} (hkmj admin tables lists them)")
        return row


CANCEL_WAIT_S = 3 * WATCH_SECONDS + 2
"""How long ``hkmj admin cancel`` waits for a running server to cancel the table itself."""


def cancel_table(
    store: Store, ref: str, reason: str, *, wait_s: float = CANCEL_WAIT_S
) -> Cancelled:
    """取消 the table ``ref`` (its public id, or its number) — every stake and fee refunded once,
    the reason logged in its audit, its status ``cancelled``.

    The command goes to the table's own actor: a cancel request in the table's audit, which the
    process holding the table (the single server, or the table's owner among several) hands to
    the actor within its lobby's watch (:meth:`Lobby.follow_requests`), so the table that plays
    is the one that stops, refunds and tells its seats. When no process has taken it up after
    ``wait_s`` seconds (no server runs; 0: do not wait), the table is rebuilt here from the
    database and cancelled the same way (a server started later follows its status).

    :raises AdminError: for an unknown table, one that is already over, an empty reason, or a
        refund that could not be made (the table is closed; its escrow needs a look).
    """
    why = " ".join(reason.split())
    if not why:
        raise AdminError("a cancellation needs a reason (--reason TEXT): it is logged with it")
    found = _find_table(store, ref)
    if found.status not in OPEN_STATUSES:
        raise AdminError(f"table {found.public_id} is already {found.status}: nothing to cancel")
    logged = f"admin: {why}"
    tables = SqlTableStore(store)
    status: str | None = found.status
    if wait_s > 0:
        tables.request_cancel(found.id, logged)
        deadline = time.monotonic() + wait_s
        while status in OPEN_STATUSES and time.monotonic() < deadline:
            time.sleep(0.1)  # a command-line process: no event loop to block
            status = tables.status_of(found.id)
    if status in OPEN_STATUSES:
        status = asyncio.run(_cancel(store, found.id, logged))
    audits = tables.audits(found.id)
    if status != "cancelled":
        raise AdminError(f"table {found.public_id} ended as {status} meanwhile: not cancelled")
    failed = [r for k, r in audits if k == "refund_failed"]
    if failed:
        raise AdminError(
            f"table {found.public_id} is cancelled but the refund failed: {failed[-1]}"
        )
    refunds = [r for k, r in audits if k == "refund"]
    return Cancelled(found.public_id, logged, refunds[-1] if refunds else None)


async def _cancel(store: Store, table_id: int, reason: str) -> str:
    tables = SqlTableStore(store)
    row = await tables.get(table_id)
    assert row is not None
    table = await Table.restore(tables, row, ledger=SqlLedger(store))
    await table.cancel(reason)
    return table.status


# -- history ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Backfilled:
    """What ``hkmj admin history backfill`` did: tables looked at and rebuilt, hands and matches
    newly kept, and the tables whose log does not replay (id and why)."""

    tables: int
    rebuilt: int
    hands: int
    matches: int
    skipped: tuple[tuple[str, str], ...]


def _missing_history(store: Store) -> list[tuple[int, int]]:
    """``(table id, hands kept)`` of every table that is over and whose history is not all kept
    (fewer hands kept than its log ended, or a finished match not kept), in the order the tables
    ended (their last log line)."""
    with store.session() as s:
        last = (
            select(TableLog.table_id, func.max(TableLog.created_at).label("at"))
            .group_by(TableLog.table_id)
            .subquery()
        )
        ends = dict(
            s.execute(
                select(TableLog.table_id, func.count())
                .where(TableLog.line.like('{"t":"end"%'))
                .group_by(TableLog.table_id)
            ).all()
        )
        kept = dict(
            s.execute(select(HandDetail.table_id, func.count()).group_by(HandDetail.table_id)).all()
        )
        matched = set(s.scalars(select(MatchResultRow.table_id).distinct()))
        rows = s.execute(
            select(ParlorTable.id, ParlorTable.status)
            .join(last, last.c.table_id == ParlorTable.id)
            .where(ParlorTable.status.not_in(OPEN_STATUSES))
            .order_by(last.c.at, ParlorTable.id)
        ).all()
    return [
        (int(t), int(kept.get(t, 0)))
        for t, status in rows
        if kept.get(t, 0) < ends.get(t, 0) or (status == "finished" and t not in matched)
    ]


def backfill_history(store: Store) -> Backfilled:
    """戰績補錄 keep the history (hands, matches, ratings: docs/history.md) of every table that
    is over — finished, cancelled or aborted — from its stored log, for tables that ended before
    the history was kept. Each table is rebuilt from its log as a restarting server rebuilds one
    (:meth:`Table.restore`: the engine replays and verifies it) and hands its hands and match to the
    store, which keeps each hand once per ``(table, hand)`` and each match (with its rating update)
    once per table; tables whose history is complete are not even rebuilt. So running it again
    changes nothing. Matches are rated in the order their tables ended.
    """
    tables = SqlTableStore(store)
    todo = _missing_history(store)
    with store.session() as s:
        before_matches = s.scalar(select(func.count(MatchResultRow.table_id.distinct()))) or 0
        before_hands = s.scalar(select(func.count()).select_from(HandDetail)) or 0
        over = (
            s.scalar(
                select(func.count())
                .select_from(ParlorTable)
                .where(ParlorTable.status.not_in(OPEN_STATUSES))
            )
            or 0
        )
    skipped: list[tuple[str, str]] = []

    async def rebuild(table_id: int) -> None:
        row = await tables.get(table_id)
        assert row is not None
        table = await Table.restore(tables, row)
        if table.broken is not None:
            skipped.append((row.public_id, table.broken))

    for table_id, _kept in todo:
        asyncio.run(rebuild(table_id))
    with store.session() as s:
        after_matches = s.scalar(select(func.count(MatchResultRow.table_id.distinct()))) or 0
        after_hands = s.scalar(select(func.count()).select_from(HandDetail)) or 0
    return Backfilled(
        over,
        len(todo) - len(skipped),
        after_hands - before_hands,
        after_matches - before_matches,
        tuple(skipped),
    )


# -- leagues ---------------------------------------------------------------------------------------
def league_desk(store: Store) -> LeagueDesk:
    """The league operations on the parlor's database."""
    return LeagueDesk(SqlLeagueStore(store))


def parse_time(text: str | None, default: datetime) -> datetime:
    """An ISO 8601 time (``2026-05-01T20:00``, ``2026-05-01 20:00+08:00``); without a zone it is
    UTC; ``default`` when not given.

    :raises AdminError: when it does not read.
    """
    if text is None:
        return default
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise AdminError(f"time {text!r}: expected ISO 8601, e.g. 2026-05-01T20:00+08:00") from None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def parse_prizes(text: str) -> tuple[int, ...]:
    """The prize distribution ``50,30,20`` (percentages by rank).

    :raises AdminError: when it is not whole numbers separated by commas.
    """
    try:
        return tuple(int(p) for p in text.replace(" ", "").split(","))
    except ValueError:
        raise AdminError(f"prizes {text!r}: expected percentages by rank, e.g. 50,30,20") from None


def create_league(
    store: Store,
    name: str,
    *,
    preset: str = "parlor",
    rules_file: Path | None = None,
    opens: str | None = None,
    closes: str | None = None,
    signup_hours: int = 24,
    prizes: str = "50,30,20",
    seed: str | None = None,
    **settings: object,
) -> League:
    """聯賽 a new league, open for sign-up (from ``opens``, default now, for ``signup_hours`` unless
    ``closes`` is given); ``settings`` are :class:`LeagueConfig` fields.

    :raises AdminError: for a time or prize list that does not read.
    :raises MahjongError: for rules that do not load or a setting out of range.
    """
    ruleset: Ruleset
    if rules_file is not None:
        try:
            text = rules_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise AdminError(f"cannot read the rules file {rules_file}: {exc.strerror}") from None
        ruleset = loads_ruleset(text, source=str(rules_file))
    else:
        ruleset = get_preset(preset)
    start = parse_time(opens, datetime.now(UTC))
    end = parse_time(closes, start + timedelta(hours=signup_hours))
    config = LeagueConfig.of(
        name,
        ruleset,
        signup_opens=start,
        signup_closes=end,
        prizes=parse_prizes(prizes),
        **settings,
    )
    return league_desk(store).create(config, seed=seed)


def _place(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def league_report(store: Store, league: League) -> str:
    """``hkmj admin league show``: terms, entrants, standings, rounds, the ledger's view of its
    accounts, payouts and every decision with its reason."""
    c = league.config
    pool, escrow = accounts_of(league)
    held = SqlLedger(store).balances_sync([pool, escrow])
    names = {e.user_id: e.name for e in league.entrants}
    rules = c.rules.get("preset") or "house rules"
    out = [
        f"league {league.id} {c.name!r}: {league.status}"
        + (f" (round {len(league.rounds)} of {c.rounds})" if league.status == "running" else ""),
        f"  rules {rules} (digest {c.digest[:16]}), {c.rounds} round(s) of "
        f"{c.length} ({MatchLength.parse(c.length).zh})",
        "  free league (免費聯賽)"
        if c.free
        else f"  entry fee {c.entry_fee} (手續費) + stake {c.stake} (賭注) jade",
        f"  pool {league.prize_pool} jade (guarantee {c.guarantee}"
        + (f", {c.fee_to_pool}% of the fees when it finishes" if c.fee_to_pool else "")
        + f"); ledger: {pool} {held[pool]}, {escrow} {held[escrow]}",
        "  prizes " + ", ".join(f"{_place(i)} {p}%" for i, p in enumerate(c.prizes, start=1)),
        f"  sign-up {c.signup_opens:%Y-%m-%d %H:%M} – {c.signup_closes:%Y-%m-%d %H:%M} UTC, "
        f"{c.min_players}..{c.max_players} players; fill: {c.fill}"
        + (f" ({c.bot_level})" if c.fill == "bots" else "")
        + f"; each round at most {c.round_minutes} min"
        + (
            f" (this one's time is up at {due:%Y-%m-%d %H:%M} UTC)"
            if (due := round_deadline(league)) is not None
            else ""
        ),
        "  tie-breaks: " + "; ".join(TIE_BREAKS),
        f"entrants ({len(league.active)}):",
    ]
    out += [f"  {e.seq + 1:>3}. {e.name} (user {e.user_id})" for e in league.active] or ["  none"]
    if league.rounds:
        out.append("standings:")
        out.append(f"  {'#':>3}  {'name':<24} {'points':>7} {'matches':>7} {'best':>6} {'byes':>4}")
        out += [
            f"  {s.rank:>3}  {s.name:<24} {s.points:>7} {s.matches:>7} {s.best:>6} {s.byes:>4}"
            for s in standings(league)
        ]
        for rnd in league.rounds:
            out.append(f"round {rnd.number}:")
            for m in rnd.matches:
                seats = ", ".join(
                    (names.get(s, "?") if s is not None else f"{c.bot_level}-bot")
                    + ("" if m.points is None else f" {m.points[i]:+d}")
                    for i, s in enumerate(m.seats)
                )
                where = f" [table {m.table_id}]" if m.table_id else ""
                if m.voided:
                    where += f" [void: {', '.join(m.voided)}]"
                out.append(f"  table {m.table}: {seats}{'' if m.over else ' (playing)'}{where}")
            if rnd.byes:
                out.append("  byes: " + ", ".join(names.get(b, "?") for b in rnd.byes))
    if league.payouts:
        out.append("payouts:")
        out += [f"  {names.get(p.user_id, '?')}: {p.kind} {p.amount}" for p in league.payouts]
    out.append("decisions:")
    out += [f"  {d.at:%Y-%m-%d %H:%M:%S} {d.kind}: {d.reason}" for d in league.log]
    return "\n".join(out)
