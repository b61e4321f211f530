"""時鐘 (clocks): the table's time source, turn and claim clocks, the time bank and the discard delay.

The table never reads the wall clock itself: it asks a :class:`Clock` for ``now()``, to
``sleep`` and to ``call_later``. :class:`LoopClock` is asyncio's clock; :class:`FakeClock` is a
virtual clock for tests — time moves only when the test (or a ``sleep``) advances it, so a
timeout test runs in microseconds and the same way every time.

>>> clock = FakeClock()
>>> fired = []
>>> _ = clock.call_later(2.0, lambda: fired.append(clock.now()))
>>> clock.advance(1.5); fired
[]
>>> clock.advance(1.0); fired
[2.0]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from hkmahjong.errors import MahjongError

__all__ = [
    "Clock",
    "ClockSettings",
    "FakeClock",
    "LoopClock",
    "SeatClock",
    "TimerHandle",
]


class TimerHandle(Protocol):
    """A scheduled callback that may be cancelled."""

    def cancel(self) -> None:
        """Do not run it (no effect once it ran)."""
        ...


class Clock(Protocol):
    """The table's time source (seconds, monotonic)."""

    def now(self) -> float:
        """The current time in seconds."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` after ``delay`` seconds."""
        ...

    async def sleep(self, delay: float) -> None:
        """Wait ``delay`` seconds."""
        ...


class LoopClock:
    """asyncio's monotonic clock (the running loop's ``time``/``call_later``/``sleep``).

    The loop is asked for once and kept while it runs (each ``asyncio.get_running_loop`` costs a
    ``getpid`` system call in CPython 3.11, and a table asks the time several times an action).
    """

    __slots__ = ("_loop",)

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def _running(self) -> asyncio.AbstractEventLoop:
        loop = self._loop
        if loop is None or not loop.is_running():
            loop = self._loop = asyncio.get_running_loop()
        return loop

    def now(self) -> float:
        """The running loop's time."""
        return self._running().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """``loop.call_later``."""
        return self._running().call_later(max(0.0, delay), callback)

    async def sleep(self, delay: float) -> None:
        """``asyncio.sleep``."""
        if delay > 0:
            await asyncio.sleep(delay)


class _FakeTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A virtual clock: :meth:`advance` moves time and runs the callbacks that fall due, in order.

    ``sleep`` advances the clock by itself (the sleeper is the only thing happening), so a table
    under test never waits for real time.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._seq = itertools.count()
        self._heap: list[tuple[float, int, Callable[[], None], _FakeTimer]] = []

    def now(self) -> float:
        """Virtual seconds."""
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Schedule ``callback`` at ``now + delay`` (virtual)."""
        handle = _FakeTimer()
        heapq.heappush(self._heap, (self._now + max(0.0, delay), next(self._seq), callback, handle))
        return handle

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, running every callback that falls due.

        :raises MahjongError: when ``seconds`` is negative.
        """
        if seconds < 0:
            raise MahjongError(f"time only moves forward, not by {seconds}")
        until = self._now + seconds
        while self._heap and self._heap[0][0] <= until:
            at, _, callback, handle = heapq.heappop(self._heap)
            self._now = max(self._now, at)
            if not handle.cancelled:
                callback()
        self._now = until

    def pending(self) -> int:
        """How many callbacks are scheduled and not cancelled."""
        return sum(1 for entry in self._heap if not entry[3].cancelled)

    async def sleep(self, delay: float) -> None:
        """Wait until virtual time has moved ``delay`` on."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_later(delay, lambda: None if future.done() else future.set_result(None))
        await future


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """時限: a table's clocks in milliseconds (0 turn/claim = untimed, as at practice tables).

    ``turn_ms`` per own turn, then ``bank_ms`` (a per-match time bank) runs; ``claim_ms`` for a
    claim or robbing window (no bank); ``grace_ms`` of disconnection before a seat is sat out;
    ``discard_delay_ms``, the hold after every discard or kong (nothing is sent meanwhile, the
    same whether or not anyone could claim); ``bot_ms``, how long a bot seems to think on its
    turn; ``next_hand_ms``, the pause between hands (a ``ready`` from every person connected
    starts the next hand at once; 0 = only then).
    """

    turn_ms: int = 10_000
    claim_ms: int = 6_000
    bank_ms: int = 60_000
    grace_ms: int = 15_000
    discard_delay_ms: int = 600
    bot_ms: int = 400
    next_hand_ms: int = 15_000

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3_600_000:
                raise MahjongError(f"clock setting {name} must be 0..3600000 ms, got {value!r}")

    @property
    def timed(self) -> bool:
        """Whether decisions run against a clock."""
        return self.turn_ms > 0 or self.claim_ms > 0

    def to_json(self) -> dict[str, int]:
        """The ``clocks`` object of the protocol's ``table``."""
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> ClockSettings:
        """Settings from JSON (missing keys take the defaults).

        :raises MahjongError: on an unknown key or a bad value.
        """
        if not obj:
            return cls()
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(obj) - known)
        if unknown:
            raise MahjongError(f"unknown clock setting(s) {', '.join(unknown)}")
        return cls(**{k: obj[k] for k in obj})


PRACTICE_CLOCKS = ClockSettings(
    turn_ms=0, claim_ms=0, bank_ms=0, grace_ms=0, discard_delay_ms=300, bot_ms=500,
    next_hand_ms=8_000,
)  # fmt: skip
"""Practice tables: untimed, a short hold after discards, the next hand 8 s after a hand's
result (time to read it) or at once on the player's ``ready``; a player who is away pauses the
table instead (no grace: nobody else is waiting)."""


class SeatClock:
    """One player's clock: the running decision's deadline and what is left of the time bank.

    A turn decision gets ``turn_ms`` then the bank; a claim decision gets ``claim_ms`` only. When
    the decision is made early, the bank is charged only for the part spent beyond ``turn_ms``.
    """

    def __init__(self, settings: ClockSettings) -> None:
        self.settings = settings
        self.bank_ms = settings.bank_ms
        self.kind = ""
        self.started = 0.0
        self.base_ms = 0

    def start(self, kind: str, now: float) -> int:
        """Start a ``turn`` or ``claim`` clock at ``now``; the milliseconds until it runs out
        (0 = untimed)."""
        self.kind = kind
        self.started = now
        self.base_ms = self.settings.turn_ms if kind == "turn" else self.settings.claim_ms
        if self.base_ms == 0:
            return 0
        return self.base_ms + (self.bank_ms if kind == "turn" else 0)

    def remaining_ms(self, now: float) -> tuple[int, int]:
        """(decision ms left, bank ms left) at ``now``."""
        spent = round((now - self.started) * 1000)
        if self.base_ms == 0:
            return 0, self.bank_ms
        left = self.base_ms - spent
        if left >= 0 or self.kind != "turn":
            return max(0, left), self.bank_ms
        return 0, max(0, self.bank_ms + left)

    def stop(self, now: float) -> None:
        """The decision was made (or timed out): charge the bank for any time beyond the turn."""
        if self.kind == "turn" and self.base_ms:
            _, self.bank_ms = self.remaining_ms(now)
        self.kind = ""
