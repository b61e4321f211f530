"""A reload at a hand's end (issue 30, minor 7) shows the whole result again — the standings,
every hand, the seed and the replay link — as the live page showed it, in a real Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shot
from .play import RESULT, check_script, play_until_result, start_practice

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 60_000}
"""Bots answer at once; the result stays on the screen through the reload (the next hand would
start a minute later)."""


def result_parts(page: Any) -> dict[str, Any]:
    """What a player reads in the result box: the standings' rows, the hands shown, the seed line
    and where the replay link leads."""
    result = page.locator(RESULT)
    result.wait_for()
    return {
        "standings": result.locator("[data-testid=standings] tr").all_inner_texts(),
        "hands": result.locator("[data-testid=hands] .handrow").all_inner_texts(),
        "hand_tiles": result.locator("[data-testid=hands] img.tile").count(),
        "seed": result.locator(".seed").all_inner_texts(),
        "replay": result.locator("[data-testid=replay-link]").get_attribute("href"),
    }


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
def test_a_reload_at_a_hands_end_shows_the_whole_result_again(new_page: Any, lang: str) -> None:
    page = new_page(lang=lang)
    start_practice(page)
    play_until_result([page])
    before = result_parts(page)
    assert len(before["standings"]) >= 4, before  # a header row and the four players
    assert before["seed"] and len(before["seed"][0]) > 64, before
    assert before["replay"], before
    page.reload()
    page.locator(RESULT).wait_for()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=result] [data-testid=replay-link]')"
    )
    after = result_parts(page)
    assert after == before
    check_script(page, lang)
    shot(page, f"table-result-reloaded-{lang}-desktop", full_page=True)
