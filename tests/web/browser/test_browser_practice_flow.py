"""Practice that flows (issue 30, blocker 1), in a real Chromium by clicks and keys only: a guest
plays a practice match hand after hand — the 下一局 button, the N key, and the countdown's own
start of the next hand — then pauses it, finds it under 我的牌局 in the lobby and resumes it
where it stopped; on a desktop in English and on a phone in 繁體."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest

from hkmahjong.server.i18n import tr
from hkmahjong.server.tutorial import preset_label

from .conftest import playwright_sync, shot
from .play import RESULT, check_phone_layout, check_script, play_until_result, start_practice

pytestmark = pytest.mark.browser

NEXT_MS = 6_000
TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": NEXT_MS}
"""Bots answer at once; the next hand starts by itself 6 s after a result (the default is 8 s),
so a click that starts it at once is told apart from the countdown."""


def hand_no(page: Any) -> int:
    found = re.search(r"\d+", page.locator("[data-testid=hand-no]").inner_text())
    assert found, "the centre shows no hand number"
    return int(found.group())


def wait_hand(page: Any, n: int, timeout_ms: float) -> None:
    """Wait until the board shows hand ``n`` under way (its result gone)."""
    page.wait_for_function(
        """(n) => {
            const no = document.querySelector('[data-testid=hand-no]');
            const m = no && no.textContent.match(/\\d+/);
            return m && Number(m[0]) === n && document.getElementById('result').hidden;
        }""",
        arg=n,
        timeout=timeout_ms,
    )


def countdown_seconds(page: Any) -> int:
    text = page.locator("[data-testid=next-countdown]").inner_text()
    found = re.search(r"\d+", text)
    assert found, f"no countdown in {text!r}"
    return int(found.group())


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("zh-Hant", True)])
def test_a_guest_plays_hand_after_hand_pauses_and_resumes(
    new_page: Any, lang: str, phone: bool
) -> None:
    page = new_page(lang=lang, phone=phone)
    size = "phone" if phone else "desktop"
    url = start_practice(page)
    table_id = url.rsplit("/", 1)[1]
    assert hand_no(page) == 1
    if phone:
        check_phone_layout(page)
    # hand 1 → 下一局 (a click)
    play_until_result([page])
    result = page.locator(RESULT)
    next_button = result.locator("[data-testid=next-hand]")
    assert next_button.is_visible()
    left = countdown_seconds(page)
    assert 1 < left <= NEXT_MS // 1000, left
    check_script(page, lang)
    if phone:
        check_phone_layout(page)
        # the result is scrolled into view on a phone: its button is on the screen
        # (a person looks a moment later: the page is given a second to get there)
        with contextlib.suppress(playwright_sync.TimeoutError):
            page.wait_for_function(
                """() => { const r = document.querySelector('[data-testid=next-hand]')
                           .getBoundingClientRect();
                           return r.top >= 0 && r.bottom <= window.innerHeight; }""",
                timeout=1000,
            )
        box = next_button.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    shot(page, f"practice-flow-result-{lang}-{size}")
    clicked = time.monotonic()
    next_button.click()
    wait_hand(page, 2, 4_000)
    assert time.monotonic() - clicked < 4, "下一局 did not start the next hand at once"
    # hand 2 → the N key
    play_until_result([page], keyboard=not phone)
    page.locator("[data-testid=next-hand]").wait_for()
    page.keyboard.press("n")
    wait_hand(page, 3, 4_000)
    # hand 3 → nothing pressed: the countdown runs out and the next hand starts by itself
    play_until_result([page])
    first = countdown_seconds(page)
    page.wait_for_timeout(1_200)
    assert countdown_seconds(page) < first, "the countdown does not count down"
    wait_hand(page, 4, NEXT_MS + 8_000)
    assert tr(lang, "t_hand_no", n=4) in page.locator("[data-testid=hand-no]").inner_text()
    # pause mid-hand, find it in the lobby, resume it
    page.locator("#myhand button.tilebtn").first.wait_for()
    rivers = page.locator("[data-testid^=river-] img.tile").count()
    page.locator("[data-testid=pause-leave]").click()
    page.wait_for_url("**/")
    card = page.locator(f"[data-my-table='{table_id}']")
    card.wait_for()
    assert tr(lang, "tst_paused") in card.inner_text()
    assert tr(lang, "hand_of", n=4) in card.inner_text()
    check_script(page, lang)
    if phone:
        check_phone_layout(page)
    shot(page, f"practice-flow-lobby-paused-{lang}-{size}", full_page=True)
    page.locator(f"[data-testid=resume-{table_id}]").click()
    page.wait_for_url(f"**/table/{table_id}")
    page.locator("#myhand button.tilebtn").first.wait_for()
    assert hand_no(page) == 4
    assert page.locator("[data-testid^=river-] img.tile").count() >= rivers
    play_until_result([page])
    assert hand_no(page) == 4
    check_script(page, lang)
    shot(page, f"practice-flow-resumed-result-{lang}-{size}", full_page=True)


def test_play_again_at_a_matchs_end_opens_the_same_practice_anew(new_page: Any) -> None:
    """再玩一場: at the end of a practice match (a one-hand ml match), one click opens a new
    table with the same ruleset, length and bots, and its first hand is dealt."""
    page = new_page(lang="zh-Hans")
    url = start_practice(page, preset="ml", length="one-hand", level="normal")
    play_until_result([page])
    page.locator("[data-testid=match-over]").wait_for()
    assert page.locator("[data-testid=next-hand]").count() == 0
    check_script(page, "zh-Hans")
    shot(page, "practice-match-over-zh-Hans-desktop", full_page=True)
    page.get_by_test_id("play-again").click()
    page.wait_for_url(lambda u: "/table/" in u and u != url)
    page.locator("#myhand button.tilebtn").first.wait_for()
    assert hand_no(page) == 1
    # the board names the ruleset in the page's language, not by its id
    assert preset_label("ml", "zh-Hans") in page.locator("[data-testid=center]").inner_text()
    levels = page.locator(".seatbox .name").all_inner_texts()
    assert sum("normal" in name for name in levels) == 3, levels


def test_settings_are_kept_and_applied(new_page: Any) -> None:
    """設定: a guest's settings are kept in the browser (a registered player's on the server) and
    applied: large tiles make the hand bigger, and they hold after a reload."""
    page = new_page(lang="en")
    start_practice(page)
    width = page.locator("#myhand img.tile").first.bounding_box()["width"]
    page.get_by_test_id("settings").locator("summary").click()
    page.locator("[data-pref=large_tiles]").check()
    page.locator("[data-pref=auto_pass]").select_option("no_chow")
    page.wait_for_function(
        "(w) => document.querySelector('#myhand img.tile').getBoundingClientRect().width > w",
        arg=width,
    )
    shot(page, "table-settings-large-en-desktop")
    page.reload()
    page.locator("#myhand button.tilebtn").first.wait_for()
    page.get_by_test_id("settings").locator("summary").click()
    assert page.locator("[data-pref=large_tiles]").is_checked()
    assert page.locator("[data-pref=auto_pass]").input_value() == "no_chow"
    assert page.locator("#myhand img.tile").first.bounding_box()["width"] > width
    check_script(page, "en")
