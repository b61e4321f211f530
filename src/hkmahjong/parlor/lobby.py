"""大堂 (the lobby): every live table, creating practice and online tables, quick match, rebuild.

The lobby owns one :class:`~hkmahjong.parlor.table.Table` actor per open table. At start it
rebuilds every table the store says is not over (:meth:`Lobby.start`), so a restarted server
continues every match from its log. While it runs it watches the stored statuses
(:meth:`Lobby.check_closed`, every :data:`WATCH_SECONDS`): a table closed elsewhere (``hkmj admin
cancel`` on the database) stops and tells its seats, and cancels online tables that waited for
players longer than :attr:`Caps.waiting_s` (refunded, logged). Lobby watchers (``/ws/lobby``) get
the list of open online tables once, then only what changed (``lobby_diff``); a signed-in
watcher also hears ``your_table`` when a table they sit at starts (:meth:`Lobby.notify_players`).
Each player has at most :attr:`Caps.open_tables` open tables (a guest :attr:`Caps.guest_tables`):
:meth:`Lobby.admit` (docs/security.md, *Abuse limits*).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hkmahjong.engine.match import MatchLength
from hkmahjong.errors import MahjongError
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.accounts import user_account
from hkmahjong.parlor.clocks import PRACTICE_CLOCKS, Clock, ClockSettings, LoopClock
from hkmahjong.parlor.gallery import DEFAULT_LIMIT
from hkmahjong.parlor.ledger import LedgerStore
from hkmahjong.parlor.policy import listed_in_lobby
from hkmahjong.parlor.ports import OPEN_STATUSES, Connection, TableRow, TableStore
from hkmahjong.parlor.probes import TableProbe
from hkmahjong.parlor.stakes import stake_for
from hkmahjong.parlor.table import Table
from hkmahjong.parlor.terms import TableConfig, TableError, check_new
from hkmahjong.parlor.wire import JSON, dumps
from hkmahjong.rules import Ruleset, get_preset

__all__ = ["FILL_BOTS", "QUICK_LEVEL", "WATCH_SECONDS", "Caps", "Lobby", "quick_listed"]

log = logging.getLogger(__name__)

QUICK_LEVEL = 1
"""The level a quick match picks unless asked for another: the parlor's table value × 1 (192
jade, seed 002 牌桌價值; parlor rules, 四局)."""
FILL_BOTS = ("now", "on_start")
"""When an online table's chosen bots sit down: at once, or when the creator fills the seats."""
IDLE_PRACTICE = ("paused", "waiting")
"""A practice table in these has no one playing at it: the cap may close it (no jade at stake)."""
WATCH_SECONDS = 2.0
"""How often the lobby looks for tables closed elsewhere (one query for all live tables)."""


@dataclass(frozen=True, slots=True)
class Caps:
    """濫用上限 the lobby's abuse caps (the server's settings give them; docs/security.md)."""

    open_tables: int = 6
    """Open tables (waiting, playing, paused) a registered player may sit at."""
    guest_tables: int = 2
    """Open tables a guest may sit at."""
    waiting_s: float = 1800.0
    """An online table still waiting for players this long is cancelled (refunded, logged)."""

    def __post_init__(self) -> None:
        if min(self.open_tables, self.guest_tables) < 1 or self.waiting_s <= 0:
            raise ValueError(f"caps must be positive: {self}")


class Lobby:
    """The parlor's live tables."""

    def __init__(
        self,
        store: TableStore,
        *,
        ledger: LedgerStore | None = None,
        clock: Clock | None = None,
        online_clocks: ClockSettings | None = None,
        watch_limit: int = DEFAULT_LIMIT,
        caps: Caps | None = None,
        probe: TableProbe | None = None,
    ) -> None:
        self.store = store
        self.probe = probe
        """Given to every table (operators' metrics: :mod:`~hkmahjong.parlor.probes`)."""
        self.caps = caps or Caps()
        self.watch_limit = watch_limit
        self.ledger = ledger
        self.clock = clock
        self.online_clocks = online_clocks or ClockSettings()
        self.practice_clocks = PRACTICE_CLOCKS
        self.tables: dict[str, Table] = {}
        self.version = 0
        self.watchers: set[Connection] = set()
        self._watch: asyncio.Task[None] | None = None
        self.remote_listing: list[JSON] = []
        """The open online tables of the other server processes (several processes: kept up to
        date by ``hkmahjong.server.cluster``), listed after this process's own."""
        self.on_listing: Callable[[], None] | None = None
        """Called when this process's listing changed (several processes: tell the others)."""
        self._listed: dict[str, JSON] = {}
        """What the watchers were last told of this process's tables, by public id."""
        self._remote_listed: dict[str, JSON] = {}
        """What they were last told of the other processes' tables."""
        self._users: dict[int, set[Connection]] = {}
        """The lobby sockets of each signed-in player (``your_table``)."""
        self._user_of: dict[int, int] = {}
        """The player of each such socket, by ``id()``."""
        self._waiting_since: dict[str, float] = {}
        """When each online table began waiting for players (by the lobby's clock)."""
        self._time: Clock | None = clock
        self.on_table_started: Callable[[Table], None] | None = None
        """Called with a table whose match just started, after its players' lobby sockets were
        told (a hook for other listeners)."""

    def _kwargs(self) -> dict[str, Any]:
        return {
            "clock": self.clock,
            "ledger": self.ledger,
            "on_change": self._changed,
            "on_start": self.notify_players,
            "watch_limit": self.watch_limit,
            "probe": self.probe,
        }

    async def start(self, *, watch: bool = True, rebuild: bool = True) -> list[str]:
        """Rebuild and start every table that is not over (unless ``rebuild`` is false: several
        processes adopt tables one by one, :meth:`adopt`); the public ids rebuilt. Then watch
        for tables closed elsewhere (unless ``watch`` is false).

        A table whose log does not replay is aborted with the reason logged, its stakes and fees
        refunded (:meth:`Table.restore`); one whose settings cannot even be read is aborted too.
        """
        rebuilt = []
        for row in await self.store.open_tables() if rebuild else []:
            if await self._rebuild(row) is not None:
                rebuilt.append(row.public_id)
        if watch and self._watch is None:
            self._watch = asyncio.create_task(self._watch_closed(), name="lobby-watch")
        return rebuilt

    async def adopt(self, row: TableRow) -> Table | None:
        """Rebuild one table from the store and start it, and tell the lobby's watchers (None:
        it could not be rebuilt and was aborted)."""
        table = await self._rebuild(row)
        if table is not None:
            self._changed(table)
        return table

    async def _rebuild(self, row: TableRow) -> Table | None:
        try:
            table = await Table.restore(self.store, row, **self._kwargs())
        except MahjongError as exc:
            log.error("table %s cannot be rebuilt: %s", row.public_id, exc)
            await self.store.audit(row.id, "aborted", f"the table cannot be rebuilt: {exc}")
            await self.store.set_status(row.id, "aborted")
            return None
        self.tables[row.public_id] = table
        await table.start()
        self._track_waiting(table)
        return table

    async def drop(self, public_id: str, code: int, reason: str) -> bool:
        """Stop a live table here without any change to the store (another process took it
        over, or this one hands it over) and close its sockets with ``code`` so that the clients
        reconnect; False when it was not live here."""
        table = self.tables.pop(public_id, None)
        if table is None:
            return False
        await table.stop()
        for seat in table.seats:
            if seat.conn is not None:
                seat.conn.close(code, reason)
        table.gallery.close_all(code, reason)
        self._changed(table)
        return True

    async def stop(self, *, drain_s: float = 0.0) -> None:
        """Stop watching and every actor (tables stay as stored); ``drain_s`` > 0: each table
        first handles what its queue holds (its commits in flight end), all at once, for at most
        that long (:meth:`Table.stop`)."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        tables = list(self.tables.values())
        if drain_s > 0:
            await asyncio.gather(*(t.stop(drain_s=drain_s) for t in tables))
        for table in tables:
            await table.stop()

    async def _watch_closed(self) -> None:
        clock = self.clock or LoopClock()
        while True:
            await clock.sleep(WATCH_SECONDS)
            try:
                await self.check_closed()
                await self.follow_requests()
            except Exception:  # a database hiccup: look again next time
                log.exception("lobby: checking the tables' statuses failed")
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("lobby: cancelling the tables that waited too long failed")

    async def check_closed(self) -> list[str]:
        """Stop every live table the store says is over (closed elsewhere); their public ids."""
        live = {t.id: t for t in self.tables.values() if t.open}
        if not live:
            return []
        closed = []
        for ident, status in (await self.store.statuses(list(live))).items():
            if status not in OPEN_STATUSES and live[ident].open:
                await live[ident].closed_elsewhere(status)
                closed.append(live[ident].public_id)
        return closed

    async def follow_requests(self) -> list[str]:
        """Hand every operator's cancel request for a live table here (``hkmj admin cancel``)
        to that table's actor, which cancels it — refunds, logs, tells its seats — as its own
        command; their public ids."""
        live = {t.id: t for t in self.tables.values() if t.open}
        if not live:
            return []
        done = []
        for ident, reason in (await self.store.cancel_requests(list(live))).items():
            table = live[ident]
            if table.open:
                await table.cancel(reason)
                done.append(table.public_id)
        return done

    def get(self, public_id: str) -> Table | None:
        """The live table, or None."""
        return self.tables.get(public_id)

    async def create(
        self, config: TableConfig, creator: tuple[int, str] | None, **settings: Any
    ) -> Table:
        """A new table, started, once every term is checked (:func:`~hkmahjong.parlor.terms.
        check_new`: nothing is stored and no jade moves for a table that cannot be played).

        :raises TableError: ``bad_config`` naming the term that is wrong.
        """
        check_new(config)
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
        length: str | None = None,
        bots: Sequence[str] = ("normal", "normal", "normal"),
        watch_delay_ms: int | None = None,
    ) -> Table:
        """練習: you and three bots, untimed, hints on, no stake (``length``: one the ruleset
        offers a practice table, :meth:`MatchLength.offered`, default its first;
        ``watch_delay_ms``: how far spectators are behind; None: one hand-turn).

        :raises TableError: ``bad_config`` naming the term that is wrong (a length the ruleset
            does not offer practice, bot levels).
        """
        levels = tuple(bots)
        if len(levels) != 3:
            raise TableError("bad_config", f"bots: three bot levels, not {list(levels)!r}", "bots")
        config = TableConfig.of(
            "practice",
            ruleset,
            length=_length("practice", ruleset, length).value,
            clocks=self.practice_clocks,
            hints=True,
            bots=(None, *levels),
            watch_delay_ms=watch_delay_ms,
        )
        return await self.create(config, user)

    async def online(
        self,
        user: tuple[int, str],
        ruleset: Ruleset,
        *,
        level: int = QUICK_LEVEL,
        length: str | None = None,
        private: bool = False,
        fee: int = 0,
        watch_delay_ms: int | None = None,
        bots: Sequence[str] = (),
        fill_bots: str = "now",
    ) -> Table:
        """A new online table with the creator seated.

        ``level``: the stake unit — the stake is the table value × it (seed 002 牌桌價值,
        :func:`~hkmahjong.parlor.stakes.stake_for`); ``length``: one the ruleset offers an online
        table, default its first (四局 under the parlor's rules); ``fee``: the entry fee besides
        the stake; ``bots``: up to three bot levels for the empty seats, seated now
        (``fill_bots="now"``) or kept for when the creator fills the seats (``"on_start"``);
        ``watch_delay_ms``: how far spectators are behind, None: one hand-turn.

        :raises TableError: ``bad_config`` naming the term that is wrong, or ``balance`` when the
            creator cannot cover the buy-in (stake and fee).
        """
        chosen = tuple(bots)
        if len(chosen) > 3:
            raise TableError("bad_config", f"bots: at most three, not {list(chosen)!r}", "bots")
        if fill_bots not in FILL_BOTS:
            raise TableError(
                "bad_config", f"fill_bots: {' or '.join(FILL_BOTS)}, not {fill_bots!r}", "fill_bots"
            )
        now = fill_bots == "now"
        seated = (None, *(chosen if now else ()), None, None, None)[:4]
        try:
            stake = stake_for(ruleset, level)
        except MahjongError as exc:
            raise TableError("bad_config", f"level: {exc}", "level") from None
        config = TableConfig.of(
            "online",
            ruleset,
            length=_length("online", ruleset, length).value,
            stake=stake,
            level=level,
            fee=fee,
            clocks=self.online_clocks,
            private=private,
            watch_delay_ms=watch_delay_ms,
            bots=seated,
            bots_on_start=() if now else chosen,
        )
        check_new(config)
        await self._check_balance(user[0], config.buy_in)
        return await self.create(config, user)

    async def _check_balance(self, user_id: int, buy_in: int) -> None:
        if buy_in and self.ledger is not None:
            have = await self.ledger.balance(user_account(user_id))
            if have < buy_in:
                raise TableError("balance", f"the buy-in is {buy_in} jade; you have {have}")

    async def quick(self, user: tuple[int, str], level: int = QUICK_LEVEL) -> Table:
        """快速配對: a seat at an open default online table of ``level``, or a new one."""
        table = self.quick_table(level)
        if table is not None:
            await table.join(user[0], user[1])
            return table
        return await self.online(user, get_preset("parlor"), level=level)

    def quick_table(self, level: int = QUICK_LEVEL) -> Table | None:
        """An open default online table of ``level`` with a free seat here (quick match), or
        None."""
        for table in self.tables.values():
            if (
                table.status == "waiting"
                and table.config.kind == "online"
                and not table.config.private
                and table.config.level == level
                and table.config.stake == stake_for(get_preset("parlor"), level)
                and table.config.fee == 0
                and table.config.rules.get("preset") == "parlor"
                and table.config.league is None
                and table.config.length == MatchLength.ONLINE.value
                and any(s.kind == "empty" for s in table.seats)
            ):
                return table
        return None

    def listing(self) -> list[JSON]:
        """The open online tables anyone may see (private ones and league tables left out);
        several processes: this one's, then the others' (:attr:`remote_listing`)."""
        return self.local_listing() + self.remote_listing

    def local_listing(self) -> list[JSON]:
        """The open online tables of this process anyone may see."""
        out = []
        for table in self.tables.values():
            entry = self._entry(table)
            if entry is not None:
                out.append(entry)
        return out

    @staticmethod
    def _entry(table: Table) -> JSON | None:
        """A table as the lobby lists it, or None when it is not listed."""
        config = table.config
        if not table.open or not listed_in_lobby(
            config.kind, private=config.private, league=config.league
        ):
            return None
        info = table.info().to_json()
        del info["you"]
        return info

    # --- watchers: the listing once, then its changes -----------------------------------------
    def watch(self, conn: Connection, user_id: int | None = None) -> None:
        """Send the lobby to ``conn`` now (``lobby``) and its changes after (``lobby_diff``);
        ``user_id``: the signed-in player at the other end, told of their own tables
        (``your_table``)."""
        self._sync_local()
        self.watchers.add(conn)
        if user_id is not None:
            self._users.setdefault(user_id, set()).add(conn)
            self._user_of[id(conn)] = user_id
        listing = [*self._listed.values(), *self._remote_listed.values()]
        conn.send(dumps(proto.lobby_msg(self.version, listing)))

    def unwatch(self, conn: Connection) -> None:
        """Stop sending to ``conn``."""
        self.watchers.discard(conn)
        user_id = self._user_of.pop(id(conn), None)
        if user_id is not None:
            mine = self._users.get(user_id)
            if mine is not None:
                mine.discard(conn)
                if not mine:
                    del self._users[user_id]

    def notify_players(self, table: Table) -> None:
        """Tell the players seated at ``table`` on their lobby sockets that its status changed
        (``your_table``; the table calls it when it starts)."""
        text = None
        for seat in table.seats:
            if seat.user_id is None or not seat.human:
                continue
            for conn in list(self._users.get(seat.user_id, ())):
                if text is None:
                    text = dumps(proto.your_table_msg(table.public_id, table.status))
                conn.send(text)
        if self.on_table_started is not None:
            self.on_table_started(table)

    def _changed(self, table: Table) -> None:
        self._track_waiting(table)
        config = table.config
        if not listed_in_lobby(config.kind, private=config.private, league=config.league):
            return
        entry = self._entry(table) if self.tables.get(table.public_id) is table else None
        if self._listed.get(table.public_id) == entry:
            return
        if entry is None:
            del self._listed[table.public_id]
            self._send_diff([], [table.public_id])
        else:
            self._listed[table.public_id] = entry
            self._send_diff([entry], [])
        if self.on_listing is not None:
            self.on_listing()

    def _sync_local(self) -> None:
        """Bring :attr:`_listed` (and the watchers) up to this process's tables as they are."""
        fresh = {entry["id"]: entry for entry in self.local_listing()}
        upsert = [entry for key, entry in fresh.items() if self._listed.get(key) != entry]
        remove = [key for key in self._listed if key not in fresh]
        for key in remove:
            del self._listed[key]
        for entry in upsert:
            self._listed[entry["id"]] = entry
        if upsert or remove:
            self._send_diff(upsert, remove)

    def refresh(self) -> None:
        """The other processes' listing changed (:attr:`remote_listing`): tell the watchers
        what changed."""
        fresh = {entry["id"]: entry for entry in self.remote_listing}
        old = self._remote_listed
        upsert = [entry for key, entry in fresh.items() if old.get(key) != entry]
        remove = [key for key in old if key not in fresh]
        self._remote_listed = fresh
        if upsert or remove:
            self._send_diff(upsert, remove)

    def _send_diff(self, upsert: list[JSON], remove: list[str]) -> None:
        self.version += 1
        if self.watchers:
            text = dumps(proto.lobby_diff_msg(self.version, upsert, remove))
            for conn in list(self.watchers):
                conn.send(text)

    # --- abuse caps ---------------------------------------------------------------------------
    def open_tables_of(self, user_id: int) -> list[Table]:
        """The open tables of this process where ``user_id`` sits, oldest first."""
        return [t for t in self.tables.values() if t.open and t.player_of(user_id) is not None]

    def _cap(self, guest: bool) -> int:
        return self.caps.guest_tables if guest else self.caps.open_tables

    def _idle(self, tables: list[Table]) -> list[Table]:
        return [t for t in tables if t.config.kind == "practice" and t.status in IDLE_PRACTICE]

    def admit(self, user_id: int, *, guest: bool) -> None:
        """Whether ``user_id`` may sit at one more table (to create or join one): under the cap,
        or at it with practice tables nobody plays at (paused, or never started) that
        :meth:`trim` will close once the new table is made.

        :raises TableError: ``too_many_tables``, saying how many and what to do.
        """
        cap = self._cap(guest)
        mine = self.open_tables_of(user_id)
        if len(mine) - len(self._idle(mine)) >= cap:
            raise TableError(
                "too_many_tables",
                f"you sit at {len(mine)} open tables, and a player may have {cap}: "
                "finish or leave one first",
            )

    async def trim(self, user_id: int, *, guest: bool, keep: Table | None = None) -> list[str]:
        """Close ``user_id``'s oldest idle practice tables past the cap (no jade is at stake at
        them; ``keep``: the table just made or joined); their ids."""
        cap = self._cap(guest)
        mine = self.open_tables_of(user_id)
        closed = []
        for table in self._idle([t for t in mine if t is not keep])[: max(0, len(mine) - cap)]:
            log.info("table %s closed: its player opened another past the cap", table.public_id)
            await table.cancel(f"closed to make room: a player may have {cap} open tables")
            closed.append(table.public_id)
        return closed

    def _now(self) -> float:
        if self._time is None:
            self._time = LoopClock()
        return self._time.now()

    def _track_waiting(self, table: Table) -> None:
        config = table.config
        waits = table.status == "waiting" and config.kind == "online" and not config.league
        if not waits or self.tables.get(table.public_id) is not table:
            self._waiting_since.pop(table.public_id, None)
        elif table.public_id not in self._waiting_since:
            self._waiting_since[table.public_id] = self._now()

    async def expire_waiting(self) -> list[str]:
        """Cancel every online table that waited for players longer than
        :attr:`Caps.waiting_s` (its seats get their jade back, the audit says why); their ids."""
        limit = self.caps.waiting_s
        now = self._now()
        expired = []
        for public_id, since in list(self._waiting_since.items()):
            table = self.tables.get(public_id)
            if table is None or table.status != "waiting":
                self._waiting_since.pop(public_id, None)
                continue
            if now - since >= limit:
                log.info("table %s expired: waiting for players over %g s", public_id, limit)
                await table.cancel(f"expired: no full table after waiting {limit:g} s")
                self._waiting_since.pop(public_id, None)
                expired.append(public_id)
        return expired


def _length(kind: str, ruleset: Ruleset, text: str | None) -> MatchLength:
    """The length a new table of ``kind`` plays: ``text`` when the ruleset offers it that kind of
    table (:meth:`MatchLength.for_table`), else the first it offers.

    :raises TableError: ``bad_config`` naming the lengths it offers.
    """
    try:
        if text is None:
            return MatchLength.offered(kind, ruleset.match_lengths)[0]
        return MatchLength.for_table(kind, ruleset.match_lengths, text)
    except (MahjongError, IndexError) as exc:
        message = str(exc) or f"no {kind} length offered"
        raise TableError("bad_config", f"length: {message}", "length") from None


def quick_listed(info: JSON, level: int = QUICK_LEVEL) -> bool:
    """Whether a lobby listing entry (another process's table) is a quick-match table of
    ``level`` with a free seat: the same test as :meth:`Lobby.quick_table`, on the listed facts."""
    return (
        info.get("status") == "waiting"
        and info.get("kind") == "online"
        and not info.get("private")
        and info.get("level") == level
        and info.get("stake") == stake_for(get_preset("parlor"), level)
        and info.get("fee", 0) == 0
        and (info.get("rules") or {}).get("preset") == "parlor"
        and info.get("length") == MatchLength.ONLINE.value
        and any(p.get("kind") == "empty" for p in info.get("players", []))
    )
