"""讀牌 learnt from play: P(a discard deals in to an opponent), per tile and opponent, from a view.

A logistic model over hand-made public features (:func:`tile_features`), fitted by
``tools/fit_danger.py`` on self-play of the existing bots and shipped as
``bots/data/danger_model.json`` (docs/bots.md, "Hand reading learnt from play"). Only the
seat's :class:`~hkmahjong.engine.PlayerView` is read: each opponent's discards (and their order),
which of them were claimed, their melds and bonus tiles, the tiles left and the copies this seat
can see. The view does not say whether a discard was the tile just drawn (摸切) or came from the
hand, so the model does not use it. No model is fetched from anywhere; pure Python at play time.
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
)
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
FEATURE_NAMES: tuple[str, ...] = (
    _BASE + _TILE + tuple(f"{n}*turns" for n in _CROSSED) + tuple(f"{n}*exposed" for n in _CROSSED)
)
"""The model's inputs, in order (the data file lists them and must match)."""

_TILE_AT = {n: i for i, n in enumerate(_TILE)}
_CROSS_AT = tuple(_TILE_AT[n] for n in _CROSSED)


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
    return [
        1.0,
        turns / 10.0,
        (turns / 10.0) ** 2,
        float(exposed),
        float(len(melds) - exposed),
        len(view.bonus[opp]) / 4.0,
        view.tiles_left / 100.0,
        1.0 if flush or (not suits and honour_melds) else 0.0,
        1.0 if pungs else 0.0,
        honours / turns if turns else 0.0,
    ]


def tile_features(view: PlayerView, opp: Wind) -> list[list[float]]:
    """For each of the 34 kinds, the full input row (:data:`FEATURE_NAMES`) against ``opp``."""
    base = opponent_features(view, opp)
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
        crossed = [f[i] for i in _CROSS_AT]
        rows.append(base + f + [c * turns_x for c in crossed] + [c * exposed_x for c in crossed])
    return rows


@dataclass(frozen=True, slots=True)
class DangerModel:
    """Fitted weights over :data:`FEATURE_NAMES` and how they were made (``meta``)."""

    weights: tuple[float, ...]
    meta: dict[str, object]

    def probability(self, row: list[float]) -> float:
        """σ(w·x) for one input row."""
        z = sum(w * x for w, x in zip(self.weights, row, strict=True))
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
    out: dict[Wind, tuple[float, ...]] = {}
    for opp in Wind:
        if opp == view.seat:
            continue
        out[opp] = tuple(m.probability(row) for row in tile_features(view, opp))
    return out
