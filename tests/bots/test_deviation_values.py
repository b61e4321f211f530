"""tools/deviation_values.py: leaving ``strong``'s choice, played out on the true hidden tiles."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType

Script = Callable[[str, str], ModuleType]


def test_calls_safe_and_push_rows_come_from_real_play_outs(script: Script) -> None:
    tool = script("tools/deviation_values.py", "deviation_values")
    calls = list(tool.measure("parlor", 4, "dv-test", "calls"))
    assert calls and all(" -> " in r["class"] and ", gap<" in r["class"] for r in calls)
    # jade is paid in whole or half units; a difference of two payments is one too
    assert all(float(2 * r["y"]).is_integer() for r in calls)
    assert any(r["y"] != 0 for r in calls)
    safe = list(tool.measure("parlor", 3, "dv-test", "safe"))
    assert safe and all(r["class"].startswith(("chance<", "chance>=0.15")) for r in safe)
    assert {r["class"].split(", ")[1] for r in safe} <= {"attacking", "folded"}
    push = list(tool.measure("parlor", 6, "dv-test", "push"))
    assert push and all(r["class"].startswith(("d0", "d1", "d2", "d3+")) for r in push)
    assert {r["class"].split(", ")[1] for r in push} <= {"risk/EV<2", "risk/EV<4", "risk/EV>=4"}
    assert all(float(2 * r["y"]).is_integer() for r in push)


def test_discards_rows_are_near_ties_with_their_features(script: Script) -> None:
    tool = script("tools/deviation_values.py", "deviation_values")
    rows = list(tool.measure("ml", 2, "dv-test", "discards"))
    assert rows and all(0 <= r["gap"] < 3 for r in rows)
    gaps = {r["class"].split(", ")[0] for r in rows}
    walls = {r["class"].split(", ")[1] for r in rows}
    assert gaps <= {"gap<0.5", "gap<1", "gap<3"} and walls <= {"wall<40", "wall<60", "wall>=60"}
    for r in rows:  # the class is named from the row's own gap and tiles left
        want_gap = "gap<0.5" if r["gap"] < 0.5 else ("gap<1" if r["gap"] < 1 else "gap<3")
        want_wall = "wall<40" if r["wall"] < 40 else ("wall<60" if r["wall"] < 60 else "wall>=60")
        assert r["class"] == f"{want_gap}, {want_wall}"
        assert r["p_choice"] >= 0 and r["p_alt"] >= 0
    assert all(float(2 * r["y"]).is_integer() for r in rows)
    assert any(r["y"] != 0 for r in rows)


def test_the_summary_is_the_mean_and_its_standard_error(script: Script) -> None:
    tool = script("tools/deviation_values.py", "deviation_values")
    rows = [{"class": "a", "y": y} for y in (1.0, 3.0, 8.0)] + [{"class": "b", "y": -2.0}]
    a, b = tool.summarize(rows, hands=1)
    assert (a["class"], a["n"], a["mean"]) == ("a", 3, 4.0)
    assert a["se"] == round(math.sqrt(13.0 / 3.0), 3)  # sample variance 13, over n = 3
    assert a["per_seat_hand"] == 3.0  # 3 × 4.0 / (4 × 1)
    assert (b["n"], b["mean"], b["se"]) == (1, -2.0, math.inf)
