"""戰績頁 the history pages: a player's record (statistics, fan patterns, jade over time, recent
matches and hands), their hands and matches page by page, a match's page (each hand's fan
breakdown, who fed whom, 包牌, the payments, the match's jade ledger lines) and the leaderboards
by rating and by jade per ruleset family; ``/me`` goes to your own record. The statistics are
:mod:`hkmahjong.parlor.history`'s, read through :class:`~hkmahjong.server.store.history.SqlHistory`
(docs/history.md); this module only shows them, in 繁體 / 简体 / English.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from hkmahjong.parlor import accounts, policy
from hkmahjong.parlor.history import Stats, fan_names
from hkmahjong.parlor.rating import Rating
from hkmahjong.server import i18n
from hkmahjong.server.auth import current_user
from hkmahjong.server.charts import LineChart, line_chart
from hkmahjong.server.pages import FAN_LANG, digest_term, page_lang, render
from hkmahjong.server.store.history import HandLine, PlayerRef, SqlHistory
from hkmahjong.server.store.reviews import accuracy_series
from hkmahjong.server.tutorial import PRESET_NAMES, preset_label

__all__ = ["router"]

router = APIRouter()

HANDS_PER_PAGE = 50
MATCHES_PER_PAGE = 20
RECENT = 10
KINDS = ("online", "practice")


def _history(request: Request) -> SqlHistory:
    return SqlHistory(request.app.state.store)


def _player(request: Request, name: str) -> PlayerRef:
    found = _history(request).user(name)
    if found is None:
        raise HTTPException(
            status_code=404, detail={"code": "not_found", "message": f"no player {name!r}"}
        )
    return found


def _missing(request: Request) -> HTMLResponse:
    return render(request, "not_found.html", status_code=404, active="players")


def _filters(request: Request) -> tuple[str | None, str | None]:
    """``?rules=<digest>`` and ``?kind=online|practice`` (anything else: all)."""
    rules = request.query_params.get("rules") or None
    kind = request.query_params.get("kind")
    return (rules[:128] if rules else None), (kind if kind in KINDS else None)


def _page(request: Request) -> int:
    try:
        return max(1, min(10**6, int(request.query_params.get("page", "1"))))
    except ValueError:
        return 1


def family_label(family: str, lang: str) -> str:
    """A ruleset family's name in ``lang`` (a preset's name, or 自訂台例)."""
    if family in PRESET_NAMES:
        return preset_label(family, lang)
    return i18n.tr(lang, "lg_house_rules")


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _signed(value: float | int | None) -> str:
    if value is None:
        return "—"
    if float(value).is_integer():
        return f"{int(value):+d}"
    return f"{value:+.1f}"


def _when(at: datetime) -> str:
    return f"{at:%m-%d %H:%M}"


def _when_full(at: datetime) -> str:
    return f"{at:%Y-%m-%d %H:%M} UTC"


def _ordinal(rating: Rating | None) -> str:
    return "—" if rating is None else f"{rating.ordinal:.1f}"


# --- what a hand row shows ------------------------------------------------------------------------
def _names(detail: dict[str, Any]) -> list[str]:
    names = detail.get("names") or []
    return [str(n) for n in names] + [f"P{i + 1}" for i in range(len(names), 4)]


def result_text(line: HandLine, lang: str) -> str:
    """What the hand was for the player, in words: won (自摸 or off whom, the fan), dealt in to
    whom, liable, drawn, false win."""
    t = i18n.tr
    names = _names(line.detail)
    parts = []
    if line.won and line.self_drawn:
        parts.append(t(lang, "r_self", fan=line.fan))
    elif line.won:
        src = names[line.fed_by] if line.fed_by is not None else "?"
        parts.append(t(lang, "r_won_off", name=src, fan=line.fan))
    if line.dealt_in:
        who = t(lang, "comma").join(names[p] for p in line.fed_to)
        parts.append(t(lang, "r_dealt_in", names=who))
    if line.liability_paid:
        parts.append(t(lang, "r_liable", n=line.liability_paid))
    if line.false_win:
        parts.append(t(lang, "r_false_win"))
    if line.drawn:
        parts.append(t(lang, "r_drawn_hand"))
    return t(lang, "semi").join(parts) if parts else t(lang, "r_none")


def hand_label(detail: dict[str, Any], lang: str) -> str:
    """第 n 局・東圈."""
    wind = i18n.tr(lang, f"wind_{detail.get('prevailing', 'E')}")
    return i18n.tr(lang, "hand_label", n=int(detail.get("hand", 0)) + 1, w=wind)


def _fan_items(win: dict[str, Any], lang: str) -> list[tuple[str, int, int]]:
    """(name, fan, count) of a win's breakdown in ``lang``."""
    key = FAN_LANG[lang]
    return [
        (fan_names(str(i["id"]))[key], int(i.get("fan", 0)), int(i.get("count", 1)))
        for i in (win.get("score") or {}).get("items", [])
    ]


@dataclass(frozen=True)
class HandRow:
    """One row of a hand list."""

    line: HandLine
    label: str
    result: str
    fans: str
    link: str | None


def hand_rows(lines: list[HandLine], lang: str, viewer_is_player: bool) -> list[HandRow]:
    """The rows of a hand list (a private table's match is linked for its own player only)."""
    out = []
    for line in lines:
        fans = ""
        if line.won:
            seat = line.seat
            for win in line.detail.get("outcome", {}).get("wins", []):
                if win.get("seat") == seat:
                    fans = i18n.tr(lang, "comma").join(n for n, _, _ in _fan_items(win, lang))
        link = None
        if policy.sees_table(line.private, seated=viewer_is_player):
            link = f"/matches/{line.table}#hand-{line.hand + 1}"
        out.append(
            HandRow(line, hand_label(line.detail, lang), result_text(line, lang), fans, link)
        )
    return out


# --- a match's page -----------------------------------------------------------------------------
@dataclass(frozen=True)
class WinView:
    """One win of a hand on the match page."""

    title: str
    fans: list[tuple[str, int, int]]
    total: str
    liable: str | None


@dataclass(frozen=True)
class HandView:
    """One hand on the match page."""

    number: int
    label: str
    wins: list[WinView]
    notes: list[str]
    payments: list[str]
    deltas: list[tuple[str, str]]


def hand_view(detail: dict[str, Any], lang: str) -> HandView:
    """A hand as its match page shows it: each win's fan breakdown and who fed it, 包牌, the
    false wins, the payments with their reasons, each player's points."""
    t = i18n.tr
    names = _names(detail)
    players = list(detail.get("players") or [0, 1, 2, 3])

    def at(letter: object) -> str:
        return names[players["ESWN".index(str(letter))]] if letter in tuple("ESWN") else "?"

    outcome = detail.get("outcome") or {}
    wins = []
    for win in outcome.get("wins", []):
        title = (
            t(lang, "m_win_self", name=at(win["seat"]))
            if win.get("discarder") is None
            else t(lang, "m_win_off", name=at(win["seat"]), src=at(win["discarder"]))
        )
        score = win.get("score") or {}
        total = t(lang, "m_fan_total", n=score.get("total_fan", 0))
        if score.get("is_limit"):
            total += f" {t(lang, 'm_limit')}"
        liable = win.get("liable")
        wins.append(
            WinView(
                title,
                _fan_items(win, lang),
                total,
                t(lang, "m_liable_v", name=at(liable)) if liable else None,
            )
        )
    notes = [t(lang, "m_false", name=at(f["seat"])) for f in outcome.get("false_wins", [])]
    if outcome.get("drawn"):
        notes.append(t(lang, "r_drawn_hand"))
    payments = [
        t(
            lang,
            "m_pay_v",
            a=at(p["from"]),
            b=at(p["to"]),
            n=p["amount"],
            why=i18n.reason(lang, str(p.get("zh", "")), str(p.get("en", ""))),
        )
        for p in outcome.get("payments", [])
    ]
    deltas = [(names[p], _signed(d)) for p, d in enumerate(detail.get("deltas") or [])]
    number = int(detail.get("hand", 0)) + 1
    return HandView(number, hand_label(detail, lang), wins, notes, payments, deltas)


def _account_text(key: str, lang: str, users: dict[int, str], seats: list[str]) -> str:
    t = i18n.tr
    account = accounts.parse_account(key)
    if account.user_id is not None:
        return users.get(account.user_id, key)
    if account.table_id is not None and account.player is not None:
        name = seats[account.player] if account.player < len(seats) else key
        return t(lang, "acct_escrow", name=name)
    if key == accounts.FEES:
        return t(lang, "acct_fees")
    if key == accounts.BOTS:
        return t(lang, "acct_bots")
    return key


def _txn_text(kind: str, key: str, lang: str) -> str:
    if kind == accounts.TxnKind.SETTLE and key.startswith("hand:"):
        hand = accounts.hand_of_key(key)
        n = key.rsplit(":", 1)[-1] if hand is None else hand + 1
        return i18n.tr(lang, "txk_settle", n=n)
    if f"txk_{kind}" in i18n.WORDS:
        return i18n.tr(lang, f"txk_{kind}")
    return kind


# --- routes -------------------------------------------------------------------------------------
@router.get("/me", include_in_schema=False)
def me_page(request: Request) -> Response:
    """我的戰績: your own record (log in first)."""
    user = current_user(request)
    if user is None:
        return RedirectResponse("/login?next=/me", status_code=303)
    return RedirectResponse(f"/players/{user.name}", status_code=303)


def _rules_options(history: SqlHistory, user_id: int, lang: str) -> list[tuple[str, str]]:
    return [
        (digest, f"{family_label(family, lang)} · {digest[:8]} ({n})")
        for family, digest, n in history.rulesets(user_id)
    ]


def _query(rules: str | None, kind: str | None, page: int | None = None) -> str:
    parts = []
    if rules:
        parts.append(f"rules={rules}")
    if kind:
        parts.append(f"kind={kind}")
    if page is not None:
        parts.append(f"page={page}")
    return ("?" + "&".join(parts)) if parts else ""


@router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
def player_page(request: Request, name: str) -> HTMLResponse:
    """A player's record: ratings, statistics, fan patterns, jade over time, recent matches and
    hands (narrowed by ``?rules=<digest>`` and ``?kind=online|practice``)."""
    lang = page_lang(request)
    history = _history(request)
    player = history.user(name)
    if player is None:
        return _missing(request)
    rules, kind = _filters(request)
    stats = Stats(history.tally(player.id, rules, kind))
    matches = history.match_tally(player.id, rules, kind)
    fans = history.fan_counts(player.id, rules, kind)
    hands, n_hands = history.hands(player.id, limit=RECENT, digest=rules, kind=kind)
    recent, n_matches = history.matches(player.id, limit=RECENT, digest=rules, kind=kind)
    viewer = current_user(request)
    mine = viewer is not None and viewer.id == player.id
    key = FAN_LANG[lang]
    wins = stats.tally.wins
    return render(
        request,
        "player.html",
        active="me" if mine else "players",
        player=player,
        stats=stats,
        matches=matches,
        pct=_pct,
        num=_num,
        signed=_signed,
        when=_when,
        ordinal=_ordinal,
        fans=[(fan_names(f)[key], n, n / wins if wins else 0.0) for f, n in fans],
        chart=line_chart(*_series(history, player.id)),
        accuracy=_accuracy(request, player.id),
        ratings=[(family_label(f, lang), r, n) for f, r, n in history.ratings(player.id)],
        rules=rules,
        kind=kind,
        kinds=KINDS,
        rules_options=_rules_options(history, player.id, lang),
        hand_rows=hand_rows(hands, lang, mine),
        n_hands=n_hands,
        recent=recent,
        n_matches=n_matches,
        family_label=lambda f: family_label(f, lang),
        query=_query(rules, kind),
    )


def _series(
    history: SqlHistory, user_id: int
) -> tuple[list[int], datetime | None, datetime | None]:
    found = history.jade_series(user_id)
    return found.balances, found.first_at, found.last_at


@dataclass(frozen=True)
class AccuracyChart:
    """覆盤準確率 the player's reviewed hands: each hand's accuracy (in percent) over time, and
    the share of every reviewed decision judged good."""

    chart: LineChart
    hands: int
    good: int
    decisions: int

    @property
    def share(self) -> float:
        """Good decisions over all the reviewed ones."""
        return self.good / self.decisions if self.decisions else 0.0


def _accuracy(request: Request, user_id: int) -> AccuracyChart | None:
    """The accuracy chart from the reviews kept so far (none is run here: docs/review.md)."""
    points = accuracy_series(request.app.state.store, user_id)
    chart = line_chart(
        [round(p.accuracy * 100) for p in points],
        points[0].played_at if points else None,
        points[-1].played_at if points else None,
        bounds=(0, 100),
    )
    if chart is None:
        return None
    good = sum(p.good for p in points)
    return AccuracyChart(chart, len(points), good, sum(p.reviewed for p in points))


def _pages(total: int, per: int, page: int) -> tuple[int, int]:
    pages = max(1, math.ceil(total / per))
    return min(page, pages), pages


@router.get("/players/{name}/hands", response_class=HTMLResponse, include_in_schema=False)
def player_hands(request: Request, name: str) -> HTMLResponse:
    """A player's hands, newest first, 50 a page (``?page=``, ``?rules=``, ``?kind=``)."""
    lang = page_lang(request)
    history = _history(request)
    player = history.user(name)
    if player is None:
        return _missing(request)
    rules, kind = _filters(request)
    page = _page(request)
    lines, total = history.hands(
        player.id,
        offset=(page - 1) * HANDS_PER_PAGE,
        limit=HANDS_PER_PAGE,
        digest=rules,
        kind=kind,
    )
    last, pages = _pages(total, HANDS_PER_PAGE, page)
    if last != page:  # past the end: the last page
        page = last
        lines, total = history.hands(
            player.id,
            offset=(page - 1) * HANDS_PER_PAGE,
            limit=HANDS_PER_PAGE,
            digest=rules,
            kind=kind,
        )
    viewer = current_user(request)
    return render(
        request,
        "player_hands.html",
        active="players",
        player=player,
        hand_rows=hand_rows(lines, lang, viewer is not None and viewer.id == player.id),
        total=total,
        page=page,
        pages=pages,
        when=_when,
        signed=_signed,
        prev_q=_query(rules, kind, page - 1),
        next_q=_query(rules, kind, page + 1),
        query=_query(rules, kind),
    )


@router.get("/players/{name}/matches", response_class=HTMLResponse, include_in_schema=False)
def player_matches(request: Request, name: str) -> HTMLResponse:
    """A player's finished matches, newest first, 20 a page."""
    lang = page_lang(request)
    history = _history(request)
    player = history.user(name)
    if player is None:
        return _missing(request)
    rules, kind = _filters(request)
    page = _page(request)
    lines, total = history.matches(
        player.id,
        offset=(page - 1) * MATCHES_PER_PAGE,
        limit=MATCHES_PER_PAGE,
        digest=rules,
        kind=kind,
    )
    last, pages = _pages(total, MATCHES_PER_PAGE, page)
    if last != page:
        page = last
        lines, total = history.matches(
            player.id,
            offset=(page - 1) * MATCHES_PER_PAGE,
            limit=MATCHES_PER_PAGE,
            digest=rules,
            kind=kind,
        )
    return render(
        request,
        "player_matches.html",
        active="players",
        player=player,
        lines=lines,
        total=total,
        page=page,
        pages=pages,
        when=_when,
        signed=_signed,
        ordinal=_ordinal,
        family_label=lambda f: family_label(f, lang),
        prev_q=_query(rules, kind, page - 1),
        next_q=_query(rules, kind, page + 1),
        query=_query(rules, kind),
    )


def _length_text(length: str, lang: str) -> str:
    key = i18n.LENGTH_KEYS.get(length)
    return i18n.tr(lang, key) if key else length


@router.get("/matches/{public_id}", response_class=HTMLResponse, include_in_schema=False)
def match_page(request: Request, public_id: str) -> HTMLResponse:
    """一場: the four results, every hand (fan breakdowns, who fed whom, 包牌, payments) and the
    match's jade ledger lines. A private table's page is for its seated players only."""
    lang = page_lang(request)
    history = _history(request)
    found = history.table(public_id)
    if found is None:
        return _missing(request)
    table_id, status, private, config = found
    viewer = current_user(request)
    users = history.seated(table_id)
    if not policy.sees_table(
        private,
        seated=viewer is not None and viewer.id in users,
        admin=viewer is not None and viewer.is_admin,
    ):
        return _missing(request)
    results = history.match_results(table_id)
    details = history.hand_details(table_id)
    names = _names(details[-1][0]) if details else [r.name for r in results]
    ledger = [
        (
            _txn_text(x.kind, x.key, lang),
            x.at,
            [(_account_text(k, lang, users, names), _signed(a)) for k, a in x.rows],
        )
        for x in history.ledger_lines(table_id)
    ]
    rules = dict(config.get("rules") or {})
    family = results[0].family if results else None
    return render(
        request,
        "match.html",
        active="players",
        public_id=public_id,
        status=status,
        results=sorted(results, key=lambda r: (r.place, r.player)),
        hands=[(hand_view(d, lang), at) for d, at in details],
        ledger=ledger,
        when=_when_full,
        signed=_signed,
        ordinal=_ordinal,
        rules_text=Markup(escape(i18n.tr(lang, "m_rules_v"))).format(
            family=family_label(family, lang)
            if family
            else preset_label(str(rules.get("preset", "")), lang),
            digest=digest_term(str(rules.get("digest", ""))),
        ),
        length_text=_length_text(str(config.get("length", "")), lang),
        kind_text=i18n.tr(
            lang, "pl_kind_practice" if config.get("kind") == "practice" else "pl_kind_online"
        ),
        table_link=f"/table/{public_id}" if status in ("waiting", "playing", "paused") else None,
    )


@router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
def leaderboard_page(request: Request) -> HTMLResponse:
    """排行榜 by rating or by jade (``?by=rating|jade``) in one ruleset family (``?family=``)."""
    lang = page_lang(request)
    history = _history(request)
    families = history.families()
    family = request.query_params.get("family") or (families[0] if families else "parlor")
    by = "jade" if request.query_params.get("by") == "jade" else "rating"
    rows = history.leaderboard_jade(family) if by == "jade" else history.leaderboard_rating(family)
    options = families if family in families else [family, *families]
    return render(
        request,
        "leaderboard.html",
        active="leaderboard",
        family=family,
        families=[(f, family_label(f, lang)) for f in options],
        by=by,
        rows=rows,
        ordinal=_ordinal,
        signed=_signed,
    )


@router.get("/api/players/{name}/stats")
def player_stats_api(request: Request, name: str) -> dict[str, Any]:
    """A player's statistics as JSON (``?rules=<digest>``, ``?kind=online|practice``): the
    hand tally and rates (docs/history.md), the match tally, the fan-pattern counts and the
    ratings by family."""
    history = _history(request)
    player = _player(request, name)
    rules, kind = _filters(request)
    stats = Stats(history.tally(player.id, rules, kind))
    m = history.match_tally(player.id, rules, kind)
    return {
        "name": player.name,
        "rules": rules,
        "kind": kind,
        "hands": stats.to_json(),
        "matches": {
            "matches": m.matches,
            "places": list(m.place_counts),
            "average_place": m.average_place,
            "jade": m.jade,
            "points": m.points,
        },
        "fans": [
            {"id": f, "wins": n, **fan_names(f)}
            for f, n in history.fan_counts(player.id, rules, kind)
        ],
        "ratings": [
            {"family": f, "mu": r.mu, "sigma": r.sigma, "rating": r.ordinal, "matches": n}
            for f, r, n in history.ratings(player.id)
        ],
    }
