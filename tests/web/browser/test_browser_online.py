"""Online tables in real Chromiums: four people play a hand to its end with claims and see the
match's end (standings, the jade the stake moved); a player reloads mid-hand and plays on."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import (
    RESULT,
    check_phone_layout,
    check_script,
    melds_on_table,
    online_stake,
    online_table,
    page_state,
    play_until,
    play_until_result,
)

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0}
"""The pause after a discard and the bots' thinking kept short: four browsers play a hand in well
under a minute. The turn and claim clocks keep their defaults (nobody times out)."""
GRANT = 10_000
"""Jade a new account receives (``HKMJ_STARTING_GRANT``'s default)."""
STAKE = online_stake()
"""The stake of a level-1 table under the tests' ruleset (its table value)."""


def check_match_end(page: Any, lang: str) -> int:
    """全場完 on ``page``: the standings of the four players and the jade each won or lost (they
    sum to zero); the header's balance is the grant plus this player's result. Returns it."""
    page.locator("[data-testid=match-over]").wait_for()
    table = page.locator("[data-testid=match-standings]")
    assert table.locator("tr[data-player]").count() == 4
    moved = [
        int(re.sub(r"[^\d+-]", "", table.locator(f"[data-testid=jade-moved-{p}]").inner_text()))
        for p in range(4)
    ]
    assert sum(moved) == 0 and all(m >= -STAKE for m in moved), moved
    mine = int(
        re.sub(r"[^\d+-]", "", table.locator("tr.you [data-testid^=jade-moved]").inner_text())
    )
    balance = page.locator("[data-testid=user-jade]")
    expected = tr(lang, "jade_n", n=GRANT + mine)
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.textContent === text",
        arg=["[data-testid=user-jade]", expected],
    )
    assert balance.inner_text() == expected
    if any(moved):
        assert page.locator("[data-testid=settlement] li").count() >= 1
    return mine


def test_four_browsers_at_one_online_table_play_a_hand_with_claims(new_page: Any) -> None:
    """Issue 14 proof: four people, three languages, one phone, claims, the hand's result and the
    match's end with the stake settled."""
    langs = ["en", "zh-Hant", "zh-Hans", "en"]
    pages = [new_page(lang=lang, phone=(i == 1)) for i, lang in enumerate(langs)]
    online_table(pages, [f"four{i}" for i in range(4)])
    for i, page in enumerate(pages):
        assert page.locator(".seatbox .badge", has_text=tr(langs[i], "st_bot")).count() == 0
        check_script(page, langs[i])
        shot(page, f"online4-start-{i}-{langs[i]}{'-phone' if i == 1 else ''}")
    phone = pages[1]
    check_phone_layout(phone)
    # the phone's turn: its hand (the drawn tile apart) fits the screen in one row
    play_until(pages, lambda: bool(page_state(phone)["tiles"]) or page_state(phone)["result"],
               players=[pages[0], pages[2], pages[3]])  # fmt: skip
    check_phone_layout(phone)
    shot(phone, "online4-turn-1-zh-Hant-phone")
    play_until(pages, lambda: melds_on_table(pages[0]) >= 1 or page_state(pages[0])["result"])
    for i, page in enumerate(pages):
        shot(page, f"online4-claimed-{i}-{langs[i]}{'-phone' if i == 1 else ''}")
    check_phone_layout(phone)
    play_until_result(pages, claim=True)
    assert melds_on_table(pages[0]) >= 1, "nobody claimed a tile in the whole hand"
    results = [check_match_end(page, langs[i]) for i, page in enumerate(pages)]
    assert sum(results) == 0
    check_phone_layout(phone)
    for i, page in enumerate(pages):
        text = page.locator(RESULT).inner_text()
        assert tr(langs[i], "t_match_over") in text
        check_script(page, langs[i])
        shot(page, f"online4-result-{i}-{langs[i]}{'-phone' if i == 1 else ''}", full_page=True)
    home = pages[2]
    home.goto("/")
    assert home.locator("[data-testid=user-jade]").inner_text() == tr(
        "zh-Hans", "jade_n", n=GRANT + results[2]
    )


SEEN_JS = """() => {
  const tiles = (node) => node ? [...node.querySelectorAll('img.tile')].map((i) => i.dataset.tile) : [];
  const seats = [0, 1, 2, 3].map((r) => {
    const box = document.getElementById(['seat-me', 'seat-right', 'seat-across', 'seat-left'][r]);
    const q = (id) => box.querySelector(`[data-testid=${id}-${r}]`);
    return {
      wind: box.dataset.seat, toAct: box.classList.contains('to-act'),
      meta: [...box.querySelectorAll('.meta > span:not(.clock)')].map((s) => s.textContent),
      melds: [...box.querySelectorAll('.meld')].map((m) => tiles(m).join(' ')),
      bonus: tiles(q('bonus')),
      river: [...(q('river')?.querySelectorAll('img.tile') || [])]
        .map((i) => i.dataset.tile + (i.classList.contains('claimed') ? '*' : '')),
    };
  });
  return {
    hand: [...document.querySelectorAll('#myhand button.tilebtn')]
      .map((b) => b.dataset.tile + (b.classList.contains('drawn') ? '+' : '')),
    seats,
    center: [...document.querySelectorAll('#center span')].map((s) => s.textContent),
    prompt: document.querySelector('[data-testid=prompt-text]')?.textContent ?? null,
    buttons: [...document.querySelectorAll('#controls button[data-kind]')].map((b) => b.dataset.kind),
  };
}"""


def seen(page: Any) -> dict[str, Any]:
    """What the player sees of the hand: own tiles (the drawn one marked), every seat's wind,
    name, dealer mark, jade, status and tile count, melds, bonus tiles and river (claimed tiles marked), whose turn, the
    round, hand, dealer and wall, and the open prompt."""
    out: dict[str, Any] = page.evaluate(SEEN_JS)
    return out


def test_a_player_reloads_mid_hand_sees_the_same_hand_and_plays_on(new_page: Any) -> None:
    """Reload mid-hand (after discards and a claim): the page rebuilt from the server's snapshot
    shows exactly what the live page showed, and the player plays the hand to its end."""
    pages = [new_page(lang="zh-Hant"), new_page(lang="en", phone=True)]
    online_table(pages, ["reload0", "reload1"])
    me = pages[0]

    def my_turn_after_a_claim() -> bool:
        st = page_state(me)
        if st["result"] or not st["tiles"]:
            return False
        rivers = me.locator("[data-testid^=river-] img.tile").count()
        return rivers >= 6 and (melds_on_table(me) >= 1 or rivers >= 24)

    def settled_turn() -> dict[str, Any] | None:
        """The page at the player's own turn, the same twice 300 ms apart: under load the poll
        can see the turn just as the page's own discard (clicked in the loop's last pass) is on
        its way, and the prompt closes a moment later."""
        first = seen(me)
        me.wait_for_timeout(300)
        second = seen(me)
        if first != second or not first["buttons"]:
            return None
        return first

    before = None
    for _ in range(5):
        play_until(pages, my_turn_after_a_claim)
        before = settled_turn()
        if before is not None:
            break
    assert before is not None, "the player's turn never settled"
    assert before["buttons"] and before["prompt"] == tr("zh-Hant", "t_your_turn")
    shot(me, "reload-before-zh-Hant")
    me.reload()
    me.locator("#myhand button.tilebtn").first.wait_for()
    me.wait_for_function("() => !!document.querySelector('[data-testid=prompt-text]')")
    after = seen(me)
    shot(me, "reload-after-zh-Hant")
    assert after == before
    # the header shows the balance with the stake in escrow
    assert me.locator("[data-testid=user-jade]").inner_text() == tr(
        "zh-Hant", "jade_n", n=GRANT - STAKE
    )
    assert before["seats"][0]["toAct"]
    play_until_result(pages, claim=True)
    for page, lang in zip(pages, ("zh-Hant", "en"), strict=True):
        check_match_end(page, lang)
        check_script(page, lang)
    shot(me, "reload-result-zh-Hant", full_page=True)
