"""An error given to a seat holds only what that seat's PlayerView holds (issue 13 item 2).

The web parlor sends the engine's refusals to untrusted clients. At many random-play states over
every preset and switch grid, every seat tries a set of ill-timed or illegal actions; the texts
must not change when what the seat cannot see (the other seats' concealed tiles, the unseen wall)
is shuffled, and in a claim or robbing window they never name another seat that may still claim.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

from hkmahjong.engine import Action, ActionKind, Phase
from hkmahjong.engine.state import HandState
from hkmahjong.errors import IllegalActionError
from hkmahjong.tiles import Wind

_PLAIN = [Action.plain(k) for k in ActionKind if not k.takes_tile]
_PROBE_TILES = (0, 13, 22, 31)
_TILED = [
    f(t) for t in _PROBE_TILES for f in (Action.discard, Action.concealed_kong, Action.added_kong)
] + [Action.chow(t) for t in (0, 11, 24)]


def _errors(state: HandState, seat: Wind, probes: list[Action]) -> list[str]:
    """The error text of every probe that ``seat`` may not play now (the others are skipped)."""
    legal = state.legal_actions(seat)
    out = []
    for action in probes:
        if action in legal:
            continue
        before = state.phase, state.to_act
        try:
            state.apply(seat, action)
        except IllegalActionError as exc:
            out.append(str(exc))
        else:  # pragma: no cover - a refused action was accepted
            raise AssertionError(f"{action} by {seat} was accepted though not legal")
        assert (state.phase, state.to_act) == before
    return out


def _probes(state: HandState) -> list[Action]:
    """Fixed probes, plus every action some seat may take now (ill-timed for the others)."""
    extra = {a for w in Wind for a in state.legal_actions(w)}
    return _PLAIN + _TILED + sorted(extra - set(_PLAIN) - set(_TILED))


def test_errors_do_not_depend_on_hidden_tiles(
    play_states: Callable[..., Iterator[HandState]],
    scrambled: Callable[[HandState, int, random.Random], HandState],
) -> None:
    """Errors for a seat are the same text whatever the hidden tiles; no other claimant named."""
    rng = random.Random(2)
    windows = checked = 0
    for state in play_states("errors", 3, every=6):
        probes = _probes(state)
        in_window = state.phase in (Phase.CLAIM, Phase.ROB)
        windows += in_window
        for seat in Wind:
            texts = _errors(state, seat, probes)
            checked += len(texts)
            other = scrambled(state, seat, rng)
            assert other.legal_actions(seat) == state.legal_actions(seat)
            assert _errors(other, seat, probes) == texts, state.describe()
            if not in_window:
                continue
            for claimant in state.to_act:
                if claimant == seat:
                    continue
                named = re.compile(rf"\b{claimant.letter}\b|{claimant.zh}")
                for text in texts:
                    assert not named.search(text), f"{text!r} names {claimant} (to act)"
    assert windows > 1000
    assert checked > 100_000
