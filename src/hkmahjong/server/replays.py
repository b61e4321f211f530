"""牌譜 routes: a hand's replay frames (``/api/replay/{id}/{hand}``), the record to download
(``/api/tables/{id}/record``) and the replay page (``/replay/{id}``).

Everything comes from :mod:`hkmahjong.parlor.replays` (frames built by the engine, who may look);
this module reads the table from the store — a finished table too, after a restart — and adapts.
A finished hand's frames never change, so they are kept in a small cache.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.replays import (
    ReplayError,
    TableRecord,
    hand_replay,
    record_text,
    viewer_of,
)
from hkmahjong.parlor.wire import dumps
from hkmahjong.server.auth import CurrentUser, current_user
from hkmahjong.server.pages import render

__all__ = ["CACHE_SIZE", "router"]

router = APIRouter()

CACHE_SIZE = 64
"""Finished hands' frames kept (per table, hand, eye and viewer): they never change."""
_STATUS = {"not_found": 404, "forbidden": 403, "not_over": 409, "bad_request": 422}
_cache: OrderedDict[tuple[int, int, str, int | None], bytes] = OrderedDict()


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
    return render(
        request,
        "replay.html",
        active="replay",
        table_id=public_id,
        error=None,
        boot=json.dumps(boot),
    )
