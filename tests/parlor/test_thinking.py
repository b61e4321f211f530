"""Bots at a table decide off the event loop with deterministic budgets (issue 32 items 1, 2):
the same choice on a fast or a slow machine, in a thread or in a worker process."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator

import pytest

from hkmahjong.bots.strong import StrongBot
from hkmahjong.engine.actions import Action
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.view import PlayerView
from hkmahjong.parlor.seats import BOT_LEVELS, SearchBot, make_bot
from hkmahjong.parlor.thinking import Thinker
from hkmahjong.rules import get_preset

RULES = get_preset("parlor")


def decisions(seed: int, limit: int) -> Iterator[tuple[PlayerView, list[Action]]]:
    """The decisions of seat 1 in a hand played by ``strong`` (turns and claim windows)."""
    match = Match(("a", "b", "c", "d"), MatchLength.parse("one-hand"))
    runner = MatchRunner(match, RULES, seed.to_bytes(32, "big"))
    bots = [StrongBot(f"x{i}", ruleset=RULES, time_budget=3600) for i in range(4)]
    runner.start_hand()
    n = 0
    while runner.in_hand and n < limit:
        player = runner.to_act_players[0]
        view, legal = runner.view(player), runner.legal(player)
        if player == 1 and len(legal) > 1:
            n += 1
            yield view, legal
        runner.apply(player, bots[player].choose(view, legal))


def test_the_tables_bots_choose_the_same_however_slow_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wall-clock budget made a bot's choice depend on load (issue 32); at a table no budget
    binds: with a clock running 200 ms per reading (a machine thousands of times slower) every
    level, ``master`` included, makes exactly the choices it makes here."""
    cases = list(decisions(5, 24))
    assert len(cases) >= 20
    for level in BOT_LEVELS:
        fast = make_bot(level, "seat:1", RULES)
        normal = [fast.choose(v, legal) for v, legal in cases]
        ticks = itertools.count()
        with monkeypatch.context() as m:
            m.setattr(time, "perf_counter", lambda ticks=ticks: next(ticks) * 0.2)
            slow = make_bot(level, "seat:1", RULES)
            crawled = [slow.choose(v, legal) for v, legal in cases]
        assert crawled == normal, level


def test_a_wall_clock_budget_would_have_changed_the_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The test above can fail: under the same slow clock, the default 0.5 s budget that the
    table's bots had before changes some of ``strong``'s choices."""
    cases = list(decisions(5, 24))
    normal = [StrongBot(1, ruleset=RULES).choose(v, legal) for v, legal in cases]
    ticks = itertools.count()
    with monkeypatch.context() as m:
        m.setattr(time, "perf_counter", lambda: next(ticks) * 0.2)
        budgeted = StrongBot(1, ruleset=RULES)
        crawled = [budgeted.choose(v, legal) for v, legal in cases]
    assert crawled != normal


def test_master_searches_in_a_worker_process_and_chooses_as_it_would_here() -> None:
    """大師 at a table thinks in a worker process; its choice is the one it makes in this
    process (fixed samples, seeded by the table and the view)."""
    cases = list(decisions(4, 11))  # decisions 5, 7 and 10 are searched (near-tie calls)
    bot = SearchBot("table:1", RULES)
    local = SearchBot("table:1", RULES)
    here, searched = [], 0
    for v, legal in cases:
        here.append(local.choose(v, legal))
        searched += local.bot().last_rollouts == 8
    assert searched == 3

    async def main() -> list[Action]:
        thinker = Thinker(processes=1)
        try:
            return [await thinker.choose(bot, v, legal) for v, legal in cases]
        finally:
            thinker.close()

    assert asyncio.run(main()) == here
    assert bot._bot is None, "the worker process searched, not this one"
