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
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

__all__ = ["EXTENSION", "FrameWriter", "ParlorWebSocketProtocol"]

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

    def unsent(self) -> int:
        """Bytes written but not yet taken by the socket (a client too slow to read)."""
        return self._protocol.transport.get_write_buffer_size()


class ParlorWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with the :class:`FrameWriter` extension in each scope."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted: the app's task is not running yet
            scope["extensions"][EXTENSION] = FrameWriter(self)
