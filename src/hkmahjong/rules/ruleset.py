"""台例 Ruleset: a table's rules as one frozen, hashable value (docs/rules.md §2–§11).

A :class:`Ruleset` holds the minimum fan (起糊), the limit (爆棚, or ``None`` for no limit), the fan
value of each pattern (absent = not played), which patterns are limit hands (例牌), the exclusions
(a pattern that includes another), every play switch docs/rules.md names and the payment rules
(:class:`~hkmahjong.rules.payment.PaymentRules`). Presets live in :mod:`hkmahjong.rules.presets`,
TOML load/save in :mod:`hkmahjong.rules.toml_io`.

How the scorer reads the fan table (docs/rules.md §8):

* ``fan[f]`` is the value of one occurrence of ``f`` (正花 per tile, 一台花 per set; see
  :attr:`FanId.per_occurrence`); a pattern absent from ``fan`` is not played and never counts.
* A limit hand (``f in limit_hands``) scores :meth:`Ruleset.limit_value` — its listed value capped
  at the limit, so with the parlor's 10-fan limit every 例牌 scores 10 — and nothing else is added.
  Under no limit (``limit is None``) it counts its listed value and stacks with the rest (W1).
* ``exclusions[f]`` is the set of patterns that ``f`` includes: when ``f`` applies, none of them is
  counted (:meth:`Ruleset.counted`). Exclusions are not transitive: list every included pattern.
* A total above ``limit`` is capped at it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Generic, TypeVar, overload

from hkmahjong.errors import RulesetError
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.payment import PaymentRules

__all__ = [
    "MATCH_LENGTHS",
    "NO_LIMIT_STACKS",
    "SWITCHES",
    "BonusWinHand",
    "DealBonusWin",
    "FrozenMap",
    "LastTileRule",
    "PassRule",
    "Ruleset",
    "field_doc",
    "switch_kind",
]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable mapping (so a :class:`Ruleset` holding one stays hashable)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        """Copy ``items`` (a mapping or pairs)."""
        self._data: dict[K, V] = dict(items)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        """The value for ``key``; :raises KeyError: when absent."""
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        """Iterate over the keys in insertion order."""
        return iter(self._data)

    def __len__(self) -> int:
        """Number of entries."""
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        """True when ``key`` is present (a direct dict lookup: the scorer calls this often)."""
        return key in self._data

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, /, default: V | T) -> V | T: ...
    def get(self, key: K, /, default: object = None) -> object:
        """The value for ``key``, or ``default`` when absent."""
        return self._data.get(key, default)

    def __hash__(self) -> int:
        """Hash of the (key, value) pairs, independent of order."""
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        """Equal to any mapping with the same items."""
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        """``FrozenMap({...})``."""
        return f"FrozenMap({self._data!r})"

    def set(self, key: K, value: V) -> FrozenMap[K, V]:
        """A copy with ``key`` set to ``value``."""
        data = dict(self._data)
        data[key] = value
        return FrozenMap(data)

    def without(self, *keys: K) -> FrozenMap[K, V]:
        """A copy without ``keys`` (absent keys are ignored)."""
        return FrozenMap((k, v) for k, v in self._data.items() if k not in keys)


class PassRule(Enum):
    """過水 for wins (docs/rules.md §6): what a passed win forbids until the player's next draw."""

    NONE = "none"
    """P: "放过一次食胡，亦不影响你之后再食" — passing a win forbids nothing (parlor)."""
    SAME_TILE = "same_tile"
    """W2 其他規則 過水 (2nd bullet): no win on the same tile until your next draw."""
    SAME_WAIT = "same_wait"
    """W2 其他規則 過水 (3rd bullet): no win on any tile of that wait (同一水路) unless it scores
    more; a win breaching it is a false win."""


class LastTileRule(Enum):
    """海底 (docs/rules.md §7): which wins on the last tile score 海底撈月 / 海底炮."""

    ANY = "any"
    """W2 "食全局最後一隻牌", P (海底撈月 and 海底炮), ML: self-drawn or on the last discard."""
    SELF_DRAWN_ONLY = "self_drawn_only"
    """W1 fn. 10 / C: only a self-drawn win on the last tile."""


class BonusWinHand(Enum):
    """花糊 / 八仙過海 and the hand's own tiles (docs/rules.md §8 bonus-tile wins)."""

    APART = "apart"
    """The bonus-tile win is scored alone and a normal win does not add it (W2 花糊 "計兩番加自摸
    一番"; C "當三番自摸"); only a declined one is carried over (W2 花糊牌規)."""
    ADDS = "adds"
    """花糊 / 八仙過海 add to the hand's own patterns when the tiles also make a complete hand,
    on a discard too (W2 花糊牌規 "於手牌以外再加花糊之番數", applied at once; tables seen)."""
    LIMIT_BEATS = "limit_beats"
    """A bonus-tile win whose tiles also make a limit hand scores that limit hand instead when it
    is worth more (tables seen; W1/W2 例牌)."""


class DealBonusWin(Enum):
    """Seven or more bonus tiles at the deal (docs/rules.md §8 bonus-tile wins)."""

    HEAVENLY_EARTHLY = "heavenly_earthly"
    """W2 花糊牌規: the dealer adds 天糊, a non-dealer 地糊."""
    WAIT_FIRST_DRAW = "wait_first_draw"
    """W1 / C: a non-dealer must wait for its first draw and gets no 地糊 (the dealer: 天糊 by C's
    自訂規例 only)."""


MATCH_LENGTHS: tuple[str, ...] = (
    "one-hand",
    "east-round",
    "four-rounds",
    "8-hands",
    "16-hands",
    "bankruptcy",
    "online",
)
"""Match lengths (場) a ruleset may offer — the values of ``hkmahjong.engine.match.MatchLength``
(docs/rules.md §2: P offers 四圈, 八局, 十六局, until bankrupt, online 四局; ML adds 單局 and 東圈)."""

# 無限番: "例牌也按普通番種計算番數（例如大四喜複計混一色對對糊或字一色…）" (W2 其他規則, W1 the
# same sentence). Under no limit these inclusions are lifted: the limit hand also counts them.
NO_LIMIT_STACKS: Mapping[FanId, frozenset[FanId]] = {
    FanId.GREAT_WINDS: frozenset({FanId.ALL_PUNGS}),
}

_P_MATCHES = ("four-rounds", "8-hands", "16-hands", "bankruptcy", "online")


def _fan_map(
    items: Mapping[FanId, int] | Iterable[tuple[FanId, int]] = (),
) -> FrozenMap[FanId, int]:
    return FrozenMap(items)


def _excl_map() -> FrozenMap[FanId, frozenset[FanId]]:
    return FrozenMap()


@dataclass(frozen=True)
class Ruleset:
    """台例: minimum fan, limit, fan table, limit hands, exclusions, switches and payment rules.

    The defaults of the switches are the parlor's (seed 003 first, then W2 正統, then C/W1); the
    default fan table is empty — use :func:`hkmahjong.rules.get_preset` for a playable table.

    :raises RulesetError: on construction when a value is not allowed (names the field, the value
        and what is allowed).
    """

    name: str = "custom"
    description: str = ""
    # --- §7 winning ---------------------------------------------------------------------------
    min_fan: int = field(
        default=3,
        metadata={"doc": "起糊: minimum fan to win (P 三番起糊; presets may use 0 雞糊, 1 or 2)."},
    )
    limit: int | None = field(
        default=10,
        metadata={
            "doc": "爆棚: the fan cap and what a 例牌 scores (P 上限十番); ``None`` = no limit (W1 無限番)."
        },
    )
    # --- §8 fan table ---------------------------------------------------------------------------
    fan: FrozenMap[FanId, int] = field(
        default_factory=_fan_map,
        metadata={"doc": "Value of each pattern played (per occurrence); absent = not played."},
    )
    limit_hands: frozenset[FanId] = field(
        default=frozenset(),
        metadata={
            "doc": "例牌: patterns that score the limit (their value capped at it) and add nothing else."
        },
    )
    exclusions: FrozenMap[FanId, frozenset[FanId]] = field(
        default_factory=_excl_map,
        metadata={"doc": "Pattern -> the patterns it includes (not counted when it applies)."},
    )
    # --- switches the engine reads (names fixed by docs/dev/contracts.md) -------------------------
    seven_pairs: bool = field(
        default=False,
        metadata={"doc": '七對子 is a win (W2 自訂; P "七对子并非港式麻雀的胡牌": off).'},
    )
    thirteen_orphans_head_bump_exempt: bool = field(
        default=False,
        metadata={
            "doc": "十三幺 cannot be head-bumped (W2 正統 十三幺; P states 截胡 without exception: off)."
        },
    )
    multiple_winners: bool = field(
        default=False,
        metadata={
            "doc": "一炮多響 (W1/W2); off = 截糊, the first in turn after the discarder wins (P)."
        },
    )
    dead_wall: int = field(
        default=0,
        metadata={
            "doc": 'Tiles kept back at the tail (P: 0 "不留牌尾"; P\'s 家规 14; W1/W2 7 or 8 stacks = 14, 16).'
        },
    )
    pass_rule: PassRule = field(
        default=PassRule.NONE,
        metadata={"doc": "過水 for wins (P: none)."},
    )
    pung_pass_rule: bool = field(
        default=True,
        metadata={
            "doc": "W2 過水 1st bullet: having passed a pung, no pung of that tile until your next draw."
        },
    )
    no_swap_discard: bool = field(
        default=True,
        metadata={
            "doc": "W2 過水 4th bullet 食替: after a chow or pung you may not discard the same tile."
        },
    )
    rob_concealed_kong_thirteen: bool = field(
        default=True,
        metadata={
            "doc": "P, W2: a 十三幺 wait may rob a concealed kong (W1 fn. 8: not even then)."
        },
    )
    bonus_tiles: bool = field(
        default=True,
        metadata={"doc": "Play with the eight flowers and seasons (P)."},
    )
    bonus_win_seven: bool = field(
        default=False,
        metadata={"doc": "花糊 on: seven bonus tiles may win at once (W2, C, W1; not in P)."},
    )
    false_win_below_minimum: bool = field(
        default=True,
        metadata={
            "doc": 'A win below the minimum is a false win (C; W1/W2 "通常見於麻雀館"); off: it is not, but the player may not win again in that hand (W2 詐糊 定義).'
        },
    )
    payment: PaymentRules = field(default_factory=PaymentRules.parlor)
    # --- further switches (docs/rules.md §2, §7, §8) -------------------------------------------------
    match_lengths: tuple[str, ...] = field(
        default=_P_MATCHES,
        metadata={"doc": "Match lengths offered (values of engine MatchLength; P's list)."},
    )
    last_tile: LastTileRule = field(
        default=LastTileRule.ANY,
        metadata={"doc": "Which last-tile wins score (W2/P/ML any; W1 fn. 10 self-drawn only)."},
    )
    heavenly_after_concealed_kong: bool = field(
        default=False,
        metadata={
            "doc": "天糊/人糊 still count after the winner's own concealed kong (W2, C: no — only 槓上開花)."
        },
    )
    earthly_after_dealer_kong: bool = field(
        default=False,
        metadata={"doc": "地糊 still counts after the dealer declared a kong (C: no)."},
    )
    bonus_win_decline: bool = field(
        default=True,
        metadata={
            "doc": "A player may decline a bonus-tile win; its fan is added to a later normal win (W2 花糊牌規)."
        },
    )
    bonus_win_kong_replacement: bool = field(
        default=True,
        metadata={
            "doc": "花糊 on a kong replacement also scores 槓上開花: 4 fan self-drawn (W2 花糊牌規; C/W1 自訂)."
        },
    )
    bonus_win_at_deal: DealBonusWin = field(
        default=DealBonusWin.HEAVENLY_EARTHLY,
        metadata={
            "doc": "Seven bonus tiles at the deal (W2: dealer 天糊 / non-dealer 地糊; W1/C: wait, no 地糊)."
        },
    )
    all_chows_honour_pair: bool = field(
        default=True,
        metadata={
            "doc": '平糊 may have an honour pair (C fn. 3 "眼可以是番子"; W1 fn. 5 and ML: suit pair only).'
        },
    )
    all_chows_any_wait: bool = field(
        default=True,
        metadata={
            "doc": "平糊 on any wait (C, W2); off: no closed, edge or single wait (W1 fn. 5)."
        },
    )
    concealed_kong_keeps_concealed: bool = field(
        default=False,
        metadata={
            "doc": '門前清 survives a concealed kong (P "有些家规"; W2 "包括暗槓" and P\'s standard: no).'
        },
    )
    concealed_hand_with_bonus_tiles: bool = field(
        default=True,
        metadata={
            "doc": '門前清 is counted when bonus tiles are played (W2, P; C "如果有打花牌就不計門前清": no).'
        },
    )
    four_concealed_pungs_kongs: bool = field(
        default=True,
        metadata={
            "doc": '坎坎糊 may include concealed kongs (P "暗杠计算坎坎胡时仍当暗刻"; C fn. 24, W1, W2: no).'
        },
    )
    four_concealed_pungs_single_wait_discard: bool = field(
        default=False,
        metadata={
            "doc": "坎坎糊 stands when a discard completes the pair (single wait) (W1 fn. 22)."
        },
    )
    four_concealed_pungs_any_win: bool = field(
        default=False,
        metadata={
            "doc": "坎坎糊 on any win, also on a discard (W2 literal); off: self-drawn only (C fn. 25, ML, W1)."
        },
    )
    double_kong_from_replacement: bool = field(
        default=False,
        metadata={
            "doc": "槓上槓 needs the second kong to come from the first kong's replacement (C, W1 fn. 17)."
        },
    )
    nine_gates_discard_nine_sided_only: bool = field(
        default=False,
        metadata={
            "doc": '九蓮寶燈 on a discard only with the nine-sided wait (C "食出銃必定要叫九飛").'
        },
    )

    bonus_win_hand: BonusWinHand = field(
        default=BonusWinHand.APART,
        metadata={
            "doc": '花糊/八仙過海 and a complete hand: apart (W2, C: the bonus win alone), adds (W2 花糊牌規 "於手牌以外再加花糊之番數" at once, on a discard too), limit_beats (a limit hand shape beats it).'
        },
    )
    bonus_set_adds_seat_bonus: bool = field(
        default=False,
        metadata={
            "doc": '一台花 plus that set\'s 正花 (2 + 1; tables seen); off: the set includes it (P "已包括该台的正花", W1/W2/C "不再計同系列的正花").'
        },
    )
    nine_gates_with_melds: bool = field(
        default=False,
        metadata={
            "doc": '九蓮寶燈 with declared chows/pungs (22345678999p [111p]; tables seen); off: concealed only (W1/W2/C "門清").'
        },
    )
    mixed_terminals_all_honours: bool = field(
        default=False,
        metadata={
            "doc": '花幺九 also on an all-honours hand (W1/W2 "只有幺九和番子" read literally; ML 花么); off: terminals and honours both present.'
        },
    )

    def __post_init__(self) -> None:
        """Normalise containers and check every value; :raises RulesetError: when one is bad."""
        _set = object.__setattr__
        _set(self, "fan", _check_fan(self.fan))
        _set(self, "limit_hands", _check_ids("limit_hands", self.limit_hands))
        _set(self, "exclusions", _check_exclusions(self.exclusions))
        _set(self, "match_lengths", _check_matches(self.match_lengths))
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesetError(f"name = {self.name!r}: allowed a non-empty string")
        if not isinstance(self.description, str):
            raise RulesetError(f"description = {self.description!r}: allowed a string")
        _check_int("min_fan", self.min_fan, 0, 64, "a whole number of fan from 0 to 64")
        if self.limit is not None:
            _check_int("limit", self.limit, 1, 64, 'a whole number of fan from 1 to 64, or "none"')
            if self.min_fan > self.limit:
                raise RulesetError(
                    f"min_fan = {self.min_fan}: allowed at most the limit ({self.limit})"
                )
        _check_int("dead_wall", self.dead_wall, 0, 64, "a whole number of tiles from 0 to 64")
        for f in fields(self):
            kind = _SWITCH_KINDS.get(f.name)
            value = getattr(self, f.name)
            if kind is bool and not isinstance(value, bool):
                raise RulesetError(f"switches.{f.name} = {value!r}: allowed true or false")
            if isinstance(kind, type) and issubclass(kind, Enum) and not isinstance(value, kind):
                allowed = ", ".join(repr(m.value) for m in kind)
                raise RulesetError(f"switches.{f.name} = {value!r}: allowed {allowed}")
        if not isinstance(self.payment, PaymentRules):
            raise RulesetError(f"payment = {self.payment!r}: allowed a PaymentRules")
        missing = sorted(f.value for f in self.limit_hands if f not in self.fan)
        if missing:
            raise RulesetError(
                f"limit_hands = {missing!r}: a limit hand must have a value in [fan]"
            )
        if self.seven_pairs != (FanId.SEVEN_PAIRS in self.fan):
            raise RulesetError(
                f"switches.seven_pairs = {str(self.seven_pairs).lower()}: allowed only together "
                "with a [fan] SEVEN_PAIRS value (七對子), and that value only with the switch on"
            )
        if self.bonus_win_seven and FanId.SEVEN_BONUS not in self.fan:
            raise RulesetError(
                "switches.bonus_win_seven = true: allowed only with a [fan] SEVEN_BONUS value (花糊)"
            )

    # -- reading the fan table -------------------------------------------------------------------
    def plays(self, fan_id: FanId) -> bool:
        """True when the pattern is played (has a value in the fan table)."""
        return fan_id in self.fan

    def fan_value(self, fan_id: FanId) -> int | None:
        """The listed value of one occurrence of the pattern, or None when it is not played."""
        return self.fan.get(fan_id)

    def is_limit_hand(self, fan_id: FanId) -> bool:
        """True when the pattern is a limit hand (例牌) of this table."""
        return fan_id in self.limit_hands

    def limit_value(self, fan_id: FanId) -> int:
        """What the limit hand scores: its value capped at the limit (its value under no limit).

        :raises RulesetError: when the pattern is not played.
        """
        value = self.fan.get(fan_id)
        if value is None:
            raise RulesetError(f"{fan_id.value} ({fan_id.zh}) is not played in {self.name!r}")
        return value if self.limit is None else min(value, self.limit)

    @property
    def small_winds_wind_pungs(self) -> bool:
        """小四喜 adds the seat / prevailing wind 番牌 (W2 "可另計門圈風"); False under C's
        "不再計門風或圈風", which a ruleset expresses as an exclusion of SMALL_WINDS."""
        excluded = self.exclusions.get(FanId.SMALL_WINDS, frozenset())
        return not ({FanId.SEAT_WIND, FanId.PREVAILING_WIND} & excluded)

    def cap(self, total: int) -> int:
        """A fan total capped at the limit (unchanged under no limit)."""
        return total if self.limit is None else min(total, self.limit)

    def exclusions_in_force(self) -> dict[FanId, frozenset[FanId]]:
        """不重複計: the exclusions that apply at this limit (no limit lifts ``NO_LIMIT_STACKS``, W2)."""
        out = dict(self.exclusions)
        if self.limit is None:
            for f, lifted in NO_LIMIT_STACKS.items():
                if f in out:
                    out[f] = out[f] - lifted
        return out

    def excluded_by(self, present: Iterable[FanId]) -> frozenset[FanId]:
        """Every pattern included by (so not counted alongside) one of ``present``."""
        excl = self.exclusions_in_force()
        out: set[FanId] = set()
        for f in present:
            out.update(excl.get(f, ()))
        return frozenset(out)

    def counted(self, present: Iterable[FanId]) -> tuple[FanId, ...]:
        """The patterns of ``present`` that count: played, and not included by another present."""
        ids = tuple(dict.fromkeys(present))
        gone = self.excluded_by(ids)
        return tuple(f for f in ids if f in self.fan and f not in gone)

    # -- building variants -----------------------------------------------------------------------
    def with_fan(
        self, values: Mapping[FanId, int], *, limit_hands: Iterable[FanId] = ()
    ) -> Ruleset:
        """A copy with the given pattern values set (and ``limit_hands`` added to the 例牌)."""
        fan = dict(self.fan)
        fan.update(values)
        changes: dict[str, Any] = {
            "fan": FrozenMap(fan),
            "limit_hands": self.limit_hands | frozenset(limit_hands),
        }
        if FanId.SEVEN_PAIRS in values:
            changes["seven_pairs"] = True
        return _replace(self, changes)

    def without_fan(self, *fan_ids: FanId) -> Ruleset:
        """A copy in which ``fan_ids`` are not played (removed from the fan table and 例牌)."""
        changes: dict[str, Any] = {
            "fan": self.fan.without(*fan_ids),
            "limit_hands": self.limit_hands - frozenset(fan_ids),
        }
        if FanId.SEVEN_PAIRS in fan_ids:
            changes["seven_pairs"] = False
        if FanId.SEVEN_BONUS in fan_ids:
            changes["bonus_win_seven"] = False
        return _replace(self, changes)

    def switches(self) -> dict[str, object]:
        """Every switch (the TOML ``[switches]`` table) with its value, in field order."""
        return {name: getattr(self, name) for name in SWITCHES}


def _replace(r: Ruleset, changes: Mapping[str, Any]) -> Ruleset:
    """``dataclasses.replace`` with a mapping of changes."""
    return dataclasses.replace(r, **changes)


_NOT_SWITCHES = frozenset(
    {"name", "description", "min_fan", "limit", "fan", "limit_hands", "exclusions", "payment"}
)

SWITCHES: tuple[str, ...] = tuple(f.name for f in fields(Ruleset) if f.name not in _NOT_SWITCHES)
"""Names of every switch field (the keys of the TOML ``[switches]`` table)."""

_SWITCH_KINDS: dict[str, object] = {}
for _f in fields(Ruleset):
    if _f.name in _NOT_SWITCHES:
        continue
    _SWITCH_KINDS[_f.name] = {
        "bool": bool,
        "int": int,
        "PassRule": PassRule,
        "LastTileRule": LastTileRule,
        "DealBonusWin": DealBonusWin,
        "BonusWinHand": BonusWinHand,
        "tuple[str, ...]": tuple,
    }[str(_f.type)]


def switch_kind(name: str) -> object:
    """The type of switch ``name`` (bool, int, tuple or an Enum class); :raises KeyError:."""
    return _SWITCH_KINDS[name]


def _check_int(key: str, value: object, low: int, high: int, allowed: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesetError(f"{key} = {value!r}: allowed {allowed}")


def _as_fan_id(where: str, value: object) -> FanId:
    if isinstance(value, FanId):
        return value
    if isinstance(value, str):
        try:
            return FanId(value.strip().upper())
        except ValueError:
            pass
    raise RulesetError(
        f"{where} = {value!r}: unknown pattern id; allowed the FanId names ({_ids()})"
    )


def _ids() -> str:
    names = [f.value for f in FanId]
    return ", ".join(names[:6]) + f", … ({len(names)} in all; `hkmj rules parlor` lists them)"


def _check_fan(value: object) -> FrozenMap[FanId, int]:
    if not isinstance(value, Mapping):
        raise RulesetError(f"fan = {value!r}: allowed a table of pattern id = fan value")
    out: dict[FanId, int] = {}
    for k, v in value.items():
        fid = _as_fan_id("fan key", k)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 64:
            raise RulesetError(
                f"fan.{fid.value} = {v!r}: allowed a whole number of fan from 0 to 64"
            )
        out[fid] = v
    return FrozenMap(out)


def _check_ids(key: str, value: object) -> frozenset[FanId]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise RulesetError(f"{key} = {value!r}: allowed a list of pattern ids")
    return frozenset(_as_fan_id(key, v) for v in value)


def _check_exclusions(value: object) -> FrozenMap[FanId, frozenset[FanId]]:
    if not isinstance(value, Mapping):
        raise RulesetError(f"exclusions = {value!r}: allowed a table of pattern id = [ids]")
    out: dict[FanId, frozenset[FanId]] = {}
    for k, v in value.items():
        fid = _as_fan_id("exclusions key", k)
        ids = _check_ids(f"exclusions.{fid.value}", v)
        if fid in ids:
            raise RulesetError(f"exclusions.{fid.value}: a pattern cannot exclude itself")
        if ids:
            out[fid] = ids
    return FrozenMap(out)


def _check_matches(value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise RulesetError(
            f"switches.match_lengths = {value!r}: allowed a list of {', '.join(MATCH_LENGTHS)}"
        )
    out = tuple(value)
    bad = [v for v in out if v not in MATCH_LENGTHS]
    if bad or not out:
        raise RulesetError(
            f"switches.match_lengths = {list(out)!r}: allowed a non-empty list of "
            f"{', '.join(MATCH_LENGTHS)}"
        )
    return out


_DOCS: dict[str, str] = {f.name: str(f.metadata.get("doc", "")) for f in fields(Ruleset)}


def field_doc(name: str) -> str:
    """The one-line description (with its seed clause) of a Ruleset field; "" when it has none."""
    return _DOCS.get(name, "")
