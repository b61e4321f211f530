"""枱 REST routes for tables: lobby, create (practice / online), join, leave, bots, quick match
and the table's facts (docs/protocol.md, *REST routes for tables*); its game record and replays
are :mod:`hkmahjong.server.replays`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from hkmahjong.errors import MahjongError
from hkmahjong.parlor import policy
from hkmahjong.parlor.lobby import QUICK_LEVEL, Lobby
from hkmahjong.parlor.stakes import escrow_of
from hkmahjong.parlor.table import Table
from hkmahjong.parlor.terms import MAX_FEE, TableError
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.rules.toml_io import loads_ruleset, ruleset_from_dict
from hkmahjong.server.auth import CurrentUser, check_csrf, current_user, require_user

__all__ = ["router"]

router = APIRouter()

_STATUS = {
    "full": 409,
    "started": 409,
    "balance": 402,
    "invite": 403,
    "forbidden": 403,
    "not_seated": 404,
    "bad_config": 422,
    "too_many_tables": 429,
    "no_ledger": 500,
}


def _lobby(request: Request) -> Lobby:
    lobby = request.app.state.lobby
    assert isinstance(lobby, Lobby)
    return lobby


def _fail(
    code: str, message: str, status: int | None = None, field: str | None = None
) -> HTTPException:
    detail = {"code": code, "message": message, **({"field": field} if field else {})}
    return HTTPException(status_code=status or _STATUS.get(code, 400), detail=detail)


def _refused(exc: TableError) -> HTTPException:
    return _fail(exc.code, exc.message, field=exc.field)


def _may_play(user: CurrentUser, kind: str) -> None:
    """The parlor's guest rule (:func:`hkmahjong.parlor.policy.play_refusal`) as a 403."""
    refusal = policy.play_refusal(kind, guest=user.is_guest)
    if refusal is not None:
        raise _fail(refusal.code, refusal.message, 403)


def _table(request: Request, public_id: str) -> Table:
    table = _lobby(request).get(public_id)
    if table is None:
        raise _fail("not_found", f"no table {public_id!r}", 404)
    return table


class RulesChoice(BaseModel):
    """A preset with switches (the keys of ``hkmj rules``), or the TOML text of house rules."""

    model_config = ConfigDict(extra="forbid", strict=True)

    preset: str | None = Field(default="parlor", max_length=40)
    switches: dict[str, Any] = Field(default_factory=dict)
    toml: str | None = Field(default=None, max_length=20_000)

    def resolve(self) -> Ruleset:
        """The ruleset.

        :raises MahjongError: when it does not load.
        """
        if self.toml is not None:
            return loads_ruleset(self.toml, source="the house rules")
        if self.switches:
            return ruleset_from_dict({"preset": self.preset or "parlor", **self.switches})
        return get_preset(self.preset or "parlor")


class CreateTable(BaseModel):
    """What a new table is (docs/protocol.md *REST routes for tables*). Strict: every field has
    its JSON type (no ``true`` or ``"100"`` or ``1.0`` for a whole number) and no other field is
    taken, so a table that cannot be played is refused, naming the field, before anything is
    stored or any jade moves."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["practice", "online"]
    rules: RulesChoice = Field(default_factory=RulesChoice)
    length: str | None = Field(default=None, max_length=32)
    """One the ruleset offers that kind of table (``GET /api/table-options``); default its first."""
    level: int | None = Field(default=None, ge=0, le=1000)
    """Online: the stake unit (stake = the table value × it, one of ``levels``); default 1."""
    fee: int = Field(default=0, ge=0, le=MAX_FEE)
    """手續費 the entry fee each seat pays besides the stake (online tables)."""
    bots: list[str] | None = Field(default=None, max_length=3)
    """Practice: the three bots' levels (default three ``normal``); online: up to three bot
    levels for the empty seats."""
    fill_bots: Literal["now", "on_start"] | None = None
    """Online: seat the chosen ``bots`` now, or when the creator fills the seats (default now)."""
    private: bool = False
    watch_delay_ms: int | None = Field(default=None, ge=0, le=600_000)
    """旁觀 how many ms spectators are behind the table (none: one hand-turn)."""


class QuickBody(BaseModel):
    """快速配對: the level to play at (default 1: the parlor's table value)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    level: int = Field(default=QUICK_LEVEL, ge=0, le=1000)


class Created(BaseModel):
    """The new table."""

    id: str
    url: str
    invite: str | None


class JoinBody(BaseModel):
    """An invite token for a private table."""

    invite: str | None = Field(default=None, max_length=64)


class BotsBody(BaseModel):
    """The bot level to fill the empty seats with (default: the first the creator chose when
    making the table, else ``normal``)."""

    level: str | None = Field(default=None, max_length=16)


def _who(user: CurrentUser) -> tuple[int, str]:
    return user.id, user.name


@router.get("/api/lobby")
def lobby_list(request: Request) -> list[dict[str, Any]]:
    """The open online tables."""
    return _lobby(request).listing()


@router.post("/api/tables", response_model=Created, dependencies=[Depends(check_csrf)])
async def create_table(
    request: Request, body: CreateTable, user: Annotated[CurrentUser, Depends(require_user)]
) -> Created:
    """Create a practice table (you + 3 bots) or an online table (you seated, waiting)."""
    lobby = _lobby(request)
    try:
        ruleset = body.rules.resolve()
    except MahjongError as exc:
        raise _fail("bad_config", f"rules: {exc}", 422, "rules") from None
    try:
        lobby.admit(user.id, guest=user.is_guest)
        if body.kind == "practice":
            for name in ("level", "fill_bots", "fee"):
                if getattr(body, name) not in (None, 0):
                    raise TableError(
                        "bad_config", f"{name}: a practice table has none (no stake)", name
                    )
            table = await lobby.practice(
                _who(user),
                ruleset,
                length=body.length,
                bots=("normal",) * 3 if body.bots is None else body.bots,
                watch_delay_ms=body.watch_delay_ms,
            )
        else:
            _may_play(user, "online")
            table = await lobby.online(
                _who(user),
                ruleset,
                level=QUICK_LEVEL if body.level is None else body.level,
                fee=body.fee,
                length=body.length,
                private=body.private,
                watch_delay_ms=body.watch_delay_ms,
                bots=body.bots or (),
                fill_bots=body.fill_bots or "now",
            )
    except TableError as exc:
        raise _refused(exc) from None
    except MahjongError as exc:
        raise _fail("bad_config", str(exc), 422) from None
    await lobby.trim(user.id, guest=user.is_guest, keep=table)
    return Created(
        id=table.public_id, url=f"/table/{table.public_id}", invite=table.row.invite_token
    )


@router.get("/api/tables/{public_id}")
async def table_info(
    request: Request, public_id: str, user: Annotated[CurrentUser | None, Depends(current_user)]
) -> dict[str, Any]:
    """The table's public facts (``you``: your player number, if seated); each player's
    ``escrow`` is what its escrow account holds in the ledger now (None when nothing is held)."""
    table = _table(request, public_id)
    you = None if user is None else table.player_of(user.id)
    if not policy.sees_table(table.config.private, seated=you is not None):
        raise _fail("not_found", f"no table {public_id!r}", 404)
    info = table.info(you).to_json()
    ledger = _lobby(request).ledger
    if ledger is not None and table.config.kind == "online":
        accounts = [escrow_of(table.id, int(p["player"])) for p in info["players"]]
        held = await ledger.balances(accounts)  # (the ledger port is async)
        for player, account in zip(info["players"], accounts, strict=True):
            player["escrow"] = held[account] or None
    return info


@router.post("/api/tables/{public_id}/join", dependencies=[Depends(check_csrf)])
async def join_table(
    request: Request,
    public_id: str,
    body: JoinBody,
    user: Annotated[CurrentUser, Depends(require_user)],
) -> dict[str, Any]:
    """Take a free seat (needs the balance for the buy-in)."""
    table = _table(request, public_id)
    _may_play(user, table.config.kind)
    try:
        if table.player_of(user.id) is None:
            _lobby(request).admit(user.id, guest=user.is_guest)
        player = await table.join(user.id, user.name, body.invite)
    except TableError as exc:
        raise _refused(exc) from None
    await _lobby(request).trim(user.id, guest=user.is_guest, keep=table)
    return {"player": player}


@router.post("/api/tables/{public_id}/leave", dependencies=[Depends(check_csrf)])
async def leave_table(
    request: Request, public_id: str, user: Annotated[CurrentUser, Depends(require_user)]
) -> dict[str, Any]:
    """Leave a table that has not started (practice: pause it)."""
    try:
        await _table(request, public_id).leave(user.id)
    except TableError as exc:
        raise _refused(exc) from None
    return {"ok": True}


@router.post("/api/tables/{public_id}/bots", dependencies=[Depends(check_csrf)])
async def fill_bots(
    request: Request,
    public_id: str,
    body: BotsBody,
    user: Annotated[CurrentUser, Depends(require_user)],
) -> dict[str, Any]:
    """The creator fills the empty seats with bots."""
    try:
        table = _table(request, public_id)
        level = body.level or next(iter(table.config.bots_on_start), "normal")
        filled = await table.fill_bots(user.id, level)
    except TableError as exc:
        raise _refused(exc) from None
    return {"filled": filled}


@router.post("/api/quick", response_model=Created, dependencies=[Depends(check_csrf)])
async def quick_match(
    request: Request,
    user: Annotated[CurrentUser, Depends(require_user)],
    body: Annotated[QuickBody | None, Body()] = None,
) -> Created:
    """Quick match: a default online table (parlor rules, 四局) at the chosen level (stake =
    the table value × level; ``GET /api/table-options`` shows each before joining)."""
    _may_play(user, "online")
    level = QUICK_LEVEL if body is None else body.level
    lobby = _lobby(request)
    try:
        lobby.admit(user.id, guest=False)
    except TableError as exc:
        raise _refused(exc) from None
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None and lobby.quick_table(level) is None:  # one waiting elsewhere?
        public_id = await cluster.quick_join(user.id, user.name, level)
        if public_id is not None:
            return Created(id=public_id, url=f"/table/{public_id}", invite=None)
    try:
        table = await lobby.quick(_who(user), level)
    except TableError as exc:
        raise _refused(exc) from None
    await lobby.trim(user.id, guest=False, keep=table)
    return Created(id=table.public_id, url=f"/table/{table.public_id}", invite=None)
