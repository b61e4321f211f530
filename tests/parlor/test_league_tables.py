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

import pytest
from tests.parlor.tablekit import watch_send
from tests.parlor.test_table_jade import corrupt

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
from hkmahjong.parlor.ports import MemoryConnection, MemoryTableStore
from hkmahjong.parlor.table import TableError
from hkmahjong.rules import get_preset

QUICK = ClockSettings(
    turn_ms=300, claim_ms=200, bank_ms=0, grace_ms=1000, discard_delay_ms=0, bot_ms=0,
    next_hand_ms=0,
)  # fmt: skip


def world(players: int, **kw: Any) -> tuple[Lobby, LeagueDesk, FakeClock, MemoryLedger, League]:
    ledger = MemoryLedger()
    for u in range(1, players + 1):
        ledger.post_sync(grant(user_account(u), 1000, f"grant:{u}"))
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
            assert table is not None and not table.config.stake
            assert table.config.league == league.id and not table.config.private  # watchable
            assert table.config.rules["digest"] == league.config.digest
            seated = [s.user_id if s.kind == "human" else None for s in table.seats]
            assert seated == list(match.seats)  # the league's seat order, bots in the bot seats
            assert table.status == "playing"
        assert lobby.listing() == []  # league tables are on the league's page, not the lobby
        with pytest.raises(TableError, match=r"playing|full"):  # nobody else can sit down
            await table.join(99, "stranger")
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
        assert sum(p.amount for p in league.payouts) == 500 and ledger.balance_sync(FEES) == 50
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
        assert [ledger.balance_sync(user_account(u)) for u in range(1, 5)] == [1000] * 4
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


def test_a_league_table_cancelled_on_its_own_is_played_again_at_a_fresh_table() -> None:
    async def main() -> None:
        lobby, desk, clock, _ledger, league = world(4, rounds=1, length="one-hand")
        runner = LeagueTables(lobby, desk, interval=3600)
        await runner.start()
        first = lobby.get(table_public_id(league.id, 1, 1))
        assert first is not None and first.status == "playing"
        seats = [s.user_id for s in first.seats]
        await first.cancel("admin: a player reported a fault")  # hkmj admin cancel of that table
        await until(clock, lambda: getattr(lobby.get("lg1r1t1a2"), "status", "") == "playing")
        league = desk.get(league.id)
        match = league.rounds[0].matches[0]
        assert match.voided == (first.public_id,) and match.table_id == "lg1r1t1a2"
        assert league.log[-1].kind == "replayed" or league.log[-2].kind == "replayed"
        again = lobby.get(match.table_id)
        assert again is not None and [s.user_id for s in again.seats] == seats
        assert again.status == "playing" and again.row.match_seed != first.row.match_seed
        await until(clock, lambda: desk.get(league.id).status == "finished")
        league = desk.get(league.id)
        assert league.rounds[0].matches[0].points == tuple(
            round(p.jade) for p in again.info().players
        )
        await runner.stop()
        await lobby.stop()

    asyncio.run(main())


def test_a_league_table_aborted_at_restore_is_played_again() -> None:
    async def main() -> None:
        lobby, desk, clock, _ledger, league = world(4, rounds=1)
        await LeagueTables(lobby, desk, interval=3600).sync()
        public_id = table_public_id(league.id, 1, 1)
        table = lobby.get(public_id)
        store = lobby.store
        assert table is not None and isinstance(store, MemoryTableStore)
        await until(clock, lambda: any('"t":"hand"' in line for line in store.log[table.id]))
        await lobby.stop()
        corrupt(store, table.id)  # the server stops; its log no longer replays at the restart
        lobby = Lobby(store, clock=FakeClock(), online_clocks=QUICK)
        await lobby.start(watch=False)
        assert (await store.get(table.id)).status == "aborted"  # type: ignore[union-attr]
        await LeagueTables(lobby, desk, interval=3600).sync()
        match = desk.get(league.id).rounds[0].matches[0]
        assert match.voided == (public_id,) and match.table_id == f"{public_id}a2"
        assert lobby.get(match.table_id) is not None
        await lobby.stop()

    asyncio.run(main())


class DeskClock:
    """The league desk's clock, moved by hand (a virtual clock: no sleeps)."""

    def __init__(self) -> None:
        self.now = T0 + timedelta(days=2)

    def __call__(self) -> Any:
        return self.now


def test_a_round_whose_time_is_up_ends_its_tables_as_they_stand() -> None:
    async def main() -> None:
        lobby, desk, clock, _ledger, league = world(
            4, rounds=2, length="four-rounds", round_minutes=30
        )
        when = DeskClock()
        desk.clock = when
        runner = LeagueTables(lobby, desk, interval=3600)
        await runner.start()
        table = lobby.get(table_public_id(league.id, 1, 1))
        assert table is not None
        assert table.runner is not None
        await until(clock, lambda: table.runner is not None and len(table.runner.match.ledger) >= 1)
        when.now += timedelta(minutes=29)
        await runner.sync()
        assert table.status == "playing"  # not yet
        standing = tuple(round(p.jade) for p in table.info().players)
        when.now += timedelta(minutes=1)
        syncing = asyncio.create_task(runner.sync())
        for _ in range(1000):  # virtual time stands still until the result is in
            if len(desk.get(league.id).rounds) == 2:
                break
            await asyncio.sleep(0.01)
        await until(clock, syncing.done)  # then the table's actor runs on to its cancel
        league = desk.get(league.id)
        assert table.status == "cancelled"
        match = league.rounds[0].matches[0]
        assert match.points == standing  # the hands finished count
        assert any(d.kind == "time_up" for d in league.log) and len(league.rounds) == 2
        audits = [a for a in lobby.store.audits if a[0] == table.id]  # type: ignore[attr-defined]
        assert "minutes were up" in audits[-1][2]
        second = lobby.get(table_public_id(league.id, 2, 1))
        assert second is not None and second.status == "playing"
        await runner.stop()
        await lobby.stop()

    asyncio.run(main())


def test_anyone_may_watch_a_league_table() -> None:
    async def main() -> None:
        lobby, desk, clock, _ledger, league = world(4, rounds=1)
        await LeagueTables(lobby, desk, interval=3600).sync()
        table = lobby.get(table_public_id(league.id, 1, 1))
        assert table is not None
        conn = MemoryConnection()
        table.watch(conn)
        watch_send(table, conn, '{"t":"hello","proto":1}')
        await until(clock, lambda: len(conn.frames) > 3)
        assert '"t":"snapshot"' in conn.frames[0] and '"you":null' in conn.frames[0]
        await lobby.stop()

    asyncio.run(main())
