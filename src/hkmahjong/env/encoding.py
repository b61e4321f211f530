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

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from hkmahjong.engine import Action, ActionKind, Event, EventKind, Phase, PlayerView
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
    "mask_and_keys",
    "observation",
    "observation_bounds",
    "oracle_observation",
]

ACTION_SPACE_VERSION: Final = 1
OBSERVATION_VERSION: Final = 1
NUM_ACTIONS: Final = 110
CONCEALED_KONG_BASE: Final = 34
ADDED_KONG_BASE: Final = 68
CHOW_LOW, CHOW_MID, CHOW_HIGH = 102, 103, 104
PUNG_INDEX, KONG_INDEX, WIN_INDEX, BONUS_WIN_INDEX, PASS_INDEX = 105, 106, 107, 108, 109

_INT8: Final = np.dtype(np.int8)
_PLAIN_INDEX: Final = {
    ActionKind.PUNG: PUNG_INDEX,
    ActionKind.KONG: KONG_INDEX,
    ActionKind.WIN: WIN_INDEX,
    ActionKind.SELF_DRAW: WIN_INDEX,
    ActionKind.BONUS_WIN: BONUS_WIN_INDEX,
    ActionKind.PASS: PASS_INDEX,
}


def _build_index_of_action() -> dict[Action, int]:
    """Flat index of every non-chow Action (the engine interns one object per action, hashed and
    compared by identity: a dict lookup is a pointer hash)."""
    from hkmahjong.tiles import Tile

    table: dict[Action, int] = {}
    for k in range(34):
        table[Action.discard(Tile(k))] = k
        table[Action.concealed_kong(Tile(k))] = CONCEALED_KONG_BASE + k
        table[Action.added_kong(Tile(k))] = ADDED_KONG_BASE + k
    for kind, index in _PLAIN_INDEX.items():
        table[Action.plain(kind)] = index
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
    mask, keys = mask_and_keys(legal, pending_tile)
    return mask, {i: a for i, a in zip(keys, legal, strict=True) if i >= 0}


def _offered_index(action: Action, pending_tile: int | None) -> int:
    """The flat index of ``action``, or −1 for ``false_win`` (never offered by the env)."""
    if action.kind is ActionKind.FALSE_WIN:
        return -1
    index = _INDEX_OF_ACTION.get(action)
    return action_index(action, pending_tile) if index is None else index


def mask_and_keys(
    legal: Sequence[Action], pending_tile: int | None = None
) -> tuple[npt.NDArray[np.int8], list[int]]:
    """The legal-action mask and the flat index of each action of ``legal`` (−1 for one the env
    does not offer: ``false_win``)."""
    cells = bytearray(NUM_ACTIONS)
    try:
        table = _INDEX_OF if pending_tile is None else _WINDOW_INDEX_OF[pending_tile]
        keys = list(map(table, legal))
    except KeyError:  # a false_win (−1) or an action outside the tables
        keys = [_offered_index(a, pending_tile) for a in legal]
        for i in keys:
            if i >= 0:
                cells[i] = 1
        return np.frombuffer(cells, _INT8), keys
    for i in keys:  # (every index found: no −1 to skip)
        cells[i] = 1
    return np.frombuffer(cells, _INT8), keys  # (positional dtype: a keyword costs ~0.4 µs)


def index_action(
    index: int, legal: Sequence[Action], pending_tile: int | None = None, *, who: str = ""
) -> Action:
    """The legal :class:`Action` that flat ``index`` means, given the claimed ``pending_tile``.

    :raises IllegalActionError: naming the index, its meaning and the legal set when it is not legal.
    """
    for a in legal:
        i = _INDEX_OF_ACTION.get(a)
        if i is None and a.kind is not ActionKind.FALSE_WIN:
            i = action_index(a, pending_tile)
        if i == index:
            return a
    legal_text = ", ".join(f"{action_index(a, pending_tile)}={a.text}" for a in legal)
    raise IllegalActionError(
        f"action {index} ({describe_action(index)}) is not legal{' for ' + who if who else ''}; "
        f"legal: {legal_text or 'none (this seat need not act)'}"
    )


_INDEX_OF_ACTION: Final = _build_index_of_action()
_INDEX_OF: Final = _INDEX_OF_ACTION.__getitem__


def _window_index_of(pending: int) -> Callable[[Action], int]:
    """The index lookup of a window on claimed tile ``pending``: the three chows with it too."""
    from hkmahjong.tiles import Tile

    table = dict(_INDEX_OF_ACTION)
    for offset in range(3):  # the chow starting ``offset`` below the claimed tile
        first = pending - offset
        if pending < 27 and first >= 0 and first // 9 == pending // 9 and first % 9 <= 6:
            table[Action.chow(Tile(first))] = CHOW_LOW + offset
    return table.__getitem__


_WINDOW_INDEX_OF: Final = [_window_index_of(t) for t in range(34)]


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


PLANES: Final[tuple[str, ...]] = tuple(_plane_names())
"""Names of the observation planes, in order. Each plane has 34 values (one per tile kind);
scalar features are broadcast over the 34 columns. ``seatR`` is relative to the observer
(0 = self, 1 = 下家, 2 = 對家, 3 = 上家). ``visible`` counts own concealed tiles, every meld and
every unclaimed discard. ``discard_position`` holds (index in that seat's river + 1) / 32 of the
kind's latest discard."""
NUM_PLANES: Final = len(PLANES)
_ORACLE_EXTRA: Final = [f"seat{r}_concealed>={k}" for r in (1, 2, 3) for k in range(1, 5)] + [
    f"wall>={k}" for k in range(1, 5)
]
NUM_ORACLE_PLANES: Final = NUM_PLANES + len(_ORACLE_EXTRA)
RIVER_SCALE: Final = 32.0
_P: Final = {name: i for i, name in enumerate(PLANES)}
_THRESH: Final = np.arange(1, 5, dtype=np.int16).reshape(4, 1)
_SEAT_BLOCK: Final = 10
_SEATS: Final = _P["seat0_melds>=1"]
_DRAWN: Final = _P["own_last_drawn"]
_PENDING: Final = _P["pending_tile"]
_SCALARS: Final = _P["seat_wind=E"]
_NUM_SCALARS: Final = NUM_PLANES - _SCALARS
_S_PREVAILING: Final = _P["prevailing_wind=E"] - _SCALARS
_S_DEALER: Final = _P["dealer_is_seat0"] - _SCALARS
_S_BONUS: Final = _P["seat0_bonus_count/8"] - _SCALARS
_S_OWN_BONUS: Final = _P["own_bonus_1f"] - _SCALARS
_S_SCORE: Final = _P["seat0_score/256"] - _SCALARS
_S_TILES: Final = _P["tiles_left/144"] - _SCALARS
_S_PHASE: Final = {Phase.TURN: 0, Phase.CLAIM: 1, Phase.ROB: 2}
_S_PHASE_BASE: Final = _P["phase=turn"] - _SCALARS
_S_CONCEALED: Final = _P["seat0_concealed_count/14"] - _SCALARS


def observation_bounds(
    score_limit: float = math.inf,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Per-plane bounds of the observation: every plane lies in [0, 1] except the discard
    positions (at most 2: a river never holds 64 tiles) and the match scores, which lie within
    ``±score_limit`` jade (divided by 256 as the planes hold them; the envs pass the most a seat
    can win or pay in an episode and clip to it)."""
    low = np.zeros((NUM_PLANES, 34), dtype=np.float32)
    high = np.ones((NUM_PLANES, 34), dtype=np.float32)
    for r in range(4):
        high[_P[f"seat{r}_discard_position/32"]] = 2.0
        low[_P[f"seat{r}_score/256"]] = -score_limit / 256.0
        high[_P[f"seat{r}_score/256"]] = score_limit / 256.0
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


def _reference_planes(
    src: _Source,
    seat: int,
    match_scores: Sequence[float] | None,
    own: Sequence[int],
    concealed_counts: Sequence[int],
) -> npt.NDArray[np.float32]:
    """The definition of the planes (``OBSERVATION_VERSION`` 1), computed from scratch."""
    obs = np.zeros((NUM_PLANES, 34), dtype=np.float32)
    public = [0] * 34
    for r in range(4):
        s = (seat + r) % 4
        melded = [0] * 34
        discarded = [0] * 34
        position = [0.0] * 34
        for m in src.melds[s]:
            for tile in m.tiles:
                melded[tile] += 1
                public[tile] += 1
        river = src.rivers[s]
        for i, (t, gone) in enumerate(zip(river, src.taken[s], strict=True)):
            discarded[t] += 1
            position[t] = (i + 1) / RIVER_SCALE
            if not gone:
                public[t] += 1
        base = _SEATS + _SEAT_BLOCK * r
        counts = np.array((melded, discarded), dtype=np.int16)
        obs[base : base + 8] = (counts[:, None, :] >= _THRESH[None]).reshape(8, 34)
        if river:
            obs[base + 8, river[-1]] = 1.0
        obs[base + 9] = position
    own_counts = np.array(own, dtype=np.int16)
    obs[0:4] = own_counts >= _THRESH
    obs[4:8] = own_counts + np.array(public, dtype=np.int16) >= _THRESH
    phase = src.phase
    if seat == src.current and phase is Phase.TURN and src.last_drawn >= 0:
        obs[_DRAWN, src.last_drawn] = 1.0
    if phase is Phase.CLAIM or phase is Phase.ROB:
        obs[_PENDING, src.pending_tile] = 1.0
    scalars = [0.0] * _NUM_SCALARS
    scalars[seat] = 1.0
    scalars[_S_PREVAILING + int(src.prevailing_wind)] = 1.0
    scalars[_S_DEALER + (-seat) % 4] = 1.0
    bonus = src.bonus
    for r in range(4):
        s = (seat + r) % 4
        scalars[_S_BONUS + r] = len(bonus[s]) / 8.0
        scalars[_S_CONCEALED + r] = concealed_counts[s] / 14.0
        if match_scores is not None:
            scalars[_S_SCORE + r] = float(match_scores[s]) / 256.0
    for b in bonus[seat]:
        scalars[_S_OWN_BONUS + (int(b) - 34)] = 1.0
    scalars[_S_TILES] = src.tiles_left / 144.0
    phase_row = _S_PHASE.get(phase)
    if phase_row is not None:
        scalars[_S_PHASE_BASE + phase_row] = 1.0
    obs[_SCALARS:] = np.array(scalars, dtype=np.float32)[:, None]
    return obs


# --- the env's fast encoder ----------------------------------------------------------------------
# Every observation is gathered with one ``take`` from the rows of one float32 table. Shared rows
# hold the public facts by absolute seat (each seat's 10-plane block, bonus and concealed counts,
# match score) and the planes every seat sees alike (claimed tile, tiles left, phase); private rows
# hold each observer's own and visible counts and its last draw; constant rows hold every value a
# broadcast scalar can take. Each observer keeps an index of 86 row numbers into the table.
_W: Final = 34  # cells in one plane
_T_BLOCKS: Final = 0  # 4 × 10 rows: seat blocks, by absolute seat
_T_ZERO: Final = 40
_T_ONE: Final = 41
_T_PENDING: Final = 42
_T_TILES: Final = 43
_T_PHASE: Final = 44  # 3 rows: turn, claim, rob
_T_SCORES: Final = 47  # 4 rows, by absolute seat
_T_BONUS: Final = 51  # 4 rows, by absolute seat
_T_CONCEALED: Final = 55  # 4 rows, by absolute seat
_T_PRIVATE: Final = 59  # 9 rows per observer: own ≥1…4, visible ≥1…4, own last draw
_PRIVATE_ROWS: Final = 9
_T_TILES_OF: Final = _T_PRIVATE + 4 * _PRIVATE_ROWS  # constant rows: tiles_left / 144 for 0…144
_T_BONUS_OF: Final = _T_TILES_OF + 145  # count / 8 for 0…8 (the tile set has 8 bonus tiles)
_T_CONCEALED_OF: Final = _T_BONUS_OF + 9  # count / 14 for 0…14
_T_ROWS: Final = _T_CONCEALED_OF + 15
_PHASE_ROW: Final = {phase: _T_PHASE + i for phase, i in _S_PHASE.items()}
_DISCARD: Final = EventKind.DISCARD
_DRAW: Final = EventKind.DRAW
_NO_PLANE_CHANGE: Final = frozenset(
    (EventKind.DECISION, EventKind.DECLINE_BONUS_WIN, EventKind.EXHAUSTIVE_DRAW, EventKind.HAND_END)
)
"""Events that move no tile (the phase, read from the state, is all that changes)."""
_CLAIM: Final = EventKind.CLAIM
_BONUS: Final = EventKind.BONUS
_TURN_PHASE: Final = Phase.TURN
_CLAIM_PHASE: Final = Phase.CLAIM
_ROB_PHASE: Final = Phase.ROB
_ROW: Final = [slice(row * _W, (row + 1) * _W) for row in range(_T_ROWS)]
_BLOCK_CELL: Final = [(_T_BLOCKS + _SEAT_BLOCK * s) * _W for s in range(4)]
_LAST_CELL: Final = 8 * _W  # within a seat block: the last-discard plane
_POSITION_CELL: Final = 9 * _W  # the discard-position plane
_CONCEALED_ROW: Final = [_ROW[_T_CONCEALED + s] for s in range(4)]
_CONCEALED_OF_ROW: Final = [_ROW[_T_CONCEALED_OF + n] for n in range(15)]
_BONUS_ROW: Final = [_ROW[_T_BONUS + s] for s in range(4)]
_BONUS_OF_ROW: Final = [_ROW[_T_BONUS_OF + n] for n in range(9)]
_PLANE_OWN_BONUS: Final = _SCALARS + _S_OWN_BONUS
_ROTATED: Final = [[(seat + r) % 4 for r in range(4)] for seat in range(4)]


def _index(seat: int, prevailing: int) -> npt.NDArray[np.intp]:
    """The table row of each plane of ``seat`` (own bonus tiles: none yet)."""
    private = _T_PRIVATE + _PRIVATE_ROWS * seat
    idx = np.full(NUM_PLANES, _T_ZERO, dtype=np.intp)
    idx[0:8] = range(private, private + 8)
    idx[_DRAWN] = private + 8
    idx[_PENDING] = _T_PENDING
    for r, s in enumerate(_ROTATED[seat]):
        start = _SEATS + _SEAT_BLOCK * r
        idx[start : start + _SEAT_BLOCK] = range(_SEAT_BLOCK * s, _SEAT_BLOCK * (s + 1))
        idx[_SCALARS + _S_SCORE + r] = _T_SCORES + s
        idx[_SCALARS + _S_BONUS + r] = _T_BONUS + s
        idx[_SCALARS + _S_CONCEALED + r] = _T_CONCEALED + s
    for plane in (seat, _S_PREVAILING + prevailing, _S_DEALER + (-seat) % 4):
        idx[_SCALARS + plane] = _T_ONE
    idx[_SCALARS + _S_TILES] = _T_TILES
    for phase, row in _PHASE_ROW.items():
        idx[_SCALARS + _S_PHASE_BASE + _S_PHASE[phase]] = row
    return idx


_INDEX: Final = [[_index(seat, prevailing) for prevailing in range(4)] for seat in range(4)]
_INDEX_MV: Final = [[memoryview(idx) for idx in by_wind] for by_wind in _INDEX]  # type: ignore[arg-type]


def _flat(buf: npt.NDArray[np.float32]) -> memoryview[float]:
    """A flat float32 memoryview of a C-contiguous buffer (a scalar write ~50 ns, no NumPy call)."""
    return memoryview(buf).cast("B").cast("f")  # type: ignore[arg-type]


_ZERO_PRIVATE: Final = _flat(np.zeros(_PRIVATE_ROWS * _W, dtype=np.float32))
_OWN_CELLS: Final = [tuple(k * _W for k in range(min(n, 4))) for n in range(19)]
"""Per count: the cell offsets (within a seat's private rows) of the ``own >= k`` planes it sets."""
_VISIBLE_CELLS: Final = [tuple((4 + k) * _W for k in range(min(n, 4))) for n in range(19)]
"""Per count: the offsets of the ``visible >= k`` planes it sets."""


def _put_count(mv: memoryview[float], base: int, t: int, old: int, new: int) -> None:
    """Move the four ``count >= k`` cells of kind ``t`` (planes from cell ``base``) from ``old``
    to ``new``."""
    if new > old:
        for k in range(old, min(new, 4)):
            mv[base + k * _W + t] = 1.0
    else:
        for k in range(new, min(old, 4)):
            mv[base + k * _W + t] = 0.0


class _Observer:
    """One seat's row index into the table and what its private rows were built from."""

    __slots__ = ("bonus", "cell", "checks", "drawn", "idx", "idxmv", "own", "private", "seat",
                 "state")  # fmt: skip

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.checks = -1
        self.private = _T_PRIVATE + _PRIVATE_ROWS * seat
        self.cell = self.private * _W
        """First cell of the private rows."""
        self.idx = np.zeros(NUM_PLANES, dtype=np.intp)
        """Table row of each plane."""
        self.idxmv = memoryview(self.idx)  # type: ignore[arg-type]
        self.state: object = None
        self.own = [0] * 34
        """Own count by kind, as in the private rows."""
        self.drawn = -1
        self.bonus: list[int] = []


class StateEncoder:
    """Builds the observation planes of every seat of one ``HandState`` on the env's hot path.

    Nothing is rebuilt from scratch on a step; only the cells that moved are written. With
    ``follow_events=True`` (the env) the encoder follows the events of each ``apply``
    (:meth:`applied`): a discard writes four cells of its seat's block and one visible-count cell
    per seat, a draw two cells and a row copy, a claim or a bonus tile the cells of the tiles that
    moved; a kong or a win, like the first look at a hand, makes the next :meth:`encode` compare the
    whole state (river lengths, meld lists, claimed flags, hands, bonus tiles) with what the planes
    hold. Without it every :meth:`encode` makes that comparison. The broadcast scalar planes point
    at constant rows (one per value). ``encode`` gathers the seat's 86 rows with one NumPy
    ``take``: the result is a new array that the encoder never touches again.

    The definition of the planes is :func:`observation` (from a ``PlayerView``); ``tests/env``
    checks after every action of random games, for every seat, that both agree — the env cannot
    leak what a view hides.
    """

    __slots__ = ("_bonus", "_cc", "_checks", "_dirty", "_disc", "_follow", "_last",
                 "_melded", "_ml", "_mv", "_observers", "_pending", "_phase", "_pubvis", "_rl",
                 "_scores", "_state", "_table", "_tiles", "_tk", "_visible")  # fmt: skip

    def __init__(self, *, follow_events: bool = False) -> None:
        """``follow_events=True``: the caller passes the events of every ``apply`` to
        :meth:`applied` (the env does); otherwise each :meth:`encode` compares the whole state."""
        self._follow = follow_events
        self._checks = 0
        table = np.zeros((_T_ROWS, _W), dtype=np.float32)
        table[_T_ONE] = 1.0
        table[_T_TILES_OF : _T_TILES_OF + 145] = (np.arange(145) / 144.0)[:, None]
        table[_T_BONUS_OF : _T_BONUS_OF + 9] = (np.arange(9) / 8.0)[:, None]
        table[_T_CONCEALED_OF : _T_CONCEALED_OF + 15] = (np.arange(15) / 14.0)[:, None]
        self._table = table
        self._mv = _flat(table)
        self._observers = [_Observer(seat) for seat in range(4)]
        self._scores: list[float] | None = None
        """The match scores the score rows hold."""
        self._reset(None)

    def _reset(self, state: object) -> None:
        self._state = state
        self._dirty = True
        self._table[:_T_SCORES] = 0.0  # (the score rows stay: they are per match, not per hand)
        self._table[_T_BONUS:_T_TILES_OF] = 0.0
        self._table[_T_ONE] = 1.0
        self._pending = -1
        self._phase: Phase | None = None
        self._tiles = 0
        self._cc = [-1] * 4
        self._bonus = [0, 0, 0, 0]
        self._rl = [0] * 4
        """River length already in each seat's block."""
        self._ml: list[list[Meld]] = [[], [], [], []]
        """Each seat's melds as counted in its block."""
        self._tk: list[list[bool]] = [[], [], [], []]
        """Each seat's claimed flags as counted in ``_pubvis``."""
        self._disc = [[0] * 34 for _ in range(4)]
        self._melded = [[0] * 34 for _ in range(4)]
        self._last = [-1] * 4
        self._pubvis = [0] * 34
        """Every meld tile and unclaimed discard of every seat, by kind."""
        self._visible: list[tuple[list[int], int]] = []
        """Own counts and first visible-plane cell of each observer whose private rows follow
        this state."""
        for ob in self._observers:
            ob.state = None

    def _public(self, t: int, delta: int) -> None:
        """The public count of kind ``t`` moves by ``delta``: move every live seat's visible cell."""
        c = self._pubvis[t]
        self._pubvis[t] = c + delta
        for own, cell in self._visible:
            n = own[t]
            _put_count(self._mv, cell, t, n + c, n + c + delta)

    def _river_add(self, s: int, t: int) -> None:
        """Seat ``s`` discarded a ``t`` (unclaimed so far): its block's count, position and last
        discard cells, and every live seat's visible count of ``t``."""
        mv = self._mv
        n = self._rl[s] + 1
        self._rl[s] = n
        counts = self._disc[s]
        c = counts[t] + 1
        counts[t] = c
        base = _BLOCK_CELL[s]
        if c <= 4:
            mv[base + (3 + c) * _W + t] = 1.0
        mv[base + 9 * _W + t] = n / RIVER_SCALE
        last = self._last[s]
        if last >= 0:
            mv[base + 8 * _W + last] = 0.0
        mv[base + 8 * _W + t] = 1.0
        self._last[s] = t
        self._tk[s].append(False)
        pubvis = self._pubvis
        c = pubvis[t]  # counted as unclaimed: a claimed one shows in ``taken``
        pubvis[t] = c + 1
        for own, cell in self._visible:
            v = own[t] + c
            if v < 4:
                mv[cell + v * _W + t] = 1.0

    def _sync(self, state: HandState) -> None:
        """Bring the shared rows (and the live seats' visible counts) up to ``state``."""
        melds, rivers, taken = state.melds, state.rivers, state.taken
        if melds != self._ml:  # a claim or a kong
            for s in range(4):
                if melds[s] != self._ml[s]:
                    self._melds_moved(s, melds[s])
        lens = list(map(len, rivers))
        if lens != self._rl:
            for s in range(4):
                n = lens[s]
                rl = self._rl[s]
                if n == rl:
                    continue
                if n < rl:  # not a step of this hand: start over
                    self._reset(state)
                    self._sync(state)
                    return
                river = rivers[s]
                for i in range(rl, n):  # the common step: one more discard
                    self._river_add(s, river[i])
        if taken != self._tk:  # a discard claimed (or won on)
            for s in range(4):
                old = self._tk[s]
                new = taken[s]
                if new != old:
                    river = rivers[s]
                    for i, gone in enumerate(new):
                        if gone != old[i]:
                            self._public(river[i], -1 if gone else 1)
                    self._tk[s] = list(new)
        self._dirty = False  # (encode sets it again as needed)
        self._follow_phase(state)
        mv = self._mv
        hands, cc = state.hands, self._cc
        for s in range(4):
            c = sum(hands[s])
            if c != cc[s]:
                cc[s] = c
                src = (_T_CONCEALED_OF + c) * _W
                dst = (_T_CONCEALED + s) * _W
                mv[dst : dst + _W] = mv[src : src + _W]
        bonus = list(map(len, state.bonus))
        if bonus != self._bonus:
            for s in range(4):
                src = (_T_BONUS_OF + bonus[s]) * _W
                dst = (_T_BONUS + s) * _W
                mv[dst : dst + _W] = mv[src : src + _W]
            self._bonus = bonus
        self._checks += 1  # every seat re-checks its own hand

    def applied(self, state: HandState, events: Sequence[Event]) -> None:
        """Follow the ``events`` of one ``state.apply`` (only for an encoder made with
        ``follow_events=True``, which must then see every apply). Discards, draws, claims and bonus
        tiles are followed in place; anything else (a kong, a win) makes the next
        :meth:`encode` compare the whole state again."""
        if state is not self._state or self._dirty:
            self._dirty = True
            return
        mv, pubvis, cc = self._mv, self._pubvis, self._cc
        drew = False
        for ev in events:
            kind = ev.kind
            if kind is _DISCARD:
                s: int = ev.seat  # type: ignore[assignment]
                t: int = ev.tile  # type: ignore[assignment]
                ob = self._observers[s]
                skip: list[int] | None = None
                if ob.state is state:
                    # own count −1; its visible count stays (own −1, public +1)
                    skip = own = ob.own
                    h = own[t] - 1
                    own[t] = h
                    mv[ob.cell + h * _W + t] = 0.0
                # the river (as _river_add, inlined: the hot path)
                rl = self._rl
                n = rl[s] + 1
                rl[s] = n
                counts = self._disc[s]
                c = counts[t] + 1
                counts[t] = c
                base = _BLOCK_CELL[s]
                if c <= 4:
                    mv[base + (3 + c) * _W + t] = 1.0
                mv[base + _POSITION_CELL + t] = n / RIVER_SCALE
                last = self._last[s]
                if last >= 0:
                    mv[base + _LAST_CELL + last] = 0.0
                mv[base + _LAST_CELL + t] = 1.0
                self._last[s] = t
                self._tk[s].append(False)
                c = pubvis[t]  # counted as unclaimed: a claimed one shows in ``taken``
                pubvis[t] = c + 1
                for own, cell in self._visible:
                    if own is not skip:
                        v = own[t] + c
                        if v < 4:
                            mv[cell + v * _W + t] = 1.0
                k = cc[s] - 1
                cc[s] = k
                mv[_CONCEALED_ROW[s]] = mv[_CONCEALED_OF_ROW[k]]
            elif kind is _DRAW:
                s = ev.seat  # type: ignore[assignment]
                t = ev.tile  # type: ignore[assignment]
                drew = True
                if t >= 34:  # a bonus tile: replaced (a BONUS event follows)
                    continue
                ob = self._observers[s]
                if ob.state is state:
                    own = ob.own
                    h = own[t]
                    own[t] = h + 1
                    if h < 4:
                        mv[ob.cell + h * _W + t] = 1.0
                    v = h + pubvis[t]
                    if v < 4:
                        mv[ob.cell + (4 + v) * _W + t] = 1.0
                k = cc[s] + 1
                cc[s] = k
                mv[_CONCEALED_ROW[s]] = mv[_CONCEALED_OF_ROW[k]]
            elif kind is _CLAIM:
                self._claimed(ev)
            elif kind is _BONUS:
                s = ev.seat  # type: ignore[assignment]
                bonus = list(self._bonus)
                bonus[s] += 1
                mv[_BONUS_ROW[s]] = mv[_BONUS_OF_ROW[bonus[s]]]
                self._bonus = bonus  # a new list: each seat re-reads its own bonus tiles
            elif kind not in _NO_PLANE_CHANGE:  # a kong, a win
                self._dirty = True
                return
        # the phase rows; the claimed tile changes only with the phase (each window ends in a turn
        # before the next opens), tiles left only with a draw (a kong is not followed)
        phase = state.phase
        if phase is not self._phase:
            row = _PHASE_ROW.get(self._phase)  # type: ignore[arg-type]
            if row is not None:
                mv[_ROW[row]] = mv[_ROW[_T_ZERO]]
            row = _PHASE_ROW.get(phase)
            if row is not None:
                mv[_ROW[row]] = mv[_ROW[_T_ONE]]
            self._phase = phase
            pending = state.pending_tile if phase is _CLAIM_PHASE or phase is _ROB_PHASE else -1
            if pending != self._pending:
                if self._pending >= 0:
                    mv[_T_PENDING * _W + self._pending] = 0.0
                if pending >= 0:
                    mv[_T_PENDING * _W + pending] = 1.0
                self._pending = pending
        if drew:
            tiles = state.tiles_left
            if tiles != self._tiles:
                mv[_ROW[_T_TILES]] = mv[_ROW[_T_TILES_OF + tiles]]
                self._tiles = tiles

    def _follow_phase(self, state: HandState) -> None:
        """The phase, claimed-tile and tiles-left rows."""
        mv = self._mv
        phase = state.phase
        if phase is not self._phase:
            row = _PHASE_ROW.get(self._phase)  # type: ignore[arg-type]
            if row is not None:
                mv[_ROW[row]] = mv[_ROW[_T_ZERO]]
            row = _PHASE_ROW.get(phase)
            if row is not None:
                mv[_ROW[row]] = mv[_ROW[_T_ONE]]
            self._phase = phase
        pending = state.pending_tile if phase is _CLAIM_PHASE or phase is _ROB_PHASE else -1
        if pending != self._pending:
            if self._pending >= 0:
                mv[_T_PENDING * _W + self._pending] = 0.0
            if pending >= 0:
                mv[_T_PENDING * _W + pending] = 1.0
            self._pending = pending
        tiles = state.tiles_left
        if tiles != self._tiles:
            mv[_ROW[_T_TILES]] = mv[_ROW[_T_TILES_OF + tiles]]
            self._tiles = tiles

    def _claimed(self, ev: Event) -> None:
        """上 碰 槓: seat ``ev.seat`` took ``ev.source``'s last discard into meld ``ev.meld``.

        The claimed tile stays public (from the river into the meld); each other tile of the meld
        leaves the claimer's hand for the table: public count +1 (every other seat's visible count
        +1), the claimer's own count −1 (its visible count unchanged)."""
        s, d, t, meld = ev.seat, ev.source, ev.tile, ev.meld
        assert s is not None and d is not None and t is not None and meld is not None
        mv, pubvis = self._mv, self._pubvis
        self._tk[d][-1] = True
        tiles = meld.tiles
        melded = self._melded[s]
        base = _BLOCK_CELL[s]
        for x in tiles:
            c = melded[x]
            melded[x] = c + 1
            if c < 4:
                mv[base + c * _W + x] = 1.0
        self._ml[s].append(meld)
        claimer = self._observers[s]
        live = claimer.state is self._state
        from_hand = list(tiles)
        from_hand.remove(t)
        for x in from_hand:
            c = pubvis[x]
            pubvis[x] = c + 1
            for own, cell in self._visible:
                if own is not claimer.own:
                    v = own[x] + c
                    if v < 4:
                        mv[cell + v * _W + x] = 1.0
            if live:
                n = claimer.own[x] - 1
                claimer.own[x] = n
                if n < 4:
                    mv[claimer.cell + n * _W + x] = 0.0
        k = self._cc[s] - len(from_hand)
        self._cc[s] = k
        mv[_CONCEALED_ROW[s]] = mv[_CONCEALED_OF_ROW[k]]

    def _melds_moved(self, s: int, new: Sequence[Meld]) -> None:
        """Seat ``s``'s melds changed (a claim, a kong, a robbed kong): move the counts that did."""
        old = self._ml[s]
        melded = self._melded[s]
        base = (_T_BLOCKS + _SEAT_BLOCK * s) * _W
        for i in range(max(len(old), len(new))):
            before = old[i] if i < len(old) else None
            after = new[i] if i < len(new) else None
            if before is after:
                continue
            for meld, delta in ((before, -1), (after, 1)):
                if meld is not None:
                    for t in meld.tiles:
                        c = melded[t]
                        _put_count(self._mv, base, t, c, c + delta)
                        melded[t] = c + delta
                        self._public(t, delta)
        self._ml[s] = list(new)

    def _start(self, ob: _Observer, state: HandState, seat: int) -> None:
        """Make ``ob`` follow ``state``: its index and private rows built from scratch."""
        ob.state = state
        ob.checks = self._checks
        ob.drawn = -1
        ob.bonus = []
        ob.idxmv[:] = _INDEX_MV[seat][int(state.prevailing_wind)]
        own = ob.own = list(state.hands[seat])
        mv, cell, pubvis = self._mv, ob.cell, self._pubvis
        mv[cell : cell + _PRIVATE_ROWS * _W] = _ZERO_PRIVATE
        for t in range(34):  # scalar writes: cheaper than NumPy calls for ~14 tiles
            n = own[t]
            v = n + pubvis[t]
            if v:
                for off in _OWN_CELLS[n]:
                    mv[cell + off + t] = 1.0
                for off in _VISIBLE_CELLS[v]:
                    mv[cell + off + t] = 1.0
        self._visible.append((own, cell + 4 * _W))

    def _own_check(self, ob: _Observer, state: HandState, seat: int) -> None:
        """Bring ``ob``'s own and visible cells to its hand: the kinds of its last draw and last
        discard first, then every kind if the hand still differs."""
        ob.checks = self._checks
        hand, own = state.hands[seat], ob.own
        if hand == own:
            return
        mv, pubvis, base = self._mv, self._pubvis, ob.private * _W
        river = state.rivers[seat]
        kinds: Sequence[int] = (state.last_drawn, river[-1] if river else -1)
        for _ in range(2):
            for t in kinds:
                if t < 0:
                    continue
                n = own[t]
                h = hand[t]
                if h == n:
                    continue
                c = pubvis[t]
                if h == n + 1 and n + c < 4:  # a draw
                    mv[base + n * _W + t] = 1.0
                    mv[base + (4 + n + c) * _W + t] = 1.0
                elif h == n - 1 and n + c <= 4:  # a discard
                    mv[base + h * _W + t] = 0.0
                    mv[base + (4 + h + c) * _W + t] = 0.0
                else:
                    _put_count(mv, base, t, n, h)
                    _put_count(mv, base + 4 * _W, t, n + c, h + c)
                own[t] = h
            if hand == own:
                break
            kinds = range(34)

    def observe(
        self,
        state: HandState,
        seat: Wind,
        match_scores: list[float] | None,
        stamp: int,
        shown_at: list[int],
        shown_legal: list[list[Action]],
        shown_keys: list[list[int]],
    ) -> dict[str, npt.NDArray[Any]]:
        """The env's observation of ``seat``: ``{"observation": planes, "action_mask": mask}`` (as
        :meth:`encode` and :func:`mask_and_keys`), noting in ``shown_*[seat]`` the ``stamp`` and
        the legal actions behind the mask with their indices. One call for the env's hot path
        (one native call when this module is compiled)."""
        legal = state.legal_actions(seat)
        phase = state.phase
        mask, keys = mask_and_keys(
            legal, state.pending_tile if phase is _CLAIM_PHASE or phase is _ROB_PHASE else None
        )
        s = int(seat)
        shown_at[s] = stamp
        shown_legal[s] = legal
        shown_keys[s] = keys
        return {"observation": self.encode(state, s, match_scores), "action_mask": mask}

    def play(
        self,
        state: HandState,
        seat: Wind,
        index: int,
        stamp: int,
        shown_at: list[int],
        shown_legal: list[list[Action]],
        shown_keys: list[list[int]],
        played: list[tuple[Wind, Action]],
    ) -> int:
        """The env's step: apply the action behind flat ``index`` of the mask :meth:`observe`
        showed ``seat`` at ``stamp`` (noted in ``played``) and follow its events. Returns the
        first seat to act next, −1 when the hand is over, or −2 when ``index`` is not one of that
        mask's (a stale mask or an illegal index: nothing applied, the caller decides)."""
        s = int(seat)
        if shown_at[s] != stamp:
            return -2
        keys = shown_keys[s]
        if index not in keys:
            return -2
        action = shown_legal[s][keys.index(index)]
        played.append((seat, action))
        self.applied(state, state.apply(seat, action))
        if state.is_over:
            return -1
        return int(state.to_act[0])

    def encode(
        self, state: HandState, seat: int, match_scores: Sequence[float] | None = None
    ) -> npt.NDArray[np.float32]:
        """The planes of ``seat``: equal to ``observation(state.view(seat), match_scores)``; a new
        array each call (safe to keep: the encoder never writes to it again)."""
        if state is not self._state:
            self._reset(state)
        if self._dirty:
            self._sync(state)
            self._dirty = not self._follow
        ob = self._observers[seat]
        if ob.state is not state:
            self._start(ob, state, seat)
        if ob.checks != self._checks:  # after a full compare: the own hand too
            self._own_check(ob, state, seat)
        phase = state.phase
        drawn = state.last_drawn if phase is _TURN_PHASE and state.current == seat else -1
        if drawn != ob.drawn:
            mv = self._mv
            cell = (ob.private + 8) * _W
            if ob.drawn >= 0:
                mv[cell + ob.drawn] = 0.0
            if drawn >= 0:
                mv[cell + drawn] = 1.0
            ob.drawn = drawn
        if self._bonus is not ob.bonus:  # own bonus tiles (one-hot rows)
            idx = ob.idx
            idx[_PLANE_OWN_BONUS : _PLANE_OWN_BONUS + 8] = _T_ZERO
            for b in state.bonus[seat]:
                idx[_PLANE_OWN_BONUS + (int(b) - 34)] = _T_ONE
            ob.bonus = self._bonus
        if match_scores is not None and type(match_scores) is not list:
            match_scores = list(match_scores)
        if match_scores != self._scores:
            scores = self._table[_T_SCORES : _T_SCORES + 4]
            scores[:] = 0.0
            if match_scores is not None:
                scores[:] = np.array([float(x) / 256.0 for x in match_scores], np.float32)[:, None]
            self._scores = None if match_scores is None else list(match_scores)
        return self._table.take(ob.idx, 0)  # (axis 0, positional: a keyword costs ~0.2 µs)


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
    return _reference_planes(
        _ViewSource(view), int(view.seat), match_scores, own, view.concealed_counts
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
