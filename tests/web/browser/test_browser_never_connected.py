"""A seat taken but never connected is released (issue 30, item 3), in real Chromiums by clicks:
a player sits down at a waiting table from the lobby, but their browser never reaches the table's
socket (it is cut off); after the grace the seat is free again — the table's creator sees it
empty, the lobby offers it — and nothing was paid."""

from __future__ import annotations

import re
from typing import Any

import pytest

from hkmahjong.server.i18n import tr

from .conftest import shot
from .play import register

pytestmark = pytest.mark.browser

GRACE_MS = 1_500
TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0, "grace_ms": GRACE_MS}
"""A short grace (default 15 s) so the unconnected seat is released soon."""
GRANT = 10_000


def seated_names(page: Any) -> list[str]:
    empty = ("", "—", tr("en", "st_empty"))
    return [n for n in page.locator(".seatbox .name").all_inner_texts() if n not in empty]


def test_a_seat_that_never_connects_is_released(new_page: Any) -> None:
    host, ghost = new_page(lang="en"), new_page(lang="zh-Hant")
    register(host, "Host")
    register(ghost, "Ghost")
    host.goto("/")
    host.get_by_test_id("open-table-link").click()
    host.locator("input[name=length]").first.wait_for()
    host.get_by_test_id("create-go").click()
    host.wait_for_url("**/table/**")
    table_id = host.url.rsplit("/", 1)[1]
    host.get_by_test_id("leave-table").wait_for()
    # the host's page notes whether it ever showed the ghost seated (the grace is short)
    host.evaluate(
        """() => new MutationObserver(() => {
            if ([...document.querySelectorAll('.seatbox .name')].some((n) => n.textContent === 'Ghost'))
                window.__sawGhost = true;
        }).observe(document.getElementById('board'), {subtree: true, childList: true, characterData: true})"""
    )
    # the ghost's browser never reaches the table's socket: its connection is held by the test
    held: list[Any] = []
    ghost.route_web_socket("**/ws/table/**", lambda ws: held.append(ws))
    ghost.goto("/")
    ghost.locator(f"[data-join='{table_id}']").click()
    ghost.wait_for_url(f"**/table/{table_id}")
    assert held, "the page did not try to connect"
    host.wait_for_function("() => window.__sawGhost === true")  # the waiting board shows who sat
    # after the grace the seat is free again, for the host and in the lobby
    host.wait_for_function(
        "() => ![...document.querySelectorAll('.seatbox .name')].some((n) => n.textContent === 'Ghost')",
        timeout=GRACE_MS + 15_000,
    )
    assert seated_names(host) == ["Host"]
    shot(host, "never-connected-released-en-desktop")
    lobby = new_page(lang="en")
    lobby.goto("/")
    row = lobby.locator(f"tr[data-table='{table_id}']")
    row.wait_for()
    assert "1/4" in row.inner_text() and row.locator(f"[data-join='{table_id}']").count() == 1
    ghost.goto("/")
    assert int(re.sub(r"\D", "", ghost.get_by_test_id("user-jade").inner_text())) == GRANT
