"""情況適用: which flags of a calculator request can apply — none is ever silently dropped.

``score_hand`` refuses contexts that contradict the hand or themselves (``invalid_context``). A
calculator request (a batch line, ``hkmj score`` flags, the web API) can also hold a flag or a
settlement field that is consistent but has **no effect** under the ruleset or the kind of win:
人糊 on a discard at a table that plays only W2's self-drawn 人糊, a discarder for a self-draw,
a liable seat with nothing to settle. :func:`inapplicable` names the first such field, so the
caller reports it instead of scoring as if it had not been given (docs/calculator.md).

Fields are named in the batch format's vocabulary (docs/calculator.md, *Batches*): the ``special`` words,
``self_drawn``, ``winning_tile`` and the ``context`` seat keys; the CLI maps them to its flags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hkmahjong.hand import Hand
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.ruleset import DealBonusWin, LastTileRule, Ruleset
from hkmahjong.scoring.context import WinContext
from hkmahjong.tiles import Tile, Wind

__all__ = ["Inapplicable", "Settlement", "inapplicable"]

F = FanId


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settlement fields of a request (who pays whom), as given (None / empty = not given)."""

    discarder: Wind | None = None
    liable: Wind | None = None
    kong_discarder: Wind | None = None
    co_winners: tuple[Wind, ...] = ()
    balances: Mapping[Wind, int] | None = None


@dataclass(frozen=True, slots=True)
class Inapplicable:
    """A request field that cannot apply: its batch name and why."""

    key: str
    """A ``special`` word, ``winning_tile``, or a ``context`` key such as ``discarder_seat``."""
    why: str


def _plays(rules: Ruleset, *ids: FanId) -> bool:
    return any(rules.plays(f) for f in ids)


def _flag_problem(key: str, hand: Hand, ctx: WinContext, rules: Ruleset) -> str | None:
    """Why special flag ``key`` (set in ``ctx``) has no effect, or None when it can count."""
    name = rules.name
    bonus_win = ctx.seven_bonus or ctx.eight_bonus
    self_paid = ctx.self_drawn or bonus_win
    if key == "last_tile":
        if self_paid:
            kong = ctx.kong_replacement and rules.plays(F.LAST_TILE_KONG)
            if not (rules.plays(F.LAST_DRAW) or kong):
                return f"{name!r} does not score 海底撈月 (LAST_DRAW is not in its fan table)"
        elif not rules.plays(F.LAST_DISCARD) or rules.last_tile is not LastTileRule.ANY:
            return (
                f"{name!r} scores 海底 only when self-drawn (switches.last_tile = "
                f"{rules.last_tile.value!r}; W1 fn. 10): no 海底炮 on the last discard"
            )
        return None
    if key in ("kong_replacement", "double_kong_replacement"):
        if bonus_win and not rules.bonus_win_kong_replacement:
            return (
                f"a bonus-tile win on a kong replacement scores no 槓上開花 under {name!r} "
                "(switches.bonus_win_kong_replacement = false)"
            )
        ids = (F.KONG_REPLACEMENT, F.DOUBLE_KONG_REPLACEMENT, F.LAST_TILE_KONG)
        if not _plays(rules, *ids):
            return f"{name!r} scores no 槓上開花 / 槓上槓"
        return None
    if key == "bonus_replacement":
        if bonus_win:
            return "a bonus-tile win (花糊/八仙過海) is not scored as 花上自摸"
        if not (rules.plays(F.BONUS_REPLACEMENT) or ctx.kong_replacement):
            return f"{name!r} does not score 花上自摸 (BONUS_REPLACEMENT is not in its fan table)"
        return None
    if key in ("heavenly", "earthly"):
        fid = F.HEAVENLY if key == "heavenly" else F.EARTHLY
        if not rules.plays(fid):
            return f"{name!r} does not score {fid.zh} ({fid.value} is not in its fan table)"
        if bonus_win and rules.bonus_win_at_deal is not DealBonusWin.HEAVENLY_EARTHLY:
            return (
                f"a bonus-tile win at the deal is not {fid.zh} under {name!r} "
                "(switches.bonus_win_at_deal = 'wait_first_draw'; W1, C)"
            )
        return None
    if key == "first_go_around":
        if bonus_win:
            return "a bonus-tile win (花糊/八仙過海) is not scored as 人糊"
        if ctx.self_drawn and not rules.plays(F.HUMAN):
            what = " (it plays 人糊 on a discard, C/W1)" if rules.plays(F.HUMAN_DISCARD) else ""
            return f"{name!r} has no self-drawn 人糊 (W2 sense){what}"
        if not ctx.self_drawn and not rules.plays(F.HUMAN_DISCARD):
            what = " (it plays W2's self-drawn 人糊)" if rules.plays(F.HUMAN) else ""
            return f"{name!r} has no 人糊 on a discard (C/W1 sense, HUMAN_DISCARD){what}"
        return None
    if key == "early_ready":
        if not rules.plays(F.EARLY_READY):
            return f"{name!r} does not score 冚手糊 (EARLY_READY is not in its fan table)"
        if bonus_win:
            return "a bonus-tile win (花糊/八仙過海) is not scored as 冚手糊"
        if hand.melds:
            return "冚手糊 is a concealed ready hand declared at the start: it declares no meld"
        return None
    if key == "declined_bonus_win":
        if bonus_win:
            return (
                "a bonus-tile win is itself the 花糊; a declined one is added to a later normal win"
            )
        if not (rules.plays(F.SEVEN_BONUS) and rules.bonus_win_seven and rules.bonus_win_decline):
            return f"{name!r} has no 花糊 that can be declined and carried over (W2 花糊牌規)"
        if len(hand.bonus) < 7:
            return (
                f"a declined 花糊 needs seven bonus tiles shown; the hand shows {len(hand.bonus)}"
            )
        return None
    if key == "concealed_kong_before":
        if not (ctx.heavenly or ctx.earthly or ctx.first_go_around):
            return "a kong before the win only changes 天糊 / 地糊 / 人糊: give one of them"
        return None
    return None


def inapplicable(
    hand: Hand, ctx: WinContext, rules: Ruleset, settlement: Settlement = Settlement()
) -> Inapplicable | None:
    """The first flag or settlement field of a request that cannot apply, or None.

    Contradictions ``score_hand`` reports itself (搶槓 and 自摸, 槓上開花 without a kong …) are
    left to it; this finds what it would silently ignore.
    """
    bonus_win = ctx.seven_bonus or ctx.eight_bonus
    self_paid = ctx.self_drawn or bonus_win
    if settlement.discarder is not None and self_paid:
        how = "a bonus-tile win (花糊/八仙過海) is paid as" if bonus_win else "a win by"
        return Inapplicable("discarder_seat", f"{how} self-draw: nobody discarded")
    wt = ctx.winning_tile
    if bonus_win and wt is not None and wt not in hand.bonus:
        return Inapplicable(
            "winning_tile",
            f"a bonus-tile win is won on a bonus tile, and {Tile(wt).mpsz} is not one of the "
            "hand's bonus tiles",
        )
    for key in _SPECIAL_ORDER:
        if getattr(ctx, key):
            why = _flag_problem(key, hand, ctx, rules)
            if why is not None:
                return Inapplicable(key, why)
    settles = self_paid or settlement.discarder is not None
    if not settles:
        need = "a settlement: the discarder's seat, or a self-draw"
        if settlement.liable is not None:
            return Inapplicable("liable_seat", f"a liable seat (包牌) needs {need}")
        if settlement.co_winners:
            return Inapplicable("co_winner_seats", f"co-winners (一炮多響) need {need}")
        if settlement.balances is not None:
            return Inapplicable("balances", f"balances (破產 cap) need {need}")
    return None


_SPECIAL_ORDER = (
    "last_tile",
    "kong_replacement",
    "double_kong_replacement",
    "bonus_replacement",
    "heavenly",
    "earthly",
    "first_go_around",
    "early_ready",
    "declined_bonus_win",
    "concealed_kong_before",
)
"""The special flags that only add fan (robbing_kong also changes the payment, seven_bonus and
eight_bonus are checked by ``score_hand``)."""
