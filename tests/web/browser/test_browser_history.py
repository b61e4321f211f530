"""戰績 in a real Chromium against ``hkmj serve`` (issue 18 "History and statistics"): a registered
player plays an online hand with three bots, then finds it on their record — the statistics, the
jade chart, the hand, the match page with its jade ledger lines, their rating on the leaderboard —
in 繁 / 简 / English, on a desktop and a phone. Screenshots: ``history-*.png``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from hkmahjong.server.i18n import LANGS

from .conftest import shot
from .play import check_script, online_table, play_until_result

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 0}


def stat(page: Any, name: str) -> str:
    return str(page.locator(f"[data-stat={name}]").inner_text()).strip()


def test_a_played_hand_shows_on_the_players_record_match_page_and_leaderboard(
    new_page: Any,
) -> None:
    page = new_page("en")
    table_id = online_table([page], ["Ah Ming"])
    play_until_result([page])
    page.locator("[data-testid=match-over]").wait_for(timeout=60_000)

    page.click("[data-testid=nav-me]")
    page.wait_for_url("**/players/Ah%20Ming")
    assert stat(page, "hands") == "1" and stat(page, "matches") == "1"
    assert re.fullmatch(r"\d+\.\d%.*", stat(page, "win_rate"))
    assert page.locator("[data-testid=ratings] li").count() == 1  # rated once, parlor family
    chart = page.locator("[data-testid=jade-chart] svg polyline")
    # the starting grant and the match's release: a buy-in draws no point (no dip and recovery)
    assert chart.count() == 1 and len(str(chart.get_attribute("points")).split()) == 2
    assert page.locator("[data-testid=hands] tbody tr").count() == 1
    shot(page, "history-player-en-desktop", full_page=True)

    page.locator("[data-testid=matches] a[href^='/matches/']").first.click()
    page.wait_for_url(f"**/matches/{table_id}")
    assert page.locator("[data-testid=match-results] tbody tr").count() == 4
    assert page.locator("[data-testid=hand-1]").count() == 1
    ledger = page.locator("[data-testid=match-ledger]").inner_text()
    assert "buy-in" in ledger and ("release" in ledger)

    page.goto("/leaderboard")
    names = page.locator("[data-testid=leaderboard] a").all_inner_texts()
    assert names == ["Ah Ming"]

    for lang in LANGS:
        phone = new_page(lang, phone=True, tz="Asia/Hong_Kong")
        phone.goto("/players/Ah%20Ming")
        check_script(phone, lang)
        # times in the browser's zone (Hong Kong, UTC+8), not UTC
        when = phone.locator("[data-testid=matches] time[data-local]").first
        at = datetime.fromisoformat(str(when.get_attribute("datetime")).replace("Z", "+00:00"))
        assert f"{at + timedelta(hours=8):%H:%M}" in when.inner_text(), when.inner_text()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the record is {width} px wide on a 390 px phone"
        shot(phone, f"history-player-{lang}-phone", full_page=True)
        phone.goto(f"/matches/{table_id}")
        check_script(phone, lang)
        phone.goto("/leaderboard")
        check_script(phone, lang)
    shot(phone, "history-leaderboard-en-phone")
