"""計番 score_hand: the best interpretation of a hand under a ruleset, itemised.

Every arrangement of the hand is tried and, for each, every placement of the winning tile (every
concealed tile when ``ctx.winning_tile`` is None) where the placement can matter: the wait shape
(平糊 wait switch), which set a discard completed (坎坎糊, a set completed by a discard is exposed)
and 九蓮寶燈's nine-sided-wait switch. The highest total wins; ties go to the first found, which
is deterministic (arrangements in a fixed order, tiles in index order).
"""

from __future__ import annotations

from dataclasses import replace

from hkmahjong.hand.groups import Arrangement, Group, GroupKind, Shape
from hkmahjong.hand.hand import Hand, HandStatus
from hkmahjong.hand.meld import MeldKind
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.ruleset import Ruleset
from hkmahjong.scoring.context import WinContext
from hkmahjong.scoring.decompose import (
    CHOW,
    concealed_decompositions,
    is_seven_pairs,
    is_thirteen_orphans,
)
from hkmahjong.scoring.patterns import (
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
from hkmahjong.scoring.result import FanItem, ScoreResult
from hkmahjong.scoring.table import FanTable, table_for
from hkmahjong.tiles import ORPHANS, Tile

__all__ = ["score_hand"]

_ORDER = {f: i for i, f in enumerate(FanId)}
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
    (True, 4)
    """
    tab = table_for(ruleset)
    problem = _check(hand, ctx, tab)
    if problem is not None:
        return _no_win(problem[0], problem[1], tab)
    if ctx.seven_bonus or ctx.eight_bonus:
        return _bonus_win(hand, ctx, tab)
    return _score_regular(hand, ctx, tab)


# --- validation ---------------------------------------------------------------------------------
def _check(hand: Hand, ctx: WinContext, tab: FanTable) -> tuple[str, str] | None:
    status = hand.status()
    bonus_win = ctx.seven_bonus or ctx.eight_bonus
    if status & ~HandStatus.BAD_TILE_COUNT:
        return "invalid_hand", f"impossible hand {hand.text!r}: {hand.describe_status(status)}"
    if hand.tile_count != 14 and not (bonus_win and hand.tile_count == 13):
        return "invalid_tile_count", (
            f"{hand.text!r} has {hand.tile_count} tiles (kongs count 3); a winning hand has 14 "
            "— include the winning tile among the concealed tiles"
        )
    if hand.bonus and not tab.switches.bonus_tiles:
        return "invalid_context", f"ruleset {tab.name!r} is played without bonus tiles"
    wt = ctx.winning_tile
    if wt is not None and (wt >= 34 or wt not in hand.concealed) and not bonus_win:
        return "invalid_hand", (
            f"winning tile {Tile(wt).mpsz} is not among the concealed tiles of {hand.text!r}"
        )
    kongs = hand.kong_count
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
def _total(present: dict[FanId, int], tab: FanTable) -> tuple[int, int, bool, tuple[FanItem, ...]]:
    """Apply exclusions and limits: (capped total, raw total, is_limit, items)."""
    implies = tab.implies
    excluded: set[FanId] = set()
    for fid in present:
        ex = implies.get(fid)
        if ex:
            excluded |= ex
    if excluded:
        present = {f: n for f, n in present.items() if f not in excluded}
    chicken = FanId.CHICKEN in tab.values and FanId.CHICKEN not in present
    if chicken and all(f in STRUCTURAL_EXEMPT for f in present):
        present[FanId.CHICKEN] = 1
    values = tab.values
    limit = tab.limit
    limit_ids = [f for f in present if f in tab.limit_hands]
    if limit is not None and limit_ids:
        ids = sorted(limit_ids, key=_ORDER.__getitem__)
        items = tuple(FanItem(f, tab.limit_value(f), 1) for f in ids)
        raw = sum(values[f] for f in limit_ids)
        return max(i.fan for i in items), raw, True, items
    items = tuple(
        FanItem(f, values[f] * n, n)
        for f, n in sorted(present.items(), key=lambda kv: _ORDER[kv[0]])
    )
    raw = sum(i.fan for i in items)
    if limit is not None and raw >= limit:
        return limit, raw, True, items
    return raw, raw, False, items


# --- bonus-tile wins ----------------------------------------------------------------------------
def _bonus_win(hand: Hand, ctx: WinContext, tab: FanTable) -> ScoreResult:
    f = _base_facts(hand, replace(ctx, self_drawn=True), tab)
    present: dict[FanId, int] = {}
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
                present[pat.fan_id] = n
    at_deal = tab.bonus_win_at_deal and ctx.earthly and not ctx.is_dealer
    if at_deal and FanId.EARTHLY in tab.values and not hand.melds:
        present[FanId.EARTHLY] = 1
    total, raw, is_limit, items = _total(present, tab)
    what = "八仙過海" if ctx.eight_bonus else "花糊"
    return _finish(
        hand, ctx, tab, total, raw, is_limit, items, None, None, f"{what} (bonus-tile win)", ()
    )


# --- regular scoring ----------------------------------------------------------------------------
def _base_facts(hand: Hand, ctx: WinContext, tab: FanTable) -> Facts:
    counts = tuple(hand.all_counts())
    open_melds = 0
    concealed_kongs = 0
    kongs = 0
    for m in hand.melds:
        if m.kind is MeldKind.CONCEALED_KONG:
            concealed_kongs += 1
        else:
            open_melds += 1
        if m.kind.is_kong:
            kongs += 1
    return Facts(
        counts,
        ctx,
        tab.switches,
        tuple(int(t) for t in hand.bonus),
        open_melds,
        concealed_kongs,
        kongs,
    )


def _placement_matters(ctx: WinContext, tab: FanTable) -> bool:
    sw = tab.switches
    if FanId.ALL_CHOWS in tab.values and not sw.all_chows_any_wait:
        return True
    if not ctx.self_drawn:
        if FanId.FOUR_CONCEALED_PUNGS in tab.values and not sw.four_concealed_any_win:
            return True
        if FanId.NINE_GATES in tab.values and sw.nine_gates_discard_nine_sided_only:
            return True
    return False


def _chow_wait(first: int, w: int) -> int:
    pos = w - first
    if pos == 1:
        return WAIT_CLOSED
    if (pos == 2 and first % 9 == 0) or (pos == 0 and first % 9 == 6):
        return WAIT_EDGE
    return WAIT_TWO_SIDED


_Reading = tuple[int, tuple[tuple[int, int], ...], int, int, int]
# (shape, concealed sets, pair, winning tile or -1, index of the set holding it: -1 none, 4 pair)


def _score_regular(hand: Hand, ctx: WinContext, tab: FanTable) -> ScoreResult:
    base = _base_facts(hand, ctx, tab)
    hand_present: dict[FanId, int] = {}
    for pat in tab.hand_patterns:
        n = pat.detect(base)
        if n:
            hand_present[pat.fan_id] = n
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    for m in hand.melds:
        (meld_chows if m.kind is MeldKind.CHOW else meld_pungs).append(int(m.first))
    conc = tuple(hand.concealed_counts)
    matters = _placement_matters(ctx, tab)
    if ctx.winning_tile is not None:
        candidates: tuple[int, ...] = (int(ctx.winning_tile),)
    elif matters:
        candidates = tuple(i for i in range(34) if conc[i])
    else:
        candidates = (-1,)

    best: tuple[int, int, tuple[FanItem, ...], bool, _Reading] | None = None
    tried: list[tuple[int, str]] = []
    arr_patterns = tab.arrangement_patterns
    f = base
    no_melds = not hand.melds

    def consider(reading: _Reading) -> None:
        nonlocal best
        present = dict(hand_present)
        for pat in arr_patterns:
            n = pat.detect(f)
            if n:
                present[pat.fan_id] = n
        total, raw, is_limit, items = _total(present, tab)
        if len(tried) < 64:
            tried.append((total, _reading_text(reading, hand)))
        if best is None or (total, raw) > (best[0], best[1]):
            best = (total, raw, items, is_limit, reading)

    for pair, sets in concealed_decompositions(conc):
        chows = list(meld_chows)
        pungs = list(meld_pungs)
        for kind, t in sets:
            (chows if kind == CHOW else pungs).append(t)
        f.shape = REGULAR
        f.chows = tuple(sorted(chows))
        f.pungs = tuple(pungs)
        f.pair = pair
        for w in candidates:
            f.winning_tile = w
            if w < 0 or not matters:
                f.wait = WAIT_NONE
                consider((REGULAR, sets, pair, w, -1))
                continue
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
    if no_melds:
        if is_thirteen_orphans(conc):
            f.shape = THIRTEEN
            f.chows = ()
            f.pungs = ()
            f.pair = next(i for i in range(34) if conc[i] == 2)
            f.wait = WAIT_NONE
            f.winning_tile = candidates[0]
            consider((THIRTEEN, (), f.pair, candidates[0], -1))
        if tab.seven_pairs and is_seven_pairs(conc):
            f.shape = SEVEN_PAIRS
            f.chows = ()
            f.pungs = ()
            f.pair = -1
            f.wait = WAIT_SINGLE
            f.winning_tile = candidates[0]
            consider((SEVEN_PAIRS, (), -1, candidates[0], -1))
    if best is None:
        return _no_win(
            "not_complete",
            f"{hand.text!r} is not a complete hand: no four sets and a pair"
            + (" (七對子 is not a win under this ruleset)" if is_seven_pairs(conc) else ""),
            tab,
        )
    total, raw, items, is_limit, reading = best
    tried.sort(key=lambda x: -x[0])
    arrangement = _arrangement(hand, reading, ctx)
    w = reading[3]
    note = ""
    if ctx.winning_tile is None:
        note = (
            f"winning tile not given: the best reading takes {Tile(w).mpsz}"
            if w >= 0
            else "winning tile not given (it does not change the score here)"
        )
    return _finish(
        hand,
        ctx,
        tab,
        total,
        raw,
        is_limit,
        items,
        arrangement,
        Tile(w) if w >= 0 else ctx.winning_tile,
        note,
        tuple(tried),
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
        reason="below_minimum_fan" if below else None,
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


def _arrangement(hand: Hand, reading: _Reading, ctx: WinContext) -> Arrangement:
    shape, sets, pair, w, idx = reading
    if shape == THIRTEEN:
        singles = tuple(Group(GroupKind.SINGLE, t) for t in ORPHANS if t != pair)
        return Arrangement(Shape.THIRTEEN_ORPHANS, (*singles, Group(GroupKind.PAIR, Tile(pair))))
    if shape == SEVEN_PAIRS:
        conc = hand.concealed_counts
        return Arrangement(
            Shape.SEVEN_PAIRS,
            tuple(Group(GroupKind.PAIR, Tile(i)) for i in range(34) if conc[i] == 2),
        )
    groups: list[Group] = []
    for m in hand.melds:
        kind = GroupKind.CHOW if m.kind is MeldKind.CHOW else GroupKind.PUNG
        if m.kind.is_kong:
            kind = GroupKind.KONG
        groups.append(Group(kind, m.first, m.kind is MeldKind.CONCEALED_KONG, True))
    exposed_idx = idx if (w >= 0 and not ctx.self_drawn) else -1
    conc_groups = []
    for i, (set_kind, t) in enumerate(sets):
        gk = GroupKind.CHOW if set_kind == CHOW else GroupKind.PUNG
        conc_groups.append(Group(gk, Tile(t), i != exposed_idx, False))
    groups.extend(sorted(conc_groups, key=lambda g: (g.first, g.kind.value)))
    groups.append(Group(GroupKind.PAIR, Tile(pair), exposed_idx != 4, False))
    return Arrangement(Shape.REGULAR, tuple(groups))
