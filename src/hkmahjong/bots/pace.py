"""Table pace (節奏): how long a hand lasts at a table, and what one distance step costs there.

A route one step further from a win wins less often; how much less depends on how soon the hand
ends. Under a 1-fan minimum hands end around the 10th own turn, under a 3-fan minimum around the
14th, so a step costs more at the faster table, and more late in a hand than early. ``strong``
uses :func:`step_cost` to weigh speed against value (``Style.value_steps``).

Both functions are models fitted to self-play of four ``fan`` bots (``tools/table_pace.py``;
the measurements are in docs/bots.md, "Table pace").
"""

from __future__ import annotations

import math

from hkmahjong.rules import Ruleset

__all__ = ["ADVANCE_CHANCE", "hand_turns", "step_cost"]

_TURNS_BY_MIN_FAN = (9.6, 9.8, 11.1, 14.2, 16.8, 18.9)
"""Measured own turns a hand lasts under the parlor rules with a minimum of 0, 1, … 5 fan
(``tools/table_pace.py --rules parlor --min-fan N --hands 800 --seed pace``; ± 0.2–0.3)."""
_TURNS_PER_EXTRA_FAN = 2.1
_MOST_TURNS = 21.0
"""About every own draw of the wall: no hand lasts longer."""
ADVANCE_CHANCE = 0.3
"""Chance that one own turn (a draw or a claim) takes a hand one step nearer to a win."""


def hand_turns(ruleset: Ruleset) -> float:
    """Own turns a hand usually lasts under ``ruleset`` (the most discards any seat makes),
    from its minimum fan: about 10 up to a 1-fan minimum, then two to three more per fan
    (measured up to 5 fan, extended by 2.1 a fan up to the whole wall)."""
    m = ruleset.min_fan
    last = len(_TURNS_BY_MIN_FAN) - 1
    if m <= last:
        return _TURNS_BY_MIN_FAN[m]
    return min(_TURNS_BY_MIN_FAN[last] + _TURNS_PER_EXTRA_FAN * (m - last), _MOST_TURNS)


def step_cost(turn: float, turns: float) -> float:
    """Doublings of win chance one distance step costs at own turn ``turn`` of a hand that lasts
    ``turns`` own turns.

    A hand that needs one more advance, each own turn bringing one with chance ``q``
    (:data:`ADVANCE_CHANCE`), while the hand ends with hazard ``h`` per turn, wins ``q / (q + h)``
    as often: the step costs ``log2(1 + h / q)``, with ``h`` one over the turns left (at least 1).
    """
    hazard = 1.0 / max(turns - turn, 1.0)
    return math.log2(1.0 + hazard / ADVANCE_CHANCE)
