"""The game engine: wall, deal, turns, claims, kongs, settlement, matches and records.

Public surface for bots and clients: :class:`Action`, :class:`Event`, :class:`PlayerView`,
:class:`PublicView` (a spectator's), :class:`Phase`, :class:`HandOutcome`. The referee side: :class:`HandState` (``engine.state``).
"""

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.events import (
    Event,
    EventKind,
    FalseWinRecord,
    HandOutcome,
    Visibility,
    WinRecord,
)
from hkmahjong.engine.view import Phase, PlayerView, PublicView

__all__ = [
    "Action",
    "ActionKind",
    "Event",
    "EventKind",
    "FalseWinRecord",
    "HandOutcome",
    "Phase",
    "PlayerView",
    "PublicView",
    "Visibility",
    "WinRecord",
]
