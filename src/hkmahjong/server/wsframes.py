"""幀 the parlor's websocket protocol for uvicorn: its frames written straight to the socket.

uvicorn's ``websockets-sansio`` protocol, plus one thing: an ASGI extension
(``scope["extensions"]["hkmj.frames"]``) through which :class:`~hkmahjong.server.ws.WsConnection`
writes a batch of text frames in **one** ``transport.write`` and without a task or an ``await``
per frame. A table's step sends each seat several frames at once (``done``, ``event``,
``prompt``, ``clock``); through ASGI each frame costs a coroutine chain, a pass through the
websockets library and a system call of its own — the largest cost of a busy parlor
(docs/server.md, *Capacity*). Everything else (the handshake, reading, ping/pong, closing) is
uvicorn's and the websockets library's as before; without the extension (Starlette's test
client, another server) the connection falls back to the ASGI ``send``.

Checked against uvicorn 0.55.0 and websockets 17.4, and (``make min-versions``) against the
lowest versions pyproject.toml admits, uvicorn 0.52.1 and websockets 14.0. This module uses
internals of both, not their API: of uvicorn, ``HttpToolsProtocol.handle_websocket_upgrade`` and
its ``parser`` and ``transport``; ``WebSocketsSansIOProtocol`` (uvicorn 0.35) with its
``handle_*`` methods and its ``conn``, ``transport``, ``loop``, ``queue``, ``connections``,
``default_headers``, ``handshake_initiated``, ``handshake_complete``, ``close_sent``,
``read_paused`` and ``scope``, its keep-alive ``ping_interval``, ``ping_timeout`` and
``handle_pong`` (0.44), and ``disconnected``, ``close_timer`` and ``close_timeout`` (0.52.1);
of websockets, the sans-I/O ``ServerProtocol`` (``accept``, ``send_response``,
``receive_data``, ``events_received``, ``data_to_send``, ``send_close``, ``send_ping``,
``fail``, ``parser_exc`` and the ``parser`` generator), ``Frame``, ``Opcode``, ``Request`` and
``State``. A uvicorn or websockets release outside the pinned ranges must be checked again.
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

__all__ = [
    "EXTENSION",
    "FrameWriter",
    "Frames",
    "Handler",
    "Native",
    "NativeConnection",
    "ParlorHttpProtocol",
    "ParlorWebSocketProtocol",
]

EXTENSION = "hkmj.frames"


CLOSE_TIMEOUT = 10.0
"""Seconds the peer has to answer our close frame before the socket is closed (uvicorn's)."""


class Frames(Protocol):
    """Where a table's connection (:class:`~hkmahjong.server.ws.WsConnection`) writes its
    frames directly: :class:`FrameWriter` (an ASGI websocket under ``hkmj serve``) or
    :class:`NativeConnection` (a table socket served natively)."""

    @property
    def open(self) -> bool:
        """Whether frames can still be sent."""
        ...

    def write(self, texts: Sequence[str]) -> bool:
        """Send ``texts`` as text frames in one write; False when the connection is not open."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake."""
        ...

    def unsent(self) -> int:
        """Bytes written but not yet taken by the socket."""
        ...


def _text_frames(texts: Sequence[str]) -> bytes:
    """``texts`` as unfragmented, unmasked text frames (RFC 6455 §5.2: a server never masks)."""
    out: list[bytes] = []
    for text in texts:
        data = text.encode()
        n = len(data)
        if n < 126:
            out.append(bytes((0x81, n)))
        elif n < 65536:
            out.append(b"\x81\x7e" + n.to_bytes(2, "big"))
        else:
            out.append(b"\x81\x7f" + n.to_bytes(8, "big"))
        out.append(data)
    return b"".join(out)


class FrameWriter:
    """Writes unfragmented, unmasked text frames (RFC 6455 §5.2: a server never masks) to an open
    websocket connection of :class:`ParlorWebSocketProtocol`."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: ParlorWebSocketProtocol) -> None:
        self._protocol = protocol

    @property
    def open(self) -> bool:
        """Whether frames can still be sent (the handshake done, no close sent or received)."""
        p = self._protocol
        return (
            p.handshake_complete
            and not p.close_sent
            and not p.disconnected
            and p.conn.state is State.OPEN
            and not p.transport.is_closing()
        )

    def write(self, texts: Sequence[str]) -> bool:
        """Send ``texts`` as text frames in one write; False when the connection is not open."""
        if not self.open:
            return False
        self._protocol.transport.write(_text_frames(texts))
        return True

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake (as uvicorn closes for an ASGI app: the peer has
        ``close_timeout`` seconds to answer, then the socket is closed)."""
        p = self._protocol
        if p.close_sent or p.transport.is_closing() or p.conn.state is not State.OPEN:
            return
        p.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        p.conn.send_close(code, reason)
        p.transport.write(b"".join(p.conn.data_to_send()))
        p.close_sent = True
        if p.read_paused:
            p.read_paused = False
            p.transport.resume_reading()
        p.close_timer = p.loop.call_later(p.close_timeout, p.transport.close)

    def unsent(self) -> int:
        """Bytes written but not yet taken by the socket (a client too slow to read)."""
        return self._protocol.transport.get_write_buffer_size()


class Native(Protocol):
    """A websocket endpoint served straight on the protocol (no ASGI task per connection)."""

    def wants(self, path: str) -> bool:
        """Whether this endpoint takes the request for ``path`` (with its query)."""
        ...

    def open(self, frames: Frames, request: Request) -> Handler | None:
        """The handshake is done: check the request, and answer the handler of its frames
        (None: it was refused, ``frames.close`` said why)."""
        ...


class Handler(Protocol):
    """A natively served connection's side of the app."""

    def message(self, data: str | bytes) -> None:
        """One message from the client."""
        ...

    def ended(self) -> None:
        """The connection is gone (closed either way, or lost)."""
        ...


class ParlorWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with the :class:`FrameWriter` extension in each scope, and
    the :attr:`native` endpoint (the tables' sockets) served without ASGI.

    A native socket's handshake is answered here; then the transport is handed to a
    :class:`NativeConnection` and this object (uvicorn's protocol: some forty attributes, an
    ASGI receive queue, an event) is let go. A table socket then holds the small
    :class:`NativeConnection`, the websockets library's parser and the endpoint's
    :class:`Handler` — not an ASGI task with its scope, its middleware's coroutines, a receive
    queue and the request's headers (about 30 KiB a connection), nor uvicorn's protocol
    object (about 2 KiB).
    """

    native: ClassVar[Native | None] = None
    successor: NativeConnection | None = None
    """The connection that took the transport over (a native socket), for the frames that came
    in the same read as the handshake."""

    @classmethod
    def serving(cls, native: Native) -> type[ParlorWebSocketProtocol]:
        """This protocol with ``native`` served natively."""
        return type(cls.__name__, (cls,), {"native": native})

    # Once a native socket's successor took over, anything that still reaches this object (an
    # HTTP protocol other than ParlorHttpProtocol hands the transport back to it after the
    # handshake) is passed on: the successor reads, and hears of the end.
    def data_received(self, data: bytes) -> None:
        successor = self.successor
        if successor is not None:
            successor.data_received(data)
        else:
            super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        successor = self.successor
        if successor is not None:
            successor.connection_lost(exc)
        else:
            super().connection_lost(exc)

    def handle_events(self) -> None:
        for event in self.conn.events_received():
            successor = self.successor
            if successor is not None:
                if isinstance(event, Frame):
                    successor.frame(event)
            elif isinstance(event, Request):
                self.handle_connect(event)
            elif isinstance(event, Frame):
                opcode = event.opcode
                if opcode is Opcode.CONT:
                    self.handle_cont(event)
                elif opcode is Opcode.TEXT:
                    self.handle_text(event)
                elif opcode is Opcode.BINARY:
                    self.handle_bytes(event)
                elif opcode is Opcode.PING:
                    self.handle_ping()
                elif opcode is Opcode.PONG:
                    self.handle_pong(event)
                elif opcode is Opcode.CLOSE:
                    self.handle_close(event)

    def handle_connect(self, event: Request) -> None:
        native = self.native
        if native is not None and native.wants(event.path):
            self._open_native(event, native)
            return
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted: the app's task is not running yet
            scope["extensions"][EXTENSION] = FrameWriter(self)

    def _open_native(self, event: Request, native: Native) -> None:
        response = self.conn.accept(event)
        self.handshake_initiated = True
        self.handshake_complete = True
        if response.status_code != 101:
            self.close_sent = True
            self.conn.send_response(response)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()
            return
        for name, value in self.default_headers:
            response.headers[name.decode("latin-1")] = value.decode("latin-1")
        self.conn.send_response(response)
        self.transport.write(b"".join(self.conn.data_to_send()))
        successor = NativeConnection(
            self.conn, self.transport, self.loop, self.connections, self.ping_interval,
            self.ping_timeout,
        )  # fmt: skip
        self.successor = successor
        self.connections.discard(self)
        self.connections.add(successor)  # type: ignore[arg-type]  # uvicorn calls shutdown()
        self.transport.set_protocol(successor)
        self.close_sent = True  # this object writes nothing more
        successor.start_keepalive()
        successor.handler = native.open(successor, event)
        # The websockets parser keeps the request in its suspended frame for as long as the
        # connection lives: let its headers go (read once, by ``open``).
        event.headers.clear()
        response.headers.clear()


class NativeConnection(asyncio.Protocol):
    """A table socket after its handshake (``hkmj serve``): the transport's protocol, its own
    :class:`Frames` writer, and the reader that hands each message to the endpoint's
    :class:`Handler`.

    What uvicorn's websocket protocol does for an open connection, for this one use: feed the
    websockets library's parser (which checks the framing, the masking, the size limit and
    answers pings), join fragments, check that text is UTF-8 (else close 1007), answer a close,
    send a keep-alive ping every ``ping_interval`` seconds and drop a peer that does not answer
    one within ``ping_timeout``, and close with 1012 when the server shuts down. A reader that
    is too slow is not waited for (the table's connection drops it, ``unsent``).
    """

    __slots__ = (
        "_binary",
        "_parts",
        "close_sent",
        "close_timer",
        "conn",
        "connections",
        "handler",
        "last_ping_rtt",
        "loop",
        "lost",
        "pending_ping",
        "ping_interval",
        "ping_sent_at",
        "ping_timeout",
        "ping_timer",
        "pong_timer",
        "transport",
    )

    def __init__(
        self,
        conn: ServerProtocol,
        transport: Any,
        loop: asyncio.AbstractEventLoop,
        connections: set[Any],
        ping_interval: float | None,
        ping_timeout: float | None,
    ) -> None:
        self.conn = conn
        self.transport = transport
        self.loop = loop
        self.connections = connections
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.handler: Handler | None = None
        self.close_sent = False
        self.lost = False
        self.close_timer: asyncio.TimerHandle | None = None
        self.ping_timer: asyncio.TimerHandle | None = None
        self.pong_timer: asyncio.TimerHandle | None = None
        self.pending_ping: bytes | None = None
        self.ping_sent_at = 0.0
        self.last_ping_rtt = 0.0
        self._parts: list[Any] = []
        self._binary = False

    # --- Frames: what the table's connection writes through ---------------------------------
    @property
    def open(self) -> bool:
        """Whether frames can still be sent (no close sent or received, not lost)."""
        return (
            not self.close_sent
            and not self.lost
            and self.conn.state is State.OPEN
            and not self.transport.is_closing()
        )

    def write(self, texts: Sequence[str]) -> bool:
        """Send ``texts`` as text frames in one write; False when the connection is not open."""
        if not self.open:
            return False
        self.transport.write(_text_frames(texts))
        return True

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake: the peer has :data:`CLOSE_TIMEOUT` seconds to answer,
        then the socket is closed."""
        if self.close_sent or self.transport.is_closing() or self.conn.state is not State.OPEN:
            return
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.close)

    def unsent(self) -> int:
        """Bytes written but not yet taken by the socket (a client too slow to read)."""
        return int(self.transport.get_write_buffer_size())

    # --- asyncio.Protocol ---------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        conn = self.conn
        conn.receive_data(data)
        if conn.parser_exc is not None:  # bad framing, too big, …: websockets queued the close
            self._fail()
            return
        for event in conn.events_received():
            if isinstance(event, Frame):
                self.frame(event)

    def eof_received(self) -> bool | None:
        return None

    def pause_writing(self) -> None:
        pass

    def resume_writing(self) -> None:
        pass

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_keepalive()
        self.connections.discard(self)
        self.lost = True
        if self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = None
        handler, self.handler = self.handler, None
        if handler is not None:
            handler.ended()
        # The websockets parser is a generator suspended inside the connection's protocol
        # object, holding it: a cycle the collector would have to find (under the heap keeper,
        # at its next sweep). Closed, it lets go, and the connection is freed as soon as the
        # table lets go of it.
        self.conn.parser.close()
        if exc is None:
            self.transport.close()

    def shutdown(self) -> None:
        """The server is stopping (uvicorn calls this on every connection): close with 1012."""
        self._stop_keepalive()
        if self.close_sent:
            if self.close_timer is not None:
                self.close_timer.cancel()
                self.close_timer = None
        elif self.conn.state is State.OPEN:
            self.conn.send_close(1012)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        self.transport.close()

    # --- frames from the peer -----------------------------------------------------------------
    def frame(self, event: Frame) -> None:
        """One frame the parser read (a message's part, a control frame)."""
        opcode = event.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            self._binary = opcode is Opcode.BINARY
            self._parts = [event.data]
            if event.fin:
                self._deliver()
        elif opcode is Opcode.CONT:
            self._parts.append(event.data)
            if event.fin:
                self._deliver()
        elif opcode is Opcode.PING:  # websockets queued the pong
            self.transport.write(b"".join(self.conn.data_to_send()))
        elif opcode is Opcode.PONG:
            self._pong(event)
        elif opcode is Opcode.CLOSE:
            self._closed_by_peer()

    def _deliver(self) -> None:
        parts, self._parts = self._parts, []
        data = bytes(parts[0]) if len(parts) == 1 else b"".join(parts)
        handler = self.handler
        if self.close_sent or handler is None:
            return
        if self._binary:
            handler.message(data)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.conn.send_close(1007)
            self._fail()
            return
        handler.message(text)

    def _closed_by_peer(self) -> None:
        if self.close_sent:  # the peer echoed our close: the closing handshake is complete
            if self.close_timer is not None:
                self.close_timer.cancel()
                self.close_timer = None
                self.transport.close()
            return
        if not self.transport.is_closing():  # websockets queued the echo
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

    def _fail(self) -> None:
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()

    # --- keep-alive ---------------------------------------------------------------------------
    def start_keepalive(self) -> None:
        """Ping every ``ping_interval`` seconds (when set)."""
        if self.ping_interval is not None and self.ping_interval > 0:
            self._schedule_ping()

    def _schedule_ping(self) -> None:
        assert self.ping_interval is not None
        delay = max(0.0, self.ping_interval - self.last_ping_rtt)
        self.ping_timer = self.loop.call_later(delay, self._ping)

    def _ping(self) -> None:
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            return
        self.pending_ping = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = self.loop.time()
        self.conn.send_ping(self.pending_ping)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.ping_timeout is not None:
            self.pong_timer = self.loop.call_later(self.ping_timeout, self._no_pong)
        else:
            self._schedule_ping()

    def _pong(self, event: Frame) -> None:
        if self.pending_ping is None or bytes(event.data) != self.pending_ping:
            return  # unsolicited or stale
        self.last_ping_rtt = self.loop.time() - self.ping_sent_at
        self.pending_ping = None
        if self.pong_timer is not None:
            self.pong_timer.cancel()
            self.pong_timer = None
            self._schedule_ping()

    def _no_pong(self) -> None:
        self.pong_timer = None
        self.pending_ping = None
        if self.close_sent or self.transport.is_closing():
            return
        self.conn.fail(1011, "keepalive ping timeout")
        self._fail()

    def _stop_keepalive(self) -> None:
        for timer in (self.ping_timer, self.pong_timer):
            if timer is not None:
                timer.cancel()
        self.ping_timer = self.pong_timer = None
        self.pending_ping = None


class ParlorHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools), leaving no garbage cycle behind an upgrade.

    Its parser calls it back, so the two hold each other. uvicorn breaks that when the
    connection is lost, but a connection upgraded to a websocket is handed to the websocket
    protocol instead and the HTTP protocol is never told: it is left as a cycle (with its
    scope, headers and flow control, about 3 KiB) that only the garbage collector can free —
    and under ``hkmj serve`` the heap keeper has often frozen it by then (it was alive at the
    keeper's last tick), so it would wait for the next full sweep. Every table socket is such
    an upgrade: after one, the parser is let go and reference counting frees the protocol.
    A table socket's transport goes to its :class:`NativeConnection`.
    """

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]
        # uvicorn gives the transport to the websocket protocol after that protocol has read
        # the handshake, so a native socket's successor, which took the transport over while
        # reading it, is given it again here.
        protocol = self.transport.get_protocol()
        if isinstance(protocol, ParlorWebSocketProtocol) and protocol.successor is not None:
            self.transport.set_protocol(protocol.successor)
