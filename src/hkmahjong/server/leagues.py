"""聯賽 the league pages and routes: the list of leagues, a league's page (terms, the seating and
tie-break rules, entrants, standings, rounds, payouts, its log), sign-up and withdrawal for
registered players (form posts and a JSON API). The rules are :mod:`hkmahjong.parlor.league`'s;
this module only shows them and passes requests on (docs/leagues.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from markupsafe import Markup, escape

from hkmahjong.parlor import policy
from hkmahjong.parlor.league import (
    MAX_TABLES,
    League,
    LeagueDesk,
    LeagueError,
    round_deadline,
    standings,
)
from hkmahjong.server import i18n
from hkmahjong.server.auth import CurrentUser, check_csrf, csrf_ok, current_user, require_user
from hkmahjong.server.pages import digest_term, iso_utc, page_lang, render
from hkmahjong.server.paths import RowId
from hkmahjong.server.tutorial import preset_label

__all__ = ["router"]

router = APIRouter()

_HTTP = {
    "not_found": 404,
    "not_entered": 404,
    "closed": 409,
    "started": 409,
    "over": 409,
    "full": 409,
    "entered": 409,
    "conflict": 409,
    "balance": 402,
    "guest": 403,
}
_ERRORS = ("closed", "started", "over", "full", "balance", "not_entered", "guest", "csrf")


def _desk(request: Request) -> LeagueDesk:
    desk = request.app.state.leagues
    assert isinstance(desk, LeagueDesk)
    return desk


def _league(request: Request, league_id: int) -> League:
    try:
        return _desk(request).get(league_id)
    except LeagueError:
        raise HTTPException(
            status_code=404, detail={"code": "not_found", "message": f"no league {league_id}"}
        ) from None


def _when(at: datetime) -> Markup:
    """A time on a league page: a ``<time>`` element in UTC (its text for a page without
    scripts), which app.js shows in the browser's own zone and language."""
    return Markup('<time datetime="{}" data-local="full">{} UTC</time>').format(
        iso_utc(at), f"{at:%Y-%m-%d %H:%M}"
    )


def _tm(lang: str, key: str, **fmt: object) -> Markup:
    """The page text ``key`` with ``fmt`` put in as markup (times) or escaped (anything else)."""
    return Markup(escape(i18n.tr(lang, key))).format(**fmt)


# -- what the pages show ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatView:
    """One seat of a league table: a name (or a bot), its points once the match ended."""

    name: str
    bot: bool
    you: bool
    points: int | None


@dataclass(frozen=True)
class TableView:
    """One table of a round."""

    number: int
    seats: list[SeatView]
    over: bool
    table_id: str | None
    mine: bool
    """The viewer sits at it (its link says go to the table; for anyone else, watch it)."""
    unplayed: bool = False
    """Its match never ended because the league was cancelled (滾出): not played, no points."""


@dataclass(frozen=True)
class RoundView:
    """One round: its tables and byes."""

    number: int
    tables: list[TableView]
    byes: list[str]
    ends: str | None = None
    """When its time is up (the round being played), else None."""


def _rules_name(league: League, lang: str) -> str:
    preset = league.config.rules.get("preset")
    return preset_label(str(preset), lang) if preset else i18n.tr(lang, "lg_house_rules")


def _pool_text(league: League, lang: str) -> str:
    """The pool as it stands, or — once the league ended — what was done with it: the pool that
    was actually split on a 滾出 (never the fee share that joins only a finished league)."""
    c, t = league.config, i18n.tr
    if league.status == "rolled_out":
        if c.free:
            return t(lang, "lg_pool_free_back", pool=league.pool)
        equal = sum(p.amount for p in league.payouts if p.kind == "split_equal")
        points = sum(p.amount for p in league.payouts if p.kind == "split_points")
        return t(lang, "lg_pool_split", pool=league.shown_pool, equal=equal, points=points)
    if league.status == "rolled_back":
        return t(lang, "lg_pool_refunded", pool=league.shown_pool)
    text = t(lang, "lg_pool_v", pool=league.shown_pool, stake=c.stake, g=c.guarantee)
    return text + (t(lang, "lg_pool_fees", pct=c.fee_to_pool) if c.fee_to_pool else "")


def _outcome_text(league: League, lang: str) -> str:
    """What happened to a cancelled league, in a sentence (empty otherwise)."""
    if league.status == "rolled_out":
        played = sum(1 for r in league.rounds if r.over)
        return _tm(
            lang,
            "lg_rolled_out_note",
            n=len(league.rounds),
            done=played,
            at=_when(league.ended_at) if league.ended_at else "",
        )
    if league.status == "rolled_back":
        return i18n.tr(lang, "lg_rolled_back_note")
    return ""


def league_view(
    league: League, lang: str, user: CurrentUser | None, now: datetime
) -> dict[str, Any]:
    """Everything the league page shows, in ``lang``, for ``user``."""
    c = league.config
    t = i18n.tr
    names = {e.user_id: e.name for e in league.entrants}
    you = None if user is None else user.id
    due = round_deadline(league)
    rounds = [
        RoundView(
            rnd.number,
            [
                TableView(
                    m.table,
                    [
                        SeatView(
                            t(lang, "lg_bot") if s is None else names.get(s, "?"),
                            s is None,
                            s is not None and s == you,
                            None if m.points is None else m.points[i],
                        )
                        for i, s in enumerate(m.seats)
                    ],
                    m.over,
                    m.table_id,
                    you is not None and you in m.seats,
                    unplayed=league.over and not m.over,
                )
                for m in rnd.matches
            ],
            [names.get(b, "?") for b in rnd.byes],
            _tm(lang, "lg_round_ends", at=_when(due))
            if rnd is league.current_round and due is not None
            else None,
        )
        for rnd in league.rounds
    ]
    entered = you is not None and league.entrant(you) is not None
    window_open = c.signup_opens <= now < c.signup_closes
    if league.status != "open":
        signup = "lg_closed"
    elif user is None:
        signup = "lg_login_to_join"
    elif policy.league_refusal(guest=user.is_guest) is not None:
        signup = "lg_guest_no"
    elif now < c.signup_opens:
        signup = "lg_not_yet"
    elif not window_open:
        signup = "lg_closed"
    else:
        signup = "lg_you_in" if entered else ""
    fill = (
        t(lang, "lg_fill_bots", level=t(lang, f"level_{c.bot_level}"))
        if c.fill == "bots"
        else t(lang, "lg_fill_byes")
    )
    return {
        "league": league,
        "status_text": t(lang, f"lg_status_{league.status}"),
        "entry_text": t(lang, "lg_free")
        if c.free
        else t(lang, "lg_entry", fee=c.entry_fee, stake=c.stake),
        "rules_text": _tm(
            lang, "lg_rules_v", name=_rules_name(league, lang), digest=digest_term(c.digest)
        ),
        "length_text": t(lang, i18n.LENGTH_KEYS.get(c.length, "len_4")),
        "rounds_text": t(lang, "lg_rounds_n", n=c.rounds, m=c.round_minutes),
        "window_text": _tm(lang, "lg_window_v", a=_when(c.signup_opens), b=_when(c.signup_closes)),
        "players_text": t(lang, "lg_players_v", a=c.min_players, b=c.max_players),
        "pool_text": _pool_text(league, lang),
        "outcome_text": _outcome_text(league, lang),
        "prizes": [(n, p) for n, p in enumerate(c.prizes, start=1)],
        "fill_text": fill,
        "standings": standings(league) if league.rounds else [],
        "rounds": rounds,
        "payouts": [
            (names.get(p.user_id, "?"), t(lang, f"lg_pay_{p.kind}"), p.amount)
            for p in league.payouts
        ],
        "log": [(_when(d.at), t(lang, f"lg_d_{d.kind}"), d.reason) for d in league.log],
        "entered": entered,
        "can_join": signup == "" and not entered,
        "can_leave": signup == "lg_you_in",
        "signup_note": t(lang, signup) if signup else "",
        "you": you,
        "max_tables": MAX_TABLES,
    }


def _summary(league: League) -> dict[str, Any]:
    c = league.config
    return {
        "id": league.id,
        "name": c.name,
        "status": league.status,
        "players": len(league.active),
        "entry_fee": c.entry_fee,
        "stake": c.stake,
        "free": c.free,
        "pool": league.shown_pool,
        "guarantee": c.guarantee,
        "fee_to_pool": c.fee_to_pool,
        "prizes": list(c.prizes),
        "rounds": c.rounds,
        "round": len(league.rounds),
        "round_minutes": c.round_minutes,
        "round_ends": None if (due := round_deadline(league)) is None else due.isoformat(),
        "fill": c.fill,
        "length": c.length,
        "rules": c.rules.get("preset") or "house",
        "digest": c.digest,
        "signup_opens": c.signup_opens.isoformat(),
        "signup_closes": c.signup_closes.isoformat(),
    }


# -- pages -----------------------------------------------------------------------------------------
@router.get("/leagues", response_class=HTMLResponse, include_in_schema=False)
def leagues_page(request: Request) -> HTMLResponse:
    """聯賽 every league, newest first."""
    lang = page_lang(request)
    rows = [
        (
            lg,
            i18n.tr(lang, f"lg_status_{lg.status}"),
            i18n.tr(lang, "lg_free")
            if lg.config.free
            else i18n.tr(lang, "lg_entry", fee=lg.config.entry_fee, stake=lg.config.stake),
            _summary(lg)["pool"],
            _when(lg.config.signup_closes),
        )
        for lg in _desk(request).store.leagues()
    ]
    return render(request, "leagues.html", active="leagues", rows=rows)


@router.get("/leagues/{league_id}", response_class=HTMLResponse, include_in_schema=False)
def league_page(request: Request, league_id: RowId) -> HTMLResponse:
    """一個聯賽 a league's page: terms and rules, sign-up, entrants, standings, rounds, log."""
    lang = page_lang(request)
    league = _league(request, league_id)
    user = current_user(request)
    view = league_view(league, lang, user, _desk(request).clock())
    error = request.query_params.get("error")
    done = request.query_params.get("done")
    return render(
        request,
        "league.html",
        active="leagues",
        error=i18n.tr(lang, f"lg_err_{error if error in _ERRORS else 'unknown'}")
        if error
        else None,
        done=i18n.tr(lang, f"lg_done_{done}") if done in ("joined", "left") else None,
        **view,
    )


def _form_step(
    request: Request, league_id: int, csrf: str | None, joining: bool
) -> RedirectResponse:
    page = f"/leagues/{int(league_id)}"
    if not csrf_ok(request, csrf):
        return RedirectResponse(f"{page}?error=csrf", status_code=303)
    user = current_user(request)
    if user is None:
        return RedirectResponse(f"/login?next={page}", status_code=303)
    refusal = policy.league_refusal(guest=user.is_guest)
    if refusal is not None:
        return RedirectResponse(f"{page}?error={refusal.code}", status_code=303)
    desk = _desk(request)
    try:
        if joining:
            desk.join(league_id, user.id, user.name)
        else:
            desk.leave(league_id, user.id)
    except LeagueError as exc:
        if exc.code == "not_found":
            raise HTTPException(status_code=404, detail=exc.message) from None
        return RedirectResponse(f"{page}?error={exc.code}", status_code=303)
    return RedirectResponse(f"{page}?done={'joined' if joining else 'left'}", status_code=303)


OptFormStr = Annotated[str | None, Form(max_length=2000)]


@router.post("/leagues/{league_id}/join", include_in_schema=False)
def join_form(request: Request, league_id: RowId, csrf: OptFormStr = None) -> RedirectResponse:
    """報名 (form post): sign up, paying the fee and stake; back to the league's page."""
    return _form_step(request, league_id, csrf, True)


@router.post("/leagues/{league_id}/leave", include_in_schema=False)
def leave_form(request: Request, league_id: RowId, csrf: OptFormStr = None) -> RedirectResponse:
    """退出 (form post): withdraw while sign-up is open, fee and stake refunded."""
    return _form_step(request, league_id, csrf, False)


# -- JSON API --------------------------------------------------------------------------------------
def _fail(exc: LeagueError) -> HTTPException:
    return HTTPException(
        status_code=_HTTP.get(exc.code, 400), detail={"code": exc.code, "message": exc.message}
    )


@router.get("/api/leagues", tags=["leagues"])
def api_leagues(request: Request) -> list[dict[str, Any]]:
    """Every league, newest first (terms and counts)."""
    return [_summary(lg) for lg in _desk(request).store.leagues()]


@router.get("/api/leagues/{league_id}", tags=["leagues"])
def api_league(request: Request, league_id: RowId) -> dict[str, Any]:
    """A league: terms, entrants, standings, rounds (with table points), payouts, log."""
    league = _league(request, league_id)
    names = {e.user_id: e.name for e in league.entrants}
    return {
        **_summary(league),
        "entrants": [{"user": e.user_id, "name": e.name} for e in league.active],
        "standings": [
            {
                "rank": s.rank,
                "user": s.user_id,
                "name": s.name,
                "points": s.points,
                "matches": s.matches,
                "best": s.best,
                "byes": s.byes,
            }
            for s in (standings(league) if league.rounds else [])
        ],
        "rounds": [
            {
                "number": r.number,
                "seated_at": None if r.seated_at is None else r.seated_at.isoformat(),
                "byes": list(r.byes),
                "tables": [
                    {
                        "table": m.table,
                        "seats": list(m.seats),
                        "names": [None if s is None else names.get(s) for s in m.seats],
                        "points": None if m.points is None else list(m.points),
                        "table_id": m.table_id,
                        "voided": list(m.voided),
                    }
                    for m in r.matches
                ],
            }
            for r in league.rounds
        ],
        "payouts": [
            {"user": p.user_id, "kind": p.kind, "amount": p.amount} for p in league.payouts
        ],
        "log": [{"at": d.at.isoformat(), "kind": d.kind, "reason": d.reason} for d in league.log],
    }


@router.post("/api/leagues/{league_id}/join", tags=["leagues"], dependencies=[Depends(check_csrf)])
def api_join(
    request: Request, league_id: RowId, user: Annotated[CurrentUser, Depends(require_user)]
) -> dict[str, Any]:
    """Sign up (registered players; the fee and stake are paid at once)."""
    refusal = policy.league_refusal(guest=user.is_guest)
    if refusal is not None:
        raise _fail(LeagueError(refusal.code, refusal.message))
    try:
        league = _desk(request).join(league_id, user.id, user.name)
    except LeagueError as exc:
        raise _fail(exc) from None
    return {"ok": True, "players": len(league.active)}


@router.post("/api/leagues/{league_id}/leave", tags=["leagues"], dependencies=[Depends(check_csrf)])
def api_leave(
    request: Request, league_id: RowId, user: Annotated[CurrentUser, Depends(require_user)]
) -> dict[str, Any]:
    """Withdraw while sign-up is open (the fee and stake come back)."""
    try:
        league = _desk(request).leave(league_id, user.id)
    except LeagueError as exc:
        raise _fail(exc) from None
    return {"ok": True, "players": len(league.active)}
