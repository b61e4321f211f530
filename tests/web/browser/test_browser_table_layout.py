"""The table looks like one, on a desktop and on a phone: the four ponds around a square centre,
each turned to its player; nothing moves when the discards come; no sideways scrolling; hand tiles
and buttons a finger can hit; one way to discard any tile; animations that stop under
``prefers-reduced-motion``; the sort order and colour-blind-safe suits kept per account."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .conftest import shot
from .play import answer_prompt, page_state, play_until, register, start_practice

pytestmark = pytest.mark.browser

TABLE_CLOCKS = {"discard_delay_ms": 20, "bot_ms": 0}
"""Bots answer at once and the pause after a discard is short: the ponds fill in seconds."""

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

LAYOUT_JS = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  const angle = (node) => { const m = new DOMMatrixReadOnly(getComputedStyle(node).transform);
    return Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI); };
  const q = (sel) => document.querySelector(sel);
  const ponds = [0, 1, 2, 3].map((r) => q(`[data-testid=river-${r}]`));
  const corners = ['seat-me', 'seat-right', 'seat-across', 'seat-left'].map((id) => q(`#${id} > .meta`));
  return {
    center: box(q('#center')),
    ponds: ponds.map(box), angles: ponds.map(angle), corners: corners.map(box),
    discards: ponds.map((p) => p.querySelectorAll('img.tile').length),
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    hand: [...document.querySelectorAll('#myhand button.tilebtn')].map(box),
    buttons: [...document.querySelectorAll('#controls button')].filter((b) => b.offsetParent).map(box),
    header: box(q('header.topbar')),
    wall: q('[data-testid=wall]')?.closest('#center') !== null,
  };
}"""


def look(page: Any) -> dict[str, Any]:
    """The board's geometry as the browser laid it out (transforms included)."""
    out: dict[str, Any] = page.evaluate(LAYOUT_JS)
    return out


def my_turn(page: Any) -> bool:
    """The prompt is a discard of mine (no claim buttons, discardable tiles)."""
    st = page_state(page)
    return bool(st["tiles"]) and not st["kinds"].count("pass") and not st["result"]


def mid_hand(page: Any, discards: int = 10) -> None:
    """Play (by clicks) until the ponds hold ``discards`` tiles and it is this player's turn to
    discard."""

    def there() -> bool:
        n = page.locator("[data-testid^=river-] img.tile").count()
        return n >= discards and my_turn(page)

    play_until([page], there, timeout=180, claim=False, win=False)


def copy_shot(path: Path, tmp_path: Path) -> None:
    """Keep a screenshot with the test's own files too."""
    shutil.copy(path, tmp_path / path.name)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_ponds_sit_around_a_square_centre(new_page: Any, size: str, tmp_path: Path) -> None:
    page = new_page(lang="zh-Hant", phone=size == "phone")
    page.set_viewport_size(SIZES[size])
    start_practice(page)
    first = look(page)
    mid_hand(page)
    seen = look(page)
    copy_shot(shot(page, f"table-layout-{size}"), tmp_path)
    c = seen["center"]
    me, right, across, left = seen["ponds"]
    assert abs(c["width"] - c["height"]) <= 2, f"the centre is not square: {c}"
    assert me["top"] >= c["bottom"] - 1 and across["bottom"] <= c["top"] + 1, (me, across, c)
    assert left["right"] <= c["left"] + 1 and right["left"] >= c["right"] - 1, (left, right, c)
    for p in (me, across):  # below and above the centre, not off to one side
        assert p["left"] >= c["left"] - 2 and p["right"] <= c["right"] + 2
    for p in (left, right):
        assert p["top"] >= c["top"] - 2 and p["bottom"] <= c["bottom"] + 2
    assert [a % 360 for a in seen["angles"]] == [0, 270, 180, 90], seen["angles"]
    assert seen["wall"], "the wall count is in the centre"
    assert sum(seen["discards"]) >= 10
    # the first discards move nothing: the centre, the ponds and the seats' corners stay put (a
    # corner's name box may grow downwards, by a clock or a badge, but never moves)
    for key in ("center", "ponds", "corners"):
        keep = ("left", "top", "width") if key == "corners" else ("left", "top", "width", "height")
        assert _rounded(first[key], keep) == _rounded(seen[key], keep), f"{key} moved"
    assert seen["overflow"] <= 1, f"the page scrolls sideways by {seen['overflow']} px"
    if size == "phone":
        assert seen["header"]["height"] <= 52, "the header is more than one line at the table"
        assert seen["hand"] and all(b["height"] >= 44 for b in seen["hand"]), seen["hand"]
        # 14 tiles across 390 px: each as wide as the hand allows, side by side with no gap
        assert all(b["width"] >= 25 for b in seen["hand"]), seen["hand"]
        assert seen["buttons"] and all(
            b["height"] >= 44 and b["width"] >= 44 for b in seen["buttons"]
        ), seen["buttons"]
    # one way to discard any tile: a first tap raises it (the drawn one too), a second discards it
    tiles = page.locator("#myhand button.tilebtn:not([disabled])")
    drawn = page.locator("#myhand button.tilebtn.drawn:not([disabled])")
    target = drawn.first if drawn.count() else tiles.last
    before = page.locator("[data-testid=river-0] img.tile").count()
    assert target.get_attribute("aria-pressed") == "false", "a tile was raised before any tap"
    target.click()
    assert target.get_attribute("aria-pressed") == "true"
    assert page.locator("[data-testid=discard-button]").is_enabled()
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=river-0] img.tile").count() == before, "one tap discarded"
    target.click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=river-0] img.tile').length > n", arg=before
    )
    # the last discard (mine, or a bot's that came at once after it) lands with an animation
    name = page.wait_for_function(
        "() => { const n = document.querySelector('[data-testid^=river-] img.tile.last');"
        " return n && getComputedStyle(n).animationName; }"
    ).json_value()
    assert name == "tile-discard"
    copy_shot(shot(page, f"table-discarded-{size}"), tmp_path)


def _rounded(boxes: Any, keep: tuple[str, ...]) -> Any:
    if isinstance(boxes, dict):
        return {k: round(boxes[k]) for k in keep}
    return [_rounded(b, keep) for b in boxes]


def test_a_claim_prompt_marks_its_tile(new_page: Any, tmp_path: Path) -> None:
    """A discard that may be claimed: the pond's tile is marked (``.prompt``) while the prompt is
    open, and only then."""
    page = new_page(lang="en")
    page.set_viewport_size(SIZES["desktop"])
    start_practice(page)

    def claim_open() -> bool:
        """A window on a discard (the prompt names the tile and offers 過), still open a moment
        later: the page draws at its next frame, so just after a click it still shows the prompt
        that click answered."""
        for _ in range(2):
            st = page_state(page)
            if "pass" not in st["kinds"] or not page.locator("#controls .prompt-tile").count():
                return False
            page.wait_for_timeout(200)
        return True

    play_until([page], claim_open, timeout=240, claim=False, win=False)
    marked = page.locator("[data-testid^=river-] img.tile.prompt")
    assert marked.count() == 1, page.evaluate(
        "() => [...document.querySelectorAll('.river .last')].map((n) => n.outerHTML)"
    )
    assert "last" in (marked.get_attribute("class") or "")
    copy_shot(shot(page, "table-claim-prompt-desktop"), tmp_path)
    assert answer_prompt(page, claim=False, win=False)
    page.wait_for_function("() => !document.querySelector('#controls button[data-kind=pass]')")
    assert page.locator("[data-testid^=river-] img.tile.prompt").count() == 0


def test_reduced_motion_stops_the_animations(new_page: Any) -> None:
    page = new_page(lang="en", phone=True)
    page.emulate_media(reduced_motion="reduce")
    start_practice(page)
    mid_hand(page, discards=4)
    styles = page.evaluate(
        """() => {
          const last = document.querySelector('[data-testid^=river-] img.tile.last');
          const tile = document.querySelector('#myhand button.tilebtn');
          return {last: last && getComputedStyle(last).animationName,
                  lastClass: last && last.className,
                  drawn: [...document.querySelectorAll('.anim-draw, .anim-discard, .anim-claim')]
                    .map((n) => getComputedStyle(n).animationName),
                  transition: getComputedStyle(tile).transitionDuration};
        }"""
    )
    assert styles["drawn"], "no element carries an animation class"
    assert set(styles["drawn"]) == {"none"}, styles
    assert styles["transition"] in ("0s", ""), styles
    page.emulate_media(reduced_motion="no-preference")
    names = page.evaluate(
        "() => [...document.querySelectorAll('.anim-draw, .anim-discard, .anim-claim')]"
        ".map((n) => getComputedStyle(n).animationName)"
    )
    assert names and "none" not in names, names


def test_sort_order_and_colour_blind_suits_are_kept_per_account(
    new_page: Any, tmp_path: Path
) -> None:
    page = new_page(lang="zh-Hant", phone=True)
    register(page, "cbplayer")
    start_practice(page)
    page.locator("#settings summary").click()

    def hand() -> list[str]:
        return list(
            page.evaluate(
                "() => [...document.querySelectorAll('#myhand button.tilebtn:not(.drawn)')]"
                ".map((b) => b.dataset.tile)"
            )
        )

    order = "mpszfg"

    def key(tile: str) -> tuple[int, int]:
        return order.index(tile[1]), int(tile[0])

    assert hand() == sorted(hand(), key=key)
    page.select_option("select[data-pref=sort]", "drawn_last")
    page.locator("#settings-saved").wait_for()
    as_drawn = hand()
    assert sorted(as_drawn, key=key) == sorted(hand(), key=key)
    assert as_drawn != sorted(as_drawn, key=key), "as drawn: the hand is still sorted by suit"
    page.locator("input[data-pref=colour_blind]").check()
    page.wait_for_function("() => document.body.classList.contains('colour-blind')")
    marks = page.evaluate(
        """() => Object.fromEntries(['m', 'p', 's'].map((s) => {
             const img = document.querySelector(`#myhand img.tile[data-tile$="${s}"]`);
             if (!img) return [s, null];
             const cs = getComputedStyle(img);
             return [s, cs.paddingBottom + ' ' + cs.backgroundColor + ' ' + cs.backgroundImage];
           }))"""
    )
    shown = [m for m in marks.values() if m]
    assert shown and all(m.startswith("5px") for m in shown), marks
    assert len(set(shown)) == len(shown), f"two suits look alike: {marks}"
    copy_shot(shot(page, "table-colour-blind-phone"), tmp_path)
    page.reload()
    page.locator("#myhand button.tilebtn").first.wait_for()
    page.wait_for_function("() => document.body.classList.contains('colour-blind')")
    assert page.locator("select[data-pref=sort]").input_value() == "drawn_last"
    assert page.locator("input[data-pref=colour_blind]").is_checked()
