"""The server's heap and the cyclic garbage collector: short pauses at any number of tables.

CPython's collector stops the whole process while it walks the objects of the generations it
collects. A parlor's live state (each table's hand, record, seats, clocks and sockets: a few
hundred tracked objects a table) is long-lived and dies by reference counting when a hand or a
table ends, hardly ever as a cycle — but it piles up in the collector's oldest generation, and a
full collection walks all of it: at 800–1,000 tables, pauses of 250–730 ms every ten seconds or
so (measured with ``bench/bench_server.py``), which every table feels, and a fifth of the
server's CPU in collections.

:class:`HeapKeeper` keeps the generations small instead. Every ``freeze_s`` it runs a young
collection (the cycles that died since the last tick: an upgraded connection's HTTP protocol and
its parser, say) and calls ``gc.freeze()``: what survived moves to the permanent generation (the
collector's lists are spliced, not walked), so no collection ever walks more than about a
quarter of a second's survivors. It also raises the first threshold to ``young`` (fewer, larger young
collections). Frozen objects are still freed by reference counting; only a cycle that dies
*after* it was frozen waits for the sweep: every ``sweep_s`` the keeper unfreezes everything and
runs one full collection (its pause and what it freed are logged), then freezes again. Such
cycles are rare here (about five objects a second at 300 tables: SQLAlchemy's statement caches).

The keeper also gives freed memory back to the operating system: every ``trim_s`` it calls the C
library's ``malloc_trim(0)`` (glibc; elsewhere this part is off). A busy parlor allocates and
frees all the time, and the C allocator keeps the pages of what was freed in its arenas (the
websocket buffers, the frames, the database driver's rows) for reuse: without a trim a
server's resident memory creeps up as its tables play on, with one — a few milliseconds every
ten seconds at a thousand tables — it follows what the tables hold.

``hkmj serve`` runs a keeper: ``HKMJ_GC_FREEZE_SECONDS`` (default 0.25;
0 turns the keeper off and leaves the collector as CPython sets it), ``HKMJ_GC_SWEEP_SECONDS``
(default 900), ``HKMJ_GC_YOUNG`` (default 10000; CPython's is 700), ``HKMJ_MALLOC_TRIM_SECONDS``
(default 10; 0: never trim).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import time
from dataclasses import dataclass

from hkmahjong.server.settings import HeapSettings

log = logging.getLogger("hkmahjong.server.heap")


def _malloc_trim() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    """The C library's ``malloc_trim`` (glibc), or None where there is none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        fn = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


@dataclass
class SweepReport:
    """One full sweep: how long the process stood still and what the collector freed."""

    pause_ms: float
    collected: int
    frozen_after: int


class HeapKeeper:
    """Freezes the heap's survivors every ``freeze_s`` and sweeps it every ``sweep_s``."""

    def __init__(self, settings: HeapSettings) -> None:
        self.settings = settings
        self.sweeps: list[SweepReport] = []
        self.ticks = 0
        self.tick_ms_total = 0.0
        """Milliseconds spent in ticks (young collection + freeze), and the longest one."""
        self.tick_ms_max = 0.0
        self.trims = 0
        self.trim_ms_total = 0.0
        """Milliseconds spent giving memory back (``malloc_trim``), and the longest one."""
        self.trim_ms_max = 0.0
        self._trim = _malloc_trim() if settings.trim_s > 0 else None
        self._task: asyncio.Task[None] | None = None
        self._last_sweep = self._last_trim = time.monotonic()

    @property
    def active(self) -> bool:
        """Whether the keeper runs (a freeze interval was set)."""
        return self.settings.freeze_s > 0

    def start(self) -> None:
        """Start freezing (in the running event loop); a no-op when the keeper is off."""
        if self.active and self._task is None:
            self.settings.apply()
            self._last_sweep = time.monotonic()
            self._task = asyncio.get_running_loop().create_task(self._run(), name="heap-keeper")

    async def stop(self) -> None:
        """Stop the keeper; the frozen objects stay frozen (the process is ending)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def tick(self) -> None:
        """One step: the sweep when it is due, else a young collection and a freeze."""
        sweep = self.settings.sweep_s
        if sweep > 0 and time.monotonic() - self._last_sweep >= sweep:
            self.sweep()
            return
        start = time.perf_counter()
        gc.collect(1)
        gc.freeze()
        ms = (time.perf_counter() - start) * 1000
        self.ticks += 1
        self.tick_ms_total += ms
        self.tick_ms_max = max(self.tick_ms_max, ms)
        if self._trim is not None and time.monotonic() - self._last_trim >= self.settings.trim_s:
            self.trim()

    def trim(self) -> float:
        """Give the C allocator's free pages back to the operating system now (a no-op where
        there is no ``malloc_trim``); the milliseconds it took."""
        self._last_trim = time.monotonic()
        if self._trim is None:
            return 0.0
        start = time.perf_counter()
        self._trim(0)
        ms = (time.perf_counter() - start) * 1000
        self.trims += 1
        self.trim_ms_total += ms
        self.trim_ms_max = max(self.trim_ms_max, ms)
        return ms

    def sweep(self) -> SweepReport:
        """Unfreeze everything, run a full collection, freeze the survivors again."""
        start = time.perf_counter()
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        report = SweepReport((time.perf_counter() - start) * 1000, collected, gc.get_freeze_count())
        self._last_sweep = time.monotonic()
        self.sweeps.append(report)
        del self.sweeps[:-16]
        log.info(
            "heap sweep: %.1f ms, %d objects collected, %d frozen",
            report.pause_ms,
            report.collected,
            report.frozen_after,
        )
        return report

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.freeze_s)
            self.tick()
