"""計番 API: ``POST /api/score`` and ``POST /api/shanten`` take and return the JSON of one batch
line (docs/calculator.md, docs/hand.md), computed by the same library functions
as ``hkmj score --jsonl`` and ``hkmj shanten --jsonl``.

A scored hand (a win or not) answers 200; a malformed request answers 422 with the batch's error
object ``{"id": …, "error": "…"}`` naming the field. ``rules`` names a preset or holds inline TOML
(never a file: the server reads no path a request names).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from hkmahjong.errors import MahjongError
from hkmahjong.hand.batch import analyse_json
from hkmahjong.rules import get_preset
from hkmahjong.scoring.batch import BatchRules, score_request

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["calculator"])

DEFAULT_RULES = get_preset("parlor")
MAX_DEPTH = 32
MAX_MESSAGE = 400
RULES = BatchRules()


Seat = Literal["E", "S", "W", "N"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeldIn(_Strict):
    """A declared set: ``exposed: false`` only for a concealed kong."""

    type: Literal["chow", "pung", "kong"]
    tiles: str = Field(max_length=64, examples=["111s"])
    exposed: bool = True


class HandIn(_Strict):
    """The hand: concealed tiles including the winning tile, declared melds."""

    concealed: str = Field(max_length=128, examples=["234m44466p"])
    melds: list[MeldIn] = Field(default_factory=list, max_length=4)
    winning_tile: str | None = Field(default=None, max_length=8, examples=["6p"])


class ContextIn(_Strict):
    """How the hand was won, and optionally who settles (docs/calculator.md, *Batches*)."""

    self_drawn: bool = False
    seat_wind: Seat = "E"
    prevailing_wind: Seat = "E"
    flowers: list[str] = Field(default_factory=list, max_length=8)
    special: list[str] = Field(default_factory=list, max_length=12)
    winner_seat: Seat | None = None
    discarder_seat: Seat | None = None
    liable_seat: Seat | None = None
    kong_discarder_seat: Seat | None = None
    co_winner_seats: list[Seat] | None = None
    balances: dict[str, int] | None = None
    liable_half_discard: bool = False
    """C 落地: the ``liable_seat`` pays half of the discarder's amount (a discard win only)."""


class ScoreIn(_Strict):
    """One hand to score: a line of ``hkmj score --jsonl``."""

    id: str | int | None = None
    hand: HandIn
    context: ContextIn | None = None
    rules: str | None = Field(default=None, max_length=4000, examples=["parlor"])


class FanItem(BaseModel):
    """One fan pattern of the breakdown."""

    id: str
    zh: str
    en: str
    fan: int


class ScoreOut(BaseModel):
    """The scored hand: a line of ``hkmj score --jsonl``'s output."""

    id: str | int | None = None
    valid_win: bool
    reason: str | None = None
    message: str | None = None
    total_fan: int | None = None
    limit: bool
    items: list[FanItem]
    arrangement: list[str]
    payment: dict[str, Any] | None = None


class ShantenIn(_Strict):
    """One hand to analyse: a line of ``hkmj shanten --jsonl``."""

    id: str | int | None = None
    hand: str = Field(max_length=128, examples=["123m456p789s1234z"])
    melds: list[MeldIn] = Field(default_factory=list, max_length=4)
    visible: str = Field(default="", max_length=512)


class ShantenOut(BaseModel):
    """Shanten (向聽), waits and useful tiles with how many of each are unseen."""

    id: str | int | None = None
    shanten: int
    regular: int
    thirteen_orphans: int
    seven_pairs: int | None = None
    waits: list[str]
    useful: dict[str, int]


class ErrorOut(BaseModel):
    """A malformed request: what is wrong and where."""

    id: str | int | None = None
    error: str


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema with its ``$defs`` references replaced by the definitions (for OpenAPI)."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return walk(defs[ref.rsplit("/", 1)[1]])
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    inlined = walk(schema)
    assert isinstance(inlined, dict)
    return inlined


def _body(model: type[BaseModel]) -> dict[str, Any]:
    schema = _inline(TypeAdapter(model).json_schema())
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema}},
        }
    }


def _depth(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return True


async def _json(request: Request) -> tuple[Any, JSONResponse | None]:
    raw = await request.body()
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        detail = (
            "not valid JSON: nested too deeply"
            if isinstance(exc, RecursionError)
            else f"not valid JSON: {exc}"
        )
        return None, JSONResponse({"id": None, "error": detail[:200]}, status_code=422)
    if not _depth(obj, MAX_DEPTH):
        return None, JSONResponse(
            {"id": None, "error": f"JSON nested deeper than {MAX_DEPTH} levels"}, status_code=422
        )
    return obj, None


def _ident(obj: Any) -> str | int | None:
    ident = obj.get("id") if isinstance(obj, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, str | int) or len(str(ident)) > 200:
        return None
    return ident


def _shape_error(obj: Any, model: type[BaseModel]) -> JSONResponse | None:
    """422 naming the first field where ``obj`` leaves the published schema, or None."""
    try:
        model.model_validate(obj, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        return JSONResponse(
            {"id": _ident(obj), "error": f"{where[:80]}: {first['msg']}"}, status_code=422
        )
    return None


def _error(obj: Any, exc: MahjongError) -> JSONResponse:
    text = str(exc)
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    return JSONResponse({"id": _ident(obj), "error": text}, status_code=422)


@router.post(
    "/score",
    openapi_extra=_body(ScoreIn),
    responses={
        200: {"model": ScoreOut, "description": "the hand scored (a win or not, with the reason)"},
        422: {"model": ErrorOut, "description": "a malformed request"},
    },
)
async def score(request: Request) -> JSONResponse:
    """計番 score one hand under a ruleset (default ``parlor``): the itemised fan, the best
    arrangement and, with the seats, who pays whom."""
    obj, error = await _json(request)
    if error is None:
        error = _shape_error(obj, ScoreIn)
    if error is not None:
        return error
    out = score_request(obj, DEFAULT_RULES, RULES)
    return JSONResponse(out, status_code=422 if "error" in out else 200)


SEVEN_PAIRS_PARAM = {
    "name": "seven_pairs",
    "in": "query",
    "required": False,
    "description": "count seven pairs (七對) as a winning shape (not in the parlor)",
    "schema": {"type": "boolean", "default": False},
}


@router.post(
    "/shanten",
    openapi_extra={**_body(ShantenIn), "parameters": [SEVEN_PAIRS_PARAM]},
    responses={
        200: {"model": ShantenOut, "description": "shanten, waits and useful tiles"},
        422: {"model": ErrorOut, "description": "a malformed request"},
    },
)
async def shanten(request: Request) -> JSONResponse:
    """向聽 analyse one hand of 13 or 14 concealed tiles (with melds): shanten, waits when ready,
    useful tiles with how many of each are unseen."""
    flags = request.query_params.getlist("seven_pairs")
    if any(flag not in ("true", "false") for flag in flags) or len(set(flags)) > 1:
        return JSONResponse(
            {"id": None, "error": "seven_pairs: expected true or false"}, status_code=422
        )
    seven_pairs = flags[:1] == ["true"]
    obj, error = await _json(request)
    if error is not None:
        return error
    error = _shape_error(obj, ShantenIn)
    if error is not None:
        return error
    try:
        out = analyse_json(obj, seven_pairs=seven_pairs)
    except MahjongError as exc:
        return _error(obj, exc)
    return JSONResponse({"id": _ident(obj), **out})
