"""頁面 the parlor's HTML pages, static assets, web app manifest and service worker.

Server-rendered Jinja2 templates (``server/web/templates``) plus ES modules, CSS, the tile SVGs
and icons (``server/web/static``), all package data; no bundler. Every page string comes from
:mod:`hkmahjong.server.i18n` in the visitor's language (``?lang=``, the ``hkmj_lang`` cookie,
``Accept-Language``). The rules page and the scoring guide are built from the ruleset and the
calculator (:mod:`hkmahjong.server.tutorial`). Form POSTs (login, register, logout) and the JSON
APIs belong to the auth and API modules.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.exceptions import HTTPException as StarletteHTTPException

from hkmahjong.engine.match import MatchLength
from hkmahjong.hand import Meld
from hkmahjong.parlor.seats import BOT_LEVELS
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.payment import GunScheme
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.scoring import SPECIAL_FLAGS
from hkmahjong.server import auth, i18n, tutorial
from hkmahjong.server.names import MAX_NAME
from hkmahjong.server.rules_page import page_context as rules_page_context
from hkmahjong.server.tutorial import preset_label, score_rows, worked_examples
from hkmahjong.tiles import Tile

__all__ = ["FAN_LANG", "STATIC_DIR", "TEMPLATE_DIR", "router"]

WEB_DIR = Path(__file__).with_name("web")
TEMPLATE_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"

router = APIRouter(include_in_schema=False)

_LEVELS = BOT_LEVELS
"""The bot levels a table may seat (``parlor.seats.BOT_LEVELS``: the values ``POST /api/tables``
takes)."""


def _lengths(preset: str) -> tuple[tuple[str, str], ...]:
    """The lengths ``preset`` offers a practice table (the parlor's, seed 003: 四圈, 八局, 十六局,
    打至有人破產), as ``GET /api/table-options?kind=practice`` gives them; the page asks it again
    when another ruleset is chosen."""
    return tuple(
        (m.value, i18n.LENGTH_KEYS[m.value])
        for m in MatchLength.offered("practice", get_preset(preset).match_lengths)
    )


_TARGETS = (
    ("concealed", "calc_concealed"),
    ("chow", "calc_chow"),
    ("pung", "calc_pung"),
    ("kong", "calc_kong"),
    ("ckong", "calc_ckong"),
    ("bonus", "calc_bonus"),
)
FAN_LANG = {"zh-Hant": "zh", "zh-Hans": "zh_hans", "en": "en"}
"""A page language's key for :meth:`~hkmahjong.rules.FanId.label` (the fan names' languages)."""


# -- static files -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Asset:
    body: bytes
    media_type: str
    etag: str


_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}


@cache
def _assets() -> dict[str, _Asset]:
    """Every file under ``static`` by its relative path, read once (no path from a request is
    ever joined onto the file system)."""
    found: dict[str, _Asset] = {}
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            body = path.read_bytes()
            kind = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            found[path.relative_to(STATIC_DIR).as_posix()] = _Asset(
                body, kind or "application/octet-stream", etag
            )
    return found


@cache
def asset_version() -> str:
    """A short hash of every static file: the cache-busting ``?v=`` and the service worker's cache name."""
    digest = hashlib.sha256()
    for name, asset in sorted(_assets().items()):
        digest.update(name.encode())
        digest.update(asset.etag.encode())
    return digest.hexdigest()[:10]


@router.get("/static/{path:path}")
def static(path: str, request: Request) -> Response:
    """A static asset (tiles, icons, CSS, ES modules); 404 when there is no such file."""
    asset = _assets().get(path)
    if asset is None:
        raise HTTPException(status_code=404, detail=f"no static file {path!r}")
    headers = {"ETag": asset.etag, "Cache-Control": "public, max-age=3600"}
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


# -- templates --------------------------------------------------------------------------------------
@cache
def _env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": True}
    env.globals["tile_name"] = tile_name
    env.filters["iso_utc"] = iso_utc
    return env


def digest_term(digest: str) -> Markup:
    """A ruleset digest as a page shows it: its first 12 characters, marked as the term app.js
    explains (``data-term="digest"``: what a digest is, in the page's language)."""
    return Markup('<span class="digest" data-term="digest">{}</span>').format(digest[:12])


def iso_utc(at: datetime) -> str:
    """A stored time as ISO 8601 in UTC with its zone (the store keeps naive UTC times), for a
    ``<time datetime>`` the page shows in the browser's own zone."""
    aware = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    return aware.isoformat().replace("+00:00", "Z")


def tile_name(code: str | Tile) -> str:
    """A tile's accessible name: its Chinese and English names, e.g. ``五筒 5 dots``."""
    tile = code if isinstance(code, Tile) else Tile.from_text(code)
    return f"{tile.zh} {tile.en}"


def page_lang(request: Request) -> str:
    """The language of this request (``?lang=``, cookie, ``Accept-Language``)."""
    return i18n.negotiate(
        request.cookies.get(i18n.COOKIE),
        request.query_params.get("lang"),
        request.headers.get("accept-language"),
    )


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a page: the signed-in user or guest (or None), jade and CSRF token."""

    user: auth.CurrentUser | None
    jade: int | None
    csrf: str


def viewer(request: Request) -> Viewer:
    """The page's viewer from the session cookie; jade only for registered users."""
    user = auth.current_user(request)
    jade = None
    if user is not None and not user.is_guest:
        jade = auth.get_auth(request).ledger.balance_sync(user.account)
    return Viewer(user, jade, auth.csrf_token(request))


def render(request: Request, template: str, *, status_code: int = 200, **ctx: Any) -> HTMLResponse:
    """Render ``template`` in the request's language with the base layout's context."""
    lang = page_lang(request)
    who = viewer(request)

    def t(key: str, **fmt: object) -> str:
        return i18n.tr(lang, key, **fmt)

    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    base: dict[str, Any] = {
        "lang": lang,
        "t": t,
        "words": {
            **i18n.catalogue(lang),
            **{f"preset_{name}": preset_label(name, lang) for name in preset_names()},
        },
        "lang_names": i18n.lang_names(),
        "here": here,
        "user": who.user,
        "jade": who.jade,
        "csrf": who.csrf,
        "asset_version": asset_version(),
        "fan_name": lambda f: f.label(FAN_LANG[lang]),
    }
    base.update(ctx)
    html = _env().get_template(template).render(**base)
    response = HTMLResponse(html, status_code=status_code)
    if request.query_params.get("lang") in i18n.LANGS:
        _remember_lang(response, lang)
    response.headers["Content-Language"] = lang
    return response


def _remember_lang(response: Response, lang: str) -> None:
    response.set_cookie(i18n.COOKIE, lang, max_age=365 * 86400, samesite="lax", httponly=False)


def _safe_next(target: str | None) -> str:
    """A local path to go back to (never another site: ``//host`` and ``scheme:`` are refused)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@router.get("/lang/{code}")
def switch_lang(code: str, next: str | None = None) -> Response:
    """Switch the page language (繁體 / 简体 / English), remember it in a cookie, go back."""
    if code not in i18n.LANGS:
        raise HTTPException(
            status_code=404, detail=f"no language {code!r}: {', '.join(i18n.LANGS)}"
        )
    response = RedirectResponse(_safe_next(next), status_code=303)
    _remember_lang(response, code)
    return response


# -- pages ------------------------------------------------------------------------------------------
def _presets(lang: str) -> list[tuple[str, str]]:
    return [(name, preset_label(name, lang)) for name in preset_names()]


def _preset(request: Request) -> str:
    name = request.query_params.get("preset") or "parlor"
    if name not in preset_names():
        raise HTTPException(
            status_code=404, detail=f"no preset {name!r}: allowed {', '.join(preset_names())}"
        )
    return name


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    """大堂 the lobby: play as a guest, quick match, my games, the open tables."""
    lang = page_lang(request)
    return render(request, "home.html", active="home", preset_labels=dict(_presets(lang)))


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, error: str | None = None, next: str | None = None) -> HTMLResponse:
    """登入 the login form (posts to ``/login``)."""
    lang = page_lang(request)
    return render(
        request,
        "login.html",
        active="login",
        error=_error_text(lang, error),
        next=_safe_next(next),
        name=request.query_params.get("name", ""),
    )


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, error: str | None = None) -> HTMLResponse:
    """註冊 the registration form (posts to ``/register``)."""
    lang = page_lang(request)
    return render(
        request,
        "register.html",
        active="register",
        error=_name_refusal(lang, request.query_params.get("name", ""))
        if error == "bad_name"
        else _error_text(lang, error),
        name=request.query_params.get("name", ""),
    )


def _name_refusal(lang: str, name: str) -> str:
    """Why the typed ``name`` was refused as ``bad_name`` (:func:`hkmahjong.server.names.parse_name`):
    too long, characters a name cannot have (each named), or how it starts or ends."""
    shown = unicodedata.normalize("NFKC", name).strip()
    if len(shown) > MAX_NAME:
        return i18n.tr(lang, "err_name_too_long", n=len(shown), max=MAX_NAME)
    bad = list(dict.fromkeys(c for c in shown if not re.fullmatch(r"[\w .\-]", c)))
    if bad:
        quote = "“{}”" if lang == "en" else "「{}」"
        chars = i18n.tr(lang, "comma").join(quote.format(c) for c in bad)
        return i18n.tr(lang, "err_name_chars", chars=chars)
    if shown:
        return i18n.tr(lang, "err_name_ends")
    return i18n.tr(lang, "err_bad_name")


_ERRORS = {
    "bad_login": "err_bad_login",
    "rate_limited": "err_rate_limited",
    "name_taken": "err_name_taken",
    "bad_name": "err_bad_name",
    "bad_password": "err_bad_password",
    "password_mismatch": "err_mismatch",
    "csrf": "err_csrf",
    "name_reserved": "err_name_reserved",
    "name_mixed": "err_name_mixed",
    "name_confusable": "err_name_confusable",
}


def _error_text(lang: str, code: str | None) -> str | None:
    """The form error for ``?error=code`` (an unknown code gets the generic message)."""
    if not code:
        return None
    return i18n.tr(lang, _ERRORS.get(code, "err_unknown"))


@router.get("/practice", response_class=HTMLResponse)
def practice_page(request: Request) -> HTMLResponse:
    """練習 practice setup: bot level, match length, house rules, hints."""
    lang = page_lang(request)
    preset = _preset(request)
    return render(
        request,
        "practice.html",
        active="practice",
        levels=_LEVELS,
        default_level="normal",
        lengths=_lengths(preset),
        preset=preset,
        presets=_presets(lang),
    )


@router.get("/tables/new", response_class=HTMLResponse)
def create_page(request: Request) -> HTMLResponse:
    """開檯 open an online table: ruleset (and house-rule switches), length, stake level,
    private with an invite link, bots for the empty seats; the choices come from
    ``GET /api/table-options`` (server/options.py), so the page offers only what may be played."""
    lang = page_lang(request)
    return render(
        request,
        "create.html",
        active="create",
        levels=_LEVELS,
        preset=_preset(request),
        presets=_presets(lang),
    )


@router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request) -> HTMLResponse:
    """規則 the parlor's rules (seed 003 clause by clause) with the chosen ruleset's values, the
    online policies and every switch in words (:mod:`hkmahjong.server.rules_page`)."""
    lang = page_lang(request)
    name = _preset(request)
    ruleset = get_preset(name)
    lobby = getattr(request.app.state, "lobby", None)
    return render(
        request,
        "rules.html",
        active="rules",
        preset=name,
        preset_label=preset_label(name, lang),
        presets=_presets(lang),
        ruleset=ruleset,
        fans=[f for f in FanId if ruleset.plays(f)],
        fan_value=lambda f: _fan_value(lang, ruleset, f),
        **rules_page_context(ruleset, lang, getattr(lobby, "online_clocks", None)),
    )


def _fan_value(lang: str, ruleset: Ruleset, fan_id: FanId) -> str:
    if ruleset.is_limit_hand(fan_id):
        return f"{i18n.tr(lang, 'limit_hand')} ({i18n.tr(lang, 'fan_n', n=ruleset.limit_value(fan_id))})"
    value = ruleset.fan_value(fan_id) or 0
    text = i18n.tr(lang, "fan_n", n=value)
    if not fan_id.per_occurrence:
        return text
    per = "per_set" if fan_id is FanId.BONUS_SET else "per_tile"
    return f"{text} ({i18n.tr(lang, per)})"


@router.get("/tutorial", response_class=HTMLResponse)
def tutorial_page(request: Request) -> HTMLResponse:
    """計番教學 the score table and a worked, live-scored example for every played pattern."""
    lang = page_lang(request)
    name = _preset(request)
    ruleset = get_preset(name)
    return render(
        request,
        "tutorial.html",
        active="tutorial",
        preset=name,
        preset_label=preset_label(name, lang),
        presets=_presets(lang),
        ruleset=ruleset,
        half_gun=ruleset.payment.gun is GunScheme.HALF_GUN,
        rows=score_rows(ruleset),
        examples=worked_examples(name),
        fan_value=lambda f: _fan_value(lang, ruleset, f),
        meld_view=_meld_view,
        context_text=lambda ctx: tutorial.context_text(lang, ctx),
        payment_text=lambda ex: tutorial.payment_text(lang, ex),
    )


@dataclass(frozen=True)
class _MeldView:
    tiles: list[str]
    concealed_kong: bool
    label: str


def _meld_view(meld: Meld) -> _MeldView:
    return _MeldView([t.mpsz for t in meld.tiles], meld.is_concealed, meld.text)


@router.get("/calculator", response_class=HTMLResponse)
def calculator_page(request: Request) -> HTMLResponse:
    """計番器 build a hand by clicking tiles, set the situation, score it through ``POST /api/score``."""
    lang = page_lang(request)
    suits = [[f"{r}{s}" for r in range(1, 10)] for s in "mps"]
    palette = [
        *suits,
        [f"{r}z" for r in range(1, 8)],
        [f"{r}f" for r in range(1, 5)] + [f"{r}g" for r in range(1, 5)],
    ]
    return render(
        request,
        "calculator.html",
        active="calculator",
        palette=palette,
        targets=_TARGETS,
        presets=_presets(lang),
        specials=list(SPECIAL_FLAGS),
        fan_names={f.value: f.label(FAN_LANG[lang]) for f in FanId},
    )


@router.get("/table/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str) -> HTMLResponse:
    """牌檯 the table: the ES module client speaks docs/protocol.md over ``/ws/table/{id}``; a
    table that does not exist is a 404 page (not an empty board waiting for nobody)."""
    lobby = getattr(request.app.state, "lobby", None)
    if (
        lobby is not None
        and lobby.get(table_id) is None
        and (len(table_id) > 64 or await lobby.store.find(table_id) is None)
    ):
        return render(request, "not_found.html", status_code=404, what="table")
    return render(request, "table.html", active="table", table_id=table_id)


async def not_found_page(request: Request, exc: Exception) -> Response:
    """A 404 for a person: the not-found page for a browser asking for a page (a path with no
    route, or a page's own 404), the usual JSON for the API, static files and scripts."""
    path = request.url.path
    wants_page = "text/html" in request.headers.get("accept", "") and not path.startswith(
        ("/api/", "/static/", "/ws/")
    )
    if not isinstance(exc, StarletteHTTPException):  # pragma: no cover - registered for 404
        raise exc
    if wants_page:
        return render(request, "not_found.html", status_code=404, what="page")
    return await http_exception_handler(request, exc)


@router.get("/offline", response_class=HTMLResponse)
def offline_page(request: Request) -> HTMLResponse:
    """未能連線 what the service worker shows when the parlor cannot be reached."""
    return render(request, "offline.html", active="offline")


@router.get("/manifest.webmanifest")
def manifest(request: Request) -> Response:
    """The web app manifest: installable to a phone's home screen."""
    lang = page_lang(request)
    body = {
        "name": i18n.tr(lang, "brand"),
        "short_name": i18n.tr(lang, "brand"),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#1d6b47",
        "theme_color": "#1d6b47",
        "icons": [
            {
                "src": "/static/icons/icon-192.png",
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any maskable",
            },
            {
                "src": "/static/icons/icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any maskable",
            },
            {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return Response(json.dumps(body, ensure_ascii=False), media_type="application/manifest+json")


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker (served from the root so its scope is the whole parlor)."""
    source = (STATIC_DIR / "js" / "sw.js").read_text(encoding="utf-8")
    body = source.replace("__VERSION__", asset_version())
    return Response(
        body,
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
