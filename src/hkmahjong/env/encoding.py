"""動作與觀察編碼: the env's versioned flat action space and feature planes over the 34 tile kinds.

Action space (``ACTION_SPACE_VERSION = 1``, ``NUM_ACTIONS = 110``):

=========  =========================================================================
index      action
=========  =========================================================================
0–33       打 discard the tile of that kind (``discard 5p`` → 13)
34–67      暗槓 concealed kong of kind ``i − 34``
68–101     加槓 added kong of kind ``i − 68``
102        上 chow with the claimed tile as the **lowest** tile (e.g. 3p claimed → 345p)
103        上 chow with the claimed tile in the **middle** (3p → 234p)
104        上 chow with the claimed tile as the **highest** (3p → 123p)
105        碰 pung
106        明槓 exposed kong on the discard
107        糊 win: 自摸 on own turn, 食糊 on a discard, 搶槓 in a robbing window
108        花糊 / 八仙過海 bonus-tile win
109        過 pass
=========  =========================================================================

Bonus-tile replacement (補花) is automatic. Observation planes (``OBSERVATION_VERSION = 1``) are
described in :data:`PLANES`; seats are *relative* to the observer (0 = self, 1 = 下家, 2 = 對家,
3 = 上家) so one policy serves every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.errors import IllegalActionError
from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Wind

if TYPE_CHECKING:
    from hkmahjong.engine.state import HandState

__all__ = [
    "ACTION_SPACE_VERSION",
    "NUM_ACTIONS",
    "NUM_ORACLE_PLANES",
    "NUM_PLANES",
    "OBSERVATION_VERSION",
    "PLANES",
    "RIVER_SCALE",
    "StateEncoder",
    "action_index",
    "action_mask",
    "describe_action",
    "index_action",
    "mask_and_actions",
    "observation",
    "observation_bounds",
    "oracle_observation",
]

ACTION_SPACE_VERSION = 1
OBSERVATION_VERSION = 1
NUM_ACTIONS = 110
CONCEALED_KONG_BASE = 34
ADDED_KONG_BASE = 68
CHOW_LOW, CHOW_MID, CHOW_HIGH = 102, 103, 104
PUNG_INDEX, KONG_INDEX, WIN_INDEX, BONUS_WIN_INDEX, PASS_INDEX = 105, 106, 107, 108, 109

_PLAIN_INDEX = {
    ActionKind.PUNG: PUNG_INDEX,
    ActionKind.KONG: KONG_INDEX,
    ActionKind.WIN: WIN_INDEX,
    ActionKind.SELF_DRAW: WIN_INDEX,
    ActionKind.BONUS_WIN: BONUS_WIN_INDEX,
    ActionKind.PASS: PASS_INDEX,
}


def _build_index_by_id() -> dict[int, int]:
    """Flat index of every interned non-chow Action (the engine caches one object per action)."""
    from hkmahjong.tiles import Tile

    table: dict[int, int] = {}
    for k in range(34):
        table[id(Action.discard(Tile(k)))] = k
        table[id(Action.concealed_kong(Tile(k)))] = CONCEALED_KONG_BASE + k
        table[id(Action.added_kong(Tile(k)))] = ADDED_KONG_BASE + k
    for kind, index in _PLAIN_INDEX.items():
        table[id(Action.plain(kind))] = index
    return table


def action_index(action: Action, pending_tile: int | None) -> int:
    """The flat index of ``action``; a chow needs the claimed ``pending_tile``.

    :raises IllegalActionError: for an action the env does not offer (``false_win``).
    """
    kind = action.kind
    if kind is ActionKind.DISCARD:
        return int(action.tile)  # type: ignore[arg-type]
    if kind is ActionKind.CONCEALED_KONG:
        return CONCEALED_KONG_BASE + int(action.tile)  # type: ignore[arg-type]
    if kind is ActionKind.ADDED_KONG:
        return ADDED_KONG_BASE + int(action.tile)  # type: ignore[arg-type]
    if kind is ActionKind.CHOW:
        if pending_tile is None:
            raise IllegalActionError("a chow index needs the claimed tile")
        offset = int(pending_tile) - int(action.tile)  # type: ignore[arg-type]
        return CHOW_LOW + offset
    index = _PLAIN_INDEX.get(kind)
    if index is None:
        raise IllegalActionError(f"action {action.text!r} has no index in the env's action space")
    return index


def action_mask(legal: Sequence[Action], pending_tile: int | None = None) -> npt.NDArray[np.int8]:
    """The legal-action mask (``int8``, length :data:`NUM_ACTIONS`) of ``legal``; a chow needs the
    claimed ``pending_tile`` (``PlayerView.pending_tile``)."""
    return mask_and_actions(legal, pending_tile)[0]


def mask_and_actions(
    legal: Sequence[Action], pending_tile: int | None = None
) -> tuple[npt.NDArray[np.int8], dict[int, Action]]:
    """The legal-action mask and the action behind each set index."""
    by_id = _INDEX_BY_ID
    chosen = {
        (by_id[id(a)] if id(a) in by_id else action_index(a, pending_tile)): a
        for a in legal
        if a.kind is not ActionKind.FALSE_WIN
    }
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if chosen:
        mask[list(chosen)] = 1
    return mask, chosen


def index_action(
    index: int, legal: Sequence[Action], pending_tile: int | None = None, *, who: str = ""
) -> Action:
    """The legal :class:`Action` that flat ``index`` means, given the claimed ``pending_tile``.

    :raises IllegalActionError: naming the index, its meaning and the legal set when it is not legal.
    """
    by_id = _INDEX_BY_ID
    for a in legal:
        i = by_id.get(id(a))
        if i is None and a.kind is not ActionKind.FALSE_WIN:
            i = action_index(a, pending_tile)
        if i == index:
            return a
    legal_text = ", ".join(f"{action_index(a, pending_tile)}={a.text}" for a in legal)
    raise IllegalActionError(
        f"action {index} ({describe_action(index)}) is not legal{' for ' + who if who else ''}; "
        f"legal: {legal_text or 'none (this seat need not act)'}"
    )


_INDEX_BY_ID = _build_index_by_id()


def describe_action(index: int) -> str:
    """A readable name of a flat action index, e.g. ``discard 5p`` or ``chow (claimed tile lowest)``."""
    from hkmahjong.tiles import Tile

    if not 0 <= index < NUM_ACTIONS:
        return f"out of range 0-{NUM_ACTIONS - 1}"
    if index < CONCEALED_KONG_BASE:
        return f"discard {Tile(index).mpsz}"
    if index < ADDED_KONG_BASE:
        return f"concealed_kong {Tile(index - CONCEALED_KONG_BASE).mpsz}"
    if index < CHOW_LOW:
        return f"added_kong {Tile(index - ADDED_KONG_BASE).mpsz}"
    return {
        CHOW_LOW: "chow (claimed tile lowest)",
        CHOW_MID: "chow (claimed tile middle)",
        CHOW_HIGH: "chow (claimed tile highest)",
        PUNG_INDEX: "pung",
        KONG_INDEX: "kong",
        WIN_INDEX: "win",
        BONUS_WIN_INDEX: "bonus_win",
        PASS_INDEX: "pass",
    }[index]


def _plane_names() -> list[str]:
    names = [f"own_concealed>={k}" for k in range(1, 5)]
    names += [f"visible>={k}" for k in range(1, 5)]
    for r in range(4):
        names += [f"seat{r}_melds>={k}" for k in range(1, 5)]
        names += [f"seat{r}_discards>={k}" for k in range(1, 5)]
        names += [f"seat{r}_last_discard", f"seat{r}_discard_position/32"]
    names += ["own_last_drawn", "pending_tile"]
    names += [f"seat_wind={w}" for w in "ESWN"]
    names += [f"prevailing_wind={w}" for w in "ESWN"]
    names += [f"dealer_is_seat{r}" for r in range(4)]
    names += [f"seat{r}_bonus_count/8" for r in range(4)]
    names += [f"own_bonus_{b}" for b in ("1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g")]
    names += [f"seat{r}_score/256" for r in range(4)]
    names += ["tiles_left/144"]
    names += [f"phase={p}" for p in ("turn", "claim", "rob")]
    names += [f"seat{r}_concealed_count/14" for r in range(4)]
    return names


PLANES: tuple[str, ...] = tuple(_plane_names())
"""Names of the observation planes, in order. Each plane has 34 values (one per tile kind);
scalar features are broadcast over the 34 columns. ``seatR`` is relative to the observer
(0 = self, 1 = 下家, 2 = 對家, 3 = 上家). ``visible`` counts own concealed tiles, every meld and
every unclaimed discard. ``discard_position`` holds (index in that seat's river + 1) / 32 of the
kind's latest discard."""
NUM_PLANES = len(PLANES)
_ORACLE_EXTRA = [f"seat{r}_concealed>={k}" for r in (1, 2, 3) for k in range(1, 5)] + [
    f"wall>={k}" for k in range(1, 5)
]
NUM_ORACLE_PLANES = NUM_PLANES + len(_ORACLE_EXTRA)
RIVER_SCALE = 32.0
_P = {name: i for i, name in enumerate(PLANES)}
_THRESH = np.arange(1, 5, dtype=np.int16).reshape(4, 1)
_SEAT_BLOCK = 10
_SEATS = _P["seat0_melds>=1"]
_DRAWN, _PENDING = _P["own_last_drawn"], _P["pending_tile"]
_SCALARS = _P["seat_wind=E"]
_NUM_SCALARS = NUM_PLANES - _SCALARS
_S_PREVAILING = _P["prevailing_wind=E"] - _SCALARS
_S_DEALER = _P["dealer_is_seat0"] - _SCALARS
_S_BONUS = _P["seat0_bonus_count/8"] - _SCALARS
_S_OWN_BONUS = _P["own_bonus_1f"] - _SCALARS
_S_SCORE = _P["seat0_score/256"] - _SCALARS
_S_TILES = _P["tiles_left/144"] - _SCALARS
_S_PHASE = {Phase.TURN: 0, Phase.CLAIM: 1, Phase.ROB: 2}
_S_PHASE_BASE = _P["phase=turn"] - _SCALARS
_S_CONCEALED = _P["seat0_concealed_count/14"] - _SCALARS
_ROTATIONS = [np.array([(seat + r) % 4 for r in range(4)]) for seat in range(4)]
_OWN_AND_VISIBLE_THRESH = np.arange(1, 5, dtype=np.int16).reshape(1, 4, 1)


def observation_bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Per-plane bounds of the observation: every plane lies in [0, 1] except the discard
    positions (at most 2: a river never holds 64 tiles) and the match scores (any sign)."""
    low = np.zeros((NUM_PLANES, 34), dtype=np.float32)
    high = np.ones((NUM_PLANES, 34), dtype=np.float32)
    for r in range(4):
        high[_P[f"seat{r}_discard_position/32"]] = 2.0
        low[_P[f"seat{r}_score/256"]] = -np.inf
        high[_P[f"seat{r}_score/256"]] = np.inf
    return low, high


class _Source(Protocol):
    """What the encoder reads: a ``HandState`` or a shim built from a ``PlayerView``."""

    @property
    def rivers(self) -> Sequence[Sequence[int]]: ...
    @property
    def taken(self) -> Sequence[list[bool] | tuple[bool, ...]]: ...
    @property
    def melds(self) -> Sequence[Sequence[Meld]]: ...
    @property
    def bonus(self) -> Sequence[Sequence[int]]: ...
    @property
    def current(self) -> int: ...
    @property
    def last_drawn(self) -> int: ...
    @property
    def pending_tile(self) -> int: ...
    @property
    def prevailing_wind(self) -> Wind: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def tiles_left(self) -> int: ...


class StateEncoder:
    """Builds the observation planes of one seat. ``encode`` reads a ``HandState`` on the env's hot
    path using only what that seat may see (its own concealed tiles and public facts); each seat's
    public block (melds, discards) is cached between steps — a step changes at most two of them.

    :func:`observation` (from a ``PlayerView``) runs the same code on a shim of the view, and
    ``tests/env`` checks both agree on random states: the env cannot leak what a view hides.
    """

    __slots__ = ("_discarded", "_keys", "_public", "_pubvis", "_state")

    def __init__(self) -> None:
        self._state: object | None = None
        self._keys: list[tuple[int, int, tuple[Meld, ...]] | None] = [None] * 4
        self._public = np.zeros((4, _SEAT_BLOCK, 34), dtype=np.float32)
        self._discarded: list[list[int]] = [[0] * 34 for _ in range(4)]
        self._pubvis = np.zeros((2, 34), dtype=np.int16)
        """Row 0 stays zero; row 1 counts every meld tile and unclaimed discard (all seats)."""

    def _reset(self, state: object) -> None:
        self._state = state
        self._keys = [None] * 4
        self._public[:] = 0.0
        self._discarded = [[0] * 34 for _ in range(4)]
        self._pubvis[:] = 0

    def _refresh(self, src: _Source, s: int) -> None:
        river = src.rivers[s]
        taken = src.taken[s]
        melds = tuple(src.melds[s])
        key = (len(river), taken.count(True), melds)
        old = self._keys[s]
        if old == key:
            return
        self._keys[s] = key
        block = self._public[s]
        if old is not None and old[0] + 1 == key[0] and old[1:] == key[1:]:
            # the common step: one more (unclaimed) discard
            t = river[-1]
            counts = self._discarded[s]
            counts[t] += 1
            if counts[t] <= 4:
                block[3 + counts[t], t] = 1.0
            block[8] = 0.0
            block[8, t] = 1.0
            block[9, t] = key[0] / RIVER_SCALE
            self._pubvis[1, t] += 1
            return
        melded = [0] * 34
        discarded = [0] * 34
        position = [0.0] * 34
        for m in melds:
            for t in m.tiles:
                melded[t] += 1
        for i, t in enumerate(river):
            discarded[t] += 1
            position[t] = (i + 1) / RIVER_SCALE
        counts2 = np.array((melded, discarded), dtype=np.int16)
        block[0:8] = (counts2[:, None, :] >= _THRESH[None]).reshape(8, 34)
        block[8] = 0.0
        if river:
            block[8, river[-1]] = 1.0
        block[9] = position
        self._discarded[s] = discarded
        self._pubvis[1] = self._recount(src)  # rare: claims, kongs, a new hand

    @staticmethod
    def _recount(src: _Source) -> npt.NDArray[np.int16]:
        visible = [0] * 34
        for s in range(4):
            for m in src.melds[s]:
                for tile in m.tiles:
                    visible[tile] += 1
            for k, gone in zip(src.rivers[s], src.taken[s], strict=True):
                if not gone:
                    visible[k] += 1
        return np.array(visible, dtype=np.int16)

    def encode(
        self,
        state: HandState | _Source,
        seat: int,
        match_scores: Sequence[float] | None = None,
        *,
        own: Sequence[int] | None = None,
        concealed_counts: Sequence[int] | None = None,
    ) -> npt.NDArray[np.float32]:
        """The planes of ``seat`` (equal to ``observation(state.view(seat))`` for a HandState)."""
        if state is not self._state:
            self._reset(state)
        for s in range(4):
            self._refresh(state, s)
        if own is None:
            own = state.hands[seat]  # type: ignore[union-attr]
        if concealed_counts is None:
            concealed_counts = [sum(h) for h in state.hands]  # type: ignore[union-attr]
        rot = _ROTATIONS[seat]
        obs = np.empty((NUM_PLANES, 34), dtype=np.float32)
        both = np.array(own, dtype=np.int16) + self._pubvis
        obs[0:8] = (both[:, None, :] >= _OWN_AND_VISIBLE_THRESH).reshape(8, 34)
        np.take(
            self._public, rot, axis=0, out=obs[_SEATS : _SEATS + 40].reshape(4, _SEAT_BLOCK, 34)
        )
        obs[_DRAWN : _PENDING + 1] = 0.0
        phase = state.phase
        if seat == state.current and phase is Phase.TURN and state.last_drawn >= 0:
            obs[_DRAWN, state.last_drawn] = 1.0
        if phase is Phase.CLAIM or phase is Phase.ROB:
            obs[_PENDING, state.pending_tile] = 1.0
        scalars = [0.0] * _NUM_SCALARS
        scalars[seat] = 1.0
        scalars[_S_PREVAILING + int(state.prevailing_wind)] = 1.0
        scalars[_S_DEALER + (-seat) % 4] = 1.0
        bonus = state.bonus
        for r in range(4):
            s = (seat + r) % 4
            scalars[_S_BONUS + r] = len(bonus[s]) / 8.0
            scalars[_S_CONCEALED + r] = concealed_counts[s] / 14.0
            if match_scores is not None:
                scalars[_S_SCORE + r] = float(match_scores[s]) / 256.0
        for b in bonus[seat]:
            scalars[_S_OWN_BONUS + (int(b) - 34)] = 1.0
        scalars[_S_TILES] = state.tiles_left / 144.0
        phase_row = _S_PHASE.get(phase)
        if phase_row is not None:
            scalars[_S_PHASE_BASE + phase_row] = 1.0
        obs[_SCALARS:] = np.array(scalars, dtype=np.float32)[:, None]
        return obs


class _ViewSource:
    """A :class:`PlayerView` presented as an encoder source (public facts + own tiles only)."""

    __slots__ = ("bonus", "current", "last_drawn", "melds", "pending_tile", "phase",
                 "prevailing_wind", "rivers", "taken", "tiles_left")  # fmt: skip

    def __init__(self, view: PlayerView) -> None:
        self.rivers = view.discards
        self.taken = view.claimed
        self.melds = view.melds
        self.bonus = view.bonus
        self.current = int(view.seat) if view.last_drawn is not None else int(view.current)
        self.last_drawn = -1 if view.last_drawn is None else int(view.last_drawn)
        self.pending_tile = -1 if view.pending_tile is None else int(view.pending_tile)
        self.prevailing_wind = view.prevailing_wind
        self.phase = view.phase
        self.tiles_left = view.tiles_left


def observation(
    view: PlayerView, match_scores: Sequence[float] | None = None
) -> npt.NDArray[np.float32]:
    """The feature planes (``float32``, shape ``(NUM_PLANES, 34)``) of ``view``; see :data:`PLANES`.

    ``match_scores`` (by seat of this hand) fill the score planes; zeros when omitted.
    """
    own = [0] * 34
    for t in view.concealed:
        own[t] += 1
    return StateEncoder().encode(
        _ViewSource(view),
        int(view.seat),
        match_scores,
        own=own,
        concealed_counts=view.concealed_counts,
    )


def oracle_observation(
    state: HandState, seat: int, match_scores: Sequence[float] | None = None
) -> npt.NDArray[np.float32]:
    """Full-information planes for training only: the seat's planes, every other seat's concealed
    tiles (relative order) and the tiles still in the wall. Never give this to a playing bot."""
    base = observation(state.view(Wind(seat)), match_scores)
    extra = np.zeros((len(_ORACLE_EXTRA), 34), dtype=np.float32)
    for i, r in enumerate((1, 2, 3)):
        s = (seat + r) % 4
        counts = np.zeros(34, dtype=np.int16)
        for t in state.hand_of(Wind(s)).concealed:
            counts[t] += 1
        extra[4 * i : 4 * i + 4] = counts >= _THRESH
    wall = np.zeros(34, dtype=np.int16)
    for k in state.wall[state.head : state.tail]:
        if k < 34:
            wall[k] += 1
    extra[12:16] = np.minimum(wall, 4) >= _THRESH
    return np.concatenate([base, extra])
