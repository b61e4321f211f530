"""思考 (thinking off the loop): bots decide, and the advisor advises, away from the event loop.

A table's actor never computes a bot's choice itself: one slow decision would stall every table of
the process. :class:`Thinker` runs the fast bots (``easy`` … ``expert``, the passive player, the
``strong`` advisor) in a small thread pool and the searching ones (``master``, 大師) in a process
pool (:func:`search_choose`), and answers with an asyncio future the actor turns into a message of
its queue. The budgets are deterministic (:mod:`hkmahjong.parlor.seats`), so where a decision runs
never changes what it is; a worker process that dies is replaced, and its decision is made again
in a thread (the same choice).

One :class:`Thinker` serves every table of a process (:func:`shared_thinker`); the process pool
starts on the first searched decision (``HKMJ_SEARCH_WORKERS`` processes, default 1: on a small
machine the other core stays with the server), its workers at a lower priority
(``HKMJ_SEARCH_NICE``, default 10) so that people's tables keep the CPU on a busy machine.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from hkmahjong.bots.master import MasterBot
from hkmahjong.engine.actions import Action
from hkmahjong.engine.players import Controller
from hkmahjong.engine.view import PlayerView
from hkmahjong.parlor.environ import env_number
from hkmahjong.parlor.seats import SearchBot, master_bot
from hkmahjong.rules import Ruleset

__all__ = ["Thinker", "search_choose", "shared_thinker"]

log = logging.getLogger(__name__)

T = TypeVar("T")

THREADS = 4
"""Threads for the fast bots: they hold the GIL while they think (more would not be faster), but
several keep one slow decision from queueing every other table's behind it."""
_WORKER_BOTS: OrderedDict[tuple[str, str, int], MasterBot] = OrderedDict()
_WORKER_LIMIT = 256


def search_choose(
    seed: int | str,
    ruleset: Ruleset,
    digest: str,
    rollouts: int,
    view: PlayerView,
    legal: Sequence[Action],
) -> Action:
    """大師's choice, in a worker process: the bot is built once per (seed, ruleset ``digest``,
    rollouts) and kept (its choices depend only on the seed and the view)."""
    key = (str(seed), digest, rollouts)
    bot = _WORKER_BOTS.get(key)
    if bot is None:
        bot = _WORKER_BOTS[key] = master_bot(seed, ruleset, rollouts)
        while len(_WORKER_BOTS) > _WORKER_LIMIT:
            _WORKER_BOTS.popitem(last=False)
    else:
        _WORKER_BOTS.move_to_end(key)
    return bot.choose(view, legal)


def _lower_priority(nice: int) -> None:
    """A search worker's initializer: run at a lower priority than the server (people's tables
    keep the CPU when the machine is busy; a search is covered by the hold, not by a person)."""
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)


def _search_nice() -> int:
    hint = " (0: the server's priority)"
    return int(env_number("HKMJ_SEARCH_NICE", "10", low=0, high=19, hint=hint))


def _search_workers() -> int:
    hint = " (0: search in threads)"
    return int(env_number("HKMJ_SEARCH_WORKERS", "1", low=0, high=64, hint=hint))


class Thinker:
    """Where decisions are computed: a thread pool, and a process pool for searching bots
    (``processes`` 0: they search in the thread pool too)."""

    def __init__(self, *, threads: int = THREADS, processes: int | None = None) -> None:
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="hkmj-think"
        )
        self._process_count = _search_workers() if processes is None else processes
        self._processes: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor | None:
        if self._process_count <= 0:
            return None
        with self._lock:
            if self._processes is None:
                self._processes = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self._process_count,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                    initargs=(_search_nice(),),
                )
            return self._processes

    def run(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(*args)`` in the thread pool, as a future of the running loop."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._threads, fn, *args)

    def choose(
        self, controller: Controller, view: PlayerView, legal: Sequence[Action]
    ) -> asyncio.Future[Action]:
        """The controller's choice, computed off the loop (a future of the running loop)."""
        legal = list(legal)
        if isinstance(controller, SearchBot):
            pool = self._pool()
            if pool is not None:
                return asyncio.ensure_future(self._search(pool, controller, view, legal))
        return self.run(controller.choose, view, legal)

    async def _search(
        self,
        pool: concurrent.futures.ProcessPoolExecutor,
        bot: SearchBot,
        view: PlayerView,
        legal: list[Action],
    ) -> Action:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                pool, search_choose, bot.seed, bot.ruleset, bot.digest, bot.rollouts, view, legal
            )
        except BrokenProcessPool:
            log.warning("the search worker process died; searching in a thread instead")
            with self._lock:
                if self._processes is pool:
                    self._processes = None
            pool.shutdown(wait=False, cancel_futures=True)
            return await self.run(bot.choose, view, legal)
        except Exception as exc:  # (e.g. a value that would not pickle): the same, here
            log.warning("searching in a worker process failed (%r); in a thread instead", exc)
            return await self.run(bot.choose, view, legal)

    def close(self) -> None:
        """Stop the pools (decisions in flight are dropped)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            pool, self._processes = self._processes, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_SHARED: list[Thinker] = []


def shared_thinker() -> Thinker:
    """The process's :class:`Thinker` (made on first use)."""
    if not _SHARED:
        _SHARED.append(Thinker())
    return _SHARED[0]
