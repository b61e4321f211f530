"""枱 (a parlor table): one asyncio actor per table, its log the game record.

Everything that happens at a table — a client's message, a connection or disconnection, a clock
running out, a bot's decision, a join or a cancel — is a message of :mod:`~hkmahjong.parlor.inbox`
in the table's queue, handled one at a time by :meth:`Table.run`. Client messages arrive typed
(parsed at the door, ``server.ws``): nothing a client sends can raise inside the actor, and an
error while handling one becomes an ``internal`` error to that client and a *recovery* (the match
rebuilt from the committed log, the prompts opened again) — never the end of the table. The actor
aborts a table only on its own invariant failures (a log that does not replay), logged with the
cause.

The match itself is the engine's :class:`MatchRunner`: every action is validated by the engine,
its record lines are **committed through the store before** any seat is told (the player's
``done`` included), and each seat receives only ``event.for_seat(seat)`` and its ``PlayerView``,
as the versioned messages of docs/protocol.md. A table is rebuilt from its log by replay
(:meth:`Table.restore`), so a killed server continues every hand where it was.

**The hold** (docs/protocol.md, *Timing*): after a discard or a kong the table holds everything it
would send for ``discard_delay_ms``; meanwhile the seats the server answers for (bots, sat-out
seats, a person's auto-win / auto-pass settings) decide the window off the loop and their actions
are committed; at the end of the hold everything is released at once, the same way whether or not
any seat could claim, and only then are people asked. The actor never sleeps and never waits on a
bot: a slow table cannot delay another.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hkmahjong.bots.advice import advise
from hkmahjong.bots.strong import StrongBot
from hkmahjong.engine.actions import Action
from hkmahjong.engine.events import Event, EventKind
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import Controller
from hkmahjong.engine.runner import MatchRunner, StepResult
from hkmahjong.engine.view import Phase, PlayerView
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.parlor import accounts, policy, stakes
from hkmahjong.parlor import inbox as ib
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.accounts import TxnKind
from hkmahjong.parlor.clocks import Clock, ClockSettings, LoopClock, SeatClock, TimerHandle
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
from hkmahjong.parlor.ports import (
    OPEN_STATUSES,
    Connection,
    SeatRow,
    TableRow,
    TableStatus,
    TableStore,
)
from hkmahjong.parlor.prefs import DEFAULT_PREFS, PlayerPrefs, auto_decision
from hkmahjong.parlor.probes import NULL_PROBE, TableProbe, current_player, current_table
from hkmahjong.parlor.ring import Ring
from hkmahjong.parlor.seats import (
    SEARCH_LEVELS,
    UNTIMED,
    SearchBot,
    SeatStatus,
    make_bot,
    passive_choice,
)
from hkmahjong.parlor.terms import TableConfig, TableError
from hkmahjong.parlor.thinking import Thinker, shared_thinker
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
CLOSE_FAILED = 1011
"""The server failed mid-broadcast: the table recovered under a new epoch; reconnect."""
SEARCH_DELAY_MS = 1000
"""The least discard delay of a table that seats a searching bot (``master``): the hold must
cover its think time, or the release would come later exactly when it had a window to weigh."""
EMOTE_GAP_S = 2.0
"""A seat may send one emote every this many seconds."""
RECOVERY_LIMIT = 5
"""Failures of the table's own work in a row (no step committed between them) after which the
table cannot make progress: it is aborted (an invariant failure)."""
_CUTS = frozenset({EventKind.DISCARD, EventKind.CONCEALED_KONG, EventKind.ADDED_KONG})
"""Events after which a window may open (a discard; a kong, which may be robbed): a hold starts."""
_WINDOWS = (Phase.CLAIM, Phase.ROB)


def new_public_id() -> str:
    """A table's public id: 8 URL-safe characters, never starting with ``-`` or ``_`` (an id
    such as ``-x3Fq_9a`` would read as an option to ``hkmj admin cancel``)."""
    while True:
        candidate = secrets.token_urlsafe(6)
        if candidate[0].isalnum():
            return candidate


@dataclass(slots=True)
class _Prompt:
    v: int
    legal: list[Action]
    kind: str
    timer: TimerHandle | None = None


@dataclass(slots=True)
class _Pending:
    """A decision the server makes for a seat (a bot, a sat-out seat, a person's settings):
    waiting for its time (``timer``), or being computed off the loop."""

    token: int
    window: bool
    """Whether it answers a claim or robbing window (a hold waits for those)."""
    known: Action | None = None
    """The action already chosen (the passive player, a person's settings), if any."""
    timer: TimerHandle | None = None

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


@dataclass(slots=True)
class _Hold:
    """停: what the table would send after a discard or a kong, held until ``until``.

    ``game``: what the match's steps produce (events, a hand's end), built when they happen;
    ``aside``: what anything else produces meanwhile (a seat's status, the table's facts, the
    watchers, emotes), built at the release. At the release the game's frames go first, then
    the rest: so neither the order nor the content of the frames depends on *when* inside the
    hold the window's decisions landed (which would tell that there was a window)."""

    id: int
    until: float
    game: list[Callable[[], None]] = field(default_factory=list)
    aside: list[Callable[[], None]] = field(default_factory=list)
    timer: TimerHandle | None = None
    due: bool = False


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
    hello: tuple[Connection, proto.Hello] | None = None
    """A ``hello`` answered once no other seat's window is open (its snapshot must not show one)."""
    v: int = 0
    buffer: Ring = field(default_factory=lambda: Ring(BUFFER))
    prompt: _Prompt | None = None
    auto: _Pending | None = None
    auto_token: int = 0
    clock: SeatClock | None = None
    timeouts: int = 0
    """Idle count: missed own turns in a row (a missed claim window counts when the own turn
    after it is missed too)."""
    missed_claim: bool = False
    grace: TimerHandle | None = None
    ready: bool = False
    prefs: PlayerPrefs = DEFAULT_PREFS
    emote_at: float = -math.inf
    hinting: bool = False

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def row(self) -> SeatRow:
        return SeatRow(self.player, self.user_id, self.name, self.bot_level, self.status.value)


class _Soon:
    """The timer of a window decision started right after this loop turn: never cancelled (a
    stale one is dropped by its token)."""

    def cancel(self) -> None:
        """Nothing to stop."""


_SOON = _Soon()


def _with_v(obj: JSON, v: int) -> str:
    obj["v"] = v
    return dumps(obj)


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
        on_start: Callable[[Table], None] | None = None,
        epoch: str | None = None,
        watch_limit: int = DEFAULT_LIMIT,
        thinker: Thinker | None = None,
        probe: TableProbe | None = None,
    ) -> None:
        self.row = row
        self.probe = probe or NULL_PROBE
        """Where the table reports its actions, commits and bots' think times (operators'
        metrics, :mod:`~hkmahjong.parlor.probes`)."""
        self.config = TableConfig.from_json(row.config)
        self.ruleset = self.config.ruleset
        self.store = store
        self.clock: Clock = clock or LoopClock()
        self.ledger = ledger
        self.on_change = on_change
        self.on_start = on_start
        """Called once when the match starts (the lobby tells the players: ``notify_players``)."""
        self.thinker = thinker or shared_thinker()
        self.status = TableStatus(row.status)
        self.epoch = epoch or secrets.token_urlsafe(6)
        self.runner: MatchRunner | None = None
        self.seq = 0
        self.queue: asyncio.Queue[ib.Inbox] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._next_hand: TimerHandle | None = None
        self._next_due = False
        self._bought_in = False
        self._info: tuple[Any, proto.TableInfo] | None = None
        self.broken: str | None = None
        """Why the log does not replay (the table is aborted when it starts), or None."""
        self._busy = False
        self._work: set[asyncio.Future[Any]] = set()
        """Decisions and advice being computed off the loop."""
        self._soon = 0
        """Window decisions to start once this loop turn is over."""
        self._hold: _Hold | None = None
        self._holds = 0
        self._change_due = False
        self._match_end_due = False
        """The match ended inside a hold: it is closed (released, finished) at the release."""
        self._last_end: JSON | None = None
        """The last ``hand_end`` as sent (without ``t``/``v``) until the next hand starts: what a
        snapshot repeats to a seat that reconnects at a hand's end."""
        self._broadcasting = False
        """Between a step's commit and the end of its broadcast (a failure there breaks the
        seats' streams: the recovery starts a new epoch)."""
        self._failures = 0
        self._commit_failures = 0
        self.clocks = self.config.clocks
        """The clocks in force (the configured ones, the discard delay raised to cover a
        searching bot's think time)."""
        self._watch_limit = watch_limit
        self.seats = [_Seat(p) for p in range(4)]
        for s in seats:
            self._fill_seat(s)
        self.gallery = self._new_gallery()

    def _new_gallery(self) -> Gallery:
        return Gallery(
            epoch=self.epoch,
            facts=self.info,
            now=self.clock.now,
            schedule=lambda seconds: self._later(seconds, ib.GalleryDue()),
            delay_ms=self.config.watch_delay_ms,
            limit=self._watch_limit,
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
        return self.status in OPEN_STATUSES

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
        self.clocks = self._clocks_in_force()
        seat.clock = SeatClock(self.clocks)

    def _clocks_in_force(self) -> ClockSettings:
        clocks = self.config.clocks
        searching = any(s.bot_level in SEARCH_LEVELS for s in self.seats if s.kind == "bot")
        if searching and clocks.discard_delay_ms < SEARCH_DELAY_MS:
            clocks = replace(clocks, discard_delay_ms=SEARCH_DELAY_MS)
        return clocks

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
            status=TableStatus.WAITING,
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
            table._bought_in = row.status in ("playing", "paused") or await table._posted(
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
            await table._settle_ledger_history()
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
        return accounts.buy_in_key(self.id)

    @property
    def _refund_key(self) -> str:
        return accounts.refund_key(self.id)

    async def _posted(self, key: str) -> bool:
        return self.ledger is not None and await self.ledger.posted(key)

    async def _settle_ledger_history(self) -> None:
        runner = self.runner
        if runner is None or not self.config.stake or self.ledger is None or not self._bought_in:
            return
        totals: list[int | float] = [0, 0, 0, 0]
        for n, entry in enumerate(runner.match.ledger):
            after = [t + d for t, d in zip(totals, entry.deltas, strict=True)]
            await self._post_hand_move(n, totals, after)
            totals = after

    # --- the actor ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Run the actor and pick the match up where the log left it."""
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=f"table-{self.public_id}")
            await self.call(self._resume)

    async def stop(self, *, drain_s: float = 0.0) -> None:
        """Stop the actor (the table stays as stored). ``drain_s`` > 0 (a graceful shutdown):
        first let it handle every message already in its queue — an action being committed is
        committed, and its players told — for at most that long."""
        if self._task is not None and drain_s > 0 and not self._task.done():
            self.queue.put_nowait(ib.Stop())
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._task), drain_s)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for seat in self.seats:
            self._cancel_timers(seat)
            self._drop_pending(seat)
        if self._next_hand is not None:
            self._next_hand.cancel()
        if self._hold is not None and self._hold.timer is not None:
            self._hold.timer.cancel()
        for work in list(self._work):
            work.cancel()

    async def run(self) -> None:
        """Handle the queue's messages one at a time, until ``stop``.

        A failure while handling a message is never the table's end: the client whose message it
        was gets ``internal``, and the table recovers from its committed log
        (:meth:`_recover`). Only a recovery that itself fails — the log no longer replays — or
        the table's own work failing :data:`RECOVERY_LIMIT` times in a row aborts it.
        """
        current_table.set(self.public_id)  # this task's log lines name the table
        while True:
            msg = await self.queue.get()
            self._busy = True
            try:
                if isinstance(msg, ib.Stop):
                    return
                await self._dispatch(msg)
                await self._settle()
            except Exception as exc:
                await self._failed(msg, exc)
            finally:
                self._busy = False
                self.queue.task_done()

    async def _failed(self, msg: ib.Inbox, exc: Exception) -> None:
        """Handling ``msg`` raised ``exc``: tell its sender, recover; abort only when recovery
        is impossible."""
        kind = type(msg).__name__
        from_client = isinstance(msg, ib.CLIENT_MESSAGES)
        log.error(
            "table %s: failed on %s: %r; recovering from the log",
            self.public_id,
            kind,
            exc,
            exc_info=exc,
        )
        if isinstance(msg, ib.Received | ib.WatchReceived):
            ref = msg.msg.id if isinstance(msg.msg, proto.Act) else None
            with contextlib.suppress(Exception):
                self._reply(
                    msg.conn,
                    proto.error_msg(
                        proto.ErrorCode.INTERNAL, "the server failed; nothing was changed", ref
                    ),
                )
        if not from_client:
            self._failures += 1
        try:
            if self._failures >= RECOVERY_LIMIT:
                raise MahjongError(
                    f"{self._failures} failures of the table's own work in a row, the last "
                    f"on {kind}: {exc!r}"
                )
            await self._recover()
            await self._settle()
        except Exception as fatal:
            log.exception("table %s: cannot recover (%r); aborting", self.public_id, fatal)
            await self._abort(f"a server error the table could not recover from: {fatal}")

    async def _recover(self) -> None:
        """Rebuild the match from the committed log (as a failed commit does) and open the
        prompts again. When the failure came between a step's commit and the end of its
        broadcast, the seats' streams are broken: a new epoch starts and every socket is closed
        (1011), so each client reconnects and gets a snapshot.

        :raises MahjongError: when the log no longer replays (an invariant failure).
        """
        if not self.open:
            return
        lines = await self.store.lines(self.id)
        runner = MatchRunner.resume(lines, bytes.fromhex(self.row.match_seed)) if lines else None
        if runner is not None:
            runner.forget()
        self.runner, self.seq = runner, len(lines)
        broken, self._broadcasting = self._broadcasting, False
        if broken:
            self._new_epoch()
        else:
            self._release_hold()
        for seat in self.seats:
            self._drop_pending(seat)
            prompt = seat.prompt
            if prompt is not None and (
                runner is None
                or not runner.in_hand
                or seat.player not in runner.to_act_players
                or runner.legal(seat.player) != prompt.legal
            ):
                self._close_prompt(seat, None, "closed", None)
        stored = await self.store.get(self.id)
        if stored is not None and stored.status not in OPEN_STATUSES:
            await self._closed_elsewhere(stored.status)
            return
        self._update_prompts()
        if (
            self.status == TableStatus.PLAYING
            and (runner is None or runner.can_start)
            and self._bought_in
        ):
            self._schedule_next_hand(first=False)

    def _new_epoch(self) -> None:
        """Start a new epoch: versions from 0, every socket closed so that it gets a snapshot."""
        if self._hold is not None and self._hold.timer is not None:
            self._hold.timer.cancel()
        self._hold = None
        self.epoch = secrets.token_urlsafe(6)
        for seat in self.seats:
            if seat.prompt is not None and seat.prompt.timer is not None:
                seat.prompt.timer.cancel()
            if seat.clock is not None:
                seat.clock.stop(self.clock.now())
            seat.prompt = None
            seat.v, seat.buffer, seat.hello, seat.helloed = 0, Ring(BUFFER), None, False
            if seat.conn is not None:
                seat.conn.close(CLOSE_FAILED, "the server failed; reconnect")
                seat.conn = None
                if seat.status is SeatStatus.CONNECTED:
                    seat.status = SeatStatus.AWAY
                    self._start_grace(seat)
        self.gallery.close_all(CLOSE_FAILED, "the server failed; reconnect")
        self.gallery = self._new_gallery()
        self._changed()

    async def call(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` inside the actor (serialised with everything else); its result.

        :raises Exception: whatever ``fn`` raised.
        """
        if self._task is None:
            return await fn()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(ib.Call(fn, future))
        return await future

    def connect(self, player: int, conn: Connection) -> None:
        """A client of ``player`` connected (it must send ``hello`` next)."""
        self.queue.put_nowait(ib.Connect(player, conn))

    def receive(self, player: int, conn: Connection, msg: proto.ClientMessage) -> None:
        """A message from a client of ``player``, parsed at the door (``server.ws``)."""
        self.queue.put_nowait(ib.Received(player, conn, msg))

    def disconnect(self, player: int, conn: Connection) -> None:
        """A client of ``player`` went away."""
        self.queue.put_nowait(ib.Disconnect(player, conn))

    def watch(self, conn: Connection) -> None:
        """A spectator connected (it must send ``hello`` next); a full gallery closes it."""
        self.queue.put_nowait(ib.Watch(conn))

    def watch_receive(self, conn: Connection, msg: proto.ClientMessage) -> None:
        """A message from a spectator, parsed at the door."""
        self.queue.put_nowait(ib.WatchReceived(conn, msg))

    def unwatch(self, conn: Connection) -> None:
        """A spectator went away."""
        self.queue.put_nowait(ib.Unwatch(conn))

    def _later(self, seconds: float, msg: ib.Inbox) -> TimerHandle:
        return self.clock.call_later(seconds, partial(self.queue.put_nowait, msg))

    async def _dispatch(self, msg: ib.Inbox) -> None:
        match msg:
            case ib.Call(fn=fn, future=future):
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
            case ib.Connect(player=player, conn=conn):
                self._on_connect(player, conn)
            case ib.Received(player=player, conn=conn, msg=client):
                await self._on_client(player, conn, client)
            case ib.Disconnect(player=player, conn=conn):
                await self._on_disconnect(player, conn)
            case ib.TurnTimeout(player=player, v=v):
                await self._on_timeout(player, v)
            case ib.AutoDue(player=player, token=token):
                self._on_auto_due(player, token)
            case ib.Decided():
                await self._on_decided(msg)
            case ib.HintReady(player=player, conn=conn, v=v, reply=reply):
                seat = self.seats[player]
                seat.hinting = False
                if seat.conn is conn:
                    self._reply(conn, reply)
            case ib.GraceOver(player=player):
                await self._on_grace(player)
            case ib.NextHandDue():
                self._next_hand = None
                self._next_due = True
                await self._start_hand_if_due()
            case ib.Watch(conn=conn):
                if self.gallery.join(conn):
                    self._watchers_changed()
                else:
                    conn.close(CLOSE_FULL, "the gallery is full")
            case ib.WatchReceived(conn=conn, msg=client):
                self.gallery.receive(conn, client)
            case ib.Unwatch(conn=conn):
                if self.gallery.leave(conn):
                    self._watchers_changed()
            case ib.GalleryDue():
                self.gallery.release_due()
            case ib.HoldOver(hold=hold):
                if self._hold is not None and self._hold.id == hold:
                    self._hold.due = True
            case ib.Stop():
                pass

    async def _settle(self) -> None:
        """After every message: release a hold that is due (and no window decision is still
        being made), then answer the hellos that waited for no window to be open."""
        hold = self._hold
        if hold is not None and hold.due and not self._window_pending():
            self._release_hold()
            self._update_prompts()
            if self._next_due:
                await self._start_hand_if_due()
        if self._match_end_due and self._hold is None:
            self._match_end_due = False
            if self.open:
                await self._match_ended()
        if any(seat.hello is not None for seat in self.seats):
            for seat in self.seats:
                if seat.hello is not None and not self._hello_waits(seat):
                    conn, hello = seat.hello
                    seat.hello = None
                    if seat.conn is conn:
                        await self._answer_hello(seat, conn, hello)

    # --- the hold -------------------------------------------------------------------------------
    def _start_hold(self) -> None:
        """A discard or a kong was just sent: hold everything until ``discard_delay_ms`` later."""
        delay = self.clocks.discard_delay_ms / 1000
        until = self.clock.now() + delay
        hold = self._hold
        if hold is not None:  # (a kong claimed from a discard inside a hold: one longer hold)
            hold.until = max(hold.until, until)
            if hold.timer is not None:
                hold.timer.cancel()
            hold.due = False
        else:
            self._holds += 1
            hold = self._hold = _Hold(self._holds, until)
        hold.timer = self._later(delay, ib.HoldOver(hold.id))

    def _release_hold(self) -> None:
        """Send everything held, in order (the only way anything held goes out)."""
        hold, self._hold = self._hold, None
        if hold is None:
            return
        if hold.timer is not None:
            hold.timer.cancel()
        for out in hold.game:
            out()
        for out in hold.aside:
            out()
        if self._change_due:
            self._change_due = False
            self._changed()

    def _window_pending(self) -> bool:
        return any(s.auto is not None and s.auto.window for s in self.seats)

    def _in_window(self) -> bool:
        runner = self.runner
        return runner is not None and runner.in_hand and runner.phase in _WINDOWS

    def _hello_waits(self, seat: _Seat) -> bool:
        """Whether a ``hello`` of this seat must wait: during a hold, or while another seat's
        claim or robbing window is open (the seat's own window is its own information)."""
        runner = self.runner
        window = self._in_window()
        if window and runner is not None and seat.player in runner.to_act_players:
            return False
        return self._hold is not None or window

    # --- sending --------------------------------------------------------------------------------
    def _emit(self, seat: _Seat, build: Callable[[int], JSON], *, game: bool = True) -> None:
        """A versioned message to a person's seat (kept for a reconnect); held during a hold
        (a ``game`` message built now, any other built at the release)."""
        if not seat.human:
            return
        hold = self._hold
        if hold is None:
            self._deliver(seat, lambda v: dumps(build(v)))
        elif game:
            hold.game.append(partial(self._deliver, seat, partial(_with_v, build(0))))
        else:
            hold.aside.append(partial(self._deliver, seat, lambda v: dumps(build(v))))

    def _emit_text(self, seat: _Seat, text_of: Callable[[int], str]) -> None:
        """:meth:`_emit` of a game message already encoded but for its version."""
        if not seat.human:
            return
        hold = self._hold
        if hold is None:
            self._deliver(seat, text_of)
        else:
            hold.game.append(partial(self._deliver, seat, text_of))

    @staticmethod
    def _deliver(seat: _Seat, text_of: Callable[[int], str]) -> None:
        seat.v += 1
        text = text_of(seat.v)
        seat.buffer.append(seat.v, text)
        if seat.conn is not None and seat.helloed:
            seat.conn.send(text)

    def _to_gallery(self, fn: Callable[[], None], *, game: bool = True) -> None:
        """Feed the gallery now, or at the hold's release (spectators never learn earlier than
        the seats when a window closed)."""
        hold = self._hold
        if hold is None:
            fn()
        elif game:
            hold.game.append(fn)
        else:
            hold.aside.append(fn)

    def _emit_all(self, build: Callable[[int], JSON], *, game: bool = True) -> None:
        """A message to every seat, and to the spectators (held back by their delay); ``game``:
        made by the match's steps (else by anything else: see :class:`_Hold`)."""
        for seat in self.seats:
            self._emit(seat, build, game=game)
        if game or self._hold is None:
            self._to_gallery(partial(self.gallery.push_message, build(0)))
        else:
            self._to_gallery(lambda: self.gallery.push_message(build(0)), game=False)
        runner = self.runner
        if not self.open or runner is None or not runner.in_hand:
            if game or self._hold is None:
                self._to_gallery(partial(self.gallery.close, self._point(), final=True))
            else:
                self._to_gallery(lambda: self.gallery.close(self._point(), final=True), game=False)

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
            self._emit(seat, lambda v: proto.watchers_msg(v, count), game=False)
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
            self.gallery.count if hasattr(self, "gallery") else 0,
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
            clocks=self.clocks.to_json(),
            hints=self.config.hints,
            private=self.config.private,
            players=tuple(players),
            you=None,
            hand_number=max(0, runner.hand_number) if runner is not None else 0,
            dealer=match.dealer if match is not None else 0,
            prevailing=match.prevailing.letter if match is not None else "E",
            watchers=self.gallery.count if hasattr(self, "gallery") else 0,
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
        return proto.snapshot_msg(
            seat.v, self.epoch, table, view, self._prompt_json(seat), self._last_end
        )

    def _changed(self) -> None:
        """Tell the lobby the table's public facts changed (at the release, during a hold: the
        lobby must not learn sooner than the seats when a window closed)."""
        if self._hold is not None:
            self._change_due = True
        elif self.on_change is not None:
            self.on_change(self)

    # --- connections and client messages ----------------------------------------------------------
    def _on_connect(self, player: int, conn: Connection) -> None:
        seat = self.seats[player]
        if seat.conn is not None and seat.conn is not conn:
            seat.conn.close(CLOSE_REPLACED, "replaced by a newer connection")
        seat.conn, seat.helloed, seat.hello = conn, False, None

    async def _on_disconnect(self, player: int, conn: Connection) -> None:
        seat = self.seats[player]
        if seat.conn is not conn:
            return
        seat.conn, seat.helloed, seat.hello = None, False, None
        if seat.status is SeatStatus.CONNECTED:
            self._set_status(seat, SeatStatus.AWAY)
            if self.config.kind == "practice" and self.status == TableStatus.PLAYING:
                await self._set_table_status(TableStatus.PAUSED)
            else:
                self._start_grace(seat)
        elif seat.status is SeatStatus.AWAY and seat.grace is None:
            self._start_grace(seat)  # (gone again before its hello was answered)

    def _start_grace(self, seat: _Seat) -> None:
        """A person away (disconnected, or never connected): sat out once the grace runs out
        (playing), or their seat released (a waiting online table that is not a league's)."""
        grace = self.clocks.grace_ms
        if not grace or not seat.human or seat.status is not SeatStatus.AWAY:
            return
        waiting = self.status == TableStatus.WAITING and self.config.league is None
        if self.status != TableStatus.PLAYING and not waiting:
            return
        if seat.grace is not None:
            seat.grace.cancel()
        seat.grace = self._later(grace / 1000, ib.GraceOver(seat.player))

    async def _on_grace(self, player: int) -> None:
        seat = self.seats[player]
        seat.grace = None
        if not seat.human or seat.status is not SeatStatus.AWAY:
            return
        grace = self.clocks.grace_ms
        if self.status == TableStatus.PLAYING:
            await self._sit_out(seat, f"disconnected (or never connected) for more than {grace} ms")
        elif (
            self.status == TableStatus.WAITING
            and self.config.league is None
            and not self._bought_in
        ):
            await self.store.audit(
                self.id,
                "released",
                f"player {seat.player} ({seat.name}): not connected for {grace} ms",
            )
            await self._unseat(seat)

    async def _on_client(self, player: int, conn: Connection, msg: proto.ClientMessage) -> None:
        seat = self.seats[player]
        if seat.conn is not conn:
            return
        who = current_player.set(seat.user_id)  # the log lines of its handling name the player
        try:
            await self._on_message(seat, conn, msg)
        except proto.ProtocolError as exc:
            self._reply(conn, exc.to_json())
        finally:
            current_player.reset(who)

    async def _on_message(self, seat: _Seat, conn: Connection, msg: proto.ClientMessage) -> None:
        E = proto.ErrorCode
        if isinstance(msg, proto.Hello):
            if seat.helloed or seat.hello is not None:
                raise proto.ProtocolError(E.HELLO_FIRST, "hello was already received")
            if msg.proto != proto.PROTOCOL_VERSION:
                raise proto.ProtocolError(
                    E.PROTO,
                    f"this server speaks protocol {proto.PROTOCOL_VERSION}, not {msg.proto}",
                )
            if self._hello_waits(seat):
                seat.hello = (conn, msg)
                if seat.grace is not None:  # here, only waiting for its answer: not away
                    seat.grace.cancel()
                    seat.grace = None
            else:
                await self._answer_hello(seat, conn, msg)
            return
        if seat.hello is not None and isinstance(msg, proto.Ping | proto.Prefs):
            pass  # a hello is waiting for its answer: keep-alives and settings are taken
        elif not seat.helloed:
            raise proto.ProtocolError(E.HELLO_FIRST, "send hello first", proto.ref_of(msg))
        match msg:
            case proto.Ping():
                self._reply(conn, proto.pong_msg())
            case proto.Act():
                await self._on_act(seat, msg)
            case proto.SitBack():
                if seat.status is not SeatStatus.SAT_OUT:
                    raise proto.ProtocolError(E.NOT_SAT_OUT, "you are not sat out")
                self._set_status(seat, SeatStatus.CONNECTED)
                seat.timeouts, seat.missed_claim = 0, False
                self._drop_pending(seat)
                self._update_prompts()
            case proto.HintRequest(engine=engine):
                self._hint(seat, conn, engine)
            case proto.Ready():
                runner = self.runner
                if runner is None or not runner.in_hand:
                    seat.ready = True
                    await self._start_hand_if_due()
            case proto.Emote(id=emote):
                now = self.clock.now()
                if now - seat.emote_at < EMOTE_GAP_S:
                    raise proto.ProtocolError(E.RATE_LIMITED, f"one emote every {EMOTE_GAP_S:g} s")
                seat.emote_at = now
                player = seat.player
                self._emit_all(lambda v: proto.emote_msg(v, player, emote), game=False)
            case proto.Prefs():
                seat.prefs = seat.prefs.updated(msg)

    async def _answer_hello(self, seat: _Seat, conn: Connection, msg: proto.Hello) -> None:
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
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
        if seat.status is SeatStatus.AWAY:
            self._set_status(seat, SeatStatus.CONNECTED)
        if self.status == TableStatus.PAUSED:
            await self._set_table_status(TableStatus.PLAYING)
            self._update_prompts()
            runner = self.runner
            if runner is not None and runner.can_start:
                self._schedule_next_hand(first=False)
        if self.status == TableStatus.WAITING and self.config.kind == "practice":
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
        if await self._apply(seat, msg.action, by="you", ref=msg.id):
            seat.timeouts, seat.missed_claim = 0, False

    # --- decisions ------------------------------------------------------------------------------
    def _cancel_timers(self, seat: _Seat) -> None:
        if seat.prompt is not None and seat.prompt.timer is not None:
            seat.prompt.timer.cancel()
        if seat.grace is not None and not self.open:
            seat.grace.cancel()
            seat.grace = None

    def _drop_pending(self, seat: _Seat) -> None:
        """Forget a decision the server was making for the seat (a late answer is dropped by
        its token)."""
        if seat.auto is not None:
            seat.auto.cancel()
            seat.auto = None
            seat.auto_token += 1

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

    def _update_prompts(self) -> None:
        """For every player who must decide now: open a prompt, or start the decision the server
        makes for them; close the prompts and drop the decisions of those who need not any more.

        In a claim or robbing window the seats the server answers for — bots, sat-out seats, a
        person whose settings answer this window — decide at once (inside the hold, off the
        loop); a person is asked only once no hold is on. Turns are never started during a hold,
        and a paused practice table's bots wait for their player.
        """
        runner = self.runner
        live = (
            runner is not None
            and runner.in_hand
            and self.status in (TableStatus.PLAYING, TableStatus.PAUSED)
        )
        deciding = set(runner.to_act_players) if live and runner is not None else set()
        window = live and runner is not None and runner.phase in _WINDOWS
        held = self._hold is not None
        for seat in self.seats:
            if seat.player not in deciding:
                if seat.prompt is not None:
                    self._close_prompt(seat, None, "closed", None)
                self._drop_pending(seat)
                continue
            if seat.prompt is not None or seat.auto is not None:
                continue
            assert runner is not None
            person = seat.human and seat.status is not SeatStatus.SAT_OUT
            if window:
                known = None
                if person:
                    known = auto_decision(seat.prefs, runner.legal(seat.player), window=True)
                    if known is None:
                        if not held:
                            self._open_prompt(seat)
                        continue
                self._schedule_decision(seat, window=True, known=known)
                continue
            if held:
                continue
            if person:
                known = auto_decision(seat.prefs, runner.legal(seat.player), window=False)
                if known is None:
                    self._open_prompt(seat)
                else:
                    self._schedule_decision(seat, window=False, known=known)
            elif self.status == TableStatus.PLAYING:
                self._schedule_decision(seat, window=False, delay=self.clocks.bot_ms / 1000)

    def _schedule_decision(
        self, seat: _Seat, *, window: bool, known: Action | None = None, delay: float = 0.0
    ) -> None:
        """The server decides for ``seat``: now (a window: inside the hold) or after ``delay``
        (a bot's turn, at a human pace); after failed commits, later (backing off)."""
        seat.auto_token += 1
        pending = seat.auto = _Pending(seat.auto_token, window, known)
        if self._commit_failures:
            delay = max(delay, min(5.0, 0.1 * 2**self._commit_failures))
        if delay > 0:
            pending.timer = self._later(delay, ib.AutoDue(seat.player, pending.token))
        elif window:
            # Started once this loop turn is over — after the discard's frames are written — so
            # that neither computing the views nor a bot's thread (holding the GIL) can delay
            # the frames of a discard that opened a window (they would tell it opened).
            pending.timer = _SOON
            self._soon += 1
            asyncio.get_running_loop().call_soon(self._start_soon, seat.player, pending.token)
        else:
            self._decide(seat, pending)

    def _start_soon(self, player: int, token: int) -> None:
        self._soon -= 1
        self.queue.put_nowait(ib.AutoDue(player, token))

    def _on_auto_due(self, player: int, token: int) -> None:
        seat = self.seats[player]
        pending = seat.auto
        if pending is None or pending.token != token or pending.timer is None:
            return
        pending.timer = None
        self._decide(seat, pending)

    def _decide(self, seat: _Seat, pending: _Pending) -> None:
        """Make the pending decision: a known action at once, a bot's off the loop; either way
        its answer comes back as a :class:`~hkmahjong.parlor.inbox.Decided` message."""
        runner = self.runner
        player, token = seat.player, pending.token
        if runner is None or not runner.in_hand or player not in runner.to_act_players:
            self.queue.put_nowait(ib.Decided(player, token, None))
            return
        view, legal = runner.view(player), runner.legal(player)
        if pending.known is not None:
            self.queue.put_nowait(ib.Decided(player, token, pending.known))
        elif seat.kind == "bot" and seat.controller is not None:
            work = self.thinker.choose(seat.controller, view, legal)
            self._work.add(work)
            work.add_done_callback(partial(self._thought, player, token, time.perf_counter()))
        else:
            self.queue.put_nowait(ib.Decided(player, token, passive_choice(view, legal)))

    def _thought(
        self, player: int, token: int, started: float, work: asyncio.Future[Action]
    ) -> None:
        self._work.discard(work)
        if work.cancelled():
            return
        self.probe.thought(self.seats[player].bot_level or "?", time.perf_counter() - started)
        error = work.exception()
        action = None if error is not None else work.result()
        self.queue.put_nowait(ib.Decided(player, token, action, error))

    async def _on_decided(self, msg: ib.Decided) -> None:
        seat = self.seats[msg.player]
        pending = seat.auto
        if pending is None or pending.token != msg.token:
            return
        seat.auto = None
        runner = self.runner
        if runner is None or not runner.in_hand or msg.player not in runner.to_act_players:
            self._update_prompts()
            return
        view, legal = runner.view(msg.player), runner.legal(msg.player)
        action = msg.action
        if msg.error is not None:
            log.error(
                "table %s: player %d's bot failed (%r); it plays passively",
                self.public_id,
                msg.player,
                msg.error,
            )
        if action is None or action not in legal:
            action = passive_choice(view, legal)
        await self._apply(seat, action, by="auto", ref=None)

    def _open_prompt(self, seat: _Seat) -> None:
        runner = self.runner
        assert runner is not None and seat.clock is not None and self._hold is None
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
            prompt.timer = self._later(total_ms / 1000, ib.TurnTimeout(seat.player, prompt.v))

    async def _on_timeout(self, player: int, v: int) -> None:
        seat = self.seats[player]
        prompt = seat.prompt
        if prompt is None or prompt.v != v or self.runner is None:
            return
        prompt.timer = None
        action = passive_choice(self.runner.view(player), prompt.legal)
        if not await self._apply(seat, action, by="timeout", ref=None):
            if seat.prompt is prompt:  # not saved: the clock decides again a moment later
                prompt.timer = self._later(1.0, ib.TurnTimeout(player, v))
            return
        if prompt.kind == "claim":
            seat.missed_claim = True
            return
        missed = 1 + seat.missed_claim
        reason = (
            "a missed claim window and the own turn after it"
            if seat.missed_claim and seat.timeouts == 0
            else "two own turns in a row left to the clock"
        )
        seat.timeouts += missed
        seat.missed_claim = False
        if seat.timeouts >= 2 and seat.status is not SeatStatus.SAT_OUT:
            await self._sit_out(seat, reason)

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
        self._emit_all(lambda v: proto.seat_msg(v, seat.player, status.value), game=False)
        self._changed()

    async def _apply(self, seat: _Seat, action: Action, *, by: str, ref: str | None) -> bool:
        """Play ``action`` for the seat: engine, commit, and only then tell anyone — the player's
        ``done`` first. When the commit fails nothing is said but ``commit_failed`` to a person
        who acted: the match is rebuilt from the log and the prompt stays open (same ``v``).
        Whether it was committed."""
        runner = self.runner
        assert runner is not None
        started = time.perf_counter()
        try:
            step = runner.apply(seat.player, action)
        except IllegalActionError as exc:
            log.error("table %s: engine refused %s: %s", self.public_id, action.text, exc)
            self._update_prompts()
            return False
        if not await self._commit(step):
            if by == "you" and seat.conn is not None and seat.human:
                self._reply(
                    seat.conn,
                    proto.error_msg(
                        proto.ErrorCode.COMMIT_FAILED,
                        "your action could not be saved: decide again",
                        ref,
                    ),
                )
            self._update_prompts()
            return False
        self._broadcasting = True
        self._close_prompt(seat, action, by, ref)
        await self._broadcast(step)
        self._broadcasting = False
        self.probe.action(by, time.perf_counter() - started)
        return True

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
        started = time.perf_counter()
        try:
            await self.store.append(self.id, self.seq, step.lines, self._results(step))
        except Exception as exc:
            self.probe.commit(time.perf_counter() - started, False)
            self._commit_failures += 1
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
        self.probe.commit(time.perf_counter() - started, True)
        self.seq += len(step.lines)
        self._commit_failures = 0
        self._failures = 0
        return True

    async def _broadcast(self, step: StepResult) -> None:
        """Tell every seat (and the gallery) what the committed step did; after a discard or a
        kong, hold the rest (:meth:`_start_hold`)."""
        runner = self.runner
        assert runner is not None
        events = step.events
        cut = 0
        for i, ev in enumerate(events):
            if ev.kind in _CUTS:
                cut = i + 1
        if step.action is None:  # a hand starts
            self._last_end = None
            hand = runner.record.hands[-1]
            seats = {w.letter: runner.player_at(w) for w in Wind}
            self._emit_all(
                lambda v: proto.hand_msg(
                    v, hand.number, hand.dealer, hand.prevailing.letter, seats, hand.commitment
                )
            )
        if cut:
            self._send_events(events[:cut])
            self._start_hold()
            self._send_events(events[cut:])
        else:
            self._send_events(events)
        if step.hand_end is not None:
            await self._hand_ended(step)
        else:
            public = runner.public_view()
            if public.settled:
                self._to_gallery(partial(self.gallery.close, Point(self.info(), public)))
            self._update_prompts()

    def _send_events(self, events: Sequence[Event]) -> None:
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
                self._to_gallery(partial(self.gallery.push_event, public))

    # --- hands and the match ---------------------------------------------------------------------
    async def _resume(self) -> None:
        """After a (re)start: finish what the log says is done, then go on.

        A table whose log does not replay is aborted (stakes and fees refunded); one whose refund
        was posted before the server stopped is closed as cancelled (the refund is never paid
        twice). A person not connected again within the grace is sat out (or, at a waiting
        table, their seat released).
        """
        if self.broken is not None:
            await self._cancel(TableStatus.ABORTED, self.broken)
            return
        if self.open and await self._posted(self._refund_key):
            await self._cancel(TableStatus.CANCELLED, "the stakes were refunded before a restart")
            return
        runner = self.runner
        if runner is not None and runner.match_over:
            if self.status in (TableStatus.PLAYING, TableStatus.PAUSED):
                await self._match_ended()
            return
        for seat in self.seats:
            self._start_grace(seat)
        if self.status == TableStatus.WAITING:
            await self._maybe_start()
            return
        if self.status not in (TableStatus.PLAYING, TableStatus.PAUSED):
            return
        if runner is None or runner.can_start:
            self._schedule_next_hand(first=runner is None)
        else:
            self._update_prompts()

    async def _maybe_start(self) -> None:
        """Start the match once all four seats are filled (practice: once the player is here)."""
        if self.status != TableStatus.WAITING or any(s.kind == "empty" for s in self.seats):
            return
        if self.config.kind == "practice" and not any(s.helloed for s in self.seats):
            return
        if self._priced and not await self._buy_in():
            return
        await self._set_table_status(TableStatus.PLAYING)
        for seat in self.seats:
            self._start_grace(seat)
        if self.on_start is not None:
            try:
                self.on_start(self)
            except Exception:  # telling the lobby is a courtesy: never stop the table for it
                log.exception("table %s: telling the players it started failed", self.public_id)
        await self._start_hand()

    async def _short_of_buy_in(self) -> list[_Seat]:
        assert self.ledger is not None
        return [
            s
            for s in self.seats
            if s.human
            and not await can_cover(self.ledger, stakes.owner_of(s.user_id), self.config.buy_in)
        ]

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
        short = await self._short_of_buy_in()
        if not short:
            try:
                await self._post(self._buy_in_key, TxnKind.BUY_IN, amounts, "入場 buy-in")
            except InsufficientJadeError:  # spent elsewhere since the check: look again
                short = await self._short_of_buy_in()
                if not short:
                    raise
        for seat in short:
            have = await self.ledger.balance(stakes.owner_of(seat.user_id))
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
        self._drop_pending(seat)
        if seat.grace is not None:
            seat.grace.cancel()
        self.seats[seat.player] = _Seat(seat.player, clock=SeatClock(self.clocks))
        self.clocks = self._clocks_in_force()
        await self.store.save_seat(self.id, SeatRow(seat.player))
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()), game=False)
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
        self._next_due = False
        step = runner.start_hand()
        if not await self._commit(step):
            self._schedule_next_hand(first=False)
            return
        self._broadcasting = True
        await self._broadcast(step)
        self._broadcasting = False
        log.info("table %s: hand %d started", self.public_id, len(runner.record.hands) - 1)

    def _schedule_next_hand(self, *, first: bool) -> None:
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self._next_due = False
        delay = 0.0 if first else self.clocks.next_hand_ms / 1000
        if first or delay:
            self._next_hand = self._later(delay, ib.NextHandDue())

    async def _start_hand_if_due(self) -> None:
        """Start the next hand when its pause is over, or every person here is ready — not
        while paused (a practice table waits for its player) nor during a hold."""
        runner = self.runner
        if self.status != TableStatus.PLAYING or (runner is not None and not runner.can_start):
            return
        if self._hold is not None:
            return  # (released first: the start comes right after, :meth:`_settle`)
        humans_ready = all(
            s.ready or s.status is not SeatStatus.CONNECTED for s in self.seats if s.human
        )
        if runner is None or humans_ready or self._next_due:
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
        await self._post_hand_move(n, before, after)
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
        self._last_end = {
            k: w
            for k, w in proto.hand_end_msg(0, n, result, hands, seed, standings).items()
            if k not in ("t", "v")
        }
        self._update_prompts()
        self._changed()
        if step.match_over:
            if self._hold is not None:
                self._match_end_due = True  # (closed at the release, :meth:`_settle`)
            else:
                await self._match_ended()
        else:
            self._schedule_next_hand(first=False)

    async def _post(self, key: str, kind: str, amounts: dict[str, int], memo: str) -> bool:
        """Post one keyed transaction (False: it was posted before, e.g. replayed after a crash)."""
        assert self.ledger is not None
        return await self.ledger.post(Transaction.of(key, kind, amounts, memo[:200]))

    async def _post_hand_move(
        self, n: int, before: Sequence[int | float], after: Sequence[int | float]
    ) -> None:
        stake = self.config.stake
        if not stake or self.ledger is None:
            return
        amounts = stakes.hand_move(self.id, stake, before, after)
        if amounts:
            await self._post(
                accounts.hand_key(self.id, n), TxnKind.SETTLE, amounts, f"第{n + 1}局 hand {n}"
            )

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
                await self._post(
                    accounts.release_key(self.id), TxnKind.RELEASE, amounts, "散場 release"
                )
            seats = [runner.seat_of(p).letter for p in range(4)]
            settlement = stakes.settlement_json(stake, totals, seats)
        seed = runner.record.match_seed.hex() if runner.record.match_seed else ""
        record = f"/api/tables/{self.public_id}/record"
        self._emit_all(lambda v: proto.match_end_msg(v, totals, settlement, seed, record))
        await self._set_table_status(TableStatus.FINISHED)
        log.info(
            "table %s: match finished after %d hand(s)", self.public_id, len(runner.record.hands)
        )

    async def _set_table_status(self, status: TableStatus) -> None:
        if self.status == status:
            return
        self.status = status
        await self.store.set_status(self.id, status)
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()), game=False)
        self._changed()

    async def _abort(self, reason: str) -> None:
        try:
            await self._cancel(TableStatus.ABORTED, reason)
        except Exception:
            log.exception("table %s: aborting failed too (%s)", self.public_id, reason)

    async def _cancel(self, status: TableStatus, reason: str) -> None:
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
            refunded = await self._refund(reason)
        except MahjongError as exc:
            log.error("table %s: refund failed: %s", self.public_id, exc)
            refunded = None
            await self.store.audit(self.id, "refund_failed", f"{reason}: {exc}")
        await self.store.audit(self.id, status, reason)
        if refunded:
            await self.store.audit(self.id, "refund", refunded)
        await self.store.set_status(self.id, status)
        await self._close(status)

    async def _refund(self, reason: str) -> str | None:
        """退款: empty the escrows and give every seat its stake and fee back, once; what was
        refunded, or None (nothing paid in, or refunded or released before)."""
        if not self._priced or not self._bought_in:
            return None
        assert self.ledger is not None
        if await self._posted(self._refund_key) or await self._posted(
            accounts.release_key(self.id)
        ):
            return None
        stake, fee = self.config.stake or 0, self.config.fee
        owners = [s.user_id if s.human else None for s in self.seats]
        for attempt in range(3):
            escrows = [stakes.escrow_of(self.id, p) for p in range(4)]
            balances = await self.ledger.balances(escrows)
            held = [balances[a] for a in escrows]
            amounts = stakes.refund(self.id, stake, held, owners, fee)
            try:
                await self._post(
                    self._refund_key, TxnKind.REFUND, amounts, f"退款 refund: {reason}"
                )
            except InsufficientJadeError:  # a hand's move landed since the read (a live server)
                if attempt == 2:
                    raise
                continue
            break
        return f"stake {stake} and fee {fee} jade back to each of the four seats"

    async def _close(self, status: TableStatus) -> None:
        """Stop the match here (no store change): close every prompt and timer, tell everyone."""
        self._release_hold()
        self.status = status
        for seat in self.seats:
            self._cancel_timers(seat)
            self._drop_pending(seat)
            if seat.prompt is not None:
                self._close_prompt(seat, None, "closed", None)
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()), game=False)
        self._changed()

    async def _closed_elsewhere(self, status: str) -> None:
        if self.open and status not in OPEN_STATUSES:
            log.info("table %s was %s elsewhere; following", self.public_id, status)
            await self._close(TableStatus(status))

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
        if self.status != TableStatus.WAITING:
            raise TableError("started", f"the table is {self.status}; no seat can be taken")
        if not policy.sees_table(
            self.row.private, seated=False, invite=invite, token=self.row.invite_token
        ):
            raise TableError("invite", "this table is private: its invite link is needed")
        free = [s for s in self.seats if s.kind == "empty"]
        if not free:
            raise TableError("full", "every seat is taken")
        if self._priced:
            assert self.ledger is not None
            have_jade = await self.ledger.balance(stakes.owner_of(user_id))
            if have_jade < self.config.buy_in:
                raise TableError(
                    "balance", f"the buy-in is {self.config.buy_in} jade; you have {have_jade}"
                )
        seat = free[0]
        row = SeatRow(seat.player, user_id, name, None, "away")
        self._fill_seat(row)
        await self.store.save_seat(self.id, row)
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()), game=False)
        self._changed()
        self._start_grace(seat)
        await self._maybe_start()
        return seat.player

    async def leave(self, user_id: int) -> None:
        """Leave a waiting table (the seat is free at once: nothing was paid yet) or, at a
        practice table, pause it.

        :raises TableError: ``not_seated`` or ``started``.
        """
        await self.call(lambda: self._leave(user_id))

    async def _leave(self, user_id: int) -> None:
        player = self.player_of(user_id)
        if player is None:
            raise TableError("not_seated", "you hold no seat at this table")
        if self.config.kind == "practice":
            if self.status == TableStatus.PLAYING:
                await self._set_table_status(TableStatus.PAUSED)
            return
        if self.status != TableStatus.WAITING or self._bought_in:
            raise TableError("started", "the match has started: your seat is played for you")
        await self.store.audit(self.id, "left", f"player {player}: left the waiting table")
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
        if self.status != TableStatus.WAITING:
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
        self._emit_all(lambda v: proto.table_msg(v, self.info().to_json()), game=False)
        self._changed()
        await self._maybe_start()
        return filled

    async def cancel(self, reason: str, *, status: str = TableStatus.CANCELLED) -> None:
        """取消 (or abort): stop the match, refund every stake and fee, log the reason."""
        await self.call(lambda: self._cancel(TableStatus(status), reason))

    async def closed_elsewhere(self, status: str) -> None:
        """The store says this table is over (``status``): stop and tell the seats (no refund:
        whoever closed it refunded)."""
        await self.call(lambda: self._closed_elsewhere(status))

    # --- hints ------------------------------------------------------------------------------------
    def _hint(self, seat: _Seat, conn: Connection, engine: str) -> None:
        """提示: advice for the seat's open prompt (:func:`~hkmahjong.bots.advice.advise`, the
        ``strong`` bot's choice, or ``master``'s with ``engine`` master), computed off the loop
        and sent when ready (one at a time per seat)."""
        E = proto.ErrorCode
        if not self.config.hints:
            raise proto.ProtocolError(E.NO_HINTS, "hints exist at practice tables only")
        runner = self.runner
        if seat.prompt is None or runner is None:
            raise proto.ProtocolError(E.NO_PROMPT, "nothing to decide now")
        if seat.hinting:
            raise proto.ProtocolError(E.RATE_LIMITED, "a hint is being prepared; wait for it")
        seat.hinting = True
        view, legal = runner.view(seat.player), list(seat.prompt.legal)
        work = asyncio.ensure_future(self._advise(view, legal, engine, seat.player))
        self._work.add(work)
        work.add_done_callback(partial(self._advised, seat.player, conn, seat.prompt.v))

    async def _advise(
        self, view: PlayerView, legal: list[Action], engine: str, player: int
    ) -> JSON:
        chosen = None
        if engine == "master":
            searcher = SearchBot(f"{self.row.match_seed}:advice:{player}", self.ruleset)
            chosen = await self.thinker.choose(searcher, view, legal)
        advisor = StrongBot(0, ruleset=self.ruleset, time_budget=UNTIMED)
        advice = await self.thinker.run(
            partial(advise, view, legal, self.ruleset, action=chosen, bot=advisor)
        )
        reply = proto.hint_msg(advice_json(advice))
        reply["engine"] = engine
        return reply

    def _advised(self, player: int, conn: Connection, v: int, work: asyncio.Future[JSON]) -> None:
        self._work.discard(work)
        if work.cancelled():
            return
        error = work.exception()
        if error is not None:
            log.error("table %s: a hint failed: %r", self.public_id, error)
            reply = proto.error_msg(proto.ErrorCode.INTERNAL, "the hint failed; ask again")
        else:
            reply = work.result()
        self.queue.put_nowait(ib.HintReady(player, conn, v, reply))


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
