"""旁觀席 (the gallery): a table's spectators — public information only, after a delay.

The table actor feeds its gallery what it tells every seat, as a spectator may see it: each event
in its :meth:`~hkmahjong.engine.events.Event.public` form, the hand's start (with the wall's
commitment), its end (every hand revealed, the seed), the table's public facts. Nothing that only
one seat may see (its tiles, prompts, clocks, hints) is ever given to the gallery, and its
snapshots are the engine's :class:`~hkmahjong.engine.view.PublicView`.

Messages are grouped into *segments* that end where the hand is *settled* (a turn has begun, or
the hand is over: :attr:`PublicView.settled`). So neither the stream nor the snapshot a newcomer
gets depends on whether a claim window opened — which would tell that some seat holds a pair or
is ready. A closed segment is released to the spectators after the table's delay:

* one hand-turn (the default, ``delay_ms`` None): a discard releases every closed segment — up
  to where the discarder's turn began — so spectators are always one discard behind the table;
  when the hand ends (or between hands) everything is released: nothing is left to hide;
* ``delay_ms``: each segment that many milliseconds after it closed.

Spectators have their own version sequence (``v``), a buffer of the last messages and resync on
``hello`` as a seat has (docs/protocol.md, *Spectators*); they cannot act.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from hkmahjong.engine.events import Event, EventKind
from hkmahjong.engine.view import PublicView
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.ports import Connection
from hkmahjong.parlor.ring import Ring
from hkmahjong.parlor.wire import JSON, dumps, event_json, public_view_json

__all__ = ["BUFFER", "CLOSE_FULL", "DEFAULT_LIMIT", "MAX_DELAY_MS", "Gallery", "Point"]

BUFFER = 16
"""Released messages kept for a spectator's resync (older gaps get a snapshot)."""
DEFAULT_LIMIT = 50
"""Spectators one table admits at most (the server's setting overrides it)."""
MAX_DELAY_MS = 600_000
"""The longest delay a table may set (ten minutes)."""
CLOSE_FULL = 4429
"""The websocket close code when the gallery is full."""

Builder = Callable[[int], JSON]


@dataclass(frozen=True, slots=True)
class Point:
    """Where a segment ends: the table's public facts then (None: ask the table when needed)
    and the public view then (None before the first hand)."""

    table: proto.TableInfo | None
    view: PublicView | None


@dataclass(slots=True)
class _Segment:
    messages: list[JSON] = field(default_factory=list)
    point: Point | None = None
    due: float = 0.0


@dataclass(slots=True)
class _Watcher:
    conn: Connection
    helloed: bool = False


class Gallery:
    """旁觀席 of one table: the spectators' connections and the delayed public stream.

    Driven by the table's actor only (not thread-safe). ``facts()`` gives the table's public
    facts now; ``now()`` the table clock's time; ``schedule(seconds)`` asks the actor to call
    :meth:`release_due` that much later (timed delays).
    """

    def __init__(
        self,
        *,
        epoch: str,
        facts: Callable[[], proto.TableInfo],
        now: Callable[[], float],
        schedule: Callable[[float], object],
        delay_ms: int | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        self.epoch = epoch
        self.facts = facts
        self.now = now
        self.schedule = schedule
        self.delay_ms = delay_ms
        self.limit = limit
        self.v = 0
        self.buffer = Ring(BUFFER)
        self.watchers: dict[int, _Watcher] = {}
        """By ``id()`` of the connection (connections need not be hashable)."""
        self._open = _Segment()
        self._pending: deque[_Segment] = deque()
        self._frontier: Point | None = None
        self._last_view: PublicView | None = None

    # --- spectators -----------------------------------------------------------------------------
    @property
    def count(self) -> int:
        """How many spectators are connected."""
        return len(self.watchers)

    def join(self, conn: Connection) -> bool:
        """Admit ``conn`` (it must send ``hello`` next); False when the gallery is full."""
        if id(conn) in self.watchers:
            return True
        if len(self.watchers) >= self.limit:
            return False
        self.watchers[id(conn)] = _Watcher(conn)
        return True

    def leave(self, conn: Connection) -> bool:
        """Forget ``conn``; whether it was watching."""
        return self.watchers.pop(id(conn), None) is not None

    def receive(self, conn: Connection, msg: proto.ClientMessage) -> None:
        """A spectator's message (parsed at the door): ``hello`` (snapshot or resync), ``ping``;
        anything else is refused with ``not_seated`` (a spectator cannot act)."""
        watcher = self.watchers.get(id(conn))
        if watcher is None or watcher.conn is not conn:
            return
        E = proto.ErrorCode
        try:
            if isinstance(msg, proto.Hello):
                if watcher.helloed:
                    raise proto.ProtocolError(E.HELLO_FIRST, "hello was already received")
                if msg.proto != proto.PROTOCOL_VERSION:
                    raise proto.ProtocolError(
                        E.PROTO,
                        f"this server speaks protocol {proto.PROTOCOL_VERSION}, not {msg.proto}",
                    )
                watcher.helloed = True
                self._hello(conn, msg)
            elif not watcher.helloed:
                raise proto.ProtocolError(E.HELLO_FIRST, "send hello first", proto.ref_of(msg))
            elif isinstance(msg, proto.Ping):
                conn.send(dumps(proto.pong_msg()))
            else:
                raise proto.ProtocolError(
                    E.NOT_SEATED, "you are watching: spectators cannot act", proto.ref_of(msg)
                )
        except proto.ProtocolError as exc:
            conn.send(dumps(exc.to_json()))

    def _hello(self, conn: Connection, msg: proto.Hello) -> None:
        missed = None
        if msg.epoch == self.epoch and msg.since is not None and self.buffer.last == self.v:
            missed = self.buffer.after(msg.since)  # (released unwatched: not kept, a snapshot)
        if missed is not None:
            for text in missed:
                conn.send(text)
            conn.send(dumps(proto.synced_msg(self.v, None)))
        else:
            conn.send(dumps(self.snapshot()))

    def snapshot(self) -> JSON:
        """The ``snapshot`` a spectator gets: the table and its public view where the released
        stream stands (``you`` null, ``prompt`` null)."""
        point = self._frontier
        info = point.table if point is not None and point.table is not None else self.facts()
        table = replace(info, you=None, watchers=self.count).to_json()
        view = point.view if point is not None else None
        return proto.snapshot_msg(
            self.v, self.epoch, table, None if view is None else public_view_json(view), None
        )

    # --- the feed (from the table's actor) --------------------------------------------------------
    def push(self, build: Builder) -> None:
        """A message for the spectators, built now (as the table is now) and given its ``v``
        when it is released."""
        self._open.messages.append(build(0))

    def push_message(self, msg: JSON) -> None:
        """A message for the spectators, already built (its ``v`` is set when it is released)."""
        self._open.messages.append(msg)

    def push_event(self, event: Event) -> None:
        """A public event (pass ``event.public()``); a discard releases the closed segments
        (one-turn delay)."""
        self._open.messages.append(proto.event_msg(0, event_json(event)))
        if event.kind is EventKind.DISCARD:
            self.discarded()

    def discarded(self) -> None:
        """A discard was made (a table rebuilt from its log says so without messages)."""
        if self.delay_ms is None:
            self._release(len(self._pending))

    def close(self, point: Point, *, final: bool = False) -> None:
        """End the open segment where the table now is; ``final``: the hand is over (or none is
        being played, or the table closed) — release everything (one-turn delay)."""
        view = point.view
        if view is not None and not view.settled:  # a table closed inside a window
            point = replace(point, view=self._last_view)
        else:
            self._last_view = view
        seg, self._open = self._open, _Segment()
        seg.point = point
        self._pending.append(seg)
        if self.delay_ms is not None:
            seg.due = self.now() + self.delay_ms / 1000
            if self.delay_ms == 0:
                self.release_due()
            else:
                self.schedule(self.delay_ms / 1000)
        elif final:
            self._release(len(self._pending))

    def release_due(self) -> None:
        """Release every segment whose delay has passed (timed delays)."""
        now = self.now()
        n = 0
        for seg in self._pending:
            if seg.due > now + 1e-9:
                break
            n += 1
        self._release(n)

    def _release(self, n: int) -> None:
        for _ in range(n):
            seg = self._pending.popleft()
            if not self.watchers:  # nobody to send them to: numbered, not encoded nor kept
                self.v += len(seg.messages)
                self._frontier = seg.point
                continue
            for msg in seg.messages:
                self.v += 1
                msg["v"] = self.v
                text = dumps(msg)
                self.buffer.append(self.v, text)
                for watcher in self.watchers.values():
                    if watcher.helloed:
                        watcher.conn.send(text)
            self._frontier = seg.point

    def close_all(self, code: int, reason: str) -> None:
        """Close every spectator's connection."""
        for watcher in list(self.watchers.values()):
            watcher.conn.close(code, reason)
        self.watchers.clear()
