"""覆盤 in a real Chromium, on a phone (issue 37, *Proof*: "a player finishes a practice match,
opens its review, steps through the marked decisions, in each language and on a phone").

A guest plays a one-hand practice match by clicks; at the match's end the result holds "review
this match" (繁體: followed from there) or the hand's replay link (English: then the replay
page's 覆盤 button). The review runs (its progress shows), the timeline of the seat's decisions
appears with a marker per decision, coloured and marked by verdict; a marker moves the replay to
that decision's step and shows what was played, what the review prefers or that it agrees, with
the advisor's words; the next-decision button steps on. Nothing is wider than the phone, every
marker is a 44 px target. The player's record page then charts the accuracy of the hand
reviewed. The server reviews at 2 samples a decision (``HKMJ_REVIEW_BUDGET``), to keep it short.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import check_script, play_until_result, start_practice

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 2000}
SERVER_ENV = {"HKMJ_REVIEW_BUDGET": "2"}

SAW_PROGRESS = """() => {
  window.__sawProgress = false;
  new MutationObserver(() => {
    const p = document.getElementById('review-progress');
    if (p && !p.hidden) window.__sawProgress = true;
  }).observe(document, {subtree: true, attributes: true, childList: true});
}"""


def _step(page: Any) -> int:
    return int(re.findall(r"\d+", page.locator("[data-testid=step-no]").inner_text())[0])


def _pattern(lang: str, key: str) -> str:
    """The words of ``key`` with any number in place of ``{n}``, as a regular expression."""
    return re.escape(tr(lang, key)).replace(re.escape("{n}"), r"\d+")


def _no_sideways_scroll(page: Any) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"


def _targets_at_least_44(page: Any, selector: str) -> None:
    small = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map((b) => b.getBoundingClientRect())
             .filter((r) => r.width > 0 && (r.width < 44 || r.height < 44))
             .map((r) => [r.width, r.height])""",
        selector,
    )
    assert not small, f"{selector}: tap targets under 44 px: {small}"


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
def test_a_practice_match_reviewed_on_a_phone(new_page: Any, lang: str) -> None:
    page = new_page(lang=lang, phone=True)
    page.context.add_init_script(f"({SAW_PROGRESS})()")
    start_practice(page, preset="ml", length="one-hand")
    play_until_result([page])
    page.locator("[data-testid=match-over]").wait_for()
    if lang == "zh-Hant":
        link = page.locator("[data-testid=review-link]")
        assert link.inner_text() == tr(lang, "rvw_match_link")
        link.click()
        page.wait_for_url("**/replay/**review=1**")
    else:
        page.locator("[data-testid=replay-link]").click()
        page.wait_for_url("**/replay/**")
        button = page.locator("[data-testid=review-btn]")
        button.wait_for()
        assert tr(lang, "rvw_button") in button.inner_text()
        _targets_at_least_44(page, "[data-testid=review-btn]")
        button.click()
    # the review runs in the server's worker process: its progress shows, then the timeline
    markers = page.locator("[data-testid=review-timeline] .rv-mk")
    markers.first.wait_for(timeout=180_000)
    assert page.evaluate("window.__sawProgress") is True
    assert page.locator("[data-testid=review-progress]").is_hidden()
    n = markers.count()
    summary = page.locator("[data-testid=review-summary]").inner_text()
    assert re.search(r"\d+%", summary) and "±" in summary
    verdicts = {markers.nth(i).get_attribute("data-verdict") for i in range(n)}
    assert verdicts <= {"good", "inaccuracy", "mistake", "blunder", "unreviewed"}
    assert "review=1" in page.url
    _no_sideways_scroll(page)
    _targets_at_least_44(page, "[data-testid=review-panel] button")
    check_script(page, lang)
    page.locator("[data-testid=review-panel]").scroll_into_view_if_needed()
    shot(page, f"review-timeline-{lang}-phone")
    # a marker moves the replay to its decision and says what was played and what is preferred
    flagged = page.locator(
        "[data-testid=review-timeline] .rv-mk:not([data-verdict=good]):not([data-verdict=unreviewed])"
    )
    target = flagged.first if flagged.count() else markers.nth(min(n - 1, 2))
    before = _step(page)
    target.click()
    assert target.get_attribute("aria-pressed") == "true"
    page.wait_for_function(
        "(b) => Number(document.querySelector('[data-testid=step-no]').textContent.match(/\\d+/)[0]) !== b",
        arg=before,
    )
    assert _step(page) != before
    detail = page.locator("[data-testid=review-detail]")
    played = detail.locator("[data-testid=review-played]")
    assert tr(lang, "rvw_played") in played.inner_text()
    best = detail.locator("[data-testid=review-best]").inner_text()
    assert tr(lang, "rvw_best") in best or tr(lang, "rvw_agrees") in best
    # the advisor's words: how far from ready, before or after the action
    words = played.inner_text()
    assert any(
        re.search(_pattern(lang, key), words)
        for key in ("h_win", "rvw_now_ready", "rvw_now", "h_away", "h_ready_after")
    ), words
    check_script(page, lang)
    _no_sideways_scroll(page)
    shot(page, f"review-decision-{lang}-phone", full_page=True)
    # the next decision: the replay moves on with it
    if n > 1 and page.locator("[data-testid=review-next]").is_enabled():
        at = _step(page)
        page.locator("[data-testid=review-next]").click()
        page.wait_for_function(
            "(b) => Number(document.querySelector('[data-testid=step-no]').textContent.match(/\\d+/)[0]) > b",
            arg=at,
        )
    # stepping the replay onto a decision's frame picks its marker
    page.locator("[data-testid=first]").click()
    for _ in range(60):
        if page.locator("[data-testid=review-timeline] .rv-mk[aria-pressed=true]").count():
            pressed = page.locator("[data-testid=review-timeline] .rv-mk[aria-pressed=true]")
            if pressed.get_attribute("data-testid") == "review-marker-1":
                break
        page.locator("[data-testid=next]").click()
    assert page.locator("[data-testid=review-marker-1]").get_attribute("aria-pressed") == "true"
    # the player's record page charts the accuracy of the reviewed hand
    page.locator("[data-testid=nav-me]").click()
    page.wait_for_url("**/players/**")
    chart = page.locator("[data-testid=accuracy-chart]")
    chart.wait_for()
    caption = chart.locator("figcaption").inner_text()
    assert re.search(r"\d+%", caption)
    check_script(page, lang)
    _no_sideways_scroll(page)
    chart.scroll_into_view_if_needed()
    shot(page, f"review-accuracy-chart-{lang}-phone")
