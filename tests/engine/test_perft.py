"""Engine perft (docs/dev/architecture.md practice 6): legal-action tree node counts from seeded states.

The count through ``clone()`` must equal the count through a JSON round trip at every node, and
the leaves must hold every tile — so a copy or a reload never changes what can happen next.
"""

from __future__ import annotations

import pytest

from hkmahjong.engine.state import HandState
from hkmahjong.rules.presets import get_preset


def perft(state: HandState, depth: int, *, via_json: bool) -> int:
    """Leaves of the decision tree ``depth`` decisions deep (the first seat to act decides)."""
    if depth == 0 or state.is_over:
        assert sum(state.census()) == 144
        return 1
    seat = state.to_act[0]
    total = 0
    for action in state.legal_actions(seat):
        child = HandState.from_json(state.to_json(), state.ruleset) if via_json else state.clone()
        child.apply(seat, action)
        total += perft(child, depth - 1, via_json=via_json)
    return total


@pytest.mark.parametrize("seed", [b"perft-1", b"perft-2", b"perft-3"])
def test_perft_clone_equals_json(seed: bytes) -> None:
    """The same tree through clone() and through to_json()/from_json(), three decisions deep."""
    state = HandState.new(get_preset("parlor"), seed=seed)
    first = len(state.legal_actions(state.to_act[0]))
    assert perft(state, 1, via_json=False) == first
    by_clone = perft(state, 3, via_json=False)
    by_json = perft(state, 3, via_json=True)
    assert by_clone == by_json >= first
    assert perft(state, 3, via_json=False) == by_clone  # the state itself was not touched
