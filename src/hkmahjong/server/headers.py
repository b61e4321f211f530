"""安全標頭 security headers on every HTTP answer (docs/security.md, *Headers*).

- ``Content-Security-Policy``: scripts, styles, images, fonts, connections, workers and the
  manifest from this site only — no inline script, no ``eval`` (JSON data blocks,
  ``<script type="application/json">``, are data and not run); style *attributes* are allowed
  (a bar's width, ``style="--w: 42%"``), style elements only from files; no plugins, no
  ``<base>`` elsewhere, forms post here only, no framing by anyone (``frame-ancestors 'none'``).
  The interactive API pages (``/docs``, ``/redoc``: FastAPI's, from a CDN with a small inline
  start-up script) get the CDN and the hashes of their own inline scripts (their styles and
  fonts may be inline or from the CDN and Google Fonts), nothing more.
- ``X-Content-Type-Options: nosniff`` (a JSON answer is never run as a page),
  ``X-Frame-Options: DENY`` (old browsers), ``Referrer-Policy: same-origin`` (no address leaves
  for other sites), ``Permissions-Policy`` (no camera, microphone, location, payment … for
  anyone), ``Cross-Origin-Opener-Policy: same-origin``.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; "
    "manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
)
API_PAGES = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})
"""FastAPI's interactive API pages: their scripts and styles come from this CDN."""
CDN = "https://cdn.jsdelivr.net"
_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


def api_page_policy(body: bytes) -> str:
    """The policy of an interactive API page: its CDN and its own inline scripts' hashes."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(body)
    )
    return (
        f"default-src 'self'; script-src 'self' {CDN} {hashes}; "
        f"style-src 'self' {CDN} https://fonts.googleapis.com 'unsafe-inline'; "
        "font-src 'self' https://fonts.gstatic.com; "
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
        "connect-src 'self'; "
        "worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to each HTTP response that does not set them itself (the
    API pages get :func:`api_page_policy`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") in API_PAGES:
            await self._api_page(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_headers(message.get("headers", []), None)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _api_page(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Hold the (small) page until its body is known, to hash its inline scripts."""
        start: Message | None = None
        body = bytearray()

        async def held(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
                if message.get("more_body"):
                    return
                assert start is not None
                headers = [
                    (k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"
                ]
                headers.append((b"content-length", str(len(body)).encode()))
                start["headers"] = _with_headers(headers, api_page_policy(bytes(body)))
                await send(start)
                await send({"type": "http.response.body", "body": bytes(body)})
                return
            await send(message)

        await self.app(scope, receive, held)


def _with_headers(
    headers: list[tuple[bytes, bytes]], policy: str | None
) -> list[tuple[bytes, bytes]]:
    out = list(headers)
    present = {name.lower() for name, _ in out}
    for name, value in SECURITY_HEADERS:
        if name in present:
            continue
        if name == b"content-security-policy" and policy is not None:
            value = policy.encode()
        out.append((name, value))
    return out
