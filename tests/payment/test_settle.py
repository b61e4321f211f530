"""Settling a win: self-draw, 全銃 (2/3/4 shares), 半銃, 搶槓, 出槓, 一炮多響, 包牌 payer, 破產 (docs/rules.md §9)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hkmahjong.hand import Hand
from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import ExposedKongPayment, GunScheme, RobbedKongPayment
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.scoring.payment import (
    PaymentError,
    PaymentKind,
    Settlement,
    WinClaim,
    settle_false_win,
    settle_hand,
    settle_staked_match,
    settle_win,
    settle_win_fan,
    settle_wins,
)
from hkmahjong.tiles import Wind

Table = Callable[..., Ruleset]
E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def pay(rules: Ruleset, fan: int, **kw: object) -> dict[str, int]:
    """Deltas of one win of ``fan`` as {"E": …}."""
    is_limit = bool(kw.pop("is_limit", False))
    s = settle_win_fan(
        fan,
        is_limit,
        payment=rules.payment,
        min_fan=rules.min_fan,
        limit=rules.limit,
        **kw,  # type: ignore[arg-type]
    )
    assert sum(s.deltas.values()) == 0
    return s.as_json()


def test_self_draw_each_pays_one_share(table: Table) -> None:
    """docs/rules.md §9 / P "自摸：三家各付一份" (3 fan = 4)."""
    got = pay(table("parlor"), 3, winner=S, discarder=None, self_drawn=True)
    assert got == {"E": -4, "S": 12, "W": -4, "N": -4}


@pytest.mark.parametrize(
    ("shares", "seed"), [(2, "W1/W2 全銃制 table"), (3, "P"), (4, "C 16 籌碼")]
)
def test_full_gun_discarder_pays_its_multiple(table: Table, shares: int, seed: str) -> None:
    """docs/rules.md §9 全銃: the discarder alone pays 2 (W1/W2 table, ML), 3 (P) or 4 (C) shares."""
    got = pay(table("parlor", discarder_shares=shares), 6, winner=N, discarder=W, self_drawn=False)
    assert got == {"E": 0, "S": 0, "W": -16 * shares, "N": 16 * shares}, seed


def test_c_full_gun_16_chips_for_3_fan(table: Table) -> None:
    """C "閒家3番4個籌碼（全銃制係出銃者16個籌碼）": 3 fan, 4 shares = 16."""
    got = pay(table("parlor", discarder_shares=4), 3, winner=S, discarder=E, self_drawn=False)
    assert got["E"] == -16


def test_half_gun_discarder_two_shares_others_one(table: Table) -> None:
    """docs/rules.md §9 / P 半銃 "出铳者付两份，其余两家各付一份"; W1 陪銃 "丙和丁…一半"."""
    got = pay(table("parlor", gun=GunScheme.HALF_GUN), 3, winner=S, discarder=E, self_drawn=False)
    assert got == {"E": -8, "S": 16, "W": -4, "N": -4}


def test_robbed_kong_paid_by_declarer_as_discarder(table: Table) -> None:
    """docs/rules.md §6/§9 / P "抢杠：当食出铳计，加杠者当出铳者"."""
    got = pay(table("parlor"), 4, winner=W, discarder=S, self_drawn=False, robbed_kong=True)
    assert got == {"E": 0, "S": -24, "W": 24, "N": 0}
    half = pay(
        table("parlor", gun=GunScheme.HALF_GUN),
        4,
        winner=W,
        discarder=S,
        self_drawn=False,
        robbed_kong=True,
    )
    assert half == {"E": -8, "S": -16, "W": 32, "N": -8}


def test_robbed_kong_as_self_draw_declarer_liable(table: Table) -> None:
    """docs/rules.md §6 switch / W1 fn. 7 "搶槓當自摸，開槓者包"."""
    rules = table("parlor", robbed_kong=RobbedKongPayment.SELF_DRAW_DECLARER_LIABLE)
    got = pay(rules, 4, winner=W, discarder=S, self_drawn=False, robbed_kong=True)
    assert got == {"E": 0, "S": -24, "W": 24, "N": 0}
    rules2 = table(
        "qingzhang", robbed_kong=RobbedKongPayment.SELF_DRAW_DECLARER_LIABLE
    )  # 2-share discards: the self-draw (3 shares) costs the declarer more
    got2 = pay(rules2, 4, winner=W, discarder=S, self_drawn=False, robbed_kong=True)
    assert got2 == {"E": 0, "S": -24, "W": 24, "N": 0}
    assert (
        pay(table("qingzhang"), 4, winner=W, discarder=S, self_drawn=False, robbed_kong=True)["S"]
        == -16
    )


def test_several_robbing_one_kong_all_paid_by_declarer(table: Table) -> None:
    """docs/rules.md §9 / W1 fn. 7, W2 "若有超過一人同時搶槓…包賠所有糊牌玩家"."""
    rules = table("parlor", robbed_kong=RobbedKongPayment.SELF_DRAW_DECLARER_LIABLE)
    s = settle_wins([WinClaim(E, 3), WinClaim(W, 5)], discarder=S, ruleset=rules, robbed_kong=True)
    assert s.as_json() == {"E": 12, "S": -48, "W": 36, "N": 0}
    assert {line.payer for line in s.lines} == {S}


def test_several_winners_on_one_discard_each_paid_separately(table: Table) -> None:
    """docs/rules.md §9 一炮多響 (W1/W2): each win paid separately (decision), in turn order."""
    rules = table("parlor", gun=GunScheme.HALF_GUN)
    s = settle_wins([WinClaim(E, 3), WinClaim(N, 10, is_limit=True)], discarder=W, ruleset=rules)
    # N: W pays 128, S 64 (E, a co-winner, pays nothing); E: W pays 8, S 4 (N pays nothing).
    assert s.as_json() == {"E": 8 + 4, "S": -64 - 4, "W": -128 - 8, "N": 128 + 64}
    assert [line.payee for line in s.lines][:2] == [N, N]  # N is first after W
    with pytest.raises(PaymentError, match="wins twice"):
        settle_wins([WinClaim(E, 3), WinClaim(E, 4)], discarder=W, ruleset=rules)
    with pytest.raises(PaymentError, match="at least one"):
        settle_wins([], discarder=W, ruleset=rules)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (ExposedKongPayment.OFF, {"E": -8, "S": -8, "W": 24, "N": -8}),
        (ExposedKongPayment.AS_DISCARD, {"E": 0, "S": 0, "W": 24, "N": -24}),
        (ExposedKongPayment.LIABLE, {"E": 0, "S": 0, "W": 24, "N": -24}),
    ],
)
def test_exposed_kong_payer(
    table: Table, mode: ExposedKongPayment, expected: dict[str, int]
) -> None:
    """docs/rules.md §6 出槓: W2 "視作打出槓牌者出銃"; C "明槓出槓者包"; off in the parlor."""
    rules = table("parlor", exposed_kong=mode)
    got = pay(rules, 4, winner=W, discarder=None, self_drawn=True, kong_discarder=N)
    assert got == expected


def test_exposed_kong_as_discard_under_two_share_table(table: Table) -> None:
    """W2 出槓 under the W2 全銃制 table: paid as a discard, two shares (less than a self-draw)."""
    rules = table("qingzhang", exposed_kong=ExposedKongPayment.AS_DISCARD)
    assert pay(rules, 4, winner=W, discarder=None, self_drawn=True, kong_discarder=N)["N"] == -16


def test_liable_player_pays_the_whole_win(table: Table) -> None:
    """docs/rules.md §10 / P "独自支付赢家的全部款项" — 3 shares full gun, 4 half gun; self-draw too."""
    parlor = table("parlor")
    self_draw = pay(parlor, 10, is_limit=True, winner=S, discarder=None, self_drawn=True, liable=E)
    assert self_draw == {"E": -192, "S": 192, "W": 0, "N": 0}
    third = pay(parlor, 10, is_limit=True, winner=S, discarder=N, self_drawn=False, liable=E)
    assert third == {"E": -192, "S": 192, "W": 0, "N": 0}  # the discarder pays nothing
    half = table("parlor", gun=GunScheme.HALF_GUN)
    got = pay(half, 10, is_limit=True, winner=S, discarder=N, self_drawn=False, liable=E)
    assert got == {"E": -256, "S": 256, "W": 0, "N": 0}


def test_liable_for_half_the_discard(table: Table) -> None:
    """docs/rules.md §10 / C 落地 "亦需要包出銃者一半分數": the liable seat covers half the discard."""
    got = pay(
        table("parlor", landed=True, landed_half_discard=True),
        10,
        is_limit=True,
        winner=S,
        discarder=N,
        self_drawn=False,
        liable=E,
        liable_half_discard=True,
    )
    assert got == {"E": -96, "S": 192, "W": 0, "N": -96}


def test_bankrupt_payer_pays_what_it_holds(table: Table) -> None:
    """docs/rules.md §9: in "until bankrupt" matches a payer who cannot cover pays what it holds."""
    rules = table("parlor")
    got = pay(rules, 8, winner=S, discarder=E, self_drawn=False, balances={E: 50, S: 0, W: 9, N: 9})
    assert got == {"E": -50, "S": 50, "W": 0, "N": 0}
    broke = settle_win_fan(
        3,
        False,
        winner=S,
        discarder=None,
        self_drawn=True,
        payment=rules.payment,
        balances={E: 100, S: 100, W: 1, N: -5},
    )
    assert broke.as_json() == {"E": -4, "S": 5, "W": -1, "N": 0}
    assert any("bankrupt" in line.reason_en for line in broke.lines)
    uncapped = table("parlor", bankrupt_cap=False)
    got2 = pay(uncapped, 8, winner=S, discarder=E, self_drawn=False, balances={E: 50})
    assert got2["E"] == -96


def test_bankrupt_discarder_pays_earlier_winner_first(table: Table) -> None:
    """一炮多響 with a short discarder: the winner first in turn order is paid first (decision)."""
    rules = table("parlor")
    s = settle_wins(
        [WinClaim(E, 10, is_limit=True), WinClaim(S, 3)],
        discarder=N,
        ruleset=rules,
        balances={N: 100, E: 0, S: 0, W: 0},
    )
    assert s.as_json() == {"E": 100, "S": 0, "W": 0, "N": -100}


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"discarder": None, "self_drawn": False}, "needs the discarder"),
        ({"discarder": S, "self_drawn": False}, "own discard"),
        ({"discarder": E, "self_drawn": True}, "self-draw has no discarder"),
        ({"discarder": E, "self_drawn": False, "liable": S}, "its own win"),
        ({"discarder": None, "self_drawn": True, "robbed_kong": True}, "not a self-draw"),
        ({"discarder": None, "self_drawn": False, "robbed_kong": True}, "kong declarer"),
        ({"discarder": "E", "self_drawn": False}, "must be a Wind"),
    ],
)
def test_impossible_seats_are_errors(table: Table, kw: dict[str, object], message: str) -> None:
    """Seats that do not fit the kind of win get a clear PaymentError, not a wrong settlement."""
    with pytest.raises(PaymentError, match=message):
        pay(table("parlor"), 3, winner=S, **kw)


def test_settle_win_from_a_scored_hand(table: Table) -> None:
    """settle_win takes a ScoreResult: its total_fan, is_limit and 清一色 (traditional 雙辣)."""
    rules = table("parlor")
    result = score_hand(Hand.from_text("123m456p789s111z55s"), WinContext(self_drawn=True), rules)
    assert result.valid_win
    s = settle_win(result, winner=E, discarder=None, self_drawn=True, ruleset=rules)
    share = {3: 4, 4: 8, 5: 12, 6: 16}[result.total_fan]
    assert s.as_json() == {"E": 3 * share, "S": -share, "W": -share, "N": -share}
    loss = score_hand(Hand.from_text("123m456p789s147z55s"), WinContext(), rules)
    assert not loss.valid_win
    with pytest.raises(PaymentError, match="not a valid win"):
        settle_win(loss, winner=E, discarder=S, self_drawn=False, ruleset=rules)


def test_settlement_lines_and_views() -> None:
    """Settlement lines carry zh/en reasons; deltas also in seat order for engine.match."""
    s = settle_win_fan(
        3,
        False,
        winner=S,
        discarder=E,
        self_drawn=False,
        payment=Ruleset().payment,
        min_fan=3,
        limit=10,
    )
    assert s.as_tuple() == (-12, 12, 0, 0)
    (line,) = s.lines
    assert "出銃" in line.reason_zh and "discard" in line.reason_en
    assert line.text("zh").startswith("東 → 南 12") and line.text().startswith("EAST -> SOUTH 12")
    both = s + s
    assert both.delta(S) == 24 and isinstance(both, Settlement)


def test_every_payment_line_says_what_it_pays_for_as_data(table: Table) -> None:
    """Payment meaning as data (issue 32 item 3): each line's ``kind`` and ``capped``, so nobody
    reads the reason's words to know a 包牌 or a bankrupt payment."""

    def kinds(settlement: Settlement) -> list[tuple[Wind, PaymentKind, bool]]:
        return [(line.payer, line.kind, line.capped) for line in settlement.lines]

    parlor, half = table("parlor"), table("parlor", gun=GunScheme.HALF_GUN)
    assert kinds(settle_hand([WinClaim(S, 3)], parlor)) == [
        (p, PaymentKind.SELF_DRAW, False) for p in (W, N, E)
    ]
    assert kinds(settle_hand([WinClaim(S, 3, discarder=E)], parlor)) == [
        (E, PaymentKind.FULL_GUN, False)
    ]
    assert {k for _, k, _ in kinds(settle_hand([WinClaim(S, 3, discarder=E)], half))} == {
        PaymentKind.HALF_GUN
    }
    whole = settle_hand([WinClaim(S, 10, is_limit=True, liable=N)], parlor)
    assert kinds(whole) == [(N, PaymentKind.LIABLE_ALL, False)]
    split = settle_hand(
        [WinClaim(S, 10, is_limit=True, discarder=N, liable=E, liable_half_discard=True)], half
    )
    assert [(p, k) for p, k, _ in kinds(split)][:2] == [
        (E, PaymentKind.LIABLE_HALF),
        (N, PaymentKind.HALF_GUN),
    ]
    assert PaymentKind.LIABLE_HALF.liable and not PaymentKind.HALF_GUN.liable
    false = settle_false_win(N, parlor, self_drawn=True)
    assert {k for _, k, _ in kinds(false)} == {PaymentKind.FALSE_WIN}
    broke = settle_hand([WinClaim(S, 3)], parlor, balances={E: 100, S: 100, W: 1, N: 100})
    assert (W, PaymentKind.SELF_DRAW, True) in kinds(broke)
    assert [c for _, _, c in kinds(broke)].count(True) == 1
    match = settle_staked_match({E: 300, S: -600, W: 200, N: 100}, 500)
    assert {(k, c) for _, k, c in kinds(match)} == {(PaymentKind.MATCH, True)}
