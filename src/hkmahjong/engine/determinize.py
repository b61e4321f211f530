"""確定化 (determinization): a playable hand state from one seat's view and a guess of the rest.

A searching bot sees only its :class:`~hkmahjong.engine.view.PlayerView`. To play a hand out it
samples what it cannot see — the other seats' concealed tiles and the order of the wall — and
asks this module for a :class:`~hkmahjong.engine.state.HandState` that agrees with its view in
every field and holds the sampled tiles where the view is blind (issue 17). Bots may not import
``engine.state``; they use :func:`rebuild` (and :func:`unseen_tiles`, :func:`random_deal`,
:func:`can_win_on`).

Everything public is taken from the view: melds, bonus tiles, rivers with their claimed and
摸切 flags, tiles left, the pending discard or kong, whose turn it is. What a view does not hold
is rebuilt as well as it can be, and only the referee's bookkeeping depends on it:

* who has already decided in an open claim window (none of the others: they decide again; the
  view's own seat, when its view says it has nothing left to decide, is taken to have passed);
* 過水 bars (a passed pung or win) and a barred false winner: none;
* where the current seat's last tile came from (the head, never a kong or bonus replacement, so
  槓上開花 and 花上 are not credited to a win taken at once) and, for another seat on its turn,
  which tile it drew;
* the order of past claims, for the 包牌 triggers: each claimed meld is matched to the earliest
  claimed discard of its feeder that fits it, and the turn of each discard is estimated from its
  place in the river;
* bonus tiles received at the deal (those of a seat that has not yet discarded) and a declined
  花糊 (seven bonus tiles held by a seat that is not on its turn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from hkmahjong.engine.actions import PASS
from hkmahjong.engine.context import unseen_before
from hkmahjong.engine.state import DrawSource, HandState, PendingKind
from hkmahjong.engine.view import Phase, PlayerView
from hkmahjong.errors import MahjongError
from hkmahjong.hand.arrange import win_candidates
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules import Ruleset
from hkmahjong.scoring.liability import LiabilityTrigger, triggers_for_claim
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "Deal",
    "DeterminizeError",
    "HandState",
    "can_win_on",
    "deal_around",
    "deal_of",
    "random_deal",
    "rebuild",
    "unseen_tiles",
]

_T = [Tile(i) for i in range(42)]
_W = list(Wind)


class DeterminizeError(MahjongError):
    """A view and a deal that cannot make one hand (wrong counts, a tile too many, hand over)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """What one seat cannot see: every seat's concealed tiles and the wall still to be drawn.

    ``hands[s]`` for the view's own seat is ignored by :func:`rebuild` (the view holds it);
    ``wall`` is in draw order, the head first and the first replacement tile last, and holds
    ``tiles_left`` tiles plus the reserved tail (``dead_wall``).
    """

    hands: tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]
    wall: tuple[Tile, ...]


def _visible(view: PlayerView) -> list[int]:
    """42-count of the tiles ``view``'s seat can see (own hand, melds, bonus, unclaimed discards)."""
    counts = [0] * 42
    for t in view.concealed:
        counts[t] += 1
    for seat_melds in view.melds:
        for m in seat_melds:
            for t in m.tiles:
                counts[t] += 1
    for b in view.bonus:
        for t in b:
            counts[t] += 1
    for river, flags in zip(view.discards, view.claimed, strict=True):
        for t, taken in zip(river, flags, strict=True):
            if not taken:
                counts[t] += 1
    if view.phase is Phase.ROB and view.pending_tile is not None and not _robbing_concealed(view):
        counts[view.pending_tile] += 1
    return counts


def _robbing_concealed(view: PlayerView) -> bool:
    """The open robbing window is on a concealed kong (its meld is already declared)."""
    if view.phase is not Phase.ROB or view.pending_from is None:
        return False
    melds = view.melds[view.pending_from]
    return bool(melds) and (
        melds[-1].kind is MeldKind.CONCEALED_KONG and melds[-1].first == view.pending_tile
    )


def unseen_tiles(view: PlayerView, ruleset: Ruleset) -> list[Tile]:
    """Every tile ``view``'s seat cannot see (other seats' concealed tiles and the wall), sorted.

    :raises DeterminizeError: when the view shows more copies of a tile than the set holds.
    """
    counts = _visible(view)
    out: list[Tile] = []
    for k in range(42):
        have = 4 if k < 34 else (1 if ruleset.bonus_tiles else 0)
        if counts[k] > have:
            raise DeterminizeError(f"the view shows {counts[k]} of {_T[k].mpsz}, the set {have}")
        out.extend([_T[k]] * (have - counts[k]))
    return out


def random_deal(view: PlayerView, ruleset: Ruleset, rng: random.Random) -> Deal:
    """A uniformly random :class:`Deal` consistent with ``view`` (bonus tiles only in the wall).

    :raises DeterminizeError: when the view's counts do not fit the unseen tiles.
    """
    unseen = unseen_tiles(view, ruleset)
    plain = [t for t in unseen if t < 34]
    bonus = [t for t in unseen if t >= 34]
    return deal_around(view, {}, plain, bonus, rng)


def deal_around(
    view: PlayerView,
    fixed: Mapping[int, tuple[Tile, ...]],
    plain: list[Tile],
    bonus: list[Tile],
    rng: random.Random,
) -> Deal:
    """A :class:`Deal` in which the other seats in ``fixed`` hold those hands and the rest get
    ``plain`` (the unseen plain tiles nobody in ``fixed`` holds; shuffled here, in place) dealt
    at random, as many as the view counts; the tiles left and ``bonus`` are the wall, shuffled.

    :raises DeterminizeError: when the seats hold more tiles than ``plain`` has.
    """
    rng.shuffle(plain)
    hands: list[tuple[Tile, ...]] = []
    at = 0
    for s in range(4):
        if s == view.seat:
            hands.append(tuple(view.concealed))
            continue
        if s in fixed:
            hands.append(fixed[s])
            continue
        n = view.concealed_counts[s]
        if at + n > len(plain):
            raise DeterminizeError("the other seats hold more tiles than the view leaves unseen")
        hands.append(tuple(sorted(plain[at : at + n])))
        at += n
    wall = plain[at:] + bonus
    rng.shuffle(wall)
    return Deal((hands[0], hands[1], hands[2], hands[3]), tuple(wall))


def deal_of(state: HandState, seat: Wind) -> Deal:
    """The true :class:`Deal` of ``state`` (every concealed hand and the wall left), as ``seat``'s
    :func:`rebuild` takes it — for tests and tools that compare a guess with the truth."""
    hands = tuple(tuple(state.hand_of(w).concealed) for w in Wind)
    wall = tuple(_T[t] for t in state.wall[state.head : state.tail])
    return Deal((hands[0], hands[1], hands[2], hands[3]), wall)


def can_win_on(state: HandState, seat: Wind | int, tile: Tile | int) -> bool:
    """Could ``seat`` legally win on another seat's discard of ``tile`` in ``state`` as it stands?

    The engine's own check, as a claim window runs it: the concealed tiles and ``tile`` make a
    complete hand, it scores at least the table's minimum fan, and no 過水 bar forbids it (a
    rebuilt state has none). ``state`` is left as it was (the engine's cache of the last scored
    win is restored). A seat holding a whole hand (on its turn, 3k + 2 tiles) cannot win on a
    discard: False.
    """
    s, t = int(seat), int(tile)
    counts = state.hands[s]
    if sum(counts) % 3 != 1 or counts[t] >= 4:
        return False
    mask = win_candidates(bytes(counts), len(state.melds[s]), seven_pairs=state.ruleset.seven_pairs)
    if not (mask >> t) & 1:
        return False
    cache = dict(state._win_cache)
    try:
        return state._try_win(s, t, robbing=False)
    finally:
        state._win_cache = cache


def rebuild(
    view: PlayerView,
    ruleset: Ruleset,
    deal: Deal,
    *,
    physical_table: bool = False,
    seed: bytes = b"determinized",
) -> HandState:
    """A hand state whose view for ``view.seat`` equals ``view``, holding ``deal`` where the view
    is blind; play it on with ``apply`` like any hand (see the module docstring for what is
    guessed).

    :raises DeterminizeError: when the hand is over, or ``deal`` does not fit the view (a seat's
        tile count, the wall's length, or the 144 tiles not all accounted for).
    """
    if view.phase is Phase.OVER:
        raise DeterminizeError("the hand is over: nothing to play out")
    me = int(view.seat)
    st = HandState._blank(ruleset)
    st.seed = bytes(seed)
    st.prevailing_wind = view.prevailing_wind
    st.hand_number = view.hand_number
    st.physical_table = physical_table
    st.break_text = "determinized"
    hands = [[0] * 34 for _ in range(4)]
    for s in range(4):
        tiles = view.concealed if s == me else deal.hands[s]
        if len(tiles) != view.concealed_counts[s]:
            raise DeterminizeError(
                f"seat {_W[s].letter} holds {view.concealed_counts[s]} concealed tiles, "
                f"the deal gives {len(tiles)}"
            )
        for t in tiles:
            if t >= 34:
                raise DeterminizeError(f"a bonus tile ({_T[t].mpsz}) cannot be in a hand")
            hands[s][t] += 1
    st.hands = hands
    st.wall = [int(t) for t in deal.wall]
    st.head = 0
    st.tail = len(st.wall)
    if max(0, st.tail - ruleset.dead_wall) != view.tiles_left:
        raise DeterminizeError(
            f"the deal's wall holds {st.tail} tiles; the view has {view.tiles_left} left "
            f"(+{ruleset.dead_wall} reserved)"
        )
    st.melds = [list(m) for m in view.melds]
    st.bonus = [list(b) for b in view.bonus]
    st.rivers = [list(r) for r in view.discards]
    st.taken = [list(c) for c in view.claimed]
    st.from_draw = [list(f) for f in view.from_draw]
    phase = view.phase
    st.phase_ = phase
    cur = int(view.current)
    st.current = cur
    st.turns_done = [len(r) for r in view.discards]
    st.any_claim = any(any(c) for c in view.claimed)
    st.kong_declared = [
        any(m.kind is MeldKind.CONCEALED_KONG or m.kind is MeldKind.ADDED_KONG for m in ms)
        for ms in view.melds
    ]
    if phase is Phase.ROB and view.pending_from is not None:
        st.kong_declared[int(view.pending_from)] = True
    st.dealer_konged = st.kong_declared[0]
    st.deal_bonus = [len(view.bonus[s]) if not view.discards[s] else 0 for s in range(4)]
    st.declined = [
        len(view.bonus[s]) >= 7
        and ruleset.bonus_win_seven
        and not (phase is Phase.TURN and s == cur)
        for s in range(4)
    ]
    if phase is Phase.TURN:
        _turn_draw(st, view, me)
    else:
        st.pending_tile = int(view.pending_tile) if view.pending_tile is not None else -1
        st.pending_from = int(view.pending_from) if view.pending_from is not None else -1
        if phase is Phase.CLAIM:
            st.pending_kind = PendingKind.DISCARD
        elif _robbing_concealed(view):
            st.pending_kind = PendingKind.CONCEALED
        else:
            st.pending_kind = PendingKind.ADDED
    st.triggers, st.go, st.last_claim_go = _claims_history(view)
    want = [4] * 34 + ([1] * 8 if ruleset.bonus_tiles else [0] * 8)
    census = st.census()
    if census != want:
        wrong = [Tile(k).mpsz for k in range(42) if census[k] != want[k]]
        raise DeterminizeError(f"the view and the deal do not make the tile set: {wrong}")
    if phase is Phase.CLAIM or phase is Phase.ROB:
        st._reopen_window()
        if not view.to_act and st.options[me]:
            st.decisions[me] = PASS  # the view says this seat has decided: as a pass
    return st


def _turn_draw(st: HandState, view: PlayerView, me: int) -> None:
    """The current seat's draw and 食替 bar, as far as the view tells them."""
    cur = st.current
    if cur == me:
        drawn = view.last_drawn
        if drawn is not None:
            st.last_drawn = int(drawn)
            st.draw_source = DrawSource.HEAD
            return
    claimed = _just_claimed(view, cur)
    if claimed >= 0:
        st.claimed_tile = claimed
        return
    if cur != me:
        st.draw_source = DrawSource.HEAD  # drew a tile this seat cannot see


def _just_claimed(view: PlayerView, seat: int) -> int:
    """The tile ``seat`` has just chowed or punged (its turn began with that claim), else -1."""
    melds = view.melds[seat]
    if not melds:
        return -1
    last = melds[-1]
    if last.source is None or last.kind not in (MeldKind.CHOW, MeldKind.PUNG):
        return -1
    feeder = (seat - last.source) % 4
    river, flags = view.discards[feeder], view.claimed[feeder]
    if not river or not flags[-1] or river[-1] not in last.tiles:
        return -1
    if seat == int(view.seat) and view.last_drawn is not None:
        return -1
    return int(river[-1])


def _claims_history(view: PlayerView) -> tuple[list[LiabilityTrigger], int, list[int]]:
    """包牌 triggers, the go counter and each seat's last claim go, rebuilt from the view.

    A discard at place ``i`` of seat ``d``'s river is taken to have come at go ``4 i + d + 1``;
    each claimed meld is matched, in order, to the earliest claimed discard of its feeder that
    fits it.
    """
    used: list[set[int]] = [set(), set(), set(), set()]
    claims: list[tuple[int, int, int, Meld, int]] = []  # go, seat, index, meld, tile
    for s in range(4):
        for i, m in enumerate(view.melds[s]):
            if m.source is None:
                continue
            feeder = (s - m.source) % 4
            river, flags = view.discards[feeder], view.claimed[feeder]
            kinds = {int(t) for t in m.tiles}
            for j, (kind, taken) in enumerate(zip(river, flags, strict=True)):
                if taken and j not in used[feeder] and int(kind) in kinds:
                    used[feeder].add(j)
                    claims.append((4 * j + feeder + 1, s, i, m, int(kind)))
                    break
    claims.sort(key=lambda c: c[0])
    triggers: list[LiabilityTrigger] = []
    last_go = [-1, -1, -1, -1]
    exposed = [0] * 34
    for go, s, i, m, t in claims:
        feeder = (s - (m.source or 0)) % 4
        made = Meld(MeldKind.PUNG, m.first, m.source) if m.kind is MeldKind.ADDED_KONG else m
        before = [
            Meld(MeldKind.PUNG, b.first, b.source) if b.kind is MeldKind.ADDED_KONG else b
            for b in view.melds[s][:i]
        ]
        rivers = [
            [int(x) for j, x in enumerate(r) if 4 * j + d + 1 <= go]
            for d, r in enumerate(view.discards)
        ]
        own = rivers[s]
        triggers.extend(
            triggers_for_claim(
                before,
                made,
                tile=_T[t],
                feeder=_W[feeder],
                beneficiary=_W[s],
                turn=go,
                tile_unseen=unseen_before(t, rivers, exposed[t]),
                beneficiary_discarded_first=bool(own) and own[-1] == t,
                feeder_last_claim_turn=last_go[feeder] if last_go[feeder] >= 0 else None,
            )
        )
        last_go[s] = go
        for x in made.tiles:
            exposed[x] += 1
    go = sum(len(r) for r in view.discards) + len(claims)
    return triggers, go, last_go
