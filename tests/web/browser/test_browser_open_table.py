"""Opening a table (issue 30, item 2), in real Chromiums by clicks and keys only: a player opens a
private table from the create page (the stake shown before anything is made), a friend sits down
by its invite link, two bots fill the other seats, and they play the whole 四局 match to its
settlement while a third person watches by the same link; a player who sat down at a waiting
table leaves it and keeps every jade (the buy-in is taken only when a match starts)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hkmahjong.parlor.stakes import stake_for
from hkmahjong.rules import get_preset
from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import check_phone_layout, check_script, page_state, play_until, register

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "next_hand_ms": 1_000}
"""Bots answer at once, the pause after a discard is short and the next hand starts 1 s after a
result: a 四局 match of two people and two bots takes a minute or two."""
GRANT = 10_000


def jade(page: Any) -> int:
    return int(re.sub(r"\D", "", page.get_by_test_id("user-jade").inner_text()))


def open_create_page(page: Any) -> None:
    page.goto("/")
    page.get_by_test_id("open-table-link").click()
    page.wait_for_url("**/tables/new")
    page.locator("input[name=length]").first.wait_for()


def test_two_friends_and_two_bots_play_a_private_match_a_third_watches(new_page: Any) -> None:
    ann, bob = new_page(lang="zh-Hant"), new_page(lang="en", phone=True)
    register(ann, "Ann")
    register(bob, "Bob")
    open_create_page(ann)
    # the parlor's online tables play 四局 only: the page offers just that length
    assert ann.locator("input[name=length]").count() == 1
    ann.check("input[name=length][value=online]")
    ann.check("input[name=level][value='1']")
    stake = stake_for(get_preset("parlor"), 1)
    assert ann.get_by_test_id("stake-chosen").inner_text() == tr("zh-Hant", "stake_chosen", n=stake)
    ann.check("input[name=nbots][value='2']")
    ann.get_by_test_id("create-bot-level").select_option("easy")
    ann.get_by_test_id("create-private").check()
    check_script(ann, "zh-Hant")
    shot(ann, "create-table-zh-Hant-desktop", full_page=True)
    ann.get_by_test_id("create-go").click()
    ann.wait_for_url("**/table/**")
    link = ann.get_by_test_id("invite-link")
    link.wait_for()
    invite = link.input_value()
    assert "invite=" in invite
    assert ann.locator("[data-testid=join-table]").count() == 0  # already seated
    shot(ann, "create-table-waiting-zh-Hant-desktop")
    # a private table is not in the lobby's list
    bob.goto("/")
    bob.locator("#lobby-tables tbody tr").first.wait_for()
    assert bob.locator(f"[data-join], [data-table='{invite.split('/table/')[1][:8]}']").count() == 0
    # the friend opens the link and sits down; the table is full and starts
    bob.goto(invite)
    bob.get_by_test_id("join-table").click()
    bob.locator("#myhand button.tilebtn").first.wait_for(timeout=60_000)
    ann.locator("#myhand button.tilebtn").first.wait_for(timeout=60_000)
    assert jade(ann) == GRANT - stake  # the stake went into escrow when the match started
    # a third, not logged in, watches by the same link
    cy = new_page(lang="zh-Hans")
    cy.goto(invite)
    cy.locator("[data-testid=watching]").wait_for()
    assert cy.locator("[data-testid=join-table]").count() == 0  # no free seat now
    check_phone_layout(bob)
    shot(bob, "private-table-en-phone")

    def over() -> bool:
        return all(p.locator("[data-testid=match-over]").count() for p in (ann, bob))

    play_until([ann, bob], over, timeout=600)
    for page, lang in ((ann, "zh-Hant"), (bob, "en")):
        table = page.locator("[data-testid=match-standings]")
        moved = [
            int(re.sub(r"[^\d+-]", "", table.locator(f"[data-testid=jade-moved-{p}]").inner_text()))
            for p in range(4)
        ]
        assert sum(moved) == 0 and all(m >= -stake for m in moved), moved
        mine = int(
            re.sub(r"[^\d+-]", "", table.locator("tr.you [data-testid^=jade-moved]").inner_text())
        )
        page.wait_for_function(
            "(text) => document.querySelector('[data-testid=user-jade]')?.textContent === text",
            arg=tr(lang, "jade_n", n=GRANT + mine),
        )
        assert tr(lang, "t_hand_no", n=4) in page.locator("[data-testid=hand-no]").inner_text()
        assert page.get_by_test_id("back-lobby").is_visible()
        check_script(page, lang)
    shot(ann, "private-match-over-zh-Hant-desktop", full_page=True)
    shot(bob, "private-match-over-en-phone", full_page=True)
    cy.locator("[data-testid=match-over]").wait_for(timeout=60_000)
    check_script(cy, "zh-Hans")


def test_a_player_leaves_a_waiting_table_and_keeps_the_stake(new_page: Any) -> None:
    dee, eve = new_page(lang="en"), new_page(lang="zh-Hans", phone=True)
    register(dee, "Dee")
    register(eve, "Eve")
    open_create_page(dee)
    dee.check("input[name=level][value='2']")
    stake = stake_for(get_preset("parlor"), 2)
    assert dee.get_by_test_id("stake-chosen").inner_text() == tr("en", "stake_chosen", n=stake)
    dee.get_by_test_id("create-go").click()
    dee.wait_for_url("**/table/**")
    table_id = dee.url.rsplit("/", 1)[1]
    # another player sits down from the lobby, where the stake shows before joining
    eve.goto("/")
    row = eve.locator(f"tr[data-table='{table_id}']")
    row.wait_for()
    assert str(stake) in row.locator("[data-testid=stake]").inner_text()
    check_phone_layout(eve)
    shot(eve, "lobby-open-table-zh-Hans-phone", full_page=True)
    row.locator(f"[data-join='{table_id}']").click()
    eve.wait_for_url(f"**/table/{table_id}")
    leave = eve.get_by_test_id("leave-table")
    leave.wait_for()
    assert jade(eve) == GRANT
    check_script(eve, "zh-Hans")
    shot(eve, "waiting-table-zh-Hans-phone")
    leave.click()
    eve.wait_for_url("**/")
    assert jade(eve) == GRANT
    # the seat is free again: the lobby shows one player and offers the seat
    eve.locator(f"tr[data-table='{table_id}'] [data-join='{table_id}']").wait_for()
    eve.wait_for_function(
        "(id) => document.querySelector(`tr[data-table='${id}']`)?.textContent.includes('1/4')",
        arg=table_id,
    )
    assert not page_state(dee)["result"]
    dee.get_by_test_id("leave-table").click()
    dee.wait_for_url("**/")
    assert jade(dee) == GRANT
