"""聯賽 in a real Chromium against ``hkmj serve`` (issue 18, "Proof"): a league from sign-up to prizes
with bots filling the seats, and a cancelled league of both kinds (seed 002 《取消》: 滾回 refunds fee
and stake, 滾出 refunds fees and splits the pool). The administrator's steps are ``hkmj admin
league`` on the same data directory, as in production."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hkmahjong.entry import main
from hkmahjong.server.i18n import LANGS, tr

from ..scriptcheck import foreign_chars, visible_text
from .conftest import Server, shot
from .test_browser_replay import HIDDEN_JS

pytestmark = pytest.mark.browser

CLOCKS = {"turn_ms": 60, "claim_ms": 60, "bank_ms": 0, "discard_delay_ms": 0, "bot_ms": 0,
          "next_hand_ms": 0, "grace_ms": 200}  # fmt: skip
GRANT = 10_000


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("league-parlor")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[Server]:
    """This module's server: quick table clocks, leagues synced every 0.2 s."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HKMJ_TABLE_CLOCKS", json.dumps(CLOCKS))
        mp.setenv("HKMJ_LEAGUE_SYNC_SECONDS", "0.2")
        mp.setenv("HKMJ_STARTING_GRANT", str(GRANT))
        srv = Server(data_dir)
    yield srv
    srv.stop()


def admin(data_dir: Path, *args: str) -> None:
    assert main(["admin", "--data-dir", str(data_dir), "league", *args]) == 0


def register(page: Any, name: str) -> None:
    page.goto("/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "long password")
    confirm = page.locator("input[name=confirm]")
    if confirm.count():
        confirm.fill("long password")
    page.locator("form[action='/register'] button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_test_id("user-name").inner_text() == name


def jade(page: Any) -> int:
    return int(re.sub(r"\D", "", page.get_by_test_id("user-jade").inner_text()))


def open_league(page: Any, name: str) -> None:
    page.goto("/leagues")
    page.get_by_role("link", name=name).click()
    page.wait_for_load_state("networkidle")


def sign_up(page: Any, name: str) -> None:
    open_league(page, name)
    page.get_by_test_id("league-join").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_test_id("league-done").is_visible()


def reload_until(page: Any, done: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Reload the (server-rendered) league page until ``done()`` holds: the server's league
    sync acts on an admin command a moment later, and the page does not refresh itself."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.reload()
        if done():
            return
        time.sleep(0.3)
    raise AssertionError(f"the league page never showed {what}")


def wait_status(page: Any, lang: str, status: str, seconds: float = 120) -> None:
    want = tr(lang, f"lg_status_{status}")
    status_now = page.get_by_test_id("league-status")
    reload_until(page, lambda: status_now.inner_text() == want, f"status {status}", seconds)


def test_a_league_from_sign_up_to_prizes_with_bots_filling_seats(
    new_page: Any, data_dir: Path
) -> None:
    admin(data_dir, "create", "Browser Cup", "--preset", "ml", "--length", "one-hand",
          "--fee", "10", "--stake", "100", "--rounds", "1", "--min-players", "2",
          "--prizes", "70,30", "--seed", "browser")  # fmt: skip
    ann, ben = new_page(lang="en"), new_page(lang="zh-Hant", phone=True)
    register(ann, "Ann")
    register(ben, "Ben")
    sign_up(ann, "Browser Cup")
    sign_up(ben, "Browser Cup")
    assert jade(ann) == GRANT - 110
    assert "Ann" in ann.get_by_test_id("league-entrants").inner_text()
    shot(ann, "league-signed-up-en", full_page=True)
    admin(data_dir, "start", "Browser Cup", "--early")
    wait_status(ann, "en", "finished")
    standings = ann.get_by_test_id("league-standings").inner_text()
    assert "Ann" in standings and "Ben" in standings
    round_1 = ann.get_by_test_id("league-round-1").inner_text()
    assert round_1.count("bot") == 2  # two bots filled the table of two people
    payouts = ann.get_by_test_id("league-payouts").inner_text()
    assert "Prize" in payouts and "140 jade" in payouts and "60 jade" in payouts  # 70/30 of 200
    assert {jade(ann), (ben.reload(), jade(ben))[1]} == {GRANT - 110 + 140, GRANT - 110 + 60}
    for lang in LANGS:
        for phone in (False, True):
            page = new_page(lang=lang, phone=phone)
            open_league(page, "Browser Cup")
            bad = foreign_chars(visible_text(page.content(), lang), lang)
            assert not bad, f"league page [{lang}] shows {sorted(bad)}"
            if phone:
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 1, f"the league page [{lang}] is {overflow}px too wide"
            shot(page, f"league-finished-{lang}-{'phone' if phone else 'desktop'}", full_page=True)


def test_cancelled_leagues_rolled_back_and_rolled_out(new_page: Any, data_dir: Path) -> None:
    admin(data_dir, "create", "Back Cup", "--fee", "10", "--stake", "100", "--min-players", "2")
    admin(data_dir, "create", "Out Cup", "--preset", "ml", "--length", "four-rounds", "--fee",
          "10", "--stake", "100", "--guarantee", "101", "--min-players", "2")  # fmt: skip
    cat, dan = new_page(lang="en"), new_page(lang="zh-Hans")
    register(cat, "Cat")
    register(dan, "Dan")
    for page in (cat, dan):
        sign_up(page, "Back Cup")
        sign_up(page, "Out Cup")
    assert jade(cat) == GRANT - 220
    admin(data_dir, "cancel", "Back Cup", "--reason", "not enough players")
    open_league(cat, "Back Cup")
    assert cat.get_by_test_id("league-status").inner_text() == tr("en", "lg_status_rolled_back")
    assert jade(cat) == GRANT - 110  # 滾回: fee and stake back
    shot(cat, "league-rolled-back-en", full_page=True)
    admin(data_dir, "start", "Out Cup", "--early")
    open_league(cat, "Out Cup")
    go_table = cat.get_by_role("link", name=tr("en", "lg_go_table"))
    reload_until(cat, lambda: go_table.count() > 0, "a link to the table", 60)
    # 旁觀: a visitor, not signed up, not logged in, watches the league's table from its page
    eve = new_page(lang="zh-Hant", phone=True)
    open_league(eve, "Out Cup")
    eve.get_by_role("link", name=tr("zh-Hant", "lg_watch_table")).first.click()
    eve.locator("[data-testid=watching]").wait_for()
    eve.wait_for_function(
        "() => document.querySelectorAll('[data-testid^=river-] img').length > 0", timeout=60_000
    )
    seen = eve.evaluate(HIDDEN_JS)
    assert seen["outside"] == [] and seen["hand"] == 0, seen  # public information only
    assert not foreign_chars(visible_text(eve.content(), "zh-Hant"), "zh-Hant")
    shot(eve, "league-table-watched-zh-Hant-phone", full_page=True)
    admin(data_dir, "cancel", "Out Cup", "--reason", "the hall flooded")
    wait_status(cat, "en", "rolled_out", seconds=30)
    payouts = cat.get_by_test_id("league-payouts").inner_text()
    assert "Fee refunded" in payouts and "Pool: equal share" in payouts
    cat_jade, dan_jade = jade(cat), (dan.reload(), jade(dan))[1]
    assert cat_jade + dan_jade == 2 * (GRANT - 110) + 20 + 301  # fees back, the pool split
    assert min(cat_jade, dan_jade) >= GRANT - 110 + 10 + 150 // 2  # at least the equal half
    open_league(dan, "Out Cup")
    assert dan.get_by_test_id("league-status").inner_text() == tr("zh-Hans", "lg_status_rolled_out")
    assert not foreign_chars(visible_text(dan.content(), "zh-Hans"), "zh-Hans")
    shot(dan, "league-rolled-out-zh-Hans", full_page=True)
    # the league's table stopped with the league: its page links the match's record (what was
    # played before the cancellation), no longer the table (c00c995: unplayed, not 進行中)
    assert cat.get_by_role("link", name=tr("en", "lg_go_table")).count() == 0
    record_link = cat.get_by_role("link", name=tr("en", "lg_match_record")).first
    record_link.click()
    cat.wait_for_load_state("networkidle")
    assert os.path.basename(cat.url).startswith("lg")
    assert cat.locator("h1").first.inner_text() != "404"
