"""戰績 the history, statistics and ratings on the parlor's database (docs/history.md).

:func:`keep_results` writes a table's :class:`~hkmahjong.parlor.history.TableResults` inside the
caller's transaction — :class:`~hkmahjong.server.store.tables.SqlTableStore` calls it in the same
transaction as the record lines that end the hand — and skips whatever was kept before (a hand by
``(table, hand)``, a match by its table), so a log replayed after a restart never counts a hand or
moves a rating twice. A finished online match updates the four players' ratings there too
(:func:`hkmahjong.parlor.rating.rate`), with the rating rows locked on PostgreSQL.

:class:`SqlHistory` reads it back for the pages: the statistics are SQL aggregates over one user's
indexed rows (the same :class:`~hkmahjong.parlor.history.Tally` the domain module defines), the
lists are pages of those rows, the jade chart is the user's ledger account.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from hkmahjong.parlor import accounts
from hkmahjong.parlor.history import MatchTally, TableFacts, TableResults, Tally
from hkmahjong.parlor.policy import pooled_ratings, rated_match
from hkmahjong.parlor.rating import Rating, rate, subject_of
from hkmahjong.server.names import lookup_key
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.models import (
    Account,
    HandDetail,
    HandFan,
    HandResultRow,
    LedgerRow,
    LedgerTxn,
    MatchResultRow,
    ParlorTable,
    RatingRow,
    TableLog,
    TableSeat,
    User,
    utcnow,
)

__all__ = [
    "HandLine",
    "JadeSeries",
    "LedgerLine",
    "MatchLine",
    "PlayerRef",
    "RatingLine",
    "SqlHistory",
    "hands_kept",
    "keep_results",
]


# --- writing ------------------------------------------------------------------------------------
def _line_time(session: Session, table_id: int, seq: int | None) -> datetime | None:
    if seq is None:
        return None
    return session.scalar(
        select(TableLog.created_at).where(TableLog.table_id == table_id, TableLog.seq == seq)
    )


def keep_results(
    session: Session, table_id: int, results: TableResults, *, from_log: bool = False
) -> int:
    """Keep ``results`` of table ``table_id`` in ``session``'s transaction (the caller commits);
    the number of hands newly kept. Hands and the match kept before are skipped.

    ``from_log``: the results come from a replayed log (their time is that of their log line).
    """
    facts = results.facts
    kept = 0
    have = set(
        session.scalars(
            select(HandDetail.hand).where(
                HandDetail.table_id == table_id,
                HandDetail.hand.in_([h.number for h in results.hands]),
            )
        )
    )
    now = utcnow()
    for hand in results.hands:
        if hand.number in have:
            continue
        at = (_line_time(session, table_id, hand.end_seq) if from_log else None) or now
        session.add(
            HandDetail(table_id=table_id, hand=hand.number, detail=hand.detail(facts.names), at=at)
        )
        for seat in hand.seats:
            p = seat.player
            session.add(
                HandResultRow(
                    table_id=table_id,
                    hand=hand.number,
                    player=p,
                    user_id=facts.user_ids[p],
                    bot_level=facts.bots[p],
                    kind=facts.kind,
                    family=facts.family,
                    digest=facts.digest,
                    seat=seat.seat,
                    dealer=seat.dealer,
                    won=seat.won,
                    self_drawn=seat.won and seat.self_drawn,
                    fed_by=seat.fed_by,
                    dealt_in=seat.dealt_in,
                    fed_to="".join(str(w) for w in seat.fed_to),
                    false_win=seat.false_win,
                    drawn=seat.drawn,
                    fan=seat.fan if seat.won else None,
                    is_limit=seat.limit,
                    delta=float(seat.delta),
                    liability_paid=seat.liability_paid,
                    at=at,
                )
            )
            if seat.won:
                merged: dict[str, tuple[int, int]] = {}
                for f in seat.fans:
                    count, fan = merged.get(f.id, (0, 0))
                    merged[f.id] = (count + f.count, fan + f.fan)
                session.add_all(
                    HandFan(
                        table_id=table_id,
                        hand=hand.number,
                        player=p,
                        user_id=facts.user_ids[p],
                        kind=facts.kind,
                        digest=facts.digest,
                        fan_id=fan_id[:40],
                        count=count,
                        fan=fan,
                    )
                    for fan_id, (count, fan) in merged.items()
                )
        kept += 1
    if results.match is not None:
        done = session.scalar(
            select(MatchResultRow.id).where(MatchResultRow.table_id == table_id).limit(1)
        )
        if done is None:
            at = (_line_time(session, table_id, results.match_end_seq) if from_log else None) or now
            _keep_match(session, table_id, results, at)
    session.flush()
    return kept


def _keep_match(session: Session, table_id: int, results: TableResults, at: datetime) -> None:
    facts, match = results.facts, results.match
    assert match is not None
    before: list[Rating | None] = [None] * 4
    after: list[Rating | None] = [None] * 4
    if rated_match(facts.kind, facts.user_ids, facts.bots):
        subjects = [subject_of(u, b) for u, b in zip(facts.user_ids, facts.bots, strict=True)]
        current = _lock_ratings(session, facts, subjects)
        before = [current[s][0] for s in subjects]
        new = rate([r for r in before if r is not None], [s.total for s in match.seats])
        after = list(new)
        _save_ratings(session, facts, subjects, new, at)
    for seat in match.seats:
        p = seat.player
        b, a = before[p], after[p]
        session.add(
            MatchResultRow(
                table_id=table_id,
                player=p,
                user_id=facts.user_ids[p],
                bot_level=facts.bots[p],
                name=facts.names[p][:64],
                kind=facts.kind,
                family=facts.family,
                digest=facts.digest,
                length=facts.length[:16],
                hands=match.hands,
                total=float(seat.total),
                place=seat.place,
                jade=seat.jade,
                mu_before=None if b is None else b.mu,
                sigma_before=None if b is None else b.sigma,
                mu_after=None if a is None else a.mu,
                sigma_after=None if a is None else a.sigma,
                at=at,
            )
        )


def _lock_ratings(
    session: Session, facts: TableFacts, subjects: Sequence[str]
) -> dict[str, tuple[Rating, int]]:
    """The subjects' ratings in the family (created at the default first), locked on PostgreSQL
    (SQLite's transactions hold the write lock already)."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    users = {subject_of(u, b): u for u, b in zip(facts.user_ids, facts.bots, strict=True) if u or b}
    fresh = Rating()
    session.execute(
        insert(RatingRow)
        .values(
            [
                {
                    "subject": s,
                    "family": facts.family,
                    "user_id": users.get(s),
                    "mu": fresh.mu,
                    "sigma": fresh.sigma,
                    "ordinal": fresh.ordinal,
                    "matches": 0,
                    "updated_at": utcnow(),
                }
                for s in sorted(set(subjects))
            ]
        )
        .on_conflict_do_nothing(index_elements=["subject", "family"])
    )
    query = (
        select(RatingRow)
        .where(RatingRow.family == facts.family, RatingRow.subject.in_(sorted(set(subjects))))
        .order_by(RatingRow.subject)
    )
    if dialect == "postgresql":
        query = query.with_for_update()
    return {r.subject: (Rating(r.mu, r.sigma), r.matches) for r in session.scalars(query)}


def _save_ratings(
    session: Session,
    facts: TableFacts,
    subjects: Sequence[str],
    new: Sequence[Rating],
    at: datetime,
) -> None:
    """Store each subject's new rating (a bot level seated several times in the match: the
    parlor's pooling, :func:`hkmahjong.parlor.policy.pooled_ratings`)."""
    grouped = pooled_ratings(subjects, new)
    rows = {
        r.subject: r
        for r in session.scalars(
            select(RatingRow).where(
                RatingRow.family == facts.family, RatingRow.subject.in_(list(grouped))
            )
        )
    }
    for subject, rating in grouped.items():
        row = rows[subject]
        row.mu, row.sigma, row.ordinal = rating.mu, rating.sigma, rating.ordinal
        row.matches += 1
        row.updated_at = at


# --- reading ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerRef:
    """A user as the history pages name them."""

    id: int
    name: str
    is_guest: bool


@dataclass(frozen=True)
class HandLine:
    """One row of a player's hand list: their part and the whole hand's detail."""

    table: str
    """The table's public id."""
    private: bool
    hand: int
    player: int
    seat: str
    won: bool
    self_drawn: bool
    fed_by: int | None
    dealt_in: bool
    fed_to: tuple[int, ...]
    false_win: bool
    drawn: bool
    fan: int | None
    delta: float
    liability_paid: int
    kind: str
    family: str
    at: datetime
    detail: dict[str, Any]


@dataclass(frozen=True)
class MatchLine:
    """One player's result of one match (a row of their match list or of a match's page)."""

    table: str
    private: bool
    player: int
    name: str
    user_id: int | None
    bot_level: str | None
    kind: str
    family: str
    digest: str
    length: str
    hands: int
    total: float
    place: int
    jade: int | None
    before: Rating | None
    after: Rating | None
    at: datetime


@dataclass(frozen=True)
class RatingLine:
    """A leaderboard row: who, the rating or the jade, the matches."""

    subject: str
    name: str
    user_id: int | None
    value: float
    matches: int
    rating: Rating | None


@dataclass(frozen=True)
class JadeSeries:
    """A user's jade balance after each change (oldest first) and when the first and the last
    change were made."""

    balances: list[int]
    first_at: datetime | None
    last_at: datetime | None


@dataclass(frozen=True)
class LedgerLine:
    """One ledger transaction of a match: its key, kind, memo and the rows (account, amount)."""

    key: str
    kind: str
    memo: str
    at: datetime
    rows: list[tuple[str, int]]


def _hand_filters(user_id: int, digest: str | None, kind: str | None) -> list[ColumnElement[bool]]:
    where = [HandResultRow.user_id == user_id]
    if digest:
        where.append(HandResultRow.digest == digest)
    if kind:
        where.append(HandResultRow.kind == kind)
    return where


def _match_filters(user_id: int, digest: str | None, kind: str | None) -> list[ColumnElement[bool]]:
    where = [MatchResultRow.user_id == user_id]
    if digest:
        where.append(MatchResultRow.digest == digest)
    if kind:
        where.append(MatchResultRow.kind == kind)
    return where


def _count(flag: Any) -> Any:
    return func.coalesce(func.sum(case((flag, 1), else_=0)), 0)


def _rating(mu: float | None, sigma: float | None) -> Rating | None:
    return None if mu is None or sigma is None else Rating(mu, sigma)


class SqlHistory:
    """Reads of the history for the pages and the API (each call one short transaction)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def user(self, name: str) -> PlayerRef | None:
        """The user called ``name`` (any case or width: its key), or None."""
        key = lookup_key(name)
        if key is None:
            return None
        with self.store.session() as s:
            row = s.execute(
                select(User.id, User.name, User.is_guest).where(User.name_key == key)
            ).first()
            return None if row is None else PlayerRef(int(row[0]), str(row[1]), bool(row[2]))

    def tally(self, user_id: int, digest: str | None = None, kind: str | None = None) -> Tally:
        """The :class:`Tally` of the user's hands (narrowed to a ruleset digest and table kind)."""
        r = HandResultRow
        query = select(
            func.count(),
            _count(r.won),
            _count(and_(r.won, r.self_drawn)),
            _count(r.dealt_in),
            _count(r.drawn),
            _count(r.false_win),
            func.coalesce(func.sum(case((r.won, r.fan), else_=0)), 0),
            func.coalesce(func.sum(r.delta), 0),
            func.coalesce(func.sum(r.liability_paid), 0),
            _count(r.liability_paid > 0),
        ).where(*_hand_filters(user_id, digest, kind))
        with self.store.session() as s:
            row = s.execute(query).one()
        points = float(row[7])
        return Tally(
            hands=int(row[0]),
            wins=int(row[1]),
            self_draws=int(row[2]),
            deal_ins=int(row[3]),
            draws=int(row[4]),
            false_wins=int(row[5]),
            fan_total=int(row[6]),
            points=int(points) if points.is_integer() else points,
            liability_paid=int(row[8]),
            liable_hands=int(row[9]),
        )

    def fan_counts(
        self, user_id: int, digest: str | None = None, kind: str | None = None
    ) -> list[tuple[str, int]]:
        """How many of the user's wins scored each pattern, most first."""
        where = [HandFan.user_id == user_id]
        if digest:
            where.append(HandFan.digest == digest)
        if kind:
            where.append(HandFan.kind == kind)
        n = func.count().label("n")
        query = (
            select(HandFan.fan_id, n)
            .where(*where)
            .group_by(HandFan.fan_id)
            .order_by(n.desc(), HandFan.fan_id)
        )
        with self.store.session() as s:
            return [(str(f), int(c)) for f, c in s.execute(query)]

    def match_tally(
        self, user_id: int, digest: str | None = None, kind: str | None = None
    ) -> MatchTally:
        """The :class:`MatchTally` of the user's finished matches."""
        m = MatchResultRow
        query = select(
            func.count(),
            *(_count(m.place == k) for k in (1, 2, 3, 4)),
            func.coalesce(func.sum(m.jade), 0),
            func.coalesce(func.sum(m.total), 0),
        ).where(*_match_filters(user_id, digest, kind))
        with self.store.session() as s:
            row = s.execute(query).one()
        points = float(row[6])
        return MatchTally(
            int(row[0]),
            (int(row[1]), int(row[2]), int(row[3]), int(row[4])),
            int(row[5]),
            int(points) if points.is_integer() else points,
        )

    def rulesets(self, user_id: int) -> list[tuple[str, str, int]]:
        """The rulesets the user played (family, digest, hands), most played first."""
        r = HandResultRow
        n = func.count().label("n")
        query = (
            select(r.family, r.digest, n)
            .where(r.user_id == user_id)
            .group_by(r.family, r.digest)
            .order_by(n.desc(), r.family)
        )
        with self.store.session() as s:
            return [(str(f), str(d), int(c)) for f, d, c in s.execute(query)]

    def hands(
        self,
        user_id: int,
        *,
        offset: int = 0,
        limit: int = 50,
        digest: str | None = None,
        kind: str | None = None,
    ) -> tuple[list[HandLine], int]:
        """A page of the user's hands, newest first, and how many there are."""
        r = HandResultRow
        where = _hand_filters(user_id, digest, kind)
        page = (  # the page's ids from the index first: a deep page joins only its own rows
            select(r.id).where(*where).order_by(r.id.desc()).offset(offset).limit(limit)
        ).scalar_subquery()
        query = (
            select(r, HandDetail.detail, ParlorTable.public_id, ParlorTable.private)
            .join(HandDetail, and_(HandDetail.table_id == r.table_id, HandDetail.hand == r.hand))
            .join(ParlorTable, ParlorTable.id == r.table_id)
            .where(r.id.in_(page))
            .order_by(r.id.desc())
        )
        with self.store.session() as s:
            total = int(s.scalar(select(func.count()).select_from(r).where(*where)) or 0)
            lines = [
                HandLine(
                    table=str(public_id),
                    private=bool(private),
                    hand=row.hand,
                    player=row.player,
                    seat=row.seat,
                    won=row.won,
                    self_drawn=row.self_drawn,
                    fed_by=row.fed_by,
                    dealt_in=row.dealt_in,
                    fed_to=tuple(int(c) for c in row.fed_to),
                    false_win=row.false_win,
                    drawn=row.drawn,
                    fan=row.fan,
                    delta=row.delta,
                    liability_paid=row.liability_paid,
                    kind=row.kind,
                    family=row.family,
                    at=row.at,
                    detail=dict(detail),
                )
                for row, detail, public_id, private in s.execute(query)
            ]
        return lines, total

    def _match_lines(self, s: Session, query: Any) -> list[MatchLine]:
        return [
            MatchLine(
                table=str(public_id),
                private=bool(private),
                player=m.player,
                name=m.name,
                user_id=m.user_id,
                bot_level=m.bot_level,
                kind=m.kind,
                family=m.family,
                digest=m.digest,
                length=m.length,
                hands=m.hands,
                total=m.total,
                place=m.place,
                jade=m.jade,
                before=_rating(m.mu_before, m.sigma_before),
                after=_rating(m.mu_after, m.sigma_after),
                at=m.at,
            )
            for m, public_id, private in s.execute(query)
        ]

    def matches(
        self,
        user_id: int,
        *,
        offset: int = 0,
        limit: int = 20,
        digest: str | None = None,
        kind: str | None = None,
    ) -> tuple[list[MatchLine], int]:
        """A page of the user's finished matches, newest first, and how many there are."""
        m = MatchResultRow
        where = _match_filters(user_id, digest, kind)
        query = (
            select(m, ParlorTable.public_id, ParlorTable.private)
            .join(ParlorTable, ParlorTable.id == m.table_id)
            .where(*where)
            .order_by(m.id.desc())
            .offset(offset)
            .limit(limit)
        )
        with self.store.session() as s:
            total = int(s.scalar(select(func.count()).select_from(m).where(*where)) or 0)
            return self._match_lines(s, query), total

    def table(self, public_id: str) -> tuple[int, str, bool, dict[str, Any]] | None:
        """A table's id, status, privacy and configuration, by its public id."""
        with self.store.session() as s:
            row = s.execute(
                select(
                    ParlorTable.id, ParlorTable.status, ParlorTable.private, ParlorTable.config
                ).where(ParlorTable.public_id == public_id)
            ).first()
            return None if row is None else (int(row[0]), str(row[1]), bool(row[2]), row[3])

    def seated(self, table_id: int) -> dict[int, str]:
        """The users holding a seat at the table, with their names."""
        with self.store.session() as s:
            found = s.execute(
                select(User.id, User.name)
                .join(TableSeat, TableSeat.user_id == User.id)
                .where(TableSeat.table_id == table_id)
            )
            return {int(u): str(n) for u, n in found}

    def match_results(self, table_id: int) -> list[MatchLine]:
        """The four results of the table's match (empty until it finished), by player."""
        m = MatchResultRow
        query = (
            select(m, ParlorTable.public_id, ParlorTable.private)
            .join(ParlorTable, ParlorTable.id == m.table_id)
            .where(m.table_id == table_id)
            .order_by(m.player)
        )
        with self.store.session() as s:
            return self._match_lines(s, query)

    def hand_details(self, table_id: int) -> list[tuple[dict[str, Any], datetime]]:
        """Every kept hand of the table, in order: its detail and when it ended."""
        with self.store.session() as s:
            rows = s.execute(
                select(HandDetail.detail, HandDetail.at)
                .where(HandDetail.table_id == table_id)
                .order_by(HandDetail.hand)
            )
            return [(dict(d), at) for d, at in rows]

    def ledger_lines(self, table_id: int) -> list[LedgerLine]:
        """The match's jade ledger transactions: buy-in, each hand's escrow move, the release or
        refund (their idempotency keys name the table)."""
        t = int(table_id)
        keys = [accounts.buy_in_key(t), accounts.release_key(t), accounts.refund_key(t)]
        lo, hi = accounts.hand_keys_range(t)
        with self.store.session() as s:
            txns = list(
                s.scalars(
                    select(LedgerTxn)
                    .where(
                        or_(
                            LedgerTxn.idem_key.in_(keys),
                            and_(LedgerTxn.idem_key >= lo, LedgerTxn.idem_key < hi),
                        )
                    )
                    .order_by(LedgerTxn.id)
                )
            )
            rows: dict[int, list[tuple[str, int]]] = {x.id: [] for x in txns}
            if txns:
                for txn_id, key, amount in s.execute(
                    select(LedgerRow.txn_id, Account.key, LedgerRow.amount)
                    .join(Account, Account.id == LedgerRow.account_id)
                    .where(LedgerRow.txn_id.in_(list(rows)))
                    .order_by(LedgerRow.txn_id, Account.key)
                ):
                    rows[int(txn_id)].append((str(key), int(amount)))
            return [LedgerLine(x.idem_key, x.kind, x.memo, x.created_at, rows[x.id]) for x in txns]

    def jade_series(self, user_id: int) -> JadeSeries:
        """The user's jade balance after each ledger transaction that moved it, oldest first,
        and the times of the first and the last (the amounts alone are read for all of them).

        A buy-in draws no point of its own: the stake it puts in escrow is still the player's
        until the match settles, so its amount is carried into the next point (the release or
        refund), which shows the match's net, fee included — never a loss and a recovery."""
        with self.store.session() as s:
            account = s.scalar(
                select(Account.id).where(Account.key == accounts.user_account(user_id))
            )
            if account is None:
                return JadeSeries([], None, None)
            rows = s.execute(
                select(LedgerRow.txn_id, LedgerRow.amount, LedgerTxn.kind)
                .join(LedgerTxn, LedgerTxn.id == LedgerRow.txn_id)
                .where(LedgerRow.account_id == account)
                .order_by(LedgerRow.txn_id)
            ).all()
            balances: list[int] = []
            balance = 0
            for _, amount, kind in rows:
                balance += int(amount)
                if kind != accounts.TxnKind.BUY_IN:
                    balances.append(balance)
            if not rows:
                return JadeSeries([], None, None)
            ends = {int(rows[0][0]), int(rows[-1][0])}
            found = s.execute(
                select(LedgerTxn.id, LedgerTxn.created_at).where(LedgerTxn.id.in_(ends))
            )
            times = {int(i): at for i, at in found}
            return JadeSeries(balances, times[int(rows[0][0])], times[int(rows[-1][0])])

    def ratings(self, user_id: int) -> list[tuple[str, Rating, int]]:
        """The user's rating in each family they played rated matches in (family, rating,
        matches), most matches first."""
        with self.store.session() as s:
            rows = s.scalars(
                select(RatingRow)
                .where(RatingRow.subject == f"user:{int(user_id)}")
                .order_by(RatingRow.matches.desc(), RatingRow.family)
            )
            return [(r.family, Rating(r.mu, r.sigma), r.matches) for r in rows]

    def families(self) -> list[str]:
        """Every ruleset family with a finished match, most matches first."""
        n = func.count().label("n")
        with self.store.session() as s:
            return [
                str(f)
                for f, _ in s.execute(
                    select(MatchResultRow.family, n)
                    .group_by(MatchResultRow.family)
                    .order_by(n.desc(), MatchResultRow.family)
                )
            ]

    def leaderboard_rating(self, family: str, limit: int = 100) -> list[RatingLine]:
        """排行榜 by rating (ordinal) in ``family``: registered players and the bot levels (guests
        are left out), best first."""
        query = (
            select(RatingRow, User.name, User.is_guest)
            .outerjoin(User, User.id == RatingRow.user_id)
            .where(
                RatingRow.family == family,
                RatingRow.matches > 0,
                or_(RatingRow.user_id.is_(None), User.is_guest.is_(False)),
            )
            .order_by(RatingRow.ordinal.desc(), RatingRow.subject)
            .limit(limit)
        )
        with self.store.session() as s:
            return [
                RatingLine(
                    r.subject,
                    str(name) if name is not None else r.subject.removeprefix("bot:"),
                    r.user_id,
                    r.ordinal,
                    r.matches,
                    Rating(r.mu, r.sigma),
                )
                for r, name, _ in s.execute(query)
            ]

    def leaderboard_jade(self, family: str, limit: int = 100) -> list[RatingLine]:
        """排行榜 by jade won less lost at the family's online tables (registered players)."""
        m = MatchResultRow
        total = func.sum(m.jade).label("jade")
        query = (
            select(m.user_id, User.name, total, func.count().label("n"))
            .join(User, User.id == m.user_id)
            .where(m.family == family, m.jade.is_not(None), User.is_guest.is_(False))
            .group_by(m.user_id, User.name)
            .order_by(total.desc(), User.name)
            .limit(limit)
        )
        with self.store.session() as s:
            return [
                RatingLine(f"user:{u}", str(name), u, float(j or 0), int(n), None)
                for u, name, j, n in s.execute(query)
            ]


def hands_kept(store: Store, table_id: int) -> int:
    """How many hands of the table are kept (tests, ``hkmj admin``)."""
    with store.session() as s:
        return int(
            s.scalar(
                select(func.count()).select_from(HandDetail).where(HandDetail.table_id == table_id)
            )
            or 0
        )
