"""What the parlor app asks of a game (控制器): the interface between the screen and the engine."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from hkmahjong.cli.tui.model import HandEndInfo, HintInfo, MatchEndInfo, Options, TableInfo

__all__ = ["GameController"]


class GameController(ABC):
    """A match seen from the human seat: snapshots to draw, the human's options, bot steps."""

    @abstractmethod
    def table(self) -> TableInfo:
        """The table as the human sees it now."""

    @abstractmethod
    def options(self) -> Options:
        """What the human may do now (``mode`` ``wait`` when a bot is to act)."""

    @abstractmethod
    def human_to_act(self) -> bool:
        """Whether the game waits for the human."""

    @abstractmethod
    def apply(self, action: object) -> None:
        """Apply one of the human's legal actions.

        :raises IllegalActionError: when the action is not legal now.
        """

    @abstractmethod
    def bot_step(self) -> bool:
        """Let one bot (the next one to act) act; True when the human sees what it did."""

    @abstractmethod
    def hand_over(self) -> bool:
        """Whether the current hand has ended."""

    @abstractmethod
    def hand_end(self) -> HandEndInfo | None:
        """The end-of-hand summary, once the hand is over."""

    @abstractmethod
    def next_hand(self) -> None:
        """Record the finished hand in the match and deal the next one."""

    @abstractmethod
    def match_over(self) -> bool:
        """Whether the match has ended (after the current hand is recorded)."""

    @abstractmethod
    def match_end(self) -> MatchEndInfo:
        """Standings and per-hand history."""

    @abstractmethod
    def hint(self) -> HintInfo:
        """Shanten, waits, fan per wait and the strong bot's advice for the human seat."""

    @abstractmethod
    def save(self, path: Path) -> Path:
        """Write the match so far to ``path`` (resumable); returns the path written."""
