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
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.errors import IllegalActionError

if TYPE_CHECKING:
    from hkmahjong.engine.state import HandState

__all__ = [
    "ACTION_SPACE_VERSION",
    "NUM_ACTIONS",
    "NUM_ORACLE_PLANES",
    "NUM_PLANES",
    "OBSERVATION_VERSION",
    "PLANES",
    "action_index",
    "action_mask",
    "describe_action",
    "index_action",
    "observation",
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
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    idx = [action_index(a, pending_tile) for a in legal if a.kind is not ActionKind.FALSE_WIN]
    if idx:
        mask[idx] = 1
    return mask


def index_action(
    index: int, legal: Sequence[Action], pending_tile: int | None = None, *, who: str = ""
) -> Action:
    """The legal :class:`Action` that flat ``index`` means, given the claimed ``pending_tile``.

    :raises IllegalActionError: naming the index, its meaning and the legal set when it is not legal.
    """
    for a in legal:
        if a.kind is not ActionKind.FALSE_WIN and action_index(a, pending_tile) == index:
            return a
    legal_text = ", ".join(f"{action_index(a, pending_tile)}={a.text}" for a in legal)
    raise IllegalActionError(
        f"action {index} ({describe_action(index)}) is not legal{' for ' + who if who else ''}; "
        f"legal: {legal_text or 'none (this seat need not act)'}"
    )


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
    names += ["own_last_drawn", "pending_tile"]
    for r in range(4):
        names += [f"seat{r}_melds>={k}" for k in range(1, 5)]
    for r in range(4):
        names += [f"seat{r}_discards>={k}" for k in range(1, 5)]
    names += [f"seat{r}_last_discard" for r in range(4)]
    names += [f"seat{r}_discard_recency" for r in range(4)]
    names += [f"visible>={k}" for k in range(1, 5)]
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
scalar features are broadcast over the 34 columns. ``seatR`` is relative to the observer."""
NUM_PLANES = len(PLANES)
_ORACLE_EXTRA = [f"seat{r}_concealed>={k}" for r in (1, 2, 3) for k in range(1, 5)] + [
    f"wall>={k}" for k in range(1, 5)
]
NUM_ORACLE_PLANES = NUM_PLANES + len(_ORACLE_EXTRA)
_P = {name: i for i, name in enumerate(PLANES)}
_THRESH = np.arange(1, 5, dtype=np.int16).reshape(4, 1)
_THRESHOLD_ROWS = np.array(
    [[1.0 if c > k else 0.0 for k in range(4)] for c in range(5)], dtype=np.float32
)
"""Row ``c`` holds the four ``count >= 1..4`` flags of a count ``c`` (0–4)."""
_OWN, _MELDS, _DISCARDS, _VISIBLE = (
    0,
    _P["seat0_melds>=1"],
    _P["seat0_discards>=1"],
    _P["visible>=1"],
)
_LAST, _RECENCY = _P["seat0_last_discard"], _P["seat0_discard_recency"]
_SEAT_WIND, _PREVAILING, _DEALER = _P["seat_wind=E"], _P["prevailing_wind=E"], _P["dealer_is_seat0"]
_BONUS_COUNT, _CONCEALED_COUNT = _P["seat0_bonus_count/8"], _P["seat0_concealed_count/14"]
_OWN_BONUS, _SCORE, _TILES_LEFT = _P["own_bonus_1f"], _P["seat0_score/256"], _P["tiles_left/144"]
_PHASE_ROW = {
    Phase.TURN: _P["phase=turn"],
    Phase.CLAIM: _P["phase=claim"],
    Phase.ROB: _P["phase=rob"],
}


def observation(
    view: PlayerView, match_scores: Sequence[float] | None = None
) -> npt.NDArray[np.float32]:
    """The feature planes (``float32``, shape ``(NUM_PLANES, 34)``) of ``view``; see :data:`PLANES`."""
    me = int(view.seat)
    order = [(me + r) % 4 for r in range(4)]
    # ten count vectors: own concealed, melds of seats 0-3, discards of seats 0-3, visible
    counts = [[0] * 34 for _ in range(10)]
    own = counts[0]
    for t in view.concealed:
        own[t] += 1
    visible = counts[9]
    for t in view.concealed:
        visible[t] += 1
    cells: dict[tuple[int, int], float] = {}
    for r, s in enumerate(order):
        melded = counts[1 + r]
        for m in view.melds[s]:
            for t in m.tiles:
                melded[t] += 1
                visible[t] += 1
        river = view.discards[s]
        if river:
            discarded = counts[5 + r]
            n = len(river)
            row = _RECENCY + r
            for i, (t, taken) in enumerate(zip(river, view.claimed[s], strict=True)):
                discarded[t] += 1
                if not taken:
                    visible[t] += 1
                cells[row, t] = (i + 1) / n  # a tile's latest discard wins
            cells[_LAST + r, river[-1]] = 1.0
    if view.last_drawn is not None:
        cells[4, view.last_drawn] = 1.0
    if view.pending_tile is not None:
        cells[5, view.pending_tile] = 1.0
    obs = np.zeros((NUM_PLANES, 34), dtype=np.float32)
    arr = np.minimum(np.array(counts, dtype=np.intp), 4)
    planes = _THRESHOLD_ROWS[arr].transpose(0, 2, 1)  # (10, 4, 34)
    obs[_OWN : _OWN + 4] = planes[0]
    obs[_MELDS : _MELDS + 16] = planes[1:5].reshape(16, 34)
    obs[_DISCARDS : _DISCARDS + 16] = planes[5:9].reshape(16, 34)
    obs[_VISIBLE : _VISIBLE + 4] = planes[9]
    if cells:
        rows, cols = zip(*cells, strict=True)
        obs[rows, cols] = list(cells.values())
    srows = [_SEAT_WIND + me, _PREVAILING + int(view.prevailing_wind), _DEALER + (-me) % 4]
    svals = [1.0, 1.0, 1.0]
    for r, s in enumerate(order):
        srows += [_BONUS_COUNT + r, _CONCEALED_COUNT + r]
        svals += [len(view.bonus[s]) / 8.0, view.concealed_counts[s] / 14.0]
        if match_scores is not None:
            srows.append(_SCORE + r)
            svals.append(float(match_scores[s]) / 256.0)
    for b in view.bonus[me]:
        srows.append(_OWN_BONUS + (int(b) - 34))
        svals.append(1.0)
    srows.append(_TILES_LEFT)
    svals.append(view.tiles_left / 144.0)
    phase_row = _PHASE_ROW.get(view.phase)
    if phase_row is not None:
        srows.append(phase_row)
        svals.append(1.0)
    obs[srows] = np.array(svals, dtype=np.float32)[:, None]
    return obs


def oracle_observation(
    state: HandState, seat: int, match_scores: Sequence[float] | None = None
) -> npt.NDArray[np.float32]:
    """Full-information planes for training only: the seat's planes, every other seat's concealed
    tiles (relative order) and the tiles still in the wall. Never give this to a playing bot."""
    from hkmahjong.tiles import Wind

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
