"""HandState: the state machine of one hand (一局) — wall, deal, turns, claims, kongs, settlement.

Internal module (bots may not import it; they get a :class:`PlayerView` and legal actions).
Seats are the winds of this hand: ``Wind.EAST`` is the dealer (莊家). The state is kept as
compact lists (34-count vectors per seat, the wall as one list in draw order) so that thousands
of live hands fit in a server and random play runs fast.

>>> from hkmahjong.rules import get_preset
>>> s = HandState.new(get_preset("parlor"), seed=b"doc")
>>> s.phase, s.to_act
(<Phase.TURN: 'turn'>, (Wind.EAST,))
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from itertools import compress
from typing import Final

from hkmahjong.engine.actions import (
    BONUS_WIN,
    FALSE_WIN,
    KONG,
    PASS,
    PUNG,
    SELF_DRAW,
    WIN,
    Action,
    ActionKind,
)
from hkmahjong.engine.claims import resolve
from hkmahjong.engine.context import unseen_before
from hkmahjong.engine.events import Event, EventKind, HandOutcome, Visibility
from hkmahjong.engine.fields import (
    FIELDS,
    Copy,
    DrawSource,
    PendingKind,
    Saved,
    StateField,
    copy_into,
    fill,
)
from hkmahjong.engine.moments import thirteen_wait, win_context
from hkmahjong.engine.outcome import Spec, false_spec, hand_outcome, win_spec
from hkmahjong.engine.state_json import StateError, parse_state, read_fields, write_state
from hkmahjong.engine.view import Phase, PlayerView, PublicView, _Public, _Scalars
from hkmahjong.engine.wall import (
    DEAL_POSITIONS,
    DEAL_SIZE,
    WallError,
    build_wall,
    full_tile_set,
    roll_dice,
    shuffled_kinds,
)
from hkmahjong.errors import IllegalActionError
from hkmahjong.hand import Hand, is_complete_counts
from hkmahjong.hand.arrange import win_candidates
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules import FanId, PassRule, Ruleset
from hkmahjong.scoring import ScoreResult, WinContext, score_hand
from hkmahjong.scoring.liability import LiabilityTrigger, triggers_for_claim
from hkmahjong.scoring.result import NoWinReason
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "FIELDS",
    "Copy",
    "DrawSource",
    "HandState",
    "PendingKind",
    "Saved",
    "StateError",
    "StateField",
]

# The speed tricks of this module, each kept for what bench/bench_engine.py measured (its figures
# before and after each, and how they were taken: docs/engine.md, "Copies, JSON, speed"):
# * Module constants are Final: a mypyc build keeps them in C variables (a plain module global is
#   a dict lookup there, and an enum member of another module an attribute lookup on its class).
# * Events and actions of the hot paths are built once and shared (they are immutable values).
# * Membership of an action in a list by identity (_holds): ``in`` was a fifth of the compiled loop.
# * The claim scan: each seat's win-candidate mask (_cand), so a discard or draw outside it is never
#   checked for a win, and a seat that can only win is asked nothing else (_discard).
# * 生章 counts the one tile from each meld's kind and first tile (_exposed_copies).
# * Lazy views (view, _issued) and each seat's public tuples (_pub) and legal actions (_legal)
#   cached until they change.
_T: Final = [Tile(i) for i in range(42)]
_W: Final = list(Wind)
_lazy_view: Final = PlayerView._lazy
_ref: Final = weakref.ref
_DISCARD: Final = [Action.discard(i) for i in range(34)]
_CKONG: Final = [Action.concealed_kong(i) for i in range(34)]
_AKONG: Final = [Action.added_kong(i) for i in range(34)]
_CHOW: Final = [Action.chow(i) if i < 27 and i % 9 <= 6 else PASS for i in range(34)]
_compress: Final = compress
_TURN: Final = Phase.TURN
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER
_SEAT: Final = Visibility.SEAT
_PASS: Final = PASS
_PUNG: Final = PUNG
_KONG_ACT: Final = KONG
_WIN: Final = WIN
_SELF_DRAW: Final = SELF_DRAW
_BONUS_WIN: Final = BONUS_WIN
_FALSE_WIN: Final = FALSE_WIN
_K_DISCARD: Final = ActionKind.DISCARD
_K_PUNG: Final = ActionKind.PUNG
_K_KONG: Final = ActionKind.KONG
_K_CONCEALED_KONG: Final = ActionKind.CONCEALED_KONG
_K_ADDED_KONG: Final = ActionKind.ADDED_KONG
_K_SELF_DRAW: Final = ActionKind.SELF_DRAW
_K_BONUS_WIN: Final = ActionKind.BONUS_WIN
_M_CHOW: Final = MeldKind.CHOW
_M_PUNG: Final = MeldKind.PUNG
_M_KONG: Final = MeldKind.KONG
_M_ADDED_KONG: Final = MeldKind.ADDED_KONG
_M_CONCEALED_KONG: Final = MeldKind.CONCEALED_KONG
_E_CLAIM: Final = EventKind.CLAIM
_NO_DRAW: Final = DrawSource.NONE
_HEAD: Final = DrawSource.HEAD
_KONG: Final = DrawSource.KONG
_BONUS: Final = DrawSource.BONUS
_NOTHING_PENDING: Final = PendingKind.NONE
_ON_DISCARD: Final = PendingKind.DISCARD
_ADDED: Final = PendingKind.ADDED
_CONCEALED: Final = PendingKind.CONCEALED
# The events of the hot paths, built once (events are immutable values; sharing one is the same
# as building an equal one): a discard, a bonus tile and a draw per seat and tile.
_EV_DISCARD: Final = [[Event(EventKind.DISCARD, w, _T[t]) for t in range(34)] for w in _W]
_EV_DISCARD_DRAWN: Final = [
    [Event(EventKind.DISCARD, w, _T[t], detail="drawn") for t in range(34)] for w in _W
]
"""A 摸切 discard (the tile just drawn); a 手切 one is the plain discard event."""
_EV_BONUS: Final = [[Event(EventKind.BONUS, w, _T[t]) if t >= 34 else None for t in range(42)]
                    for w in _W]  # fmt: skip
_EV_DECISION: Final[dict[tuple[Wind, Action], Event]] = {}
"""Claim-window decisions, built on first use: (seat, action) -> its REFEREE event."""


def _draw_events(src: DrawSource) -> list[list[Event]]:
    return [
        [Event(EventKind.DRAW, w, _T[t], detail=src.value, visibility=_SEAT) for t in range(42)]
        for w in _W
    ]


_EV_DRAW_HEAD: Final = _draw_events(_HEAD)
_EV_DRAW_KONG: Final = _draw_events(_KONG)
_EV_DRAW_BONUS: Final = _draw_events(_BONUS)
"""The draw events per source: seat -> tile (three lists, not a dict keyed by the source: an
enum member hashes by a Python-level ``Enum.__hash__``)."""


def _holds(actions: list[Action], action: Action) -> bool:
    """``action in actions`` by identity (actions are interned, equality is identity): ``in``
    would go through ``Action``'s rich comparison (defined for sorting) for every other item."""
    for a in actions:  # noqa: SIM110 (any() over a generator is slower interpreted)
        if a is action:
            return True
    return False


class HandState:
    """一局: the whole state of one hand; change it only through :meth:`apply`."""

    __slots__ = tuple(f.name for f in FIELDS)

    ruleset: Ruleset
    seed: bytes
    prevailing_wind: Wind
    hand_number: int
    physical_table: bool
    dice: tuple[int, int, int] | None
    break_text: str
    wall: list[int]
    head: int
    tail: int
    hands: list[list[int]]
    melds: list[list[Meld]]
    bonus: list[list[Tile]]
    rivers: list[list[Tile]]
    taken: list[list[bool]]
    from_draw: list[list[bool]]
    """Parallel to ``rivers``: True where the discard was the tile just drawn (摸切), False where
    it came from the hand (手切; every discard after a claim, and the dealer's first)."""
    phase_: Phase
    current: int
    last_drawn: int
    draw_source: DrawSource
    kong_chain: int
    chain_from_rep: bool
    kong_fed_by: int
    claimed_tile: int
    pending_tile: int
    pending_from: int
    pending_kind: PendingKind
    options: list[list[Action]]
    decisions: list[Action | None]
    turns_done: list[int]
    any_claim: bool
    kong_declared: list[bool]
    dealer_konged: bool
    deal_bonus: list[int]
    pung_bar: list[int]
    win_bar_tiles: list[int]
    win_bar_fan: list[int]
    win_barred: list[bool]
    declined: list[bool]
    triggers: list[LiabilityTrigger]
    go: int
    last_claim_go: list[int]
    win_specs: list[Spec]
    false_specs: list[Spec]
    drawn: bool
    outcome_cache: HandOutcome | None
    initial_events: list[Event]
    _legal: list[list[Action] | None]
    _pub: list[_Public | None]
    _win_cache: dict[int, tuple[Hand, WinContext, ScoreResult]]
    _issued: list[weakref.ref[PlayerView]]
    _cand: list[int]
    """Per seat: the ``win_candidates`` mask of its concealed tiles, or -1 when not known (every
    change of a seat's concealed tiles sets -1)."""
    _draw_misses: bool
    """The current seat's last draw is outside its hand's win candidates (no self-drawn win)."""

    # ------------------------------------------------------------------------------------------
    # construction
    @classmethod
    def _blank(cls, ruleset: Ruleset) -> HandState:
        self = HandState.__new__(HandState)
        fill(self)
        self.ruleset = ruleset
        return self

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        *,
        seed: bytes | bytearray | object,
        prevailing_wind: Wind | object = Wind.EAST,
        hand_number: int = 0,
        wall: Sequence[Tile] | None = None,
        physical_table: bool | object = False,
    ) -> HandState:
        """開局: shuffle (or take ``wall``, in draw order), roll, break, deal, replace bonus tiles.

        The opening events (deal, bonus replacements) are in :attr:`initial_events`; the dealer
        then holds 14 tiles and acts first (docs/rules.md §3).

        :raises WallError: when ``wall`` is not exactly the ruleset's tile set.
        :raises StateError: when the seed is not bytes or the prevailing wind is not a wind.
        """
        # (``seed``, ``prevailing_wind`` and ``physical_table`` are typed wide on purpose: they
        # are checked here, so a compiled build — which checks declared types at the call —
        # raises the same StateError as the interpreted one)
        if not isinstance(seed, bytes | bytearray):
            raise StateError(
                f"seed must be bytes (e.g. b'...' or secrets.token_bytes()), not {seed!r}"
            )
        if not isinstance(prevailing_wind, int) or not 0 <= int(prevailing_wind) <= 3:
            raise StateError(f"prevailing_wind must be a Wind, not {prevailing_wind!r}")
        self = HandState._blank(ruleset)
        self.seed = bytes(seed)
        self.prevailing_wind = Wind(prevailing_wind)
        self.hand_number = int(hand_number)
        self.physical_table = bool(physical_table)
        if wall is None:
            kinds = shuffled_kinds(self.seed, bonus_tiles=ruleset.bonus_tiles)
            self.dice = roll_dice(self.seed)
            self.wall, self.break_text = build_wall(kinds, self.dice)
        else:
            want = full_tile_set(bonus_tiles=ruleset.bonus_tiles)
            if sorted(int(t) for t in wall) != [int(t) for t in want]:
                raise WallError(
                    f"a stacked wall must hold exactly the {len(want)} tiles of the set "
                    f"(bonus tiles {'on' if ruleset.bonus_tiles else 'off'}), got {len(wall)}"
                )
            self.wall = [int(t) for t in wall]
            self.break_text = "stacked wall"
        self.tail = len(self.wall)
        ev = self.initial_events
        ev.append(
            Event(
                EventKind.HAND_START,
                detail=f"hand {self.hand_number}, {self.prevailing_wind.zh} round, "
                f"{self.break_text}",
            )
        )
        pending: list[list[int]] = [[], [], [], []]
        for seat in range(4):
            dealt = [self.wall[p] for p in DEAL_POSITIONS[seat]]
            for t in dealt:
                if t >= 34:
                    pending[seat].append(t)
                else:
                    self.hands[seat][t] += 1
            ev.append(Event(EventKind.DEAL, _W[seat], tiles=tuple(_T[t] for t in dealt),
                            visibility=_SEAT))  # fmt: skip
        self.head = DEAL_SIZE
        while any(pending):
            nxt: list[list[int]] = [[], [], [], []]
            for seat in range(4):
                for b in pending[seat]:
                    self.bonus[seat].append(_T[b])
                    self._pub[seat] = None
                    ev.append(_EV_BONUS[seat][b])  # type: ignore[arg-type]
                    r = self._take(from_tail=True)
                    if r is None:
                        self._exhaust(ev)
                        return self
                    ev.append(_EV_DRAW_BONUS[seat][r])
                    if r >= 34:
                        nxt[seat].append(r)
                    else:
                        self.hands[seat][r] += 1
            pending = nxt
        self.deal_bonus = [len(b) for b in self.bonus]
        return self

    # ------------------------------------------------------------------------------------------
    # read-only surface
    @property
    def phase(self) -> Phase:
        """Where the hand is: TURN, CLAIM, ROB or OVER."""
        return self.phase_

    @property
    def is_over(self) -> bool:
        """True when the hand has ended."""
        return self.phase_ is _OVER

    @property
    def outcome(self) -> HandOutcome | None:
        """The outcome once over (winners, payments or exhaustive draw), else None."""
        if self.phase_ is not _OVER:
            return None
        if self.outcome_cache is None:
            self.outcome_cache = self._outcome()
        return self.outcome_cache

    @property
    def tiles_left(self) -> int:
        """Tiles that may still be drawn (the reserved tail excluded)."""
        return max(0, self.tail - self.head - self.ruleset.dead_wall)

    @property
    def to_act(self) -> tuple[Wind, ...]:
        """Seats that must decide now (several in a claim window; empty when over)."""
        phase = self.phase_
        if phase is _TURN:
            return (_W[self.current],)
        if phase is _OVER:
            return ()
        d = self.pending_from
        options, decisions = self.options, self.decisions
        return tuple(
            [
                _W[s]
                for s in ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)
                if options[s] and decisions[s] is None
            ]
        )

    def legal_actions(self, seat: Wind | int) -> list[Action]:
        """Every legal action of ``seat`` now, sorted (empty when it need not act); a fresh list."""
        return list(self._legal_for(seat))

    def _legal_for(self, seat: int) -> list[Action]:
        s = int(seat)
        cached = self._legal[s]
        if cached is not None:
            return cached
        phase = self.phase_
        if phase is _TURN:
            acts = self._turn_actions(s) if s == self.current else []
        elif phase is _OVER:
            acts = []
        else:
            acts = self.options[s] if self.decisions[s] is None else []
        self._legal[s] = acts
        return acts

    def census(self) -> list[int]:
        """How many of each of the 42 tile kinds are anywhere (wall, hands, melds, rivers, ...)."""
        counts = [0] * 42
        for t in self.wall[self.head : self.tail]:
            counts[t] += 1
        for s in range(4):
            for k, n in enumerate(self.hands[s]):
                counts[k] += n
            for m in self.melds[s]:
                for t in m.tiles:
                    counts[t] += 1
            for b in self.bonus[s]:
                counts[b] += 1
            for t, gone in zip(self.rivers[s], self.taken[s], strict=True):
                if not gone:
                    counts[t] += 1
        if self.phase_ is _ROB and self.pending_kind is _ADDED:
            counts[self.pending_tile] += 1
        return counts

    def __repr__(self) -> str:
        to_act = "".join(w.letter for w in self.to_act) or "-"
        return (
            f"<HandState {self.ruleset.name} hand {self.hand_number} {self.prevailing_wind.zh}圈 "
            f"{self.phase_.value} to_act={to_act} tiles_left={self.tiles_left}>"
        )

    def describe(self) -> str:
        """The whole table as text (referee's view: every hand), one line per seat, for debugging."""
        lines = [repr(self)]
        for w in Wind:
            river = " ".join(
                t.mpsz + ("*" if gone else "")
                for t, gone in zip(self.rivers[w], self.taken[w], strict=True)
            )
            mark = ">" if w == self.current and self.phase_ is not _OVER else " "
            lines.append(f"{mark}{w.letter} {self.hand_of(w).text:<40} | {river}")
        if self.phase_ is _CLAIM or self.phase_ is _ROB:
            lines.append(
                f"  pending {_T[self.pending_tile].mpsz} from {_W[self.pending_from].letter}"
            )
        return "\n".join(lines)

    def hand_of(self, seat: Wind | int) -> Hand:
        """The referee's view of ``seat``'s hand (concealed tiles, melds, bonus tiles)."""
        s = int(seat)
        return Hand(self._concealed(s), tuple(self.melds[s]), tuple(self.bonus[s]))

    # ------------------------------------------------------------------------------------------
    # the wall
    def _take(self, *, from_tail: bool) -> int | None:
        if self.tail - self.head <= self.ruleset.dead_wall:
            return None
        if from_tail:
            self.tail -= 1
            return self.wall[self.tail]
        t = self.wall[self.head]
        self.head += 1
        return t

    def _draw(self, seat: int, source: DrawSource, ev: list[Event]) -> bool:
        """摸牌 for ``seat`` (head or tail), exposing and replacing bonus tiles; False = 流局."""
        drawn = self._take(from_tail=source is not _HEAD)
        if drawn is None:
            self._exhaust(ev)
            return False
        t = drawn
        self.pung_bar[seat] = 0
        self.win_bar_tiles[seat] = 0
        self.win_bar_fan[seat] = -1
        if source is _HEAD:
            drawn_events = _EV_DRAW_HEAD
        elif source is _KONG:
            drawn_events = _EV_DRAW_KONG
        else:
            drawn_events = _EV_DRAW_BONUS
        ev.append(drawn_events[seat][t])
        while t >= 34:
            self.bonus[seat].append(_T[t])
            self._pub[seat] = None
            ev.append(_EV_BONUS[seat][t])  # type: ignore[arg-type]
            r = self._take(from_tail=True)
            if r is None:
                self._exhaust(ev)
                return False
            t = r
            source = _BONUS
            ev.append(_EV_DRAW_BONUS[seat][t])
        cands = self._cand
        mask = cands[seat]
        # a drawn tile outside the hand's win candidates cannot make a self-drawn win
        self._draw_misses = mask >= 0 and not (mask >> t) & 1
        cands[seat] = -1
        self.hands[seat][t] += 1
        self.last_drawn = t
        self.draw_source = source
        return True

    def _begin_turn(self, seat: int, ev: list[Event], *, closed: bool = False) -> None:
        self.go += 1
        self.current = seat
        self.phase_ = _TURN
        self.kong_chain = 0
        self.chain_from_rep = False
        self.kong_fed_by = -1
        self.claimed_tile = -1
        if not closed:
            self._close_window()
        self._draw(seat, _HEAD, ev)

    def _close_window(self) -> None:
        self.pending_tile = -1
        self.pending_from = -1
        self.pending_kind = _NOTHING_PENDING
        self.options = [[], [], [], []]
        self.decisions = [None, None, None, None]
        self._win_cache = {}

    def _exhaust(self, ev: list[Event]) -> None:
        self.phase_ = _OVER
        self.drawn = True
        ev.append(Event(EventKind.EXHAUSTIVE_DRAW, detail="流局: no tile left to draw"))
        self._end_events(ev)

    # ------------------------------------------------------------------------------------------
    # scoring helpers
    def _concealed(self, s: int) -> tuple[Tile, ...]:
        tiles: list[Tile] = []
        for k, n in enumerate(self.hands[s]):
            if n:
                tiles.extend([_T[k]] * n)
        return tuple(tiles)

    def _hand_with(self, s: int, extra: int) -> Hand:
        tiles = list(self._concealed(s))
        if extra >= 0:
            tiles.append(_T[extra])
        return Hand(tuple(tiles), tuple(self.melds[s]), tuple(self.bonus[s]))

    def _try_win(self, s: int, tile: int, *, robbing: bool) -> bool:
        """Can ``s`` win on another seat's ``tile`` (discard or kong)? Caches the score."""
        if self.win_barred[s] or (self.win_bar_tiles[s] >> tile) & 1:
            return False
        counts = self.hands[s]
        counts[tile] += 1
        try:
            ok = is_complete_counts(
                counts, len(self.melds[s]), seven_pairs=self.ruleset.seven_pairs
            )
        finally:
            counts[tile] -= 1
        if not ok:
            return False
        hand = self._hand_with(s, tile)
        ctx = win_context(self, s, tile=tile, self_drawn=False, robbing=robbing)
        res = score_hand(hand, ctx, self.ruleset)
        if not res.valid_win or res.total_fan <= self.win_bar_fan[s]:
            return False
        self._win_cache[s] = (hand, ctx, res)
        return True

    def _self_draw_result(self, s: int) -> tuple[Hand, WinContext, ScoreResult] | None:
        if self.win_barred[s] or self._draw_misses:
            return None
        counts = self.hands[s]
        if not is_complete_counts(counts, len(self.melds[s]), seven_pairs=self.ruleset.seven_pairs):
            return None
        hand = self._hand_with(s, -1)
        ctx = win_context(self, s, tile=self.last_drawn, self_drawn=True)
        res = score_hand(hand, ctx, self.ruleset)
        return (hand, ctx, res) if res.valid_win else None

    def _bonus_win_result(self, s: int) -> tuple[Hand, WinContext, ScoreResult] | None:
        n = len(self.bonus[s])
        rs = self.ruleset
        if n == 8 and rs.plays(FanId.EIGHT_BONUS):
            eight = True
        elif n == 7 and rs.bonus_win_seven and not self.declined[s]:
            eight = False
        else:
            return None
        hand = self._hand_with(s, -1)
        ctx = win_context(self, s, tile=-1, self_drawn=True, seven=not eight, eight=eight)
        res = score_hand(hand, ctx, rs)
        return (hand, ctx, res) if res.valid_win else None

    # ------------------------------------------------------------------------------------------
    # legal actions
    def _turn_actions(self, s: int) -> list[Action]:
        counts = self.hands[s]
        self._win_cache = {}
        bonus_win = self._bonus_win_result(s) if len(self.bonus[s]) >= 7 else None
        if bonus_win is not None:
            self._win_cache[-1] = bonus_win
            if len(self.bonus[s]) == 8 or not self.ruleset.bonus_win_decline:
                return [_BONUS_WIN]
        acts = list(_compress(_DISCARD, counts))
        if self.claimed_tile >= 0:
            banned = self.claimed_tile
            if self.ruleset.no_swap_discard and counts[banned]:
                acts.remove(_DISCARD[banned])
            return acts
        if 4 in counts:
            acts.extend(_CKONG[k] for k in range(34) if counts[k] == 4)
        melds = self.melds[s]
        if melds:
            added = sorted(m.first for m in melds if m.kind is _M_PUNG and counts[m.first])
            acts.extend(_AKONG[k] for k in added)
        win = self._self_draw_result(s)
        if win is not None:
            self._win_cache[s] = win
            acts.append(_SELF_DRAW)
        if bonus_win is not None:
            acts.append(_BONUS_WIN)
        if win is None and self.physical_table and not self.win_barred[s]:
            acts.append(_FALSE_WIN)
        return acts

    def _claim_options(self, s: int, t: int, d: int) -> list[Action]:
        """What ``s`` may do with ``d``'s discard ``t``, sorted; [] when nothing but pass."""
        rs = self.ruleset
        counts = self.hands[s]
        n = counts[t]
        chow_seat = s == (d + 1) % 4 and t < 27
        mask = self._cand[s]
        if mask < 0:
            mask = self._cand[s] = win_candidates(
                bytes(counts), len(self.melds[s]), seven_pairs=rs.seven_pairs
            )
        can_win = bool((mask >> t) & 1) and self._try_win(s, t, robbing=False)
        false_win = not can_win and self.physical_table and not self.win_barred[s]
        if n < 2 and not chow_seat and not can_win and not false_win:
            return []
        opts: list[Action] = [_PASS]
        if self.tail - self.head > rs.dead_wall:  # no claim but a win on the last discard
            total = sum(counts)
            if chow_seat:
                r = t % 9
                for first in (t - 2, t - 1, t):
                    fr = r - (t - first)
                    if fr < 0 or fr > 6:
                        continue
                    a, b = [x for x in (first, first + 1, first + 2) if x != t]
                    if counts[a] and counts[b]:
                        # 食替: after the chow some tile other than the claimed kind must remain
                        left = total - 2 - (counts[t] if rs.no_swap_discard else 0)
                        if left > 0:
                            opts.append(_CHOW[first])
            barred = rs.pung_pass_rule and (self.pung_bar[s] >> t) & 1
            discard_left = total - n > 0 or (not rs.no_swap_discard and n > 2)
            if n >= 2 and not barred and discard_left:
                opts.append(_PUNG)
            if n == 3:
                opts.append(_KONG_ACT)
        if can_win:
            opts.append(_WIN)
        elif false_win:
            opts.append(_FALSE_WIN)
        return opts if len(opts) > 1 else []

    # ------------------------------------------------------------------------------------------
    # apply
    def apply(self, seat: Wind | int | object, action: Action | str | object) -> list[Event]:
        """Play ``action`` for ``seat``; the events that follow, up to the next decision.

        Draws, bonus replacements and kong replacements happen automatically. In a claim or
        robbing window a decision is recorded unseen; the window resolves when the last seat
        has decided.

        :raises IllegalActionError: naming the action, seat, phase and the legal actions; the
            state is unchanged.
        """
        # (``seat`` and ``action`` are typed wide on purpose: they are checked here, so a
        # compiled build raises the same IllegalActionError as the interpreted one)
        if isinstance(action, Action):
            act = action
        elif isinstance(action, str):
            act = Action.from_text(action)
        else:
            raise IllegalActionError(f"{action!r} is not an action (use Action or its text form)")
        if isinstance(seat, Wind):
            w = seat
        elif isinstance(seat, int) and 0 <= seat <= 3:
            w = _W[seat]
        else:
            raise IllegalActionError(f"seat {seat!r} is not a seat (E, S, W or N)")
        return self._apply(w, act)

    def _apply(self, seat: Wind, action: Action) -> list[Event]:
        legal = self._legal_for(seat)
        if not _holds(legal, action):
            self._illegal(seat, action, legal)
        s = int(seat)
        if self._issued:
            self._freeze_views()
        ev: list[Event] = []
        self.outcome_cache = None  # (the legal-action cache is reset once the action is applied)
        if self.phase_ is _TURN:
            self._apply_turn(s, action, legal, ev)
        else:
            self.decisions[s] = action
            decided = _EV_DECISION.get((seat, action))
            if decided is None:
                decided = _EV_DECISION[seat, action] = Event(
                    EventKind.DECISION, seat, detail=action.text, visibility=Visibility.REFEREE
                )
            ev.append(decided)
            if not self.to_act:
                self._resolve(ev)
        self._legal = [None, None, None, None]
        return ev

    def _illegal(self, seat: Wind, action: Action, legal: list[Action]) -> None:
        """Refuse ``action`` with a message that holds only what ``seat``'s view holds.

        In a claim or robbing window, who else may claim (a pair, a ready hand) and who has
        decided are hidden from ``seat``, so the message names neither (the server sends it to
        that seat's client).
        """
        if self.phase_ is _OVER:
            raise IllegalActionError(
                f"{action.text!r} by {seat.letter} ({seat.zh}): the hand is over (phase over)"
            )
        if not legal:
            raise IllegalActionError(
                f"{action.text!r} by {seat.letter} ({seat.zh}) in phase {self.phase_.value}: "
                f"this seat has nothing to decide now ({self._why_idle(int(seat))})"
            )
        raise IllegalActionError(
            f"illegal action {action.text!r} by {seat.letter} ({seat.zh}) in phase "
            f"{self.phase_.value}; legal: {', '.join(a.text for a in legal)}"
        )

    def _why_idle(self, s: int) -> str:
        """Why seat ``s`` has no action now, in terms of its own view only."""
        if self.phase_ is _TURN:
            return f"to act: {_W[self.current].letter}"
        tile = _T[self.pending_tile].mpsz
        if s == self.pending_from:
            what = "discard" if self.pending_kind is _ON_DISCARD else "kong"
            return f"the other seats decide on this seat's {what} of {tile}"
        if self.decisions[s] is not None:
            return f"this seat has already decided on {tile}"
        if self.phase_ is _ROB:
            return f"this seat cannot rob the kong of {tile}"
        return f"this seat cannot claim {tile}"

    def _apply_turn(self, s: int, action: Action, legal: list[Action], ev: list[Event]) -> None:
        kind = action.kind
        if _holds(legal, _BONUS_WIN) and kind is not _K_BONUS_WIN:
            self.declined[s] = True
            ev.append(Event(EventKind.DECLINE_BONUS_WIN, _W[s]))
        if kind is _K_DISCARD:
            assert action.tile is not None
            self._discard(s, int(action.tile), ev)
        elif kind is _K_CONCEALED_KONG or kind is _K_ADDED_KONG:
            assert action.tile is not None
            self._declare_kong(s, int(action.tile), kind is _K_ADDED_KONG, ev)
        elif kind is _K_SELF_DRAW:
            self._add_win(s, None, self._win_cache[s], robbed=False, ev=ev)
            self._finish(ev)
        elif kind is _K_BONUS_WIN:
            self._add_win(s, None, self._win_cache[-1], robbed=False, ev=ev)
            self._finish(ev)
        else:  # FALSE_WIN in the own turn
            self._false_win(s, self_drawn=True, tile=-1, ev=ev)
            if self.false_specs:
                self._finish(ev)

    def _discard(self, s: int, t: int, ev: list[Event]) -> None:
        self.hands[s][t] -= 1
        self._cand[s] = -1
        self._draw_misses = False
        self.rivers[s].append(_T[t])
        self.taken[s].append(False)
        drawn = t == self.last_drawn
        self.from_draw[s].append(drawn)
        self._pub[s] = None
        self.turns_done[s] += 1
        self.last_drawn = -1
        self.draw_source = _NO_DRAW
        self.kong_chain = 0
        self.claimed_tile = -1
        self.kong_fed_by = -1
        ev.append((_EV_DISCARD_DRAWN if drawn else _EV_DISCARD)[s][t])
        self.pending_tile = t
        self.pending_from = s
        self.pending_kind = _ON_DISCARD
        self._win_cache = {}
        any_option = False
        hands = self.hands
        options = self.options
        loose = self.physical_table
        chow_seat = (s + 1) % 4 if t < 27 else -1
        cands = self._cand
        for o in ((s + 1) % 4, (s + 2) % 4, (s + 3) % 4):
            counts = hands[o]
            if counts[t] < 2 and o != chow_seat and not loose:
                # nothing but a win is possible: _claim_options' answer without its other checks,
                # and no win check for a tile outside the seat's win candidates (kept per hand)
                mask = cands[o]
                if mask < 0:
                    mask = cands[o] = win_candidates(
                        bytes(counts), len(self.melds[o]), seven_pairs=self.ruleset.seven_pairs
                    )
                if (mask >> t) & 1 and self._try_win(o, t, robbing=False):
                    options[o] = [_PASS, _WIN]
                    any_option = True
                else:
                    options[o] = []
                continue
            opts = self._claim_options(o, t, s)
            options[o] = opts
            any_option = any_option or bool(opts)
        if any_option:
            self.phase_ = _CLAIM
            return
        # nobody can claim: the window is already as _close_window leaves it (fresh empty
        # options, no decision, no scored win) but for the pending discard itself
        if self.tail - self.head - self.ruleset.dead_wall <= 0:
            self._exhaust(ev)
            return
        self.pending_tile = -1
        self.pending_from = -1
        self.pending_kind = _NOTHING_PENDING
        self._begin_turn((s + 1) % 4, ev, closed=True)

    def _nobody_claims(self, ev: list[Event]) -> None:
        d = self.pending_from
        if self.pending_kind is _ON_DISCARD:
            if self.tiles_left == 0:
                self._exhaust(ev)
            else:
                self._begin_turn((d + 1) % 4, ev)
        else:
            self._complete_kong(ev)

    def _declare_kong(self, s: int, t: int, added: bool, ev: list[Event]) -> None:
        if self.kong_chain >= 1 and self.draw_source is _BONUS:
            self.kong_chain = 0  # a bonus replacement between two kongs breaks 槓上槓
        if self.kong_chain == 1:
            self.chain_from_rep = t == self.last_drawn
        elif self.kong_chain >= 2:
            self.chain_from_rep = self.chain_from_rep and t == self.last_drawn
        self.kong_declared[s] = True
        if s == 0:
            self.dealer_konged = True
        self.pending_tile = t
        self.pending_from = s
        self._win_cache = {}
        self._cand[s] = -1
        if added:
            self.hands[s][t] -= 1
            self.pending_kind = _ADDED
            ev.append(Event(EventKind.ADDED_KONG, _W[s], _T[t]))
        else:
            self.hands[s][t] -= 4
            self.melds[s].append(Meld(_M_CONCEALED_KONG, _T[t]))
            self._pub[s] = None
            self.pending_kind = _CONCEALED
            ev.append(Event(EventKind.CONCEALED_KONG, _W[s], _T[t]))
        any_option = False
        for o in ((s + 1) % 4, (s + 2) % 4, (s + 3) % 4):
            ok = self._rob_ok(o, t, added=added)
            self.options[o] = [_PASS, _WIN] if ok else []
            any_option = any_option or ok
        if any_option:
            self.phase_ = _ROB
            return
        self._complete_kong(ev)

    def _rob_ok(self, o: int, t: int, *, added: bool) -> bool:
        """搶槓: may ``o`` rob the kong of ``t`` (any win on an added kong, 十三幺 on a concealed)?"""
        if added:
            return self._try_win(o, t, robbing=True)
        return (
            self.ruleset.rob_concealed_kong_thirteen
            and thirteen_wait(self.hands[o], len(self.melds[o]), t)
            and self._try_win(o, t, robbing=True)
        )

    def _complete_kong(self, ev: list[Event]) -> None:
        s, t = self.pending_from, self.pending_tile
        if self.pending_kind is _ADDED:
            melds = self.melds[s]
            for i, m in enumerate(melds):
                if m.kind is _M_PUNG and m.first == t:
                    melds[i] = Meld(_M_ADDED_KONG, m.first, m.source)
                    self._pub[s] = None
                    break
            ev.append(Event(EventKind.KONG_DONE, _W[s], _T[t]))
        self._close_window()
        self.phase_ = _TURN
        self.current = s
        self.kong_chain += 1
        self._draw(s, _KONG, ev)

    # ------------------------------------------------------------------------------------------
    # claim windows
    def _resolve(self, ev: list[Event]) -> None:
        rs = self.ruleset
        d, t = self.pending_from, self.pending_tile
        order = ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)
        decisions: list[tuple[Wind, Action]] = []
        for s in order:
            a = self.decisions[s]
            if self.options[s] and a is not None:
                decisions.append((_W[s], a))
        if all(a is _PASS for _, a in decisions):  # everyone passed: no claim, no win
            for w, _ in decisions:
                self._bar_passed(int(w), t)
            self._nobody_claims(ev)
            return
        exempt: list[Wind] = []
        if rs.thirteen_orphans_head_bump_exempt:
            for w, a in decisions:
                if a is _WIN and FanId.THIRTEEN_ORPHANS in self._win_cache[int(w)][2].fan_ids:
                    exempt.append(w)
        res = resolve(decisions, multiple_winners=rs.multiple_winners, thirteen_exempt=exempt)
        for w, a in decisions:
            if a is not _WIN:
                s = int(w)
                if a.kind is _K_PUNG or a.kind is _K_KONG:
                    self._bar_passed_win(s, t)
                else:
                    self._bar_passed(s, t)
        for w in res.false_winners:
            self._false_win(int(w), self_drawn=False, tile=t, ev=ev)
        if res.winners:
            robbed = self.pending_kind is not _ON_DISCARD
            if not robbed:
                self.go += 1  # a win on a discard starts the winner's go, like a claim
            for i, w in enumerate(res.winners):
                s = int(w)
                if not robbed:
                    self.triggers.extend(self._triggers(s, None))
                if i == 0:
                    self._give_tile(s, t)
                self._add_win(s, d, self._win_cache[s], robbed=robbed, ev=ev)
            self._finish(ev)
            return
        if self.false_specs:
            self._finish(ev)
            return
        if res.claimer is not None and res.claim is not None:
            self._claim(int(res.claimer), res.claim, ev)
            return
        self._nobody_claims(ev)

    def _bar_passed(self, s: int, t: int) -> None:
        """``s`` let ``t`` go without winning or taking it as a pung or kong: the pass rules
        (過水 on a win it could have made, 過碰 on a pung it could have claimed)."""
        self._bar_passed_win(s, t)
        if self.ruleset.pung_pass_rule and _holds(self.options[s], _PUNG):
            self.pung_bar[s] |= 1 << t

    def _bar_passed_win(self, s: int, t: int) -> None:
        """``s`` could have won on ``t`` and did not: 過水 by the ruleset's pass rule."""
        rs = self.ruleset
        if _holds(self.options[s], _WIN) and rs.pass_rule is not PassRule.NONE:
            self.win_bar_tiles[s] |= 1 << t
            if rs.pass_rule is PassRule.SAME_WAIT:
                fan = self._win_cache[s][2].total_fan
                self.win_bar_fan[s] = max(self.win_bar_fan[s], fan)

    def _give_tile(self, s: int, t: int) -> None:
        d = self.pending_from
        self._pub[d] = None
        if self.pending_kind is _ON_DISCARD:
            self.taken[d][-1] = True
        elif self.pending_kind is _CONCEALED:
            melds = self.melds[d]
            melds.pop()  # the robbed concealed kong falls back to a concealed pung
            self.hands[d][t] += 3
            self._cand[d] = -1
        self.hands[s][t] += 1
        self._cand[s] = -1
        self.phase_ = _OVER

    def _exposed_copies(self, t: int) -> int:
        """How many copies of ``t`` the exposed melds (all but concealed kongs) hold."""
        n = 0
        for ms in self.melds:
            for m in ms:
                kind = m.kind
                if kind is _M_CONCEALED_KONG:
                    continue
                first = int(m.first)
                if kind is _M_CHOW:
                    if first <= t <= first + 2:
                        n += 1
                elif first == t:
                    n += 3 if kind is _M_PUNG else 4
        return n

    def _triggers(self, s: int, meld: Meld | None) -> tuple[LiabilityTrigger, ...]:
        """包牌 triggers of ``s`` taking the pending discard (``meld`` None: a win on it)."""
        d, t = self.pending_from, self.pending_tile
        last = self.last_claim_go[d]
        river = self.rivers[s]
        return triggers_for_claim(
            self.melds[s],
            meld,
            tile=_T[t],
            feeder=_W[d],
            beneficiary=_W[s],
            turn=self.go,
            tile_unseen=unseen_before(t, self.rivers, self._exposed_copies(t)),
            beneficiary_discarded_first=bool(river) and river[-1] == t,
            feeder_last_claim_turn=last if last >= 0 else None,
        )

    def _claim(self, s: int, action: Action, ev: list[Event]) -> None:
        d, t = self.pending_from, self.pending_tile
        self.taken[d][-1] = True
        self._pub[d] = None
        counts = self.hands[s]
        self._cand[s] = -1
        self._draw_misses = False
        src = (s - d) % 4
        kind = action.kind
        if kind is _K_PUNG:
            counts[t] -= 2
            meld = Meld(_M_PUNG, _T[t], src)
        elif kind is _K_KONG:
            counts[t] -= 3
            meld = Meld(_M_KONG, _T[t], src)
        else:
            assert action.tile is not None
            first = int(action.tile)
            for x in (first, first + 1, first + 2):
                if x != t:
                    counts[x] -= 1
            meld = Meld(_M_CHOW, _T[first], src)
        self.go += 1
        self.triggers.extend(self._triggers(s, meld))
        self.melds[s].append(meld)
        self._pub[s] = None
        self.any_claim = True
        self.last_claim_go[s] = self.go
        ev.append(Event(_E_CLAIM, _W[s], _T[t], meld=meld, source=_W[d]))
        self._close_window()
        self.phase_ = _TURN
        self.current = s
        self.last_drawn = -1
        self.draw_source = _NO_DRAW
        self.kong_chain = 0
        self.chain_from_rep = False
        self.kong_fed_by = -1
        self.claimed_tile = -1
        if kind is _K_KONG:
            self.kong_chain = 1
            self.kong_fed_by = d
            self._draw(s, _KONG, ev)
        else:
            self.claimed_tile = t

    # ------------------------------------------------------------------------------------------
    # ending the hand
    def _add_win(
        self,
        s: int,
        discarder: int | None,
        scored: tuple[Hand, WinContext, ScoreResult],
        *,
        robbed: bool,
        ev: list[Event],
    ) -> None:
        hand, ctx, res = scored
        kong_discarder = self.kong_fed_by if ctx.kong_replacement and self.kong_fed_by >= 0 else -1
        unseen = False
        last_claim = -1
        if discarder is not None:
            last_claim = self.last_claim_go[discarder]
            if self.pending_kind is _ON_DISCARD:
                unseen = unseen_before(
                    self.pending_tile, self.rivers, self._exposed_copies(self.pending_tile)
                )
        self.win_specs.append(
            win_spec(
                s,
                discarder,
                hand,
                ctx,
                robbed=robbed,
                kong_discarder=kong_discarder,
                turn=self.go,
                unseen=unseen,
                tiles_left=self.tiles_left,
                discarder_last_claim=last_claim,
            )
        )
        self.phase_ = _OVER
        ev.append(
            Event(
                EventKind.WIN,
                _W[s],
                ctx.winning_tile,
                tiles=hand.concealed,
                source=None if discarder is None else _W[discarder],
                detail=f"{res.total_fan} fan{' (limit)' if res.is_limit else ''}: "
                + ", ".join(f"{i.zh} {i.fan}" for i in res.items),
            )
        )

    def _false_win(self, s: int, *, self_drawn: bool, tile: int, ev: list[Event]) -> None:
        """詐糊 (physical tables): price it, or bar the seat when below-minimum is not false."""
        if not self.ruleset.false_win_below_minimum:
            hand = self._hand_with(s, tile)
            ctx = win_context(self, s, tile=tile, self_drawn=self_drawn)
            res = score_hand(hand, ctx, self.ruleset)
            if res.reason == NoWinReason.BELOW_MINIMUM_FAN:
                self.win_barred[s] = True
                ev.append(Event(EventKind.FALSE_WIN, _W[s], detail="below the minimum: barred"))
                return
        self.false_specs.append(
            false_spec(
                s, self_drawn=self_drawn, discarder=None if self_drawn else self.pending_from
            )
        )
        self.phase_ = _OVER
        ev.append(Event(EventKind.FALSE_WIN, _W[s], detail="詐糊"))

    def _finish(self, ev: list[Event]) -> None:
        self.phase_ = _OVER
        self._end_events(ev)

    def _end_events(self, ev: list[Event]) -> None:
        self.outcome_cache = self._outcome()
        deltas = self.outcome_cache.deltas
        ev.append(
            Event(
                EventKind.HAND_END,
                detail=" ".join(f"{w.letter}{d:+}" for w, d in zip(Wind, deltas, strict=True)),
            )
        )

    def _outcome(self) -> HandOutcome:
        """The outcome of this ended hand (see :mod:`hkmahjong.engine.outcome`)."""
        return hand_outcome(
            self.ruleset, self.win_specs, self.false_specs, self.triggers, drawn=self.drawn
        )

    # ------------------------------------------------------------------------------------------
    # views, copies, JSON
    def view(self, seat: Wind | int) -> PlayerView:
        """What ``seat`` may see: its own concealed tiles, everything exposed, nothing else.

        The view's fields are read from this state when first asked for; a view still alive when
        the state next changes is completed first (:meth:`PlayerView._freeze`), so it always
        shows this moment.
        """
        view = _lazy_view(self, _W[int(seat)])
        issued = self._issued
        if len(issued) >= 16:
            issued[:] = [r for r in issued if r() is not None]
        issued.append(_ref(view))
        return view

    def _view_scalars(self, s: int) -> _Scalars:
        phase = self.phase_
        pending = self.pending_tile if phase is _CLAIM or phase is _ROB else -1
        if phase is _TURN:
            to_act: tuple[Wind, ...] = (_W[self.current],)
            outcome = None
        elif phase is _OVER:
            to_act = ()
            outcome = self.outcome
        else:  # a window: who else may claim (holds a pair, can win) or has decided is hidden
            to_act = (_W[s],) if self.options[s] and self.decisions[s] is None else ()
            outcome = None
        return (
            self.prevailing_wind,
            self.hand_number,
            phase,
            to_act,
            _W[self.current],
            _T[self.last_drawn]
            if s == self.current and self.last_drawn >= 0 and phase is _TURN
            else None,
            max(0, self.tail - self.head - self.ruleset.dead_wall),
            _T[pending] if pending >= 0 else None,
            _W[self.pending_from] if pending >= 0 else None,
            outcome.deltas if outcome is not None else None,
            outcome,
        )

    def _freeze_views(self) -> None:
        """Complete the views still alive before this state changes (see :meth:`view`)."""
        for r in self._issued:
            v = r()
            if v is not None:
                v._freeze()
        self._issued = []

    def _view_concealed(self, s: int) -> tuple[Tile, ...]:
        return self._concealed(s)

    def _view_public(self) -> tuple[_Public, _Public, _Public, _Public]:
        pub = self._pub
        return (
            pub[0] or self._public(0),
            pub[1] or self._public(1),
            pub[2] or self._public(2),
            pub[3] or self._public(3),
        )

    def _view_counts(self) -> tuple[int, ...]:
        return tuple(map(sum, self.hands))

    def public_view(self) -> PublicView:
        """What a spectator (旁觀) may see: everything exposed, no seat's concealed tiles."""
        return PublicView.of(self.view(_W[self.current]))

    def _public(self, s: int) -> _Public:
        """Seat ``s``'s exposed melds, bonus tiles, discards, claimed and 摸切 flags as tuples (cached
        until one of them changes: every change sets ``self._pub[s] = None``)."""
        p = (
            tuple(self.melds[s]),
            tuple(self.bonus[s]),
            tuple(self.rivers[s]),
            tuple(self.taken[s]),
            tuple(self.from_draw[s]),
        )
        self._pub[s] = p
        return p

    def clone(self) -> HandState:
        """An independent copy (events already returned are shared: they are immutable)."""
        other = HandState.__new__(HandState)
        copy_into(self, other)
        return other

    def to_json(self) -> str:
        """The whole state as JSON text (exact round trip with :meth:`from_json`; the format:
        :mod:`hkmahjong.engine.state_json`)."""
        return write_state(self)

    @classmethod
    def from_json(cls, text: str, ruleset: Ruleset | None = None) -> HandState:
        """Rebuild a state from :meth:`to_json`; ``ruleset`` defaults to the preset of that name.

        :raises StateError: when the text is not a valid state (naming the field).
        """
        obj, rules = parse_state(text, ruleset)
        self = cls._blank(rules)
        read_fields(self, obj)
        if self.phase_ is _CLAIM or self.phase_ is _ROB:
            self._reopen_window()
        return self

    def _reopen_window(self) -> None:
        """Recompute the open window's options (they follow from the state) after loading."""
        decisions = self.decisions
        d, t = self.pending_from, self.pending_tile
        for o in ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4):
            if self.pending_kind is _ON_DISCARD:
                self.options[o] = self._claim_options(o, t, d)
            else:
                ok = self._rob_ok(o, t, added=self.pending_kind is _ADDED)
                self.options[o] = [_PASS, _WIN] if ok else []
        self.decisions = decisions
