"""轉送 HTTP requests for a table live in another process go to that process.

:class:`ForwardTables` (an ASGI middleware, only with several processes) looks at the paths
that name a table — ``/table/{id}``, ``/api/tables/{id}/…``, ``/api/replay/{id}/…`` — and when
the table is not live here: a table no live process owns is taken over here first and served
here (when it cannot be taken over at once — its lease row busy — an API request is answered 503
with ``Retry-After: 1``); one live elsewhere has the request sent to its owner over the bus and its answer relayed
(the owner runs it through its own app, cookies and CSRF header included: every process shares
the database and the secret). Everything else is served where it arrives.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.server.cluster.bus import Message

__all__ = ["ForwardTables", "serve_request"]

log = logging.getLogger(__name__)

_TABLE_PATH = re.compile(r"^/(?:table|api/tables|api/replay)/([A-Za-z0-9_-]{1,32})(?:/|$)")
FORWARD_SECONDS = 15.0
"""How long a request relayed to a table's owner may take before it is answered 503."""
FORWARDED = "hkmj.forwarded"
"""The scope key of a request that came from another process (never forwarded again)."""

Scope = dict[str, Any]
Receive = Any
Send = Any


class ForwardTables:
    """The ASGI middleware (see the module)."""

    def __init__(self, app: Any, cluster: Any) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get(FORWARDED):
            await self.app(scope, receive, send)
            return
        found = _TABLE_PATH.match(scope.get("path", ""))
        lobby = self.cluster.lobby
        if found is None or lobby is None or lobby.get(found.group(1)) is not None:
            await self.app(scope, receive, send)
            return
        where = await self.cluster.locate(found.group(1))
        owner = None if where is None else where.owner
        if (
            where is not None
            and owner is None
            and where.status in OPEN_STATUSES
            and lobby.get(found.group(1)) is None
            and not scope.get("path", "").startswith("/table/")
        ):  # being taken over (its lease row busy, or a league's table the leader takes)
            await _answer(send, 503, b'{"detail":"the table is being taken over; retry"}')
            return
        if owner is None or owner == self.cluster.owner or lobby.get(found.group(1)) is not None:
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = {
            "m": scope["method"],
            "p": scope["path"],
            "q": scope.get("query_string", b"").decode("latin-1"),
            "h": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
            "b": body.decode("latin-1"),
            "cl": list(scope["client"]) if scope.get("client") else None,
        }
        try:
            async with asyncio.timeout(FORWARD_SECONDS):
                answer = await self.cluster.forward(owner, request)
        except TimeoutError:
            answer = {"s": 503, "h": [["retry-after", "1"]], "b": ""}
        await send(
            {
                "type": "http.response.start",
                "status": int(answer["s"]),
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["h"]],
            }
        )
        await send({"type": "http.response.body", "body": str(answer["b"]).encode("latin-1")})


async def _answer(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def serve_request(app: Any, m: Message) -> Message:
    """Run a forwarded request through ``app``; its answer (status, headers, body)."""
    body = str(m["b"]).encode("latin-1")
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": m["m"],
        "scheme": "http",
        "path": m["p"],
        "raw_path": str(m["p"]).encode("utf-8"),
        "query_string": str(m["q"]).encode("latin-1"),
        "root_path": "",
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in m["h"]],
        "client": tuple(m["cl"]) if m.get("cl") else None,
        "server": None,
        FORWARDED: True,
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 500
    headers: list[list[str]] = []
    chunks: list[bytes] = []

    async def respond(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
            headers.extend(
                [k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])
            )
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    try:
        await app(scope, receive, respond)
    except Exception:
        log.exception("cluster: a forwarded request failed")
        return {"s": 500, "h": [], "b": ""}
    return {"s": status, "h": headers, "b": b"".join(chunks).decode("latin-1")}
