"""包牌: who is liable for a win — one decision shared by the engine and the calculator (docs/rules.md §10).

The engine records a :class:`LiabilityTrigger` whenever a claim could make someone liable later
(:func:`triggers_for_claim` builds them from the melds), and at a win asks :func:`decide_liability` (or :func:`liable_seat`) who pays. The switches
are in :class:`~hkmahjong.rules.payment.PaymentRules`; the seeds are P (parlor), W1/W2 (包十二張,
包大三元, 包槓上自摸, 包九張, 包生章, 包先不包後, 即食即包 / 包到尾) and C (落地).

Exposed sets (落地, "明", "翻開") are the declared melds other than concealed kongs (暗槓); a
concealed kong still counts as a kong toward 十八羅漢 (P "开第四个杠").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.payment import GunScheme, KongFeedRule, LiabilityScope, PaymentRules
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "Claim",
    "Designated",
    "LiabilityDecision",
    "LiabilityTrigger",
    "TriggerKind",
    "decide_liability",
    "designated_threats",
    "liable_seat",
    "triggers_for_claim",
]


class TriggerKind(Enum):
    """What a claim or declaration did that liability rules look at."""

    THIRD_DRAGON = "third_dragon"
    """The third dragon set (P 大三元, W1/W2 包大三元, C 大三元落地)."""
    FOURTH_WIND = "fourth_wind"
    """The fourth wind set (P 大四喜, C 大四喜落地)."""
    FOURTH_KONG = "fourth_kong"
    """The fourth kong (P 十八羅漢, C 十八羅漢落地)."""
    FOURTH_EXPOSED_SET = "fourth_exposed_set"
    """十二張落地: the fourth declared set (W1/W2 包十二張, 包九張/十二張; C 落地)."""
    DESIGNATED_HAND_THIRD_SET = "designated_hand_third_set"
    """九張落地 of a designated hand (W1/W2 陪銃 包九張; its turn orders 包先不包後)."""
    KONG_FED = "kong_fed"
    """An exposed kong made on the feeder's discard (出槓, W1/W2 包槓上自摸)."""


class Claim(Enum):
    """How the beneficiary took the feeder's tile (``DECLARATION``: no discard, feeder is None)."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    WIN = "win"
    DECLARATION = "declaration"


class Designated(Enum):
    """指定牌型 that a player's declared sets threaten (W1/W2 包九張; C 落地)."""

    FULL_FLUSH = "full_flush"
    """清一色: every set of one number suit."""
    ALL_HONOURS = "all_honours"
    """字一色: every set of honours."""
    ALL_TERMINALS = "all_terminals"
    """清幺九: pungs/kongs of 1s and 9s."""
    TERMINALS_AND_HONOURS = "terminals_and_honours"
    """全幺九 *(reading: terminals and honours, 清幺九 and 花幺九 both)*: pungs/kongs of 1, 9, honours."""
    WINDS = "winds"
    """大/小四喜: three or more wind sets."""


_DESIGNATED_FANS: dict[Designated, frozenset[FanId]] = {
    Designated.FULL_FLUSH: frozenset({FanId.FULL_FLUSH}),
    Designated.ALL_HONOURS: frozenset({FanId.ALL_HONOURS}),
    Designated.ALL_TERMINALS: frozenset({FanId.ALL_TERMINALS}),
    Designated.TERMINALS_AND_HONOURS: frozenset(
        {FanId.ALL_TERMINALS, FanId.MIXED_TERMINALS, FanId.ALL_HONOURS}
    ),
    Designated.WINDS: frozenset({FanId.SMALL_WINDS, FanId.GREAT_WINDS}),
}
_LANDED: frozenset[Designated] = frozenset(
    {Designated.FULL_FLUSH, Designated.ALL_TERMINALS, Designated.ALL_HONOURS}
)
"""C's 落地 list for twelve tiles: 清一色, 清么九, 字一色 (大三元/大四喜/十八羅漢 by their own kinds)."""
_LIMIT_KIND_FAN: dict[TriggerKind, FanId] = {
    TriggerKind.THIRD_DRAGON: FanId.GREAT_DRAGONS,
    TriggerKind.FOURTH_WIND: FanId.GREAT_WINDS,
    TriggerKind.FOURTH_KONG: FanId.FOUR_KONGS,
}


@dataclass(frozen=True)
class LiabilityTrigger:
    """包牌觸發: ``feeder``'s discard let ``beneficiary`` make a set (or win) that liability watches.

    ``turn`` is the index of the go (a claim starts the claimer's go; a kong and its replacements
    stay in the same go). ``feeder_tile_unseen``: the tile had never been discarded (生章).
    ``beneficiary_discarded_first``: the beneficiary had discarded the same tile first in that
    go-around (W1/W2 包十二張 exception). ``designated``: the designated hands the beneficiary's
    declared sets threaten after this claim. ``feeder_forced`` and ``feeder_last_claim_turn``
    serve 包先不包後: the feeder held only tiles dangerous to the players who landed first, and
    the go of its last chow/pung/kong (None: none).
    """

    kind: TriggerKind
    feeder: Wind | None
    beneficiary: Wind
    turn: int
    tile: Tile | None = None
    claim: Claim = Claim.PUNG
    feeder_tile_unseen: bool = False
    beneficiary_discarded_first: bool = False
    designated: frozenset[Designated] = frozenset()
    feeder_forced: bool = False
    feeder_last_claim_turn: int | None = None


@dataclass(frozen=True)
class LiabilityDecision:
    """包牌決定: the liable seat (None: nobody), and whether it pays only half a discard (C)."""

    liable: Wind | None = None
    half_discard: bool = False
    rule: str | None = None
    reason_zh: str = ""
    reason_en: str = ""


class _HasPayment(Protocol):
    @property
    def payment(self) -> PaymentRules: ...
    @property
    def dead_wall(self) -> int: ...


# -- building triggers -------------------------------------------------------------------------
def _is_set(meld: Meld) -> bool:
    return meld.kind is not MeldKind.CHOW


def designated_threats(melds: Sequence[Meld]) -> frozenset[Designated]:
    """指定牌型 that these exposed sets (at least three; concealed kongs ignored) all fit.

    >>> from hkmahjong.tiles import Tile
    >>> ms = [Meld(MeldKind.PUNG, Tile.M1), Meld(MeldKind.CHOW, Tile.M2), Meld(MeldKind.PUNG, Tile.M9)]
    >>> sorted(d.value for d in designated_threats(ms))
    ['full_flush']
    """
    melds = _exposed(melds)
    if len(melds) < 3:
        return frozenset()
    out: set[Designated] = set()
    firsts = [m.first for m in melds]
    suits = {t.suit for t in firsts}
    if len(suits) == 1 and firsts[0].is_number:
        out.add(Designated.FULL_FLUSH)
    all_sets = all(_is_set(m) for m in melds)
    if all(t.is_honour for t in firsts):
        out.add(Designated.ALL_HONOURS)
    if all_sets and all(t.is_terminal for t in firsts):
        out.add(Designated.ALL_TERMINALS)
    if all_sets and all(t.is_terminal or t.is_honour for t in firsts):
        out.add(Designated.TERMINALS_AND_HONOURS)
    if sum(1 for m in melds if _is_set(m) and m.first.is_wind) >= 3:
        out.add(Designated.WINDS)
    return frozenset(out)


def _count(melds: Iterable[Meld], test: str) -> int:
    if test == "dragon":
        return sum(1 for m in melds if _is_set(m) and m.first.is_dragon)
    if test == "wind":
        return sum(1 for m in melds if _is_set(m) and m.first.is_wind)
    return sum(1 for m in melds if m.kind.is_kong)


def triggers_for_claim(
    melds_before: Sequence[Meld],
    new_meld: Meld | None,
    *,
    tile: Tile,
    feeder: Wind,
    beneficiary: Wind,
    turn: int,
    tile_unseen: bool = False,
    beneficiary_discarded_first: bool = False,
    feeder_forced: bool = False,
    feeder_last_claim_turn: int | None = None,
) -> tuple[LiabilityTrigger, ...]:
    """The triggers of ``beneficiary`` claiming ``feeder``'s discard ``tile``.

    ``new_meld`` is the chow/pung/kong made (``None`` for a win on the discard);
    ``melds_before`` every declared meld before it, concealed kongs included.
    """
    if new_meld is None:
        claim = Claim.WIN
    elif new_meld.kind is MeldKind.CHOW:
        claim = Claim.CHOW
    elif new_meld.kind.is_kong:
        claim = Claim.KONG
    else:
        claim = Claim.PUNG

    def make(
        kind: TriggerKind, designated: frozenset[Designated] = frozenset()
    ) -> LiabilityTrigger:
        return LiabilityTrigger(
            kind,
            feeder,
            beneficiary,
            turn,
            tile,
            claim,
            tile_unseen,
            beneficiary_discarded_first,
            designated,
            feeder_forced,
            feeder_last_claim_turn,
        )

    out: list[LiabilityTrigger] = []
    exposed = _exposed(melds_before)
    forms_set = new_meld is not None and _is_set(new_meld)
    if (forms_set or new_meld is None) and tile.is_dragon and _count(exposed, "dragon") == 2:
        out.append(make(TriggerKind.THIRD_DRAGON))
    if (forms_set or new_meld is None) and tile.is_wind and _count(exposed, "wind") == 3:
        out.append(make(TriggerKind.FOURTH_WIND))
    if new_meld is not None:
        after = [*exposed, new_meld]
        if new_meld.kind.is_kong:
            if _count(melds_before, "kong") == 3:
                out.append(make(TriggerKind.FOURTH_KONG))
            out.append(make(TriggerKind.KONG_FED))
        if len(exposed) == 3:
            out.append(make(TriggerKind.FOURTH_EXPOSED_SET, designated_threats(after)))
        elif len(exposed) == 2 and designated_threats(after):
            out.append(make(TriggerKind.DESIGNATED_HAND_THIRD_SET, designated_threats(after)))
    return tuple(out)


def _exposed(melds: Sequence[Meld]) -> list[Meld]:
    return [m for m in melds if m.kind is not MeldKind.CONCEALED_KONG]


# -- the decision ------------------------------------------------------------------------------
def _fits(
    designated: Iterable[Designated],
    fans: frozenset[FanId],
    only: frozenset[Designated] | None = None,
) -> bool:
    return any(fans & _DESIGNATED_FANS[d] for d in designated if only is None or d in only)


def _tile_fits(designated: Iterable[Designated], tile: Tile | None) -> bool:
    """同款牌: the discard is of the designated kind (a wind for 四喜; any fitting tile otherwise)."""
    if tile is None:
        return True
    for d in designated:
        if d is Designated.WINDS and tile.is_wind:
            return True
        if d is Designated.ALL_HONOURS and tile.is_honour:
            return True
        if d is Designated.FULL_FLUSH and tile.is_number:
            return True
        if d is Designated.ALL_TERMINALS and tile.is_terminal:
            return True
        if d is Designated.TERMINALS_AND_HONOURS and (tile.is_terminal or tile.is_honour):
            return True
    return False


def _first_not_later_exempt(
    triggers: Sequence[LiabilityTrigger],
    *,
    winner: Wind,
    payer: Wind,
    landed_turn: int,
    forced: bool,
    last_claim_turn: int | None,
) -> bool:
    """包先不包後: exempt when another player landed nine tiles first, the payer was forced
    (侷打) and made no chow/pung/kong since that first landing (W1/W2)."""
    earlier = [
        t.turn
        for t in triggers
        if t.kind is TriggerKind.DESIGNATED_HAND_THIRD_SET
        and t.beneficiary not in (winner, payer)
        and t.turn < landed_turn
    ]
    if not earlier or not forced:
        return False
    first = min(earlier)
    return last_claim_turn is None or last_claim_turn < first


def decide_liability(
    triggers: Iterable[LiabilityTrigger],
    *,
    winner: Wind,
    self_drawn: bool,
    discarder: Wind | None,
    hand_fan_ids: Iterable[FanId],
    ruleset: _HasPayment,
    winning_tile: Tile | None = None,
    turn: int | None = None,
    kong_replacement: bool = False,
    discard_unseen: bool = False,
    tiles_left: int | None = None,
    discard_forced: bool = False,
    discarder_last_claim_turn: int | None = None,
) -> LiabilityDecision:
    """包牌: who, if anyone, pays the whole of ``winner``'s win under the table's switches.

    ``turn`` is the go of the win (None: a kong-replacement win is on the latest fed kong);
    ``kong_replacement`` a self-draw on a kong replacement;
    ``discard_unseen`` / ``tiles_left`` describe the winning discard (生章, drawable tiles left
    when it was drawn) for 包生章; ``discard_forced`` / ``discarder_last_claim_turn`` serve
    包先不包後 for a win on a discard. The earliest trigger wins when several apply (W1/W2: the
    大三元 feeder stays liable after a later 十二張).
    """
    every = list(triggers)
    p = ruleset.payment
    half_gun = p.gun is GunScheme.HALF_GUN
    fans = frozenset(hand_fan_ids)
    mine = sorted(
        (t for t in every if t.beneficiary is winner),
        key=lambda t: t.turn,
    )
    fed = [t for t in mine if t.feeder is not None and t.feeder is not winner]
    now = turn if turn is not None else (max((t.turn for t in mine), default=0) + 1)
    kong_turns = [t.turn for t in mine if t.kind is TriggerKind.KONG_FED]
    kong_turn = turn if turn is not None else max(kong_turns, default=None)
    candidates: list[tuple[int, int, LiabilityDecision]] = []

    def add(
        when: int, rank: int, seat: Wind, rule: str, zh: str, en: str, half: bool = False
    ) -> None:
        candidates.append((when, rank, LiabilityDecision(seat, half, rule, zh, en)))

    for t in fed:
        feeder = t.feeder
        assert feeder is not None
        limit_fan = _LIMIT_KIND_FAN.get(t.kind)
        # P: 大三元 / 大四喜 / 十八羅漢
        if p.parlor_liability and limit_fan is not None and limit_fan in fans:
            later_discard = not self_drawn and t.claim is not Claim.WIN
            if not later_discard or p.liability_scope is LiabilityScope.TO_THE_END:
                add(
                    t.turn,
                    0,
                    feeder,
                    "parlor",
                    f"包{limit_fan.zh}（麻雀館）",
                    f"liable for {limit_fan.en} (parlor)",
                )
        # W1/W2 包大三元
        if p.big_dragons_self_draw and t.kind is TriggerKind.THIRD_DRAGON:
            if t.claim is Claim.WIN:
                if FanId.GREAT_DRAGONS in fans and discarder is feeder:
                    add(
                        t.turn,
                        1,
                        feeder,
                        "big_dragons",
                        "包大三元（即食）",
                        "liable: fed the winning third dragon",
                    )
            elif self_drawn:
                add(
                    t.turn,
                    1,
                    feeder,
                    "big_dragons",
                    "包大三元：包自摸",
                    "liable for any self-draw after feeding the third dragon",
                )
            elif (
                FanId.GREAT_DRAGONS in fans
                and half_gun
                and p.liability_scope is LiabilityScope.TO_THE_END
            ):
                add(
                    t.turn,
                    1,
                    feeder,
                    "big_dragons",
                    "包大三元（包到尾）",
                    "liable for 大三元 to the end",
                )
        # W1/W2 包到尾 for 大四喜 under half gun (即食即包 is the immediate case below)
        if (
            p.nine_tiles
            and half_gun
            and t.kind is TriggerKind.FOURTH_WIND
            and t.claim is not Claim.WIN
            and FanId.GREAT_WINDS in fans
            and (self_drawn or p.liability_scope is LiabilityScope.TO_THE_END)
        ):
            add(t.turn, 1, feeder, "big_winds", "包大四喜", "liable for 大四喜")
        # W1/W2 全銃 包十二張
        if (
            p.twelve_tiles
            and self_drawn
            and t.kind is TriggerKind.FOURTH_EXPOSED_SET
            and t.claim is not Claim.WIN
            and not t.beneficiary_discarded_first
        ):
            add(
                t.turn,
                2,
                feeder,
                "twelve_tiles",
                "包十二張：包自摸",
                "liable: fed the fourth exposed set (12 tiles)",
            )
        # W1/W2 陪銃 包十二張 of a designated hand
        if (
            p.nine_tiles
            and self_drawn
            and t.kind is TriggerKind.FOURTH_EXPOSED_SET
            and _fits(t.designated, fans)
            and not (
                p.first_not_later
                and _first_not_later_exempt(
                    every,
                    winner=winner,
                    payer=feeder,
                    landed_turn=_landing_turn(mine, t.turn),
                    forced=t.feeder_forced,
                    last_claim_turn=t.feeder_last_claim_turn,
                )
            )
        ):
            add(
                t.turn,
                2,
                feeder,
                "nine_tiles",
                "包十二張（指定牌型）：包自摸",
                "liable: fed 12 tiles of a designated hand",
            )
        # C 落地
        if p.landed and t.claim is not Claim.WIN:
            landed_hand = (
                t.kind is TriggerKind.FOURTH_EXPOSED_SET and _fits(t.designated, fans, _LANDED)
            ) or (limit_fan is not None and limit_fan in fans)
            if landed_hand and self_drawn:
                add(
                    t.turn,
                    3,
                    feeder,
                    "landed",
                    "落地包自摸",
                    "liable: landed set, pays the self-draw",
                )
            elif (
                landed_hand
                and limit_fan is not None
                and p.landed_half_discard
                and discarder is not None
                and discarder is not feeder
            ):
                add(
                    t.turn,
                    3,
                    feeder,
                    "landed",
                    "落地：包出銃者一半",
                    "liable for half the discard",
                    True,
                )
        # 包槓上自摸
        if (
            p.kong_feed is KongFeedRule.LIABLE
            and self_drawn
            and kong_replacement
            and t.kind is TriggerKind.KONG_FED
            and t.feeder_tile_unseen
            and t.turn == kong_turn
        ):
            add(
                t.turn,
                4,
                feeder,
                "kong_feed",
                "包槓上自摸（生章）",
                "liable: fed an unseen tile for the kong",
            )
    # W1/W2 陪銃 包九張: an immediate win on a discard while nine tiles of a designated hand lie open
    if p.nine_tiles and half_gun and not self_drawn and discarder is not None:
        landed = [t for t in mine if t.kind is TriggerKind.DESIGNATED_HAND_THIRD_SET]
        twelve = any(t.kind is TriggerKind.FOURTH_EXPOSED_SET for t in mine)
        if landed and not twelve:
            t = landed[-1]
            if _fits(t.designated, fans) and _tile_fits(t.designated, winning_tile):
                exempt = p.first_not_later and _first_not_later_exempt(
                    every,
                    winner=winner,
                    payer=discarder,
                    landed_turn=t.turn,
                    forced=discard_forced,
                    last_claim_turn=discarder_last_claim_turn,
                )
                if not exempt:
                    add(
                        now,
                        5,
                        discarder,
                        "nine_tiles",
                        "包九張：包輸",
                        "liable: fed a nine-tile designated hand",
                    )
    # 包生章
    if (
        p.unseen_late
        and half_gun
        and ruleset.dead_wall > 0
        and not self_drawn
        and discarder is not None
        and discard_unseen
        and tiles_left is not None
        and (
            tiles_left <= 10
            or (tiles_left <= 14 and winning_tile is not None and winning_tile.is_honour)
        )
    ):
        add(now, 6, discarder, "unseen_late", "包生章", "liable: a late unseen discard")
    if not candidates:
        return LiabilityDecision()
    candidates.sort(key=lambda c: (c[0], c[1]))
    return candidates[0][2]


def _landing_turn(mine: Sequence[LiabilityTrigger], fallback: int) -> int:
    turns = [t.turn for t in mine if t.kind is TriggerKind.DESIGNATED_HAND_THIRD_SET]
    return min(turns) if turns else fallback


def liable_seat(
    triggers: Iterable[LiabilityTrigger],
    *,
    winner: Wind,
    self_drawn: bool,
    discarder: Wind | None,
    hand_fan_ids: Iterable[FanId],
    ruleset: _HasPayment,
    winning_tile: Tile | None = None,
    turn: int | None = None,
    kong_replacement: bool = False,
) -> Wind | None:
    """包牌: the liable seat for this win, or None (see :func:`decide_liability`)."""
    return decide_liability(
        triggers,
        winner=winner,
        self_drawn=self_drawn,
        discarder=discarder,
        hand_fan_ids=hand_fan_ids,
        ruleset=ruleset,
        winning_tile=winning_tile,
        turn=turn,
        kong_replacement=kong_replacement,
    ).liable
