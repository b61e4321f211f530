"""付款: shares (一份), self-draw / 全銃 / 半銃 payments, 包牌, 詐糊 and staked matches (docs/rules.md §9–§11).

Every amount is whole jade (玉). One share of a fan total is its score-table value times
``PaymentRules.unit`` (1 in every preset, so the parlor's 3 fan = 4 jade, P). The only fraction a
table can produce is 雞糊's ½ share; each payment is then rounded up to whole jade (the payer pays
the half), and a table that wants exact halves sets ``unit = 2``. Rounding happens per payment
before any liable player takes payments over, so a settlement always sums to zero.

:func:`settle_hand` is the one settlement: the engine (through ``engine.settle``), the record's
bankruptcy re-settlement and the calculator all end there, and every ``settle_*`` function below
builds its typed records (:class:`WinClaim`, :class:`FalseWinClaim`) and calls it.

>>> from hkmahjong.tiles import Wind
>>> s = settle_win_fan(3, False, winner=Wind.SOUTH, discarder=None, self_drawn=True,
...                    payment=PaymentRules.parlor(), min_fan=3, limit=10)
>>> s.as_json()
{'E': -4, 'S': 12, 'W': -4, 'N': -4}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from hkmahjong.errors import MahjongError
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.payment import (
    ExposedKongPayment,
    FalseWinPenalty,
    GunScheme,
    PaymentRules,
    RobbedKongPayment,
    ScoreTable,
)
from hkmahjong.tiles import Wind

__all__ = [
    "FalseWinClaim",
    "PaymentError",
    "PaymentKind",
    "PaymentLine",
    "RulesLike",
    "ScoredHand",
    "Settlement",
    "WinClaim",
    "payment_summary",
    "settle_false_win",
    "settle_hand",
    "settle_staked_match",
    "settle_win",
    "settle_win_fan",
    "settle_wins",
    "share_for",
    "share_jade",
    "share_points",
    "table_stake",
    "win_claim",
]


class PaymentError(MahjongError):
    """A payment that cannot be settled as asked (a missing discarder, a seat paying itself, …)."""


class RulesLike(Protocol):
    """What payments read from a ``Ruleset``: the minimum fan, the limit and ``payment``."""

    @property
    def min_fan(self) -> int: ...
    @property
    def limit(self) -> int | None: ...
    @property
    def payment(self) -> PaymentRules: ...


class ScoredHand(Protocol):
    """What payments read from a ``ScoreResult``."""

    @property
    def valid_win(self) -> bool: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def total_fan(self) -> int: ...
    @property
    def is_limit(self) -> bool: ...
    @property
    def fan_ids(self) -> frozenset[FanId]: ...


class PaymentKind(StrEnum):
    """What a payment line pays for: its meaning as data (the reason's words are for people).

    A win's lines are :attr:`SELF_DRAW`, :attr:`FULL_GUN` or :attr:`HALF_GUN` by how it was paid
    (a robbed kong or an exposed kong paid as a discard is a gun line; one paid as a self-draw a
    self-draw line), or a liable seat's (包牌) :attr:`LIABLE_ALL` / :attr:`LIABLE_HALF`.
    """

    SELF_DRAW = "self_draw"
    """自摸: one of the three others pays the winner its share."""
    FULL_GUN = "full_gun"
    """出銃（全銃）: the discarder pays the whole win."""
    HALF_GUN = "half_gun"
    """出銃（半銃）: the discarder pays double, the two others a share each."""
    LIABLE_ALL = "liable_all"
    """包牌：獨付全數: the liable seat pays the whole win alone."""
    LIABLE_HALF = "liable_half"
    """包牌：代付出銃一半: the liable seat pays half of the discarder's part."""
    FALSE_WIN = "false_win"
    """詐糊: the offender compensates one of the three others."""
    MATCH = "match"
    """結算: a staked match's settlement (a loser pays at most its stake)."""

    @property
    def liable(self) -> bool:
        """包牌: a payment made as the liable seat."""
        return self in (PaymentKind.LIABLE_ALL, PaymentKind.LIABLE_HALF)


@dataclass(frozen=True)
class PaymentLine:
    """一筆付款: ``payer`` pays ``amount`` jade to ``payee``, and why: ``kind`` (what it pays for,
    as data), ``capped`` (the payer paid less than it owed: all it held, 破產, or its stake) and
    the reason in words (zh / en, for people only)."""

    payer: Wind
    payee: Wind
    amount: int
    reason_zh: str
    reason_en: str
    kind: PaymentKind
    capped: bool = False

    def text(self, lang: str = "en") -> str:
        """One line for people, e.g. ``東 → 南 24: 出銃 (全銃)``."""
        if lang.startswith("zh"):
            return f"{self.payer.zh} → {self.payee.zh} {self.amount}：{self.reason_zh}"
        return f"{self.payer.name} -> {self.payee.name} {self.amount}: {self.reason_en}"


@dataclass(frozen=True)
class Settlement:
    """結算: per-seat integer deltas (received > 0, paid < 0) summing to zero, and the lines."""

    lines: tuple[PaymentLine, ...] = ()
    deltas: Mapping[Wind, int] = field(default_factory=dict)

    @classmethod
    def from_lines(cls, lines: Iterable[PaymentLine]) -> Settlement:
        """The settlement of these payment lines."""
        kept = tuple(lines)
        deltas = dict.fromkeys(Wind, 0)
        for line in kept:
            deltas[line.payer] -= line.amount
            deltas[line.payee] += line.amount
        return cls(kept, deltas)

    def __add__(self, other: Settlement) -> Settlement:
        """Both settlements' lines together."""
        return Settlement.from_lines(self.lines + other.lines)

    def delta(self, seat: Wind) -> int:
        """What ``seat`` receives (negative: pays)."""
        return self.deltas.get(seat, 0)

    def as_json(self) -> dict[str, int]:
        """``{"E": …, "S": …, "W": …, "N": …}`` as in docs/calculator.md's batch format ``settlement``."""
        return {seat.letter: self.delta(seat) for seat in Wind}

    def as_tuple(self) -> tuple[int, int, int, int]:
        """Deltas in seat order 東 南 西 北 (what ``engine.match.HandResult`` takes)."""
        return (
            self.delta(Wind.EAST),
            self.delta(Wind.SOUTH),
            self.delta(Wind.WEST),
            self.delta(Wind.NORTH),
        )


# -- shares ------------------------------------------------------------------------------------
def _half_spicy(fan: int) -> Fraction:
    """半辣上 points for ``fan`` >= 1: 1, 2, 4, 8, then ×1.5 and ×2 alternately (12, 16, 24 …)."""
    if fan <= 4:
        return Fraction(2 ** (fan - 1))
    k = fan - 4
    base = 8 * 2 ** (k // 2)
    return Fraction(base * 3 // 2 if k % 2 else base)


def share_points(
    fan: int,
    *,
    is_limit: bool,
    payment: PaymentRules,
    min_fan: int = 0,
    limit: int | None = None,
    full_flush: bool = False,
) -> Fraction:
    """一份: the score-table value of one share for ``fan`` (before ``unit``), capped at ``limit``.

    :raises PaymentError: for a negative fan.

    >>> [int(share_points(f, is_limit=False, payment=PaymentRules.parlor())) for f in (3, 6, 10)]
    [4, 16, 64]
    """
    if isinstance(fan, bool) or not isinstance(fan, int) or fan < 0:
        raise PaymentError(f"fan must be a whole number >= 0, not {fan!r}")
    if limit is not None and fan > limit:
        fan = limit
    kind = payment.score_table
    zero = Fraction(payment.zero_fan_share).limit_denominator(2)
    if kind is ScoreTable.RELATIVE or kind is ScoreTable.CUSTOM:
        table = payment.table
        base = min_fan if kind is ScoreTable.RELATIVE else 0
        if is_limit and limit is not None:
            index = limit - base
        elif is_limit:
            index = len(table) - 1
        else:
            index = fan - base
        return Fraction(table[max(0, min(index, len(table) - 1))])
    if fan == 0 and not is_limit:
        return zero
    if kind is ScoreTable.FULL_SPICY:
        return Fraction(2 ** (fan - 1)) if fan else zero
    if kind is ScoreTable.TRADITIONAL:
        full = _half_spicy(4)
        if is_limit:
            return 3 * full
        if fan >= 4:
            return 2 * full if full_flush else full
        return _half_spicy(fan) if fan else zero
    return _half_spicy(fan) if fan else zero


def _share(fan: int, is_limit: bool, rules: RulesLike, full_flush: bool = False) -> Fraction:
    return (
        share_points(
            fan,
            is_limit=is_limit,
            payment=rules.payment,
            min_fan=rules.min_fan,
            limit=rules.limit,
            full_flush=full_flush,
        )
        * rules.payment.unit
    )


def share_for(
    fan: int, ruleset: RulesLike, *, is_limit: bool = False, full_flush: bool = False
) -> int | float:
    """一份: jade for one share of ``fan`` under the table (0.5 for 雞糊 at unit 1).

    :raises PaymentError: for a negative fan.
    """
    value = _share(fan, is_limit, ruleset, full_flush)
    return int(value) if value.denominator == 1 else float(value)


def share_jade(
    fan: int, ruleset: RulesLike, *, is_limit: bool = False, full_flush: bool = False
) -> int:
    """一份 in whole jade: :func:`share_for` rounded up.

    :raises PaymentError: for a negative fan.
    """
    return math.ceil(_share(fan, is_limit, ruleset, full_flush))


def payment_summary(
    fan: int, ruleset: RulesLike, *, is_limit: bool = False, full_flush: bool = False
) -> dict[str, int]:
    """The ``payment`` object of docs/calculator.md, *Batches*: share, self-draw each, full/half-gun amounts.

    :raises PaymentError: for a negative fan.
    """
    share = _share(fan, is_limit, ruleset, full_flush)
    return {
        "share": math.ceil(share),
        "self_draw_each": math.ceil(share),
        "discarder_full_gun": math.ceil(share * ruleset.payment.discarder_shares),
        "discarder_half_gun": math.ceil(share * 2),
        "others_half_gun": math.ceil(share),
    }


def table_stake(ruleset: RulesLike) -> int:
    """ML 牌桌價值: the discard amount of the table's top fan (its stake unless ``stake`` is set)."""
    if ruleset.payment.stake is not None:
        return ruleset.payment.stake
    return _discard_amount(_limit_share(ruleset), ruleset.payment)


# -- wins --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WinClaim:
    """一糊: one win to settle — who, its fan, off whom, who is liable (包牌), who else won.

    The typed win record that :func:`settle_hand` (the one settlement) takes; the engine, the
    record's bankruptcy re-settlement and the calculator all build these.
    """

    winner: Wind
    fan: int
    is_limit: bool = False
    full_flush: bool = False
    liable: Wind | None = None
    """包牌: the seat that pays the whole win (from :func:`~hkmahjong.scoring.liability.decide_liability`)."""
    liable_half_discard: bool = False
    """The liable seat pays only half of the discarder's amount (C 落地)."""
    discarder: Wind | None = None
    """Who discarded the winning tile (or declared the robbed kong); None for a self-draw."""
    robbed_kong: bool = False
    """搶槓: ``discarder`` is the kong's declarer."""
    kong_discarder: Wind | None = None
    """出槓: who discarded the tile of the exposed kong whose replacement won (a self-draw)."""
    co_winners: frozenset[Wind] = frozenset()
    """一炮多響: the other seats that won on the same discard or robbed kong (they pay nothing)."""

    @property
    def self_drawn(self) -> bool:
        """自摸 (also 花糊 and a win on a kong replacement): no discarder."""
        return self.discarder is None


@dataclass(frozen=True, slots=True)
class FalseWinClaim:
    """詐糊: a false win to settle — the offender, self-drawn or on whose discard, the claimed fan."""

    offender: Wind
    self_drawn: bool
    would_be_discarder: Wind | None = None
    claimed_fan: int | None = None


_Obligation = tuple[Wind, Wind, int, str, str, PaymentKind]


def _check_seat(seat: object, what: str) -> Wind:
    if not isinstance(seat, Wind):
        raise PaymentError(f"{what} must be a Wind (E/S/W/N), not {seat!r}")
    return seat


def _win_obligations(claim: WinClaim, rules: RulesLike) -> list[_Obligation]:
    payment = rules.payment
    winner = _check_seat(claim.winner, "winner")
    discarder, robbed_kong, kong_discarder = (
        claim.discarder,
        claim.robbed_kong,
        claim.kong_discarder,
    )
    self_drawn = discarder is None and not robbed_kong
    share = _share(claim.fan, claim.is_limit, rules, claim.full_flush)
    liable = claim.liable
    if liable is not None and liable in claim.co_winners:
        liable = None  # a seat that won this hand too pays no one (decision, docs/payment.md)
    how_zh, how_en = ("自摸", "self-draw") if self_drawn else ("出銃", "discard")
    if robbed_kong:
        if self_drawn:
            raise PaymentError("a robbed kong (搶槓) is not a self-draw: pass self_drawn=False")
        if discarder is None:
            raise PaymentError("a robbed kong (搶槓) needs the kong declarer's seat as discarder")
        if payment.robbed_kong is RobbedKongPayment.SELF_DRAW_DECLARER_LIABLE:
            declarer = discarder
            self_drawn, discarder = True, None
            liable = liable if liable is not None else declarer
            how_zh, how_en = (
                "搶槓當自摸，開槓者包",
                "robbed kong paid as self-draw, declarer liable",
            )
        else:
            how_zh, how_en = "搶槓，開槓者當出銃", "robbed kong, declarer pays as discarder"
    elif kong_discarder is not None and self_drawn:
        _check_seat(kong_discarder, "kong_discarder")
        if payment.exposed_kong is ExposedKongPayment.AS_DISCARD:
            self_drawn, discarder = False, kong_discarder
            how_zh, how_en = "出槓：打出槓牌者當出銃", "exposed kong: its feeder pays as discarder"
        elif payment.exposed_kong is ExposedKongPayment.LIABLE and liable is None:
            liable = kong_discarder
            how_zh, how_en = "出槓者包自摸", "exposed kong: its feeder pays the self-draw"
    if self_drawn:
        if discarder is not None and not robbed_kong:
            raise PaymentError(
                f"a self-draw has no discarder, but discarder={discarder.letter} was given"
            )
        normal = {winner.next(k): math.ceil(share) for k in (1, 2, 3)}
        how = PaymentKind.SELF_DRAW
    else:
        if discarder is None:
            raise PaymentError("a win on a discard needs the discarder's seat")
        _check_seat(discarder, "discarder")
        if discarder is winner:
            raise PaymentError(f"seat {winner.letter} cannot win on its own discard")
        if payment.gun is GunScheme.FULL_GUN:
            normal = {discarder: math.ceil(share * payment.discarder_shares)}
            how = PaymentKind.FULL_GUN
            how_zh += f"（全銃 {payment.discarder_shares} 份）"
            how_en += f" (full gun, {payment.discarder_shares} shares)"
        else:
            normal = {discarder: math.ceil(share * 2)}
            how = PaymentKind.HALF_GUN
            for k in (1, 2, 3):
                if winner.next(k) is not discarder:
                    normal[winner.next(k)] = math.ceil(share)
            how_zh += "（半銃）"
            how_en += " (half gun)"
    if liable is None:
        return [(payer, winner, amount, how_zh, how_en, how) for payer, amount in normal.items()]
    _check_seat(liable, "liable")
    if liable is winner:
        raise PaymentError(f"seat {winner.letter} cannot be liable for its own win")
    total = sum(normal.values())
    if claim.liable_half_discard and not self_drawn and discarder is not None:
        half = math.ceil(normal[discarder] / 2)
        out: list[_Obligation] = [
            (
                liable,
                winner,
                half,
                f"包牌：代付出銃一半（{how_zh}）",
                f"liable: half of the discard ({how_en})",
                PaymentKind.LIABLE_HALF,
            ),
        ]
        rest = normal[discarder] - half
        out.append((discarder, winner, rest, how_zh, how_en, how))
        out += [
            (payer, winner, amount, how_zh, how_en, how)
            for payer, amount in normal.items()
            if payer is not discarder
        ]
        return out
    return [
        (
            liable,
            winner,
            total,
            f"包牌：獨付全數（{how_zh}）",
            f"liable: pays the whole win ({how_en})",
            PaymentKind.LIABLE_ALL,
        )
    ]


def _apply(
    obligations: Sequence[_Obligation],
    payment: PaymentRules,
    balances: Mapping[Wind, int | float] | None,
) -> Settlement:
    """Lines for the obligations; with ``balances`` a payer pays at most what it holds."""
    held = (
        {seat: max(0, math.floor(balances.get(seat, 0))) for seat in Wind}
        if balances is not None and payment.bankrupt_cap
        else None
    )
    lines: list[PaymentLine] = []
    for payer, payee, amount, zh, en, kind in obligations:
        capped = held is not None and amount > held[payer]
        if held is not None and capped:
            paid = held[payer]
            zh = f"{zh}；只餘 {paid}，付清為止（破產）"
            en = f"{en}; holds only {paid}, pays what it holds (bankrupt)"
        else:
            paid = amount
        if held is not None:
            held[payer] -= paid
            held[payee] += paid
        if paid or amount:
            lines.append(PaymentLine(payer, payee, paid, zh, en, kind, capped))
    return Settlement.from_lines(lines)


def settle_hand(
    wins: Sequence[WinClaim],
    ruleset: RulesLike,
    *,
    false_wins: Sequence[FalseWinClaim] = (),
    balances: Mapping[Wind, int | float] | None = None,
) -> Settlement:
    """結算一局: THE settlement of a hand — its wins, then its false wins (詐糊), as payment lines.

    Every settlement goes through here: the engine's hand end, the record's bankruptcy
    re-settlement, the calculator (``hkmj score`` and the batch) and :func:`settle_win`,
    :func:`settle_wins` and :func:`settle_false_win`. Several wins are one discard's or one
    robbed kong's (一炮多響): they must share the discarder, are paid in turn order after it, and
    each winner is a co-winner of the others — under 半銃 a co-winner pays no other winner
    *(decision: it won this hand too)*; a win's ``co_winners`` may also name winners whose own
    payment is not settled here (the calculator's ``--co-winner``). Payers of one win pay in
    turn order after its winner (the discarder first). With ``balances`` (破產, when
    ``payment.bankrupt_cap``) a payer pays at most what it holds at that moment, so earlier
    payments are made in full first.

    :raises PaymentError: when the seats do not fit the kinds of win, for a seat that wins
        twice, or for several wins that are not one discard's.
    """
    others_of = _co_winner_sets(wins)
    obligations: list[_Obligation] = []
    for claim in _in_turn_order(wins):
        others = others_of[claim.winner]
        if others != claim.co_winners:
            claim = replace(claim, co_winners=others)
        obligations += [ob for ob in _win_obligations(claim, ruleset) if ob[0] not in others]
    for fw in false_wins:
        obligations += _false_win_obligations(fw, ruleset)
    return _apply(obligations, ruleset.payment, balances)


def _co_winner_sets(wins: Sequence[WinClaim]) -> dict[Wind, frozenset[Wind]]:
    """Each winner's checked co-winners: its own ``co_winners`` and the other wins given."""
    seats = [_check_seat(c.winner, "winner") for c in wins]
    if len(set(seats)) != len(seats):
        raise PaymentError(f"a seat wins twice in one hand: {[s.letter for s in seats]}")
    if len(wins) > 1:
        first = wins[0]
        for c in wins:
            if c.discarder is None or c.discarder is not first.discarder:
                raise PaymentError(
                    "several wins in one hand must all be on one discard or one robbed kong "
                    f"(一炮多響); got discarders {[_letter(w.discarder) for w in wins]}"
                )
            if c.robbed_kong is not first.robbed_kong:
                raise PaymentError("several winners of one discard: all rob the kong or none")
    out: dict[Wind, frozenset[Wind]] = {}
    for c in wins:
        co = frozenset(_check_seat(s, "co_winner") for s in c.co_winners)
        co |= frozenset(seats) - {c.winner}
        if co:
            if c.discarder is None and not c.robbed_kong:
                raise PaymentError(
                    "a self-draw has no co-winners (一炮多響 is for a discard or robbed kong)"
                )
            if c.winner in co:
                raise PaymentError(f"co_winners lists the winner {c.winner.letter} itself")
            if c.discarder is not None and c.discarder in co:
                raise PaymentError(
                    f"the discarder {c.discarder.letter} cannot also win on its discard"
                )
        out[c.winner] = co
    return out


def _letter(seat: Wind | None) -> str:
    return "-" if seat is None else seat.letter


def _in_turn_order(wins: Sequence[WinClaim]) -> list[WinClaim]:
    """Several winners of one discard in turn order after the discarder (one win as it is)."""
    if len(wins) < 2:
        return list(wins)
    discarder = wins[0].discarder
    assert discarder is not None
    return sorted(wins, key=lambda c: (c.winner - discarder) % 4)


def win_claim(
    result: ScoredHand,
    *,
    winner: Wind,
    discarder: Wind | None,
    self_drawn: bool,
    liable: Wind | None = None,
    liable_half_discard: bool = False,
    robbed_kong: bool = False,
    kong_discarder: Wind | None = None,
    co_winners: Iterable[Wind] = (),
) -> WinClaim:
    """The :class:`WinClaim` of a scored win (``ScoreResult``) and its seats.

    :raises PaymentError: when ``result`` is not a valid win or the seats do not fit it.
    """
    if not result.valid_win:
        raise PaymentError(f"not a valid win ({result.reason}): nothing to pay")
    return _claim(
        result.total_fan,
        result.is_limit,
        winner=winner,
        discarder=discarder,
        self_drawn=self_drawn,
        full_flush=FanId.FULL_FLUSH in result.fan_ids,
        liable=liable,
        liable_half_discard=liable_half_discard,
        robbed_kong=robbed_kong,
        kong_discarder=kong_discarder,
        co_winners=co_winners,
    )


def _claim(
    fan: int,
    is_limit: bool,
    *,
    winner: Wind,
    discarder: Wind | None,
    self_drawn: bool,
    full_flush: bool,
    liable: Wind | None,
    liable_half_discard: bool,
    robbed_kong: bool,
    kong_discarder: Wind | None,
    co_winners: Iterable[Wind],
) -> WinClaim:
    """A :class:`WinClaim` from the keyword form, checking that ``self_drawn`` fits the seats."""
    if self_drawn and robbed_kong:
        raise PaymentError("a robbed kong (搶槓) is not a self-draw: pass self_drawn=False")
    if self_drawn and discarder is not None:
        raise PaymentError(
            f"a self-draw has no discarder, but discarder={_letter(discarder)} was given"
        )
    if not self_drawn and discarder is None:
        if robbed_kong:
            raise PaymentError("a robbed kong (搶槓) needs the kong declarer's seat as discarder")
        raise PaymentError("a win on a discard needs the discarder's seat")
    return WinClaim(
        _check_seat(winner, "winner"),
        fan,
        is_limit,
        full_flush,
        liable,
        liable_half_discard,
        discarder=discarder,
        robbed_kong=robbed_kong,
        kong_discarder=kong_discarder,
        co_winners=frozenset(co_winners),
    )


def settle_win_fan(
    fan: int,
    is_limit: bool,
    *,
    winner: Wind,
    discarder: Wind | None,
    self_drawn: bool,
    payment: PaymentRules,
    min_fan: int = 0,
    limit: int | None = None,
    full_flush: bool = False,
    liable: Wind | None = None,
    liable_half_discard: bool = False,
    robbed_kong: bool = False,
    kong_discarder: Wind | None = None,
    balances: Mapping[Wind, int | float] | None = None,
    co_winners: Iterable[Wind] = (),
) -> Settlement:
    """結算一糊: settle one win from its fan total (plain arguments; :func:`settle_hand` does it).

    ``discarder`` is the kong declarer for a robbed kong; ``kong_discarder`` whoever discarded
    the tile of an exposed kong whose replacement won (出槓); ``liable`` the seat that pays the
    whole win (包牌, from :func:`hkmahjong.scoring.liability.decide_liability`); ``co_winners``
    the other seats that won on the same discard or robbed the same kong (一炮多響): they pay
    this winner nothing.

    :raises PaymentError: when the seats do not fit the kind of win.
    """
    claim = _claim(
        fan,
        is_limit,
        winner=winner,
        discarder=discarder,
        self_drawn=self_drawn,
        full_flush=full_flush,
        liable=liable,
        liable_half_discard=liable_half_discard,
        robbed_kong=robbed_kong,
        kong_discarder=kong_discarder,
        co_winners=co_winners,
    )
    return settle_hand([claim], _Rules(min_fan, limit, payment), balances=balances)


def settle_win(
    result: ScoredHand,
    *,
    winner: Wind,
    discarder: Wind | None,
    self_drawn: bool,
    ruleset: RulesLike,
    liable: Wind | None = None,
    liable_half_discard: bool = False,
    robbed_kong: bool = False,
    kong_discarder: Wind | None = None,
    balances: Mapping[Wind, int | float] | None = None,
    co_winners: Iterable[Wind] = (),
) -> Settlement:
    """結算一糊: what each seat pays or receives for a scored win (through :func:`settle_hand`).

    :raises PaymentError: when ``result`` is not a valid win or the seats do not fit it.
    """
    claim = win_claim(
        result,
        winner=winner,
        discarder=discarder,
        self_drawn=self_drawn,
        liable=liable,
        liable_half_discard=liable_half_discard,
        robbed_kong=robbed_kong,
        kong_discarder=kong_discarder,
        co_winners=co_winners,
    )
    return settle_hand([claim], ruleset, balances=balances)


def settle_wins(
    claims: Sequence[WinClaim],
    *,
    discarder: Wind,
    ruleset: RulesLike,
    robbed_kong: bool = False,
    balances: Mapping[Wind, int | float] | None = None,
) -> Settlement:
    """一炮多響: several winners on one discard (or robbing one kong), through :func:`settle_hand`.

    :raises PaymentError: for no winner, a repeated winner, or the discarder among the winners.
    """
    if not claims:
        raise PaymentError("settle_wins needs at least one winner")
    _check_seat(discarder, "discarder")
    return settle_hand(
        [replace(c, discarder=discarder, robbed_kong=robbed_kong) for c in claims],
        ruleset,
        balances=balances,
    )


# -- false wins --------------------------------------------------------------------------------
def _limit_share(rules: RulesLike) -> Fraction:
    limit = rules.limit if rules.limit is not None else rules.payment.no_limit_fan
    return _share(limit, True, _Rules(rules.min_fan, limit, rules.payment))


def _discard_amount(share: Fraction, payment: PaymentRules) -> int:
    """What a discarder pays for one share: full gun ``discarder_shares``, half gun two."""
    shares = payment.discarder_shares if payment.gun is GunScheme.FULL_GUN else 2
    return math.ceil(share * shares)


def settle_false_win(
    offender: Wind,
    ruleset: RulesLike,
    *,
    self_drawn: bool,
    would_be_discarder: Wind | None = None,
    claimed_fan: int | None = None,
    balances: Mapping[Wind, int | float] | None = None,
) -> Settlement:
    """詐糊: the offender compensates the other three by the table's penalty (docs/rules.md §11).

    Settled through :func:`settle_hand`.

    :raises PaymentError: when a discard false win under the W1/W2 half-gun penalty has no
        would-be discarder, or the seats clash.
    """
    claim = FalseWinClaim(offender, self_drawn, would_be_discarder, claimed_fan)
    return settle_hand((), ruleset, false_wins=[claim], balances=balances)


def _false_win_obligations(claim: FalseWinClaim, ruleset: RulesLike) -> list[_Obligation]:
    payment = ruleset.payment
    offender, self_drawn = claim.offender, claim.self_drawn
    would_be_discarder, claimed_fan = claim.would_be_discarder, claim.claimed_fan
    offender = _check_seat(offender, "offender")
    others = [offender.next(k) for k in (1, 2, 3)]  # paid in turn order after the offender
    if would_be_discarder is not None:
        _check_seat(would_be_discarder, "would_be_discarder")
        if would_be_discarder is offender:
            raise PaymentError(f"seat {offender.letter} cannot false-win on its own discard")
    kind = payment.false_win
    limit_share = _limit_share(ruleset)
    amounts: dict[Wind, int]
    if kind is FalseWinPenalty.PARLOR:
        if payment.gun is GunScheme.FULL_GUN:
            each = _discard_amount(limit_share, payment)
        else:
            each = math.ceil(limit_share * 4)
        amounts = dict.fromkeys(others, each)
        zh, en = "詐糊：當三家都食了爆棚牌", "false win: as if all three had won a limit hand"
    elif kind is FalseWinPenalty.LIMIT_SELF_DRAW:
        amounts = dict.fromkeys(others, math.ceil(limit_share))
        zh, en = "詐糊：賠自摸最大番數", "false win: the limit self-draw share to each"
    elif kind is FalseWinPenalty.HALF_GUN:
        if self_drawn:
            amounts = dict.fromkeys(others, math.ceil(limit_share))
            zh, en = (
                "詐糊（陪銃制自摸）：各賠最高番自摸",
                "false win (half gun, self-drawn): limit self-draw",
            )
        else:
            if would_be_discarder is None:
                raise PaymentError(
                    "a false win on a discard under the half-gun penalty needs would_be_discarder"
                )
            full = math.ceil(limit_share * 2)
            amounts = {
                s: full if s is would_be_discarder else math.ceil(limit_share) for s in others
            }
            zh, en = (
                "詐糊（陪銃制）：出銃者最高番，其餘一半",
                "false win (half gun): limit to the discarder, half to the others",
            )
    elif kind is FalseWinPenalty.FULL_GUN:
        amounts = dict.fromkeys(others, _discard_amount(limit_share, payment))
        zh, en = (
            "詐糊（全銃制）：各賠最高番數",
            "false win (full gun): the limit discard amount to each",
        )
    else:
        fan = max(claimed_fan or 0, payment.false_win_min_fan)
        limit = ruleset.limit
        is_limit = limit is not None and fan >= limit
        if limit is not None:
            fan = min(fan, limit)
        share = _share(fan, is_limit, ruleset)
        amounts = dict.fromkeys(others, _discard_amount(share, payment))
        zh, en = f"詐糊：按 {fan} 番賠", f"false win: paid at {fan} fan"
    return [(offender, seat, amounts[seat], zh, en, PaymentKind.FALSE_WIN) for seat in others]


# -- staked matches (ML) -----------------------------------------------------------------------
def settle_staked_match(scores: Mapping[Wind, int], stakes: Mapping[Wind, int] | int) -> Settlement:
    """ML 賭注上限: settle a match's accumulated scores; a loser never pays more than its stake.

    Winners share what the losers pay in proportion to their scores (largest remainders, ties to
    the earlier seat), so nobody receives more than it won.

    :raises PaymentError: when the scores do not sum to zero or a stake is negative.
    """
    score = {seat: int(scores.get(seat, 0)) for seat in Wind}
    if sum(score.values()) != 0:
        raise PaymentError(f"match scores must sum to zero, got {sum(score.values())}: {score}")
    stake = {
        seat: (stakes if isinstance(stakes, int) else int(stakes.get(seat, 0))) for seat in Wind
    }
    for seat, value in stake.items():
        if value < 0:
            raise PaymentError(f"stake of {seat.letter} must be >= 0, got {value}")
    paid = {seat: min(-s, stake[seat]) for seat, s in score.items() if s < 0}
    pot = sum(paid.values())
    winners = {seat: s for seat, s in score.items() if s > 0}
    won_total = sum(winners.values())
    receive = {seat: pot * s // won_total for seat, s in winners.items()} if won_total else {}
    left = pot - sum(receive.values())
    by_remainder = sorted(winners, key=lambda seat: (-(pot * winners[seat] % won_total), seat))
    for seat in by_remainder[:left]:
        receive[seat] += 1
    lines: list[PaymentLine] = []
    payers = [(seat, amount) for seat, amount in paid.items() if amount]
    index, remaining = 0, payers[0][1] if payers else 0
    for payee, amount in sorted(receive.items()):
        while amount:
            payer = payers[index][0]
            step = min(amount, remaining)
            capped = stake[payer] < -score[payer]
            lines.append(
                PaymentLine(
                    payer,
                    payee,
                    step,
                    "結算（賭注為上限）" if capped else "結算",
                    "match settlement (capped at stake)" if capped else "match settlement",
                    PaymentKind.MATCH,
                    capped,
                )
            )
            remaining -= step
            amount -= step
            if not remaining and index + 1 < len(payers):
                index += 1
                remaining = payers[index][1]
    return Settlement.from_lines(lines)


@dataclass(frozen=True)
class _Rules:
    min_fan: int
    limit: int | None
    payment: PaymentRules
