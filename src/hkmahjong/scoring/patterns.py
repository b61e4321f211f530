"""番種判定: one small detector per fan pattern (docs/rules.md §8), registered with its FanId.

A detector reads a :class:`Facts` (one interpretation of one hand: arrangement, winning tile and
context) and returns how many times its pattern occurs (0 = absent). Values never live here: they
come from the ruleset's fan table, and a pattern the table lacks is never evaluated. Exclusions
(``implies``) are data too (see :mod:`hkmahjong.scoring.table`).

Detectors are either hand-level (the same for every arrangement: context, bonus tiles, suits) or
arrangement-level; hand-level ones run once per hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from hkmahjong.rules.fan import FanId
from hkmahjong.scoring.context import WinContext
from hkmahjong.tiles import HONOURS, ORPHAN_INDICES, TERMINALS

__all__ = [
    "FANS",
    "FAN_INDEX",
    "HAND_LEVEL",
    "PATTERNS",
    "REGULAR",
    "SEVEN_PAIRS",
    "THIRTEEN",
    "WAIT_CLOSED",
    "WAIT_EDGE",
    "WAIT_PUNG",
    "WAIT_SINGLE",
    "WAIT_TWO_SIDED",
    "Detector",
    "Facts",
    "Pattern",
    "Switches",
]

REGULAR, THIRTEEN, SEVEN_PAIRS = 0, 1, 2
WAIT_NONE, WAIT_TWO_SIDED, WAIT_CLOSED, WAIT_EDGE, WAIT_SINGLE, WAIT_PUNG = 0, 1, 2, 3, 4, 5

_SUIT_BIT = (1, 2, 4)


@dataclass(frozen=True, slots=True)
class Switches:
    """The scoring switches of a ruleset in the calculator's terms (read by ``table.py``)."""

    all_chows_honour_pair: bool = True
    all_chows_any_wait: bool = True
    concealed_kong_keeps_concealed: bool = False
    concealed_hand_with_bonus_tiles: bool = True
    bonus_tiles: bool = True
    four_concealed_kongs: bool = True
    four_concealed_single_wait_discard: bool = False
    four_concealed_any_win: bool = False
    double_kong_from_replacement: bool = False
    nine_gates_discard_nine_sided_only: bool = False
    last_discard_scores: bool = True
    heavenly_after_concealed_kong: bool = False
    earthly_after_dealer_kong: bool = False
    bonus_win_decline: bool = True
    bonus_set_played: bool = True
    bonus_set_adds_seat_bonus: bool = False
    nine_gates_with_melds: bool = False
    mixed_terminals_all_honours: bool = False


class Facts:
    """One interpretation of a hand: what every detector may read."""

    __slots__ = (
        "bonus",
        "chows",
        "concealed_kongs",
        "concealed_pungs",
        "counts",
        "ctx",
        "dragon_pungs",
        "honours",
        "kongs",
        "n_bonus",
        "open_melds",
        "pair",
        "pungs",
        "shape",
        "suits",
        "sw",
        "tile_mask",
        "wait",
        "wind_pungs",
        "winning_tile",
    )

    def __init__(
        self,
        counts: tuple[int, ...],
        ctx: WinContext,
        sw: Switches,
        bonus: tuple[int, ...],
        open_melds: int,
        concealed_kongs: int,
        kongs: int,
    ) -> None:
        self.counts = counts
        self.ctx = ctx
        self.sw = sw
        self.bonus = bonus
        self.n_bonus = len(bonus)
        self.open_melds = open_melds
        self.concealed_kongs = concealed_kongs
        self.kongs = kongs
        self.suits, self.honours, self.tile_mask = _tile_summary(counts)
        self.shape = REGULAR
        self.chows: tuple[int, ...] = ()
        self.pungs: tuple[int, ...] = ()
        self.pair = -1
        self.dragon_pungs = 0
        self.wind_pungs = 0
        self.concealed_pungs = 0
        self.wait = WAIT_NONE
        self.winning_tile = -1


Detector = Callable[[Facts], int]


@lru_cache(maxsize=1 << 14)
def _tile_summary(counts: tuple[int, ...]) -> tuple[int, bool, int]:
    """(number-suit bit mask, any honour, bit mask of the kinds present) of a count vector."""
    suits = 0
    for s in range(3):
        if any(counts[9 * s : 9 * s + 9]):
            suits |= _SUIT_BIT[s]
    mask = 0
    for i, n in enumerate(counts):
        if n:
            mask |= 1 << i
    return suits, any(counts[27:34]), mask


@dataclass(frozen=True, slots=True)
class Pattern:
    """One fan pattern: its id, its detector and whether it is hand-level."""

    fan_id: FanId
    detect: Detector
    hand_level: bool
    idx: int
    """Position of ``fan_id`` in ``FanId`` (the calculator's hot path keys on it)."""


FANS: tuple[FanId, ...] = tuple(FanId)
FAN_INDEX: dict[FanId, int] = {f: i for i, f in enumerate(FANS)}
PATTERNS: dict[FanId, Pattern] = {}
HAND_LEVEL: frozenset[FanId]


def _register(fan_id: FanId, *, hand_level: bool = False) -> Callable[[Detector], Detector]:
    def deco(fn: Detector) -> Detector:
        PATTERNS[fan_id] = Pattern(fan_id, fn, hand_level, FAN_INDEX[fan_id])
        return fn

    return deco


_TERMINAL_MASK = sum(1 << int(t) for t in TERMINALS)
_HONOUR_MASK = sum(1 << int(t) for t in HONOURS)
_ORPHAN_MASK = sum(1 << i for i in ORPHAN_INDICES)
_GREEN_MASK = sum(1 << i for i in (19, 20, 21, 23, 25, 32))
_BLUE_MASK = sum(1 << i for i in (16, 27, 28, 29, 30, 31))
_RED_PEACOCK_MASK = sum(1 << i for i in (18, 22, 24, 26, 33))


def _single_suit(f: Facts) -> bool:
    return f.suits in (1, 2, 4)


# --- context patterns (hand-level) ------------------------------------------------------------
@_register(FanId.SELF_DRAWN, hand_level=True)
def self_drawn(f: Facts) -> int:
    """自摸: the winning tile was drawn by the winner."""
    return int(f.ctx.self_drawn)


@_register(FanId.ROBBING_KONG, hand_level=True)
def robbing_kong(f: Facts) -> int:
    """搶槓: won on a tile added to another player's pung."""
    return int(f.ctx.robbing_kong and not f.ctx.self_drawn)


@_register(FanId.LAST_DRAW, hand_level=True)
def last_draw(f: Facts) -> int:
    """海底撈月: self-drawn on the last tile.

    Whether a replacement win on the last tile adds it (W1/W2: 槓上開花 does not) is the
    ruleset's exclusion data (KONG_REPLACEMENT, DOUBLE_KONG_REPLACEMENT, BONUS_REPLACEMENT
    include LAST_DRAW in the presets), so a table can pay both.
    """
    return int(f.ctx.last_tile and f.ctx.self_drawn)


@_register(FanId.LAST_DISCARD, hand_level=True)
def last_discard(f: Facts) -> int:
    """海底炮: won on the last discard (P; W2 "食全局最後一隻牌")."""
    return int(f.ctx.last_tile and not f.ctx.self_drawn and f.sw.last_discard_scores)


@_register(FanId.KONG_REPLACEMENT, hand_level=True)
def kong_replacement(f: Facts) -> int:
    """槓上開花: self-drawn on a kong replacement; a bonus replacement in between makes it 花上."""
    ctx = f.ctx
    if not ctx.self_drawn or ctx.bonus_replacement or f.kongs == 0:
        return 0
    return int(ctx.kong_replacement or ctx.double_kong_replacement)


@_register(FanId.DOUBLE_KONG_REPLACEMENT, hand_level=True)
def double_kong_replacement(f: Facts) -> int:
    """槓上槓: self-drawn after two or more consecutive kongs (switch: the second from the first's replacement).

    A bonus replacement after the second kong still counts (W1 "補花只能在開槓前或連開兩次槓牌以上後");
    one between the kongs breaks the chain, and the caller then reports a single kong replacement.
    """
    ctx = f.ctx
    if not (ctx.double_kong_replacement and ctx.self_drawn):
        return 0
    if f.kongs < 2:
        return 0
    return int(ctx.second_kong_from_replacement or not f.sw.double_kong_from_replacement)


@_register(FanId.BONUS_REPLACEMENT, hand_level=True)
def bonus_replacement(f: Facts) -> int:
    """花上自摸: self-drawn on a bonus-tile replacement.

    After two kongs in a row the win is 槓上槓 (W1); that 槓上槓 includes 花上自摸 is the
    ruleset's exclusion data (DOUBLE_KONG_REPLACEMENT includes BONUS_REPLACEMENT in the presets).
    """
    return int(f.ctx.bonus_replacement and f.ctx.self_drawn and f.n_bonus > 0)


@_register(FanId.LAST_TILE_KONG, hand_level=True)
def last_tile_kong(f: Facts) -> int:
    """鐘鼓齊鳴: 槓上開花 on the last tile of the wall (自訂)."""
    return int(f.ctx.last_tile and kong_replacement(f) > 0)


@_register(FanId.HEAVENLY, hand_level=True)
def heavenly(f: Facts) -> int:
    """天糊: the dealer's first fourteen tiles are complete (not after a concealed kong, W2/C)."""
    ctx = f.ctx
    if not (ctx.heavenly and ctx.is_dealer and ctx.self_drawn and f.open_melds == 0):
        return 0
    kong_first = f.concealed_kongs > 0 or ctx.concealed_kong_before
    return int(not kong_first or f.sw.heavenly_after_concealed_kong)


@_register(FanId.EARTHLY, hand_level=True)
def earthly(f: Facts) -> int:
    """地糊: a non-dealer wins on the dealer's first discard, before any claim or dealer kong (C)."""
    ctx = f.ctx
    if not (ctx.earthly and not ctx.is_dealer and not ctx.self_drawn and f.open_melds == 0):
        return 0
    if f.concealed_kongs:
        return 0
    return int(not ctx.concealed_kong_before or f.sw.earthly_after_dealer_kong)


@_register(FanId.HUMAN, hand_level=True)
def human(f: Facts) -> int:
    """人糊 (W2): a non-dealer self-draws in its first turn, no claim and no concealed kong before."""
    ctx = f.ctx
    if not (ctx.first_go_around and not ctx.is_dealer and ctx.self_drawn and f.open_melds == 0):
        return 0
    kong_first = f.concealed_kongs > 0 or ctx.concealed_kong_before
    return int(not kong_first or f.sw.heavenly_after_concealed_kong)


@_register(FanId.HUMAN_DISCARD, hand_level=True)
def human_discard(f: Facts) -> int:
    """人糊 (C/W1 sense): a win on a discard in the first go-around, before any claim."""
    ctx = f.ctx
    return int(ctx.first_go_around and not ctx.self_drawn and f.open_melds == 0)


@_register(FanId.EARLY_READY, hand_level=True)
def early_ready(f: Facts) -> int:
    """冚手糊: a concealed ready hand declared at the start, won without any meld (自訂)."""
    return int(f.ctx.early_ready and f.open_melds == 0 and f.concealed_kongs == 0)


# --- bonus tiles (hand-level) -----------------------------------------------------------------
def _complete_bonus_sets(f: Facts) -> tuple[bool, bool]:
    if f.n_bonus < 4:
        return False, False
    flowers = sum(1 for t in f.bonus if 34 <= t < 38)
    return flowers == 4, f.n_bonus - flowers == 4


@_register(FanId.SEAT_BONUS, hand_level=True)
def seat_bonus(f: Facts) -> int:
    """正花: each flower or season numbered as the seat, except inside a set counted as 一台花
    (P, W1/W2/C; switch bonus_set_adds_seat_bonus: counted there too)."""
    own = int(f.ctx.seat_wind)
    inside = f.sw.bonus_set_played and not f.sw.bonus_set_adds_seat_bonus
    flower_set, season_set = _complete_bonus_sets(f) if inside else (False, False)
    n = 0
    for t in f.bonus:
        is_flower = t < 38
        if t - (34 if is_flower else 38) == own and not (flower_set if is_flower else season_set):
            n += 1
    return n


@_register(FanId.BONUS_SET, hand_level=True)
def bonus_set(f: Facts) -> int:
    """一台花: all four flowers or all four seasons, per set (includes that set's 正花)."""
    flower_set, season_set = _complete_bonus_sets(f)
    return int(flower_set) + int(season_set)


@_register(FanId.NO_BONUS, hand_level=True)
def no_bonus(f: Facts) -> int:
    """無花: no bonus tile at all (only where bonus tiles are played)."""
    return int(f.sw.bonus_tiles and f.n_bonus == 0)


@_register(FanId.SEVEN_BONUS, hand_level=True)
def seven_bonus(f: Facts) -> int:
    """花糊: a win by seven bonus tiles, or a declined one carried into this win (W2 花糊牌規)."""
    ctx = f.ctx
    if ctx.seven_bonus and f.n_bonus >= 7:
        return 1
    return int(ctx.declined_bonus_win and f.sw.bonus_win_decline and f.n_bonus >= 7)


@_register(FanId.EIGHT_BONUS, hand_level=True)
def eight_bonus(f: Facts) -> int:
    """八仙過海: all eight bonus tiles, winning at once."""
    return int(f.ctx.eight_bonus and f.n_bonus == 8)


# --- suits and tiles (hand-level) -------------------------------------------------------------
@_register(FanId.HALF_FLUSH, hand_level=True)
def half_flush(f: Facts) -> int:
    """混一色: one number suit plus honours."""
    return int(f.honours and _single_suit(f))


@_register(FanId.FULL_FLUSH, hand_level=True)
def full_flush(f: Facts) -> int:
    """清一色: one number suit, no honours."""
    return int(not f.honours and _single_suit(f))


@_register(FanId.ALL_HONOURS, hand_level=True)
def all_honours(f: Facts) -> int:
    """字一色: only winds and dragons."""
    return int(f.suits == 0)


@_register(FanId.ALL_TERMINALS, hand_level=True)
def all_terminals(f: Facts) -> int:
    """清幺九: only 1s and 9s (necessarily all pungs)."""
    return int(f.tile_mask & ~_TERMINAL_MASK == 0)


@_register(FanId.MISSING_SUIT, hand_level=True)
def missing_suit(f: Facts) -> int:
    """缺門: exactly two of the three number suits are present (自訂)."""
    return int(f.suits in (3, 5, 6))


@_register(FanId.ALL_GREEN, hand_level=True)
def all_green(f: Facts) -> int:
    """綠一色: only 2 3 4 6 8 of bamboo and 發."""
    return int(f.tile_mask & ~_GREEN_MASK == 0)


@_register(FanId.GREEN_WITH_RED, hand_level=True)
def green_with_red(f: Facts) -> int:
    """萬綠叢中一點紅: 綠一色 with 5s or 中 in it, but not both (W2)."""
    five, red = 1 << 22, 1 << 33
    m = f.tile_mask
    if (m & five) and (m & red):
        return 0
    if not m & (five | red):
        return 0
    return int(m & ~(_GREEN_MASK | five | red) == 0)


@_register(FanId.ALL_BLUE, hand_level=True)
def all_blue(f: Facts) -> int:
    """藍一色: only winds, 白 and 8p."""
    return int(f.tile_mask & ~_BLUE_MASK == 0)


@_register(FanId.RED_PEACOCK, hand_level=True)
def red_peacock(f: Facts) -> int:
    """紅孔雀: only 1 5 7 9 of bamboo and 中."""
    return int(f.tile_mask & ~_RED_PEACOCK_MASK == 0)


@_register(FanId.MILLION_STONES, hand_level=True)
def million_stones(f: Facts) -> int:
    """百萬石: a 萬子 清一色 whose numbers add up to 100 or more."""
    if f.suits != 1 or f.honours:
        return 0
    return int(sum((i + 1) * n for i, n in enumerate(f.counts[:9])) >= 100)


@_register(FanId.NINE_GATES)
def nine_gates(f: Facts) -> int:
    """九蓮寶燈: concealed 1112345678999 of one suit plus one more of it (switches: a discard needs the nine-sided wait; declared melds allowed)."""
    if f.kongs or f.honours or not _single_suit(f):
        return 0
    if f.open_melds and not f.sw.nine_gates_with_melds:
        return 0
    base = 0 if f.suits == 1 else (9 if f.suits == 2 else 18)
    c = f.counts[base : base + 9]
    if c[0] < 3 or c[8] < 3 or any(n < 1 for n in c[1:8]):
        return 0
    if f.sw.nine_gates_discard_nine_sided_only and not f.ctx.self_drawn:
        w = f.winning_tile - base
        if not 0 <= w < 9:
            return 0
        before = list(c)
        before[w] -= 1
        return int(before == [3, 1, 1, 1, 1, 1, 1, 1, 3])
    return 1


# --- shapes (arrangement-level) ---------------------------------------------------------------
@_register(FanId.THIRTEEN_ORPHANS)
def thirteen_orphans(f: Facts) -> int:
    """十三幺: one of each terminal and honour plus a pair of one of them."""
    return int(f.shape == THIRTEEN)


@_register(FanId.SEVEN_PAIRS)
def seven_pairs(f: Facts) -> int:
    """七對子: seven different pairs (自訂)."""
    return int(f.shape == SEVEN_PAIRS)


@_register(FanId.CHICKEN, hand_level=True)
def chicken(f: Facts) -> int:
    """雞糊: decided by the calculator (nothing but bonus and context patterns applies)."""
    return 0


@_register(FanId.ALL_CHOWS)
def all_chows(f: Facts) -> int:
    """平糊: four chows and a pair (switches: no honour pair; two-sided wait only)."""
    if f.shape != REGULAR or len(f.chows) != 4:
        return 0
    if not f.sw.all_chows_honour_pair and f.pair >= 27:
        return 0
    if not f.sw.all_chows_any_wait and f.wait != WAIT_TWO_SIDED:
        return 0
    return 1


@_register(FanId.CONCEALED_HAND, hand_level=True)
def concealed_hand(f: Facts) -> int:
    """門前清: nothing declared (switches: a concealed kong keeps it; none when bonus tiles are played)."""
    if f.open_melds:
        return 0
    if f.concealed_kongs and not f.sw.concealed_kong_keeps_concealed:
        return 0
    if not f.sw.concealed_hand_with_bonus_tiles and f.sw.bonus_tiles:
        return 0
    return 1


def _dragon(tile: int) -> Detector:
    def detect(f: Facts) -> int:
        return int(tile in f.pungs)

    detect.__doc__ = "番牌 三元牌: a pung or kong of this dragon."
    return detect


_register(FanId.WHITE_DRAGON)(_dragon(31))
_register(FanId.GREEN_DRAGON)(_dragon(32))
_register(FanId.RED_DRAGON)(_dragon(33))


@_register(FanId.SEAT_WIND)
def seat_wind(f: Facts) -> int:
    """番牌 門風: a pung or kong of the seat wind."""
    return int(27 + int(f.ctx.seat_wind) in f.pungs)


@_register(FanId.PREVAILING_WIND)
def prevailing_wind(f: Facts) -> int:
    """番牌 圈風: a pung or kong of the prevailing wind."""
    return int(27 + int(f.ctx.prevailing_wind) in f.pungs)


@_register(FanId.ALL_PUNGS)
def all_pungs(f: Facts) -> int:
    """對對糊: four pungs or kongs and a pair."""
    return int(f.shape == REGULAR and len(f.pungs) == 4)


@_register(FanId.MIXED_TERMINALS)
def mixed_terminals(f: Facts) -> int:
    """花幺九: only terminals and honours (both present; switch: honours alone too), all pungs."""
    m = f.tile_mask
    return int(
        f.shape == REGULAR
        and len(f.pungs) == 4
        and m & ~_ORPHAN_MASK == 0
        and (bool(m & _TERMINAL_MASK) or f.sw.mixed_terminals_all_honours)
        and bool(m & _HONOUR_MASK)
    )


@_register(FanId.TERMINAL_PUNGS_HONOUR_PAIR)
def terminal_pungs_honour_pair(f: Facts) -> int:
    """混幺九 (C): four pungs of 1s and 9s and a pair of honours."""
    if f.shape != REGULAR or len(f.pungs) != 4 or f.pair < 27:
        return 0
    return int(all(t < 27 and t % 9 in (0, 8) for t in f.pungs))


@_register(FanId.SMALL_DRAGONS)
def small_dragons(f: Facts) -> int:
    """小三元: two dragon pungs and a pair of the third dragon."""
    return int(f.dragon_pungs == 2 and f.pair >= 31)


@_register(FanId.GREAT_DRAGONS)
def great_dragons(f: Facts) -> int:
    """大三元: pungs or kongs of all three dragons."""
    return int(f.dragon_pungs == 3)


@_register(FanId.SMALL_WINDS)
def small_winds(f: Facts) -> int:
    """小四喜: three wind pungs and a pair of the fourth wind."""
    return int(f.wind_pungs == 3 and 27 <= f.pair < 31)


@_register(FanId.GREAT_WINDS)
def great_winds(f: Facts) -> int:
    """大四喜: pungs or kongs of all four winds."""
    return int(f.wind_pungs == 4)


@_register(FanId.THREE_WIND_PUNGS)
def three_wind_pungs(f: Facts) -> int:
    """三喜臨門: three wind pungs or kongs (自訂)."""
    return int(f.wind_pungs == 3)


@_register(FanId.FOUR_KONGS, hand_level=True)
def four_kongs(f: Facts) -> int:
    """十八羅漢: four kongs."""
    return int(f.kongs == 4)


@_register(FanId.THREE_KONGS, hand_level=True)
def three_kongs(f: Facts) -> int:
    """三槓子: three kongs (自訂)."""
    return int(f.kongs == 3)


@_register(FanId.FOUR_CONCEALED_PUNGS)
def four_concealed_pungs(f: Facts) -> int:
    """坎坎糊: four concealed pungs (a set completed by a discard is exposed; switches: no kongs, single wait, any win)."""
    if f.shape != REGULAR or len(f.pungs) != 4 or f.open_melds:
        return 0
    if f.concealed_kongs and not f.sw.four_concealed_kongs:
        return 0
    if f.ctx.self_drawn or f.sw.four_concealed_any_win:
        return 1
    return int(f.sw.four_concealed_single_wait_discard and f.wait == WAIT_SINGLE)


# --- chow patterns (arrangement-level, 自訂) ---------------------------------------------------
def _max_same(chows: tuple[int, ...]) -> int:
    best = 0
    for c in chows:
        n = chows.count(c)
        if n > best:
            best = n
    return best


@_register(FanId.TWO_IDENTICAL_CHOWS)
def two_identical_chows(f: Facts) -> int:
    """一般高: two identical chows."""
    return int(_max_same(f.chows) >= 2)


@_register(FanId.THREE_IDENTICAL_CHOWS)
def three_identical_chows(f: Facts) -> int:
    """三般高: three identical chows."""
    return int(_max_same(f.chows) >= 3)


@_register(FanId.FOUR_IDENTICAL_CHOWS)
def four_identical_chows(f: Facts) -> int:
    """四般高: four identical chows."""
    return int(_max_same(f.chows) == 4)


@_register(FanId.TWO_DOUBLE_CHOWS)
def two_double_chows(f: Facts) -> int:
    """兩般高: two separate pairs of identical chows."""
    ch = f.chows
    return int(len(ch) == 4 and ch[0] == ch[1] and ch[2] == ch[3] and ch[0] != ch[2])


def _shifted_run(chows: tuple[int, ...], length: int) -> bool:
    kinds = set(chows)
    return any(all(c + k in kinds and (c + k) // 9 == c // 9 for k in range(length)) for c in kinds)


@_register(FanId.TWO_SHIFTED_CHOWS)
def two_shifted_chows(f: Facts) -> int:
    """一般低: two chows of one suit, the second one higher."""
    return int(_shifted_run(f.chows, 2))


@_register(FanId.THREE_SHIFTED_CHOWS)
def three_shifted_chows(f: Facts) -> int:
    """三般低: three chows of one suit, each one higher."""
    return int(_shifted_run(f.chows, 3))


@_register(FanId.FOUR_SHIFTED_CHOWS)
def four_shifted_chows(f: Facts) -> int:
    """四般低: four chows of one suit, each one higher."""
    ch = f.chows
    return int(len(ch) == 4 and len(set(ch)) == 4 and _shifted_run(ch, 4))


@_register(FanId.TWO_DOUBLE_SHIFTED_CHOWS)
def two_double_shifted_chows(f: Facts) -> int:
    """兩般低: the four chows split into two separate 一般低 pairs."""
    ch = f.chows
    if len(ch) != 4:
        return 0
    a, b, c, d = ch
    for (p, q), (r, s) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        if _is_step(p, q) and _is_step(r, s):
            return 1
    return 0


def _is_step(x: int, y: int) -> bool:
    lo, hi = min(x, y), max(x, y)
    return hi == lo + 1 and hi // 9 == lo // 9


@_register(FanId.PURE_STRAIGHT)
def pure_straight(f: Facts) -> int:
    """一條龍: chows 123, 456 and 789 of one suit."""
    kinds = set(f.chows)
    return int(any({b, b + 3, b + 6} <= kinds for b in (0, 9, 18)))


@_register(FanId.MIRRORED_CHOWS)
def mirrored_chows(f: Facts) -> int:
    """鏡糊糊: two suits holding the same two chows (e.g. 123m 789m 123p 789p)."""
    ch = f.chows
    if len(ch) != 4:
        return 0
    by_suit: dict[int, list[int]] = {}
    for c in ch:
        by_suit.setdefault(c // 9, []).append(c % 9)
    if len(by_suit) != 2:
        return 0
    x, y = (sorted(v) for v in by_suit.values())
    return int(x == y and len(x) == 2 and x[0] != x[1])


@_register(FanId.TWO_SUIT_SAME_PUNGS)
def two_suit_same_pungs(f: Facts) -> int:
    """雙色同刻: pungs of one number in two suits, and no chow in the hand."""
    if f.shape != REGULAR or f.chows:
        return 0
    ranks: dict[int, set[int]] = {}
    for t in f.pungs:
        if t < 27:
            ranks.setdefault(t % 9, set()).add(t // 9)
    return int(any(len(s) >= 2 for s in ranks.values()))


@_register(FanId.FOUR_IN_CHOWS)
def four_in_chows(f: Facts) -> int:
    """四歸四 (W2 literal): the four copies of one tile each sit in one of four chows."""
    ch = f.chows
    if len(ch) != 4:
        return 0
    for t in range(27):
        if f.counts[t] == 4 and all(c <= t <= c + 2 for c in ch):
            return 1
    return 0


HAND_LEVEL = frozenset(p.fan_id for p in PATTERNS.values() if p.hand_level)
STRUCTURAL_EXEMPT: frozenset[FanId] = frozenset(
    {
        FanId.SEAT_BONUS,
        FanId.BONUS_SET,
        FanId.NO_BONUS,
        FanId.SELF_DRAWN,
        FanId.ROBBING_KONG,
        FanId.LAST_DRAW,
        FanId.LAST_DISCARD,
        FanId.KONG_REPLACEMENT,
        FanId.BONUS_REPLACEMENT,
        FanId.CHICKEN,
    }
)
"""Patterns that do not stop a hand from being 雞糊 (bonus tiles and the way of winning)."""

assert set(PATTERNS) == set(FanId), sorted(f.value for f in set(FanId) - set(PATTERNS))
