"""計番 score_hand: the best interpretation of a hand under a ruleset, itemised.

Every arrangement of the hand is tried and, for each, every placement of the winning tile (every
concealed tile when ``ctx.winning_tile`` is None) where the placement can matter: the wait shape
(平糊 wait switch), which set a discard completed (坎坎糊, a set completed by a discard is exposed)
and 九蓮寶燈's nine-sided-wait switch. The highest total wins; ties go to the first found, which
is deterministic (arrangements in a fixed order, tiles in index order).
"""

from __future__ import annotations

from dataclasses import replace

from hkmahjong.hand import (
    Arrangement,
    Group,
    GroupKind,
    Hand,
    HandStatus,
    MeldKind,
    Shape,
    waits,
)
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.ruleset import BonusWinHand, Ruleset
from hkmahjong.scoring.context import WinContext
from hkmahjong.scoring.decompose import (
    CHOW,
    concealed_decompositions,
    is_seven_pairs,
    is_thirteen_orphans,
)
from hkmahjong.scoring.patterns import (
    FAN_INDEX,
    FANS,
    REGULAR,
    SEVEN_PAIRS,
    STRUCTURAL_EXEMPT,
    THIRTEEN,
    WAIT_CLOSED,
    WAIT_EDGE,
    WAIT_NONE,
    WAIT_PUNG,
    WAIT_SINGLE,
    WAIT_TWO_SIDED,
    Facts,
)
from hkmahjong.scoring.result import FanItem, NoWinReason, ScoreResult
from hkmahjong.scoring.table import FanTable, table_for
from hkmahjong.tiles import ORPHANS, Tile, Wind

__all__ = ["score_hand", "score_waits"]

_BONUS_WIN_EXTRAS = (
    FanId.SELF_DRAWN,
    FanId.KONG_REPLACEMENT,
    FanId.DOUBLE_KONG_REPLACEMENT,
    FanId.LAST_DRAW,
    FanId.LAST_TILE_KONG,
    FanId.HEAVENLY,
)


def score_hand(hand: Hand, ctx: WinContext, ruleset: Ruleset) -> ScoreResult:
    """計番: score ``hand`` won as ``ctx`` describes under ``ruleset``; never raises for a non-win.

    >>> from hkmahjong.rules import get_preset
    >>> r = score_hand(Hand.from_text("123m456p789s111z55s"), WinContext(self_drawn=True), get_preset("parlor"))
    >>> r.valid_win, r.total_fan
    (True, 5)
    """
    tab = table_for(ruleset)
    info = _HandInfo(hand)
    problem = _check(hand, info, ctx, tab)
    if problem is not None:
        return _no_win(problem[0], problem[1], tab)
    if ctx.seven_bonus or ctx.eight_bonus:
        return _bonus_win_with_hand(hand, info, ctx, tab)
    if tab.bonus_win_hand is BonusWinHand.ADDS and len(info.bonus) >= 7:
        ctx = replace(
            ctx,
            seven_bonus=FanId.SEVEN_BONUS in tab.values,
            eight_bonus=len(info.bonus) == 8 and FanId.EIGHT_BONUS in tab.values,
        )
    return _score_regular(hand, info, ctx, tab)


def _bonus_win_with_hand(
    hand: Hand, info: _HandInfo, ctx: WinContext, tab: FanTable
) -> ScoreResult:
    """花糊 / 八仙過海, and the hand's own tiles as the switch ``bonus_win_hand`` says."""
    alone = _bonus_win(hand, info, ctx, tab)
    mode = tab.bonus_win_hand
    if mode is BonusWinHand.APART or len(hand.concealed) + 3 * len(hand.melds) != 14:
        return alone
    drawn = replace(ctx, self_drawn=True, winning_tile=None)
    if mode is BonusWinHand.ADDS:
        with_hand = _score_regular(hand, info, drawn, tab)
        return with_hand if with_hand.fan_counted else alone
    shape = _score_regular(hand, info, replace(drawn, seven_bonus=False, eight_bonus=False), tab)
    limit_shape = shape.fan_counted and any(i.fan_id in tab.limit_hands for i in shape.items)
    return shape if limit_shape and shape.total_fan > alone.total_fan else alone


_KONG_KINDS = (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)


class _HandInfo:
    """Everything about the hand itself, computed once from plain ints."""

    __slots__ = (
        "bonus",
        "concealed",
        "concealed_kongs",
        "counts",
        "kongs",
        "meld_chows",
        "meld_pungs",
        "ok",
        "open_melds",
    )

    def __init__(self, hand: Hand) -> None:
        conc = [0] * 34
        ok = True
        for t in hand.concealed:
            if t >= 34:
                ok = False
            else:
                conc[t] += 1
        counts = list(conc)
        chows: list[int] = []
        pungs: list[int] = []
        open_melds = concealed_kongs = kongs = 0
        for m in hand.melds:
            first = int(m.first)
            kind = m.kind
            if kind is MeldKind.CHOW:
                chows.append(first)
                counts[first] += 1
                counts[first + 1] += 1
                counts[first + 2] += 1
                open_melds += 1
                continue
            pungs.append(first)
            if kind in _KONG_KINDS:
                kongs += 1
                counts[first] += 4
                if kind is MeldKind.CONCEALED_KONG:
                    concealed_kongs += 1
                else:
                    open_melds += 1
            else:
                counts[first] += 3
                open_melds += 1
        bonus = tuple(int(t) for t in hand.bonus)
        if ok:
            ok = (
                max(counts) <= 4
                and len(hand.melds) <= 4
                and len(set(bonus)) == len(bonus)
                and all(t >= 34 for t in bonus)
            )
        self.concealed = tuple(conc)
        self.counts = tuple(counts)
        self.meld_chows = chows
        self.meld_pungs = pungs
        self.open_melds = open_melds
        self.concealed_kongs = concealed_kongs
        self.kongs = kongs
        self.bonus = bonus
        self.ok = ok


# --- validation ---------------------------------------------------------------------------------
def _check(hand: Hand, info: _HandInfo, ctx: WinContext, tab: FanTable) -> tuple[str, str] | None:
    bonus_win = ctx.seven_bonus or ctx.eight_bonus
    if not info.ok:
        status = hand.status()
        if status & ~HandStatus.BAD_TILE_COUNT:
            return "invalid_hand", f"impossible hand {hand.text!r}: {hand.describe_status(status)}"
    tile_count = len(hand.concealed) + 3 * len(hand.melds)
    if tile_count != 14 and not (bonus_win and tile_count == 13):
        return "invalid_tile_count", _count_hint(hand, tile_count, bonus_win)
    if hand.bonus and not tab.switches.bonus_tiles:
        return "invalid_context", f"ruleset {tab.name!r} is played without bonus tiles"
    wt = ctx.winning_tile
    if wt is not None and (wt >= 34 or wt not in hand.concealed) and not bonus_win:
        return "invalid_hand", (
            f"winning tile {Tile(wt).mpsz} is not among the concealed tiles of {hand.text!r}"
        )
    if ctx.heavenly or ctx.earthly or ctx.first_go_around:
        bad = _first_turn_conflict(ctx, bonus_win)
        if bad is not None:
            return "invalid_context", bad
    if ctx.robbing_kong:
        bad = _robbing_conflict(hand, info, ctx, bonus_win)
        if bad is not None:
            return "invalid_context", bad
    if not (
        ctx.robbing_kong
        or ctx.kong_replacement
        or ctx.double_kong_replacement
        or ctx.bonus_replacement
        or bonus_win
    ):
        return None
    kongs = info.kongs
    if ctx.self_drawn and ctx.robbing_kong:
        return "invalid_context", "a win by robbing a kong (搶槓) cannot be self-drawn"
    if (ctx.kong_replacement or ctx.double_kong_replacement) and not ctx.self_drawn:
        return "invalid_context", "槓上開花 / 槓上槓 is a self-drawn win: add --self-drawn"
    if ctx.kong_replacement and kongs == 0:
        return "invalid_context", "槓上開花 needs a declared kong in the hand"
    if ctx.double_kong_replacement and kongs < 2:
        return "invalid_context", "槓上槓 needs at least two declared kongs in the hand"
    if ctx.bonus_replacement and not ctx.self_drawn:
        return "invalid_context", "花上自摸 is a self-drawn win: add --self-drawn"
    if ctx.bonus_replacement and not hand.bonus:
        return "invalid_context", "花上自摸 needs at least one bonus tile in the hand"
    if ctx.seven_bonus and ctx.eight_bonus:
        return "invalid_context", "花糊 and 八仙過海 together: a bonus-tile win is one or the other"
    if ctx.seven_bonus and len(hand.bonus) < 7:
        return "invalid_context", f"花糊 needs seven bonus tiles; the hand shows {len(hand.bonus)}"
    if ctx.eight_bonus and len(hand.bonus) != 8:
        return "invalid_context", (
            f"八仙過海 needs all eight bonus tiles; the hand shows {len(hand.bonus)}"
        )
    if ctx.seven_bonus and not (tab.bonus_win_seven and FanId.SEVEN_BONUS in tab.values):
        return "invalid_context", f"花糊 (seven bonus tiles) is not a win under {tab.name!r}"
    if ctx.eight_bonus and FanId.EIGHT_BONUS not in tab.values:
        return "invalid_context", f"八仙過海 is not a win under {tab.name!r}"
    return None


def _count_hint(hand: Hand, tile_count: int, bonus_win: bool) -> str:
    """Why a hand of ``tile_count`` tiles (kongs counted 3) is no win, and what to change."""
    said = f"{hand.text!r} has {tile_count} tiles (kongs count 3); a winning hand has 14"
    if bonus_win:
        return said + " (a bonus-tile win: 13 or 14)"
    if tile_count == 13:
        return said + " — include the winning tile among the concealed tiles"
    if tile_count < 13:
        return said + f": {14 - tile_count} tiles are missing"
    extra = tile_count - 14
    return said + (
        f": {extra} tile{'s' if extra > 1 else ''} too many (write a kong as a declared "
        "meld, [1111m] or (1111m), so that it counts 3)"
    )


def _robbing_conflict(hand: Hand, info: _HandInfo, ctx: WinContext, bonus_win: bool) -> str | None:
    """搶槓 asked for a hand or a moment that cannot rob a kong (docs/rules.md §6, §12).

    The robbed tile is the fourth copy of another player's pung (加槓; W2 搶槓 "別家槓出自己所聽之
    牌"), or of a concealed kong robbed by 十三幺: the other three copies are that player's, so the
    winner holds exactly one copy of the winning tile, the robbed one.
    """
    if bonus_win:
        return "搶槓 is a win on another player's kong tile, not a bonus-tile win (花糊/八仙過海)"
    if ctx.earthly or ctx.first_go_around:
        return (
            "搶槓 is neither a win on the dealer's first discard (地糊) nor one in the first "
            "go-around (人糊): the kong being robbed needs an earlier claim or turn"
        )
    if ctx.last_tile:
        return (
            "搶槓 cannot be on the last tile (海底): no kong is declared when no tile is left to "
            "replace it (docs/rules.md §12)"
        )
    wt = ctx.winning_tile
    if wt is not None:
        held = info.counts[wt] if wt < 34 else 0
        if held != 1:
            return (
                f"搶槓 on {Tile(wt).mpsz}: the robbed tile is the fourth copy of another player's "
                f"pung, so the winner holds no other copy; {hand.text!r} holds {held} (melds "
                f"included)"
            )
    elif not _robbable(info):
        return (
            "搶槓: the robbed tile is the fourth copy of another player's pung, so the winner "
            f"holds exactly one copy of it; {hand.text!r} holds no concealed tile only once"
        )
    return None


def _robbable(info: _HandInfo) -> tuple[int, ...]:
    """The concealed tiles a 搶槓 could have won on: those the whole hand holds exactly once."""
    return tuple(i for i in range(34) if info.concealed[i] and info.counts[i] == 1)


def _first_turn_conflict(ctx: WinContext, bonus_win: bool) -> str | None:
    """天糊 / 地糊 / 人糊 asked for a seat or a way of winning they cannot have (docs/rules.md §7)."""
    dealer = ctx.seat_wind is Wind.EAST
    if ctx.heavenly and not dealer:
        return "天糊 is the dealer's win (seat E); this seat is " + ctx.seat_wind.letter
    if ctx.heavenly and not (ctx.self_drawn or bonus_win):
        return "天糊 is the dealer's self-drawn first fourteen tiles: add --self-drawn"
    if ctx.earthly and dealer:
        return "地糊 is a non-dealer's win on the dealer's first discard; seat E is the dealer"
    if ctx.earthly and ctx.self_drawn and not bonus_win:
        return "地糊 is a win on the dealer's first discard (W2, C), not a self-draw"
    if ctx.first_go_around and dealer:
        return "人糊 is a non-dealer's win in the first go-around; seat E is the dealer"
    return None


def _no_win(reason: str, message: str, tab: FanTable, total: int = 0) -> ScoreResult:
    return ScoreResult(
        valid_win=False,
        reason=reason,
        message=message,
        total_fan=total,
        is_limit=False,
        limit=tab.limit,
    )


# --- totals -------------------------------------------------------------------------------------
_CHICKEN = FAN_INDEX[FanId.CHICKEN]
_EXEMPT = frozenset(FAN_INDEX[f] for f in STRUCTURAL_EXEMPT)


def _counted(present: dict[int, int], tab: FanTable) -> tuple[int, int, bool, dict[int, int]]:
    """Apply exclusions, 雞糊 and limits: (capped total, raw total, is_limit, counted patterns).

    Patterns are keyed by their index in ``FanId`` (see ``patterns.FANS``).
    """
    impl = tab.impl
    excluded: set[int] = set()
    for i in present:
        ex = impl[i]
        if ex:
            excluded |= ex
    if excluded:
        present = {i: n for i, n in present.items() if i not in excluded}
    if tab.chicken and _CHICKEN not in present and _EXEMPT.issuperset(present):
        present[_CHICKEN] = 1
    vals = tab.vals
    limit = tab.limit
    if limit is not None:
        flags = tab.limit_flags
        limit_ids = [i for i in present if flags[i]]
        if limit_ids:
            raw = sum(vals[i] for i in limit_ids)
            best = max(tab.limit_vals[i] for i in limit_ids)
            return best, raw, True, dict.fromkeys(limit_ids, 1)
    raw = 0
    for i, n in present.items():
        raw += vals[i] * n
    if limit is not None and raw >= limit:
        return limit, raw, True, present
    return raw, raw, False, present


def _items(counted: dict[int, int], is_limit: bool, tab: FanTable) -> tuple[FanItem, ...]:
    ordered = sorted(counted.items())
    if is_limit and any(tab.limit_flags[i] for i in counted):
        return tuple(FanItem(FANS[i], tab.limit_vals[i], 1) for i, _ in ordered)
    return tuple(FanItem(FANS[i], tab.vals[i] * n, n) for i, n in ordered)


def _total(present: dict[int, int], tab: FanTable) -> tuple[int, int, bool, tuple[FanItem, ...]]:
    """Apply exclusions and limits: (capped total, raw total, is_limit, items)."""
    total, raw, is_limit, counted = _counted(present, tab)
    return total, raw, is_limit, _items(counted, is_limit, tab)


# --- bonus-tile wins ----------------------------------------------------------------------------
def _bonus_win(hand: Hand, info: _HandInfo, ctx: WinContext, tab: FanTable) -> ScoreResult:
    f = _base_facts(info, replace(ctx, self_drawn=True), tab)
    present: dict[int, int] = {}
    main = FanId.EIGHT_BONUS if ctx.eight_bonus else FanId.SEVEN_BONUS
    extras = set(_BONUS_WIN_EXTRAS)
    if not tab.bonus_win_kong_replacement:
        extras -= {FanId.KONG_REPLACEMENT, FanId.DOUBLE_KONG_REPLACEMENT, FanId.LAST_TILE_KONG}
    if not tab.bonus_win_at_deal:
        extras.discard(FanId.HEAVENLY)
    for pat in tab.hand_patterns:
        if pat.fan_id is main or pat.fan_id in extras:
            n = pat.detect(f)
            if n:
                present[pat.idx] = n
    at_deal = tab.bonus_win_at_deal and ctx.earthly and not ctx.is_dealer
    if at_deal and FanId.EARTHLY in tab.values and not hand.melds:
        present[FAN_INDEX[FanId.EARTHLY]] = 1
    total, raw, is_limit, items = _total(present, tab)
    what = "八仙過海" if ctx.eight_bonus else "花糊"
    return _finish(
        hand, ctx, tab, total, raw, is_limit, items, None, None, f"{what} (bonus-tile win)", ()
    )


# --- regular scoring ----------------------------------------------------------------------------
def _base_facts(info: _HandInfo, ctx: WinContext, tab: FanTable) -> Facts:
    return Facts(
        info.counts,
        ctx,
        tab.switches,
        info.bonus,
        info.open_melds,
        info.concealed_kongs,
        info.kongs,
    )


def _chow_wait(first: int, w: int) -> int:
    pos = w - first
    if pos == 1:
        return WAIT_CLOSED
    if (pos == 2 and first % 9 == 0) or (pos == 0 and first % 9 == 6):
        return WAIT_EDGE
    return WAIT_TWO_SIDED


_Reading = tuple[int, tuple[tuple[int, int], ...], int, int, int]
# (shape, concealed sets, pair, winning tile or -1, index of the set holding it: -1 none, 4 pair)
_TILES = list(Tile)


def _score_regular(hand: Hand, info: _HandInfo, ctx: WinContext, tab: FanTable) -> ScoreResult:
    base = _base_facts(info, ctx, tab)
    hand_present: dict[int, int] = {}
    for pat in tab.hand_patterns:
        n = pat.detect(base)
        if n:
            hand_present[pat.idx] = n
    meld_chows = info.meld_chows
    meld_pungs = info.meld_pungs
    conc = info.concealed
    want_chows, want_pungs, want_nine = tab.placement[ctx.self_drawn]
    given = -1 if ctx.winning_tile is None else int(ctx.winning_tile)
    if given >= 0:
        candidates: tuple[int, ...] = (given,)
    elif ctx.robbing_kong:
        candidates = _robbable(info)
    else:
        candidates = tuple(i for i in range(34) if conc[i])
    no_open = base.open_melds == 0

    best_key = (-1, -1)
    best: tuple[int, int, bool, dict[int, int], _Reading] | None = None
    readings: list[tuple[int, _Reading]] = []
    arr_detectors = tab.arrangement_detectors
    f = base

    def consider(reading: _Reading) -> None:
        nonlocal best, best_key
        present = dict(hand_present)
        for detect, idx in arr_detectors:
            n = detect(f)
            if n:
                present[idx] = n
        total, raw, is_limit, counted = _counted(present, tab)
        readings.append((total, reading))
        if (total, raw) > best_key:
            best_key = (total, raw)
            best = (total, raw, is_limit, counted, reading)

    for pair, sets in concealed_decompositions(conc):
        chows = list(meld_chows)
        pungs = list(meld_pungs)
        for kind, t in sets:
            (chows if kind == CHOW else pungs).append(t)
        f.shape = REGULAR
        f.chows = tuple(sorted(chows))
        f.pungs = tuple(pungs)
        f.pair = pair
        dragons = winds = 0
        for t in pungs:
            if t >= 27:
                if t >= 31:
                    dragons += 1
                else:
                    winds += 1
        f.dragon_pungs = dragons
        f.wind_pungs = winds
        matters = (
            (want_chows and len(chows) == 4)
            or (want_pungs and no_open and len(pungs) == 4)
            or (want_nine and not hand.melds and base.suits in (1, 2, 4) and not base.honours)
        )
        if not matters:
            f.wait = WAIT_NONE
            f.winning_tile = given
            consider((REGULAR, sets, pair, given, -1))
            continue
        for w in candidates:
            f.winning_tile = w
            if pair == w:
                f.wait = WAIT_SINGLE
                consider((REGULAR, sets, pair, w, 4))
            seen: set[tuple[int, int]] = set()
            for idx, (kind, t) in enumerate(sets):
                if (kind, t) in seen:
                    continue
                if kind == CHOW:
                    if not t <= w <= t + 2:
                        continue
                    f.wait = _chow_wait(t, w)
                elif t == w:
                    f.wait = WAIT_PUNG
                else:
                    continue
                seen.add((kind, t))
                consider((REGULAR, sets, pair, w, idx))
    if not hand.melds:
        f.chows = ()
        f.pungs = ()
        f.dragon_pungs = f.wind_pungs = 0
        f.wait = WAIT_NONE
        f.winning_tile = given
        if is_thirteen_orphans(conc):
            f.shape = THIRTEEN
            f.pair = next(i for i in range(34) if conc[i] == 2)
            consider((THIRTEEN, (), f.pair, given, -1))
        if tab.seven_pairs and is_seven_pairs(conc):
            f.shape = SEVEN_PAIRS
            f.pair = -1
            f.wait = WAIT_SINGLE
            consider((SEVEN_PAIRS, (), -1, given, -1))
    if best is None:
        return _no_win(
            "not_complete",
            f"{hand.text!r} is not a complete hand: no four sets and a pair"
            + (" (七對子 is not a win under this ruleset)" if is_seven_pairs(conc) else ""),
            tab,
        )
    total, raw, is_limit, counted, reading = best
    items = _items(counted, is_limit, tab)
    arrangement = _arrangement(hand, reading, ctx)
    w = reading[3]
    note = ""
    if ctx.winning_tile is None:
        note = (
            f"winning tile not given: the best reading takes {_TILES[w].mpsz}"
            if w >= 0
            else "winning tile not given (it does not change the score here)"
        )
    tried: tuple[tuple[int, str], ...] = ()
    if len(readings) > 1:
        readings.sort(key=lambda x: -x[0])
        tried = tuple((t, _reading_text(r, hand)) for t, r in readings[:64])
    return _finish(
        hand,
        ctx,
        tab,
        total,
        raw,
        is_limit,
        items,
        arrangement,
        _TILES[w] if w >= 0 else ctx.winning_tile,
        note,
        tried,
    )


def _finish(
    hand: Hand,
    ctx: WinContext,
    tab: FanTable,
    total: int,
    raw: int,
    is_limit: bool,
    items: tuple[FanItem, ...],
    arrangement: Arrangement | None,
    winning_tile: Tile | None,
    note: str,
    tried: tuple[tuple[int, str], ...],
) -> ScoreResult:
    below = total < tab.min_fan
    if below:
        message = f"{total} fan is below the minimum of {tab.min_fan} (番數不足, {tab.name})"
    elif is_limit:
        message = f"{total} fan: limit (爆棚) under {tab.name}"
    else:
        message = f"{total} fan under {tab.name}"
    if note:
        message += f"; {note}"
    return ScoreResult(
        valid_win=not below,
        reason=NoWinReason.BELOW_MINIMUM_FAN if below else None,
        message=message,
        total_fan=total,
        is_limit=is_limit,
        items=items,
        arrangement=arrangement,
        winning_tile=winning_tile,
        limit=tab.limit,
        raw_fan=raw,
        all_candidates=tried,
    )


def _reading_text(reading: _Reading, hand: Hand) -> str:
    shape, sets, pair, w, _ = reading
    if shape == THIRTEEN:
        return "十三幺"
    if shape == SEVEN_PAIRS:
        return "七對子"
    parts = [m.text for m in hand.melds]
    for kind, t in sets:
        parts.append(Group(GroupKind.CHOW if kind == CHOW else GroupKind.PUNG, Tile(t)).text)
    parts.append(Group(GroupKind.PAIR, Tile(pair)).text)
    if w >= 0:
        parts.append(f"win {Tile(w).mpsz}")
    return " ".join(parts)


_GROUPS: dict[tuple[int, int, bool, bool], Group] = {}
_GROUP_KINDS = list(GroupKind)
_G_CHOW, _G_PUNG, _G_KONG, _G_PAIR, _G_SINGLE = (
    _GROUP_KINDS.index(k)
    for k in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG, GroupKind.PAIR, GroupKind.SINGLE)
)


def _group(kind: int, tile: int, concealed: bool = True, declared: bool = False) -> Group:
    """A shared immutable Group (built once per kind index, tile and flags)."""
    key = (kind, tile, concealed, declared)
    g = _GROUPS.get(key)
    if g is None:
        g = _GROUPS[key] = Group(_GROUP_KINDS[kind], _TILES[tile], concealed, declared)
    return g


def _arrangement(hand: Hand, reading: _Reading, ctx: WinContext) -> Arrangement:
    shape, sets, pair, w, idx = reading
    if shape == THIRTEEN:
        singles = tuple(_group(_G_SINGLE, t) for t in ORPHANS if t != pair)
        return Arrangement(Shape.THIRTEEN_ORPHANS, (*singles, _group(_G_PAIR, pair)))
    if shape == SEVEN_PAIRS:
        conc = hand.concealed_counts
        return Arrangement(
            Shape.SEVEN_PAIRS,
            tuple(_group(_G_PAIR, i) for i in range(34) if conc[i] == 2),
        )
    groups: list[Group] = [
        _group(
            _G_CHOW
            if m.kind is MeldKind.CHOW
            else (_G_PUNG if m.kind is MeldKind.PUNG else _G_KONG),
            m.first,
            m.kind is MeldKind.CONCEALED_KONG,
            True,
        )
        for m in hand.melds
    ]
    exposed_idx = idx if (w >= 0 and not ctx.self_drawn) else -1
    conc_groups = sorted((t, set_kind, i != exposed_idx) for i, (set_kind, t) in enumerate(sets))
    for t, set_kind, concealed in conc_groups:
        groups.append(_group(_G_CHOW if set_kind == CHOW else _G_PUNG, t, concealed))
    groups.append(_group(_G_PAIR, pair, exposed_idx != 4))
    return Arrangement(Shape.REGULAR, tuple(groups))


def score_waits(hand: Hand, ctx: WinContext, ruleset: Ruleset) -> list[tuple[Tile, ScoreResult]]:
    """聽牌計番: for a ready 13-tile hand, each winning tile and the score of winning on it.

    ``ctx.winning_tile`` is ignored (each wait is the winning tile in turn); [] when not ready.

    :raises InvalidHandError: for an impossible hand or one that does not hold 13 tiles.
    """
    tiles = waits(hand, seven_pairs=ruleset.seven_pairs)
    return [(t, score_hand(hand.add(t), replace(ctx, winning_tile=t), ruleset)) for t in tiles]
