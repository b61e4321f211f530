"""我的 the signed-in player's own things: their tables that are not over, and their settings.

``GET /api/me/tables`` lists every table where the player holds a seat and whose match is not
over (waiting, playing, paused — a paused practice is resumed by opening its ``url``), guests
included (a guest's practice tables). ``GET /api/me/settings`` and ``PUT /api/me/settings`` (CSRF
header) keep a registered player's settings (docs/protocol.md, *Settings*); a guest has none on
the server (404 ``guest``: the page keeps them in the browser). The table applies ``auto_win`` and
``auto_pass`` itself once the page sends them (``prefs`` on the table socket).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, StrictBool
from sqlalchemy import func, select

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import OPEN_STATUSES
from hkmahjong.parlor.prefs import DEFAULT_PREFS, PlayerPrefs, PrefsError
from hkmahjong.parlor.table import TableConfig
from hkmahjong.server.auth import CurrentUser, check_csrf, require_user
from hkmahjong.server.store import Store
from hkmahjong.server.store.models import ParlorTable, TableLog, TableSeat, User, UserPrefs, utcnow

__all__ = ["MyTable", "Settings", "router"]

router = APIRouter()


class Settings(BaseModel):
    """設定 a player's settings: every key, strictly typed (a boolean is true or false)."""

    model_config = ConfigDict(extra="forbid")

    auto_win: StrictBool
    auto_pass: Literal["none", "no_chow", "all"]
    sort: Literal["suit", "drawn_last"]
    large_tiles: StrictBool
    colour_blind: StrictBool
    sound: StrictBool
    animations: StrictBool


class MySeat(BaseModel):
    """A seat of one of my tables."""

    player: int
    name: str | None
    kind: str
    bot: str | None
    status: str


class MyRules(BaseModel):
    """The ruleset's name, and its preset when it is one unchanged."""

    name: str
    preset: str | None


class MyTable(BaseModel):
    """One of my tables that is not over."""

    id: str
    url: str
    kind: str
    status: str
    rules: MyRules
    length: str
    hand_number: int
    stake: int | None
    players: list[MySeat]


def _store(request: Request) -> Store:
    store = request.app.state.store
    assert isinstance(store, Store)
    return store


def _registered(user: CurrentUser) -> CurrentUser:
    if user.is_guest:
        raise HTTPException(
            status_code=404,
            detail={"code": "guest", "message": "guests keep their settings in the browser"},
        )
    return user


@router.get("/api/me/settings", response_model=Settings)
def get_settings(request: Request, user: Annotated[CurrentUser, Depends(require_user)]) -> Settings:
    """The player's settings (the defaults until they change one); 404 ``guest`` for a guest."""
    _registered(user)
    with _store(request).session() as s:
        row = s.get(UserPrefs, user.id)
        stored = dict(row.prefs) if row is not None else {}
    try:
        prefs = PlayerPrefs.from_json(stored, partial=True)
    except PrefsError:  # settings stored by an older version: the defaults instead
        prefs = DEFAULT_PREFS
    return Settings(**prefs.to_json())


@router.put("/api/me/settings", response_model=Settings, dependencies=[Depends(check_csrf)])
def put_settings(
    request: Request, body: Settings, user: Annotated[CurrentUser, Depends(require_user)]
) -> Settings:
    """Keep the player's settings (the whole object); 404 ``guest`` for a guest, 422 naming the
    field that is wrong."""
    _registered(user)
    prefs = PlayerPrefs.from_json(body.model_dump())
    with _store(request).session() as s:
        row = s.get(UserPrefs, user.id)
        if row is None:
            s.add(UserPrefs(user_id=user.id, prefs=prefs.to_json(), updated_at=utcnow()))
        else:
            row.prefs, row.updated_at = prefs.to_json(), utcnow()
    return Settings(**prefs.to_json())


@router.get("/api/me/tables", response_model=list[MyTable])
def my_tables(request: Request, user: Annotated[CurrentUser, Depends(require_user)]) -> Any:
    """The tables where the player holds a seat and whose match is not over, newest first."""
    lobby = request.app.state.lobby
    assert isinstance(lobby, Lobby)
    with _store(request).session() as s:
        rows = list(
            s.scalars(
                select(ParlorTable)
                .join(TableSeat, TableSeat.table_id == ParlorTable.id)
                .where(TableSeat.user_id == user.id, ParlorTable.status.in_(OPEN_STATUSES))
                .order_by(ParlorTable.id.desc())
            )
        )
        out: list[dict[str, Any]] = []
        for row in rows:
            live = lobby.get(row.public_id)  # else live in another process: from the store
            info = live.info().to_json() if live is not None else _stored_info(s, row)
            if info is None:
                continue
            out.append(
                {
                    "id": row.public_id,
                    "url": f"/table/{row.public_id}",
                    "kind": info["kind"],
                    "status": info["status"],
                    "rules": {"name": info["rules"]["name"], "preset": info["rules"]["preset"]},
                    "length": info["length"],
                    "hand_number": info["hand_number"],
                    "stake": info["stake"],
                    "players": [
                        {k: p[k] for k in ("player", "name", "kind", "bot", "status")}
                        for p in info["players"]
                    ],
                }
            )
    return out


def _stored_info(s: Any, row: ParlorTable) -> dict[str, Any] | None:
    """A table's facts read from the store (a table live elsewhere)."""
    try:
        config = TableConfig.from_json(dict(row.config))
        name = config.ruleset.name
    except MahjongError:
        return None
    seats = {
        seat.player: (seat, user_name)
        for seat, user_name in s.execute(
            select(TableSeat, User.name)
            .outerjoin(User, User.id == TableSeat.user_id)
            .where(TableSeat.table_id == row.id)
        ).all()
    }
    players = []
    for p in range(4):
        seat, user_name = seats.get(p, (None, None))
        if seat is None or (seat.user_id is None and seat.bot_level is None):
            players.append({"player": p, "name": None, "kind": "empty", "bot": None,
                            "status": "empty"})  # fmt: skip
        elif seat.bot_level is not None:
            players.append({"player": p, "name": f"{seat.bot_level}-bot-{p + 1}", "kind": "bot",
                            "bot": seat.bot_level, "status": "bot"})  # fmt: skip
        else:
            players.append({"player": p, "name": user_name, "kind": "human", "bot": None,
                            "status": seat.status})  # fmt: skip
    hands = s.scalar(
        select(func.count())
        .select_from(TableLog)
        .where(TableLog.table_id == row.id, TableLog.line.like('{"t":"hand",%'))
    )
    return {
        "kind": config.kind,
        "status": row.status,
        "rules": {"name": name, "preset": config.rules.get("preset")},
        "length": config.length,
        "hand_number": max(0, int(hands or 0) - 1),
        "stake": config.stake,
        "players": players,
    }
