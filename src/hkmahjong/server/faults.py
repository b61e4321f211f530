"""故障 the last line of defence: a failure of the server while answering one request.

Everything a client can send is answered with a 4xx by the routes themselves (the tests walk every
route with odd values, and schemathesis the whole OpenAPI). Whatever still escapes a route is a
defect of the server: :class:`ServerFaults` logs it with a request id and answers a clean JSON
``500`` naming that id (nothing about the failure itself), or closes a websocket with 1011; the
process and every other request go on.
"""

from __future__ import annotations

import json
import logging
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hkmahjong.server.logs import request_id as current_request_id

__all__ = ["ServerFaults"]

log = logging.getLogger(__name__)


class ServerFaults:
    """Turns an exception that escaped the app into a logged, clean ``500`` (or a 1011 close)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            # the request's own id (RequestIds, outermost, sends it back as X-Request-ID), so the
            # logged line, the answer's body and its header name the same request
            given = current_request_id.get()
            request_id = given or secrets.token_hex(6)
            log.exception(
                "request %s failed: %s %s", request_id, scope.get("method", "WS"), scope["path"]
            )
            if scope["type"] == "websocket":
                if not started:
                    await send({"type": "websocket.close", "code": 1011, "reason": "server error"})
                return
            if started:
                return  # the answer is under way: the client sees it cut short
            body = json.dumps(
                {
                    "detail": {
                        "code": "internal",
                        "message": f"the server failed (request {request_id}); try again",
                        "request_id": request_id,
                    }
                }
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        *([] if given else [(b"x-request-id", request_id.encode())]),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
