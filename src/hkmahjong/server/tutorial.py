"""計番教學 the scoring guide's content: score table and one worked example per fan pattern.

Nothing here is hand-copied: the score table comes from the ruleset's payment rules through
:func:`hkmahjong.scoring.payment.payment_summary`; every example hand is scored by
:func:`hkmahjong.scoring.score_hand` in the situation the engine would build for that win
(:func:`parse_context`: a bonus win is paid as a self-draw, …), and priced by the engine's own
settlement (:func:`engine_settlement`), when the page is built. The example hands themselves are
data (:data:`EXAMPLES`, in the hand notation of ``docs/notation.md``); ``tests/web/test_tutorial.py``
checks that every pattern any preset plays has an example that really scores it, and
``tests/web/test_tutorial_settlement.py`` that the page pays what the engine pays. Plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from hkmahjong.engine.events import WinRecord
from hkmahjong.engine.settle import settle_records
from hkmahjong.hand import Hand, Meld
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.scoring import SPECIAL_FLAGS, ScoreResult, WinContext, score_hand
from hkmahjong.scoring.payment import Settlement, payment_summary
from hkmahjong.server import i18n
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "EXAMPLES",
    "PRESET_NAMES",
    "Example",
    "ScoreRow",
    "WorkedExample",
    "context_text",
    "discarder_of",
    "engine_settlement",
    "example_for",
    "parse_context",
    "payment_text",
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
    """One example hand: notation (winning tile included) and its situation tokens."""

    hand: str
    ctx: str = ""


_MOMENTS = {
    "last": "last_tile",
    "kong": "kong_replacement",
    "kong2": "double_kong_replacement",
    "bonusrep": "bonus_replacement",
    "heavenly": "heavenly",
    "earthly": "earthly",
    "first": "first_go_around",
}
_WAYS = ("self", "rob", "bonus")
"""How a hand is won, as the engine's actions: ``self`` (自摸 / the ``self_draw`` action),
``rob`` (搶槓, a ``win`` on an added kong), ``bonus`` (花糊 / 八仙過海, the ``bonus_win``
action); no way token: a ``win`` on a discard."""
_SELF_DRAWN_MOMENTS = ("kong", "kong2", "bonusrep", "heavenly")
"""Moments that only happen on the winner's own draw (the engine sets them for a self-draw)."""

# Hands in the notation of docs/notation.md: concealed tiles, [exposed set], (concealed kong), bonus.
# Situation tokens: how it was won (self, rob, bonus; none = on a discard), seat=S, round=E, win=5s,
# and the moments last, kong, kong2, bonusrep, heavenly, earthly, first. Several examples: the
# first that shows the pattern under the ruleset is used.
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
    FanId.SEVEN_BONUS: (Example("123m456p789s5s [222p] 1f2f3f4f1g2g3g", "bonus"),),
    FanId.EIGHT_BONUS: (Example("123m456p789s55s [222p] 1f2f3f4f1g2g3g4g", "bonus"),),
}


def parse_context(tokens: str, hand: Hand | None = None) -> WinContext:
    """The WinContext the engine builds for a win in this situation (``HandState._context``).

    The situation tokens say how the hand was won and its moments; the engine's rules then fix
    the rest, as it does at a table: a bonus win (花糊 / 八仙過海) is won at once on the winner's
    own turn, **paid as a self-draw**, with no winning tile (P "八仙过海：集齐全部八只即时食胡，
    当自摸计"; which of the two by the number of bonus tiles of ``hand``); a win on a kong or
    bonus replacement, 天糊 and 槓上槓 are self-draws (P "杠上开花（杠上自摸）…另加自摸"); 槓上槓
    is also a win on a kong replacement; 天糊 is East's, 地糊 a non-dealer's; a robbed kong is
    never the last tile.

    :raises ValueError: for an unknown token or a situation the engine cannot reach.

    >>> parse_context("self seat=S").seat_wind
    Wind.SOUTH
    >>> parse_context("bonus", Hand.from_text("123m456p789s55s [222p] 1f2f3f4f1g2g3g4g")).self_drawn
    True
    """
    kw: dict[str, Any] = {}
    words = tokens.split()
    ways = [w for w in words if w in _WAYS]
    if len(ways) > 1:
        raise ValueError(f"one way of winning per example, got {ways} in {tokens!r}")
    way = ways[0] if ways else "discard"
    for tok in words:
        key, _, value = tok.partition("=")
        if key == "seat" and value:
            kw["seat_wind"] = Wind.parse(value)
        elif key == "round" and value:
            kw["prevailing_wind"] = Wind.parse(value)
        elif key == "win" and value:
            kw["winning_tile"] = Tile.from_text(value)
        elif tok in _MOMENTS:
            kw[_MOMENTS[tok]] = True
        elif tok not in _WAYS:
            raise ValueError(f"unknown example context token {tok!r} in {tokens!r}")
    ctx = WinContext(**kw)
    if way == "bonus":
        bonus = 0 if hand is None else len(hand.bonus)
        if bonus < 7:
            raise ValueError(f"a bonus win needs seven or eight bonus tiles: {tokens!r}")
        ctx = replace(
            ctx,
            self_drawn=True,
            winning_tile=None,
            seven_bonus=bonus == 7,
            eight_bonus=bonus == 8,
        )
    elif way == "self":
        ctx = replace(ctx, self_drawn=True)
    elif way == "rob":
        ctx = replace(ctx, robbing_kong=True)
    needs_self = [m for m in _SELF_DRAWN_MOMENTS if getattr(ctx, _MOMENTS[m])]
    if needs_self and not ctx.self_drawn:
        raise ValueError(f"{', '.join(needs_self)} happen only on a self-draw: {tokens!r}")
    if ctx.double_kong_replacement:
        ctx = replace(ctx, kong_replacement=True)
    if ctx.heavenly and ctx.seat_wind is not Wind.EAST:
        raise ValueError(f"天糊 is the dealer's (East): {tokens!r}")
    if (ctx.earthly or ctx.first_go_around) and ctx.seat_wind is Wind.EAST:
        raise ValueError(f"地糊 / 人糊 are a non-dealer's: {tokens!r}")
    if ctx.robbing_kong and ctx.last_tile:
        raise ValueError(f"a robbed kong is never the last tile: {tokens!r}")
    return ctx


def discarder_of(ctx: WinContext) -> Wind | None:
    """Who pays as the discarder in an example: none for a self-draw, East (the dealer's first
    discard) for 地糊, else the winner's 上家 (the seat playing just before it; for 搶槓 the
    kong's declarer)."""
    if ctx.self_drawn:
        return None
    if ctx.earthly:
        return Wind.EAST
    return Wind((int(ctx.seat_wind) - 1) % 4)


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
    """A pattern, its example hand (as tiles), the calculator's result and the engine's payment.

    ``settlement`` is what the engine's own settlement (``engine.settle.settle_records``, the
    call that ends every hand at a table) pays for this win in this situation: ``discarder``
    pays as the discarder (None: a self-draw, each of the three pays).
    """

    fan_id: FanId
    value: int | None
    is_limit_hand: bool
    example: Example
    hand: Hand
    ctx: WinContext
    result: ScoreResult
    discarder: Wind | None
    settlement: Settlement | None
    """None when the example is no valid win (it is then not priced)."""
    gun: str
    """The ruleset's gun scheme id (``full_gun`` / ``half_gun``)."""

    @property
    def winning_tile(self) -> Tile | None:
        """The tile the hand was won on (None for a bonus win: the bonus tiles are the win)."""
        if self.ctx.seven_bonus or self.ctx.eight_bonus:
            return None
        return self.result.winning_tile or self.ctx.winning_tile

    @property
    def concealed(self) -> list[Tile]:
        """The concealed tiles, the winning tile last (drawn apart on the page)."""
        tiles = list(self.hand.concealed)
        win = self.winning_tile
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

    @property
    def paid(self) -> dict[Wind, int]:
        """What each paying seat pays (positive jade), from the engine's settlement."""
        if self.settlement is None:
            return {}
        return {w: -d for w in Wind if (d := self.settlement.delta(w)) < 0}


def engine_settlement(
    hand: Hand, ctx: WinContext, result: ScoreResult, ruleset: Ruleset
) -> tuple[Wind | None, Settlement]:
    """The seat paying as the discarder and what the engine's settlement pays for this win."""
    discarder = discarder_of(ctx)
    win = WinRecord(ctx.seat_wind, discarder, hand, ctx, result)
    return discarder, settle_records([win], [], ruleset)


def example_for(fan_id: FanId, ruleset: Ruleset) -> WorkedExample | None:
    """The first example of ``fan_id`` whose score under ``ruleset`` counts it (None if none does)."""
    for example in EXAMPLES.get(fan_id, ()):
        hand = Hand.from_text(example.hand)
        ctx = parse_context(example.ctx, hand)
        result = score_hand(hand, ctx, ruleset)
        if fan_id in result.fan_ids:
            discarder, settlement = (
                engine_settlement(hand, ctx, result, ruleset)
                if result.valid_win
                else (discarder_of(ctx), None)
            )
            return WorkedExample(
                fan_id,
                ruleset.fan_value(fan_id),
                ruleset.is_limit_hand(fan_id),
                example,
                hand,
                ctx,
                result,
                discarder,
                settlement,
                ruleset.payment.gun.value,
            )
    return None


def payment_text(lang: str, ex: WorkedExample) -> str:
    """What the example pays, in ``lang``, read from the engine's settlement: each of the three
    on a self-draw; the discarder (or a robbed kong's declarer) alone under full gun, or it and
    the other two under half gun; anything else (a payment no wording fits) seat by seat."""
    paid = ex.paid
    others = [w for w in paid if w != ex.discarder]
    if ex.discarder is None and len(paid) == 3 and len(set(paid.values())) == 1:
        return i18n.tr(lang, "pay_self_each", n=next(iter(paid.values())))
    if ex.discarder is not None and ex.discarder in paid:
        rob = "rob_" if ex.ctx.robbing_kong else ""
        if not others:
            return i18n.tr(lang, f"pay_{rob}full_gun", n=paid[ex.discarder])
        if len(others) == 2 and paid[others[0]] == paid[others[1]]:
            return i18n.tr(lang, f"pay_{rob}half_gun", a=paid[ex.discarder], b=paid[others[0]])
    return i18n.tr(lang, "comma").join(
        i18n.tr(lang, "pay_seat", w=i18n.tr(lang, f"wind_{w.letter}"), n=n) for w, n in paid.items()
    )


def context_text(lang: str, ctx: WinContext) -> str:
    """The example's situation in ``lang``: self-drawn or off whose discard, the winner's seat
    and round, and its special moments."""
    sep = i18n.tr(lang, "comma")
    discarder = discarder_of(ctx)
    if discarder is None:
        parts = [i18n.tr(lang, "ctx_self")]
    else:
        key = "ctx_robbed_from" if ctx.robbing_kong else "ctx_discard_from"
        parts = [i18n.tr(lang, key, w=i18n.tr(lang, f"wind_{discarder.letter}"))]
    parts.append(i18n.tr(lang, "ctx_seat", w=i18n.tr(lang, f"wind_{ctx.seat_wind.letter}")))
    parts.append(i18n.tr(lang, "ctx_round", w=i18n.tr(lang, f"wind_{ctx.prevailing_wind.letter}")))
    for flag in SPECIAL_FLAGS:
        shown_already = flag == "robbing_kong" or (
            flag == "kong_replacement" and ctx.double_kong_replacement
        )
        if getattr(ctx, flag, False) and not shown_already:
            parts.append(i18n.tr(lang, f"sp_{flag}"))
    return sep.join(parts)


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
