"""tools/table_pace.py: self-play hand length and step cost, the measurements behind bots.pace."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from hkmahjong.errors import MahjongError

Script = Callable[[str, str], ModuleType]


def test_self_play_records_every_discard_and_the_report_reads_them(script: Script) -> None:
    """docs/rules.md §7 (ml: 1 番起糊): the minimum may be overridden; the report shows the model."""
    tool = script("tools/table_pace.py", "table_pace")
    hands = tool.collect("ml", None, 12, "pace-test", 1)
    assert len(hands) == 12
    for h in hands:
        assert h.turns >= 1
        assert max(t for t, _, _ in h.decisions) == h.turns - 1
        assert {d for _, d, _ in h.decisions} <= set(range(6))
    assert any(won for h in hands for _, _, won in h.decisions)
    lines = tool.report(hands, tool.table("ml", None))
    assert lines[0].startswith("ml (minimum 1 fan): 12 hands")
    assert "model: 9.80" in lines[0]
    assert len(lines) == 6 and all("model" in line for line in lines[1:])
    assert tool.table("parlor", 1).min_fan == 1


def test_bad_table_is_refused(script: Script) -> None:
    tool = script("tools/table_pace.py", "table_pace")
    with pytest.raises(MahjongError):
        tool.collect("no-such-rules", None, 1, "x", 1)
    with pytest.raises(MahjongError):
        tool.collect("parlor", 99, 1, "x", 1)
