"""節流 a sliding-window rate limiter in memory (one server process), for logins and registrations."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = ["RateLimiter"]


class RateLimiter:
    """At most ``limit`` hits per key in any ``window_s`` seconds.

    >>> now = [0.0]
    >>> limiter = RateLimiter(2, 60.0, clock=lambda: now[0])
    >>> [limiter.hit("ip") for _ in range(3)]
    [True, True, False]
    >>> now[0] = 61.0
    >>> limiter.hit("ip")
    True
    """

    def __init__(
        self, limit: int, window_s: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window_s = window_s
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> bool:
        """Count a hit for ``key``; False when the key is over its limit (the hit is not counted)."""
        now = self._clock()
        with self._lock:
            if len(self._hits) > 100_000:
                self._sweep(now)
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True

    def reset(self, key: str) -> None:
        """Forget ``key``'s hits (after a successful login)."""
        with self._lock:
            self._hits.pop(key, None)

    def _sweep(self, now: float) -> None:
        stale = [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window_s]
        for key in stale:
            del self._hits[key]
