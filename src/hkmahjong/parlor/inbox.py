"""信箱 (the inbox): every message a table's actor handles, one frozen dataclass each.

Everything that happens at a table is one of these, put on the table's queue and handled one at a
time by :meth:`~hkmahjong.parlor.table.Table.run` (a ``match`` on the type). Client messages
arrive **typed** (:data:`~hkmahjong.parlor.protocol.ClientMessage`): the socket parsed them at
the door, so no client bytes ever reach the actor. The rest come from the table itself (its
clocks and timers, its off-loop bot decisions) or from a caller (:class:`Call`: join, leave,
cancel …, answered through a future).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hkmahjong.engine.actions import Action
from hkmahjong.parlor.ports import Connection
from hkmahjong.parlor.protocol import ClientMessage
from hkmahjong.parlor.wire import JSON

__all__ = [
    "AutoDue",
    "Call",
    "Connect",
    "Decided",
    "Disconnect",
    "GalleryDue",
    "GraceOver",
    "HintReady",
    "HoldOver",
    "Inbox",
    "NextHandDue",
    "Received",
    "Stop",
    "TurnTimeout",
    "Unwatch",
    "Watch",
    "WatchReceived",
]


@dataclass(frozen=True, slots=True)
class Call:
    """Run ``fn`` inside the actor and answer ``future`` (join, leave, cancel, …)."""

    fn: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]


@dataclass(frozen=True, slots=True)
class Connect:
    """A client of ``player`` connected (its ``hello`` follows)."""

    player: int
    conn: Connection


@dataclass(frozen=True, slots=True)
class Received:
    """A client message of ``player``, parsed at the door."""

    player: int
    conn: Connection
    msg: ClientMessage


@dataclass(frozen=True, slots=True)
class Disconnect:
    """A client of ``player`` went away."""

    player: int
    conn: Connection


@dataclass(frozen=True, slots=True)
class Watch:
    """A spectator connected."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class WatchReceived:
    """A spectator's message, parsed at the door."""

    conn: Connection
    msg: ClientMessage


@dataclass(frozen=True, slots=True)
class Unwatch:
    """A spectator went away."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """The clock of ``player``'s prompt ``v`` ran out."""

    player: int
    v: int


@dataclass(frozen=True, slots=True)
class AutoDue:
    """A bot's (or a sat-out seat's) turn: time to decide (token ``token``)."""

    player: int
    token: int


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision made off the loop for ``player`` (token ``token``): the action, or the error
    that stopped it."""

    player: int
    token: int
    action: Action | None
    error: BaseException | None = None


@dataclass(frozen=True, slots=True)
class HintReady:
    """Advice computed off the loop for ``player``'s prompt ``v`` (to send to ``conn``)."""

    player: int
    conn: Connection
    v: int
    reply: JSON


@dataclass(frozen=True, slots=True)
class GraceOver:
    """``player``'s grace after a disconnect (or never connecting) ran out."""

    player: int


@dataclass(frozen=True, slots=True)
class NextHandDue:
    """The pause between hands is over."""


@dataclass(frozen=True, slots=True)
class GalleryDue:
    """A spectators' segment is due (timed delays)."""


@dataclass(frozen=True, slots=True)
class HoldOver:
    """The hold ``hold`` after a discard or a kong reaches its end."""

    hold: int


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the actor."""


Inbox = (
    Call
    | Connect
    | Received
    | Disconnect
    | Watch
    | WatchReceived
    | Unwatch
    | TurnTimeout
    | AutoDue
    | Decided
    | HintReady
    | GraceOver
    | NextHandDue
    | GalleryDue
    | HoldOver
    | Stop
)
"""Every message of a table's queue."""

CLIENT_MESSAGES = (Received, WatchReceived)
"""The messages that carry what a client sent (an error in handling them is that client's)."""
