"""表 the parlor's tables as SQLAlchemy 2 models (the schema of docs/server.md).

The Alembic revisions under ``migrations/versions`` create exactly these; a test compares them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from hkmahjong.server.names import name_key, name_skeleton

__all__ = [
    "Account",
    "Base",
    "ClusterNode",
    "HandDetail",
    "HandFan",
    "HandResultRow",
    "LeagueDecisionRow",
    "LeagueRow",
    "LedgerRow",
    "LedgerTxn",
    "MatchResultRow",
    "ParlorTable",
    "RatingRow",
    "ReviewRow",
    "SessionRow",
    "TableAudit",
    "TableLease",
    "TableLog",
    "TableSeat",
    "UTCDateTime",
    "User",
    "UserPrefs",
    "utcnow",
]


def utcnow() -> datetime:
    """Now, in UTC, timezone-aware."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back timezone-aware on every database (SQLite keeps none)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: use an aware UTC time")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The parlor's declarative base (constraint names fixed for migrations)."""

    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """用戶 a player: registered (with an argon2 hash) or a guest (no password).

    ``name_key`` (unique: who the name is) and ``name_skeleton`` (indexed: what it looks like) are
    set from ``name`` whenever it is assigned (:mod:`hkmahjong.server.names`).
    """

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    name_skeleton: Mapped[str] = mapped_column(String(255), index=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    lang: Mapped[str] = mapped_column(String(16), default="zh-Hant")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    @validates("name")
    def _derive_name_columns(self, _attr: str, name: str) -> str:
        self.name_key = name_key(name)
        self.name_skeleton = name_skeleton(self.name_key)
        return name


class SessionRow(Base):
    """登入 a server-side session; only the SHA-256 of its token is stored."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Account(Base):
    """帳戶 a ledger account, named by its key (``user:12``, ``escrow:table:5``, ``system:grants``)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(128), unique=True)


class LedgerTxn(Base):
    """交易 one ledger transaction; ``idem_key`` makes posting it twice a no-op."""

    __tablename__ = "ledger_txns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idem_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    memo: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LedgerRow(Base):
    """分錄 one row of a transaction: an account and a signed integer amount of jade."""

    __tablename__ = "ledger_rows"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txns.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class ParlorTable(Base):
    """枱 a parlor table: practice or online, its resolved configuration and secret match seed."""

    __tablename__ = "parlor_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruleset_digest: Mapped[str] = mapped_column(String(128))
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_token: Mapped[str | None] = mapped_column(String(64))
    match_seed: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class TableSeat(Base):
    """座位 one of a table's four seats: a user, a bot level, or empty."""

    __tablename__ = "table_seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))


class TableLog(Base):
    """牌譜 one line of a table's game record (docs/records.md), appended before anyone is told."""

    __tablename__ = "table_log"

    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TableAudit(Base):
    """記錄 a decision about a table (cancelled, aborted, sat out) with its reason."""

    __tablename__ = "table_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class LeagueRow(Base):
    """聯賽 a league: its settings (``config``) and state (sign-ups, rounds, payouts) as JSON, as
    :class:`~hkmahjong.parlor.league.League` writes them; ``version`` counts its saved steps."""

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    __table_args__ = (Index("ix_leagues_name_lower", func.lower(name), unique=True),)


class LeagueDecisionRow(Base):
    """記錄 a decision about a league (created, started, seated, result, finished, 滾回, 滾出 …)
    and its reason, appended with the step that made it."""

    __tablename__ = "league_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class HandDetail(Base):
    """一局 a finished hand as its page (and a replay) shows it: ``HandSummary.detail`` — the
    seating, the names, the deltas by player and the whole outcome (fan breakdowns, payments)."""

    __tablename__ = "hand_details"

    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class HandResultRow(Base):
    """戰績 one player's part in one finished hand (``parlor.history.SeatHand``): the rows the
    statistics sum, by user (``user_id``; a bot seat has ``bot_level`` instead)."""

    __tablename__ = "hand_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"))
    hand: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    family: Mapped[str] = mapped_column(String(32))
    digest: Mapped[str] = mapped_column(String(128))
    seat: Mapped[str] = mapped_column(String(1))
    dealer: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool] = mapped_column(Boolean)
    self_drawn: Mapped[bool] = mapped_column(Boolean)
    fed_by: Mapped[int | None] = mapped_column(Integer)
    dealt_in: Mapped[bool] = mapped_column(Boolean)
    fed_to: Mapped[str] = mapped_column(String(8))
    false_win: Mapped[bool] = mapped_column(Boolean)
    drawn: Mapped[bool] = mapped_column(Boolean)
    fan: Mapped[int | None] = mapped_column(Integer)
    is_limit: Mapped[bool] = mapped_column(Boolean)
    delta: Mapped[float] = mapped_column(Float)
    liability_paid: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (
        Index("uq_hand_results_seat", "table_id", "hand", "player", unique=True),
        Index("ix_hand_results_user", "user_id", "id"),
        Index(
            "ix_hand_results_user_stats",
            "user_id",
            "digest",
            "kind",
            "family",
            "won",
            "self_drawn",
            "dealt_in",
            "drawn",
            "false_win",
            "fan",
            "delta",
            "liability_paid",
        ),
    )


class HandFan(Base):
    """番種 one pattern of one win (the fan-pattern counts are counts of these rows)."""

    __tablename__ = "hand_fans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"))
    hand: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))
    digest: Mapped[str] = mapped_column(String(128))
    fan_id: Mapped[str] = mapped_column(String(40))
    count: Mapped[int] = mapped_column(Integer)
    fan: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("uq_hand_fans_win", "table_id", "hand", "player", "fan_id", unique=True),
        Index("ix_hand_fans_user", "user_id", "fan_id"),
    )


class MatchResultRow(Base):
    """一場 one player's result of a finished match: total, place, jade, and the rating before
    and after it (online matches)."""

    __tablename__ = "match_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"))
    player: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    family: Mapped[str] = mapped_column(String(32))
    digest: Mapped[str] = mapped_column(String(128))
    length: Mapped[str] = mapped_column(String(16))
    hands: Mapped[int] = mapped_column(Integer)
    total: Mapped[float] = mapped_column(Float)
    place: Mapped[int] = mapped_column(Integer)
    jade: Mapped[int | None] = mapped_column(BigInteger)
    mu_before: Mapped[float | None] = mapped_column(Float)
    sigma_before: Mapped[float | None] = mapped_column(Float)
    mu_after: Mapped[float | None] = mapped_column(Float)
    sigma_after: Mapped[float | None] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (
        Index("uq_match_results_seat", "table_id", "player", unique=True),
        Index("ix_match_results_user", "user_id", "id"),
        Index("ix_match_results_family_user", "family", "user_id"),
    )


class RatingRow(Base):
    """等級分 a subject's rating (``user:12`` or ``bot:strong``) in one ruleset family."""

    __tablename__ = "ratings"

    subject: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_ratings_family_ordinal", "family", "ordinal"),)


class ReviewRow(Base):
    """覆盤 a finished hand's review for one player, summed up (docs/review.md): written when the
    review is computed (``/api/review``), read by the accuracy chart of the player's record page.
    One row a hand and player: a review at a larger ``budget`` replaces a smaller one's."""

    __tablename__ = "reviews"

    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    budget: Mapped[int] = mapped_column(Integer)
    reviewed: Mapped[int] = mapped_column(Integer)
    """Decisions judged (forced ones not counted)."""
    good: Mapped[int] = mapped_column(Integer)
    """Of them, judged good: accuracy = good / reviewed."""
    loss: Mapped[float] = mapped_column(Float)
    loss_se: Mapped[float | None] = mapped_column(Float)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """When the hand ended (its history row's time): the chart's order."""
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (Index("ix_reviews_user", "user_id", "played_at"),)


class ClusterNode(Base):
    """節點 one ``hkmj serve --cluster`` process: alive while ``expires_at`` (database time) is in
    the future; it renews the row every third of its lease (docs/deploy.md)."""

    __tablename__ = "cluster_nodes"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(200), default="")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TableLease(Base):
    """租約 which process owns a table, and the fencing token: ``epoch`` grows by one at every
    take-over, and every write for the table checks (owner, epoch) in its own transaction."""

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("parlor_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    acquired_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class UserPrefs(Base):
    """設定 a registered player's settings (``/api/me/settings``), one JSON object."""

    __tablename__ = "user_prefs"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    prefs: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
