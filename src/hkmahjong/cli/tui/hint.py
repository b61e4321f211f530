"""提示 for the terminal parlor: the advisor's choice with its reasons (:mod:`hkmahjong.bots.advice`).

The game asks its advisor (the strong bot) for an action and the bot's raw trace; the reasons
come from :func:`~hkmahjong.bots.advice.advise`, the data the web parlor's practice hints use too.
The screen (:func:`~hkmahjong.cli.tui.screens.hint_text`) renders them in the player's language;
the trace is shown only with ``hkmj play --debug-hints``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hkmahjong.bots.advice import advise
from hkmahjong.cli.tui.model import HintInfo
from hkmahjong.engine import Action, PlayerView
from hkmahjong.errors import IllegalActionError
from hkmahjong.rules import Ruleset

__all__ = ["Advisor", "hint_for"]

Advisor = Callable[[PlayerView, Sequence[Action]], tuple[Action, str]]
"""Picks an action for a view and says how (the bot's trace: for ``--debug-hints`` only)."""


def hint_for(
    view: PlayerView, legal: Sequence[Action], ruleset: Ruleset, advisor: Advisor
) -> HintInfo:
    """提示 for ``view.seat`` deciding among ``legal``: the advice and the advisor's trace.

    :raises IllegalActionError: when the seat has nothing to decide.
    """
    if not legal:
        raise IllegalActionError("nothing to decide now")
    action, trace = advisor(view, legal)
    return HintInfo(advise(view, legal, ruleset, action=action), trace)
