"""戰績: each finished hand by player, the statistics' definitions and the match results, against
hand-computed examples (issue 18 "History and statistics"; docs/history.md).

Six hands at one table, players 0-3 sitting 東 南 西 北, every number below worked out by hand:

A. 東 (0) self-draws 清一色 + 自摸 = 8 fan; each other pays 32.
B. 西 (2) discards, 南 (1) wins 對對糊 3 fan and 北 (3) wins 1 fan on it (一炮雙響): 2 pays 16 + 8.
C. 東 (0) self-draws 大三元 (a limit, 13 fan) and 南 (1) is liable (包牌): 1 pays all 192.
D. 流局: nobody wins, nothing moves.
E. 北 (3) makes a false win (詐糊) and pays 64 to each of the others.
F. 西 (2) wins 混一色 3 fan on 東's (0) discard: 0 pays 16.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, make_table, settle

from hkmahjong.parlor.history import (
    HistoryError,
    Stats,
    Tally,
    fan_counts,
    fan_names,
    match_tally,
    places,
    ruleset_family,
    summarize_hand,
    summarize_match,
    tally,
)
from hkmahjong.rules import get_preset
from hkmahjong.scoring.payment import PaymentKind, WinClaim, settle_hand
from hkmahjong.tiles import Wind

SEATED = (0, 1, 2, 3)


def win(seat: str, fan: int, items: list[tuple[str, int]], **kw: Any) -> dict[str, Any]:
    return {
        "seat": seat,
        "discarder": kw.get("discarder"),
        "self_drawn": kw.get("discarder") is None,
        "score": {
            "total_fan": fan,
            "is_limit": kw.get("limit", False),
            "limit": 13,
            "items": [{"id": i, "fan": f, "count": 1} for i, f in items],
        },
        "liable": kw.get("liable"),
    }


def pay(
    frm: str, to: str, amount: int, kind: str = "self_draw", zh: str = "自摸"
) -> dict[str, Any]:
    return {"from": frm, "to": to, "amount": amount, "kind": kind, "zh": zh, "en": "x"}


A = {
    "deltas": [96, -32, -32, -32],
    "drawn": False,
    "wins": [win("E", 8, [("FULL_FLUSH", 7), ("SELF_DRAWN", 1)])],
    "false_wins": [],
    "payments": [pay("S", "E", 32), pay("W", "E", 32), pay("N", "E", 32)],
}
B = {
    "deltas": [0, 16, -24, 8],
    "drawn": False,
    "wins": [
        win("N", 1, [("SEAT_WIND", 1)], discarder="W"),
        win("S", 3, [("ALL_PUNGS", 3)], discarder="W"),
    ],
    "false_wins": [],
    "payments": [pay("W", "N", 8, "full_gun", "出銃"), pay("W", "S", 16, "full_gun", "出銃")],
}
C = {
    "deltas": [192, -192, 0, 0],
    "drawn": False,
    "wins": [win("E", 13, [("GREAT_DRAGONS", 13)], limit=True, liable="S")],
    "false_wins": [],
    "payments": [pay("S", "E", 192, "liable_all", "包牌：獨付全數（自摸）")],
}
D = {"deltas": [0, 0, 0, 0], "drawn": True, "wins": [], "false_wins": [], "payments": []}
E = {
    "deltas": [64, 64, 64, -192],
    "drawn": False,
    "wins": [],
    "false_wins": [{"seat": "N", "self_drawn": True, "would_be_discarder": None}],
    "payments": [pay("N", w, 64, "false_win", "詐糊") for w in "ESW"],
}
F = {
    "deltas": [-16, 0, 16, 0],
    "drawn": False,
    "wins": [win("W", 3, [("HALF_FLUSH", 3)], discarder="E")],
    "false_wins": [],
    "payments": [pay("E", "W", 16, "full_gun", "出銃")],
}
HANDS = [summarize_hand(n, SEATED, o, o["deltas"]) for n, o in enumerate([A, B, C, D, E, F])]


def rows(player: int) -> list[Any]:
    return [h.seats[player] for h in HANDS]


def test_a_self_draw_by_player() -> None:
    a = HANDS[0]
    east = a.seats[0]
    assert east.won and east.self_drawn and east.dealer and east.seat == "E"
    assert east.fan == 8 and east.fed_by is None and not east.limit
    assert [(f.id, f.fan) for f in east.fans] == [("FULL_FLUSH", 7), ("SELF_DRAWN", 1)]
    assert [s.delta for s in a.seats] == [96, -32, -32, -32]
    assert not any(s.dealt_in for s in a.seats)  # nobody fed a self-draw


def test_one_discard_two_winners_is_one_deal_in_feeding_both() -> None:
    b = HANDS[1]
    assert b.seats[2].dealt_in and b.seats[2].fed_to == (3, 1)
    assert b.seats[1].won and b.seats[1].fed_by == 2 and not b.seats[1].self_drawn
    assert b.seats[3].won and b.seats[3].fed_by == 2 and b.seats[3].fan == 1
    assert sum(s.dealt_in for s in b.seats) == 1


def test_liability_is_what_the_liable_seat_paid_and_not_a_deal_in() -> None:
    c = HANDS[2]
    south = c.seats[1]
    assert south.liability_paid == 192 and not south.dealt_in and not south.won
    assert c.seats[0].limit and c.seats[0].fan == 13 and c.seats[0].self_drawn


def test_drawn_and_false_win_hands() -> None:
    assert all(s.drawn and not s.won for s in HANDS[3].seats)
    north = HANDS[4].seats[3]
    assert north.false_win and not north.won and north.delta == -192
    assert not any(s.drawn for s in HANDS[4].seats)


def test_player_tallies_by_hand() -> None:
    assert tally(rows(0)) == Tally(
        hands=6, wins=2, self_draws=2, deal_ins=1, draws=1, false_wins=0,
        fan_total=21, points=336, liability_paid=0, liable_hands=0,
    )  # fmt: skip
    assert tally(rows(1)) == Tally(
        hands=6, wins=1, self_draws=0, deal_ins=0, draws=1, false_wins=0,
        fan_total=3, points=-144, liability_paid=192, liable_hands=1,
    )  # fmt: skip
    assert tally(rows(2)) == Tally(
        hands=6, wins=1, self_draws=0, deal_ins=1, draws=1, false_wins=0,
        fan_total=3, points=24, liability_paid=0, liable_hands=0,
    )  # fmt: skip
    assert tally(rows(3)).points == -216 and tally(rows(3)).false_wins == 1
    assert sum(tally(rows(p)).points for p in range(4)) == 0


def test_stats_rates_and_their_denominators() -> None:
    s = Stats(tally(rows(0)))
    assert s.win_rate == pytest.approx(2 / 6)
    assert s.self_draw_share == 1.0
    assert s.deal_in_rate == pytest.approx(1 / 6)
    assert s.average_fan == 10.5
    assert s.draw_rate == pytest.approx(1 / 6)
    assert s.points_per_hand == 56
    south = Stats(tally(rows(1)))
    assert south.self_draw_share == 0.0 and south.average_fan == 3
    empty = Stats(Tally())
    assert empty.win_rate is None and empty.average_fan is None and empty.self_draw_share is None
    drawn_only = Stats(tally([HANDS[3].seats[0]]))
    assert drawn_only.average_fan is None and drawn_only.win_rate == 0  # no win: no average


def test_fan_counts_count_wins_with_the_pattern() -> None:
    assert fan_counts(rows(0)) == {"FULL_FLUSH": 1, "GREAT_DRAGONS": 1, "SELF_DRAWN": 1}
    double = summarize_hand(
        9, SEATED, {**A, "wins": [win("E", 2, [("SEAT_BONUS", 1), ("SEAT_BONUS", 1)])]}, A["deltas"]
    )
    assert fan_counts([double.seats[0]]) == {"SEAT_BONUS": 1}
    assert fan_names("FULL_FLUSH") == {"zh": "清一色", "zh_hans": "清一色", "en": "Full flush"}
    assert fan_names("NOT_A_FAN")["en"] == "NOT_A_FAN"


def test_seating_maps_seats_to_players() -> None:
    # players 2, 3, 0, 1 at 東 南 西 北: the self-drawer at 東 is player 2, the dealer.
    deltas_by_player = [-32, -32, 96, -32]
    h = summarize_hand(4, (2, 3, 0, 1), A, deltas_by_player, prevailing="S")
    assert h.dealer == 2 and h.seats[2].won and h.seats[2].dealer and h.seats[2].seat == "E"
    assert h.seats[0].seat == "W" and h.seats[0].delta == -32
    detail = h.detail(["ann", "bo", "cy", "di"])
    assert detail["players"] == [2, 3, 0, 1] and detail["names"][2] == "cy"
    assert detail["prevailing"] == "S" and detail["outcome"]["wins"][0]["seat"] == "E"


def test_bad_input_is_refused() -> None:
    with pytest.raises(HistoryError, match="players 0-3"):
        summarize_hand(0, (0, 1, 1, 3), A, A["deltas"])
    with pytest.raises(HistoryError, match="seat letter"):
        summarize_hand(0, SEATED, {**A, "wins": [win("X", 1, [])]}, A["deltas"])
    with pytest.raises(HistoryError, match="own discard"):
        summarize_hand(0, SEATED, {**A, "wins": [win("E", 1, [], discarder="E")]}, A["deltas"])


def test_the_scoring_layer_marks_every_liability_payment_by_kind() -> None:
    # Seed 003 / docs/rules.md §10 包牌: the liable seat pays the whole self-draw.
    rules = get_preset("parlor")
    full = settle_hand([WinClaim(Wind.EAST, 10, liable=Wind.SOUTH)], rules)
    assert [(p.payer, p.amount > 0) for p in full.lines] == [(Wind.SOUTH, True)]
    assert [p.kind for p in full.lines] == [PaymentKind.LIABLE_ALL]
    plain = settle_hand([WinClaim(Wind.EAST, 10)], rules)
    assert {p.kind for p in plain.lines} == {PaymentKind.SELF_DRAW}
    assert not any(p.kind.liable for p in plain.lines)


def test_a_payment_without_a_known_kind_is_refused_not_guessed_from_its_words() -> None:
    words = {**C, "payments": [{**C["payments"][0], "kind": None}]}  # 包牌 only in its words
    with pytest.raises(HistoryError, match="kind"):
        summarize_hand(2, SEATED, words, C["deltas"])


def test_match_places_share_ties_and_jade_follows_the_stake() -> None:
    assert places([336, -144, 24, -216]) == [1, 3, 2, 4]
    assert places([10, 10, -10, -10]) == [1, 1, 3, 3]
    m = summarize_match([336, -144, 24, -216], 6, stake=500, fee=10)
    assert [(s.place, s.jade) for s in m.seats] == [(1, 326), (3, -154), (2, 14), (4, -226)]
    # A loser pays at most the stake (seed 002): the winners share the 500 (stakes.py's example).
    capped = summarize_match([180, -640, 500, -40], 8, stake=500)
    assert [s.jade for s in capped.seats] == [143, -500, 397, -40]
    assert [s.jade for s in summarize_match([5, -5, 0, 0], 1, fee=20).seats] == [-20] * 4
    assert [s.jade for s in summarize_match([5, -5, 0, 0], 1, kind="practice").seats] == [None] * 4
    t = match_tally([m.seats[0], capped.seats[0], capped.seats[1]])
    assert t.matches == 3 and t.place_counts == (1, 1, 0, 1) and t.jade == 326 + 143 - 500
    assert t.average_place == pytest.approx((1 + 2 + 4) / 3)


def test_ruleset_family() -> None:
    assert ruleset_family({"preset": "cuhk", "digest": "d"}) == "cuhk"
    assert ruleset_family({"preset": "中大", "digest": "d"}) == "cuhk"
    assert ruleset_family({"toml": 'preset = "ml"\nmin_fan = 0\n', "digest": "d"}) == "ml"
    assert ruleset_family({"toml": "not [toml", "digest": "d"}) == "custom"
    assert ruleset_family({"toml": 'preset = "nope"', "digest": "d"}) == "custom"


def test_a_table_keeps_each_hand_once_with_its_lines_and_again_after_a_restore() -> None:
    """The results go to the store with the hand's end line; a table rebuilt from its log hands
    every hand over again and the store keeps each once."""
    from hkmahjong.parlor.table import Table

    async def main() -> None:
        table, store, clock = await make_table(
            bots=(None, "easy", "easy", "easy"), clocks=FAST, length="one-hand"
        )
        c = Client(table, 0)
        c.connect()
        for _ in range(400):
            await settle(table, clock, 0.7)
            if table.status != "playing":
                break
            prompt = c.open_prompt()
            if prompt is not None:
                kinds = {i["kind"]: i["action"] for i in prompt["legal"]}
                pick = kinds.get("win") or kinds.get("pass")
                if pick is None:
                    pick = [i["action"] for i in prompt["legal"] if i["kind"] == "discard"][-1]
                c.send({"t": "act", "action": pick, "v": prompt["v"], "id": "x"})
        assert table.status == "finished"
        kept = store.hands[table.id]
        assert list(kept) == [0]
        hand = kept[0]
        runner = table.runner
        assert runner is not None
        deltas = runner.match.ledger[0].deltas
        assert [s.delta for s in hand.seats] == list(deltas)
        lines = store.log[table.id]
        assert hand.end_seq is not None and '"t":"end"' in lines[hand.end_seq]
        assert store.facts[table.id].user_ids == (1, None, None, None)
        assert store.facts[table.id].bots == (None, "easy", "easy", "easy")
        match = store.matches[table.id]
        assert [s.total for s in match.seats] == [b for b in table._totals()]
        await table.stop()
        store.hands.clear()
        store.matches.clear()
        again = await Table.restore(store, await store.get(table.id), clock=clock)  # type: ignore[arg-type]
        assert list(store.hands[table.id]) == [0] and store.hands[table.id][0] == hand
        assert store.matches[again.id] == match

    asyncio.run(main())


def test_the_typed_summary_and_the_json_read_back_agree_on_played_hands() -> None:
    """A hand is summarised from the engine's HandOutcome (issue 32 item 3); read back from its
    JSON it gives the same seats — over a real match of bots, 包牌 and all."""
    from hkmahjong.engine.match import Match, MatchLength
    from hkmahjong.engine.runner import MatchRunner
    from hkmahjong.parlor.history import summarize_hand_end
    from hkmahjong.parlor.seats import make_bot

    ruleset = get_preset("parlor")
    bots = [make_bot("easy", f"typed:{p}", ruleset) for p in range(4)]
    match = Match(("A", "B", "C", "D"), MatchLength.EAST_ROUND)
    runner = MatchRunner(match, ruleset, b"typed-summary")
    seen = 0
    while not runner.match_over:
        runner.start_hand()
        while runner.in_hand:
            player = runner.to_act_players[0]
            step = runner.apply(
                player, bots[player].choose(runner.view(player), runner.legal(player))
            )
            if step.hand_end is not None:
                players = [runner.player_at(w) for w in Wind]
                typed = summarize_hand_end(step.hand_end, players)
                back = summarize_hand(
                    typed.number, players, typed.outcome, step.hand_end.entry.deltas,
                    prevailing=typed.prevailing,
                )  # fmt: skip
                assert back == typed
                paid = sum(p.amount for p in step.hand_end.outcome.payments if p.kind.liable)
                assert sum(s.liability_paid for s in typed.seats) == paid
                seen += 1
    assert seen >= 4
