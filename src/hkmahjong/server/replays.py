"""牌譜 routes: a hand's replay frames (``/api/replay/{id}/{hand}``), the record to download
(``/api/tables/{id}/record``), a finished hand's review (``/api/review/{id}/{hand}``,
docs/review.md) and the replay page (``/replay/{id}``).

Everything comes from :mod:`hkmahjong.parlor.replays` (frames built by the engine, who may look);
this module reads the table from the store — a finished table too, after a restart — and adapts.
A finished hand's frames never change, so they are kept in a small cache.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gzip
import json
import logging
import multiprocessing
import os
from collections import OrderedDict
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from sqlalchemy.exc import SQLAlchemyError

from hkmahjong.bots.review import REVIEW_BUDGET as _DEFAULT_BUDGET
from hkmahjong.bots.review import ReviewConfig, review_hand
from hkmahjong.engine.record import GameRecord
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.environ import env_number
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.replays import (
    ReplayError,
    TableRecord,
    hand_replay,
    record_text,
    viewer_of,
)
from hkmahjong.parlor.wire import dumps
from hkmahjong.rules import FanId
from hkmahjong.server.auth import CurrentUser, current_user
from hkmahjong.server.pages import FAN_LANG, page_lang, render
from hkmahjong.server.store.reviews import ReviewTotals, keep_review
from hkmahjong.tiles import Wind

__all__ = ["CACHE_SIZE", "REVIEW_BUDGET_MAX", "REVIEW_QUEUE", "router"]

router = APIRouter()
log = logging.getLogger(__name__)

CACHE_SIZE = 64
"""Finished hands' frames kept (per table, hand, eye and viewer): they never change."""
_STATUS = {"not_found": 404, "forbidden": 403, "not_over": 409, "bad_request": 422}
_cache: OrderedDict[tuple[int, int, str, int | None], bytes] = OrderedDict()

REVIEW_BUDGET = _DEFAULT_BUDGET
"""Samples a decision of a review asked for without ``budget`` (the CLI's default; a server's
own default is ``HKMJ_REVIEW_BUDGET``: :func:`review_budget`)."""
REVIEW_BUDGET_MAX = 16
"""The most samples a decision a request may ask for (the review's CPU grows with it: 16 costs
about 16/6 of the default's)."""
REVIEW_QUEUE = 4
"""Reviews computed or waiting at once in this process; past it a request is told to retry
(429) — a review costs seconds of a core, in a worker process at a lower priority."""
_reviews: OrderedDict[tuple[int, int, int, int], bytes] = OrderedDict()
_review_pool: list[concurrent.futures.ProcessPoolExecutor] = []
_review_load = [0]


def _fail(code: str, message: str) -> HTTPException:
    return HTTPException(
        status_code=_STATUS.get(code, 400), detail={"code": code, "message": message}
    )


async def _table(request: Request, public_id: str) -> TableRecord:
    lobby = request.app.state.lobby
    assert isinstance(lobby, Lobby)
    row = await lobby.store.find(public_id)
    if row is None:
        raise _fail("not_found", f"no table {public_id!r}")
    live = lobby.get(public_id)
    if live is not None:
        row = replace(row, status=live.status)
    seats = await lobby.store.seats(row.id)
    lines = await lobby.store.lines(row.id)
    return TableRecord(row, seats, lines)


def _viewer(table: TableRecord, user: CurrentUser | None, invite: str | None) -> int | None:
    try:
        return viewer_of(table.row, table.seats, None if user is None else user.id, invite)
    except ReplayError as exc:
        raise _fail(exc.code, exc.message) from None


def _compressed(body: bytes, request: Request) -> Response:
    headers = {"Cache-Control": "private, no-cache", "Vary": "Accept-Encoding, Cookie"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(gzip.compress(body, 6), media_type="application/json", headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/replay/{public_id}/{hand}")
async def replay_hand_frames(
    request: Request,
    public_id: str,
    hand: int,
    user: Annotated[CurrentUser | None, Depends(current_user)],
    seat: str | None = None,
    invite: str | None = None,
) -> Response:
    """One hand's frames (``hand`` 0-based) for ``seat`` E/S/W/N or ``open`` (all hands open,
    once the hand is over); without ``seat``: your own seat if you played it, else open."""
    table = await _table(request, public_id)
    viewer = _viewer(table, user, invite)
    eye = seat.upper() if seat and seat != "open" else (seat or None)
    key = (table.row.id, hand, eye or "", viewer)
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return _compressed(cached, request)
    try:
        data = await asyncio.to_thread(hand_replay, table, hand, eye, viewer)
    except ReplayError as exc:
        raise _fail(exc.code, exc.message) from None
    body = dumps(data).encode()
    if data["over"]:
        _cache[key] = body
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return _compressed(body, request)


@router.get("/api/tables/{public_id}/record", response_class=PlainTextResponse)
async def table_record(
    request: Request,
    public_id: str,
    user: Annotated[CurrentUser | None, Depends(current_user)],
    invite: str | None = None,
    download: bool = False,
) -> PlainTextResponse:
    """The game record (JSON Lines) up to the last hand that ended — the whole match, passing
    ``hkmj replay --verify``, once it is over; the current hand's actions and seed stay secret
    until it ends. ``download=1`` asks the browser to save it as a file."""
    table = await _table(request, public_id)
    viewer = _viewer(table, user, invite)
    try:
        text = record_text(table, viewer)
    except ReplayError as exc:
        raise _fail(exc.code, exc.message) from None
    headers = {}
    if download:
        headers["Content-Disposition"] = f'attachment; filename="hkmj-{public_id}.jsonl"'
    return PlainTextResponse(text, media_type="application/x-ndjson", headers=headers)


@router.get("/replay/{public_id}", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(
    request: Request,
    public_id: str,
    user: Annotated[CurrentUser | None, Depends(current_user)],
    invite: str | None = None,
) -> HTMLResponse:
    """牌譜 the replay page: step through a hand (``?hand=`` 1-based, ``seat=E|S|W|N|open``,
    ``step=``), check its wall, download the record."""
    try:
        table = await _table(request, public_id)
        _viewer(table, user, invite)
    except HTTPException as exc:
        code = exc.detail.get("code") if isinstance(exc.detail, dict) else None
        return render(
            request,
            "replay.html",
            status_code=exc.status_code,
            active="replay",
            table_id=public_id,
            error=code or "not_found",
            boot=None,
        )
    boot = {"table": public_id, "invite": invite}
    lang = FAN_LANG.get(page_lang(request), "en")
    return render(
        request,
        "replay.html",
        active="replay",
        table_id=public_id,
        error=None,
        boot=json.dumps(boot),
        fan_names={f.value: f.label(lang) for f in FanId},
    )


def _nice_worker() -> None:
    """A review worker runs below the server's priority: people's tables keep the CPU."""
    with contextlib.suppress(OSError):
        os.nice(10)


def _review_executor() -> concurrent.futures.ProcessPoolExecutor:
    if not _review_pool:
        _review_pool.append(
            concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_nice_worker,
            )
        )
    return _review_pool[0]


def review_budget() -> int:
    """The budget of a review asked for without one (what the replay page's 覆盤 asks for):
    ``HKMJ_REVIEW_BUDGET``, 1 to :data:`REVIEW_BUDGET_MAX` (default :data:`REVIEW_BUDGET`).

    :raises EnvNumberError: when the variable holds anything else.
    """
    return int(env_number("HKMJ_REVIEW_BUDGET", str(REVIEW_BUDGET), low=1, high=REVIEW_BUDGET_MAX))


def review_json(text: str, hand: int, player: int, budget: int) -> bytes:
    """The review of hand ``hand`` (0-based) of the record ``text`` for ``player`` as JSON (run
    in the review worker process; module-level, so it pickles): ``HandReview.to_json()`` and the
    settings it was made with (``budget``; ``z``, the noise gate in standard errors)."""
    record = GameRecord.loads(text, source="table record", partial=True)
    config = ReviewConfig(budget=budget)
    review = review_hand(record, hand, player, config)
    return dumps({**review.to_json(), "budget": budget, "z": config.thresholds.z}).encode()


@router.get("/api/review/{public_id}/{hand}")
async def review_of_hand(
    request: Request,
    public_id: str,
    hand: int,
    user: Annotated[CurrentUser | None, Depends(current_user)],
    seat: str | None = None,
    budget: int | None = None,
    invite: str | None = None,
) -> Response:
    """覆盤 the review of a finished hand (``hand`` 0-based) for the player at ``seat`` (E/S/W/N
    in that hand; default your own seat) — ``master``'s rollouts from that seat's view only,
    computed in a worker process off the loop (docs/review.md). Who may look is who may read the
    record; a hand being played is never reviewed. A review computed here leaves its totals in
    the store (``reviews``) for the player's accuracy chart."""
    if budget is None:
        budget = review_budget()
    table = await _table(request, public_id)
    viewer = _viewer(table, user, invite)
    try:
        text = record_text(table, viewer)
    except ReplayError as exc:
        raise _fail(exc.code, exc.message) from None
    if not 1 <= budget <= REVIEW_BUDGET_MAX:
        raise _fail("bad_request", f"budget {budget}: from 1 to {REVIEW_BUDGET_MAX} samples")
    record = GameRecord.loads(text, source="table record", partial=True)
    if not 0 <= hand < len(record.hands) or record.hands[hand].result is None:
        raise _fail("not_found", f"no finished hand {hand} at this table yet")
    dealer = record.hands[hand].dealer
    if seat is None:
        if viewer is None:
            raise _fail("bad_request", "say whose decisions: seat=E, S, W or N")
        player = viewer
    else:
        try:
            player = (dealer + int(Wind.parse(seat))) % 4
        except MahjongError:
            raise _fail("bad_request", f"seat {seat!r}: expected E, S, W or N") from None
    key = (table.row.id, hand, player, budget)
    cached = _reviews.get(key)
    if cached is not None:
        _reviews.move_to_end(key)
        return _compressed(cached, request)
    if _review_load[0] >= REVIEW_QUEUE:
        raise HTTPException(
            status_code=429,
            detail={"code": "busy", "message": "reviews are busy: try again in a minute"},
        )
    _review_load[0] += 1
    try:
        future = _review_executor().submit(review_json, text, hand, player, budget)
        body = await asyncio.wrap_future(future)
    finally:
        _review_load[0] -= 1
    totals = ReviewTotals.of_json(json.loads(body), budget)
    try:
        await asyncio.to_thread(
            keep_review, request.app.state.store, table.row.id, hand, player, totals
        )
    except SQLAlchemyError as exc:  # the chart misses a point; the review is still answered
        log.warning("review of table %s hand %d not kept: %s", public_id, hand, exc)
    _reviews[key] = body
    while len(_reviews) > CACHE_SIZE:
        _reviews.popitem(last=False)
    return _compressed(body, request)
