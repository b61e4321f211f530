"""Invariants (hypothesis): every settlement sums to zero, in whole jade, within what payers hold."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.payment import (
    ExposedKongPayment,
    FalseWinPenalty,
    GunScheme,
    KongFeedRule,
    LiabilityScope,
    PaymentRules,
    RobbedKongPayment,
    ScoreTable,
)
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.liability import (
    Claim,
    Designated,
    LiabilityTrigger,
    TriggerKind,
    decide_liability,
)
from hkmahjong.scoring.payment import (
    Settlement,
    WinClaim,
    settle_false_win,
    settle_staked_match,
    settle_win_fan,
    settle_wins,
)
from hkmahjong.tiles import Tile, Wind

seats = st.sampled_from(list(Wind))


@st.composite
def payment_rules(draw: st.DrawFn) -> PaymentRules:
    """Any mix of the docs/rules.md §9–§11 switches."""
    kind = draw(st.sampled_from(list(ScoreTable)))
    table: tuple[int, ...] = ()
    if kind in (ScoreTable.RELATIVE, ScoreTable.CUSTOM):
        table = tuple(sorted(draw(st.lists(st.integers(0, 600), min_size=1, max_size=14))))
    return dataclasses.replace(
        get_preset(draw(st.sampled_from(["parlor", "qingzhang", "ml", "cuhk"]))).payment,
        score_table=kind,
        table=table,
        zero_fan_share=draw(st.sampled_from([0, 0.5, 1])),
        unit=draw(st.integers(1, 5)),
        gun=draw(st.sampled_from(list(GunScheme))),
        discarder_shares=draw(st.integers(2, 4)),
        robbed_kong=draw(st.sampled_from(list(RobbedKongPayment))),
        exposed_kong=draw(st.sampled_from(list(ExposedKongPayment))),
        false_win=draw(st.sampled_from(list(FalseWinPenalty))),
        bankrupt_cap=draw(st.booleans()),
    )


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    min_fan = draw(st.integers(0, 3))
    limit = draw(st.one_of(st.none(), st.integers(max(min_fan, 1), 13)))
    return dataclasses.replace(
        get_preset("parlor"), min_fan=min_fan, limit=limit, payment=draw(payment_rules())
    )


balances_st = st.one_of(st.none(), st.dictionaries(seats, st.integers(-50, 3000)))


def check(s: Settlement, balances: dict[Wind, int] | None, cap: bool) -> None:
    assert sum(s.deltas.values()) == 0
    assert all(isinstance(v, int) for v in s.deltas.values())
    assert all(line.amount >= 0 and line.payer is not line.payee for line in s.lines)
    if balances is not None and cap:
        for seat in Wind:
            paid = sum(line.amount for line in s.lines if line.payer is seat)
            got = sum(line.amount for line in s.lines if line.payee is seat)
            assert paid <= max(0, balances.get(seat, 0)) + got


@settings(max_examples=300, deadline=None)
@given(
    rules=rulesets(),
    fan=st.integers(0, 20),
    is_limit=st.booleans(),
    winner=seats,
    other=seats,
    how=st.sampled_from(["self", "discard", "robbed", "kong"]),
    liable=st.one_of(st.none(), seats),
    half=st.booleans(),
    balances=balances_st,
)
def test_one_win_is_zero_sum(
    rules: Ruleset,
    fan: int,
    is_limit: bool,
    winner: Wind,
    other: Wind,
    how: str,
    liable: Wind | None,
    half: bool,
    balances: dict[Wind, int] | None,
) -> None:
    """docs/rules.md §9 "Payments always sum to zero" — every scheme, liability and bankrupt cap."""
    if other is winner:
        other = winner.next()
    if liable is winner:
        liable = None
    s = settle_win_fan(
        fan,
        is_limit,
        winner=winner,
        discarder=other if how in ("discard", "robbed") else None,
        self_drawn=how in ("self", "kong"),
        payment=rules.payment,
        min_fan=rules.min_fan,
        limit=rules.limit,
        liable=liable,
        liable_half_discard=half,
        robbed_kong=how == "robbed",
        kong_discarder=other if how == "kong" else None,
        balances=balances,
    )
    check(s, balances, rules.payment.bankrupt_cap)
    assert s.delta(winner) >= 0
    if liable is not None and not half:
        assert {line.payer for line in s.lines} <= {liable}


@settings(max_examples=150, deadline=None)
@given(
    rules=rulesets(),
    discarder=seats,
    fans=st.lists(st.integers(0, 14), min_size=1, max_size=3),
    robbed=st.booleans(),
    balances=balances_st,
)
def test_several_winners_zero_sum(
    rules: Ruleset, discarder: Wind, fans: list[int], robbed: bool, balances: dict[Wind, int] | None
) -> None:
    """一炮多響 / several robbing one kong: zero-sum, each winner gains."""
    claims = [WinClaim(discarder.next(k + 1), fan) for k, fan in enumerate(fans)]
    s = settle_wins(
        claims, discarder=discarder, ruleset=rules, robbed_kong=robbed, balances=balances
    )
    check(s, balances, rules.payment.bankrupt_cap)
    assert all(s.delta(c.winner) >= 0 for c in claims)


@settings(max_examples=150, deadline=None)
@given(
    rules=rulesets(),
    offender=seats,
    other=seats,
    self_drawn=st.booleans(),
    claimed=st.one_of(st.none(), st.integers(0, 20)),
    balances=balances_st,
)
def test_false_win_zero_sum(
    rules: Ruleset,
    offender: Wind,
    other: Wind,
    self_drawn: bool,
    claimed: int | None,
    balances: dict[Wind, int] | None,
) -> None:
    """docs/rules.md §11: the offender pays, the three others receive, zero-sum."""
    if other is offender:
        other = offender.next()
    s = settle_false_win(
        offender,
        rules,
        self_drawn=self_drawn,
        would_be_discarder=other,
        claimed_fan=claimed,
        balances=balances,
    )
    check(s, balances, rules.payment.bankrupt_cap)
    assert s.delta(offender) <= 0 and all(s.delta(x) >= 0 for x in Wind if x is not offender)


@settings(max_examples=200, deadline=None)
@given(
    raw=st.lists(st.integers(-5000, 5000), min_size=3, max_size=3),
    stakes=st.one_of(st.integers(0, 4000), st.dictionaries(seats, st.integers(0, 4000))),
)
def test_staked_match_caps_losers_and_shares_in_proportion(
    raw: list[int], stakes: int | dict[Wind, int]
) -> None:
    """docs/rules.md §9 / ML "輸家的賭注已設為上限…贏家會以他們所得的分數而按比例地分配"."""
    scores = dict(zip(Wind, [*raw, -sum(raw)], strict=True))
    s = settle_staked_match(scores, stakes)
    assert sum(s.deltas.values()) == 0
    for seat, score in scores.items():
        stake = stakes if isinstance(stakes, int) else stakes.get(seat, 0)
        if score < 0:
            assert -min(-score, stake) == s.delta(seat)
        else:
            assert 0 <= s.delta(seat) <= score
    winners = [x for x in Wind if scores[x] > 0]
    pot = sum(s.delta(x) for x in winners)
    for x in winners:  # proportional, within one jade of the exact share
        assert abs(s.delta(x) - pot * scores[x] / sum(scores[w] for w in winners)) < 1


@st.composite
def triggers(draw: st.DrawFn) -> list[LiabilityTrigger]:
    """Random liability triggers, as an engine might record them."""
    out = []
    for _ in range(draw(st.integers(0, 6))):
        feeder = draw(seats)
        beneficiary = draw(seats.filter(lambda x, f=feeder: x is not f))
        out.append(
            LiabilityTrigger(
                draw(st.sampled_from(list(TriggerKind))),
                feeder,
                beneficiary,
                draw(st.integers(0, 40)),
                draw(st.sampled_from(list(Tile)[:34])),
                draw(st.sampled_from(list(Claim))),
                draw(st.booleans()),
                draw(st.booleans()),
                frozenset(draw(st.sets(st.sampled_from(list(Designated))))),
                draw(st.booleans()),
                draw(st.one_of(st.none(), st.integers(0, 40))),
            )
        )
    return out


@settings(max_examples=300, deadline=None)
@given(
    trig=triggers(),
    winner=seats,
    discarder=st.one_of(st.none(), seats),
    fans=st.sets(st.sampled_from(list(FanId)), max_size=4),
    switches=st.fixed_dictionaries(
        {
            name: st.booleans()
            for name in (
                "parlor_liability",
                "big_dragons_self_draw",
                "twelve_tiles",
                "nine_tiles",
                "landed",
                "landed_half_discard",
                "unseen_late",
                "first_not_later",
            )
        }
    ),
    gun=st.sampled_from(list(GunScheme)),
    scope=st.sampled_from(list(LiabilityScope)),
    kong_feed=st.sampled_from(list(KongFeedRule)),
    extra=st.fixed_dictionaries(
        {
            "kong_replacement": st.booleans(),
            "discard_unseen": st.booleans(),
            "tiles_left": st.one_of(st.none(), st.integers(0, 30)),
            "discard_forced": st.booleans(),
            "turn": st.one_of(st.none(), st.integers(0, 41)),
        }
    ),
)
def test_liable_seat_is_a_feeder_or_the_discarder(
    trig: list[LiabilityTrigger],
    winner: Wind,
    discarder: Wind | None,
    fans: set[FanId],
    switches: dict[str, bool],
    gun: GunScheme,
    scope: LiabilityScope,
    kong_feed: KongFeedRule,
    extra: dict[str, object],
) -> None:
    """docs/rules.md §10: whoever is liable fed the winner (or discarded the winning tile), never the winner."""
    if discarder is winner:
        discarder = None
    rules = dataclasses.replace(
        get_preset("parlor"),
        dead_wall=14,
        payment=dataclasses.replace(
            get_preset("parlor").payment,
            gun=gun,
            liability_scope=scope,
            kong_feed=kong_feed,
            **switches,
        ),
    )
    decision = decide_liability(
        trig,
        winner=winner,
        self_drawn=discarder is None,
        discarder=discarder,
        hand_fan_ids=fans,
        ruleset=rules,
        winning_tile=Tile.M5,
        **extra,  # type: ignore[arg-type]
    )
    feeders = {t.feeder for t in trig if t.beneficiary is winner}
    if decision.liable is not None:
        assert decision.liable is not winner
        assert decision.liable in feeders | {discarder}
        assert decision.rule and decision.reason_zh and decision.reason_en
    else:
        assert not decision.half_discard


@settings(max_examples=200, deadline=None)
@given(
    rules=rulesets(),
    fan=st.integers(0, 20),
    winner=seats,
    discarder=seats,
    co=st.sets(seats),
    robbed=st.booleans(),
    balances=balances_st,
)
def test_one_of_several_winners_is_zero_sum(
    rules: Ruleset,
    fan: int,
    winner: Wind,
    discarder: Wind,
    co: set[Wind],
    robbed: bool,
    balances: dict[Wind, int] | None,
) -> None:
    """docs/rules.md §9 一炮多響 one win at a time (co_winners): zero-sum; a co-winner never pays."""
    if discarder is winner:
        discarder = winner.next()
    co -= {winner, discarder}
    s = settle_win_fan(
        fan,
        False,
        winner=winner,
        discarder=discarder,
        self_drawn=False,
        payment=rules.payment,
        min_fan=rules.min_fan,
        limit=rules.limit,
        robbed_kong=robbed,
        balances=balances,
        co_winners=co,
    )
    check(s, balances, rules.payment.bankrupt_cap)
    assert not any(line.payer in co for line in s.lines)
