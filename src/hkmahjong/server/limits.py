"""限制 request limits: as pure ASGI middleware the largest request body the parlor accepts and
URLs without NUL or control characters (PostgreSQL's text refuses NUL; nothing here needs them);
and the spectator sockets one address may hold at one table (:class:`SpectatorSlots`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "DOOR_RESPONSES",
    "MAX_URL_BYTES",
    "BodySizeLimit",
    "BodyTooLargeError",
    "SpectatorSlots",
    "UrlLimits",
]

MAX_URL_BYTES = 8192
"""The longest path and query string a request may have."""
DOOR_RESPONSES: dict[int | str, dict[str, object]] = {
    400: {"description": "the URL holds a NUL or another control character"},
    413: {"description": "the request body is larger than the limit (64 KiB)"},
    414: {"description": f"the URL is longer than {MAX_URL_BYTES} bytes"},
}
"""What the door answers to any request before a route sees it (every operation's OpenAPI)."""
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_ENCODED_CONTROL = re.compile(rb"%(?:[01][0-9a-f]|7f)", re.I)


class BodyTooLargeError(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit; the app's exception handling
    turns it into a 413 answer (or this middleware does, when nothing has been sent yet)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"request body larger than {max_bytes} bytes")


class BodySizeLimit:
    """Answer 413 to an HTTP request whose body is larger than ``max_bytes`` (by its
    ``Content-Length`` before reading, or by counting a chunked body as it arrives)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await self._reject(send, 400, "bad Content-Length header")
                    return
                if length > self.max_bytes:
                    await self._reject(send, 413, BodyTooLargeError(self.max_bytes).detail)
                    return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLargeError(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLargeError as exc:
            if not started:
                await self._reject(send, 413, exc.detail)

    @staticmethod
    async def _reject(send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class UrlLimits:
    """Answer 400 to a request (close a websocket with 1008) whose path holds NUL or another
    control character, or whose query string encodes one; 414 past :data:`MAX_URL_BYTES`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        query: bytes = scope.get("query_string", b"")
        problem = None
        if len(path) + len(query) > MAX_URL_BYTES:
            status, problem = 414, f"the URL is longer than {MAX_URL_BYTES} bytes"
        elif _CONTROL.search(path) or _ENCODED_CONTROL.search(query):
            status, problem = 400, "the URL holds a NUL or another control character"
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": problem})
        else:
            await BodySizeLimit._reject(send, status, problem)


class SpectatorSlots:
    """旁觀位 spectator sockets by (table, address): at most ``per_address`` at once, so no one
    client takes a table's whole gallery (issue 29). Asked by the table socket's door."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._held: dict[tuple[str, str], int] = {}

    def take(self, table: str, address: str) -> Callable[[], None] | None:
        """A slot at ``table`` for ``address``: the call that gives it back, or None when that
        address holds all its slots there already."""
        key = (table, address)
        held = self._held.get(key, 0)
        if held >= self.per_address:
            return None
        self._held[key] = held + 1
        given_back = False

        def give_back() -> None:
            nonlocal given_back
            if given_back:
                return
            given_back = True
            left = self._held.get(key, 1) - 1
            if left > 0:
                self._held[key] = left
            else:
                self._held.pop(key, None)

        return give_back

    def held(self, table: str, address: str) -> int:
        """How many slots ``address`` holds at ``table`` now."""
        return self._held.get((table, address), 0)
