"""The table in a real Chromium: a guest plays a practice hand to its breakdown, in two languages."""

from __future__ import annotations

from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from ..scriptcheck import foreign_chars, visible_text
from .conftest import shot
from .play import RESULT, play_until_result

pytestmark = pytest.mark.browser


def start_practice(page: Any, length: str = "one-hand", level: str = "easy") -> str:
    """Open the practice page from the lobby as a guest, start a table; returns its URL."""
    page.goto("/")
    page.click("[data-testid=practice-link]")
    page.wait_for_url("**/practice")
    page.check(f"input[name=bots][value={level}]")
    page.check(f"input[name=length][value='{length}']")
    page.click("[data-testid=practice-start]")
    page.wait_for_url("**/table/**")
    page.locator("#myhand button.tilebtn").first.wait_for()
    return str(page.url)


def check_script(page: Any, lang: str) -> None:
    bad = foreign_chars(visible_text(page.content(), lang), lang)
    assert not bad, f"table [{lang}] shows {sorted(bad)}"


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


def register(page: Any, name: str, password: str = "correct horse 1") -> None:
    page.goto("/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.fill("input[name=confirm]", password)
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-testid=user-name]").inner_text() == name


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


def online_table(pages: list[Any], names: list[str]) -> str:
    """Register each page's player, open an online table from the first, seat the others, fill
    the rest with bots; returns the table id."""
    for page, name in zip(pages, names, strict=True):
        register(page, name)
    host = pages[0]
    created = host.evaluate(
        """async () => {
            const csrf = document.querySelector('input[name=csrf]').value;
            const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({kind: 'online', rules: {preset: 'parlor'}, length: 'one-hand',
                                    stake: 100, private: false})});
            return [r.status, await r.json()];
        }"""
    )
    assert created[0] in (200, 201), created
    table_id = created[1]["id"]
    for page in pages[1:]:
        page.goto("/")
        page.locator(f"[data-join='{table_id}']").click()
        page.wait_for_url(f"**/table/{table_id}")
    if len(pages) < 4:
        status = host.evaluate(
            """async (id) => {
                const csrf = document.querySelector('input[name=csrf]').value;
                const r = await fetch(`/api/tables/${id}/bots`, {method: 'POST',
                  credentials: 'same-origin',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                  body: JSON.stringify({level: 'easy'})});
                return r.status;
            }""",
            table_id,
        )
        assert status in (200, 201, 204)
    for page in pages:
        if "/table/" not in page.url:
            page.goto(f"/table/{table_id}")
        page.locator("#myhand button.tilebtn").first.wait_for(timeout=60_000)
    return str(table_id)


@pytest.mark.parametrize("players", [2])
def test_browsers_at_one_online_table_play_a_hand_with_claims(new_page: Any, players: int) -> None:
    langs = ["en", "zh-Hant", "zh-Hans", "en"][:players]
    pages = [new_page(lang=lang, phone=(i == 1)) for i, lang in enumerate(langs)]
    online_table(pages, [f"p{players}x{i}" for i in range(players)])
    for i, page in enumerate(pages):
        shot(page, f"online{players}-start-{i}-{langs[i]}")
    play_until_result(pages, claim=True)
    melds = sum(pages[0].locator(f"[data-testid=melds-{r}] .meld").count() for r in range(4))
    assert melds >= 1, "nobody claimed a tile in the whole hand"
    for i, page in enumerate(pages):
        check_script(page, langs[i])
        shot(page, f"online{players}-result-{i}-{langs[i]}", full_page=True)
    totals = [pages[0].locator(f"[data-testid=jade-{r}]").inner_text() for r in range(4)]
    assert len(totals) == 4
