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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

__all__ = [
    "EXTENSION",
    "FrameWriter",
    "Handler",
    "Native",
    "ParlorHttpProtocol",
    "ParlorWebSocketProtocol",
]

EXTENSION = "hkmj.frames"


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
        self._protocol.transport.write(b"".join(out))
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

    def open(self, frames: FrameWriter, request: Request) -> Handler | None:
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


class _NoQueue:
    """Stands in for the ASGI receive queue of a natively served connection (nobody reads it)."""

    __slots__ = ()

    def put_nowait(self, item: object) -> None:
        pass


class _Writable:
    """Stands in for the ``asyncio.Event`` the ASGI ``send`` waits on (a native connection
    never waits: a client that reads too slowly is dropped instead)."""

    __slots__ = ()

    def set(self) -> None:
        pass

    def clear(self) -> None:
        pass


class ParlorWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with the :class:`FrameWriter` extension in each scope, and
    the :attr:`native` endpoint (the tables' sockets) served without ASGI: after the handshake
    its messages go straight to the endpoint's :class:`Handler`, which writes through a
    :class:`FrameWriter`. A connection then holds this protocol object and the handler, not an
    ASGI task with its scope, its middleware's coroutines, a receive queue and the request's
    headers (about 30 KiB a connection)."""

    native: ClassVar[Native | None] = None
    handler: Handler | None = None
    is_native: bool = False

    @classmethod
    def serving(cls, native: Native) -> type[ParlorWebSocketProtocol]:
        """This protocol with ``native`` served natively."""
        return type(cls.__name__, (cls,), {"native": native})

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
        self.is_native = True
        self.queue = _NoQueue()  # type: ignore[assignment]
        self.writable = _Writable()  # type: ignore[assignment]
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
        self.start_keepalive()
        self.handler = native.open(FrameWriter(self), event)
        # The websockets parser keeps the request in its suspended frame for as long as the
        # connection lives: let its headers go (read once, by ``open``).
        event.headers.clear()
        response.headers.clear()

    def send_receive_event_to_app(self) -> None:
        if not self.is_native:
            super().send_receive_event_to_app()
            return
        handler = self.handler
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent or handler is None:
            return
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            handler.message(text)
        else:
            handler.message(data)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        handler, self.handler = self.handler, None
        if handler is not None:
            handler.ended()


class ParlorHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools), leaving no garbage cycle behind an upgrade.

    Its parser calls it back, so the two hold each other. uvicorn breaks that when the
    connection is lost, but a connection upgraded to a websocket is handed to the websocket
    protocol instead and the HTTP protocol is never told: it is left as a cycle (with its
    scope, headers and flow control, about 3 KiB) that only the garbage collector can free —
    and under ``hkmj serve`` the heap keeper has often frozen it by then (it was alive at the
    keeper's last tick), so it would wait for the next full sweep. Every table socket is such
    an upgrade: after one, the parser is let go and reference counting frees the protocol.
    """

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]
