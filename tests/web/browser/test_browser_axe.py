"""無障礙 axe-core on every page, in each language (issue 30, *Accessibility*: "zero serious or
critical violations").

axe-core is vendored from the npm registry into ``tests/web/vendor/`` (its version in the README
there) and injected into each page as it is served. One server, one browser: for each language
a guest starts a one-hand practice match (the table is checked mid-hand, then with the hand's
result), registers (carrying the match to the account), and every other page is visited in a loop
— lobby, practice, create a table, calculator, rules, tutorial, login, register, leaderboard,
leagues, a league, the player's record, the replay of the hand, and a 404.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hkmahjong.entry import main
from hkmahjong.server.i18n import LANGS, tr

from .conftest import DESKTOP, Server
from .play import play_until_result, start_practice

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe.min.js"
CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 60_000}
"""Bots answer at once; the result stays on the screen while it is checked."""

RUN_AXE = """async () => {
  const found = await axe.run(document, { resultTypes: ['violations'] });
  return found.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: '
                          + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)) }));
}"""


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("axe-parlor")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[Server]:
    """This module's server: quick clocks, and a league open for sign-up."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HKMJ_TABLE_CLOCKS", json.dumps(CLOCKS))
        srv = Server(data_dir)
    assert main(["admin", "--data-dir", str(data_dir), "league", "create", "Axe Cup",
                 "--fee", "10", "--stake", "100", "--min-players", "2"]) == 0  # fmt: skip
    yield srv
    srv.stop()


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on ``page`` as it is now."""
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def explained(page: Any, term: str, lang: str) -> None:
    """The "?" beside ``term`` (issue 30: jargon explained where it appears) is named for the
    term, opens its explanation in ``lang`` (the term's accessible description) and closes it."""
    button = page.get_by_test_id(f"term-{term}").first
    button.wait_for()
    name = tr(lang, "term_help", term=tr(lang, f"term_name_{term}"))
    assert button.get_attribute("aria-label") == name
    note = page.locator(f"#{button.get_attribute('aria-controls')}")
    assert note.is_hidden()
    button.click()
    assert note.is_visible() and note.inner_text() == tr(lang, f"term_{term}")
    described = page.locator(f"[aria-describedby='{note.get_attribute('id')}']")
    assert described.count() == 1
    button.click()
    assert note.is_hidden()


def test_every_page_in_each_language_has_no_serious_violation(browser: Any, server: Server) -> None:
    seen: dict[str, list[dict[str, Any]]] = {}
    errors: list[str] = []
    for n, lang in enumerate(LANGS):
        ctx = browser.new_context(
            viewport=DESKTOP,
            base_url=server.url,
            bypass_csp=True,  # the page's CSP runs no inline script; axe is injected as one
            locale={"en": "en-GB", "zh-Hans": "zh-CN"}.get(lang, "zh-HK"),
        )
        ctx.set_default_timeout(20_000)
        ctx.add_cookies([{"name": "hkmj_lang", "value": lang, "url": server.url}])
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            table = start_practice(page, preset="ml", length="one-hand")
            page.get_by_test_id("hint-button").click()  # 提示: the advisor speaks of 向聽
            explained(page, "shanten", lang)
            seen[f"table mid-hand [{lang}]"] = violations(page)
            play_until_result([page])
            explained(page, "seed", lang)
            seen[f"table result [{lang}]"] = violations(page)
            replay = str(page.locator("[data-testid=replay-link]").get_attribute("href"))
            name = f"Axe {n}"
            page.goto("/register")
            page.fill("input[name=name]", name)
            page.fill("input[name=password]", "long password")
            page.fill("input[name=confirm]", "long password")
            page.click("form[action='/register'] button[type=submit]")
            page.wait_for_load_state("networkidle")
            page.goto("/leagues")
            league = str(page.get_by_role("link", name="Axe Cup").get_attribute("href"))
            for path in ("/", "/practice", "/tables/new", "/calculator", "/rules", "/tutorial",
                         "/login", "/register", "/leaderboard", "/leagues", league,
                         f"/players/{name}", replay, "/no-such-page", table + "x"):  # fmt: skip
                page.goto(path)
                if path == league:
                    explained(page, "digest", lang)
                elif path == replay:
                    explained(page, "wallcheck", lang)
                seen[f"{path} [{lang}]"] = violations(page)
        finally:
            ctx.close()
    bad: dict[str, list[str]] = {}  # each violation's node, and the pages it is on
    for where, found in seen.items():
        for v in found:
            for node in v["nodes"]:
                bad.setdefault(f"{v['id']} ({v['impact']}): {node}", []).append(where)
    assert not bad, json.dumps(bad, ensure_ascii=False, indent=1)
    assert not errors, f"JavaScript errors: {errors}"
