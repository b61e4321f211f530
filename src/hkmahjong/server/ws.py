"""連線 the websockets: ``/ws/table/{id}`` (docs/protocol.md) and ``/ws/lobby``.

The socket adapts a :class:`~hkmahjong.parlor.ports.Connection` for the table actor: frames go
out through a bounded queue (a client too slow to read is dropped), frames come in after a
per-connection rate limit and are **parsed at the door** (:class:`_Seated`, :class:`_Watching`:
every table socket, native or ASGI, and the frames another server process relays here): a frame
that is not a valid message is answered here with its ``error`` and never reaches the table,
which takes typed messages only (docs/protocol.md). The cookie session says who is at the other
end: a seated player, or else a spectator (旁觀; a private table's invite in ``?invite=``), fed
by the table's gallery. The ``Origin`` header must be this server's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar
from urllib.parse import unquote

from fastapi import APIRouter, WebSocket
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect, WebSocketState
from websockets.http11 import Request

from hkmahjong.parlor import policy
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor.gallery import CLOSE_FULL
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import Connection
from hkmahjong.parlor.table import Table
from hkmahjong.parlor.wire import dumps
from hkmahjong.server.auth import client_host, current_user
from hkmahjong.server.limits import SpectatorSlots
from hkmahjong.server.proxies import TrustedProxies
from hkmahjong.server.wsframes import EXTENSION, Frames, ParlorWebSocketProtocol

__all__ = [
    "RATE_BURST",
    "RATE_PER_SECOND",
    "Elsewhere",
    "TokenBucket",
    "WsConnection",
    "bind",
    "router",
]

router = APIRouter()
log = logging.getLogger(__name__)

C = TypeVar("C", bound=Connection)

RATE_PER_SECOND = 10.0
RATE_BURST = 20.0
HELLO_TIMEOUT = 10.0
OUTBOX_LIMIT = 2000
UNSENT_LIMIT = 1 << 20
"""Bytes a client may leave unread (written frames its socket has not taken) before it is
dropped."""


class TokenBucket:
    """A rate limit: ``rate`` tokens a second, at most ``burst`` saved up."""

    __slots__ = ("at", "burst", "rate", "refused", "tokens")

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()
        self.refused = 0.0

    def take(self) -> bool:
        """Spend one token; False when none is left (the message is refused)."""
        now = time.monotonic()
        elapsed = now - self.at
        self.at = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.refused = max(0.0, self.refused - elapsed * self.rate)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    @property
    def abusive(self) -> bool:
        """Far beyond the limit: refused messages pile up past five seconds' worth of the rate.

        The pile drains at the rate itself, so a client that slows to the rate is forgiven, and
        the verdict does not depend on how fast the server happens to read (a busy server reads
        a flood in bursts, and a window of wall-clock time would forgive it).
        """
        return self.refused > 4 * self.rate


_NO_OUTBOX: deque[tuple[str, Any]] = deque(maxlen=0)
"""The outbox of every connection written directly (:class:`WsConnection`): never used (a
``maxlen`` of 0 drops anything put in it, and ``_put`` asserts nothing is)."""


class WsConnection:
    """The table's view of one websocket: ``send`` queues, the queue is written out soon.

    Under ``hkmj serve`` (:mod:`hkmahjong.server.wsframes`) the frames queued while the event
    loop runs one callback — a table's step: ``done``, ``event``, ``prompt``, ``clock`` — go out
    together in one write at the end of that callback, with no task per connection; a client
    that leaves more than :data:`UNSENT_LIMIT` bytes unread is dropped. Elsewhere (the test
    client) a writer task drains a plain deque through the ASGI ``send``, and a client that
    lets :data:`OUTBOX_LIMIT` frames pile up is dropped.
    """

    __slots__ = ("_loop", "_texts", "_wake", "closed", "frames", "outbox", "writer", "ws")

    def __init__(self, ws: WebSocket | None, frames: Frames | None = None) -> None:
        self.ws = ws
        self.closed = False
        self._wake: asyncio.Future[None] | None = None
        if frames is None and ws is not None:
            frames = ws.scope.get("extensions", {}).get(EXTENSION)
        self.frames = frames
        self.outbox: deque[tuple[str, Any]] = _NO_OUTBOX if frames is not None else deque()
        """The frames waiting for the writer task (ASGI ``send`` only: a direct writer has none,
        and no connection of a busy server carries an empty deque's 600 bytes for nothing)."""
        self.writer: asyncio.Task[None] | None = (
            None if self.frames is not None else asyncio.create_task(self._write())
        )
        self._texts: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop the first frame was sent in (asked once: each ``get_running_loop`` costs a
        ``getpid`` system call in CPython 3.11, and a busy server sends thousands a second)."""

    def _put(self, item: tuple[str, Any]) -> None:
        assert self.outbox is not _NO_OUTBOX, "a direct writer queues nothing"
        self.outbox.append(item)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def send(self, text: str) -> None:
        """Queue a frame (a client that lets too many pile up is disconnected)."""
        if self.closed:
            return
        if self.frames is not None:
            if not self._texts:
                loop = self._loop
                if loop is None:
                    loop = self._loop = asyncio.get_running_loop()
                _flush_soon(self, loop)
            self._texts.append(text)
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.close(1008, "too slow: too many unread messages")
            return
        self._put(("text", text))

    def flush(self) -> None:
        """Write the frames queued so far (direct writes only)."""
        texts, self._texts = self._texts, []
        frames = self.frames
        if not texts or frames is None or self.closed:
            return
        if frames.unsent() > UNSENT_LIMIT:
            self.close(1008, "too slow: too many unread messages")
        elif not frames.write(texts):
            self.closed = True

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued."""
        if self.closed:
            return
        if self.frames is not None:
            self.flush()
            self.closed = True
            self.frames.close(code, reason)
            return
        self.closed = True
        self._put(("close", (code, reason)))

    async def _write(self) -> None:
        outbox = self.outbox
        while True:
            if not outbox:
                self._wake = asyncio.get_running_loop().create_future()
                await self._wake
                continue
            kind, value = outbox.popleft()
            assert self.ws is not None
            try:
                if kind == "text":
                    await self.ws.send_text(value)
                else:
                    code, reason = value
                    await self.ws.close(code, reason)
                    return
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.closed = True
                return

    async def finish(self) -> None:
        """Stop the writer."""
        self.closed = True
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.writer


_dirty: list[WsConnection] = []
_dirty_loop: list[asyncio.AbstractEventLoop] = []
"""The loop that will flush :data:`_dirty` (one server process has one)."""


def _flush_all() -> None:
    batch = _dirty[:]
    _dirty.clear()
    for conn in batch:
        conn.flush()


def _flush_soon(conn: WsConnection, loop: asyncio.AbstractEventLoop) -> None:
    """Flush ``conn`` when the running callback of ``loop`` (the running one) is done (one loop
    callback for all of them)."""
    if (
        not _dirty_loop or _dirty_loop[0] is not loop
    ):  # another loop's leftovers (it stopped before flushing them)
        _dirty.clear()
        _dirty_loop[:] = [loop]
    if not _dirty:
        loop.call_soon(_flush_all)
    _dirty.append(conn)


def _origin_ok(ws: HTTPConnection) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: browsers always send Origin on a websocket
    host = ws.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def lobby_of(ws: HTTPConnection) -> Lobby:
    """The app's lobby."""
    lobby = ws.app.state.lobby
    assert isinstance(lobby, Lobby)
    return lobby


@dataclass(slots=True)
class _Attached(Generic[C]):
    """A connection admitted to a table: its frames go to ``deliver``; ``detach`` at the end."""

    conn: C
    deliver: Callable[[str | bytes], None]
    detach: Callable[[], None]


class Elsewhere(Protocol):
    """Tables live in other server processes (``app.state.cluster``, docs/deploy.md)."""

    def attach(
        self, public_id: str, user_id: int | None, invite: str | None, conn: WsConnection
    ) -> _Attached[WsConnection]:
        """Admit ``conn`` to a table that is not live in this process."""
        ...


def bind(
    table: Table, user_id: int | None, invite: str | None, make: Callable[[], C]
) -> _Attached[C] | tuple[int, str]:
    """Admit a client to ``table``: as the seated player ``user_id`` holds, else as a spectator
    (旁觀, public information only, after the table's delay); or the close code and reason that
    refuse it. ``make`` makes the connection once admitted."""
    player = None if user_id is None else table.player_of(user_id)
    if player is None:
        if not policy.sees_table(
            table.row.private, seated=False, invite=invite, token=table.row.invite_token
        ):
            return 4403, "this table is private: its invite link is needed to watch"
        conn = make()
        table.watch(conn)
        watching = _Watching(table, conn)
        return _Attached(conn, watching.receive, watching.leave)
    conn = make()
    table.connect(player, conn)
    seated = _Seated(table, player, conn)
    return _Attached(conn, seated.receive, seated.leave)


def parse_at_door(conn: Connection, data: str | bytes) -> proto.ClientMessage | None:
    """One client frame parsed (:func:`~hkmahjong.parlor.protocol.parse_client`), or None when it
    is not a valid message: its ``error`` is then sent back here and nothing reaches the table.
    Any other failure of the parser is answered the same way (``bad_message``), never raised."""
    try:
        return proto.parse_client(data)
    except proto.ProtocolError as exc:
        conn.send(dumps(exc.to_json()))
    except Exception:  # a parser bug must not reach the table either
        log.exception("a client frame could not be parsed")
        conn.send(dumps(proto.error_msg(proto.ErrorCode.BAD_MESSAGE, "the frame was not read")))
    return None


class _Seated:
    """A seated player's connection, bound to its table and seat (what the socket's frames and
    its end are passed to; one small object instead of two closures and their cells, for each
    of a busy server's thousands of sockets)."""

    __slots__ = ("conn", "player", "table")

    def __init__(self, table: Table, player: int, conn: Any) -> None:
        self.table, self.player, self.conn = table, player, conn

    def receive(self, data: str | bytes) -> None:
        msg = parse_at_door(self.conn, data)
        if msg is not None:
            self.table.receive(self.player, self.conn, msg)

    def leave(self) -> None:
        self.table.disconnect(self.player, self.conn)


class _Watching:
    """A spectator's connection, bound to its table."""

    __slots__ = ("conn", "table")

    def __init__(self, table: Table, conn: Any) -> None:
        self.table, self.conn = table, conn

    def receive(self, data: str | bytes) -> None:
        msg = parse_at_door(self.conn, data)
        if msg is not None:
            self.table.watch_receive(self.conn, msg)

    def leave(self) -> None:
        self.table.unwatch(self.conn)


def _attach(
    http: HTTPConnection, public_id: str, make: Callable[[], WsConnection]
) -> _Attached[WsConnection] | tuple[int, str]:
    """Who is at the other end of a table's socket (:func:`bind`), or the close code and reason
    that refuse it; a table live in another server process is reached through it."""
    if not _origin_ok(http):
        return 4403, "bad origin"
    user = current_user(http)
    user_id = None if user is None else user.id
    invite = http.query_params.get("invite")
    table = lobby_of(http).get(public_id)
    if table is None:
        elsewhere: Elsewhere | None = getattr(http.app.state, "cluster", None)
        if elsewhere is None:
            return 4404, "no such table"
        return elsewhere.attach(public_id, user_id, invite, make())
    if user_id is not None and table.player_of(user_id) is not None:
        return bind(table, user_id, invite, make)
    slots: SpectatorSlots | None = getattr(http.app.state, "spectator_slots", None)
    give_back = None if slots is None else slots.take(public_id, client_host(http))
    if slots is not None and give_back is None:
        return CLOSE_FULL, f"at most {slots.per_address} spectators from one address at a table"
    got = bind(table, user_id, invite, make)
    if give_back is not None:
        if isinstance(got, tuple):
            give_back()
        else:
            got.detach = _Both(got.detach, give_back)
    return got


class _Both:
    """Two calls as one (a spectator's detach, then its slot given back)."""

    __slots__ = ("first", "second")

    def __init__(self, first: Callable[[], None], second: Callable[[], None]) -> None:
        self.first, self.second = first, second

    def __call__(self) -> None:
        try:
            self.first()
        finally:
            self.second()


class _Inbound:
    """A table socket's frames from the client, after its ``hello``: at the rate limit."""

    __slots__ = ("bucket", "conn", "deliver")

    def __init__(self, conn: WsConnection, deliver: Callable[[str | bytes], None]) -> None:
        self.conn = conn
        self.deliver = deliver
        self.bucket = TokenBucket(RATE_PER_SECOND, RATE_BURST)

    def take(self, data: str | bytes) -> bool:
        """One frame; False when the socket is to be read no more."""
        conn = self.conn
        if conn.closed:
            return False
        bucket = self.bucket
        if not bucket.take():
            if bucket.abusive:
                conn.close(1008, "far over the message-rate limit")
                return False
            conn.send(dumps(proto.error_msg(proto.ErrorCode.RATE_LIMITED, "too many messages")))
            return True
        self.deliver(data)
        return True


@router.websocket("/ws/table/{public_id}")
async def table_socket(ws: WebSocket, public_id: str) -> None:
    """One player's connection to a table, or a spectator's (docs/protocol.md). Under
    ``hkmj serve`` this route is served natively instead (:class:`TableEndpoint`)."""
    await ws.accept()
    got = _attach(ws, public_id, lambda: WsConnection(ws))
    if isinstance(got, tuple):
        await ws.close(*got)
        return
    try:
        await _pump(ws, _Inbound(got.conn, got.deliver))
    finally:
        got.detach()
        await _drain(got.conn)


async def _pump(ws: WebSocket, inbound: _Inbound) -> None:
    """Read frames until the socket closes: ``hello`` within 10 s, then at the rate limit."""
    conn = inbound.conn
    first = True
    try:
        while True:
            timeout = HELLO_TIMEOUT if first else None
            try:
                msg = await asyncio.wait_for(ws.receive(), timeout)
            except TimeoutError:
                conn.close(4408, "no hello within 10 s")
                break
            if msg["type"] == "websocket.disconnect":
                break
            first = False
            data = msg.get("text")
            if data is None:
                data = msg.get("bytes") or b""
            if not inbound.take(data):
                break
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        await asyncio.sleep(0)


class _NativeSocket:
    """A table socket served natively: :class:`_Inbound` fed by the protocol, the hello
    clock a timer."""

    __slots__ = ("attached", "inbound", "timer")

    def __init__(self, attached: _Attached[WsConnection]) -> None:
        self.attached = attached
        self.inbound: _Inbound | None = _Inbound(attached.conn, attached.deliver)
        self.timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
            HELLO_TIMEOUT, self._no_hello
        )

    def _no_hello(self) -> None:
        self.timer = None
        self.attached.conn.close(4408, "no hello within 10 s")
        self._stop()

    def message(self, data: str | bytes) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        inbound = self.inbound
        if inbound is not None and not inbound.take(data):
            self._stop()

    def ended(self) -> None:
        self._stop()

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.inbound is None:
            return
        self.inbound = None
        self.attached.conn.closed = True
        self.attached.detach()


TABLE_PREFIX = "/ws/table/"


class TableEndpoint:
    """``/ws/table/{id}`` served straight on :class:`ParlorWebSocketProtocol` (``hkmj serve``):
    the same checks, table calls, rate limit and hello clock as :func:`table_socket`, without
    an ASGI task, scope and middleware coroutines held for each connection."""

    def __init__(self, app: Any) -> None:
        self.app = app

    @staticmethod
    def _public_id(path: str) -> str | None:
        route = unquote(path.partition("?")[0])
        if not route.startswith(TABLE_PREFIX):
            return None
        rest = route[len(TABLE_PREFIX) :]
        return rest if rest and "/" not in rest else None

    def wants(self, path: str) -> bool:
        return self._public_id(path) is not None

    def open(self, frames: Frames, request: Request) -> _NativeSocket | None:
        public_id = self._public_id(request.path)
        assert public_id is not None
        path, _, query = request.path.partition("?")
        scope = {
            "type": "websocket",
            "app": self.app,
            "path": unquote(path),
            "query_string": query.encode("latin-1"),
            "headers": [
                (k.lower().encode("latin-1"), v.encode("latin-1"))
                for k, v in request.headers.raw_items()
            ],
            "client": _client(self.app, frames, request),
            "state": {},
        }
        got = _attach(HTTPConnection(scope), public_id, lambda: WsConnection(None, frames))
        if isinstance(got, tuple):
            frames.close(*got)
            return None
        return _NativeSocket(got)


def _client(app: Any, frames: Frames, request: Request) -> tuple[str, int] | None:
    """A native socket's client address, as ``ClientAddress`` gives the ASGI ones (through the
    trusted proxies only: :mod:`hkmahjong.server.proxies`)."""
    transport = getattr(frames, "transport", None)
    peer = transport.get_extra_info("peername") if transport is not None else None
    if not peer:
        return None
    proxies: TrustedProxies | None = getattr(app.state, "proxies", None)
    if proxies is None:
        return str(peer[0]), int(peer[1])
    forwarded = ",".join(request.headers.get_all("X-Forwarded-For")) or None
    host = proxies.client(str(peer[0]), forwarded)
    return host, int(peer[1]) if host == peer[0] else 0


def websocket_protocol(app: Any) -> type[ParlorWebSocketProtocol]:
    """The websocket protocol class for uvicorn (``hkmj serve``): the tables' sockets served
    natively by ``app``'s lobby."""
    return ParlorWebSocketProtocol.serving(TableEndpoint(app))


async def _drain(conn: WsConnection) -> None:
    """Let queued frames (a close) go out, then stop the writer."""
    conn.flush()
    if conn.writer is not None:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(conn.writer), 2.0)
    await conn.finish()
    if conn.ws is not None and conn.ws.client_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await conn.ws.close()


def lobby_reply(data: str | bytes) -> str | None:
    """The lobby socket's answer to one client frame: ``pong`` to ``ping``, an ``error`` to
    anything else (never an exception: :func:`~hkmahjong.parlor.protocol.parse_client` raises
    nothing but ``ProtocolError``)."""
    try:
        msg = proto.parse_client(data)
        if not isinstance(msg, proto.Ping):
            raise proto.ProtocolError(
                proto.ErrorCode.BAD_MESSAGE, "the lobby socket takes ping only"
            )
    except proto.ProtocolError as exc:
        return dumps(exc.to_json())
    return dumps(proto.pong_msg())


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """The list of open tables once, then its changes (docs/protocol.md, *Lobby*); a signed-in
    player's sockets also hear ``your_table`` when a table they sit at starts. A failure while
    serving one client closes that socket only (1011), logged."""
    await ws.accept()
    if not _origin_ok(ws):
        await ws.close(4403, "bad origin")
        return
    lobby = lobby_of(ws)
    user = current_user(ws)
    conn = WsConnection(ws)
    bucket = TokenBucket(RATE_PER_SECOND, RATE_BURST)
    lobby.watch(conn, None if user is None else user.id)
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                if bucket.abusive:
                    conn.close(1008, "far over the message-rate limit")
                    break
                continue
            reply = lobby_reply(msg.get("text") or msg.get("bytes") or b"")
            if reply is not None:
                conn.send(reply)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("lobby socket: failed serving a client; its socket is closed")
        conn.close(1011, "server error")
    finally:
        lobby.unwatch(conn)
        await _drain(conn)
