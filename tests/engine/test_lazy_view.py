"""A view from ``HandState.view`` is lazy (issue 16) and still shows the moment it was taken.

The tuples of a view (own concealed tiles, melds, bonus tiles, discards, claimed flags, concealed
counts) are read from the state on first use; a view still alive when the state next changes is
completed from the state before the change. These tests hold a view across later actions and
compare it with an eager copy taken at the same moment, field by field.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError, asdict, fields, replace

import pytest

from hkmahjong.engine import PlayerView
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import _FIELDS
from hkmahjong.rules import get_preset, preset_names
from hkmahjong.tiles import Wind


def _eager(view: PlayerView) -> PlayerView:
    """The same view built from its field values (the constructor copies nothing lazily)."""
    return PlayerView(**{name: getattr(view, name) for name in _FIELDS})


def _values(view: PlayerView) -> dict[str, object]:
    return {name: getattr(view, name) for name in _FIELDS}


@pytest.mark.parametrize("preset", preset_names())
def test_a_held_view_keeps_its_moment(preset: str) -> None:
    """Views held (unread, half read, fully read) across later actions equal eager copies taken
    when they were built; views dropped unread cost nothing and are forgotten."""
    rules = get_preset(preset)
    rng = random.Random(preset)
    checked = 0
    for h in range(6):
        state = HandState.new(rules, seed=f"lazy-{preset}-{h}".encode(), hand_number=h)
        held: list[tuple[PlayerView, dict[str, object]]] = []
        step = 0
        while not state.is_over:
            seat = rng.choice(state.to_act)
            for w in Wind:
                if rng.random() < 0.3:
                    # the eager reference is read from a second view at the same moment
                    reference = _values(state.view(w))
                    v = state.view(w)
                    if step % 3 == 1:
                        _ = v.melds, v.concealed  # half read before the state changes
                    held.append((v, reference))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        for v, reference in held:
            assert _values(v) == reference
            assert v == _eager(v) and hash(v) == hash(_eager(v))
            checked += 1
    assert checked > 100


def test_a_view_is_frozen_and_travels_whole() -> None:
    """No field can be set; pickle and copy give equal views that hold no state."""
    state = HandState.new(get_preset("parlor"), seed=b"lazy-pickle")
    view = state.view(Wind.EAST)
    with pytest.raises(FrozenInstanceError):
        view.seat = Wind.SOUTH  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        view.concealed = ()  # type: ignore[misc]
    data = pickle.dumps(view)
    assert b"HandState" not in data
    back = pickle.loads(data)
    assert back == view and back._src is None
    assert copy.copy(view) == view and copy.deepcopy(view) == view
    assert "concealed=" in repr(view) and repr(back) == repr(view)


def test_a_view_reads_as_the_dataclass_it_was() -> None:
    """``dataclasses.fields``, ``replace`` and ``asdict`` work on a view (bots' tests build
    situations with ``replace``)."""
    state = HandState.new(get_preset("parlor"), seed=b"lazy-replace")
    view = state.view(Wind.SOUTH)
    assert tuple(f.name for f in fields(view)) == _FIELDS
    other = replace(view, concealed=(), tiles_left=0)
    assert other.concealed == () and other.tiles_left == 0 and other.melds == view.melds
    assert asdict(view)["concealed"] == view.concealed
