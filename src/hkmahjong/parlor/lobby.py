"""大堂 (the lobby): every live table, creating practice and online tables, quick match, rebuild.

The lobby owns one :class:`~hkmahjong.parlor.table.Table` actor per open table. At start it
rebuilds every table the store says is not over (:meth:`Lobby.start`), so a restarted server
continues every match from its log. Lobby watchers (``/ws/lobby``) get the list of open online
tables again whenever one changes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from hkmahjong.engine.match import MatchLength
from hkmahjong.errors import MahjongError
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.clocks import PRACTICE_CLOCKS, Clock, ClockSettings
from hkmahjong.parlor.ledger import LedgerStore
from hkmahjong.parlor.ports import Connection, TableStore
from hkmahjong.parlor.seats import BOT_LEVELS
from hkmahjong.parlor.table import Table, TableConfig, TableError
from hkmahjong.parlor.wire import JSON, dumps
from hkmahjong.rules import Ruleset, get_preset

__all__ = ["PRACTICE_LENGTHS", "QUICK_STAKE", "Lobby"]

log = logging.getLogger(__name__)

QUICK_STAKE = 100
"""The stake of a quick-match table (parlor rules, 四局)."""
PRACTICE_LENGTHS = ("four-rounds", "8-hands", "16-hands", "bankruptcy", "one-hand", "east-round")
"""Seed 003: 四圈 / 8 / 16 hands / until bankrupt / one hand (and 東圈)."""


class Lobby:
    """The parlor's live tables."""

    def __init__(
        self,
        store: TableStore,
        *,
        ledger: LedgerStore | None = None,
        clock: Clock | None = None,
        online_clocks: ClockSettings | None = None,
    ) -> None:
        self.store = store
        self.ledger = ledger
        self.clock = clock
        self.online_clocks = online_clocks or ClockSettings()
        self.practice_clocks = PRACTICE_CLOCKS
        self.tables: dict[str, Table] = {}
        self.version = 0
        self.watchers: set[Connection] = set()

    def _kwargs(self) -> dict[str, Any]:
        return {"clock": self.clock, "ledger": self.ledger, "on_change": self._changed}

    async def start(self) -> list[str]:
        """Rebuild and start every table that is not over; the public ids rebuilt.

        A table whose log does not replay is aborted (stakes refunded), with the reason logged.
        """
        rebuilt = []
        for row in await self.store.open_tables():
            try:
                table = await Table.restore(self.store, row, **self._kwargs())
            except MahjongError as exc:
                log.error("table %s cannot be rebuilt: %s", row.public_id, exc)
                await self.store.audit(row.id, "aborted", f"the log does not replay: {exc}")
                await self.store.set_status(row.id, "aborted")
                continue
            self.tables[row.public_id] = table
            await table.start()
            rebuilt.append(row.public_id)
        return rebuilt

    async def stop(self) -> None:
        """Stop every actor (tables stay as stored)."""
        for table in list(self.tables.values()):
            await table.stop()

    def get(self, public_id: str) -> Table | None:
        """The live table, or None."""
        return self.tables.get(public_id)

    async def create(
        self, config: TableConfig, creator: tuple[int, str] | None, **settings: Any
    ) -> Table:
        """A new table, started."""
        table = await Table.create(
            self.store, config, creator=creator, **self._kwargs(), **settings
        )
        self.tables[table.public_id] = table
        await table.start()
        self._changed(table)
        return table

    async def practice(
        self,
        user: tuple[int, str],
        ruleset: Ruleset,
        *,
        length: str = "four-rounds",
        bots: Sequence[str] = ("normal", "normal", "normal"),
    ) -> Table:
        """練習: you and three bots, untimed, hints on, no stake.

        :raises TableError: for an unknown length or bot level.
        """
        if MatchLength.parse(length).value not in PRACTICE_LENGTHS:
            raise TableError("bad_config", f"practice lengths: {', '.join(PRACTICE_LENGTHS)}")
        levels = list(bots)
        if len(levels) != 3 or any(level not in BOT_LEVELS for level in levels):
            raise TableError(
                "bad_config", f"three bots of levels {', '.join(BOT_LEVELS)}, got {levels!r}"
            )
        config = TableConfig.of(
            "practice",
            ruleset,
            length=MatchLength.parse(length).value,
            clocks=self.practice_clocks,
            hints=True,
            bots=(None, *levels),
        )
        return await self.create(config, user)

    async def online(
        self,
        user: tuple[int, str],
        ruleset: Ruleset,
        *,
        stake: int = QUICK_STAKE,
        length: str = MatchLength.ONLINE.value,
        private: bool = False,
    ) -> Table:
        """A new online table with the creator seated.

        :raises TableError: when the creator cannot cover the stake.
        """
        self._check_balance(user[0], stake)
        config = TableConfig.of(
            "online",
            ruleset,
            length=MatchLength.parse(length).value,
            stake=stake,
            clocks=self.online_clocks,
            private=private,
        )
        return await self.create(config, user)

    def _check_balance(self, user_id: int, stake: int) -> None:
        if stake and self.ledger is not None:
            have = self.ledger.balance(f"user:{user_id}")
            if have < stake:
                raise TableError("balance", f"the buy-in is {stake} jade; you have {have}")

    async def quick(self, user: tuple[int, str]) -> Table:
        """快速配對: a seat at an open default online table, or a new one."""
        for table in self.tables.values():
            if (
                table.status == "waiting"
                and table.config.kind == "online"
                and not table.config.private
                and table.config.stake == QUICK_STAKE
                and table.config.rules.get("preset") == "parlor"
                and table.config.length == MatchLength.ONLINE.value
                and any(s.kind == "empty" for s in table.seats)
            ):
                await table.join(user[0], user[1])
                return table
        return await self.online(user, get_preset("parlor"))

    def listing(self) -> list[JSON]:
        """The open online tables anyone may see (private ones left out)."""
        out = []
        for table in self.tables.values():
            if table.open and table.config.kind == "online" and not table.config.private:
                info = table.info().to_json()
                del info["you"]
                out.append(info)
        return out

    def watch(self, conn: Connection) -> None:
        """Send the lobby to ``conn`` now and on every change."""
        self.watchers.add(conn)
        conn.send(dumps(proto.lobby_msg(self.version, self.listing())))

    def unwatch(self, conn: Connection) -> None:
        """Stop sending to ``conn``."""
        self.watchers.discard(conn)

    def _changed(self, table: Table) -> None:
        if table.config.kind != "online" or table.config.private:
            return
        self.version += 1
        if self.watchers:
            text = dumps(proto.lobby_msg(self.version, self.listing()))
            for conn in list(self.watchers):
                conn.send(text)
