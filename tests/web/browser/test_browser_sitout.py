"""A disconnect sat out and taken back, in real Chromiums (seed 002, docs/rules.md §13): a player's
browser goes offline beyond the reconnect grace; the other player sees the seat marked 暫代 (sat
out) and the passive player discarding for it; back online, the player takes the seat back with
one click and plays the hand to its end."""

from __future__ import annotations

from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import (
    RESULT,
    check_phone_layout,
    check_script,
    online_table,
    page_state,
    play_until,
    play_until_result,
)

pytestmark = pytest.mark.browser

GRACE_MS = 1_500
TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "grace_ms": GRACE_MS}
"""A short reconnect grace (default 15 s), so the seat is sat out soon after the browser goes
offline; the turn clocks keep their defaults (nobody is sat out for missing turns)."""


def rel_of(page: Any, name: str) -> int:
    """Where ``name`` sits as ``page`` shows the table (0 you, 1 right, 2 across, 3 left)."""
    for r in range(4):
        if page.locator(f"[data-testid=name-{r}]").inner_text() == name:
            return r
    raise AssertionError(f"{name} is not at the table")


def river(page: Any, rel: int) -> int:
    return int(page.locator(f"[data-testid=river-{rel}] img.tile").count())


def test_a_disconnected_player_is_sat_out_and_takes_the_seat_back(new_page: Any) -> None:
    a_lang, b_lang = "en", "zh-Hant"
    a, b = new_page(lang=a_lang), new_page(lang=b_lang, phone=True)
    online_table([a, b], ["stay", "leaver"])
    play_until([a, b], lambda: a.locator("[data-testid^=river-] img.tile").count() >= 4)
    b_at = rel_of(a, "leaver")
    status = a.locator(f"[data-testid=status-{b_at}]")
    assert status.count() == 0, "a connected player is marked"

    b.context.set_offline(True)  # the websocket drops; the page keeps trying to reconnect
    away = river(a, b_at)
    play_until([a], lambda: status.count() == 1, players=[a], timeout=30)  # away, then sat out
    b.locator("#status.error").wait_for()
    assert b.locator("#status").inner_text() == tr(b_lang, "t_reconnecting")
    shot(b, "sitout-offline-zh-Hant-phone")
    play_until([a], lambda: status.inner_text() == tr(a_lang, "st_sat_out"), players=[a],
               timeout=30)  # fmt: skip
    # the passive player discards for the sat-out seat (the hand goes on without waiting)
    play_until([a], lambda: river(a, b_at) >= away + 1 or page_state(a)["result"], players=[a],
               timeout=60)  # fmt: skip
    assert river(a, b_at) >= away + 1, "nobody played the sat-out seat"
    check_script(a, a_lang)
    shot(a, "sitout-other-sees-sat-out-en")

    b.context.set_offline(False)
    banner = b.locator("[data-testid=sat-out]")
    banner.wait_for(timeout=30_000)  # reconnected: told it is sat out, offered the seat back
    assert banner.inner_text() == tr(b_lang, "t_sat_out_me")
    assert b.locator("[data-testid=status-0]").inner_text() == tr(b_lang, "st_sat_out")
    # its own river shows what was discarded for it (the missed messages replayed)
    b.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=river-0] img.tile').length >= n",
        arg=away + 1,
    )
    check_script(b, b_lang)
    check_phone_layout(b)
    shot(b, "sitout-returns-zh-Hant-phone")
    b.locator("[data-testid=sit-back]").click()  # one click
    banner.wait_for(state="detached")
    b.locator("[data-testid=status-0]").wait_for(state="detached")
    status.wait_for(state="detached")  # the other player sees the seat taken back
    assert b.locator("[data-testid=sit-back]").count() == 0
    play_until_result([a, b])
    for page, lang in ((a, a_lang), (b, b_lang)):
        assert page.locator(RESULT).is_visible()
        check_script(page, lang)
    shot(b, "sitout-result-zh-Hant-phone", full_page=True)
