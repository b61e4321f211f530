"""枱例條款 (a table's terms): what a table is — kind, ruleset, length, stake, fee, clocks, bots —
as stored with it, and the strict check every new table passes before any jade moves.

:class:`TableConfig` is the stored form (``parlor_tables.config``); it reads back every table ever
stored. :func:`check_new` is the check at creation (the lobby runs it on every table it makes:
practice, online, quick match, a league's), so that a table that cannot be played is refused with
the field that is wrong (issue 29 item 5, issue 31 items 2 and 4):

- ``kind``: ``practice`` or ``online`` (a league's table is online, with its league);
- ``rules``: a ruleset that loads and matches its digest;
- ``length``: one the ruleset offers that kind of table (:meth:`MatchLength.offered`: seed 003
  "麻雀馆的单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产。线上对局为四局");
- ``level`` and ``stake``: an online table's stake is its **table value** × a unit from
  :data:`~hkmahjong.parlor.stakes.STAKE_LEVELS` (seed 002 "每牌桌的賭注或牌桌的價值是由出沖最高番為定");
  a practice or league table has none;
- ``fee``: whole jade, 0 … :data:`MAX_FEE`, online tables only;
- ``clocks``, ``bots``, ``starting_balance``, ``max_hands``, ``watch_delay_ms``: whole numbers
  (never a bool, a string or a float) in range, bot levels that exist.

Plain Python (no web framework); the API's request model (``server.tables.CreateTable``) adds
strict JSON types in front of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hkmahjong.engine.match import MatchLength
from hkmahjong.engine.record import rules_from_spec, rules_spec
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.clocks import ClockSettings
from hkmahjong.parlor.gallery import MAX_DELAY_MS
from hkmahjong.parlor.seats import BOT_LEVELS
from hkmahjong.parlor.stakes import STAKE_LEVELS, stake_for, table_value
from hkmahjong.rules import Ruleset

__all__ = ["MAX_FEE", "TABLE_KINDS", "TableConfig", "TableError", "check_new"]

TABLE_KINDS = ("practice", "online")
MAX_FEE = 1_000_000
"""The largest entry fee (手續費) a table may ask, in jade."""


class TableError(MahjongError):
    """A table command refused (``code`` for the API: full, not_seated, balance, bad_config, …);
    ``field`` names the term that is wrong when a new table's terms are refused."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def _bad(field_name: str, message: str) -> TableError:
    return TableError("bad_config", f"{field_name}: {message}", field_name)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings as stored with it (``parlor_tables.config``)."""

    kind: str
    rules: dict[str, Any]
    """``rules_spec`` of the resolved ruleset: ``{"preset", "digest"}`` or ``{"toml", "digest"}``."""
    length: str = MatchLength.ONLINE.value
    stake: int | None = None
    fee: int = 0
    """手續費 the entry fee each seat pays at the buy-in besides the stake (seed 002), into
    ``system:fees``: kept when the match ends, refunded when it is cancelled or aborted."""
    clocks: ClockSettings = field(default_factory=ClockSettings)
    hints: bool = False
    private: bool = False
    bots: tuple[str | None, ...] = (None, None, None, None)
    """The bot level seated at each player number, None for a person (or an empty seat)."""
    starting_balance: int = 0
    max_hands: int | None = None
    watch_delay_ms: int | None = None
    """旁觀 how far spectators are behind the table: None = one hand-turn (one discard behind),
    else this many milliseconds (0–600000)."""
    league: int | None = None
    """聯賽 the league whose match this table plays: its seats are the league's (taken when it
    is created), it is shown on the league's page rather than in the lobby, and anyone may
    watch it unless it is private."""
    level: int | None = None
    """The table's level: the stake unit its creator picked (``stake`` = the table value × it);
    None for a practice or league table, and for tables stored before levels existed."""
    bots_on_start: tuple[str, ...] = ()
    """The bot levels the creator chose to fill the empty seats with when the table starts
    (``fill_bots: "on_start"``); empty: none chosen."""

    def __post_init__(self) -> None:
        if self.kind not in TABLE_KINDS:
            raise _bad("kind", f"a table is practice or online, not {self.kind!r}")
        try:
            MatchLength.parse(self.length)
        except MahjongError as exc:
            raise _bad("length", str(exc)) from None
        if self.stake is not None and (
            self.kind != "online" or not _whole(self.stake) or self.stake < 0
        ):
            raise _bad("stake", "only online tables have a stake, of 0 or more jade")
        if not _whole(self.fee) or self.fee < 0:
            raise _bad("fee", f"a fee is 0 or more jade, not {self.fee!r}")
        if self.fee and self.kind != "online":
            raise _bad("fee", "only online tables have an entry fee")
        delay = self.watch_delay_ms
        if delay is not None and (not _whole(delay) or not 0 <= delay <= MAX_DELAY_MS):
            raise _bad(
                "watch_delay_ms",
                f"a spectators' delay is 0–{MAX_DELAY_MS} ms (or none: one turn), not {delay!r}",
            )

    @property
    def buy_in(self) -> int:
        """What each seat pays when the match starts: the stake and the fee."""
        return (self.stake or 0) + self.fee

    @property
    def ruleset(self) -> Ruleset:
        """The resolved ruleset (checked against its digest)."""
        return rules_from_spec(self.rules)

    @classmethod
    def of(cls, kind: str, ruleset: Ruleset, **settings: Any) -> TableConfig:
        """A configuration for ``ruleset`` (its spec and digest computed here)."""
        return cls(kind, rules_spec(ruleset), **settings)

    def terms_json(self) -> dict[str, Any]:
        """What a player sees of the stake before joining: the table's ``level`` (its stake
        unit, None for a table without one) and its ``table_value`` (seed 002 牌桌價值: what a
        discard at the top fan pays under its rules)."""
        try:
            value: int | None = table_value(self.ruleset)
        except MahjongError:
            value = None
        return {"level": self.level, "table_value": value}

    def to_json(self) -> dict[str, Any]:
        """JSON for the store."""
        return {
            "kind": self.kind,
            "rules": self.rules,
            "length": self.length,
            "stake": self.stake,
            "fee": self.fee,
            "clocks": self.clocks.to_json(),
            "hints": self.hints,
            "private": self.private,
            "bots": list(self.bots),
            "starting_balance": self.starting_balance,
            "max_hands": self.max_hands,
            "watch_delay_ms": self.watch_delay_ms,
            **({} if self.league is None else {"league": self.league}),
            **({} if self.level is None else {"level": self.level}),
            **({"bots_on_start": list(self.bots_on_start)} if self.bots_on_start else {}),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TableConfig:
        """Settings from :meth:`to_json`.

        :raises TableError: when they do not make a table.
        """
        try:
            return cls(
                kind=obj["kind"],
                rules=dict(obj["rules"]),
                length=obj.get("length", MatchLength.ONLINE.value),
                stake=obj.get("stake"),
                fee=obj.get("fee", 0),
                clocks=ClockSettings.from_json(obj.get("clocks")),
                hints=bool(obj.get("hints", False)),
                private=bool(obj.get("private", False)),
                bots=tuple(obj.get("bots", (None,) * 4)),
                starting_balance=int(obj.get("starting_balance", 0)),
                max_hands=obj.get("max_hands"),
                watch_delay_ms=obj.get("watch_delay_ms"),
                league=None if obj.get("league") is None else int(obj["league"]),
                level=obj.get("level"),
                bots_on_start=tuple(obj.get("bots_on_start", ())),
            )
        except (KeyError, TypeError, ValueError, MahjongError) as exc:
            raise TableError("bad_config", f"bad table settings: {exc}") from None


def check_new(config: TableConfig) -> Ruleset:
    """Check every term of a **new** table, strictly, before it is stored or any jade moves;
    its ruleset.

    :raises TableError: ``bad_config`` with ``field`` naming the first term that is wrong.
    """
    try:
        ruleset = config.ruleset
    except MahjongError as exc:
        raise _bad("rules", str(exc)) from None
    kind = "league" if config.league is not None else config.kind
    if config.league is not None and (
        config.kind != "online" or not _whole(config.league) or config.league < 1
    ):
        raise _bad("league", f"a league's table is online, of a league id, not {config.league!r}")
    try:
        length = MatchLength.for_table(kind, ruleset.match_lengths, config.length)
    except MahjongError as exc:
        raise _bad("length", str(exc)) from None
    _check_stake(config, ruleset, kind)
    if not _whole(config.fee) or not 0 <= config.fee <= MAX_FEE:
        raise _bad("fee", f"whole jade 0..{MAX_FEE}, not {config.fee!r}")
    if config.fee and kind != "online":
        raise _bad("fee", f"only an online table asks an entry fee, not a {kind} table")
    if not isinstance(config.clocks, ClockSettings):
        raise _bad("clocks", f"clock settings, not {config.clocks!r}")
    _check_bots(config)
    for name in ("hints", "private"):
        if not isinstance(getattr(config, name), bool):
            raise _bad(name, f"true or false, not {getattr(config, name)!r}")
    start = config.starting_balance
    if not _whole(start) or start < 0:
        raise _bad("starting_balance", f"whole jade >= 0, not {start!r}")
    if start and length is not MatchLength.BANKRUPTCY:
        raise _bad("starting_balance", f"only a match until bankruptcy has one, not {length.value}")
    if config.max_hands is not None:
        raise _bad("max_hands", "a table plays its whole length (a cap is for simulations)")
    return ruleset


def _check_stake(config: TableConfig, ruleset: Ruleset, kind: str) -> None:
    if kind != "online":
        if config.level is not None:
            raise _bad("level", f"a {kind} table has no stake, so no level")
        if config.stake is not None:
            raise _bad("stake", f"a {kind} table has no stake")
        return
    level = config.level
    if not _whole(level) or level not in STAKE_LEVELS:
        raise _bad(
            "level",
            f"the stake unit is one of {', '.join(map(str, STAKE_LEVELS))}, not {level!r}",
        )
    want = stake_for(ruleset, level)
    if config.stake != want:
        raise _bad(
            "stake",
            f"level {level} under these rules stakes {want} jade (table value "
            f"{table_value(ruleset)} × {level}), not {config.stake!r}",
        )


def _check_bots(config: TableConfig) -> None:
    bots = config.bots
    if not isinstance(bots, tuple) or len(bots) != 4:
        raise _bad("bots", f"one entry per seat (4), not {bots!r}")
    for level in (*bots, *config.bots_on_start):
        if level is not None and level not in BOT_LEVELS:
            raise _bad("bots", f"bot levels are {', '.join(BOT_LEVELS)}, not {level!r}")
    if config.kind == "practice" and config.league is None:
        if bots[0] is not None or None in bots[1:]:
            raise _bad("bots", "a practice table is you and three bots")
    elif config.league is None and bots[0] is not None:
        raise _bad("bots", "the creator sits at player 0 of an online table")
    if config.bots_on_start and (config.kind != "online" or config.league is not None):
        raise _bad("bots", "only an online table fills its empty seats when it starts")
