"""The server's heap keeper (``hkmahjong.server.heap``): the collector sees only young objects,
frozen cycles are still freed by the sweep, and a bad setting is refused by name."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import weakref
from collections.abc import Iterator

import pytest

from hkmahjong.server.heap import HeapKeeper, _malloc_trim
from hkmahjong.server.settings import HeapSettings


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_tick_freezes_what_is_alive_and_the_collector_no_longer_walks_it() -> None:
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0))
    alive = [_Node() for _ in range(100)]
    before = gc.get_freeze_count()
    keeper.tick()
    assert gc.get_freeze_count() >= before + len(alive)
    walked = {id(o) for o in gc.get_objects()}  # every generation the collector walks
    assert not any(id(n) in walked for n in alive)


def test_a_cycle_already_dead_at_the_tick_is_collected_not_frozen() -> None:
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0))
    gc.disable()
    try:
        ref = _cycle()  # dead as soon as made: only the collector can free it
        assert ref() is not None
        keeper.tick()
        assert ref() is None
        assert keeper.ticks == 1
        assert 0 <= keeper.tick_ms_max <= keeper.tick_ms_total
    finally:
        gc.enable()


def test_a_cycle_that_dies_after_its_freeze_waits_for_the_sweep_which_frees_it() -> None:
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0))
    gc.disable()
    try:
        ref = _cycle()
        a = ref()  # alive at the tick …
        assert a is not None
        keeper.tick()  # … so frozen with the living
        del a  # and now dead
        gc.collect()  # a full collection does not look at frozen objects
        assert ref() is not None
        report = keeper.sweep()
        assert ref() is None
        assert report.collected >= 2
        assert report.pause_ms >= 0
        assert keeper.sweeps[-1] is report
    finally:
        gc.enable()


def test_the_sweep_runs_when_it_is_due() -> None:
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=1.0))
    keeper._last_sweep -= 2  # due
    keeper.tick()
    assert len(keeper.sweeps) == 1
    keeper.tick()  # not due again
    assert len(keeper.sweeps) == 1


def test_the_keeper_runs_in_the_loop_and_sets_the_young_threshold() -> None:
    async def run() -> int:
        keeper = HeapKeeper(HeapSettings(freeze_s=0.05, sweep_s=900.0, young=12_345))
        keeper.start()
        assert gc.get_threshold()[0] == 12_345
        before = gc.get_freeze_count()
        _ = [_Node() for _ in range(50)]
        await asyncio.sleep(0.2)
        await keeper.stop()
        return gc.get_freeze_count() - before

    assert asyncio.run(run()) >= 50


def test_an_inactive_keeper_leaves_the_collector_alone() -> None:
    async def run() -> None:
        keeper = HeapKeeper(HeapSettings(freeze_s=0, sweep_s=0))
        assert not keeper.active
        keeper.start()
        await asyncio.sleep(0.05)
        await keeper.stop()

    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    asyncio.run(run())
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("HKMJ_GC_FREEZE_SECONDS", "often"),
        ("HKMJ_GC_FREEZE_SECONDS", "0.001"),
        ("HKMJ_GC_SWEEP_SECONDS", "-5"),
        ("HKMJ_GC_YOUNG", "ten"),
        ("HKMJ_GC_YOUNG", "50"),
        ("HKMJ_MALLOC_TRIM_SECONDS", "sometimes"),
        ("HKMJ_MALLOC_TRIM_SECONDS", "0.001"),
    ],
)
def test_a_bad_setting_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        HeapSettings.from_env()


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HKMJ_GC_FREEZE_SECONDS", "0")
    monkeypatch.setenv("HKMJ_GC_SWEEP_SECONDS", "60")
    monkeypatch.setenv("HKMJ_GC_YOUNG", "5000")
    monkeypatch.setenv("HKMJ_MALLOC_TRIM_SECONDS", "0")
    assert HeapSettings.from_env() == HeapSettings(freeze_s=0, sweep_s=60, young=5000, trim_s=0)
    monkeypatch.delenv("HKMJ_GC_FREEZE_SECONDS")
    monkeypatch.delenv("HKMJ_GC_SWEEP_SECONDS")
    monkeypatch.delenv("HKMJ_GC_YOUNG")
    monkeypatch.delenv("HKMJ_MALLOC_TRIM_SECONDS")
    assert HeapSettings.from_env() == HeapSettings()


def _rss_kib() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or _malloc_trim() is None, reason="glibc's malloc_trim"
)
def test_a_trim_gives_the_pages_of_freed_memory_back_to_the_system() -> None:
    """Blocks the C allocator serves (above pymalloc's 512 bytes), freed but for one in 64:
    the heap's top stays in use, so only a trim returns the free pages in between."""
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0, trim_s=10.0))
    blocks = [os.urandom(1) * 3000 for _ in range(40_000)]  # ~120 MB, bytes written
    kept = blocks[::64]
    del blocks
    before = _rss_kib()
    ms = keeper.trim()
    after = _rss_kib()
    assert before - after > 50_000, (before, after)  # most of the ~118 MB freed comes back
    assert keeper.trims == 1 and ms >= 0 and keeper.trim_ms_max == ms
    assert len(kept) == 625


def test_a_trim_runs_with_a_tick_when_it_is_due() -> None:
    keeper = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0, trim_s=5.0))
    keeper.tick()
    assert keeper.trims == 0
    keeper._last_trim -= 6  # due
    keeper.tick()
    assert keeper.trims == (0 if keeper._trim is None else 1)
    off = HeapKeeper(HeapSettings(freeze_s=1.0, sweep_s=900.0, trim_s=0))
    off._last_trim -= 6
    off.tick()
    assert off.trims == 0 and off.trim() == 0.0
