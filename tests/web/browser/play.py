"""Driving the table page like a player: answer every prompt until the hand's result shows.

The page's state (the prompt's buttons, the hand's tiles, whether the result shows) is read in one
script call per look, so several browsers can be driven from one loop without the round trips of
many locator queries; every decision is still a real click (or a key press) on the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..scriptcheck import foreign_chars, visible_text

RESULT = "[data-testid=result]"
CLICK_MS = 3_000
"""How long one click waits for its button: the page re-renders on every message, so a button
seen a moment ago may be gone (the prompt was closed); the next look finds what is there now."""

STATE_JS = """() => {
  const res = document.getElementById('result');
  const controls = document.getElementById('controls');
  const kinds = controls ? [...controls.querySelectorAll('button[data-kind]')]
    .filter((b) => !b.disabled).map((b) => b.dataset.kind) : [];
  const tiles = [...document.querySelectorAll('#myhand button.tilebtn:not([disabled])')]
    .map((b) => ({key: b.dataset.key, drawn: b.classList.contains('drawn'),
                  pressed: b.getAttribute('aria-pressed') === 'true'}));
  return {result: !!res && !res.hidden, kinds, tiles,
          sitBack: !!document.querySelector('[data-testid=sit-back]')};
}"""


def page_state(page: Any) -> dict[str, Any]:
    """What the player sees now: ``result`` (bool), ``kinds`` (the prompt's enabled buttons),
    ``tiles`` (the hand's discardable tiles: ``key``, ``drawn``, ``pressed``), ``sitBack``."""
    state: dict[str, Any] = page.evaluate(STATE_JS)
    return state


def _click(page: Any, selector: str) -> None:
    page.locator(selector).first.click(timeout=CLICK_MS)


def answer_prompt(
    page: Any,
    *,
    claim: bool = True,
    win: bool = True,
    keyboard: bool = False,
    state: dict[str, Any] | None = None,
) -> bool:
    """Answer the open prompt on ``page`` if there is one; True when something was clicked.

    Wins when it can (``win``), claims pungs, kongs and chows when offered (``claim``), else passes;
    on its turn discards the drawn tile (or the last it may), by clicking it twice or, with
    ``keyboard``, by the terminal parlor's keys.
    """
    st = page_state(page) if state is None else state
    kinds = st["kinds"]
    if win:
        for kind in ("win", "self_draw"):
            if kind in kinds:
                if keyboard:
                    page.keyboard.press("w")
                else:
                    _click(page, f"#controls button[data-kind={kind}]")
                return True
    if claim:
        for kind in ("pung", "kong", "chow"):
            if kind in kinds:
                if keyboard and kind != "chow":
                    page.keyboard.press(kind[0])
                else:
                    _click(page, f"#controls button[data-kind={kind}]")
                return True
        if "chow-open" in kinds:
            if keyboard:
                page.keyboard.press("c")
                page.keyboard.press("1")
            else:
                _click(page, "#controls button[data-kind=chow-open]")
                _click(page, "#controls button[data-kind=chow]")
            return True
    if "pass" in kinds:
        if keyboard:
            page.keyboard.press("x")
        else:
            _click(page, "#controls button[data-kind=pass]")
        return True
    tiles = st["tiles"]
    if tiles:
        if keyboard:
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
            return True
        drawn = [t for t in tiles if t["drawn"]]
        target = drawn[0] if drawn else tiles[-1]
        button = f"#myhand button[data-key='{target['key']}']"
        _click(page, button)
        if not target["pressed"]:
            _click(page, button)
        return True
    return False


def play_until(
    pages: list[Any],
    done: Callable[[], bool],
    *,
    timeout: float = 240,
    players: list[Any] | None = None,
    **kw: Any,
) -> None:
    """Answer prompts on ``players`` (default: every page) until ``done()`` holds.

    :raises AssertionError: when ``done()`` does not hold within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    playing = pages if players is None else players
    while time.monotonic() < deadline:
        if done():
            return
        acted = False
        for p in playing:
            try:
                st = page_state(p)
                if not st["result"]:
                    acted = answer_prompt(p, state=st, **kw) or acted
            except Exception:  # the page re-rendered under the click: look again
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError("the table did not get there in time")


def play_until_result(pages: list[Any], *, timeout: float = 240, **kw: Any) -> None:
    """Answer prompts on every page until each shows the hand's result.

    :raises AssertionError: when the result does not come within ``timeout`` seconds.
    """
    try:
        play_until(
            pages, lambda: all(page_state(p)["result"] for p in pages), timeout=timeout, **kw
        )
    except AssertionError:
        raise AssertionError("the hand did not end in time") from None


# --- pages: practice, accounts, online tables --------------------------------------------------
def check_script(page: Any, lang: str) -> None:
    """No character of the other scripts (繁/简) or stray Chinese on an English page."""
    bad = foreign_chars(visible_text(page.content(), lang), lang)
    assert not bad, f"table [{lang}] shows {sorted(bad)}"


PRACTICE_LENGTH = "8-hands"
"""A length the parlor offers a practice table (``GET /api/table-options?kind=practice``: 四圈,
八局, 十六局, 打至有人破產; no 單局 since the parlor's lengths follow seed 003)."""
ONLINE_PRESET, ONLINE_LENGTH = "ml", "one-hand"
"""A ruleset whose online tables offer a one-hand match (the parlor's online tables play 四局
only), for the tests that play one hand to the match's end."""


def start_practice(
    page: Any, length: str = PRACTICE_LENGTH, level: str = "easy", preset: str | None = None
) -> str:
    """Open the practice page from the lobby as a guest, start a table; returns its URL. With
    ``preset``, that ruleset is chosen first (the page then lists the lengths it offers)."""
    page.goto("/")
    page.click("[data-testid=practice-link]")
    page.wait_for_url("**/practice")
    page.check(f"input[name=bots][value={level}]")
    if preset is not None:
        page.select_option("select[name=preset]", preset)
    page.check(f"input[name=length][value='{length}']")
    page.click("[data-testid=practice-start]")
    page.wait_for_url("**/table/**")
    page.locator("#myhand button.tilebtn").first.wait_for()
    return str(page.url)


def register(page: Any, name: str, password: str = "correct horse 1") -> None:
    """Register ``name`` on ``page`` (a fresh browser context) and check it is logged in."""
    page.goto("/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.fill("input[name=confirm]", password)
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-testid=user-name]").inner_text() == name


def online_stake(level: int = 1, preset: str = ONLINE_PRESET) -> int:
    """The stake of an online table at ``level`` under ``preset`` (its table value × level)."""
    from hkmahjong.parlor.stakes import stake_for
    from hkmahjong.rules import get_preset

    return stake_for(get_preset(preset), level)


def online_table(pages: list[Any], names: list[str], *, level: int = 1) -> str:
    """Register each page's player, open an online table (one hand, ``ONLINE_PRESET``) from the
    first, seat the others from the lobby, fill the rest with bots; returns the table id once
    every page shows its hand."""
    for page, name in zip(pages, names, strict=True):
        register(page, name)
    host = pages[0]
    created = host.evaluate(
        """async ([level, preset, length]) => {
            const csrf = document.querySelector('input[name=csrf]').value;
            const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({kind: 'online', rules: {preset}, length, level,
                                    private: false})});
            return [r.status, await r.json()];
        }""",
        [level, ONLINE_PRESET, ONLINE_LENGTH],
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


def melds_on_table(page: Any) -> int:
    """How many melds (sets claimed or declared) the page shows at the four seats."""
    return int(page.locator("[data-testid^=melds-] .meld").count())


def check_phone_layout(page: Any) -> None:
    """On a phone: nothing wider than the screen, and the whole hand (up to 14 tiles, the drawn
    one apart) in one row."""
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"the table is {overflow}px wider than the phone"
    rows = page.evaluate(
        "new Set([...document.querySelectorAll('#myhand button.tilebtn')]"
        ".map((b) => b.offsetTop)).size"
    )
    assert rows <= 1, "the hand wraps onto a second row"
