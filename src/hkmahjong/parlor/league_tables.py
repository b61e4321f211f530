"""聯賽開檯 league rounds played at the parlor's online tables.

:class:`LeagueTables` keeps every running league's current round on the tables of the
:class:`~hkmahjong.parlor.lobby.Lobby`, through the table's own API (``Lobby.create``,
``Table.join``, ``Table.cancel``, ``Table.info``) and the league's (:class:`LeagueDesk`):

- each match of the round gets one private online table, ``lg{league}r{round}t{table}``, with no
  stake (a league's jade is its fee and pool), the league's ruleset and match length, bots of the
  league's level in the bot seats, and the entrants joined in seat order — the match starts at once
  and an entrant who does not come is sat out and played for, as at any online table (seed 002
  《斷線》);
- when a table's match ends, its totals (the players' table points, rounded to whole points) are
  the match's result (:meth:`LeagueDesk.record`); the round after it is seated by the standings
  and opened at once, and after the last round the league pays its prizes;
- a league cancelled (by ``hkmj admin league cancel``, another process) has its open tables
  cancelled too, with the reason.

Every step is idempotent and :meth:`sync` repeats them all from the stored state, so it runs when
the server starts and every ``interval`` seconds (a league started from the command line, a table
that ended while the server was down); a table's end also triggers it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.league import (
    League,
    LeagueDesk,
    LeagueError,
    LeagueMatch,
    round_deadline,
)
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.table import Table, TableConfig

__all__ = ["LeagueTables", "table_public_id"]

log = logging.getLogger(__name__)

_ID = re.compile(r"lg(\d+)r(\d+)t(\d+)(?:a(\d+))?")


def table_public_id(league_id: int, round_no: int, table: int, attempt: int = 1) -> str:
    """The public id of a league match's table: ``lg5r2t3`` (league 5, round 2, table 3), and
    ``lg5r2t3a2`` for the match's second table (after the first was cancelled on its own)."""
    base = f"lg{int(league_id)}r{int(round_no)}t{int(table)}"
    return base if attempt <= 1 else f"{base}a{int(attempt)}"


def _league_of(public_id: str) -> int | None:
    found = _ID.fullmatch(public_id)
    return None if found is None else int(found.group(1))


def _points(totals: Sequence[int | float]) -> list[int]:
    return [round(t) for t in totals]


class LeagueTables:
    """Plays running leagues' rounds at the lobby's tables (see the module's description)."""

    def __init__(self, lobby: Lobby, desk: LeagueDesk, *, interval: float = 5.0) -> None:
        self.lobby = lobby
        self.desk = desk
        self.interval = interval
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._watched: set[str] = set()
        self._pending: set[asyncio.Task[League]] = set()

    async def start(self) -> None:
        """Sync once, then every ``interval`` seconds until :meth:`stop`."""
        await self.sync()
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="league-tables")

    async def stop(self) -> None:
        """Stop syncing (tables and leagues stay as stored)."""
        tasks: list[asyncio.Task[Any]] = [*self._pending]
        if self._task is not None:
            tasks.append(self._task)
        self._task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sync()
            except Exception:  # a bad league must not stop the others' rounds
                log.exception("league tables: sync failed")

    async def sync(self) -> None:
        """Open, collect and close league tables as the stored leagues say."""
        running = await asyncio.to_thread(self.desk.store.leagues, "running")
        for league in running:
            try:
                await self.sync_league(league.id)
            except MahjongError as exc:
                log.error("league %s: %s", league.id, exc)
        await self._close_cancelled()

    async def sync_league(self, league_id: int) -> League:
        """Bring one league's current round up to date: open its tables, record ended matches,
        open the next round when one was seated; the league after."""
        async with self._lock:
            league = await asyncio.to_thread(self.desk.get, league_id)
            seen = -1
            while league.status == "running" and league.version != seen:
                seen = league.version
                league = await self._time_up(league)
                if league.version != seen:
                    continue
                rnd = league.current_round
                assert rnd is not None
                for match in rnd.matches:
                    if not match.over:
                        league = await self._play(league, match)
                        if league.version != seen:
                            break
            await self._close_decided(league)
            return league

    async def _time_up(self, league: League) -> League:
        """夠鐘: when the current round's time is up (by the desk's clock), every match still
        being played ends as its table stands — the totals of the hands it finished
        (:func:`~hkmahjong.parlor.league.time_up`); its table is then closed."""
        due = round_deadline(league)
        if due is None or self.desk.clock() < due:
            return league
        rnd = league.current_round
        assert rnd is not None
        standing: dict[int, list[int]] = {}
        for match in rnd.matches:
            table = None if match.table_id is None else self.lobby.get(match.table_id)
            if not match.over and table is not None and table.open:
                standing[match.table] = _points([p.jade for p in table.info().players])
        try:
            return await asyncio.to_thread(self.desk.time_up, league.id, standing)
        except LeagueError as exc:
            log.error("league %s: time up: %s", league.id, exc)
            return await asyncio.to_thread(self.desk.get, league.id)

    async def _close_decided(self, league: League) -> None:
        """Close every open table of a match whose result is in without it (its round's time
        was up, or the result was recorded by hand)."""
        for rnd in league.rounds:
            for match in rnd.matches:
                table = None if match.table_id is None else self.lobby.get(match.table_id)
                if match.over and table is not None and table.open:
                    why = next(
                        (
                            d.reason
                            for d in reversed(league.log)
                            if f"round {rnd.number} table {match.table}:" in d.reason
                        ),
                        "the match's result is in",
                    )
                    await table.cancel(f"league {league.config.name}: {why}")

    async def _play(self, league: League, match: LeagueMatch) -> League:
        public_id = match.table_id or table_public_id(
            league.id, match.round, match.table, match.attempt
        )
        if match.table_id is None:
            league = await asyncio.to_thread(
                self.desk.link, league.id, match.round, match.table, public_id
            )
        table = self.lobby.get(public_id)
        if table is None:
            row = await self.lobby.store.find(public_id)
            if row is None:
                table = await self._open(league, match, public_id)
            elif row.status == "finished":
                totals = await self._stored_totals(row.id)
                return await self._record(league, match, totals)
            elif row.status in ("cancelled", "aborted"):
                return await self._replay(league, match, public_id, row.status)
            else:
                log.warning("league %s: table %s is %s", league.id, public_id, row.status)
                return league
        self._watch(table)
        await self._seat(table, league, match)
        if table.status == "finished":
            totals = [p.jade for p in table.info().players]
            return await self._record(league, match, totals)
        if table.status in ("cancelled", "aborted"):
            return await self._replay(league, match, public_id, table.status)
        return league

    async def _replay(
        self, league: League, match: LeagueMatch, public_id: str, status: str
    ) -> League:
        """The match's table was cancelled or aborted on its own: the league plays the match
        again at a fresh table (:func:`~hkmahjong.parlor.league.replay_match`)."""
        reason = f"{status}; its reason is in the table's audit"
        try:
            return await asyncio.to_thread(
                self.desk.replay, league.id, match.round, match.table, public_id, reason
            )
        except LeagueError as exc:
            log.error("league %s: replaying %s: %s", league.id, match, exc)
            return await asyncio.to_thread(self.desk.get, league.id)

    async def _open(self, league: League, match: LeagueMatch, public_id: str) -> Table:
        c = league.config
        config = TableConfig.of(
            "online",
            c.ruleset,
            length=c.length,
            stake=None,
            clocks=self.lobby.online_clocks,
            bots=tuple(c.bot_level if s is None else None for s in match.seats),
            league=league.id,
        )
        names = {e.user_id: e.name for e in league.entrants}
        people = [None if s is None else (s, names.get(s, f"player {s}")) for s in match.seats]
        return await self.lobby.create(config, None, public_id=public_id, people=people)

    async def _seat(self, table: Table, league: League, match: LeagueMatch) -> None:
        """Join the entrants in seat order (a no-op for those already seated)."""
        if table.status != "waiting":
            return
        names = {e.user_id: e.name for e in league.entrants}
        for user in match.seats:
            if user is not None:
                await table.join(user, names.get(user, f"player {user}"), table.row.invite_token)

    async def _record(
        self, league: League, match: LeagueMatch, totals: Sequence[int | float]
    ) -> League:
        try:
            return await asyncio.to_thread(
                self.desk.record, league.id, match.round, match.table, _points(totals)
            )
        except LeagueError as exc:
            log.error("league %s: the result of %s: %s", league.id, match, exc)
            return await asyncio.to_thread(self.desk.get, league.id)

    async def _stored_totals(self, table_id: int) -> list[int | float]:
        for line in reversed(await self.lobby.store.lines(table_id)):
            obj = json.loads(line)
            if obj.get("t") == "match_end":
                return list(obj["totals"])
        raise LeagueError("bad_result", f"table {table_id} is finished without a match_end line")

    def _watch(self, table: Table) -> None:
        if table.public_id in self._watched:
            return
        self._watched.add(table.public_id)
        before = table.on_change

        def changed(t: Table) -> None:
            if before is not None:
                before(t)
            league_id = _league_of(t.public_id)
            if not t.open and league_id is not None:
                task = asyncio.create_task(self.sync_league(league_id))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

        table.on_change = changed

    async def _close_cancelled(self) -> None:
        for public_id, table in list(self.lobby.tables.items()):
            league_id = _league_of(public_id)
            if league_id is None or not table.open:
                continue
            league = await asyncio.to_thread(self.desk.store.get, league_id)
            if league is not None and league.over:
                reason = league.log[-1].reason if league.log else league.status
                await table.cancel(f"league {league.config.name} is {league.status}: {reason}")
