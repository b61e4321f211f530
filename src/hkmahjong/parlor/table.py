"""枱 (a parlor table): one asyncio actor per table, its log the game record.

Everything that happens at a table — a client's frame, a connection or disconnection, a clock
running out, a bot's turn, a join or a cancel — is a message in the table's queue, handled one at
a time by :meth:`Table.run`. The match itself is the engine's :class:`MatchRunner`: every action
is validated by the engine, its record lines are **committed through the store before** any seat
is told, and each seat receives only ``event.for_seat(seat)`` and its ``PlayerView``, as the
versioned messages of docs/protocol.md. A table is rebuilt from its log by replay
(:meth:`Table.restore`), so a killed server continues every hand where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hkmahjong.bots.advice import advise
from hkmahjong.engine.actions import Action
from hkmahjong.engine.events import EventKind
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import Controller
from hkmahjong.engine.runner import MatchRunner, StepResult
from hkmahjong.engine.view import Phase
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor import stakes
from hkmahjong.parlor.clocks import Clock, LoopClock, SeatClock, TimerHandle
from hkmahjong.parlor.gallery import CLOSE_FULL, DEFAULT_LIMIT, Gallery, Point
from hkmahjong.parlor.history import (
    HandSummary,
    MatchSummary,
    TableFacts,
    TableResults,
    ruleset_family,
    summarize_hand_end,
    summarize_match,
)
from hkmahjong.parlor.ledger import InsufficientJadeError, LedgerStore, Transaction, can_cover
from hkmahjong.parlor.ports import OPEN_STATUSES, Connection, SeatRow, TableRow, TableStore
from hkmahjong.parlor.ring import Ring
from hkmahjong.parlor.seats import SeatStatus, make_bot, passive_choice
from hkmahjong.parlor.terms import TableConfig, TableError
from hkmahjong.parlor.wire import (
    JSON,
    advice_json,
    dumps,
    event_json,
    outcome_json,
    tiles_json,
    view_json,
)
from hkmahjong.tiles import Wind

__all__ = ["Table", "TableConfig", "TableError"]

log = logging.getLogger(__name__)

BUFFER = 16
"""Messages kept per seat for a reconnect (older gaps get a snapshot), in a compact
:class:`~hkmahjong.parlor.ring.Ring`."""
CLOSE_REPLACED = 4409


def new_public_id() -> str:
    """A table's public id: 8 URL-safe characters, never starting with ``-`` or ``_`` (an id
    such as ``-x3Fq_9a`` would read as an option to ``hkmj admin cancel``)."""
    while True:
        candidate = secrets.token_urlsafe(6)
        if candidate[0].isalnum():
            return candidate


class _Queued:
    """The handle of a message put on the queue at once: cancelling it is left to its token."""

    def cancel(self) -> None:
        """Nothing to stop: the queued message checks its token when it is handled."""


@dataclass(slots=True)
class _Prompt:
    v: int
    legal: list[Action]
    kind: str
    timer: TimerHandle | None = None


@dataclass(slots=True)
class _Seat:
    player: int
    kind: str = "empty"
    user_id: int | None = None
    name: str | None = None
    bot_level: str | None = None
    status: SeatStatus = SeatStatus.EMPTY
    controller: Controller | None = None
    conn: Connection | None = None
    helloed: bool = False
    v: int = 0
    buffer: Ring = field(default_factory=lambda: Ring(BUFFER))
    prompt: _Prompt | None = None
    auto: TimerHandle | None = None
    auto_token: int = 0
    clock: SeatClock | None = None
    timeouts: int = 0
    grace: TimerHandle | None = None
    ready: bool = False

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def row(self) -> SeatRow:
        return SeatRow(self.player, self.user_id, self.name, self.bot_level, self.status.value)


_Msg = tuple[Any, ...]


class Table:
    """一張枱: the actor. Create with :meth:`create` or :meth:`restore`, then :meth:`start`."""

    def __init__(
        self,
        row: TableRow,
        seats: Sequence[SeatRow],
        store: TableStore,
        *,
        clock: Clock | None = None,
        ledger: LedgerStore | None = None,
        on_change: Callable[[Table], None] | None = None,
        epoch: str | None = None,
        watch_limit: int = DEFAULT_LIMIT,
    ) -> None:
        self.row = row
        self.config = TableConfig.from_json(row.config)
        self.ruleset = self.config.ruleset
        self.store = store
        self.clock: Clock = clock or LoopClock()
        self.ledger = ledger
        self.on_change = on_change
        self.status = row.status
        self.epoch = epoch or secrets.token_urlsafe(6)
        self.runner: MatchRunner | None = None
        self.seq = 0
        self.queue: asyncio.Queue[_Msg] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._next_hand: TimerHandle | None = None
        self._bought_in = False
        self._info: tuple[Any, proto.TableInfo] | None = None
        self.broken: str | None = None
        """Why the log does not replay (the table is aborted when it starts), or None."""
        self._busy = False
        self._sleeping = False
        self.seats = [_Seat(p) for p in range(4)]
        for s in seats:
            self._fill_seat(s)
        self.gallery = Gallery(
            epoch=self.epoch,
            facts=self.info,
            now=self.clock.now,
            schedule=lambda seconds: self._later(seconds, "gallery"),
            delay_ms=self.config.watch_delay_ms,
            limit=watch_limit,
        )

    # --- identity -------------------------------------------------------------------------------
    @property
    def id(self) -> int:
        """The store's id."""
        return self.row.id

    @property
    def public_id(self) -> str:
        """The id in URLs."""
        return self.row.public_id

    @property
    def open(self) -> bool:
        """Not finished, cancelled or aborted."""
        return self.status in ("waiting", "playing", "paused")

    def player_of(self, user_id: int) -> int | None:
        """The player number ``user_id`` holds here, or None."""
        for seat in self.seats:
            if seat.human and seat.user_id == user_id:
                return seat.player
        return None

    def _fill_seat(self, row: SeatRow) -> None:
        seat = self.seats[row.player]
        seat.user_id, seat.name, seat.bot_level = row.user_id, row.name, row.bot
        if row.bot is not None:
            seat.kind, seat.status = "bot", SeatStatus.BOT
            seat.controller = make_bot(row.bot, f"{self.row.match_seed}:{row.player}", self.ruleset)
        elif row.user_id is not None:
            seat.kind = "human"
            seat.status = SeatStatus.SAT_OUT if row.status == "sat_out" else SeatStatus.AWAY
            if self.config.kind == "practice":
                seat.status = SeatStatus.AWAY
        else:
            seat.kind, seat.status, seat.controller = "empty", SeatStatus.EMPTY, None
        seat.clock = SeatClock(self.config.clocks)

    # --- creating and rebuilding ----------------------------------------------------------------
    @classmethod
    async def create(
        cls,
        store: TableStore,
        config: TableConfig,
        *,
        creator: tuple[int, str] | None = None,
        public_id: str | None = None,
        people: Sequence[tuple[int, str] | None] = (),
        **kwargs: Any,
    ) -> Table:
        """A new table: stored (row, seats), with the creator in seat 0 and the configured bots;
        ``people``: the person (user id, name) seated at each player number from the start (a
        league's seats), None for a bot's or a free seat.

        :raises TableError: when the configuration is not valid.
        """
        seed = secrets.token_bytes(32)
        row = TableRow(
            id=0,
            public_id=public_id or new_public_id(),
            kind=config.kind,
            status="waiting",
            config=config.to_json(),
            ruleset_digest=str(config.rules.get("digest", "")),
            match_seed=seed.hex(),
            creator_id=None if creator is None else creator[0],
            private=config.private,
            invite_token=secrets.token_urlsafe(12) if config.private else None,
        )
        seats = []
        for p in range(4):
            level = config.bots[p] if p < len(config.bots) else None
            person = people[p] if p < len(people) else None
            if person is not None and level is None:
                seats.append(SeatRow(p, person[0], person[1], None, "away"))
            elif p == 0 and creator is not None:
                seats.append(SeatRow(0, creator[0], creator[1], None, "away"))
            elif level is not None:
                seats.append(SeatRow(p, None, _bot_name(level, p), level, "bot"))
            else:
                seats.append(SeatRow(p))
        table_id = await store.create(row, seats)
        stored = await store.get(table_id)
        assert stored is not None
        return cls(stored, seats, store, **kwargs)

    @classmethod
    async def restore(cls, store: TableStore, row: TableRow, **kwargs: Any) -> Table:
        """Rebuild a table from the store: seats, and the match replayed from its log.

        Every hand that ended is settled again through its idempotency key (a crash between the
        log commit and the ledger post loses nothing, and nothing is paid twice). A log that does
        not replay (a corrupt or unverifiable record) leaves the table :attr:`broken`: starting
        it aborts it with the reason and refunds every stake and fee (once).
        """
        table = cls(row, await store.seats(row.id), store, **kwargs)
        lines = await store.lines(row.id)
        if table._priced:
            table._bought_in = row.status in ("playing", "paused") or table._posted(
                table._buy_in_key
            )
        if lines:
            ended: list[HandSummary] = []

            def collect(runner: MatchRunner, step: StepResult) -> None:
                table._replayed(runner, step)
                if step.hand_end is not None:
                    first = len(runner.lines) - len(step.lines)
                    ended.append(_hand_summary(runner, step, first))

            try:
                table.runner = MatchRunner.resume(
                    lines, bytes.fromhex(row.match_seed), on_step=collect
                )
            except MahjongError as exc:
                table.broken = f"the log does not replay: {exc}"
                log.error("table %s: %s", row.public_id, table.broken)
                return table
            table.seq = len(lines)
            table._settle_ledger_history()
            await table._record_history(ended)
            table.runner.forget()
        return table

    async def _record_history(self, ended: Sequence[HandSummary]) -> None:
        """Hand the store every hand of the replayed log (and the match, if it ended): those it
        kept before are skipped, those lost (kept by no older version) are kept now."""
        runner = self.runner
        if runner is None or not ended:
            return
        match = None
        if runner.match_over:
            match = self._match_summary()
        footer = _line_index(runner.lines, "match_end") if match is not None else None
        results = TableResults(self._facts(), tuple(ended), match, footer)
        try:
            await self.store.record(self.id, results)
        except Exception:  # the history is kept for the pages: never stop the table for it
            log.exception("table %s: could not keep its history", self.public_id)

    @property
    def _priced(self) -> bool:
        """Whether seats pay to sit (a stake or a fee) and there is a ledger to pay into."""
        return self.ledger is not None and self.config.buy_in > 0

    @property
    def _buy_in_key(self) -> str:
        return f"buyin:table:{self.id}"

    @property
    def _refund_key(self) -> str:
        return f"refund:table:{self.id}"

    def _posted(self, key: str) -> bool:
        return self.ledger is not None and self.ledger.posted(key)

    def _settle_ledger_history(self) -> None:
        runner = self.runner
        if runner is None or not self.config.stake or self.ledger is None or not self._bought_in:
            return
        totals: list[int | float] = [0, 0, 0, 0]
        for n, entry in enumerate(runner.match.ledger):
            after = [t + d for t, d in zip(totals, entry.deltas, strict=True)]
            self._post_hand_move(n, totals, after)
            totals = after

    # --- the actor ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Run the actor and pick the match up where the log left it."""
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=f"table-{self.public_id}")
            await self.call(self._resume)

    async def stop(self) -> None:
        """Stop the actor (the table stays as stored)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for seat in self.seats:
            self._cancel_timers(seat)
        if self._next_hand is not None:
            self._next_hand.cancel()

    async def run(self) -> None:
        """Handle the queue's messages one at a time, until ``stop``."""
        while True:
            msg = await self.queue.get()
            self._busy = True
            try:
                if msg[0] == "stop":
                    return
                await self._dispatch(msg)
            except Exception:
                log.exception("table %s: failed on %s", self.public_id, msg[0])
                await self._abort("a server error that could not be recovered")
            finally:
                self._busy = False
                self.queue.task_done()

    async def idle(self) -> None:
        """Wait until every queued message is handled, or the actor waits on its clock (tests).

        The actor may be waiting on a database thread (a log append): after the first thousand
        turns of the loop this polls every millisecond, for up to 60 s of the loop's time.

        :raises MahjongError: when the actor is still busy after that.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        spins = 0
        while True:
            await asyncio.sleep(0 if spins < 1000 else 0.001)
            spins += 1
            if self._sleeping or (self.queue.empty() and not self._busy):
                return
            if loop.time() > deadline:
                break
        stack = self._task.get_stack() if self._task is not None else []
        raise MahjongError(
            f"table {self.public_id} did not become idle in 60 s: {stack} "
            f"q={self.queue.qsize()} busy={self._busy} sleeping={self._sleeping}"
        )

    async def call(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` inside the actor (serialised with everything else); its result.

        :raises Exception: whatever ``fn`` raised.
        """
        if self._task is None:
            return await fn()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(("call", fn, future))
        return await future

    def connect(self, player: int, conn: Connection) -> None:
        """A client of ``player`` connected (it must send ``hello`` next)."""
        self.queue.put_nowait(("connect", player, conn))

    def receive(self, player: int, conn: Connection, text: str | bytes) -> None:
        """A frame from a client of ``player``."""
        self.queue.put_nowait(("frame", player, conn, text))

    def disconnect(self, player: int, conn: Connection) -> None:
        """A client of ``player`` went away."""
        self.queue.put_nowait(("disconnect", player, conn))

    def watch(self, conn: Connection) -> None:
        """A spectator connected (it must send ``hello`` next); a full gallery closes it."""
        self.queue.put_nowait(("watch", conn))

    def watch_receive(self, conn: Connection, text: str | bytes) -> None:
        """A frame from a spectator."""
        self.queue.put_nowait(("watch_frame", conn, text))

    def unwatch(self, conn: Connection) -> None:
        """A spectator went away."""
        self.queue.put_nowait(("unwatch", conn))

    def _later(self, seconds: float, *msg: Any) -> TimerHandle:
        return self.clock.call_later(seconds, lambda: self.queue.put_nowait(msg))

    async def _dispatch(self, msg: _Msg) -> None:
        kind = msg[0]
        if kind == "call":
            _, fn, future = msg
            try:
                result = await fn()
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
                if not isinstance(exc, MahjongError):
                    raise
            else:
                if not future.done():
                    future.set_result(result)
        elif kind == "connect":
            self._on_connect(msg[1], msg[2])
        elif kind == "frame":
            await self._on_frame(msg[1], msg[2], msg[3])
        elif kind == "disconnect":
            await self._on_disconnect(msg[1], msg[2])
        elif kind == "timeout":
            await self._on_timeout(msg[1], msg[2])
        elif kind == "auto":
            await self._on_auto(msg[1], msg[2])
        elif kind == "grace":
            await self._on_grace(msg[1])
        elif kind == "next_hand":
            await self._start_hand_if_due()
        elif kind == "watch":
            if self.gallery.join(msg[1]):
                self._watchers_changed()
            else:
                msg[1].close(CLOSE_FULL, "the gallery is full")
        elif kind == "watch_frame":
            self.gallery.receive(msg[1], msg[2])
        elif kind == "unwatch":
            if self.gallery.leave(msg[1]):
                self._watchers_changed()
        elif kind == "gallery":
            self.gallery.release_due()

    # --- sending --------------------------------------------------------------------------------
    def _emit(self, seat: _Seat, build: Callable[[int], JSON]) -> None:
        """A versioned message to a person's seat (kept for a reconnect)."""
        self._emit_text(seat, lambda v: dumps(build(v)))

    def _emit_text(self, seat: _Seat, text_of: Callable[[int], str]) -> None:
        """:meth:`_emit` of a message already encoded but for its version."""
        if not seat.human:
            return
        seat.v += 1
        text = text_of(seat.v)
        seat.buffer.append(seat.v, text)
        if seat.conn is not None and seat.helloed:
            seat.conn.send(text)

    def _emit_all(self, build: Callable[[int], JSON]) -> None:
        """A message to every seat, and to the spectators (held back by their delay)."""
        for seat in self.seats:
            self._emit(seat, build)
        self.gallery.push(build)
        runner = self.runner
        if not self.open or runner is None or not runner.in_hand:
            self.gallery.close(self._point(), final=True)

    def _point(self) -> Point:
        """Where the table is, as a spectator may see it."""
        runner = self.runner
        view = None
        if runner is not None and runner.hand_number >= 0:
            view = runner.public_view()
        return Point(self.info(), view)

    def _watchers_changed(self) -> None:
        count = self.gallery.count
        for seat in self.seats:
            self._emit(seat, lambda v: proto.watchers_msg(v, count))
        self._changed()

    def _replayed(self, runner: MatchRunner, step: StepResult) -> None:
        """Feed the gallery's segments while the log is replayed (nobody watches yet)."""
        if any(e.kind is EventKind.DISCARD for e in step.events):
            self.gallery.discarded()
        if runner.hand_number < 0:
            return
        view = runner.public_view()
        if not runner.in_hand:
            self.gallery.close(Point(None, view), final=True)
        elif view.settled:
            self.gallery.close(Point(None, view))

    @staticmethod
    def _reply(conn: Connection, obj: JSON) -> None:
        conn.send(dumps(obj))

    def info(self, you: int | None = None) -> proto.TableInfo:
        """The table's public facts (``you`` = the asking player).

        Kept between calls while nothing it shows has changed (the gallery asks at every
        settled turn, the key is far cheaper than the facts).
        """
        runner = self.runner
        key = (
            self.status,
            self._bought_in,
            self.gallery.count,
            None
            if runner is None
            else (
                runner.hand_number,
                runner.match.dealer,
                runner.match.prevailing,
                tuple(runner.match.balances),
            ),
            tuple((s.name, s.kind, s.bot_level, s.status) for s in self.seats),
        )
        cached = self._info
        if cached is None or cached[0] != key:
            cached = self._info = (key, self._facts_now())
        facts = cached[1]
        return facts if you is None else replace(facts, you=you)

    def _facts_now(self) -> proto.TableInfo:
        runner = self.runner
        totals = self._totals()
        players = []
        for seat in self.seats:
            seat_wind = None
            if runner is not None and runner.hand_number >= 0:
                seat_wind = runner.seat_of(seat.player).letter
            escrow = None
            if self.config.stake and self._bought_in:
                escrow = stakes.staked_shares(self.config.stake, totals)[seat.player]
            players.append(
                proto.PlayerInfo(
                    player=seat.player,
                    name=seat.name,
                    kind=seat.kind,
                    bot=seat.bot_level,
                    status=seat.status.value,
                    seat=seat_wind,
                    jade=totals[seat.player],
                    escrow=escrow,
                )
            )
        match = runner.match if runner is not None else None
        return proto.TableInfo(
            id=self.public_id,
            kind=self.config.kind,
            status=self.status,
            rules={
                "name": self.ruleset.name,
                "digest": self.row.ruleset_digest,
                "preset": self.config.rules.get("preset"),
                "dead_wall": self.ruleset.dead_wall,
            },
            length=self.config.length,
            stake=self.config.stake,
            buy_in=self.config.buy_in or None,
            fee=self.config.fee,
            clocks=self.config.clocks.to_json(),
            hints=self.config.hints,
            private=self.config.private,
            players=tuple(players),
            you=None,
            hand_number=max(0, runner.hand_number) if runner is not None else 0,
            dealer=match.dealer if match is not None else 0,
            prevailing=match.prevailing.letter if match is not None else "E",
            watchers=self.gallery.count,
            watch_delay_ms=self.config.watch_delay_ms,
            extra=self.config.terms_json(),
        )

    def _totals(self) -> list[int | float]:
        runner = self.runner
        if runner is None:
            return [0, 0, 0, 0]
        start = runner.match.starting_balance
        return [b - start for b in runner.match.balances]

    def _prompt_json(self, seat: _Seat) -> JSON | None:
        p = seat.prompt
        if p is None or seat.clock is None:
            return None
        ms, bank = seat.clock.remaining_ms(self.clock.now())
        return proto.prompt_json(p.v, p.legal, proto.ClockInfo(p.kind, ms, bank))

    def _snapshot(self, seat: _Seat) -> JSON:
        runner = self.runner
        view = None
        if runner is not None and runner.hand_number >= 0:
            view = view_json(runner.view(seat.player))
        table = self.info(seat.player).to_json()
        return proto.snapshot_msg(seat.v, self.epoch, table, view, self._prompt_json(seat))

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    # --- connections and frames -----------------------------------------------------------------
    def _on_connect(self, player: int, conn: Connection) -> None:
        seat = self.seats[player]
        if seat.conn is not None and seat.conn is not conn:
            seat.conn.close(CLOSE_REPLACED, "replaced by a newer connection")
        seat.conn, seat.helloed = conn, False
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None

    async def _on_disconnect(self, player: int, conn: Connection) -> None:
        seat = self.seats[player]
        if seat.conn is not conn:
            return
        seat.conn, seat.helloed = None, False
        if seat.status is SeatStatus.CONNECTED:
            self._set_status(seat, SeatStatus.AWAY)
            grace = self.config.clocks.grace_ms
            if self.config.kind == "practice" and self.status == "playing":
                await self._set_table_status("paused")
            elif grace and self.status == "playing":
                seat.grace = self._later(grace / 1000, "grace", player)

    async def _on_grace(self, player: int) -> None:
        seat = self.seats[player]
        seat.grace = None
        if seat.status is SeatStatus.AWAY and self.status == "playing":
            await self._sit_out(
                seat, f"disconnected for more than {self.config.clocks.grace_ms} ms"
            )

    async def _on_frame(self, player: int, conn: Connection, text: str | bytes) -> None:
        seat = self.seats[player]
        if seat.conn is not conn:
            return
        try:
            msg = proto.parse_client(text)
            await self._on_message(seat, conn, msg)
        except proto.ProtocolError as exc:
            self._reply(conn, exc.to_json())

    async def _on_message(self, seat: _Seat, conn: Connection, msg: proto.ClientMessage) -> None:
        E = proto.ErrorCode
        if isinstance(msg, proto.Hello):
            if seat.helloed:
                raise proto.ProtocolError(E.HELLO_FIRST, "hello was already received")
            if msg.proto != proto.PROTOCOL_VERSION:
                raise proto.ProtocolError(
                    E.PROTO,
                    f"this server speaks protocol {proto.PROTOCOL_VERSION}, not {msg.proto}",
                )
            await self._hello(seat, conn, msg)
            return
        if not seat.helloed:
            raise proto.ProtocolError(E.HELLO_FIRST, "send hello first")
        if isinstance(msg, proto.Ping):
            self._reply(conn, proto.pong_msg())
        elif isinstance(msg, proto.Act):
            await self._on_act(seat, msg)
        elif isinstance(msg, proto.SitBack):
            if seat.status is not SeatStatus.SAT_OUT:
                raise proto.ProtocolError(E.NOT_SAT_OUT, "you are not sat out")
            self._set_status(seat, SeatStatus.CONNECTED)
            seat.timeouts = 0
            if seat.auto is not None:
                self._cancel_timers(seat)
            self._update_prompts()
        elif isinstance(msg, proto.HintRequest):
            self._reply(conn, self._hint(seat))
        elif isinstance(msg, proto.Ready):
            seat.ready = True
            await self._start_hand_if_due()

    async def _hello(self, seat: _Seat, conn: Connection, msg: proto.Hello) -> None:
        seat.helloed = True
        missed = None
        if msg.epoch == self.epoch and msg.since is not None:
            missed = seat.buffer.after(msg.since)
        if missed is not None:
            for kept in missed:
                conn.send(kept)
            self._reply(conn, proto.synced_msg(seat.v, self._prompt_json(seat)))
        else:
            self._reply(conn, self._snapshot(seat))
        if seat.status is SeatStatus.AWAY:
            self._set_status(seat, SeatStatus.CONNECTED)
        if self.status == "paused":
            await self._set_table_status("playing")
        if self.status == "waiting" and self.config.kind == "practice":
            await self._maybe_start()

    async def _on_act(self, seat: _Seat, msg: proto.Act) -> None:
        E = proto.ErrorCode
        if not seat.human:
            raise proto.ProtocolError(E.NOT_SEATED, "you hold no seat here", msg.id)
        if not self.open:
            raise proto.ProtocolError(E.TABLE_CLOSED, f"the table is {self.status}", msg.id)
        prompt = seat.prompt
        if prompt is None:
            raise proto.ProtocolError(E.NO_PROMPT, "nothing to decide now", msg.id)
        if msg.v != prompt.v:
            raise proto.ProtocolError(E.STALE, f"the open prompt is v={prompt.v}", msg.id)
        if msg.action not in prompt.legal:
            shown = ", ".join(a.text for a in prompt.legal)
            raise proto.ProtocolError(
                E.ILLEGAL, f"{msg.action.text!r} is not legal now; legal: {shown}", msg.id
            )
        seat.timeouts = 0
        await self._apply(seat, msg.action, by="you", ref=msg.id)

    # --- decisions ------------------------------------------------------------------------------
    def _cancel_timers(self, seat: _Seat) -> None:
        if seat.prompt is not None and seat.prompt.timer is not None:
            seat.prompt.timer.cancel()
        if seat.auto is not None:
            seat.auto.cancel()
            seat.auto = None
        if seat.grace is not None and not self.open:
            seat.grace.cancel()
            seat.grace = None

    def _close_prompt(self, seat: _Seat, action: Action | None, by: str, ref: str | None) -> None:
        prompt = seat.prompt
        if prompt is None:
            return
        if prompt.timer is not None:
            prompt.timer.cancel()
        if seat.clock is not None:
            seat.clock.stop(self.clock.now())
        seat.prompt = None
        text = None if action is None else action.text
        self._emit(seat, lambda v: proto.done_msg(v, prompt.v, text, by, ref))

    def _update_prompts(self, *, waited: bool = False) -> None:
        """Open a prompt (or schedule the bot / passive player) for every player who must decide
        now; close the prompts of those who need not any more.

        ``waited``: the discard delay has just passed. A bot (or a sat-out seat) deciding on that
        discard has "thought" during the delay and answers at once, so the next event comes at the
        same moment whether or not a bot could claim (the delay hides that, seed 002).
        """
        runner = self.runner
        deciding = set(runner.to_act_players) if runner is not None and runner.in_hand else set()
        if self.status not in ("playing", "paused"):
            deciding = set()
        for seat in self.seats:
            if seat.player not in deciding:
                if seat.prompt is not None:
                    self._close_prompt(seat, None, "closed", None)
                if seat.auto is not None:
                    seat.auto.cancel()
                    seat.auto = None
                continue
            if seat.prompt is not None or seat.auto is not None:
                continue
            assert runner is not None
            if seat.human and seat.status is not SeatStatus.SAT_OUT:
                self._open_prompt(seat)
            else:
                seat.auto_token += 1
                if waited and runner.phase is not Phase.TURN:
                    self.queue.put_nowait(("auto", seat.player, seat.auto_token))
                    seat.auto = _Queued()  # a stale one is dropped by its token
                else:
                    delay = self.config.clocks.bot_ms / 1000
                    seat.auto = self._later(delay, "auto", seat.player, seat.auto_token)

    def _open_prompt(self, seat: _Seat) -> None:
        runner = self.runner
        assert runner is not None and seat.clock is not None
        legal = runner.legal(seat.player)
        kind = "turn" if runner.phase is Phase.TURN else "claim"
        now = self.clock.now()
        total_ms = seat.clock.start(kind, now)
        prompt = _Prompt(seat.v + 1, legal, kind)
        seat.prompt = prompt
        clock = proto.ClockInfo(kind, *seat.clock.remaining_ms(now))
        self._emit_text(seat, lambda v: proto.prompt_text(v, legal, clock))
        if kind == "turn" and total_ms:
            letter = runner.seat_of(seat.player).letter
            for other in self.seats:
                if other is not seat:
                    self._emit(
                        other, lambda v: proto.clock_msg(v, letter, kind, clock.ms, clock.bank_ms)
                    )
        if total_ms:
            prompt.timer = self._later(total_ms / 1000, "timeout", seat.player, prompt.v)

    async def _on_timeout(self, player: int, v: int) -> None:
        seat = self.seats[player]
        prompt = seat.prompt
        if prompt is None or prompt.v != v or self.runner is None:
            return
        action = passive_choice(self.runner.view(player), prompt.legal)
        if prompt.kind == "turn":
            seat.timeouts += 1
        await self._apply(seat, action, by="timeout", ref=None)
        if seat.timeouts >= 2 and seat.status is not SeatStatus.SAT_OUT:
            await self._sit_out(seat, "two consecutive own-turn timeouts")

    async def _on_auto(self, player: int, token: int) -> None:
        seat = self.seats[player]
        runner = self.runner
        if seat.auto_token != token or seat.auto is None or runner is None:
            return
        seat.auto = None
        if not runner.in_hand or player not in runner.to_act_players:
            return
        view, legal = runner.view(player), runner.legal(player)
        if seat.kind == "bot" and seat.controller is not None:
            action = seat.controller.choose(view, legal)
            if action not in legal:
                action = passive_choice(view, legal)
        else:
            action = passive_choice(view, legal)
        await self._apply(seat, action, by="auto", ref=None)

    async def _sit_out(self, seat: _Seat, reason: str) -> None:
        self._set_status(seat, SeatStatus.SAT_OUT)
        await self.store.audit(self.id, "sat_out", f"player {seat.player}: {reason}")
        if seat.prompt is not None:
            self._close_prompt(seat, None, "closed", None)
        self._update_prompts()

    def _set_status(self, seat: _Seat, status: SeatStatus) -> None:
        if seat.status is status:
            return
        seat.status = status
        self._emit_all(lambda v: proto.seat_msg(v, seat.player, status.value))
        self._changed()

    async def _apply(self, seat: _Seat, action: Action, *, by: str, ref: str | None) -> None:
        """Play ``action`` for the seat: engine, commit, then tell everyone."""
        runner = self.runner
        assert runner is not None
        self._close_prompt(seat, action, by, ref)
        try:
            step = runner.apply(seat.player, action)
        except IllegalActionError as exc:
            log.error("table %s: engine refused %s: %s", self.public_id, action.text, exc)
            self._update_prompts()
            return
        if not await self._commit(step):
            if seat.conn is not None and seat.human:
                self._reply(
                    seat.conn,
                    proto.error_msg(proto.ErrorCode.INTERNAL, "could not save; decide again", ref),
                )
            self._update_prompts()
            return
        await self._broadcast(step)

    def _facts(self) -> TableFacts:
        names = tuple(s.name or f"P{s.player + 1}" for s in self.seats)
        users = tuple(s.user_id if s.human else None for s in self.seats)
        bots = tuple(s.bot_level if s.kind == "bot" else None for s in self.seats)
        return TableFacts(
            kind=self.config.kind,
            family=ruleset_family(self.config.rules),
            digest=self.row.ruleset_digest,
            names=(names[0], names[1], names[2], names[3]),
            user_ids=(users[0], users[1], users[2], users[3]),
            bots=(bots[0], bots[1], bots[2], bots[3]),
            length=self.config.length,
            stake=self.config.stake,
            fee=self.config.fee,
        )

    def _match_summary(self) -> MatchSummary:
        runner = self.runner
        assert runner is not None
        return summarize_match(
            self._totals(),
            len(runner.match.ledger),
            kind=self.config.kind,
            stake=self.config.stake,
            fee=self.config.fee,
        )

    def _results(self, step: StepResult) -> TableResults | None:
        """What the step ends (a hand, perhaps the match), for the store to keep with its lines."""
        runner = self.runner
        if step.hand_end is None or runner is None:
            return None
        hand = _hand_summary(runner, step, self.seq)
        match = footer = None
        if step.match_over:
            match = self._match_summary()
            found = _line_index(step.lines, "match_end")
            footer = None if found is None else self.seq + found
        return TableResults(self._facts(), (hand,), match, footer)

    async def _commit(self, step: StepResult) -> bool:
        """Append the step's record lines (with the results of a hand or match they end); on
        failure rebuild the runner from the committed log (so the step never happened) and
        return False."""
        try:
            await self.store.append(self.id, self.seq, step.lines, self._results(step))
        except Exception as exc:
            log.warning(
                "table %s: commit failed (%s); rebuilding from the log", self.public_id, exc
            )
            lines = await self.store.lines(self.id)
            self.runner = (
                MatchRunner.resume(lines, bytes.fromhex(self.row.match_seed)) if lines else None
            )
            if self.runner is not None:
                self.runner.forget()
            self.seq = len(lines)
            stored = await self.store.get(self.id)
            if stored is not None and stored.status not in OPEN_STATUSES:
                await self._closed_elsewhere(stored.status)
            return False
        self.seq += len(step.lines)
        return True

    async def _broadcast(self, step: StepResult) -> None:
        runner = self.runner
        assert runner is not None
        events = step.events
        cut = 0
        for i, ev in enumerate(events):
            if ev.kind is EventKind.DISCARD:
                cut = i + 1
        if step.action is None:  # a hand starts
            hand = runner.record.hands[-1]
            seats = {w.letter: runner.player_at(w) for w in Wind}
            self._emit_all(
                lambda v: proto.hand_msg(
                    v, hand.number, hand.dealer, hand.prevailing.letter, seats, hand.commitment
                )
            )
        self._send_events(events[:cut] if cut else events)
        if cut:
            self._sleeping = True
            try:
                await self.clock.sleep(self.config.clocks.discard_delay_ms / 1000)
            finally:
                self._sleeping = False
            self._send_events(events[cut:])
        if step.hand_end is not None:
            await self._hand_ended(step)
        else:
            public = runner.public_view()
            if public.settled:
                self.gallery.close(Point(self.info(), public))
            self._update_prompts(waited=bool(cut))

    def _send_events(self, events: Sequence[Any]) -> None:
        runner = self.runner
        assert runner is not None
        bodies: dict[Any, str] = {}
        for seat in self.seats:
            if not seat.human:
                continue
            wind = runner.seat_of(seat.player)
            for ev in events:
                shown = ev.for_seat(wind)
                if shown is not None:
                    # Seats that see an event alike get the same encoded event (the
                    # engine's own redaction decides what each sees; equal means identical).
                    body = bodies.get(shown)
                    if body is None:
                        body = bodies[shown] = dumps(event_json(shown))
                    self._emit_text(seat, partial(proto.event_text, event=body))
        for ev in events:
            public = ev.public()
            if public is not None:
                self.gallery.push_event(public)

    # --- hands and the match ---------------------------------------------------------------------
    async def _resume(self) -> None:
        """After a (re)start: finish what the log says is done, then go on.

        A table whose log does not replay is aborted (stakes and fees refunded); one whose refund
        was posted before the server stopped is closed as cancelled (the refund is never paid
        twice).
        """
        if self.broken is not None:
            await self._cancel("aborted", self.broken)
            return
        if self.open and self._posted(self._refund_key):
            await self._cancel("cancelled", "the stakes were refunded before a restart")
            return
        runner = self.runner
        if runner is not None and runner.match_over:
            if self.status in ("playing", "paused"):
                await self._match_ended()
            return
        if self.status == "waiting":
            await self._maybe_start()
            return
        if self.status not in ("playing", "paused"):
            return
        if runner is None or runner.can_start:
            self._schedule_next_hand(first=runner is None)
        else:
            self._update_prompts()

    async def _maybe_start(self) -> None:
        """Start the match once all four seats are filled (practice: once the player is here)."""
        if self.status != "waiting" or any(s.kind == "empty" for s in self.seats):
            return
        if self.config.kind == "practice" and not any(s.helloed for s in self.seats):
            return
        if self._priced and not await self._buy_in():
            return
        await self._set_table_status("playing")
        await self._start_hand()

    async def _buy_in(self) -> bool:
        """入場: every seat pays the stake into its escrow and the fee, in one transaction.

        A person who cannot pay is unseated (logged) and nobody pays; False then.
        """
        assert self.ledger is not None
        if self._bought_in:
            return True
        stored = await self.store.get(self.id)
        if stored is not None and stored.status not in OPEN_STATUSES:
            await self._closed_elsewhere(stored.status)
            return False
        owners = [s.user_id if s.human else None for s in self.seats]
        amounts = stakes.buy_ins(self.id, owners, self.config.stake or 0, self.config.fee)
        short = [
            s
            for s in self.seats
            if s.human
            and not can_cover(self.ledger, stakes.owner_of(s.user_id), self.config.buy_in)
        ]
        if not short:
            try:
                self._post(self._buy_in_key, "buy_in", amounts, "入場 buy-in")
            except InsufficientJadeError:  # spent elsewhere since the check: look again
                short = [
                    s
                    for s in self.seats
                    if s.human
                    and not can_cover(self.ledger, stakes.owner_of(s.user_id), self.config.buy_in)
                ]
                if not short:
                    raise
        for seat in short:
            have = self.ledger.balance(stakes.owner_of(seat.user_id))
            await self.store.audit(
                self.id,
                "buy_in_failed",
                f"player {seat.player} ({seat.name}): the buy-in is {self.config.buy_in} jade, "
                f"they have {have}",
            )
            await self._unseat(seat)
        self._bought_in = not short
        return self._bought_in

    async def _unseat(self, seat: _Seat) -> None:
        if seat.conn is not None:
            seat.conn.close(4403, "you left the table")
        self._cancel_timers(seat)
        self.seats[seat.player] = _Seat(seat.player, clock=SeatClock(self.config.clocks))
        await self.store.save_seat(self.id, SeatRow(seat.player))
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()))
        self._changed()

    def _new_runner(self) -> MatchRunner:
        names = _distinct([s.name or f"P{s.player + 1}" for s in self.seats])
        length = MatchLength.parse(self.config.length)
        start = self.config.starting_balance or length.start_balance
        match = Match(
            (names[0], names[1], names[2], names[3]),
            length,
            starting_balance=start,
            max_hands=self.config.max_hands,
        )
        runner = MatchRunner(match, self.ruleset, bytes.fromhex(self.row.match_seed))
        runner.forget()  # the record is in the store: a live table keeps only what play needs
        return runner

    async def _start_hand(self) -> None:
        if self.runner is None:
            self.runner = self._new_runner()
        runner = self.runner
        if not runner.can_start:
            return
        for seat in self.seats:
            seat.ready = False
        step = runner.start_hand()
        if not await self._commit(step):
            self._schedule_next_hand(first=False)
            return
        await self._broadcast(step)

    def _schedule_next_hand(self, *, first: bool) -> None:
        if self._next_hand is not None:
            self._next_hand.cancel()
        delay = 0.0 if first else self.config.clocks.next_hand_ms / 1000
        if first or delay:
            self._next_hand = self._later(delay, "next_hand")

    async def _start_hand_if_due(self) -> None:
        runner = self.runner
        if self.status not in ("playing", "paused") or (
            runner is not None and not runner.can_start
        ):
            return
        timer_due = self._next_hand is not None
        humans_ready = all(
            s.ready or s.status is not SeatStatus.CONNECTED for s in self.seats if s.human
        )
        if runner is None or humans_ready or timer_due:
            if self._next_hand is not None:
                self._next_hand.cancel()
                self._next_hand = None
            await self._start_hand()

    async def _hand_ended(self, step: StepResult) -> None:
        runner = self.runner
        assert runner is not None and step.hand_end is not None
        end = step.hand_end
        n = end.hand.number
        after = self._totals()
        before = [a - d for a, d in zip(after, end.entry.deltas, strict=True)]
        self._post_hand_move(n, before, after)
        hands = {w.letter: tiles_json(runner.view(w).concealed) for w in Wind}
        result = outcome_json(end.outcome)
        seed = end.hand.seed.hex() if end.hand.seed else ""
        standings = [
            {
                "player": s.player,
                "name": runner.match.players[s.player],
                "delta": end.entry.deltas[s.player],
                "total": after[s.player],
            }
            for s in self.seats
        ]
        self._emit_all(lambda v: proto.hand_end_msg(v, n, result, hands, seed, standings))
        self._update_prompts()
        self._changed()
        if step.match_over:
            await self._match_ended()
        else:
            self._schedule_next_hand(first=False)

    def _post(self, key: str, kind: str, amounts: dict[str, int], memo: str) -> bool:
        """Post one keyed transaction (False: it was posted before, e.g. replayed after a crash)."""
        assert self.ledger is not None
        return self.ledger.post(Transaction.of(key, kind, amounts, memo[:200]))

    def _post_hand_move(
        self, n: int, before: Sequence[int | float], after: Sequence[int | float]
    ) -> None:
        stake = self.config.stake
        if not stake or self.ledger is None:
            return
        amounts = stakes.hand_move(self.id, stake, before, after)
        if amounts:
            self._post(f"hand:table:{self.id}:{n}", "settle", amounts, f"第{n + 1}局 hand {n}")

    async def _match_ended(self) -> None:
        runner = self.runner
        assert runner is not None
        totals = self._totals()
        settlement: JSON | None = None
        stake = self.config.stake
        if stake and self.ledger is not None:
            owners = [s.user_id if s.human else None for s in self.seats]
            amounts = stakes.release(self.id, stake, totals, owners)
            if amounts:
                self._post(f"release:table:{self.id}", "release", amounts, "散場 release")
            seats = [runner.seat_of(p).letter for p in range(4)]
            settlement = stakes.settlement_json(stake, totals, seats)
        seed = runner.record.match_seed.hex() if runner.record.match_seed else ""
        record = f"/api/tables/{self.public_id}/record"
        self._emit_all(lambda v: proto.match_end_msg(v, totals, settlement, seed, record))
        await self._set_table_status("finished")

    async def _set_table_status(self, status: str) -> None:
        if self.status == status:
            return
        self.status = status
        await self.store.set_status(self.id, status)
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()))
        self._changed()

    async def _abort(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self._cancel("aborted", reason)

    async def _cancel(self, status: str, reason: str) -> None:
        """Close the table as ``status`` (cancelled / aborted): refund, log the reason, tell all.

        When the store says the table was closed elsewhere (``hkmj admin cancel`` on the database),
        this table only follows: the refund was made there.
        """
        if not self.open:
            return
        stored = await self.store.get(self.id)
        if stored is not None and stored.status not in OPEN_STATUSES:
            await self._closed_elsewhere(stored.status)
            return
        try:
            refunded = self._refund(reason)
        except MahjongError as exc:
            log.error("table %s: refund failed: %s", self.public_id, exc)
            refunded = None
            await self.store.audit(self.id, "refund_failed", f"{reason}: {exc}")
        await self.store.audit(self.id, status, reason)
        if refunded:
            await self.store.audit(self.id, "refund", refunded)
        await self.store.set_status(self.id, status)
        await self._close(status)

    def _refund(self, reason: str) -> str | None:
        """退款: empty the escrows and give every seat its stake and fee back, once; what was
        refunded, or None (nothing paid in, or refunded or released before)."""
        if not self._priced or not self._bought_in:
            return None
        assert self.ledger is not None
        if self._posted(self._refund_key) or self._posted(f"release:table:{self.id}"):
            return None
        stake, fee = self.config.stake or 0, self.config.fee
        owners = [s.user_id if s.human else None for s in self.seats]
        for attempt in range(3):
            held = [self.ledger.balance(stakes.escrow_of(self.id, p)) for p in range(4)]
            amounts = stakes.refund(self.id, stake, held, owners, fee)
            try:
                self._post(self._refund_key, "refund", amounts, f"退款 refund: {reason}")
            except InsufficientJadeError:  # a hand's move landed since the read (a live server)
                if attempt == 2:
                    raise
                continue
            break
        return f"stake {stake} and fee {fee} jade back to each of the four seats"

    async def _close(self, status: str) -> None:
        """Stop the match here (no store change): close every prompt and timer, tell everyone."""
        self.status = status
        for seat in self.seats:
            self._cancel_timers(seat)
            if seat.prompt is not None:
                self._close_prompt(seat, None, "closed", None)
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()))
        self._changed()

    async def _closed_elsewhere(self, status: str) -> None:
        if self.open and status not in OPEN_STATUSES:
            log.info("table %s was %s elsewhere; following", self.public_id, status)
            await self._close(status)

    # --- commands (run inside the actor through call) ---------------------------------------------
    async def join(self, user_id: int, name: str, invite: str | None = None) -> int:
        """Take the first free seat; the player number.

        :raises TableError: ``closed``, ``started``, ``invite``, ``full``, ``balance``.
        """
        return int(await self.call(lambda: self._join(user_id, name, invite)))

    async def _join(self, user_id: int, name: str, invite: str | None) -> int:
        have = self.player_of(user_id)
        if have is not None:
            return have
        if self.status != "waiting":
            raise TableError("started", f"the table is {self.status}; no seat can be taken")
        if self.row.private and invite != self.row.invite_token:
            raise TableError("invite", "this table is private: its invite link is needed")
        free = [s for s in self.seats if s.kind == "empty"]
        if not free:
            raise TableError("full", "every seat is taken")
        if self._priced:
            assert self.ledger is not None
            have_jade = self.ledger.balance(stakes.owner_of(user_id))
            if have_jade < self.config.buy_in:
                raise TableError(
                    "balance", f"the buy-in is {self.config.buy_in} jade; you have {have_jade}"
                )
        seat = free[0]
        row = SeatRow(seat.player, user_id, name, None, "away")
        self._fill_seat(row)
        await self.store.save_seat(self.id, row)
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()))
        self._changed()
        await self._maybe_start()
        return seat.player

    async def leave(self, user_id: int) -> None:
        """Leave before the match starts (online); at a practice table, pause it.

        :raises TableError: ``not_seated`` or ``started``.
        """
        await self.call(lambda: self._leave(user_id))

    async def _leave(self, user_id: int) -> None:
        player = self.player_of(user_id)
        if player is None:
            raise TableError("not_seated", "you hold no seat at this table")
        if self.config.kind == "practice":
            if self.status == "playing":
                await self._set_table_status("paused")
            return
        if self.status != "waiting" or self._bought_in:
            raise TableError("started", "the match has started: your seat is played for you")
        await self._unseat(self.seats[player])

    async def fill_bots(self, user_id: int | None, level: str) -> list[int]:
        """The creator fills every empty seat with a bot of ``level``; the players filled.

        :raises TableError: ``forbidden``, ``started`` or ``bad_config``.
        """
        result = await self.call(lambda: self._fill_bots(user_id, level))
        return list(result)

    async def _fill_bots(self, user_id: int | None, level: str) -> list[int]:
        if user_id is not None and user_id != self.row.creator_id:
            raise TableError("forbidden", "only the table's creator may seat bots")
        if self.status != "waiting":
            raise TableError("started", f"the table is {self.status}")
        filled = []
        for seat in self.seats:
            if seat.kind == "empty":
                try:
                    row = SeatRow(seat.player, None, _bot_name(level, seat.player), level, "bot")
                    self._fill_seat(row)
                except MahjongError as exc:
                    raise TableError("bad_config", str(exc)) from None
                await self.store.save_seat(self.id, row)
                filled.append(seat.player)
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()))
        self._changed()
        await self._maybe_start()
        return filled

    async def cancel(self, reason: str, *, status: str = "cancelled") -> None:
        """取消 (or abort): stop the match, refund every stake and fee, log the reason."""
        await self.call(lambda: self._cancel(status, reason))

    async def closed_elsewhere(self, status: str) -> None:
        """The store says this table is over (``status``): stop and tell the seats (no refund:
        whoever closed it refunded)."""
        await self.call(lambda: self._closed_elsewhere(status))

    # --- hints ------------------------------------------------------------------------------------
    def _hint(self, seat: _Seat) -> JSON:
        """提示: :func:`~hkmahjong.bots.advice.advise` for the seat's open prompt, as data."""
        E = proto.ErrorCode
        if not self.config.hints:
            return proto.error_msg(E.NO_HINTS, "hints exist at practice tables only")
        runner = self.runner
        if seat.prompt is None or runner is None:
            return proto.error_msg(E.NO_PROMPT, "nothing to decide now")
        view = runner.view(seat.player)
        return proto.hint_msg(advice_json(advise(view, seat.prompt.legal, self.ruleset)))


def _line_index(lines: Sequence[str], kind: str) -> int | None:
    """The index of the first record line of type ``kind`` (``end``, ``match_end``)."""
    for i, line in enumerate(lines):
        try:
            if json.loads(line).get("t") == kind:
                return i
        except (ValueError, AttributeError):
            continue
    return None


def _hand_summary(runner: MatchRunner, step: StepResult, first: int) -> HandSummary:
    """The summary of the hand ``step`` ended; ``first`` is the log line number of the step's
    first line (so the hand's end line is found)."""
    assert step.hand_end is not None
    at = _line_index(step.lines, "end")
    players = [runner.player_at(w) for w in Wind]
    return summarize_hand_end(step.hand_end, players, end_seq=None if at is None else first + at)


def _bot_name(level: str, player: int) -> str:
    return f"{level}-bot-{player + 1}"


def _distinct(names: list[str]) -> list[str]:
    out: list[str] = []
    for i, name in enumerate(names):
        out.append(name if name not in out and names.count(name) == 1 else f"{name} ({i + 1})")
    return out
