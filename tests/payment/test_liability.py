"""包牌: the liability decision shared by the engine and the calculator (docs/rules.md §10)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.payment import GunScheme, KongFeedRule, LiabilityScope
from hkmahjong.scoring.liability import (
    Claim,
    Designated,
    LiabilityDecision,
    LiabilityTrigger,
    TriggerKind,
    decide_liability,
    designated_threats,
    liable_seat,
    triggers_for_claim,
)
from hkmahjong.scoring.payment import settle_win_fan
from hkmahjong.tiles import Tile, Wind

Table = Callable[..., Ruleset]
E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PUNG, CHOW, KONG = MeldKind.PUNG, MeldKind.CHOW, MeldKind.KONG


def melds(*spec: tuple[MeldKind, Tile]) -> list[Meld]:
    return [Meld(kind, tile) for kind, tile in spec]


def pung_fed(
    before: list[Meld], tile: Tile, *, feeder: Wind, winner: Wind = S, turn: int = 10, **kw: bool
) -> tuple[LiabilityTrigger, ...]:
    """``winner`` pungs ``feeder``'s ``tile`` on top of ``before``."""
    return triggers_for_claim(
        before, Meld(PUNG, tile), tile=tile, feeder=feeder, beneficiary=winner, turn=turn, **kw
    )


def decide(
    triggers: Iterable[LiabilityTrigger],
    rules: Ruleset,
    fans: Iterable[FanId],
    *,
    self_drawn: bool,
    discarder: Wind | None = None,
    winner: Wind = S,
    **kw: object,
) -> LiabilityDecision:
    return decide_liability(
        triggers,
        winner=winner,
        self_drawn=self_drawn,
        discarder=discarder,
        hand_fan_ids=fans,
        ruleset=rules,
        **kw,  # type: ignore[arg-type]
    )


TWO_DRAGONS = melds((PUNG, Tile.WHITE), (PUNG, Tile.GREEN))
GREAT_DRAGONS = {FanId.GREAT_DRAGONS, FanId.HALF_FLUSH}


# -- P: 大三元 / 大四喜 / 十八羅漢 ---------------------------------------------------------------
def test_parlor_great_dragons_feeder_pays_self_draw(table: Table) -> None:
    """docs/rules.md §10 / P 大三元 "对方已明两组三元牌刻子，你打出让他碰…第三组…即使對方之後是自摸亦一樣"."""
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    kinds = [t.kind for t in trig]
    assert kinds == [TriggerKind.THIRD_DRAGON, TriggerKind.DESIGNATED_HAND_THIRD_SET]  # 字一色 too
    d = decide(trig, table("parlor"), GREAT_DRAGONS, self_drawn=True)
    assert d.liable is E and d.rule == "parlor"
    s = settle_win_fan(
        10,
        True,
        winner=S,
        discarder=None,
        self_drawn=True,
        payment=table("parlor").payment,
        liable=d.liable,
    )
    assert s.as_json() == {"E": -192, "S": 192, "W": 0, "N": 0}


def test_parlor_third_player_discard_to_the_end_or_immediate(table: Table) -> None:
    """docs/rules.md §10 P "独自支付" read as 包到尾; W1/W2 即食即包 switch leaves the discarder paying."""
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    assert decide(trig, table("parlor"), GREAT_DRAGONS, self_drawn=False, discarder=W).liable is E
    imm = table("parlor", liability_scope=LiabilityScope.IMMEDIATE)
    assert decide(trig, imm, GREAT_DRAGONS, self_drawn=False, discarder=W).liable is None
    assert decide(trig, imm, GREAT_DRAGONS, self_drawn=True).liable is E
    # 即食即包 "任何人再打出任何牌…也無須包輸": the feeder's own later discard is a plain discard
    assert decide(trig, imm, GREAT_DRAGONS, self_drawn=False, discarder=E).liable is None


def test_parlor_only_for_the_limit_hand_itself(table: Table) -> None:
    """P lists three limit hands: a different hand after the third dragon set is not liable."""
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    assert decide(trig, table("parlor"), {FanId.ALL_PUNGS}, self_drawn=True).liable is None
    assert (
        decide(trig, table("parlor", parlor_liability=False), GREAT_DRAGONS, self_drawn=True).liable
        is None
    )


def test_parlor_great_winds_and_four_kongs(table: Table) -> None:
    """docs/rules.md §10 / P 大四喜 (fourth wind set) and 十八羅漢 (fourth kong)."""
    winds = melds((PUNG, Tile.EAST), (PUNG, Tile.SOUTH), (KONG, Tile.WEST))
    trig = pung_fed(winds, Tile.NORTH, feeder=W)
    assert TriggerKind.FOURTH_WIND in {t.kind for t in trig}
    assert decide(trig, table("parlor"), {FanId.GREAT_WINDS}, self_drawn=True).liable is W
    kongs = melds((KONG, Tile.M1), (KONG, Tile.P5), (MeldKind.CONCEALED_KONG, Tile.S9))
    trig2 = triggers_for_claim(
        kongs, Meld(KONG, Tile.RED), tile=Tile.RED, feeder=N, beneficiary=S, turn=20
    )
    assert {t.kind for t in trig2} == {TriggerKind.FOURTH_KONG, TriggerKind.KONG_FED}
    assert decide(trig2, table("parlor"), {FanId.FOUR_KONGS}, self_drawn=True).liable is N
    assert decide(trig2, table("parlor"), {FanId.ALL_PUNGS}, self_drawn=True).liable is None


def test_parlor_half_gun_liable_pays_four_shares(table: Table) -> None:
    """docs/rules.md §10 / P: the liable seat pays "3 shares under full gun; 4 under half gun"."""
    rules = table("parlor", gun=GunScheme.HALF_GUN)
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    d = decide(trig, rules, GREAT_DRAGONS, self_drawn=False, discarder=E)
    assert d.liable is E
    s = settle_win_fan(
        10, True, winner=S, discarder=E, self_drawn=False, payment=rules.payment, liable=d.liable
    )
    assert s.as_json() == {"E": -256, "S": 256, "W": 0, "N": 0}


# -- W1/W2 全銃: 包大三元, 包十二張, 包槓上自摸 -----------------------------------------------------
def test_w2_big_dragons_any_self_draw(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包大三元 "稍後若乙自摸任何牌（不論牌型），玩家甲須支付全部款項"."""
    rules = table("qingzhang")
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=N)
    assert decide(trig, rules, {FanId.ALL_PUNGS}, self_drawn=True).liable is N
    assert decide(trig, rules, {FanId.ALL_PUNGS}, self_drawn=False, discarder=W).liable is None


def test_w2_twelve_tiles_self_draw(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包十二張: feeding the fourth set makes you pay any self-draw."""
    rules = table("qingzhang")
    three = melds((CHOW, Tile.M1), (PUNG, Tile.P9), (CHOW, Tile.S4))
    trig = triggers_for_claim(
        three, Meld(CHOW, Tile.M6), tile=Tile.M7, feeder=E, beneficiary=S, turn=30
    )
    assert [t.kind for t in trig] == [TriggerKind.FOURTH_EXPOSED_SET]
    assert decide(trig, rules, {FanId.CHICKEN}, self_drawn=True).liable is E
    assert decide(trig, rules, {FanId.CHICKEN}, self_drawn=False, discarder=W).liable is None
    assert decide(trig, table("parlor"), {FanId.CHICKEN}, self_drawn=True).liable is None


def test_w2_twelve_tiles_exception_when_winner_discarded_it_first(table: Table) -> None:
    """W1, W2 包十二張 "但如果玩家乙先打岀一張牌，玩家甲再跟打岀同一張牌…玩家甲不用包牌"."""
    three = melds((CHOW, Tile.M1), (PUNG, Tile.P9), (CHOW, Tile.S4))
    trig = pung_fed(three, Tile.WEST, feeder=E, beneficiary_discarded_first=True)
    assert decide(trig, table("qingzhang"), {FanId.CHICKEN}, self_drawn=True).liable is None


def test_earlier_big_dragons_feeder_stays_liable_over_later_twelve(table: Table) -> None:
    """W1, W2 "即使稍後再有另一玩家打出任何牌令玩家乙十二張落地，仍然由玩家甲負責包自摸"."""
    first = pung_fed(TWO_DRAGONS, Tile.RED, feeder=N, turn=10)
    later = pung_fed([*TWO_DRAGONS, Meld(PUNG, Tile.RED)], Tile.M5, feeder=W, turn=14)
    d = decide([*later, *first], table("qingzhang"), GREAT_DRAGONS, self_drawn=True)
    assert d.liable is N and d.rule == "big_dragons"


def test_w2_kong_fed_with_unseen_tile(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包槓上自摸: "打出一張生章牌…玩家乙開槓…槓上自摸，則玩家甲要包"."""
    rules = table("qingzhang")
    unseen = triggers_for_claim(
        [], Meld(KONG, Tile.P3), tile=Tile.P3, feeder=W, beneficiary=S, turn=7, tile_unseen=True
    )
    seen = triggers_for_claim(
        [], Meld(KONG, Tile.P3), tile=Tile.P3, feeder=W, beneficiary=S, turn=7
    )
    fans = {FanId.KONG_REPLACEMENT, FanId.SELF_DRAWN}
    kw = {"self_drawn": True, "kong_replacement": True, "turn": 7}
    assert decide(unseen, rules, fans, **kw).liable is W  # type: ignore[arg-type]
    assert decide(seen, rules, fans, **kw).liable is None  # type: ignore[arg-type]
    assert (
        decide(unseen, rules, fans, self_drawn=True, kong_replacement=True, turn=9).liable is None
    )  # a later kong's replacement
    assert decide(unseen, rules, fans, self_drawn=True, kong_replacement=True).liable is W
    off = table("qingzhang", kong_feed=KongFeedRule.OFF)
    assert decide(unseen, off, fans, **kw).liable is None  # type: ignore[arg-type]


# -- W1/W2 陪銃: 包九張 / 十二張, 包先不包後, 即食即包 / 包到尾, 包生章 ----------------------------------
def half_gun(table: Table, **kw: object) -> Ruleset:
    """W1/W2 陪銃版: half gun with 包九張/十二張 and 包大三元."""
    return table("qingzhang", gun=GunScheme.HALF_GUN, nine_tiles=True, twelve_tiles=False, **kw)


BAMBOO_TWO = melds((PUNG, Tile.S1), (CHOW, Tile.S3))


def test_nine_tiles_immediate_win_discarder_pays_all(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包九張: "玩家甲打出同款牌令玩家乙即時食出指定牌型，玩家甲要包輸"."""
    rules = half_gun(table)
    landed = pung_fed(BAMBOO_TWO, Tile.S8, feeder=N, turn=5)
    assert [t.kind for t in landed] == [TriggerKind.DESIGNATED_HAND_THIRD_SET]
    assert Designated.FULL_FLUSH in landed[0].designated
    flush = {FanId.FULL_FLUSH}
    d = decide(landed, rules, flush, self_drawn=False, discarder=W, winning_tile=Tile.S5, turn=9)
    assert d.liable is W and d.rule == "nine_tiles"
    s = settle_win_fan(
        7, False, winner=S, discarder=W, self_drawn=False, payment=rules.payment, liable=d.liable
    )
    assert s.as_json() == {"E": 0, "S": 96, "W": -96, "N": 0}  # 4 shares of 24
    assert (
        decide(
            landed, rules, {FanId.HALF_FLUSH}, self_drawn=False, discarder=W, winning_tile=Tile.S5
        ).liable
        is None
    )  # not the designated hand
    assert decide(landed, rules, flush, self_drawn=True).liable is None  # no 12 tiles yet


def test_twelve_tiles_of_designated_hand_self_draw(table: Table) -> None:
    """W1, W2 陪銃 包十二張: "稍後若乙自摸指定牌型（包括槓上自摸），玩家甲包自摸" — only that hand."""
    rules = half_gun(table)
    landed = pung_fed(BAMBOO_TWO, Tile.S8, feeder=N, turn=5)
    twelve = pung_fed([*BAMBOO_TWO, Meld(PUNG, Tile.S8)], Tile.S9, feeder=E, turn=11)
    trig = [*landed, *twelve]
    assert decide(trig, rules, {FanId.FULL_FLUSH}, self_drawn=True).liable is E
    assert decide(trig, rules, {FanId.ALL_PUNGS}, self_drawn=True).liable is None
    # after 12 tiles a discard win is no longer "即時" nine-tile liability
    assert (
        decide(
            trig, rules, {FanId.FULL_FLUSH}, self_drawn=False, discarder=W, winning_tile=Tile.S2
        ).liable
        is None
    )


def test_winds_nine_tiles_needs_a_wind_discard(table: Table) -> None:
    """W1, W2 包九張 "打出同款牌": for 大/小四喜 the winning discard is a wind."""
    rules = half_gun(table)
    winds = melds((PUNG, Tile.EAST), (PUNG, Tile.SOUTH))
    landed = pung_fed(winds, Tile.WEST, feeder=N, turn=5)
    fans = {FanId.SMALL_WINDS}
    assert (
        decide(landed, rules, fans, self_drawn=False, discarder=W, winning_tile=Tile.NORTH).liable
        is W
    )
    assert (
        decide(landed, rules, fans, self_drawn=False, discarder=W, winning_tile=Tile.M3).liable
        is None
    )


def test_first_not_later(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包先不包後: "侷打…只須對首先九張落地的玩家包輸"."""
    rules = half_gun(table, first_not_later=True)
    north_flush = pung_fed(
        melds((PUNG, Tile.M1), (CHOW, Tile.M3)), Tile.M9, feeder=W, winner=N, turn=5
    )
    south_honours = pung_fed(
        melds((PUNG, Tile.EAST), (PUNG, Tile.WHITE)), Tile.RED, feeder=W, winner=S, turn=8
    )
    trig = [*north_flush, *south_honours]
    fans = {FanId.ALL_HONOURS}
    kw = {"self_drawn": False, "discarder": E, "winning_tile": Tile.GREEN, "turn": 12}
    forced = decide(trig, rules, fans, discard_forced=True, discarder_last_claim_turn=3, **kw)
    assert forced.liable is None
    claimed = decide(trig, rules, fans, discard_forced=True, discarder_last_claim_turn=6, **kw)
    assert claimed.liable is E  # claimed after the first landing
    had_choice = decide(trig, rules, fans, discard_forced=False, **kw)
    assert had_choice.liable is E  # "甲手上有乙和丙不要的牌…仍然要包輸"
    to_first = decide(
        trig,
        rules,
        {FanId.FULL_FLUSH},
        winner=N,
        self_drawn=False,
        discarder=E,
        winning_tile=Tile.M5,
        discard_forced=True,
    )
    assert to_first.liable is E
    without = half_gun(table)
    assert decide(trig, without, fans, discard_forced=True, **kw).liable is E


def test_immediate_or_to_the_end_for_great_dragons(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 "即食即包" vs "包到尾" for 大三元 under half gun."""
    fed = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E, turn=4)
    end = half_gun(table, liability_scope=LiabilityScope.TO_THE_END)
    imm = half_gun(table, liability_scope=LiabilityScope.IMMEDIATE)
    assert decide(fed, end, GREAT_DRAGONS, self_drawn=False, discarder=W).liable is E
    assert decide(fed, imm, GREAT_DRAGONS, self_drawn=False, discarder=W).liable is None
    assert decide(fed, imm, GREAT_DRAGONS, self_drawn=True).liable is E  # "只須包乙自摸"
    won = triggers_for_claim(TWO_DRAGONS, None, tile=Tile.RED, feeder=W, beneficiary=S, turn=6)
    assert won and won[0].claim is Claim.WIN
    assert decide(won, imm, GREAT_DRAGONS, self_drawn=False, discarder=W).liable is W


def test_immediate_or_to_the_end_for_great_winds(table: Table) -> None:
    """W1, W2 即食即包 / 包到尾 also covers 大四喜 ("大三元或者大小四喜")."""
    winds = melds((PUNG, Tile.EAST), (PUNG, Tile.SOUTH), (PUNG, Tile.WEST))
    fed = pung_fed(winds, Tile.NORTH, feeder=E, turn=4)
    end = half_gun(table, liability_scope=LiabilityScope.TO_THE_END)
    imm = half_gun(table, liability_scope=LiabilityScope.IMMEDIATE)
    fans = {FanId.GREAT_WINDS}
    assert decide(fed, end, fans, self_drawn=False, discarder=W, winning_tile=Tile.M2).liable is E
    assert (
        decide(fed, imm, fans, self_drawn=False, discarder=W, winning_tile=Tile.M2).liable is None
    )
    assert decide(fed, imm, fans, self_drawn=True).liable is E


def test_unseen_late_discard(table: Table) -> None:
    """docs/rules.md §10 / W1, W2 包生章: last 10 tiles any unseen discard, last 14 an unseen honour."""
    rules = half_gun(table, unseen_late=True, dead_wall=16)
    kw = {"self_drawn": False, "discarder": W, "discard_unseen": True}
    assert decide([], rules, {FanId.CHICKEN}, tiles_left=9, winning_tile=Tile.M5, **kw).liable is W
    assert (
        decide([], rules, {FanId.CHICKEN}, tiles_left=12, winning_tile=Tile.M5, **kw).liable is None
    )
    assert (
        decide([], rules, {FanId.CHICKEN}, tiles_left=13, winning_tile=Tile.RED, **kw).liable is W
    )
    seen = {"self_drawn": False, "discarder": W, "discard_unseen": False}
    assert (
        decide([], rules, {FanId.CHICKEN}, tiles_left=3, winning_tile=Tile.M5, **seen).liable
        is None
    )
    no_tail = half_gun(table, unseen_late=True)  # 摸到尾: no reserved tail, no 包生章
    assert (
        decide([], no_tail, {FanId.CHICKEN}, tiles_left=3, winning_tile=Tile.M5, **kw).liable
        is None
    )


# -- C 落地 ----------------------------------------------------------------------------------------
def test_c_landed_full_flush_self_draw(table: Table) -> None:
    """docs/rules.md §10 / C "清一色落地：十二章落地…要包自摸。如果不是食出清一色就不用包"."""
    rules = table("parlor", parlor_liability=False, landed=True)
    three = melds((PUNG, Tile.P1), (CHOW, Tile.P3), (CHOW, Tile.P6))
    trig = pung_fed(three, Tile.P9, feeder=W)
    assert decide(trig, rules, {FanId.FULL_FLUSH}, self_drawn=True).liable is W
    assert decide(trig, rules, {FanId.HALF_FLUSH}, self_drawn=True).liable is None


def test_c_landed_great_dragons_half_the_discard(table: Table) -> None:
    """C "大三元落地包自摸，或…亦需要包出銃者一半分數"."""
    rules = table("parlor", parlor_liability=False, landed=True, landed_half_discard=True)
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    d = decide(trig, rules, GREAT_DRAGONS, self_drawn=False, discarder=N)
    assert d.liable is E and d.half_discard
    s = settle_win_fan(
        10,
        True,
        winner=S,
        discarder=N,
        self_drawn=False,
        payment=rules.payment,
        liable=d.liable,
        liable_half_discard=d.half_discard,
    )
    assert s.as_json() == {"E": -96, "S": 192, "W": 0, "N": -96}
    plain = table("parlor", parlor_liability=False, landed=True)
    assert decide(trig, plain, GREAT_DRAGONS, self_drawn=False, discarder=N).liable is None
    assert decide(trig, plain, GREAT_DRAGONS, self_drawn=True).liable is E


# -- building triggers -----------------------------------------------------------------------------
def test_designated_threats() -> None:
    """指定牌型 (W1/W2 包九張): 清一色, 字一色, 全幺九 (清幺九 / with honours), 四喜."""
    assert designated_threats(BAMBOO_TWO) == frozenset()  # two sets: not nine tiles
    honours = melds((PUNG, Tile.EAST), (PUNG, Tile.SOUTH), (PUNG, Tile.WEST))
    assert designated_threats(honours) == {
        Designated.ALL_HONOURS,
        Designated.TERMINALS_AND_HONOURS,
        Designated.WINDS,
    }
    terminals = melds((PUNG, Tile.M1), (PUNG, Tile.P9), (KONG, Tile.S1))
    assert designated_threats(terminals) == {
        Designated.ALL_TERMINALS,
        Designated.TERMINALS_AND_HONOURS,
    }
    mixed = melds((PUNG, Tile.M1), (CHOW, Tile.P1), (PUNG, Tile.S1))
    assert designated_threats(mixed) == frozenset()


def test_concealed_kongs_are_not_landed_sets(table: Table) -> None:
    """P "已明" / W1, W2 "翻開": a concealed kong is not an exposed set, but is a kong (十八羅漢)."""
    three = melds((CHOW, Tile.M1), (MeldKind.CONCEALED_KONG, Tile.P9), (CHOW, Tile.S4))
    trig = pung_fed(three, Tile.WEST, feeder=E)
    assert TriggerKind.FOURTH_EXPOSED_SET not in {t.kind for t in trig}
    assert decide(trig, table("qingzhang"), {FanId.CHICKEN}, self_drawn=True).liable is None
    dragons = melds((PUNG, Tile.WHITE), (MeldKind.CONCEALED_KONG, Tile.GREEN))
    assert not pung_fed(dragons, Tile.RED, feeder=E)
    kongs = melds((KONG, Tile.M1), (MeldKind.CONCEALED_KONG, Tile.P5), (KONG, Tile.S9))
    trig2 = triggers_for_claim(
        kongs, Meld(KONG, Tile.RED), tile=Tile.RED, feeder=N, beneficiary=S, turn=20
    )
    assert TriggerKind.FOURTH_KONG in {t.kind for t in trig2}


def test_other_players_triggers_do_not_count(table: Table) -> None:
    """Liability is toward the beneficiary only: a trigger for another seat changes nothing."""
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E, winner=N)
    assert decide(trig, table("parlor"), GREAT_DRAGONS, self_drawn=True).liable is None


@pytest.mark.parametrize("self_drawn", [True, False])
def test_liable_seat_matches_decision(table: Table, self_drawn: bool) -> None:
    """liable_seat (the contract's call) gives the same seat as decide_liability."""
    trig = pung_fed(TWO_DRAGONS, Tile.RED, feeder=E)
    discarder = None if self_drawn else W
    rules = table("parlor")
    seat = liable_seat(
        trig,
        winner=S,
        self_drawn=self_drawn,
        discarder=discarder,
        hand_fan_ids=GREAT_DRAGONS,
        ruleset=rules,
    )
    assert (
        seat
        is decide(trig, rules, GREAT_DRAGONS, self_drawn=self_drawn, discarder=discarder).liable
    )
    assert seat is E
