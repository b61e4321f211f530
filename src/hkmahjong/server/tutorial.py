"""計番教學 the scoring guide's content: score table and one worked example per fan pattern.

Nothing here is hand-copied: the score table comes from the ruleset's payment rules through
:func:`hkmahjong.scoring.payment.payment_summary`, and every example hand is scored by
:func:`hkmahjong.scoring.score_hand` when the page is built. The example hands themselves are data
(:data:`EXAMPLES`, in the hand notation of ``docs/notation.md``); ``tests/server/test_tutorial.py``
checks that every pattern any preset plays has an example that really scores it. Plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from hkmahjong.hand import Hand, Meld
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.scoring import ScoreResult, WinContext, score_hand
from hkmahjong.scoring.payment import payment_summary
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "EXAMPLES",
    "PRESET_NAMES",
    "Example",
    "ScoreRow",
    "WorkedExample",
    "example_for",
    "parse_context",
    "preset_label",
    "score_rows",
    "worked_examples",
]

PRESET_NAMES: dict[str, tuple[str, str, str]] = {
    "parlor": ("麻雀館（半辣上）", "麻雀馆（半辣上）", "Parlor (half-spicy)"),
    "qingzhang": ("清章（正統）", "清章（正统）", "Qingzhang (orthodox)"),
    "ml": ("網上平台（ML）", "网上平台（ML）", "Online platform (ML)"),
    "cuhk": ("中大比賽", "中大比赛", "CUHK competition"),
}
_LANG_INDEX = {"zh-Hant": 0, "zh-Hans": 1, "en": 2}


def preset_label(name: str, lang: str) -> str:
    """The preset's name in ``lang`` (its id when it has no translation)."""
    names = PRESET_NAMES.get(name)
    return names[_LANG_INDEX.get(lang, 0)] if names else name


@dataclass(frozen=True)
class Example:
    """One example hand: notation (winning tile included) and context tokens."""

    hand: str
    ctx: str = ""


_CTX_FLAGS = {
    "self": "self_drawn",
    "last": "last_tile",
    "kong": "kong_replacement",
    "kong2": "double_kong_replacement",
    "bonusrep": "bonus_replacement",
    "rob": "robbing_kong",
    "heavenly": "heavenly",
    "earthly": "earthly",
    "first": "first_go_around",
    "seven": "seven_bonus",
    "eight": "eight_bonus",
}

# Hands in the notation of docs/notation.md: concealed tiles, [exposed set], (concealed kong), bonus.
# Context tokens: self, seat=S, round=E, win=5s, last, kong, kong2, bonusrep, rob, heavenly, earthly,
# first, seven, eight. Several examples: the first that shows the pattern under the ruleset is used.
EXAMPLES: dict[FanId, tuple[Example, ...]] = {
    FanId.CHICKEN: (Example("123m456p789s55s [222p] 1f2f3f4f1g"),),
    FanId.ALL_CHOWS: (Example("123m456p789s234m55s"),),
    FanId.SELF_DRAWN: (Example("123m456p789s234m55s", "self"),),
    FanId.CONCEALED_HAND: (Example("123m456p789s55s222p", "self win=2p"),),
    FanId.RED_DRAGON: (Example("123m456p789s55s [777z] 2g", "self seat=S"),),
    FanId.GREEN_DRAGON: (Example("123m456p789s55s [666z] 2g", "self seat=S"),),
    FanId.WHITE_DRAGON: (Example("123m456p789s55s [555z] 2g", "self seat=S"),),
    FanId.SEAT_WIND: (Example("123m456p789s55s [222z] 2g", "self seat=S"),),
    FanId.PREVAILING_WIND: (Example("123m456p789s55s [222z] 1f", "self seat=E round=S"),),
    FanId.ROBBING_KONG: (Example("123m456p789s55s [777z] 1f", "rob win=4p"),),
    FanId.LAST_DRAW: (Example("123m456p789s55s [777z] 3f", "self last"),),
    FanId.LAST_DISCARD: (Example("234m44466p [111s] (7777z) 2f2g", "seat=S win=6p last"),),
    FanId.SEAT_BONUS: (Example("123m456p789s55s [777z] 2g", "self seat=S"),),
    FanId.NO_BONUS: (Example("123m456p789s234m55s"),),
    FanId.BONUS_REPLACEMENT: (Example("123m456p789s55s [777z] 3f", "self bonusrep"),),
    FanId.KONG_REPLACEMENT: (Example("123m456p789s55s [7777z] 3f", "self kong"),),
    FanId.BONUS_SET: (Example("123m456p789s55s [222p] 1f2f3f4f1g"),),
    FanId.ALL_PUNGS: (Example("111m222p999s55s [444p] 3f"),),
    FanId.HALF_FLUSH: (Example("123m456m789m55z [222m] 3f"),),
    FanId.MIXED_TERMINALS: (Example("111m999p11z [999s][222z] 3f"),),
    FanId.SMALL_DRAGONS: (Example("123m555z666z77z [999m] 3f"),),
    FanId.SMALL_WINDS: (Example("111z222z333z44z [123m] 3f", "seat=N round=N"),),
    FanId.FULL_FLUSH: (Example("123m456m789m55m [222m] 3f"),),
    FanId.GREAT_DRAGONS: (Example("555z666z777z11p [234m] 3f"),),
    FanId.DOUBLE_KONG_REPLACEMENT: (Example("123m456m55s [2222p][3333s] 3f", "self kong2"),),
    FanId.FOUR_CONCEALED_PUNGS: (Example("111m222p999s55s444p", "self win=4p"),),
    FanId.ALL_HONOURS: (Example("111z222z333z55z [777z] 3f"),),
    FanId.ALL_TERMINALS: (Example("111m999m111p99p [999s] 3f"),),
    FanId.NINE_GATES: (Example("11123455678999m", "self win=5m"),),
    FanId.HEAVENLY: (Example("123m456p789s55s111z", "self heavenly"),),
    FanId.EARTHLY: (Example("123m456p789s55s111z", "earthly seat=S"),),
    FanId.HUMAN: (
        Example("123m456p789s55s111z", "self first seat=W"),
        Example("123m456p789s55s111z", "first seat=W"),
    ),
    FanId.GREAT_WINDS: (Example("111z222z333z444z55m"),),
    FanId.THIRTEEN_ORPHANS: (Example("19m19p19s12345677z"),),
    FanId.FOUR_KONGS: (Example("55s [1111m][2222p][3333s][4444s] 3f", "self kong2"),),
    FanId.SEVEN_BONUS: (Example("123m456p789s5s [222p] 1f2f3f4f1g2g3g", "seven"),),
    FanId.EIGHT_BONUS: (Example("123m456p789s55s [222p] 1f2f3f4f1g2g3g4g", "eight"),),
}


def parse_context(tokens: str) -> WinContext:
    """The WinContext of an example's context tokens.

    :raises ValueError: for an unknown token.

    >>> parse_context("self seat=S").seat_wind
    Wind.SOUTH
    """
    kw: dict[str, Any] = {}
    for tok in tokens.split():
        key, _, value = tok.partition("=")
        if key == "seat" and value:
            kw["seat_wind"] = Wind.parse(value)
        elif key == "round" and value:
            kw["prevailing_wind"] = Wind.parse(value)
        elif key == "win" and value:
            kw["winning_tile"] = Tile.from_text(value)
        elif tok in _CTX_FLAGS:
            kw[_CTX_FLAGS[tok]] = True
        else:
            raise ValueError(f"unknown example context token {tok!r} in {tokens!r}")
    return WinContext(**kw)


@dataclass(frozen=True)
class ScoreRow:
    """One line of the score table: a fan total and what each payer pays."""

    fan: int
    is_limit: bool
    share: int
    self_draw_each: int
    full_gun: int
    half_gun_discarder: int
    half_gun_others: int


def score_rows(ruleset: Ruleset) -> list[ScoreRow]:
    """分數表: every fan total from the minimum to the limit (and the limit row), computed."""
    top = ruleset.limit if ruleset.limit is not None else max(13, ruleset.min_fan + 10)
    rows: list[ScoreRow] = []
    for fan in range(ruleset.min_fan, top + 1):
        rows.append(_row(fan, False, ruleset))
    if ruleset.limit is not None:
        rows.append(_row(ruleset.limit, True, ruleset))
    return rows


def _row(fan: int, is_limit: bool, ruleset: Ruleset) -> ScoreRow:
    p = payment_summary(fan, ruleset, is_limit=is_limit)
    return ScoreRow(
        fan,
        is_limit,
        p["share"],
        p["self_draw_each"],
        p["discarder_full_gun"],
        p["discarder_half_gun"],
        p["others_half_gun"],
    )


@dataclass(frozen=True)
class WorkedExample:
    """A pattern, its example hand (as tiles) and the calculator's result for it."""

    fan_id: FanId
    value: int | None
    is_limit_hand: bool
    example: Example
    hand: Hand
    ctx: WinContext
    result: ScoreResult
    payment: dict[str, int] | None
    gun: str
    """The ruleset's gun scheme id (``full_gun`` / ``half_gun``)."""

    @property
    def concealed(self) -> list[Tile]:
        """The concealed tiles, the winning tile last (drawn apart on the page)."""
        tiles = list(self.hand.concealed)
        win = self.result.winning_tile or self.ctx.winning_tile
        if win is not None and win in tiles:
            tiles.remove(win)
            tiles.append(win)
        return tiles

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The declared sets."""
        return self.hand.melds

    @property
    def bonus(self) -> tuple[Tile, ...]:
        """The bonus tiles."""
        return self.hand.bonus


def example_for(fan_id: FanId, ruleset: Ruleset) -> WorkedExample | None:
    """The first example of ``fan_id`` whose score under ``ruleset`` counts it (None if none does)."""
    for example in EXAMPLES.get(fan_id, ()):
        hand = Hand.from_text(example.hand)
        ctx = parse_context(example.ctx)
        result = score_hand(hand, ctx, ruleset)
        if fan_id in result.fan_ids:
            payment = (
                payment_summary(result.total_fan, ruleset, is_limit=result.is_limit)
                if result.valid_win
                else None
            )
            return WorkedExample(
                fan_id,
                ruleset.fan_value(fan_id),
                ruleset.is_limit_hand(fan_id),
                example,
                hand,
                ctx,
                result,
                payment,
                ruleset.payment.gun.value,
            )
    return None


@cache
def _preset_examples(name: str) -> tuple[WorkedExample | None, ...]:
    ruleset = get_preset(name)
    return tuple(example_for(f, ruleset) for f in played(ruleset))


def played(ruleset: Ruleset) -> list[FanId]:
    """The patterns ``ruleset`` plays, in FanId order."""
    return [f for f in FanId if ruleset.plays(f)]


def worked_examples(name: str) -> list[tuple[FanId, WorkedExample | None]]:
    """Every played pattern of preset ``name`` with its worked example (None: none scores it)."""
    if name not in preset_names():
        raise ValueError(f"unknown preset {name!r}: allowed {', '.join(preset_names())}")
    return list(zip(played(get_preset(name)), _preset_examples(name), strict=True))
