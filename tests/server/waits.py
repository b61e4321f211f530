"""Event-driven waits for the server tests: wake when the product says something changed.

A test thread (beside a ``TestClient``'s event loop) waits on a :class:`Changes`; the product's
own hooks (``Table.on_change``, ``Lobby.on_listing``, ``SqlLedger.on_post``, a store's commit …)
are chained to :meth:`Changes.fire`. :meth:`Changes.until` re-checks its condition only when one
fired — never on a timer — and fails the test with what it waited for when ``timeout`` passes
first (instead of hanging, or sleeping a fixed time and hoping; issue 32 item 8).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Changes", "chain", "until_in_loop"]


class Changes:
    """A count of the product's change signals, which a waiting thread can sleep on."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._fired = 0

    def fire(self, *_: object, **__: object) -> None:
        """A change happened (any thread; takes and ignores the hook's arguments)."""
        with self._cond:
            self._fired += 1
            self._cond.notify_all()

    def until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Return once ``condition()`` holds, checking it now and after each :meth:`fire`.

        The condition runs outside the lock (it may call into the app's event loop, whose
        thread fires), and a change between two checks is never lost.

        :raises AssertionError: naming ``what`` after ``timeout`` seconds without it.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                seen = self._fired
            if condition():
                return
            with self._cond:
                while self._fired == seen:
                    left = deadline - time.monotonic()
                    assert left > 0, f"{what}: not within {timeout:g} s"
                    self._cond.wait(left)


def chain(owner: Any, hook: str, then: Callable[[], object]) -> None:
    """Make ``owner.<hook>`` (a product callback attribute, possibly None, or a method) also call
    ``then()`` after doing what it did (e.g. ``Changes.fire``)."""
    before = getattr(owner, hook)

    def both(*args: Any, **kw: Any) -> Any:
        out = before(*args, **kw) if before is not None else None
        then()
        return out

    setattr(owner, hook, both)


async def until_in_loop(
    owner: Any, hook: str, condition: Callable[[], bool], seconds: float, what: str
) -> None:
    """Inside the event loop whose thread calls ``owner.<hook>``: return once ``condition()``
    holds, checking it now and after each call of the hook (chained, as :func:`chain`).

    :raises AssertionError: naming ``what`` after ``seconds`` without it.
    """
    fired = asyncio.Event()
    chain(owner, hook, fired.set)
    try:
        async with asyncio.timeout(seconds):
            while not condition():
                fired.clear()  # no await since the check: nothing was missed
                await fired.wait()
    except TimeoutError:
        raise AssertionError(f"{what}: not within {seconds:g} s") from None
