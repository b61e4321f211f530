"""讀牌 learnt from play: P(a discard deals in to an opponent), per tile and opponent, from a view.

A logistic model over hand-made public features (:func:`tile_features`), fitted by
``tools/fit_danger.py`` on self-play of the existing bots and shipped as
``bots/data/danger_model.json`` (docs/bots.md, "Hand reading learnt from play"). Only the
seat's :class:`~hkmahjong.engine.PlayerView` is read: each opponent's discards (and their order),
whether each was the tile just drawn (摸切) or came from the hand (手切, ``view.from_draw``),
which of them were claimed, their melds and bonus tiles, the tiles left and the copies this seat
can see. No model is fetched from anywhere; pure Python at play time.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from hkmahjong.engine import PlayerView
from hkmahjong.hand import MeldKind
from hkmahjong.tiles import Wind

__all__ = [
    "FEATURE_NAMES",
    "DangerModel",
    "deal_in_probabilities",
    "load_model",
    "opponent_features",
    "tile_features",
]

_BASE = (
    "bias",
    "turns",
    "turns2",
    "exposed",
    "concealed_kongs",
    "bonus",
    "wall",
    "flush_melds",
    "pung_melds",
    "honour_share",
    "te_last3",
    "te_last",
    "since_te",
    "te_last_middle",
    "te_middle6",
    "te_middle_recent",
    "te_last_28",
    "te_last*turns",
    "te_last3*turns",
    "te_last_middle*turns",
    "te_middle6*turns",
)
"""Opponent-level inputs, the same in the 34 rows against one opponent. ``te_*``: 手切 (a discard
from the hand, not the tile just drawn) — among their last three discards, whether their last
discard was one, discards since their last one, whether their latest 手切 was a 3–7 (and whether
that was among their last three discards) or a 2/8, 手切 3–7 tiles among their last six."""
_TILE = (
    "honour",
    "dragon",
    "value_wind",
    "terminal",
    "rank28",
    "middle",
    "unseen",
    "unseen0",
    "genbutsu",
    "recent_genbutsu",
    "suji_full",
    "suji_half",
    "near1",
    "near2",
    "suit_share",
    "suit_melds",
    "flush_same",
    "flush_other",
    "own_pung",
    "early_suit",
    "te_near1",
    "te_near2",
    "te_suit",
)
_CROSSED = (
    "honour",
    "terminal",
    "middle",
    "genbutsu",
    "suji_full",
    "suji_half",
    "unseen",
    "suit_share",
    "flush_same",
    "flush_other",
)
_CROSSED_TURNS = (*_CROSSED, "te_near1", "te_near2")
FEATURE_NAMES: tuple[str, ...] = (
    _BASE
    + _TILE
    + tuple(f"{n}*turns" for n in _CROSSED_TURNS)
    + tuple(f"{n}*exposed" for n in _CROSSED)
)
"""The model's inputs, in order (the data file lists them and must match): the opponent-level
ones first, then the tile-level ones."""

_TILE_AT = {n: i for i, n in enumerate(_TILE)}
_CROSS_AT = tuple(_TILE_AT[n] for n in _CROSSED)
_CROSS_TURNS_AT = tuple(_TILE_AT[n] for n in _CROSSED_TURNS)
_MIDDLE = frozenset(t for t in range(27) if 2 <= t % 9 <= 6)
"""The suited 3–7 kinds."""


def _last_tedashi(from_draw: tuple[bool, ...]) -> int:
    """Index of the most recent 手切 discard in a river (``from_draw`` of it), or -1."""
    for i in range(len(from_draw) - 1, -1, -1):
        if not from_draw[i]:
            return i
    return -1


def opponent_features(view: PlayerView, opp: Wind) -> list[float]:
    """The opponent-level inputs (:data:`_BASE`) for ``opp`` as ``view``'s seat sees them."""
    melds = view.melds[opp]
    river = view.discards[opp]
    turns = len(river)
    exposed = sum(1 for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
    suits = {m.first // 9 for m in melds if m.first < 27}
    honour_melds = any(m.first >= 27 for m in melds)
    flush = len(suits) == 1 and len(melds) >= 1
    pungs = len(melds) >= 2 and all(m.kind is not MeldKind.CHOW for m in melds)
    honours = sum(1 for t in river if t >= 27)
    fd = view.from_draw[opp]
    last = _last_tedashi(fd)
    lt = int(river[last]) if last >= 0 else -1
    te3 = sum(1 for d in fd[-3:] if not d) / 3.0
    te_last = 1.0 if turns and not fd[-1] else 0.0
    since = turns - 1 - last if last >= 0 else turns
    te_mid = 1.0 if lt in _MIDDLE else 0.0
    te_mid6 = (
        sum(1 for t, d in zip(river[-6:], fd[-6:], strict=True) if not d and t in _MIDDLE) / 3.0
    )
    t10 = turns / 10.0
    return [
        1.0,
        t10,
        t10 * t10,
        float(exposed),
        float(len(melds) - exposed),
        len(view.bonus[opp]) / 4.0,
        view.tiles_left / 100.0,
        1.0 if flush or (not suits and honour_melds) else 0.0,
        1.0 if pungs else 0.0,
        honours / turns if turns else 0.0,
        te3,
        te_last,
        min(since, 12) / 6.0,
        te_mid,
        te_mid6,
        1.0 if te_mid and since < 3 else 0.0,
        1.0 if 0 <= lt < 27 and lt % 9 in (1, 7) else 0.0,
        te_last * t10,
        te3 * t10,
        te_mid * t10,
        te_mid6 * t10,
    ]


def tile_features(view: PlayerView, opp: Wind) -> list[list[float]]:
    """For each of the 34 kinds, the full input row (:data:`FEATURE_NAMES`) against ``opp``."""
    base = opponent_features(view, opp)
    return [base + part for part in _tile_parts(view, opp, base)]


def _tile_parts(view: PlayerView, opp: Wind, base: list[float]) -> list[list[float]]:
    """For each of the 34 kinds, the tile-level inputs (after :data:`_BASE`) against ``opp``;
    ``base`` is :func:`opponent_features` of the same view and opponent."""
    melds = view.melds[opp]
    river = [int(t) for t in view.discards[opp]]
    turns = len(river)
    discarded = set(river)
    recent = set(river[-3:])
    early = river[:6]
    visible = view.visible_counts()
    suit_melds = [0, 0, 0]
    pung_kinds = set()
    for m in melds:
        if m.first < 27:
            suit_melds[m.first // 9] += 1
        if m.kind is not MeldKind.CHOW:
            pung_kinds.add(int(m.first))
    flush_suit = next(iter({m.first // 9 for m in melds if m.first < 27}), None)
    if len({m.first // 9 for m in melds if m.first < 27}) != 1:
        flush_suit = None
    suit_count = [0, 0, 0]
    early_count = [0, 0, 0]
    for t in river:
        if t < 27:
            suit_count[t // 9] += 1
    for t in early:
        if t < 27:
            early_count[t // 9] += 1
    seat_wind = 27 + int(opp)
    prevailing = 27 + int(view.prevailing_wind)
    turns_x = base[1]
    exposed_x = base[3]
    fd = view.from_draw[opp]
    last = _last_tedashi(fd)
    lt = river[last] if last >= 0 else -1
    lt_suit = lt // 9 if 0 <= lt < 27 else -1
    rows: list[list[float]] = []
    for t in range(34):
        unseen = max(0, 4 - visible[t])
        honour = t >= 27
        rank = t % 9
        suit = t // 9
        f = [0.0] * len(_TILE)
        f[0] = 1.0 if honour else 0.0
        f[1] = 1.0 if t >= 31 else 0.0
        f[2] = 1.0 if t in (seat_wind, prevailing) else 0.0
        f[6] = unseen / 3.0
        f[7] = 1.0 if unseen == 0 else 0.0
        f[8] = 1.0 if t in discarded else 0.0
        f[9] = 1.0 if t in recent else 0.0
        f[18] = 1.0 if t in pung_kinds else 0.0
        if not honour:
            f[3] = 1.0 if rank in (0, 8) else 0.0
            f[4] = 1.0 if rank in (1, 7) else 0.0
            f[5] = 1.0 if 2 <= rank <= 6 else 0.0
            sides = [t - 3 if rank >= 3 else -1, t + 3 if rank <= 5 else -1]
            live = [x for x in sides if x >= 0]
            covered = sum(1 for x in live if x in discarded)
            f[10] = 1.0 if live and covered == len(live) else 0.0
            f[11] = 1.0 if 0 < covered < len(live) else 0.0
            f[12] = float(
                sum(1 for x in (t - 1, t + 1) if x // 9 == suit and x >= 0 and x in discarded)
            )
            f[13] = float(
                sum(1 for x in (t - 2, t + 2) if x // 9 == suit and x >= 0 and x in discarded)
            )
            f[14] = suit_count[suit] / turns if turns else 0.0
            f[15] = float(suit_melds[suit])
            if flush_suit is not None:
                f[16] = 1.0 if suit == flush_suit else 0.0
                f[17] = 0.0 if suit == flush_suit else 1.0
            f[19] = early_count[suit] / len(early) if early else 0.0
            if suit == lt_suit:
                gap = abs(t - lt)
                f[20] = 1.0 if gap == 1 else 0.0
                f[21] = 1.0 if gap == 2 else 0.0
                f[22] = 1.0
        f.extend([f[i] * turns_x for i in _CROSS_TURNS_AT])
        f.extend([f[i] * exposed_x for i in _CROSS_AT])
        rows.append(f)
    return rows


@dataclass(frozen=True, slots=True)
class DangerModel:
    """Fitted weights over :data:`FEATURE_NAMES` and how they were made (``meta``)."""

    weights: tuple[float, ...]
    meta: dict[str, object]

    def probability(self, row: list[float]) -> float:
        """σ(w·x) for one input row."""
        return _sigmoid(sum(w * x for w, x in zip(self.weights, row, strict=True)))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@cache
def load_model() -> DangerModel:
    """The shipped model (``bots/data/danger_model.json``), read once.

    :raises ValueError: when the file's feature list does not match :data:`FEATURE_NAMES`.
    """
    text = resources.files("hkmahjong.bots").joinpath("data/danger_model.json").read_text()
    obj = json.loads(text)
    if tuple(obj["features"]) != FEATURE_NAMES:
        raise ValueError("danger_model.json was fitted on other features: rerun fit_danger.py")
    return DangerModel(tuple(float(w) for w in obj["weights"]), dict(obj.get("meta", {})))


def deal_in_probabilities(
    view: PlayerView, model: DangerModel | None = None
) -> dict[Wind, tuple[float, ...]]:
    """Per opponent of ``view.seat``: the chance that discarding each of the 34 kinds now lets
    them win on it (a probability in (0, 1), read from the public part of ``view`` only)."""
    m = model if model is not None else load_model()
    nb = len(_BASE)
    wb, wt = m.weights[:nb], m.weights[nb:]
    out: dict[Wind, tuple[float, ...]] = {}
    for opp in Wind:
        if opp == view.seat:
            continue
        base = opponent_features(view, opp)
        z0 = sum(w * x for w, x in zip(wb, base, strict=True))
        out[opp] = tuple(
            _sigmoid(z0 + sum(w * x for w, x in zip(wt, part, strict=True)))
            for part in _tile_parts(view, opp, base)
        )
    return out
