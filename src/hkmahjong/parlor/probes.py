"""量 (probes): what the tables tell an operator, without knowing who listens.

The table actor reports three things as they happen — an action applied and broadcast, a log
commit, a bot's decision — to a :class:`TableProbe`. The parlor holds no metrics library: the
server implements the probe on Prometheus counters (``hkmahjong.server.metrics``), tests with a
list, and a table without one reports to :data:`NULL_PROBE` (nothing).

The context variables name the table and the player whose work is being done, for the server's
structured logs (``hkmahjong.server.logs``): each table's actor runs in a task of its own, so the
table it sets is seen by every log line of that task and only by it.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Protocol

__all__ = ["NULL_PROBE", "NullProbe", "TableProbe", "current_player", "current_table"]

current_table: ContextVar[str | None] = ContextVar("hkmj_table", default=None)
"""The public id of the table whose actor (or request) is running, or None."""
current_player: ContextVar[int | None] = ContextVar("hkmj_player", default=None)
"""The user id whose message the table is handling, or None (a bot, a clock, the table itself)."""


class TableProbe(Protocol):
    """What a table reports. Each call is on the event loop's thread and must be cheap (a few
    microseconds): it is on every action's path."""

    def action(self, by: str, seconds: float) -> None:
        """An action was applied, committed and handed to the seats' sockets ``seconds`` after
        the engine took it; ``by``: ``you`` (a person), ``auto`` (a bot or an automatic
        decision), ``timeout`` (the clock)."""

    def commit(self, seconds: float, ok: bool) -> None:
        """The log append of one step took ``seconds`` (queued and committed); ``ok``: whether it
        was committed."""

    def thought(self, level: str, seconds: float) -> None:
        """A bot of ``level`` decided in ``seconds`` (off the loop, waiting for a worker included)."""


class NullProbe:
    """Reports to nobody."""

    def action(self, by: str, seconds: float) -> None:
        """Nothing."""

    def commit(self, seconds: float, ok: bool) -> None:
        """Nothing."""

    def thought(self, level: str, seconds: float) -> None:
        """Nothing."""


NULL_PROBE: TableProbe = NullProbe()
