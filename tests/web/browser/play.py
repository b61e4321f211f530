"""Driving the table page like a player: answer every prompt until the hand's result shows."""

from __future__ import annotations

import time
from typing import Any

RESULT = "[data-testid=result]"


def answer_prompt(
    page: Any, *, claim: bool = True, win: bool = True, keyboard: bool = False
) -> bool:
    """Answer the open prompt on ``page`` if there is one; True when something was clicked.

    Wins when it can (``win``), claims pungs, kongs and chows when offered (``claim``), else passes;
    on its turn discards the drawn tile (or the first it may), by clicking it twice or, with
    ``keyboard``, by the terminal parlor's keys.
    """
    controls = page.locator("#controls")
    if win:
        for kind in ("win", "self_draw"):
            b = controls.locator(f"button[data-kind={kind}]")
            if b.count():
                b.first.click()
                return True
    if claim:
        for kind in ("pung", "kong", "chow"):
            b = controls.locator(f"button[data-kind={kind}]")
            if b.count():
                b.first.click()
                return True
        if controls.locator("button[data-kind=chow-open]").count():
            if keyboard:
                page.keyboard.press("c")
                page.keyboard.press("1")
            else:
                controls.locator("button[data-kind=chow-open]").click()
                controls.locator("button[data-kind=chow]").first.click()
            return True
    if controls.locator("button[data-kind=pass]").count():
        if keyboard:
            page.keyboard.press("x")
        else:
            controls.locator("button[data-kind=pass]").click()
        return True
    tiles = page.locator("#myhand button.tilebtn:not([disabled])")
    if tiles.count():
        if keyboard:
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
        else:
            drawn = page.locator("#myhand button.tilebtn.drawn:not([disabled])")
            target = drawn.first if drawn.count() else tiles.last
            key = target.get_attribute("data-key")
            raised = target.get_attribute("aria-pressed") == "true"
            target.click()
            if not raised:
                page.locator(f"#myhand button[data-key='{key}']").click()
        return True
    return False


def play_until_result(pages: list[Any], *, timeout: float = 240, **kw: Any) -> None:
    """Answer prompts on every page until each shows the hand's result.

    :raises AssertionError: when the result does not come within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.locator(RESULT).is_visible() for p in pages):
            return
        acted = False
        for p in pages:
            if not p.locator(RESULT).is_visible():
                try:
                    acted = answer_prompt(p, **kw) or acted
                except Exception:
                    acted = True
        if not acted:
            pages[0].wait_for_timeout(120)
    raise AssertionError("the hand did not end in time")
