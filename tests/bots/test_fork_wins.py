"""tools/fork_wins.py: both lines of a forked discard win are played to the end, legally."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from hkmahjong.errors import RulesetError
from hkmahjong.rules import get_preset

Script = Callable[[str, str], ModuleType]


def test_forks_play_both_lines_and_the_report_groups_them(script: Script) -> None:
    """docs/rules.md §6 (P "放过一次食胡，亦不影响你之后再食"; ml as P): the passed line plays on; the
    taken line pays the win (ml seed 002 付錢表: the discarder pays two shares, zero-sum)."""
    tool = script("tools/fork_wins.py", "fork_wins")
    ml = get_preset("ml")
    forks = [f for wall in range(40) for f in tool.forks_of_wall(ml, "fan", "fork-test", wall)]
    assert len(forks) >= 3
    for f in forks:
        if f.fan < 0:  # 截糊: a seat nearer the discarder won; both lines are that one hand
            assert f.take == f.passed and not f.won_later
            continue
        assert f.fan >= ml.min_fan
        assert f.take > 0
        assert f.take_margin == pytest.approx(f.take * 4 / 3)  # the other three paid it
        assert f.pass_margin == pytest.approx(f.passed * 4 / 3)
        assert not f.self_drawn_later or f.won_later
    assert any(f.passed != f.take for f in forks)
    lines = tool.report(forks)
    assert lines[0].startswith("all") and f"n={len(forks):>5}" in lines[0]
    assert any("fan" in line for line in lines[1:])
    assert tool.report([]) == ["no discard win was offered"]


def test_unknown_ruleset_is_refused(script: Script) -> None:
    tool = script("tools/fork_wins.py", "fork_wins")
    with pytest.raises(RulesetError):
        tool.collect("no-such-rules", "fan", 1, "x", 1)
