"""tools/compare_styles.py: paired duplicate sets of ``strong`` style variants on the same walls."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from hkmahjong.bots.master import Search
from hkmahjong.bots.strong import Style
from hkmahjong.errors import MahjongError

Script = Callable[[str, str], ModuleType]


def test_variants_parse_and_bad_ones_say_what_is_wrong(script: Script) -> None:
    tool = script("tools/compare_styles.py", "compare_styles")
    base = tool.parse_variant("base=")
    assert (base.name, base.style, base.search) == ("base", Style(), None)
    push = tool.parse_variant("Push=defense:0,tiebreak:0.1")
    assert (push.name, push.style) == ("push", Style(defense=0.0, tiebreak=0.1))
    m = tool.parse_variant("m=master,gap:3,policy:strong,reading:1,rollouts:5")
    # over master's own style
    assert m.style == Style(reading=1.0, fold_reading=1.0, fold_ratio=2.0)
    assert m.search == Search(gap=3.0, policy="strong", rollouts=5)
    with pytest.raises(MahjongError, match="unknown knob 'gap'"):
        tool.parse_variant("x=gap:3")  # a search knob needs the word master
    with pytest.raises(MahjongError, match="rollout policy 'slow'"):
        tool.parse_variant("x=master,policy:slow")
    with pytest.raises(MahjongError, match="unknown knob 'bravery'"):
        tool.parse_variant("x=bravery:1")
    with pytest.raises(MahjongError, match="defense needs a number, got 'lots'"):
        tool.parse_variant("x=defense:lots")
    with pytest.raises(MahjongError, match="expected NAME="):
        tool.parse_variant("defense:0")


def test_identical_variants_pair_to_exactly_zero(script: Script) -> None:
    """Same walls, same seeds: a variant equal to the baseline differs on no set."""
    tool = script("tools/compare_styles.py", "compare_styles")
    variants = [tool.parse_variant(v) for v in ("base=", "same=", "def0=defense:0")]
    lines = tool.compare(variants, "ml", 2, "pair-test", 1)
    assert len(lines) == 3
    assert "% / " in lines[0] and "deal-in" in lines[0] and ", win " in lines[0]
    assert "vs base: +0.000 ± 0.000 (differs on 0% of sets)" in lines[1]
    assert "vs base:" in lines[2]


def test_a_strong_variant_against_strong_scores_zero(script: Script) -> None:
    """Against three default ``strong`` bots, the default style plays the very same hands: its four
    rotations sum each hand's zero-sum payments, so its margin is exactly 0 on every set."""
    tool = script("tools/compare_styles.py", "compare_styles")
    variants = [tool.parse_variant(v) for v in ("base=", "m=master,rollouts:2,gap:0")]
    lines = tool.compare(variants, "parlor", 2, "field-test", 1, "strong")
    assert "margin +0.000 ± 0.000" in lines[0]
    assert "vs base:" in lines[1]
