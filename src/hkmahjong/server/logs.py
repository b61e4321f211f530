"""記錄 the server's logs: one JSON object a line for a log collector, plain lines on a terminal.

``hkmj serve --log-level LEVEL`` (``HKMJ_LOG_LEVEL``; default ``warning``) and ``--log-format
auto|json|text`` (``HKMJ_LOG_FORMAT``; ``auto``: text when standard error is a terminal, JSON
otherwise) call :func:`configure`: one handler on the root logger (uvicorn's loggers included),
writing to standard error.

A JSON line holds ``ts`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``event`` (the
message's template: the same for every occurrence, to count and group by), ``msg`` (the message),
and when known ``request_id`` (:class:`RequestIds`: the client's ``X-Request-ID`` when it is a
short token, else a new one, sent back in the response), ``table`` (the public id of the table
whose actor logged it) and ``player`` (the user id whose message the table was handling), and
``exc`` (a traceback). docs/operations.md lists them.

What never reaches a log: session tokens and cookies, CSRF tokens, bearer tokens and passwords
(:func:`scrub` removes any that a message would carry), and any tile a seat holds concealed —
the server's own messages name tables, players and actions' kinds, never a view; the loggers
that would print frames, SQL parameters or form fields (``websockets`` at debug, ``sqlalchemy``
at info, ``multipart``) are held above those levels whatever the server's level, and the
frame traces websockets logs at debug on uvicorn's logger are dropped (:class:`NoFrames`) (``tests/ops/test_logs.py`` plays a
hand at debug level and checks).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any, TextIO

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hkmahjong.parlor.probes import current_player, current_table
from hkmahjong.server.settings import SettingsError

__all__ = [
    "LEVELS",
    "HumanFormatter",
    "JsonFormatter",
    "RequestIds",
    "configure",
    "request_id",
    "scrub",
]

LEVELS = ("critical", "error", "warning", "info", "debug")
request_id: ContextVar[str | None] = ContextVar("hkmj_request_id", default=None)
"""The id of the HTTP request or websocket being served, or None."""

_GOOD_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_SECRETS = re.compile(
    r"(?i)(hkmj_session|hkmj_csrf|csrf|x-csrf-token|password|passwd|secret|token|invite)"
    r"(['\"]?\s*[=:]\s*['\"]?)[^\s;,&'\"}]+"
)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
QUIET = {
    "websockets": logging.INFO,
    "sqlalchemy": logging.WARNING,
    "multipart": logging.WARNING,
    "python_multipart": logging.WARNING,
    "httpcore": logging.WARNING,
    "httpx": logging.WARNING,
}
"""Loggers that print frames (websockets: at debug), SQL and its parameters (SQLAlchemy: at
info — a new table's match seed, a session's token hash) or form fields (multipart), held at
these levels or above whatever the server's level."""
_ACCESS = logging.getLogger("hkmahjong.access")
_PLAIN = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "color_message",
    "taskName",
}


def scrub(text: str) -> str:
    """``text`` with the value of anything that looks like a credential replaced by ``***``
    (``hkmj_session=…``, ``csrf: …``, ``password=…``, ``Bearer …`` …)."""
    if not text:
        return text
    text = _SECRETS.sub(lambda m: m.group(1) + m.group(2) + "***", text)
    return _BEARER.sub(lambda m: m.group(1) + " ***", text)


_TRACES = frozenset({"< %s", "> %s", "< %s: %s", "> %s: %s"})


class NoFrames(logging.Filter):
    """Drops the websockets library's frame and handshake traces (``< TEXT '…'``, ``< Cookie:
    …`` at debug, logged on whatever logger uvicorn hands it, ``uvicorn.error``): a frame to a
    seat holds its concealed tiles, a handshake the session cookie."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.DEBUG and record.msg in _TRACES)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rid = getattr(record, "request_id", None) or request_id.get()
    if rid:
        out["request_id"] = rid
    table = getattr(record, "table", None) or current_table.get()
    if table:
        out["table"] = table
    player = getattr(record, "player", None) or current_player.get()
    if player is not None:
        out["player"] = player
    for key, value in record.__dict__.items():
        if key not in _PLAIN and key not in out and isinstance(value, str | int | float | bool):
            out[key] = scrub(value) if isinstance(value, str) else value
    return out


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": scrub(str(record.msg)),
            "msg": scrub(record.getMessage()),
        }
        out.update(_fields(record))
        if record.exc_info:
            out["exc"] = scrub(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


class HumanFormatter(logging.Formatter):
    """``12:00:01 WARNING hkmahjong.parlor.table [table=t7Qk… request=…] message``."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created))
        extra = " ".join(f"{k}={v}" for k, v in _fields(record).items())
        text = f"{stamp} {record.levelname:<7} {record.name}"
        if extra:
            text += f" [{extra}]"
        text += " " + scrub(record.getMessage())
        if record.exc_info:
            text += "\n" + scrub(self.formatException(record.exc_info))
        return text


def resolve(
    level: str | None, fmt: str | None, env: dict[str, str] | None = None
) -> tuple[str, str]:
    """The level and format from the options, else ``HKMJ_LOG_LEVEL`` / ``HKMJ_LOG_FORMAT``.

    :raises SettingsError: naming the setting, for a level or format that does not exist.
    """
    env = dict(os.environ) if env is None else env
    level = (level or env.get("HKMJ_LOG_LEVEL") or "warning").lower()
    if level not in LEVELS:
        raise SettingsError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
    fmt = (fmt or env.get("HKMJ_LOG_FORMAT") or "auto").lower()
    if fmt not in ("auto", "json", "text"):
        raise SettingsError(f"log format {fmt!r}: expected auto, json or text")
    return level, fmt


def configure(level: str = "warning", fmt: str = "auto", stream: TextIO | None = None) -> None:
    """Send every log record at ``level`` or above to ``stream`` (standard error) as JSON lines
    or, on a terminal (``auto``) or with ``text``, as plain lines."""
    stream = stream or sys.stderr
    if fmt == "auto":
        fmt = "text" if stream.isatty() else "json"
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter() if fmt == "json" else HumanFormatter())
    handler.addFilter(NoFrames())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    number = logging.getLevelName(level.upper())
    root.setLevel(number)
    for name, least in QUIET.items():
        logging.getLogger(name).setLevel(max(number, least))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    # The access log line of hkmahjong.access (route templates) replaces uvicorn's (raw paths,
    # which may carry a private table's invite).
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


class RequestIds:
    """ASGI middleware: each request and websocket gets an id (the client's ``X-Request-ID``
    when it is 1–64 letters, digits or ``._:-``; else 16 hex digits), set for every log line
    of its handling, sent back as ``X-Request-ID``; each HTTP request is logged at INFO on
    ``hkmahjong.access`` with its route template (never the raw path or query), method, status
    and milliseconds."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = ""
        for key, value in scope.get("headers", ()):
            if key == b"x-request-id":
                given = value.decode("latin-1")
                break
        rid = given if _GOOD_ID.fullmatch(given) else secrets.token_hex(8)
        token = request_id.set(rid)
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            finally:
                request_id.reset(token)
            return
        started = time.perf_counter()
        status = 500
        header = (b"x-request-id", rid.encode())

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", ()))
                if not any(key.lower() == b"x-request-id" for key, _ in headers):
                    message = {**message, "headers": [*headers, header]}
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if _ACCESS.isEnabledFor(logging.INFO):
                route = getattr(scope.get("route"), "path", None) or "<unmatched>"
                _ACCESS.info(
                    "request %s %s -> %d",
                    scope.get("method", "GET"),
                    route,
                    status,
                    extra={
                        "route": route,
                        "status": status,
                        "ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
            request_id.reset(token)
