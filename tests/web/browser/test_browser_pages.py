"""Pages in a real Chromium: each language, phone and desktop, language switch, calculator, offline."""

from __future__ import annotations

from typing import Any

import pytest

from hkmahjong.server.i18n import LANGS, tr

from ..scriptcheck import foreign_chars, visible_text
from .conftest import Server, shot

pytestmark = pytest.mark.browser

PAGES = {
    "home": "/",
    "rules": "/rules",
    "tutorial": "/tutorial",
    "calculator": "/calculator",
    "practice": "/practice",
    "login": "/login",
    "register": "/register",
    "create": "/tables/new",
    "not-found": "/table/no-such-table",
}


SMALL_TARGETS_JS = """() => [...document.querySelectorAll(
    'main button:not(.tilebtn), main a.button, main select')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => [b.textContent.trim().slice(0, 20) || b.name, b.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
"""Buttons and menus in a page's main part smaller than a finger (44 × 44 px) on a phone. Tile
buttons are left out: nine tiles of a suit in a row leave each under 44 px on a 390 px screen
(the calculator's palette shows them at 36 px; not yet done)."""


@pytest.mark.parametrize("lang", LANGS)
def test_each_page_in_each_language_on_desktop_and_phone(new_page: Any, lang: str) -> None:
    for phone in (False, True):
        page = new_page(lang=lang, phone=phone)
        for name, path in PAGES.items():
            page.goto(path)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == lang
            bad = foreign_chars(visible_text(page.content(), lang), lang)
            assert not bad, f"{path} [{lang}] shows {sorted(bad)}"
            if phone:
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 1, f"{path} [{lang}] is {overflow}px wider than a phone"
                small = page.evaluate(SMALL_TARGETS_JS)
                assert not small, f"{path} [{lang}]: tap targets under 44 px: {small}"
            shot(page, f"{name}-{lang}-{'phone' if phone else 'desktop'}")


def test_language_switch_is_remembered(new_page: Any) -> None:
    page = new_page()
    page.goto("/rules")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    page.click("a[data-lang='en']")
    page.wait_for_url("**/rules")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.goto("/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").first.inner_text() == tr("en", "brand")
    page.click("a[data-lang='zh-Hans']")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"


def test_offline_page_when_the_parlor_is_unreachable(new_page: Any, server: Server) -> None:
    page = new_page(lang="en", phone=True)
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.context.set_offline(True)
    page.goto("/rules")
    assert tr("en", "offline_text") in page.inner_text("[data-testid=offline-text]")
    shot(page, "offline-en-phone")
    page.context.set_offline(False)


def test_manifest_is_linked_and_installable(new_page: Any) -> None:
    page = new_page(lang="en")
    page.goto("/")
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = page.evaluate(f"fetch({href!r}).then(r => r.json())")
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        ok = page.evaluate(f"fetch({icon['src']!r}).then(r => r.ok)")
        assert ok


def test_calculator_scores_a_clicked_hand(new_page: Any) -> None:
    page = new_page(lang="en")
    page.goto("/calculator")
    for code in [
        "1m",
        "2m",
        "3m",
        "2m",
        "3m",
        "4m",
        "4p",
        "5p",
        "6p",
        "7s",
        "8s",
        "9s",
        "5s",
        "5s",
    ]:
        page.click(f"#palette button[data-tile='{code}']")
    assert page.locator("[data-testid=calc-concealed] img").count() == 14
    page.check("input[name=self_drawn]")
    page.click("#calc-score")
    result = page.locator("[data-testid=calc-result]")
    result.wait_for(state="visible")
    # 平糊 1 + 自摸 1 + 門前清 1 + 無花 1 (W2 正統 一番 each) = 4 fan; half-spicy 4 fan = 8 each.
    assert tr("en", "example_total", n=4) in result.inner_text()
    items = page.locator("[data-testid=calc-items] li").all_inner_texts()
    assert any("All chows" in i for i in items) and any("Self-drawn" in i for i in items)
    assert tr("en", "pay_self_each", n=8) in result.inner_text()
    shot(page, "calculator-result-en-desktop", full_page=True)


def test_calculator_says_why_a_hand_is_no_win(new_page: Any) -> None:
    page = new_page(lang="zh-Hant")
    page.goto("/calculator")
    for code in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s", "5s"]:
        page.click(f"#palette button[data-tile='{code}']")
    page.check("input[name=target][value=pung]")
    page.click("#palette button[data-tile='2p']")
    page.check("input[name=target][value=bonus]")
    page.click("#palette button[data-tile='3f']")
    page.click("#calc-score")
    page.locator("[data-testid=calc-not-win]").wait_for()
    assert tr("zh-Hant", "reason_below_minimum_fan") in page.inner_text("[data-testid=calc-result]")
