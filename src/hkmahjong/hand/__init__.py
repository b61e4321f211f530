"""Hands: melds, whole hands and their text form; arrangement, win detection, shanten and waits."""

from __future__ import annotations

from hkmahjong.hand.hand import Hand, HandStatus
from hkmahjong.hand.meld import Meld, MeldKind

__all__ = ["Hand", "HandStatus", "Meld", "MeldKind"]
