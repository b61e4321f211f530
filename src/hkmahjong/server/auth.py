"""登入 accounts, sessions, guests and CSRF for the parlor.

- Passwords: argon2 through ``pwdlib``; sessions are server-side: a random token in the HttpOnly,
  SameSite=Lax cookie ``hkmj_session``, only its SHA-256 in the database, revoked on logout.
- :func:`current_user` (a dependency for routes and websockets: cookie auth on the handshake),
  :func:`require_user`, :func:`user_or_guest` (makes a guest on first visit).
- CSRF: :func:`csrf_token` for templates (bound to the session, or before login to the
  ``hkmj_csrf`` cookie), :func:`check_csrf` as a dependency of every form POST (form field ``csrf``
  or header ``X-CSRF-Token``).
- Form routes ``POST /login``, ``/register``, ``/logout``, ``/guest`` redirect (``303``), with
  ``?error=CODE`` on failure; ``GET /api/me`` tells a script who is logged in.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse
from pwdlib import PasswordHash
from pydantic import BaseModel
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hkmahjong.parlor.ledger import starting_grant, user_account
from hkmahjong.server.names import Name, NameRefusedError, lookup_key, parse_name
from hkmahjong.server.ratelimit import RateLimiter
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import SqlLedger
from hkmahjong.server.store.models import MatchResultRow, SessionRow, User, utcnow

__all__ = [
    "CSRF_COOKIE",
    "CSRF_FIELD",
    "CSRF_HEADER",
    "LANGS",
    "SESSION_COOKIE",
    "Auth",
    "AuthError",
    "CookieMiddleware",
    "CurrentUser",
    "check_csrf",
    "csrf_token",
    "current_user",
    "get_auth",
    "require_user",
    "router",
    "safe_next",
    "user_or_guest",
]

SESSION_COOKIE = "hkmj_session"
CSRF_COOKIE = "hkmj_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
LANGS = ("zh-Hant", "zh-Hans", "en")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
MIN_PASSWORD, MAX_PASSWORD = 8, 128


class AuthError(Exception):
    """A refused account action; ``code`` is the ``?error=`` value the pages translate."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class CurrentUser:
    """The user behind a request: registered or guest."""

    id: int
    name: str
    is_guest: bool
    is_admin: bool
    lang: str

    @property
    def account(self) -> str:
        """The user's jade account key (``user:12``)."""
        return user_account(self.id)


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a session token: what the database keeps."""
    return hashlib.sha256(token.encode()).hexdigest()


def _user(row: User) -> CurrentUser:
    return CurrentUser(row.id, row.name, row.is_guest, row.is_admin, row.lang)


def check_name(name: str) -> Name:
    """A new user name, checked (:func:`hkmahjong.server.names.parse_name`): shown as typed in
    NFKC, known by its caseless key and its TR39 skeleton.

    :raises AuthError: ``bad_name``, ``name_reserved`` or ``name_mixed`` when it cannot be used.
    """
    try:
        return parse_name(name)
    except NameRefusedError as exc:
        raise AuthError(exc.code, str(exc)) from None


class Auth:
    """The parlor's account service: users, password checks, sessions, guests, CSRF tokens."""

    def __init__(self, store: Store, settings: Settings, hasher: PasswordHash | None = None):
        if not settings.secret:
            raise ValueError("Auth needs settings with a secret (Settings.with_secret())")
        self.store = store
        self.settings = settings
        self.hasher = hasher or PasswordHash.recommended()
        self.ledger = SqlLedger(store)
        self.login_by_ip = RateLimiter(settings.address_attempts, settings.login_window_s)
        self.login_by_name_and_ip = RateLimiter(settings.login_attempts, settings.login_window_s)
        """Per (name, address), never per name alone: failures from elsewhere never lock a name
        for its owner (issue 29, docs/security.md *Rate limits*)."""
        self.signups_by_ip = RateLimiter(settings.signups_per_hour, 3600.0)
        self.guests_by_ip = RateLimiter(settings.guests_per_window, settings.guest_window_s)
        self._secret = settings.secret.encode()
        self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(16))

    def register(
        self, name: str, password: str, lang: str = "zh-Hant", guest: CurrentUser | None = None
    ) -> CurrentUser:
        """Create a user with its starting grant of jade. With ``guest`` (the guest session that
        registers), that guest's own row becomes the account: its matches, hands and ratings,
        all kept by user id, are the new account's history (a guest has no jade to carry: it
        plays practice tables only), and the names its match results were recorded under
        become the new name.

        :raises AuthError: ``bad_name``, ``name_reserved``, ``name_mixed``, ``bad_password``,
            ``name_taken``, ``name_confusable``.
        """
        checked = check_name(name)
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AuthError("bad_password", f"password: {MIN_PASSWORD}-{MAX_PASSWORD} characters")
        if lang not in LANGS:
            lang = "zh-Hant"
        hashed = self.hasher.hash(password)
        shown = checked.display
        try:
            with self.store.session() as session:
                if session.scalar(select(User.id).where(User.name_key == checked.key)) is not None:
                    raise AuthError("name_taken", f"name {shown!r} is taken")
                alike = session.scalar(
                    select(User.name).where(User.name_skeleton == checked.skeleton).limit(1)
                )
                if alike is not None:
                    raise AuthError("name_confusable", f"name {shown!r} looks like {alike!r}")
                row = None if guest is None or not guest.is_guest else session.get(User, guest.id)
                if row is None or not row.is_guest:
                    row = User(name=shown, password_hash=hashed, is_guest=False, lang=lang)
                    session.add(row)
                else:
                    row.name, row.password_hash, row.is_guest, row.lang = shown, hashed, False, lang
                    session.execute(
                        update(MatchResultRow)
                        .where(MatchResultRow.user_id == row.id)
                        .values(name=shown)
                    )
                session.flush()
                user = _user(row)
        except IntegrityError:
            raise AuthError("name_taken", f"name {shown!r} is taken") from None
        self.ensure_grant(user)
        return user

    def ensure_grant(self, user: CurrentUser) -> None:
        """Give a registered user's starting grant if it was never given (idempotent)."""
        if not user.is_guest and self.settings.starting_grant > 0:
            self.ledger.post_sync(starting_grant(user.id, self.settings.starting_grant))

    def authenticate(self, name: str, password: str) -> CurrentUser | None:
        """The user with this name (its key: any case or width) and password, or None (same work
        either way)."""
        key = lookup_key(name)
        with self.store.session() as session:
            row = None if key is None else session.scalar(select(User).where(User.name_key == key))
            if row is None or row.password_hash is None:
                self.hasher.verify(password, self._dummy_hash)
                return None
            ok, updated = self.hasher.verify_and_update(password, row.password_hash)
            if not ok:
                return None
            if updated is not None:
                row.password_hash = updated
            user = _user(row)
        self.ensure_grant(user)
        return user

    def create_guest(self, lang: str = "zh-Hant") -> CurrentUser:
        """A new guest (practice tables only; no jade)."""
        for _ in range(5):
            try:
                with self.store.session() as session:
                    row = User(
                        name=f"guest-{secrets.token_hex(4)}",
                        password_hash=None,
                        is_guest=True,
                        lang=lang if lang in LANGS else "zh-Hant",
                    )
                    session.add(row)
                    session.flush()
                    return _user(row)
            except IntegrityError:
                continue
        raise RuntimeError("could not name a guest")  # pragma: no cover

    def start_session(self, user_id: int) -> str:
        """A new session for ``user_id``; returns the token for the cookie."""
        token = secrets.token_urlsafe(32)
        now = utcnow()
        with self.store.session() as session:
            session.add(
                SessionRow(
                    token_hash=hash_token(token),
                    user_id=user_id,
                    created_at=now,
                    expires_at=now + timedelta(days=self.settings.session_days),
                )
            )
        return token

    def user_for_token(self, token: str) -> CurrentUser | None:
        """The user of a live session token (not revoked, not expired), or None."""
        if not token or len(token) > 100:
            return None
        with self.store.session() as session:
            row = session.execute(
                select(User)
                .join(SessionRow, SessionRow.user_id == User.id)
                .where(
                    SessionRow.token_hash == hash_token(token),
                    SessionRow.revoked_at.is_(None),
                    SessionRow.expires_at > utcnow(),
                )
            ).scalar_one_or_none()
            return None if row is None else _user(row)

    def revoke(self, token: str) -> None:
        """End a session (logout): its token no longer authenticates anyone."""
        with self.store.session() as session:
            session.execute(
                update(SessionRow)
                .where(SessionRow.token_hash == hash_token(token), SessionRow.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )

    def csrf_for(self, seed: str) -> str:
        """The CSRF token bound to ``seed`` (a session's token hash or the ``hkmj_csrf`` cookie)."""
        mac = hmac.new(self._secret, b"csrf:" + seed.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode()

    def cookie_header(self, name: str, value: str, *, max_age: int | None) -> bytes:
        """A ``Set-Cookie`` header value: HttpOnly, SameSite=Lax, path /, Secure if configured."""
        response = Response()
        if max_age == 0:
            response.delete_cookie(
                name, httponly=True, samesite="lax", secure=self.settings.secure_cookies
            )
        else:
            response.set_cookie(
                name,
                value,
                max_age=max_age,
                httponly=True,
                samesite="lax",
                secure=self.settings.secure_cookies,
            )
        return response.headers["set-cookie"].encode("latin-1")


def get_auth(conn: HTTPConnection) -> Auth:
    """The app's :class:`Auth`."""
    auth = conn.app.state.auth
    assert isinstance(auth, Auth)
    return auth


def _queue_cookie(conn: HTTPConnection, header: bytes) -> None:
    pending: list[bytes] = conn.scope.setdefault("state", {}).setdefault("hkmj_cookies", [])
    pending.append(header)


class CookieMiddleware:
    """Adds the cookies that dependencies queued during a request (a guest's new session, the
    pre-login CSRF cookie) to whatever response the route returns."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                pending = scope.get("state", {}).get("hkmj_cookies", [])
                if pending:
                    message["headers"] = [
                        *message.get("headers", []),
                        *((b"set-cookie", header) for header in pending),
                    ]
            await send(message)

        await self.app(scope, receive, send_with_cookies)


_NO_USER = object()


def _session(conn: HTTPConnection) -> tuple[CurrentUser | None, str | None]:
    """The request's user and session token hash (cached on the connection)."""
    state: dict[str, Any] = conn.scope.setdefault("state", {})
    cached = state.get("hkmj_user", _NO_USER)
    if cached is not _NO_USER:
        return cached, state.get("hkmj_session_hash")
    token = conn.cookies.get(SESSION_COOKIE, "")
    user = get_auth(conn).user_for_token(token) if token else None
    state["hkmj_user"] = user
    state["hkmj_session_hash"] = hash_token(token) if user is not None else None
    return user, state["hkmj_session_hash"]


def current_user(conn: HTTPConnection) -> CurrentUser | None:
    """Dependency: the logged-in user (or guest) of this request or websocket, or None."""
    return _session(conn)[0]


def require_user(user: Annotated[CurrentUser | None, Depends(current_user)]) -> CurrentUser:
    """Dependency: the logged-in user; 401 when there is none."""
    if user is None:
        raise HTTPException(status_code=401, detail="log in or play as a guest first")
    return user


def _login(conn: HTTPConnection, user: CurrentUser) -> None:
    auth = get_auth(conn)
    token = auth.start_session(user.id)
    max_age = auth.settings.session_days * 86400
    _queue_cookie(conn, auth.cookie_header(SESSION_COOKIE, token, max_age=max_age))
    state = conn.scope.setdefault("state", {})
    state["hkmj_user"] = user
    state["hkmj_session_hash"] = hash_token(token)


def user_or_guest(conn: HTTPConnection) -> CurrentUser:
    """Dependency for pages: the logged-in user, or a new guest whose session cookie is set on
    this response (a guest plays practice tables at once)."""
    user = current_user(conn)
    if user is None:
        auth = get_auth(conn)
        if not auth.guests_by_ip.hit(client_host(conn)):
            raise HTTPException(status_code=429, detail="too many new guests from this address")
        user = auth.create_guest(_lang_of(conn))
        _login(conn, user)
    return user


def client_host(conn: HTTPConnection) -> str:
    """The client's address (through the trusted proxies only: :mod:`hkmahjong.server.proxies`)."""
    return conn.client.host if conn.client else "?"


def _lang_of(conn: HTTPConnection) -> str:
    header = conn.headers.get("accept-language", "").lower()
    if header.startswith("en"):
        return "en"
    if "hans" in header or header.startswith(("zh-cn", "zh-sg")):
        return "zh-Hans"
    return "zh-Hant"


def csrf_token(request: HTTPConnection) -> str:
    """The CSRF token to put in a form (field ``csrf``) or a script's ``X-CSRF-Token`` header."""
    auth = get_auth(request)
    _user, session_hash = _session(request)
    if session_hash is not None:
        return auth.csrf_for(session_hash)
    state = request.scope.setdefault("state", {})
    seed = request.cookies.get(CSRF_COOKIE) or state.get("hkmj_csrf_seed")
    if not seed or len(seed) > 100:
        seed = secrets.token_urlsafe(24)
        state["hkmj_csrf_seed"] = seed
        _queue_cookie(request, auth.cookie_header(CSRF_COOKIE, seed, max_age=None))
    return auth.csrf_for(seed)


def csrf_ok(request: Request, sent: str | None) -> bool:
    """Whether ``sent`` is the CSRF token of this request's session or pre-login cookie."""
    if not sent:
        return False
    auth = get_auth(request)
    seeds = [request.cookies.get(CSRF_COOKIE)]
    _user, session_hash = _session(request)
    seeds.append(session_hash)
    return any(
        seed and len(seed) <= 100 and hmac.compare_digest(auth.csrf_for(seed), sent)
        for seed in seeds
    )


async def check_csrf(request: Request) -> None:
    """Dependency of every state-changing form or script POST: 403 without the right token."""
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        value = (await request.form()).get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if not csrf_ok(request, sent):
        raise HTTPException(status_code=403, detail="CSRF token missing or wrong; reload the page")


def safe_next(target: str | None) -> str:
    """A redirect target inside this site (a path such as ``/table/ab12``), else ``/``."""
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ord(c) < 32 for c in target)
    ):
        return "/"
    return target


def _back(page: str, code: str, target: str | None, name: str | None = None) -> RedirectResponse:
    """Back to the form with ``?error=CODE`` (and the typed name, so the form keeps it)."""
    query = {"error": code}
    if target and safe_next(target) != "/":
        query["next"] = safe_next(target)
    if name and name.strip():
        query["name"] = _CONTROL.sub("", name.strip())[:64]
    return RedirectResponse(f"{page}?{urlencode(query)}", status_code=303)


router = APIRouter(tags=["auth"])

FormStr = Annotated[str, Form(max_length=200)]
OptFormStr = Annotated[str | None, Form(max_length=2000)]


@router.post("/login", include_in_schema=False)
def login(
    request: Request,
    name: FormStr,
    password: FormStr,
    csrf: OptFormStr = None,
    next: OptFormStr = None,
) -> RedirectResponse:
    """Log in with a name and password (form post); rate-limited per address and per (name,
    address)."""
    if not csrf_ok(request, csrf):
        return _back("/login", "csrf", next, name)
    auth = get_auth(request)
    ip = client_host(request)
    pair = f"{lookup_key(name) or name.strip()[:64]}\x00{ip}"
    if not auth.login_by_ip.hit(ip) or not auth.login_by_name_and_ip.hit(pair):
        return _back("/login", "rate_limited", next, name)
    user = auth.authenticate(name, password)
    if user is None:
        return _back("/login", "bad_login", next, name)
    auth.login_by_name_and_ip.reset(pair)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        auth.revoke(old)
    _login(request, user)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/register", include_in_schema=False)
def register(
    request: Request,
    name: FormStr,
    password: FormStr,
    csrf: OptFormStr = None,
    confirm: OptFormStr = None,
    lang: OptFormStr = None,
    next: OptFormStr = None,
) -> RedirectResponse:
    """Create an account (form post) and log it in; a guest who registers keeps its history
    (:meth:`Auth.register`) under a new session."""
    if not csrf_ok(request, csrf):
        return _back("/register", "csrf", next, name)
    if confirm is not None and confirm != password:
        return _back("/register", "password_mismatch", next, name)
    auth = get_auth(request)
    if not auth.signups_by_ip.hit(client_host(request)):
        return _back("/register", "rate_limited", next, name)
    now = current_user(request)
    try:
        user = auth.register(
            name, password, lang or _lang_of(request), now if now and now.is_guest else None
        )
    except AuthError as exc:
        return _back("/register", exc.code, next, name)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        auth.revoke(old)
    _login(request, user)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/guest", include_in_schema=False)
def play_as_guest(
    request: Request, csrf: OptFormStr = None, next: OptFormStr = None
) -> RedirectResponse:
    """Play as a guest (form post): a new guest session unless one is logged in already."""
    if not csrf_ok(request, csrf):
        return _back("/login", "csrf", next)
    if current_user(request) is None:
        try:
            user_or_guest(request)
        except HTTPException:
            return _back("/login", "rate_limited", next)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/logout", include_in_schema=False)
def logout(request: Request, csrf: OptFormStr = None) -> RedirectResponse:
    """End the session (form post): revoked in the database, cookie cleared."""
    if not csrf_ok(request, csrf):
        return _back("/", "csrf", None)
    auth = get_auth(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        auth.revoke(token)
    _queue_cookie(request, auth.cookie_header(SESSION_COOKIE, "", max_age=0))
    request.scope.setdefault("state", {})["hkmj_user"] = None
    return RedirectResponse("/", status_code=303)


class Me(BaseModel):
    """Who is logged in, their jade, and the CSRF token for scripts' POSTs."""

    user: dict[str, Any] | None
    jade: int | None
    csrf: str


@router.get("/api/me", response_model=Me)
def me(request: Request) -> Me:
    """The current user (null when nobody is logged in), their jade (registered users) and a CSRF
    token for ``X-CSRF-Token``."""
    user = current_user(request)
    jade = None
    if user is not None and not user.is_guest:
        jade = get_auth(request).ledger.balance_sync(user.account)
    info = None
    if user is not None:
        info = {
            "id": user.id,
            "name": user.name,
            "is_guest": user.is_guest,
            "is_admin": user.is_admin,
            "lang": user.lang,
        }
    return Me(user=info, jade=jade, csrf=csrf_token(request))
