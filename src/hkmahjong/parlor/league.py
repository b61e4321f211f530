"""聯賽 (leagues): sign-up, rounds, standings by table points, prizes, and cancellation (seed 002).

A league is plain data (:class:`League`); every step — join, leave, start, a match's result,
cancel — is a pure function from one league to the next plus the jade :class:`Transaction` s it
moves (:class:`Step`). :class:`LeagueDesk` applies steps through a :class:`LeagueStore`, which
saves the new league and posts its transactions in one unit (all or nothing), so a retry can never
pay twice: each transaction carries an idempotency key (``league:5:prizes``), and a league only
moves forward (a step on a league already past it changes nothing).

Money, as seed 002 names it (docs/leagues.md):

- **手續費 entry fee** — the house's charge, held in ``escrow:league:{id}:fees`` while the league
  runs and taken into ``system:fees`` when it ends; refunded by every cancellation (seed 002 滾回
  and 滾出 both refund it).
- **賭注 stake** — each entrant's stake goes into the **獎池 prize pool** ``pool:league:{id}``.
- **保證獎池 guarantee** — jade the house adds to the pool from ``system:leagues`` at the start.
- A **免費聯賽 free league** has neither fee nor stake (its pool, if any, is the house's guarantee).

*Reading:* a fee refunded on 滾出 cannot also be in the pool that 滾出 splits, so the fees stay in
their escrow while the league runs: the pool is the stakes plus the guarantee. A league whose
prizes are (partly) paid from the fees says so with ``fee_to_pool`` (手續費撥入獎池, a percentage):
when the league **finishes**, that share of the fee escrow joins the pool before the prizes are
paid and the rest goes to the house; a cancelled league refunds every fee in full, so a fee is
never both refunded and paid out.

Cancellation, seed 002 《取消》 (quoted in :func:`cancel`): **滾回 rolled back** (cancelled before it
starts) refunds every registered player's fee and stake; **滾出 rolled out** (cancelled after it
started) refunds the fees and splits the pool 50% equally among the entrants and 50% in proportion
to their table points (牌桌積分); a cancelled free league pays no pool.

>>> from datetime import timedelta
>>> from hkmahjong.rules import get_preset
>>> cfg = LeagueConfig.of("Spring", get_preset("parlor"), entry_fee=10, stake=100,
...                       signup_opens=T0, signup_closes=T0 + timedelta(days=1))
>>> lg = new_league(cfg, seed="s", now=T0, league_id=1)
>>> step = join(lg, 7, "Ah Ming", now=T0)
>>> step.league.status.value, step.txns[0].amounts()
('open', {'escrow:league:1:fees': 10, 'pool:league:1': 100, 'user:7': -110})
"""

from __future__ import annotations

import itertools
import random
import secrets
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from hkmahjong.engine.match import MatchLength
from hkmahjong.engine.record import rules_from_spec, rules_spec
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.accounts import TxnKind, league_fees, league_pool
from hkmahjong.parlor.ledger import (
    FEES,
    InsufficientJadeError,
    LedgerError,
    MemoryLedger,
    Transaction,
    user_account,
)
from hkmahjong.parlor.seats import BOT_LEVELS
from hkmahjong.rules import Ruleset

__all__ = [
    "FILLS",
    "LEAGUES",
    "MAX_TABLES",
    "STATUSES",
    "T0",
    "TIE_BREAKS",
    "Decision",
    "Entrant",
    "League",
    "LeagueConfig",
    "LeagueConflictError",
    "LeagueDesk",
    "LeagueError",
    "LeagueMatch",
    "LeagueStatus",
    "LeagueStore",
    "MemoryLeagueStore",
    "Payout",
    "Round",
    "Standing",
    "Step",
    "accounts_of",
    "cancel",
    "escrow_of",
    "join",
    "largest_remainder",
    "leave",
    "link_table",
    "new_league",
    "pool_of",
    "prize_amounts",
    "record_result",
    "replay_match",
    "rollout_amounts",
    "round_deadline",
    "seat_round",
    "standings",
    "start",
    "time_up",
]

LEAGUES = "system:leagues"
"""The house's account that funds guarantees (and takes back a cancelled free league's pool)."""


class LeagueStatus(StrEnum):
    """A league's status, stored as its value: open for sign-up, running, or over — finished,
    rolled back (滾回, cancelled before it started) or rolled out (滾出, cancelled after)."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    ROLLED_BACK = "rolled_back"
    ROLLED_OUT = "rolled_out"


STATUSES = tuple(LeagueStatus)
"""報名中, 進行中, 完結, 滾回, 滾出."""

OVER = frozenset({LeagueStatus.FINISHED, LeagueStatus.ROLLED_BACK, LeagueStatus.ROLLED_OUT})
FILLS = ("bots", "byes")
"""What fills a round when the players are not a multiple of 4: bots at the tables, or byes."""

MAX_JADE = 10**9
MAX_ROUNDS = 20
MAX_PLAYERS = 1024
MAX_PLACES = 16
T0 = datetime(2026, 1, 1, tzinfo=UTC)
"""A fixed time for examples and tests."""


class LeagueError(MahjongError):
    """A league step refused: ``code`` for the API (``closed``, ``started``, ``full``, ``balance``,
    ``entered``, ``not_entered``, ``too_few``, ``bad_config``, ``bad_result``, ``over``,
    ``not_found``, ``name_taken``), ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class LeagueConflictError(LeagueError):
    """The league changed since it was read (another step won the race): read it again."""

    def __init__(self, message: str) -> None:
        super().__init__("conflict", message)


def pool_of(league_id: int) -> str:
    """獎池 the prize pool account of a league: ``pool:league:5``."""
    return league_pool(league_id)


def escrow_of(league_id: int) -> str:
    """The account that holds a league's entry fees until it ends: ``escrow:league:5:fees``."""
    return league_fees(league_id)


def _aware(value: datetime, what: str) -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise LeagueError("bad_config", f"{what} {value!r}: expected a timezone-aware time")
    return value.astimezone(UTC)


def _jade(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_JADE:
        raise LeagueError("bad_config", f"{what} {value!r}: expected 0..{MAX_JADE} jade")
    return value


# -- configuration ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LeagueConfig:
    """聯賽設定 what a league is, as the administrator sets it (stored as JSON).

    ``prizes`` is the published distribution: percentages of the pool by final rank (1st, 2nd, …),
    summing to 100, never rising. With fewer entrants than places, the places past the last
    entrant are dropped and the rest scaled up in proportion.

    :raises LeagueError: ``bad_config`` naming the field, when a value is out of range.
    """

    name: str
    rules: dict[str, Any]
    """``rules_spec`` of the ruleset (``{"preset", "digest"}`` or ``{"toml", "digest"}``)."""
    signup_opens: datetime
    signup_closes: datetime
    length: str = MatchLength.ONLINE.value
    entry_fee: int = 0
    stake: int = 0
    guarantee: int = 0
    prizes: tuple[int, ...] = (50, 30, 20)
    rounds: int = 3
    fill: str = "bots"
    bot_level: str = "normal"
    min_players: int = 4
    max_players: int = 64
    round_minutes: int = 60
    """The schedule (時限): each round has ``round_minutes`` from when it is seated; a round starts
    as soon as the previous one has ended, and one still being played when its time is up is
    ended by :func:`time_up` (the hands finished count)."""
    fee_to_pool: int = 0
    """手續費撥入獎池: the percentage (0..100) of the entry fees that joins the prize pool when the
    league finishes (the rest goes to the house); every cancellation refunds the fees in full."""

    def __post_init__(self) -> None:
        name = self.name.strip() if isinstance(self.name, str) else ""
        if not 1 <= len(name) <= 64 or any(not c.isprintable() for c in name):
            raise LeagueError("bad_config", f"name {self.name!r}: expected 1..64 printable chars")
        object.__setattr__(self, "name", name)
        try:
            ruleset = rules_from_spec(self.rules, source="the league's rules")
            length = MatchLength.parse(self.length)
            if length is MatchLength.OPEN:
                raise LeagueError(
                    "bad_config", "a league match needs an end: length 'open' never ends"
                )
            length = MatchLength.for_table("league", ruleset.match_lengths, self.length)
        except LeagueError:
            raise
        except MahjongError as exc:
            raise LeagueError("bad_config", str(exc)) from None
        object.__setattr__(self, "length", length.value)
        for what in ("entry_fee", "stake", "guarantee"):
            _jade(getattr(self, what), what)
        prizes = tuple(self.prizes)
        if (
            not 1 <= len(prizes) <= MAX_PLACES
            or any(type(p) is not int or p <= 0 for p in prizes)
            or sum(prizes) != 100
            or any(a < b for a, b in itertools.pairwise(prizes))
        ):
            raise LeagueError(
                "bad_config",
                f"prizes {list(prizes)!r}: expected 1..{MAX_PLACES} positive whole percentages "
                "by rank, summing to 100, never rising (e.g. 50,30,20)",
            )
        object.__setattr__(self, "prizes", prizes)
        if type(self.rounds) is not int or not 1 <= self.rounds <= MAX_ROUNDS:
            raise LeagueError("bad_config", f"rounds {self.rounds!r}: expected 1..{MAX_ROUNDS}")
        if self.fill not in FILLS:
            raise LeagueError("bad_config", f"fill {self.fill!r}: expected bots or byes")
        if self.bot_level not in BOT_LEVELS:
            raise LeagueError(
                "bad_config", f"bot level {self.bot_level!r}: expected {', '.join(BOT_LEVELS)}"
            )
        least = 4 if self.fill == "byes" else 2
        if type(self.min_players) is not int or not least <= self.min_players <= MAX_PLAYERS:
            raise LeagueError(
                "bad_config",
                f"min players {self.min_players!r}: expected {least}..{MAX_PLAYERS} "
                f"(with {self.fill}, a table needs {least} people)",
            )
        if type(self.max_players) is not int or not self.min_players <= self.max_players <= (
            MAX_PLAYERS
        ):
            raise LeagueError(
                "bad_config",
                f"max players {self.max_players!r}: expected {self.min_players}..{MAX_PLAYERS}",
            )
        if type(self.round_minutes) is not int or not 1 <= self.round_minutes <= 7 * 24 * 60:
            raise LeagueError(
                "bad_config", f"round minutes {self.round_minutes!r}: expected 1..10080"
            )
        if type(self.fee_to_pool) is not int or not 0 <= self.fee_to_pool <= 100:
            raise LeagueError(
                "bad_config", f"fee to pool {self.fee_to_pool!r}: expected a percentage 0..100"
            )
        opens = _aware(self.signup_opens, "sign-up opens")
        closes = _aware(self.signup_closes, "sign-up closes")
        if closes <= opens:
            raise LeagueError("bad_config", "the sign-up window closes before it opens")
        object.__setattr__(self, "signup_opens", opens)
        object.__setattr__(self, "signup_closes", closes)

    @classmethod
    def of(cls, name: str, ruleset: Ruleset, **settings: Any) -> LeagueConfig:
        """A configuration for ``ruleset`` (its spec and digest computed here)."""
        return cls(name, rules_spec(ruleset), **settings)

    @property
    def ruleset(self) -> Ruleset:
        """The league's ruleset (checked against its digest)."""
        return rules_from_spec(self.rules, source="the league's rules")

    @property
    def digest(self) -> str:
        """The ruleset's digest (shown on the league's page)."""
        return str(self.rules.get("digest", ""))

    @property
    def free(self) -> bool:
        """免費聯賽: no entry fee and no stake."""
        return self.entry_fee == 0 and self.stake == 0

    def to_json(self) -> dict[str, Any]:
        """JSON for the store."""
        return {
            "name": self.name,
            "rules": self.rules,
            "signup_opens": self.signup_opens.isoformat(),
            "signup_closes": self.signup_closes.isoformat(),
            "length": self.length,
            "entry_fee": self.entry_fee,
            "stake": self.stake,
            "guarantee": self.guarantee,
            "prizes": list(self.prizes),
            "rounds": self.rounds,
            "fill": self.fill,
            "bot_level": self.bot_level,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "round_minutes": self.round_minutes,
            "fee_to_pool": self.fee_to_pool,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> LeagueConfig:
        """A configuration from :meth:`to_json`.

        :raises LeagueError: ``bad_config`` when it is not one.
        """
        try:
            data = dict(obj)
            for key in ("signup_opens", "signup_closes"):
                data[key] = datetime.fromisoformat(data[key])
            data["prizes"] = tuple(data.get("prizes", (50, 30, 20)))
            return cls(**data)
        except (KeyError, TypeError, ValueError) as exc:
            raise LeagueError("bad_config", f"bad league settings: {exc}") from None


# -- state -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entrant:
    """參賽者 one sign-up: the user, the name shown, and whether they left while sign-up was open.

    Sign-ups are kept in order (``seq``), never removed, so a user who joins, leaves and joins
    again has a fresh idempotency key each time (``entry`` counts their earlier sign-ups).
    """

    user_id: int
    name: str
    seq: int
    entry: int = 0
    left: bool = False


@dataclass(frozen=True)
class LeagueMatch:
    """一場 one table of a round: four seats (a user id, or None for a bot) and, once it has
    ended, each seat's table points (牌桌積分: the match's result in points)."""

    round: int
    table: int
    seats: tuple[int | None, ...]
    points: tuple[int, ...] | None = None
    table_id: str | None = None
    """The online table playing it (its public id), when rounds are played in the parlor."""
    voided: tuple[str, ...] = ()
    """The tables of this match that were cancelled or aborted on their own (their hands count
    nothing; the match was played again: :func:`replay_match`)."""

    @property
    def attempt(self) -> int:
        """Which table of this match is being played: 1, then 2 after one was voided, …"""
        return len(self.voided) + 1

    @property
    def over(self) -> bool:
        """Whether its result is in."""
        return self.points is not None


@dataclass(frozen=True)
class Round:
    """一輪 the round's tables and who sat out with a bye."""

    number: int
    matches: tuple[LeagueMatch, ...]
    byes: tuple[int, ...] = ()
    seated_at: datetime | None = None
    """When it was seated: its time (``round_minutes``) runs from here (None: stored before
    rounds had a time; the league's start is used)."""

    @property
    def over(self) -> bool:
        """Every table's result is in."""
        return all(m.over for m in self.matches)


@dataclass(frozen=True)
class Decision:
    """記錄 a decision about the league and why (seed 002: the platform's decisions are final;
    docs/rules.md §13: each logged with its reason)."""

    at: datetime
    kind: str
    reason: str


@dataclass(frozen=True)
class Payout:
    """A payment to an entrant when the league ended: ``kind`` is ``prize``, ``fee_refund``,
    ``stake_refund``, ``split_equal`` or ``split_points``."""

    user_id: int
    kind: str
    amount: int


@dataclass(frozen=True)
class League:
    """聯賽 one league: its settings, sign-ups, rounds, decisions and payouts.

    ``version`` counts saved steps (the store refuses a step computed from an older version).
    """

    id: int
    config: LeagueConfig
    seed: str
    status: LeagueStatus = LeagueStatus.OPEN
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    log: tuple[Decision, ...] = ()
    payouts: tuple[Payout, ...] = ()
    version: int = 0
    created_at: datetime = T0
    started_at: datetime | None = None
    ended_at: datetime | None = None

    @property
    def active(self) -> tuple[Entrant, ...]:
        """The entrants (sign-ups not withdrawn), in sign-up order."""
        return tuple(e for e in self.entrants if not e.left)

    def entrant(self, user_id: int) -> Entrant | None:
        """The user's current sign-up, or None."""
        return next((e for e in self.active if e.user_id == user_id), None)

    @property
    def over(self) -> bool:
        """Finished, rolled back or rolled out."""
        return self.status in OVER

    @property
    def pool(self) -> int:
        """獎池 the prize pool: every entrant's stake, plus the guarantee once the league started."""
        guarantee = self.config.guarantee if self.started_at is not None else 0
        return self.config.stake * len(self.active) + guarantee

    @property
    def promised_pool(self) -> int:
        """The pool as it stands at the start: the stakes so far plus the guarantee."""
        return self.config.stake * len(self.active) + self.config.guarantee

    @property
    def fee_share(self) -> int:
        """The jade of the entry fees that joins the pool if the league finishes
        (``fee_to_pool`` percent of the fees held, rounded down)."""
        return self.config.entry_fee * len(self.active) * self.config.fee_to_pool // 100

    @property
    def prize_pool(self) -> int:
        """What the prizes share if the league finishes: the pool plus the fees' share (before
        the start, with the guarantee it will add)."""
        return (self.pool if self.started_at is not None else self.promised_pool) + self.fee_share

    @property
    def shown_pool(self) -> int:
        """The pool a page shows: while the league is open or running, what the prizes would
        share (:attr:`prize_pool`); once it ended, what was actually paid out of it — the prizes
        (完結), the split (滾出; 0 for a free league, whose guarantee went back to the house) —
        or, rolled back, the stakes refunded."""
        if self.status == LeagueStatus.FINISHED:
            return sum(p.amount for p in self.payouts if p.kind == "prize")
        if self.status == LeagueStatus.ROLLED_OUT:
            return sum(p.amount for p in self.payouts if p.kind.startswith("split_"))
        if self.status == LeagueStatus.ROLLED_BACK:
            return sum(p.amount for p in self.payouts if p.kind == "stake_refund")
        return self.prize_pool

    @property
    def current_round(self) -> Round | None:
        """The round being played (the last one seated), or None before the start."""
        return self.rounds[-1] if self.rounds else None

    def to_json(self) -> dict[str, Any]:
        """The league's state as JSON (the config is stored on its own)."""
        return {
            "seed": self.seed,
            "entrants": [
                {"user": e.user_id, "name": e.name, "seq": e.seq, "entry": e.entry, "left": e.left}
                for e in self.entrants
            ],
            "rounds": [
                {
                    "number": r.number,
                    "byes": list(r.byes),
                    "seated_at": None if r.seated_at is None else r.seated_at.isoformat(),
                    "matches": [
                        {
                            "table": m.table,
                            "seats": list(m.seats),
                            "points": None if m.points is None else list(m.points),
                            "table_id": m.table_id,
                            "voided": list(m.voided),
                        }
                        for m in r.matches
                    ],
                }
                for r in self.rounds
            ],
            "payouts": [[p.user_id, p.kind, p.amount] for p in self.payouts],
            "started_at": None if self.started_at is None else self.started_at.isoformat(),
            "ended_at": None if self.ended_at is None else self.ended_at.isoformat(),
        }

    @classmethod
    def from_json(
        cls,
        league_id: int,
        config: LeagueConfig,
        status: str,
        state: Mapping[str, Any],
        log: Sequence[Decision],
        *,
        version: int,
        created_at: datetime,
    ) -> League:
        """A league from its stored parts.

        :raises LeagueError: ``bad_config`` when the state does not read.
        """
        try:
            rounds = tuple(
                Round(
                    int(r["number"]),
                    tuple(
                        LeagueMatch(
                            int(r["number"]),
                            int(m["table"]),
                            tuple(None if s is None else int(s) for s in m["seats"]),
                            None if m["points"] is None else tuple(int(p) for p in m["points"]),
                            m.get("table_id"),
                            tuple(str(v) for v in m.get("voided", ())),
                        )
                        for m in r["matches"]
                    ),
                    tuple(int(b) for b in r["byes"]),
                    _time(r.get("seated_at")),
                )
                for r in state.get("rounds", ())
            )
            return cls(
                id=league_id,
                config=config,
                seed=str(state["seed"]),
                status=LeagueStatus(status),
                entrants=tuple(
                    Entrant(
                        int(e["user"]),
                        str(e["name"]),
                        int(e["seq"]),
                        int(e["entry"]),
                        bool(e["left"]),
                    )
                    for e in state.get("entrants", ())
                ),
                rounds=rounds,
                log=tuple(log),
                payouts=tuple(Payout(int(u), str(k), int(a)) for u, k, a in state["payouts"]),
                version=version,
                created_at=created_at,
                started_at=_time(state.get("started_at")),
                ended_at=_time(state.get("ended_at")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LeagueError(
                "bad_config", f"league {league_id}: bad stored state: {exc}"
            ) from None


def _time(value: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


@dataclass(frozen=True)
class Step:
    """What a step does: the league after it and the jade it moves (empty when nothing changes)."""

    league: League
    txns: tuple[Transaction, ...] = ()


def _logged(league: League, now: datetime, kind: str, reason: str, **changes: Any) -> League:
    return replace(league, log=(*league.log, Decision(now, kind, reason)), **changes)


def _txn(key: str, kind: TxnKind, amounts: Mapping[str, int], memo: str) -> tuple[Transaction, ...]:
    rows = {a: n for a, n in amounts.items() if n}
    return (Transaction.of(key, kind, rows, memo[:200]),) if len(rows) >= 2 else ()


# -- the steps -------------------------------------------------------------------------------------
def new_league(config: LeagueConfig, *, seed: str, now: datetime, league_id: int = 0) -> League:
    """A new league, open for sign-up in its window (``seed`` draws the first round's seating)."""
    if not isinstance(seed, str) or not 1 <= len(seed) <= 128:
        raise LeagueError("bad_config", f"seed {seed!r}: expected 1..128 characters")
    league = League(league_id, config, seed, created_at=_aware(now, "now"))
    return _logged(league, league.created_at, "created", describe(config))


def describe(config: LeagueConfig) -> str:
    """One line of a league's terms, as its log and ``hkmj admin league show`` give them."""
    money = (
        "free (免費聯賽)"
        if config.free
        else f"entry fee {config.entry_fee} + stake {config.stake} jade"
    )
    return (
        f"{config.name}: {money}, guarantee {config.guarantee}, "
        + (f"{config.fee_to_pool}% of the fees to the pool, " if config.fee_to_pool else "")
        + f"prizes {list(config.prizes)}%, "
        f"{config.rounds} round(s) of {config.length}, {config.fill} fill, "
        f"{config.min_players}..{config.max_players} players, sign-up "
        f"{config.signup_opens:%Y-%m-%d %H:%M}–{config.signup_closes:%Y-%m-%d %H:%M} UTC"
    )


def join(league: League, user_id: int, name: str, *, now: datetime) -> Step:
    """報名 sign up while the window is open: the fee goes to the league's escrow and the stake to
    its pool at once (so it cannot be spent elsewhere). Joining again is a no-op.

    :raises LeagueError: ``started``/``over`` (not open), ``closed`` (outside the window),
        ``full``.
    """
    now = _aware(now, "now")
    if league.entrant(user_id) is not None:
        return Step(league)
    _check_open(league, now)
    config = league.config
    if len(league.active) >= config.max_players:
        raise LeagueError("full", f"{config.name} is full ({config.max_players} players)")
    entry = sum(1 for e in league.entrants if e.user_id == user_id)
    entrant = Entrant(int(user_id), name, len(league.entrants), entry)
    entrants = (*league.entrants, entrant)
    after = _logged(league, now, "joined", f"{name} (user {user_id}) signed up", entrants=entrants)
    txns = _txn(
        f"league:{league.id}:entry:user:{user_id}:{entry}",
        TxnKind.LEAGUE_ENTRY,
        {
            user_account(user_id): -(config.entry_fee + config.stake),
            escrow_of(league.id): config.entry_fee,
            pool_of(league.id): config.stake,
        },
        f"聯賽報名 {config.name}: fee {config.entry_fee}, stake {config.stake}",
    )
    return Step(after, txns)


def _check_open(league: League, now: datetime) -> None:
    config = league.config
    if league.status != LeagueStatus.OPEN:
        code = "over" if league.over else "started"
        raise LeagueError(code, f"{config.name} is {league.status}: sign-up is closed")
    if not config.signup_opens <= now < config.signup_closes:
        raise LeagueError(
            "closed",
            f"{config.name}: sign-up is open {config.signup_opens:%Y-%m-%d %H:%M} to "
            f"{config.signup_closes:%Y-%m-%d %H:%M} UTC",
        )


def leave(league: League, user_id: int, *, now: datetime) -> Step:
    """退出 withdraw while sign-up is open: the fee and stake come back.

    :raises LeagueError: ``not_entered``, ``started``/``over``, ``closed``.
    """
    now = _aware(now, "now")
    entrant = league.entrant(user_id)
    if entrant is None:
        raise LeagueError("not_entered", f"you are not signed up for {league.config.name}")
    _check_open(league, now)
    config = league.config
    entrants = tuple(replace(e, left=True) if e == entrant else e for e in league.entrants)
    after = _logged(
        league, now, "left", f"{entrant.name} (user {user_id}) withdrew", entrants=entrants
    )
    txns = _txn(
        f"league:{league.id}:leave:user:{user_id}:{entrant.entry}",
        TxnKind.REFUND,
        {
            user_account(user_id): config.entry_fee + config.stake,
            escrow_of(league.id): -config.entry_fee,
            pool_of(league.id): -config.stake,
        },
        f"退出聯賽 {config.name}: fee and stake back",
    )
    return Step(after, txns)


def start(league: League, *, now: datetime, early: bool = False) -> Step:
    """開賽 close sign-up, add the guarantee to the pool and seat the first round (drawn at random
    from the league's seed). Before the window closes only with ``early``.

    :raises LeagueError: ``started``/``over``, ``closed`` (window still open), ``too_few``.
    """
    now = _aware(now, "now")
    config = league.config
    if league.status != LeagueStatus.OPEN:
        raise LeagueError("over" if league.over else "started", f"{config.name} is {league.status}")
    if now < config.signup_closes and not early:
        raise LeagueError(
            "closed",
            f"{config.name}: sign-up is open until {config.signup_closes:%Y-%m-%d %H:%M} UTC "
            "(start it early to close it now)",
        )
    n = len(league.active)
    if n < config.min_players:
        raise LeagueError(
            "too_few",
            f"{config.name} has {n} player(s), it needs {config.min_players}: cancel it "
            "(滾回: every fee and stake is refunded) or wait",
        )
    began = replace(league, status=LeagueStatus.RUNNING, started_at=now)
    began = _logged(
        began,
        now,
        "started",
        f"sign-up closed with {n} players; pool {began.pool} jade "
        f"({n} × stake {config.stake} + guarantee {config.guarantee})",
    )
    txns = _txn(
        f"league:{league.id}:guarantee",
        TxnKind.LEAGUE_GUARANTEE,
        {LEAGUES: -config.guarantee, pool_of(league.id): config.guarantee},
        f"保證獎池 {config.name}",
    )
    return Step(_seat_next(began, now), txns)


def _seat_next(league: League, now: datetime) -> League:
    number = len(league.rounds) + 1
    rnd, why = seat_round(league, number)
    rnd = replace(rnd, seated_at=now)
    why += (
        f"; its time is up at {now + timedelta(minutes=league.config.round_minutes):%Y-%m-%d %H:%M}"
        " UTC"
    )
    return _logged(league, now, "seated", why, rounds=(*league.rounds, rnd))


def seat_round(league: League, number: int) -> tuple[Round, str]:
    """座位 the seating of round ``number`` and the rule that made it.

    Round 1 is drawn at random from the league's seed; later rounds go by the standings (ranks
    1–4 at table 1, 5–8 at table 2, …). When the entrants are not a multiple of 4: with ``bots``
    the tables are ⌈n/4⌉, the people spread as evenly as possible (fuller tables first) and bots
    take the other seats (a bot's points count for no one); with ``byes`` the n mod 4 lowest in
    that order who have had the fewest byes sit the round out, scoring 0. Each table's seat order
    (who sits East) is drawn from the seed.
    """
    order = [e.user_id for e in league.active]
    if number == 1:
        random.Random(f"{league.seed}:round:1").shuffle(order)
        how = "round 1 drawn at random from the league's seed"
    else:
        order = [s.user_id for s in standings(league)]
        how = f"round {number} seated by the standings"
    n = len(order)
    byes: list[int] = []
    if league.config.fill == "byes" and n % 4:
        had = Counter(b for r in league.rounds for b in r.byes)
        picked = sorted(range(n), key=lambda i: (had[order[i]], -i))[: n % 4]
        byes = [order[i] for i in sorted(picked)]
        order = [u for u in order if u not in byes]
        how += f"; byes (0 points) for {', '.join(map(str, byes))}"
        sizes = [4] * (len(order) // 4)
    else:
        tables = -(-n // 4)
        base, extra = divmod(n, tables)
        sizes = [base + 1] * extra + [base] * (tables - extra)
        if n % 4:
            how += f"; {4 * tables - n} {league.config.bot_level} bot seat(s)"
    matches = []
    at = 0
    for t, size in enumerate(sizes, start=1):
        seats: list[int | None] = [*order[at : at + size], *([None] * (4 - size))]
        at += size
        random.Random(f"{league.seed}:round:{number}:table:{t}").shuffle(seats)
        matches.append(LeagueMatch(number, t, tuple(seats)))
    return Round(number, tuple(matches), tuple(byes)), how


def link_table(league: League, round_no: int, table: int, table_id: str) -> League:
    """Name the online table that plays match ``table`` of round ``round_no`` (a no-op when it is
    already that one).

    :raises LeagueError: ``bad_result`` for an unknown match or one linked to another table.
    """
    match = _match(league, round_no, table)
    if match.table_id == table_id:
        return league
    if match.table_id is not None:
        raise LeagueError(
            "bad_result", f"round {round_no} table {table} is already played at {match.table_id}"
        )
    return _replace_match(league, replace(match, table_id=table_id))


def _match(league: League, round_no: int, table: int) -> LeagueMatch:
    for rnd in league.rounds:
        if rnd.number == round_no:
            for m in rnd.matches:
                if m.table == table:
                    return m
    raise LeagueError("bad_result", f"{league.config.name} has no round {round_no} table {table}")


def _replace_match(league: League, match: LeagueMatch) -> League:
    rounds = tuple(
        replace(r, matches=tuple(match if m.table == match.table else m for m in r.matches))
        if r.number == match.round
        else r
        for r in league.rounds
    )
    return replace(league, rounds=rounds)


def record_result(
    league: League, round_no: int, table: int, points: Sequence[int], *, now: datetime
) -> Step:
    """結果 a match's result: each seat's table points. When it completes the round, the next
    round is seated by the standings; after the last round the league ends and the pool is paid
    out by the published distribution (:func:`prize_amounts`) and the fees go to the house.

    Recording the same result again is a no-op.

    :raises LeagueError: ``bad_result`` (unknown match, not four whole numbers, another result
        already in, or not the round being played), ``over`` / ``started`` (league not running).
    """
    now = _aware(now, "now")
    match = _match(league, round_no, table)
    if len(points) != 4 or any(type(p) is not int for p in points):
        raise LeagueError(
            "bad_result", f"table points {list(points)!r}: expected four whole numbers"
        )
    result = tuple(points)
    if match.points is not None:
        if match.points == result:
            return Step(league)
        raise LeagueError(
            "bad_result",
            f"round {round_no} table {table} already ended with {list(match.points)}",
        )
    if league.status != LeagueStatus.RUNNING:
        raise LeagueError("over", f"{league.config.name} is {league.status}")
    current = league.current_round
    assert current is not None
    if round_no != current.number:
        raise LeagueError("bad_result", f"round {round_no} is not the round being played")
    names = {e.user_id: e.name for e in league.entrants}
    who = ", ".join(
        f"{names.get(s, '?') if s is not None else 'bot'} {p:+d}"
        for s, p in zip(match.seats, result, strict=True)
    )
    after = _replace_match(league, replace(match, points=result))
    after = _logged(after, now, "result", f"round {round_no} table {table}: {who}")
    return _round_done(after, now)


def _round_done(league: League, now: datetime) -> Step:
    """After a result: the next round seated when this one is over, or the league finished."""
    rnd = league.current_round
    assert rnd is not None
    if not rnd.over:
        return Step(league)
    if rnd.number < league.config.rounds:
        return Step(_seat_next(league, now))
    return _finish(league, now)


MAX_TABLES = 3
"""How many tables one match is given: after the third is cancelled or aborted on its own, the
match is void and scores 0 for every seat (:func:`replay_match`)."""


def replay_match(
    league: League, round_no: int, table: int, table_id: str, reason: str, *, now: datetime
) -> Step:
    """重開 a league table ``table_id`` was cancelled or aborted on its own (an administrator's
    cancel of that table, a log that no longer replays), while the league goes on: its hands
    count nothing — seed 002 《取消》 treats a cancelled game as not played ("賭注和手續費會歸還"),
    and a league compensates its players "以最公平…的方法，一致地" — so the match is **played
    again** by the same seats at a fresh table, in the same round and within its time
    (:func:`time_up`) *(decision)*. After :data:`MAX_TABLES` tables the match is void instead: 0
    table points for every seat, like a bye, so one broken table cannot hold the league.

    A no-op when ``table_id`` is not the match's current table (already handled) or the match has
    its result.

    :raises LeagueError: ``bad_result`` for an unknown match; ``over`` / ``started`` (not
        running).
    """
    now = _aware(now, "now")
    match = _match(league, round_no, table)
    if match.over or match.table_id != table_id or table_id in match.voided:
        return Step(league)
    if league.status != LeagueStatus.RUNNING:
        raise LeagueError(
            "over" if league.over else "started", f"{league.config.name} is not running"
        )
    voided = (*match.voided, table_id)
    if len(voided) >= MAX_TABLES:
        after = _replace_match(
            league, replace(match, voided=voided, table_id=None, points=(0, 0, 0, 0))
        )
        after = _logged(
            after,
            now,
            "void",
            f"round {round_no} table {table}: its table {table_id} was closed ({reason}); "
            f"{len(voided)} tables of this match were closed, so the match is void: 0 table "
            "points for every seat",
        )
        return _round_done(after, now)
    after = _replace_match(league, replace(match, voided=voided, table_id=None))
    after = _logged(
        after,
        now,
        "replayed",
        f"round {round_no} table {table}: its table {table_id} was closed ({reason}); its hands "
        f"count nothing and the match is played again by the same seats at a fresh table "
        f"(table {len(voided) + 1} of at most {MAX_TABLES})",
    )
    return Step(after)


def round_deadline(league: League) -> datetime | None:
    """時限 when the current round's time is up: ``round_minutes`` after it was seated (None when
    the league is not running)."""
    rnd = league.current_round
    if league.status != LeagueStatus.RUNNING or rnd is None:
        return None
    seated = rnd.seated_at or league.started_at or league.created_at
    return seated + timedelta(minutes=league.config.round_minutes)


def time_up(league: League, standing: Mapping[int, Sequence[int]], *, now: datetime) -> Step:
    """夠鐘 the current round's time is up (:func:`round_deadline`): every match still being
    played ends where it stands *(decision, stated on the league's page)* — its table points are
    the totals of the hands its table **finished** (``standing``, by table number: whole points
    in seat order); the hand being played at the bell counts nothing, and a match with no table
    totals (none started, or its table was closed) scores 0 for every seat. Then the next round
    is seated, or the league finishes and pays its prizes.

    A no-op before the deadline or when the league is not running.

    :raises LeagueError: ``bad_result`` when a standing is not four whole numbers.
    """
    now = _aware(now, "now")
    due = round_deadline(league)
    if due is None or now < due:
        return Step(league)
    rnd = league.current_round
    assert rnd is not None
    names = {e.user_id: e.name for e in league.entrants}
    after = league
    for match in rnd.matches:
        if match.over:
            continue
        points = tuple(standing.get(match.table, (0, 0, 0, 0)))
        if len(points) != 4 or any(type(p) is not int for p in points):
            raise LeagueError(
                "bad_result", f"table points {list(points)!r}: expected four whole numbers"
            )
        who = ", ".join(
            f"{names.get(s, '?') if s is not None else 'bot'} {p:+d}"
            for s, p in zip(match.seats, points, strict=True)
        )
        after = _replace_match(after, replace(match, points=points))
        after = _logged(
            after,
            now,
            "time_up",
            f"round {rnd.number} table {match.table}: the round's {league.config.round_minutes} "
            f"minutes were up at {due:%Y-%m-%d %H:%M} UTC with its match unfinished; it ends as "
            f"it stands (the hands finished count, the hand in play does not): {who}",
        )
    return _round_done(after, now)


def _finish(league: League, now: datetime) -> Step:
    config = league.config
    table = standings(league)
    share = league.fee_share
    pool = league.pool + share
    prizes = prize_amounts(pool, config.prizes, [s.user_id for s in table])
    payouts = tuple(Payout(u, "prize", a) for u, a in prizes.items() if a)
    fees = config.entry_fee * len(league.active) - share
    lines = ", ".join(f"#{s.rank} {s.name} {prizes.get(s.user_id, 0)}" for s in table)
    joined = f" (fees' share {share} included)" if share else ""
    after = _logged(
        replace(league, status=LeagueStatus.FINISHED, ended_at=now, payouts=payouts),
        now,
        "finished",
        f"pool {pool}{joined} paid by the distribution {list(config.prizes)}%: {lines}; "
        f"fees {fees} to the house",
    )
    paid: dict[str, int] = {pool_of(league.id): -league.pool}
    if share:
        paid[escrow_of(league.id)] = -share
    txns = _txn(
        f"league:{league.id}:prizes",
        TxnKind.PRIZE,
        {**paid, **{user_account(u): a for u, a in prizes.items()}},
        f"聯賽獎金 {config.name}",
    ) + _txn(
        f"league:{league.id}:fees",
        TxnKind.FEE,
        {escrow_of(league.id): -fees, FEES: fees},
        f"聯賽手續費 {config.name}",
    )
    return Step(after, txns)


def cancel(league: League, reason: str, *, now: datetime) -> Step:
    """取消 cancel the league, exactly as seed 002 《取消》 says:

    - 《滾回》 "如果聯賽被滾回, 這指聯賽還未開始但被取消. 所有已登記參加聯賽的玩家,他們的手續費和
      賭注會被退款." — before the start: every registered player's fee and stake are refunded.
    - 《滾出》 "如果聯賽被滾出,這指聯賽已開始了但被取消. 那麼我們會退還手續費給每位已參加聯賽的玩家.
      而獎池會因以下方法去分配 百分之五十的獎池會平均地分配給各玩家. 百分之五十的獎池會根據玩家的
      牌桌積分而按比例地分配。" — after the start: fees refunded, the pool split by
      :func:`rollout_amounts`.
    - "但是如果是免費聯賽被取消,那獎池就不會付給參加者。" — a free league pays no pool (its
      guarantee goes back to the house).

    Cancelling a cancelled league again is a no-op; each cancellation is logged with ``reason``.

    :raises LeagueError: ``over`` for a finished league, ``bad_config`` for an empty reason.
    """
    now = _aware(now, "now")
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError("bad_config", "a cancellation needs its reason (it is logged)")
    if league.status in (LeagueStatus.ROLLED_BACK, LeagueStatus.ROLLED_OUT):
        return Step(league)
    if league.status == LeagueStatus.FINISHED:
        raise LeagueError("over", f"{league.config.name} has finished: it cannot be cancelled")
    if league.status == LeagueStatus.OPEN:
        return _roll_back(league, reason, now)
    return _roll_out(league, reason, now)


def _roll_back(league: League, reason: str, now: datetime) -> Step:
    config = league.config
    people = league.active
    amounts: dict[str, int] = {
        escrow_of(league.id): -config.entry_fee * len(people),
        pool_of(league.id): -config.stake * len(people),
    }
    payouts: list[Payout] = []
    for e in people:
        amounts[user_account(e.user_id)] = config.entry_fee + config.stake
        payouts += [Payout(e.user_id, "fee_refund", config.entry_fee)] if config.entry_fee else []
        payouts += [Payout(e.user_id, "stake_refund", config.stake)] if config.stake else []
    after = _logged(
        replace(league, status=LeagueStatus.ROLLED_BACK, ended_at=now, payouts=tuple(payouts)),
        now,
        "rolled_back",
        f"滾回 rolled back (cancelled before it started): {reason}. Seed 002: every registered "
        f"player's fee and stake refunded — {len(people)} × ({config.entry_fee} + "
        f"{config.stake}) jade",
    )
    txns = _txn(
        f"league:{league.id}:rollback", TxnKind.REFUND, amounts, f"滾回 {config.name}: {reason}"
    )
    return Step(after, txns)


def _roll_out(league: League, reason: str, now: datetime) -> Step:
    config = league.config
    people = league.active
    table = standings(league)
    pool = league.pool
    fees = config.entry_fee * len(people)
    txns = _txn(
        f"league:{league.id}:rollout:fees",
        TxnKind.REFUND,
        {
            escrow_of(league.id): -fees,
            **{user_account(e.user_id): config.entry_fee for e in people},
        },
        f"滾出 {config.name}: fees refunded",
    )
    payouts = [Payout(e.user_id, "fee_refund", config.entry_fee) for e in people if fees]
    if config.free:
        how = (
            f"a free league (免費聯賽) pays no pool (seed 002); the guarantee {pool} goes back "
            "to the house"
        )
        txns += _txn(
            f"league:{league.id}:rollout:guarantee",
            TxnKind.REFUND,
            {pool_of(league.id): -pool, LEAGUES: pool},
            f"滾出 {config.name}: free league, no pool paid",
        )
    else:
        split = rollout_amounts(pool, [(s.user_id, s.points) for s in table])
        paid: dict[str, int] = {pool_of(league.id): -pool}
        for user, (equal, by_points) in split.items():
            paid[user_account(user)] = equal + by_points
            payouts += [Payout(user, "split_equal", equal)] if equal else []
            payouts += [Payout(user, "split_points", by_points)] if by_points else []
        txns += _txn(
            f"league:{league.id}:rollout:pool",
            TxnKind.LEAGUE_SPLIT,
            paid,
            f"滾出 {config.name}: pool",
        )
        how = (
            f"pool {pool} split 50% equally ({pool // 2}) and 50% by table points floored at 0 "
            f"({pool - pool // 2}, largest remainders); paid at once: "
            + ", ".join(f"{s.name} {sum(split[s.user_id])}" for s in table)
        )
    after = _logged(
        replace(league, status=LeagueStatus.ROLLED_OUT, ended_at=now, payouts=tuple(payouts)),
        now,
        "rolled_out",
        f"滾出 rolled out (cancelled after it started, in round "
        f"{len(league.rounds)}): {reason}. Seed 002: fees refunded to every entrant "
        f"({len(people)} × {config.entry_fee}); {how}",
    )
    return Step(after, txns)


# -- standings and splits --------------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    """排名 one entrant's place: table points (the sum of their matches' results), matches
    played, best single match, byes, and the rank the tie-breaks give."""

    rank: int
    user_id: int
    name: str
    points: int
    matches: int
    best: int
    byes: int


TIE_BREAKS = (
    "table points (the sum of every match's result)",
    "the best single match",
    "earlier sign-up",
)
"""The order of the standings: each key decides only when those before it tie."""


def standings(league: League) -> list[Standing]:
    """The standings of the entrants (see :data:`TIE_BREAKS`): table points, then the best single
    match (0 before any), then sign-up order; every rank is distinct."""
    points: dict[int, list[int]] = {e.user_id: [] for e in league.active}
    byes: Counter[int] = Counter()
    for rnd in league.rounds:
        byes.update(rnd.byes)
        for m in rnd.matches:
            if m.points is None:
                continue
            for seat, p in zip(m.seats, m.points, strict=True):
                if seat is not None and seat in points:
                    points[seat].append(p)
    rows = sorted(
        league.active,
        key=lambda e: (-sum(points[e.user_id]), -max(points[e.user_id], default=0), e.seq),
    )
    return [
        Standing(
            rank,
            e.user_id,
            e.name,
            sum(points[e.user_id]),
            len(points[e.user_id]),
            max(points[e.user_id], default=0),
            byes[e.user_id],
        )
        for rank, e in enumerate(rows, start=1)
    ]


def _by_rank(shares: list[int], remainder: int) -> list[int]:
    for i in range(remainder):
        shares[i % len(shares)] += 1
    return shares


def prize_amounts(pool: int, prizes: Sequence[int], ranked: Sequence[int]) -> dict[int, int]:
    """獎金 the pool paid by the published distribution: place *i* gets ⌊pool × pᵢ / Σp⌋ over the
    places there are entrants for; the jade left by the rounding goes 1 each from 1st place down.

    >>> prize_amounts(1001, (50, 30, 20), [7, 8, 9, 10])
    {7: 501, 8: 300, 9: 200, 10: 0}
    >>> prize_amounts(100, (50, 30, 20), [7, 8])
    {7: 63, 8: 37}
    """
    if not ranked:
        return {}
    weights = list(prizes[: len(ranked)])
    total = sum(weights)
    shares = [pool * w // total for w in weights]
    shares = _by_rank(shares, pool - sum(shares))
    return {u: (shares[i] if i < len(shares) else 0) for i, u in enumerate(ranked)}


def largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` whole jade shared in proportion to ``weights`` by the largest-remainder method
    (Hamilton's, as the stake settlement ``settle_staked_match`` shares): each gets its exact share
    floored, then the jade left goes 1 each to the largest fractional parts, ties to the earlier
    (better-ranked) one.

    >>> largest_remainder(251, [30, 10, 0, 0])
    [188, 63, 0, 0]
    """
    whole = sum(weights)
    if whole <= 0:
        raise LeagueError("bad_result", f"weights {list(weights)!r}: need a positive total")
    shares = [total * w // whole for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def rollout_amounts(pool: int, ranked: Sequence[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """滾出 the pool split of seed 002, for entrants ``(user, table points)`` in rank order:
    ``{user: (equal share, points share)}``.

    "百分之五十的獎池會平均地分配給各玩家" — ⌊pool/2⌋ in equal shares (the jade left by the
    division 1 each by rank, 1st first); "百分之五十的獎池會根據玩家的牌桌積分而按比例地分配" — the
    other ⌈pool/2⌉ in proportion to table points, by the **largest-remainder method**
    (:func:`largest_remainder`, as the stake settlement shares). A negative score counts as 0 (it
    earns nothing, never a debt; the seed is silent, *decision*, said on the league's page); when
    no one has a positive score the points half is shared equally *(decision)*.

    >>> rollout_amounts(1001, [(1, 30), (2, 10), (3, -40)])
    {1: (167, 376), 2: (167, 125), 3: (166, 0)}
    """
    if not ranked:
        return {}
    n = len(ranked)
    equal_half = pool // 2
    points_half = pool - equal_half
    equal = largest_remainder(equal_half, [1] * n)
    weights = [max(0, p) for _, p in ranked]
    by_points = largest_remainder(points_half, weights if any(weights) else [1] * n)
    return {u: (equal[i], by_points[i]) for i, (u, _) in enumerate(ranked)}


# -- the port and the desk -------------------------------------------------------------------------
class LeagueStore(Protocol):
    """Storage of leagues, and the ledger their steps post to (``server.store`` on SQL)."""

    def add(self, league: League) -> League:
        """Store a new league; it with its id.

        :raises LeagueError: ``name_taken`` when a league has that name.
        """
        ...

    def get(self, league_id: int) -> League | None:
        """The league, or None."""
        ...

    def find(self, name: str) -> League | None:
        """The league named ``name`` (ignoring case), or None."""
        ...

    def leagues(self, status: str | None = None) -> list[League]:
        """Every league (with ``status`` only, when given), newest first."""
        ...

    def commit(self, before: League, after: League, txns: Sequence[Transaction]) -> None:
        """Atomically post ``txns`` (each at most once, by its key) and save ``after`` in place of
        ``before``.

        :raises LeagueConflictError: when the stored league is no longer ``before.version``.
        :raises InsufficientJadeError: when a transaction would overdraw an account (nothing saved).
        """
        ...

    def balance(self, account: str) -> int:
        """An account's jade (to explain a refused sign-up)."""
        ...


@dataclass
class MemoryLeagueStore:
    """:class:`LeagueStore` in memory over a :class:`MemoryLedger` (tests, the domain's own use)."""

    ledger: MemoryLedger = field(default_factory=MemoryLedger)
    rows: dict[int, League] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, league: League) -> League:
        """Store it with the next id."""
        with self._lock:
            if any(r.config.name.lower() == league.config.name.lower() for r in self.rows.values()):
                raise LeagueError("name_taken", f"a league is named {league.config.name!r}")
            stored = replace(league, id=max(self.rows, default=0) + 1, version=1)
            self.rows[stored.id] = stored
            return stored

    def get(self, league_id: int) -> League | None:
        """The league."""
        return self.rows.get(league_id)

    def find(self, name: str) -> League | None:
        """By name, ignoring case."""
        key = name.strip().lower()
        return next((r for r in self.rows.values() if r.config.name.lower() == key), None)

    def leagues(self, status: str | None = None) -> list[League]:
        """Newest first."""
        rows = [r for r in self.rows.values() if status in (None, r.status)]
        return sorted(rows, key=lambda r: -r.id)

    def commit(self, before: League, after: League, txns: Sequence[Transaction]) -> None:
        """Post and save, all or nothing."""
        with self._lock:
            stored = self.rows.get(before.id)
            if stored is None or stored.version != before.version:
                raise LeagueConflictError(f"league {before.id} changed: read it again")
            self.ledger.post_all(txns)
            self.rows[before.id] = replace(after, version=before.version + 1)

    def balance(self, account: str) -> int:
        """The ledger's balance."""
        return self.ledger.balance_sync(account)


def utcnow() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


RETRIES = 8


class LeagueDesk:
    """聯賽處 the league operations on a store: each reads the league, computes the step, and
    commits it (retrying when another step won the race). Every method returns the league after.

    :raises LeagueError: from the step; ``not_found`` for an unknown league; ``balance`` when a
        sign-up cannot be paid.
    """

    def __init__(self, store: LeagueStore, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.store = store
        self.clock = clock

    def create(self, config: LeagueConfig, *, seed: str | None = None) -> League:
        """A new league, open for sign-up (``seed``: random when not given)."""
        return self.store.add(
            new_league(config, seed=seed or secrets.token_hex(16), now=self.clock())
        )

    def get(self, league_id: int) -> League:
        """The league.

        :raises LeagueError: ``not_found``.
        """
        league = self.store.get(league_id)
        if league is None:
            raise LeagueError("not_found", f"no league {league_id}")
        return league

    def lookup(self, ref: str) -> League:
        """A league by id (digits) or by name.

        :raises LeagueError: ``not_found``.
        """
        ref = ref.strip()
        league = self.store.get(int(ref)) if ref.isdigit() else self.store.find(ref)
        if league is None:
            raise LeagueError("not_found", f"no league {ref!r}")
        return league

    def apply(self, league_id: int, step: Callable[[League], Step]) -> Step:
        """Read, step, commit; again from a fresh read when another step committed first."""
        for attempt in range(RETRIES):
            before = self.get(league_id)
            done = step(before)
            if done.league == before and not done.txns:
                return done
            try:
                self.store.commit(before, done.league, done.txns)
            except LeagueConflictError:
                if attempt == RETRIES - 1:
                    raise
                continue
            except InsufficientJadeError as exc:
                raise LeagueError("balance", f"not enough jade: {exc}") from None
            except LedgerError as exc:
                raise LeagueError("conflict", str(exc)) from None
            return replace(done, league=self.get(league_id))
        raise LeagueConflictError(f"league {league_id}: too busy")  # pragma: no cover

    def join(self, league_id: int, user_id: int, name: str) -> League:
        """Sign ``user_id`` up (see :func:`join`).

        :raises LeagueError: as :func:`join`, or ``balance`` when they hold too little jade.
        """

        def step(league: League) -> Step:
            done = join(league, user_id, name, now=self.clock())
            need = league.config.entry_fee + league.config.stake
            if done.txns:
                have = self.store.balance(user_account(user_id))
                if have < need:
                    raise LeagueError(
                        "balance", f"the entry is {need} jade (fee + stake); you have {have}"
                    )
            return done

        return self.apply(league_id, step).league

    def leave(self, league_id: int, user_id: int) -> League:
        """Withdraw ``user_id`` (see :func:`leave`)."""
        return self.apply(league_id, lambda lg: leave(lg, user_id, now=self.clock())).league

    def start(self, league_id: int, *, early: bool = False) -> League:
        """Start the league (see :func:`start`)."""
        return self.apply(league_id, lambda lg: start(lg, now=self.clock(), early=early)).league

    def record(self, league_id: int, round_no: int, table: int, points: Sequence[int]) -> League:
        """A match's result (see :func:`record_result`)."""
        return self.apply(
            league_id, lambda lg: record_result(lg, round_no, table, points, now=self.clock())
        ).league

    def link(self, league_id: int, round_no: int, table: int, table_id: str) -> League:
        """Name the online table of a match (see :func:`link_table`)."""
        return self.apply(
            league_id, lambda lg: Step(link_table(lg, round_no, table, table_id))
        ).league

    def replay(
        self, league_id: int, round_no: int, table: int, table_id: str, reason: str
    ) -> League:
        """A match's table was closed on its own: play the match again (see
        :func:`replay_match`)."""
        return self.apply(
            league_id,
            lambda lg: replay_match(lg, round_no, table, table_id, reason, now=self.clock()),
        ).league

    def time_up(self, league_id: int, standing: Mapping[int, Sequence[int]]) -> League:
        """End the current round if its time is up (see :func:`time_up`)."""
        return self.apply(league_id, lambda lg: time_up(lg, standing, now=self.clock())).league

    def cancel(self, league_id: int, reason: str) -> League:
        """取消 (see :func:`cancel`): 滾回 before the start, 滾出 after it."""
        return self.apply(league_id, lambda lg: cancel(lg, reason, now=self.clock())).league


def accounts_of(league: League) -> list[str]:
    """The league's own accounts: its pool and its fee escrow."""
    return [pool_of(league.id), escrow_of(league.id)]
