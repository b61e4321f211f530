"""Issue 13 item 9: the tables' variants are ruleset switches — TOML-settable, listed by
``hkmj rules``, off (today's scoring) in every preset. Scoring cases: tests/scoring/cases.toml
rows ``sw-*`` (positive and negative for each)."""

from __future__ import annotations

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules import PRESETS, BonusWinHand, loads_ruleset, ruleset_to_toml

NEW = {
    "bonus_win_hand": (BonusWinHand.APART, '"adds"', BonusWinHand.ADDS),
    "bonus_set_adds_seat_bonus": (False, "true", True),
    "nine_gates_with_melds": (False, "true", True),
    "mixed_terminals_all_honours": (False, "true", True),
}


@pytest.mark.parametrize("name", sorted(NEW))
def test_switch_default_toml_and_listing(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Default = today's behaviour in every preset; settable in [switches]; round-trips; listed."""
    default, text, value = NEW[name]
    assert all(getattr(r, name) == default for r in PRESETS.values())
    r = loads_ruleset(f'preset = "parlor"\n[switches]\n{name} = {text}\n')
    assert getattr(r, name) == value
    assert loads_ruleset(ruleset_to_toml(r)) == r
    assert main(["rules", "parlor"]) == 0
    assert name in capsys.readouterr().out


def test_bad_bonus_win_hand_value_names_the_allowed_ones() -> None:
    """A wrong enum value is an error naming the switch and what is allowed."""
    with pytest.raises(ValueError, match=r"bonus_win_hand.*'apart', 'adds', 'limit_beats'"):
        loads_ruleset('preset = "parlor"\n[switches]\nbonus_win_hand = "sometimes"\n')
