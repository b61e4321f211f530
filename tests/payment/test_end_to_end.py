"""From a table's TOML 台例 and a scored hand to the settlement (calculator + liability + payment)."""

from __future__ import annotations

from hkmahjong.hand import Hand
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules import get_preset
from hkmahjong.rules.toml_io import loads_ruleset
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.scoring.liability import decide_liability, triggers_for_claim
from hkmahjong.scoring.payment import settle_win
from hkmahjong.tiles import Tile, Wind

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def test_parlor_great_dragons_fed_then_self_drawn() -> None:
    """docs/rules.md §10 / P 包大三元: East fed 中 for South's third dragon pung; South self-draws."""
    rules = get_preset("parlor")
    before = Hand.from_text("234m55p7z77z [555z] [666z]")
    trig = triggers_for_claim(
        before.melds, Meld(MeldKind.PUNG, Tile.RED), tile=Tile.RED, feeder=E, beneficiary=S, turn=9
    )
    won = Hand.from_text("234m55p [555z] [666z] [777z]")
    result = score_hand(won, WinContext(self_drawn=True, seat_wind=S), rules)
    assert result.valid_win and result.is_limit
    decision = decide_liability(
        trig,
        winner=S,
        self_drawn=True,
        discarder=None,
        hand_fan_ids=result.fan_ids,
        ruleset=rules,
    )
    assert decision.liable is E
    s = settle_win(
        result, winner=S, discarder=None, self_drawn=True, ruleset=rules, liable=decision.liable
    )
    assert s.as_json() == {"E": -192, "S": 192, "W": 0, "N": 0}


def test_toml_house_rules_half_gun_from_a_table() -> None:
    """A table's 台例 in TOML: 半銃 and 辣辣上 over the parlor; a 4-fan discard win."""
    rules = loads_ruleset(
        'preset = "parlor"\n[payment]\ngun = "half_gun"\nscore_table = "full_spicy"\n'
    )
    result = score_hand(
        Hand.from_text("123m456m789m11z [555z]"),
        WinContext(self_drawn=False, seat_wind=W, winning_tile=Tile.M9),
        rules,
    )
    assert result.valid_win
    share = 2 ** (result.total_fan - 1)
    s = settle_win(result, winner=W, discarder=N, self_drawn=False, ruleset=rules)
    assert s.as_json() == {"E": -share, "S": -share, "W": 4 * share, "N": -2 * share}
