"""聯賽開檯 league rounds at real parlor tables (issue 18 "Leagues"): each match of a round gets
its own online table through the lobby, the entrants are seated in the league's seat order (bots
in the bot seats), each table's totals become the match's table points when it ends, the next
round opens by the standings, the league pays its prizes; a cancelled league's tables are cancelled
(seed 002 《取消》); a table that ended while nobody listened is collected from its stored log."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from hkmahjong.parlor.clocks import ClockSettings, FakeClock
from hkmahjong.parlor.league import (
    T0,
    League,
    LeagueConfig,
    LeagueDesk,
    MemoryLeagueStore,
    standings,
)
from hkmahjong.parlor.league_tables import LeagueTables, table_public_id
from hkmahjong.parlor.ledger import FEES, MemoryLedger, grant, user_account
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import MemoryTableStore
from hkmahjong.rules import get_preset

QUICK = ClockSettings(
    turn_ms=300, claim_ms=200, bank_ms=0, grace_ms=1000, discard_delay_ms=0, bot_ms=0,
    next_hand_ms=0,
)  # fmt: skip


def world(players: int, **kw: Any) -> tuple[Lobby, LeagueDesk, FakeClock, MemoryLedger, League]:
    ledger = MemoryLedger()
    for u in range(1, players + 1):
        ledger.post(grant(user_account(u), 1000, f"grant:{u}"))
    clock = FakeClock()
    lobby = Lobby(MemoryTableStore(), clock=clock, online_clocks=QUICK)
    desk = LeagueDesk(MemoryLeagueStore(ledger), clock=lambda: T0 + timedelta(days=2))
    settings: dict[str, Any] = {
        "signup_opens": T0,
        "signup_closes": T0 + timedelta(days=1),
        "length": "one-hand",
        "min_players": 2,
    }
    settings.update(kw)
    config = LeagueConfig.of("Table Cup", get_preset("ml"), **settings)
    league = desk.create(config, seed="tables")
    join_at = desk.clock
    desk.clock = lambda: T0
    for u in range(1, players + 1):
        desk.join(league.id, u, f"P{u}")
    desk.clock = join_at
    return lobby, desk, clock, ledger, desk.start(league.id)


async def until(clock: FakeClock, done: Callable[[], bool], limit: int = 40_000) -> None:
    """Move virtual time until ``done()`` (the tables' actors and the runner run in between)."""
    for _ in range(limit):
        if done():
            return
        clock.advance(0.05)
        await asyncio.sleep(0)
    raise AssertionError("never happened")


def test_a_league_plays_its_rounds_at_parlor_tables_to_the_prizes() -> None:
    async def main() -> None:
        lobby, desk, clock, ledger, league = world(5, stake=100, entry_fee=10, rounds=2)
        runner = LeagueTables(lobby, desk, interval=3600)
        await runner.start()
        league = desk.get(league.id)
        first = league.rounds[0]
        ids = [m.table_id for m in first.matches]
        assert ids == [table_public_id(league.id, 1, t) for t in (1, 2)]
        for match in first.matches:
            assert match.table_id is not None
            table = lobby.get(match.table_id)
            assert table is not None and table.config.private and not table.config.stake
            assert table.config.rules["digest"] == league.config.digest
            seated = [s.user_id if s.kind == "human" else None for s in table.seats]
            assert seated == list(match.seats)  # the league's seat order, bots in the bot seats
            assert table.status == "playing"
        assert lobby.listing() == []  # league tables are private: nobody else can sit down
        await until(clock, lambda: len(desk.get(league.id).rounds) == 2)
        league = desk.get(league.id)
        for match in league.rounds[0].matches:
            assert match.table_id is not None
            table = lobby.get(match.table_id)
            assert table is not None and table.status == "finished"
            assert match.points == tuple(round(p.jade) for p in table.info().players)
        second = league.rounds[1]
        by_rank = [s.user_id for s in standings(replace_round(league))]
        people = [s for m in second.matches for s in m.seats if s is not None]
        assert sorted(people) == sorted(by_rank)
        assert {s for s in second.matches[0].seats if s is not None} == set(by_rank[:3])
        await until(clock, lambda: desk.get(league.id).status == "finished")
        league = desk.get(league.id)
        assert sum(p.amount for p in league.payouts) == 500 and ledger.balance(FEES) == 50
        assert league.log[-1].kind == "finished"
        await runner.stop()
        await lobby.stop()

    asyncio.run(main())


def replace_round(league: League) -> League:
    """The league as it stood after round 1 (the standings round 2 was seated by)."""
    return replace(league, rounds=league.rounds[:1])


def test_a_cancelled_league_cancels_its_open_tables() -> None:
    async def main() -> None:
        lobby, desk, _clock, ledger, league = world(4, stake=100)
        runner = LeagueTables(lobby, desk, interval=3600)
        await runner.start()
        table = lobby.get(table_public_id(league.id, 1, 1))
        assert table is not None and table.status == "playing"
        league = desk.cancel(league.id, "the hall flooded")  # e.g. hkmj admin, another process
        assert league.status == "rolled_out"
        await runner.sync()
        assert table.status == "cancelled"
        audits = [a for a in lobby.store.audits if a[0] == table.id]  # type: ignore[attr-defined]
        assert audits and "the hall flooded" in audits[-1][2]
        assert [ledger.balance(user_account(u)) for u in range(1, 5)] == [1000] * 4
        await runner.stop()
        await lobby.stop()

    asyncio.run(main())


def test_a_table_that_ended_unheard_is_collected_from_its_log() -> None:
    async def main() -> None:
        lobby, desk, clock, _ledger, league = world(4, rounds=1, length="one-hand")
        runner = LeagueTables(lobby, desk, interval=3600)
        await runner.sync()  # opens the table; nobody listens for its end
        public_id = table_public_id(league.id, 1, 1)
        table = lobby.get(public_id)
        assert table is not None
        table.on_change = None  # as after a restart: the runner is not watching
        await until(clock, lambda: table.status == "finished")
        assert desk.get(league.id).status == "running"
        del lobby.tables[public_id]  # a restarted lobby rebuilds only open tables
        fresh = LeagueTables(lobby, desk, interval=3600)
        await fresh.sync()
        league = desk.get(league.id)
        assert league.status == "finished"
        assert league.rounds[0].matches[0].points == tuple(
            round(p.jade) for p in table.info().players
        )
        await lobby.stop()

    asyncio.run(main())
