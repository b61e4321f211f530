"""The table in a real Chromium: a guest plays a practice hand to its breakdown, in two languages;
practice hints; accounts; names escaped. Online tables: test_browser_online.py and
test_browser_sitout.py."""

from __future__ import annotations

import time
from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import (
    RESULT,
    answer_prompt,
    check_script,
    page_state,
    play_until_result,
    register,
    start_practice,
)

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0}
"""Bots answer at once and the pause after a discard is short: a hand takes seconds, not a minute."""


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
def test_guest_plays_a_practice_hand_to_its_breakdown(new_page: Any, lang: str) -> None:
    page = new_page(lang=lang)
    start_practice(page)
    assert page.locator("#myhand button.tilebtn").count() in (13, 14)
    assert page.locator("[data-testid=wall]").inner_text()
    shot(page, f"table-start-{lang}-desktop")
    check_script(page, lang)
    play_until_result([page], keyboard=(lang == "en"))
    result = page.locator(RESULT)
    text = result.inner_text()
    if page.locator("[data-testid=win]").count():
        assert page.locator("[data-testid=breakdown] li").count() >= 1
        assert tr(lang, "t_payments") in text
    else:
        assert tr(lang, "t_drawn_hand") in text
    assert page.locator("[data-testid=standings]").first.is_visible()
    check_script(page, lang)
    shot(page, f"table-result-{lang}-desktop", full_page=True)


@pytest.mark.parametrize("lang", ["zh-Hans", "en"])
def test_a_practice_hint_shows_the_advice_in_words(new_page: Any, lang: str) -> None:
    """Seed 003 practice hints: the hint box puts ``bots.advice`` into the page's language."""
    page = new_page(lang=lang)
    start_practice(page, length="8-hands")
    controls = page.locator("#controls button[data-kind]")
    for _ in range(200):
        if controls.count():
            break
        page.wait_for_timeout(100)
    page.locator("[data-testid=hint-button]").click()
    words = page.locator("[data-testid=hint-words]")
    words.wait_for()
    assert words.inner_text().strip()
    assert page.locator("[data-testid=hint-action]").inner_text().startswith(tr(lang, "t_advice"))
    check_script(page, lang)
    shot(page, f"table-hint-{lang}-desktop")
    assert answer_prompt(page)
    page.locator("#hint").wait_for(state="hidden")  # the advice of a decided prompt goes away


def test_after_a_pung_the_hint_raises_its_tile_and_enables_the_discard(new_page: Any) -> None:
    """Issue 30 minor 5: after a 碰 there is no drawn tile; 提示 must still raise the tile it
    advises and enable 打出 (it raised the tile and left 打出 disabled). Plays until a pung is
    offered (a few hands at most against three bots), takes it, asks for a hint."""
    page = new_page(lang="zh-Hant")
    start_practice(page, length="8-hands")
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:
        st = page_state(page)
        if st["result"]:
            page.locator("[data-testid=next-hand]").click()
            page.wait_for_function("() => document.getElementById('result').hidden")
            continue
        if "pung" in st["kinds"]:
            page.locator("#controls button[data-kind=pung]").click()
            break
        try:
            if not answer_prompt(page, state=st, claim=False):
                page.wait_for_timeout(60)
        except Exception:  # the page re-rendered under the click: look again (as play_until)
            continue
    else:
        raise AssertionError("no pung was offered in 200 s of play")
    page.wait_for_function(
        "() => document.querySelectorAll('#myhand button.tilebtn:not([disabled])').length > 0"
    )
    assert page.locator("[data-testid=discard-button]").is_disabled()  # nothing chosen yet
    page.locator("[data-testid=hint-button]").click()
    page.locator("#myhand button.tilebtn[aria-pressed=true]").wait_for()
    assert page.locator("[data-testid=discard-button]").is_enabled()
    page.locator("[data-testid=discard-button]").click()  # (enabled: the click goes through)


def test_register_log_out_and_log_in(new_page: Any) -> None:
    page = new_page(lang="en")
    register(page, "ann")
    shot(page, "home-registered-en-desktop")
    page.click("form[action='/logout'] button")
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-testid=user-name]").count() == 0
    page.goto("/login")
    page.fill("input[name=name]", "ann")
    page.fill("input[name=password]", "wrong password")
    page.click("form button[type=submit]")
    page.locator("[data-testid=form-error]").wait_for()
    assert tr("en", "err_bad_login") in page.inner_text("[data-testid=form-error]")
    page.fill("input[name=name]", "ann")
    page.fill("input[name=password]", "correct horse 1")
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-testid=user-name]").inner_text() == "ann"


def test_names_are_escaped_at_the_table(new_page: Any) -> None:
    page = new_page(lang="en")
    evil = "<img src=x onerror=alert(1)>"
    page.goto("/register")
    page.fill("input[name=name]", evil[:20])
    page.fill("input[name=password]", "correct horse 1")
    page.fill("input[name=confirm]", "correct horse 1")
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("img[src=x]").count() == 0
