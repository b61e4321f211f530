"""Hands: melds, whole hands and their text form; arrangement, win detection, shanten and waits."""

from __future__ import annotations

from hkmahjong.hand.arrange import arrangements, is_complete, is_complete_counts, meld_group
from hkmahjong.hand.groups import Arrangement, Group, GroupKind, Shape
from hkmahjong.hand.hand import Hand, HandStatus
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.hand.shanten import (
    ShantenResult,
    discard_shanten,
    shanten,
    shanten_counts,
    shanten_detail,
    useful_after_discard,
    useful_tiles,
    waits,
)

__all__ = [
    "Arrangement",
    "Group",
    "GroupKind",
    "Hand",
    "HandStatus",
    "Meld",
    "MeldKind",
    "ShantenResult",
    "Shape",
    "arrangements",
    "discard_shanten",
    "is_complete",
    "is_complete_counts",
    "meld_group",
    "shanten",
    "shanten_counts",
    "shanten_detail",
    "useful_after_discard",
    "useful_tiles",
    "waits",
]
