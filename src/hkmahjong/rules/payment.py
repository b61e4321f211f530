"""付款規則: every payment, liability (包牌) and false-win (詐糊) switch of docs/rules.md §9–§11.

A :class:`PaymentRules` is a frozen, hashable value held by ``Ruleset.payment``. The four presets
have named constructors (:meth:`PaymentRules.parlor`, :meth:`~PaymentRules.qingzhang`,
:meth:`~PaymentRules.ml`, :meth:`~PaymentRules.cuhk`); :meth:`~PaymentRules.to_dict` and
:meth:`~PaymentRules.from_dict` read and write the TOML ``[payment]`` table.

Seeds: W1 = ``seeds/000``, C = ``001``, ML = ``002``, P = ``003``, W2 = ``004``.

>>> PaymentRules.parlor().discarder_shares
3
>>> PaymentRules.from_dict({"gun": "half_gun"}).gun
<GunScheme.HALF_GUN: 'half_gun'>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from hkmahjong.errors import RulesetError

__all__ = [
    "ML_TABLE",
    "ExposedKongPayment",
    "FalseWinPenalty",
    "GunScheme",
    "KongFeedRule",
    "LiabilityScope",
    "PaymentRules",
    "RobbedKongPayment",
    "ScoreTable",
]

ML_TABLE: tuple[int, ...] = (2, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512)
"""ML's 付錢表 自摸 column (per payer) for the table's minimum fan, min+1, … min+10 (seed 002)."""


class ScoreTable(Enum):
    """分數表: how a fan total converts to one share (一份)."""

    HALF_SPICY = "half_spicy"
    """半辣上 (P, W1/W2): 1, 2, 4, 8, then doubling every two fan: 12, 16, 24, 32, 48, 64 …"""
    FULL_SPICY = "full_spicy"
    """辣辣上 (W1/W2): doubling every fan: 1, 2, 4, 8, 16, 32 …"""
    TRADITIONAL = "traditional"
    """滿糊 pricing (W1/W2): 4 fan is full price; 清一色 pays double (雙辣), a limit hand triple (三辣)."""
    RELATIVE = "relative"
    """ML: ``table`` lists the share for the minimum fan, min+1, min+2 … (seed 002)."""
    CUSTOM = "custom"
    """Any table's own list: ``table[fan]`` is the share for ``fan`` (0, 1, 2 …)."""


class GunScheme(Enum):
    """銃制: who pays for a win on a discard."""

    FULL_GUN = "full_gun"
    """全銃: the discarder alone pays ``discarder_shares`` shares (P: 3)."""
    HALF_GUN = "half_gun"
    """半銃 / 陪銃 (P's common parlor rule, W1/W2): the discarder pays two shares, the others one each."""


class RobbedKongPayment(Enum):
    """搶槓: how a win by robbing a kong is paid."""

    AS_DISCARD = "as_discard"
    """The kong declarer pays as the discarder (P, W2)."""
    SELF_DRAW_DECLARER_LIABLE = "self_draw_declarer_liable"
    """Paid as a self-draw, the declarer liable for all three shares (W1 fn. 7)."""


class ExposedKongPayment(Enum):
    """出槓: who pays a win on the replacement tile of an exposed kong (明槓)."""

    OFF = "off"
    """A kong-replacement win is an ordinary self-draw (P is silent)."""
    AS_DISCARD = "as_discard"
    """The player who discarded the kong tile pays as the discarder (W2 "視作打出槓牌者出銃")."""
    LIABLE = "liable"
    """The player who discarded the kong tile pays the whole self-draw (C "明槓出槓者包", W1 槓上槓)."""


class KongFeedRule(Enum):
    """包槓上自摸: feeding an unseen tile (生章) for a kong whose replacement wins (W1/W2 full gun)."""

    OFF = "off"
    LIABLE = "liable"
    """The feeder pays the whole self-draw."""
    EXTRA_FAN = "extra_fan"
    """W1/W2 自訂: instead the winner scores one more fan and nobody is liable (applied by scoring)."""


class LiabilityScope(Enum):
    """即食即包 / 包到尾: does liability for 大三元/大四喜 also cover a later win on another's discard."""

    IMMEDIATE = "immediate"
    """即食即包 (W1/W2): liable for an immediate win and a later self-draw only."""
    TO_THE_END = "to_the_end"
    """包到尾 (W1/W2; P's "独自支付"): liable for any later win of that hand, whoever discards."""


class FalseWinPenalty(Enum):
    """詐糊罰則 (docs/rules.md §11)."""

    PARLOR = "parlor"
    """P: as if all three had won a limit hand off the offender: each receives that whole win."""
    LIMIT_SELF_DRAW = "limit_self_draw"
    """C "賠自摸最大番數": one limit share (the self-draw amount) to each of the three."""
    HALF_GUN = "half_gun"
    """W1/W2 陪銃: the would-be discarder gets the limit discard amount, the other two half; a
    self-drawn false win pays each of the three the limit self-draw share."""
    FULL_GUN = "full_gun"
    """W1/W2 全銃: each of the three gets the limit discard amount."""
    OWN_FAN = "own_fan"
    """W1/W2 自訂: as W1/W2 全銃 but at the claimed hand's own fan, at least ``false_win_min_fan``."""


_E = TypeVar("_E", bound=Enum)


@dataclass(frozen=True)
class PaymentRules:
    """付款規則: the score table, gun scheme, liability (包牌) and false-win (詐糊) switches.

    Amounts are whole jade (玉): one share point is ``unit`` jade. Only a 0-fan win (雞糊, worth
    ``zero_fan_share`` = ½ share) can come to a fraction; it is rounded up to whole jade.
    """

    # §9 score table
    score_table: ScoreTable = ScoreTable.HALF_SPICY
    table: tuple[int, ...] = ()
    zero_fan_share: float = 0.5
    unit: int = 1
    # §9 gun scheme
    gun: GunScheme = GunScheme.FULL_GUN
    discarder_shares: int = 3
    robbed_kong: RobbedKongPayment = RobbedKongPayment.AS_DISCARD
    exposed_kong: ExposedKongPayment = ExposedKongPayment.OFF
    # §10 liability
    parlor_liability: bool = True
    big_dragons_self_draw: bool = False
    twelve_tiles: bool = False
    nine_tiles: bool = False
    landed: bool = False
    landed_half_discard: bool = False
    kong_feed: KongFeedRule = KongFeedRule.OFF
    unseen_late: bool = False
    first_not_later: bool = False
    liability_scope: LiabilityScope = LiabilityScope.TO_THE_END
    # §11 false win
    false_win: FalseWinPenalty = FalseWinPenalty.PARLOR
    false_win_min_fan: int = 3
    no_limit_fan: int = 13
    # §9 staked online matches (ML) and bankruptcy
    settle_at_end: bool = False
    stake: int | None = None
    bankrupt_cap: bool = True

    def __post_init__(self) -> None:
        """Check every value; :raises RulesetError: naming the key, the value and what is allowed."""
        for key, cls in _ENUM_FIELDS.items():
            value = getattr(self, key)
            if not isinstance(value, cls):
                raise RulesetError(
                    f"payment.{key} = {value!r}: allowed {', '.join(repr(m.value) for m in cls)}"
                )
        for key in _BOOL_FIELDS:
            if not isinstance(getattr(self, key), bool):
                raise RulesetError(f"payment.{key} = {getattr(self, key)!r}: allowed true or false")
        if not isinstance(self.table, tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in self.table
        ):
            raise RulesetError(
                f"payment.table = {self.table!r}: allowed a list of whole numbers >= 0"
            )
        if self.score_table in (ScoreTable.RELATIVE, ScoreTable.CUSTOM) and not self.table:
            raise RulesetError(
                f"payment.table = []: score_table {self.score_table.value!r} needs a list of shares"
            )
        if any(b < a for a, b in zip(self.table, self.table[1:], strict=False)):
            raise RulesetError(
                f"payment.table = {list(self.table)!r}: allowed only a non-decreasing list"
            )
        zero = self.zero_fan_share
        if isinstance(zero, bool) or not isinstance(zero, int | float) or zero < 0 or zero * 2 % 1:
            raise RulesetError(
                f"payment.zero_fan_share = {zero!r}: allowed a multiple of 0.5 that is >= 0"
            )
        _check_int("unit", self.unit, 1, None, "a whole number of jade per share point, at least 1")
        _check_int("discarder_shares", self.discarder_shares, 2, 4, "2, 3 or 4 (docs/rules.md §9)")
        _check_int("false_win_min_fan", self.false_win_min_fan, 0, None, "a fan count >= 0")
        _check_int("no_limit_fan", self.no_limit_fan, 1, None, "a fan count >= 1")
        if self.stake is not None:
            _check_int("stake", self.stake, 1, None, "a whole number of jade >= 1, or absent")

    # -- presets ------------------------------------------------------------------------------
    @classmethod
    def parlor(cls) -> PaymentRules:
        """麻雀館: P's payment — 半辣上, 全銃 three shares, P's 包牌 (大三元/大四喜/十八羅漢)."""
        return cls()

    @classmethod
    def qingzhang(cls) -> PaymentRules:
        """清章 (W2 正統): the W2 全銃制 table (discarder pays two shares) and W2's 全銃版 包牌."""
        return cls(
            discarder_shares=2,
            parlor_liability=False,
            big_dragons_self_draw=True,
            twelve_tiles=True,
            kong_feed=KongFeedRule.LIABLE,
            false_win=FalseWinPenalty.FULL_GUN,
        )

    @classmethod
    def ml(cls) -> PaymentRules:
        """Mahjong Logic (seed 002): relative 付錢表, 出沖 = two 自摸 shares, settled at the end."""
        return cls(
            score_table=ScoreTable.RELATIVE,
            table=ML_TABLE,
            discarder_shares=2,
            parlor_liability=False,
            false_win=FalseWinPenalty.FULL_GUN,
            settle_at_end=True,
        )

    @classmethod
    def cuhk(cls) -> PaymentRules:
        """中大 competition rule: the seeds give only its limit list, so payment is the parlor's."""
        return cls()

    # -- TOML [payment] table -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The TOML ``[payment]`` table: every field, enums as their string values."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            if value is None:
                continue
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], base: PaymentRules | None = None) -> PaymentRules:
        """Read a ``[payment]`` table over ``base`` (default: the parlor's).

        :raises RulesetError: for an unknown key or a value that is not allowed.
        """
        if not isinstance(d, Mapping):
            raise RulesetError(f"[payment] = {d!r}: allowed a table of payment switches")
        start = base if base is not None else cls.parlor()
        names = {f.name for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in d.items():
            if key not in names:
                raise RulesetError(
                    f"payment.{key} = {value!r}: unknown key; allowed {', '.join(sorted(names))}"
                )
            if key in _ENUM_FIELDS:
                changes[key] = _parse_enum(key, value, _ENUM_FIELDS[key])
            elif key == "table":
                if not isinstance(value, list | tuple):
                    raise RulesetError(
                        f"payment.table = {value!r}: allowed a list of whole numbers >= 0"
                    )
                changes[key] = tuple(value)
            else:
                changes[key] = value
        return dataclasses.replace(start, **changes)


_ENUM_FIELDS: dict[str, type[Enum]] = {
    "score_table": ScoreTable,
    "gun": GunScheme,
    "robbed_kong": RobbedKongPayment,
    "exposed_kong": ExposedKongPayment,
    "kong_feed": KongFeedRule,
    "liability_scope": LiabilityScope,
    "false_win": FalseWinPenalty,
}
_BOOL_FIELDS = (
    "parlor_liability",
    "big_dragons_self_draw",
    "twelve_tiles",
    "nine_tiles",
    "landed",
    "landed_half_discard",
    "unseen_late",
    "first_not_later",
    "settle_at_end",
    "bankrupt_cap",
)


def _parse_enum(key: str, value: object, cls: type[_E]) -> _E:
    """An enum member from its string value; :raises RulesetError: when it is not one."""
    if isinstance(value, cls):
        return value
    for member in cls:
        if isinstance(value, str) and value.lower() in (member.value, member.name.lower()):
            return member
    allowed = ", ".join(repr(m.value) for m in cls)
    raise RulesetError(f"payment.{key} = {value!r}: allowed {allowed}")


def _check_int(key: str, value: object, low: int, high: int | None, allowed: str) -> None:
    """:raises RulesetError: when ``value`` is not an int in ``[low, high]``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        raise RulesetError(f"payment.{key} = {value!r}: allowed {allowed}")
