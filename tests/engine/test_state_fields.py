"""HandState's fields, from one table (issue 13 item 19): every field survives a save and a clone.

Slots, the blank state, ``clone``, ``to_json`` and ``from_json`` all follow ``state.FIELDS``. The
checks compare field by field (not JSON text, which cannot see a field that neither encoder
writes), at many random-play states over every preset and switch grid.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hkmahjong.engine import Phase
from hkmahjong.engine.state import FIELDS, Copy, DrawSource, HandState, PendingKind, Saved
from hkmahjong.rules.presets import get_preset
from hkmahjong.tiles import Wind

_NOT_SAVED = {
    "options": Saved.DERIVED,
    "_win_cache": Saved.DERIVED,
    "outcome_cache": Saved.CACHE,
    "_legal": Saved.CACHE,
    "_pub": Saved.CACHE,
    "_issued": Saved.CACHE,
    "_cand": Saved.CACHE,
    "_draw_misses": Saved.CACHE,
    "initial_events": Saved.OPENING,
}
"""Every field that to_json does not write, and why; a new field must be saved or listed here."""


def _value(state: HandState, name: str) -> Any:
    return getattr(state, name)


def _declared_attributes(cls: type) -> tuple[str, ...]:
    """The instance attributes ``cls`` declares, in order: its ``__slots__`` when interpreted;
    compiled by mypyc, which drops ``__slots__`` for a fixed native layout built from the class's
    annotations (and any ``self.x =`` in its methods), that layout's names."""
    names = cls.__dict__.get("__slots__")
    if names is None:
        names = cls.__dict__["__mypyc_attrs__"]
    return tuple(names)


def test_every_slot_is_in_the_table_once() -> None:
    """The slots are the table's names; nothing is declared outside it (on both builds: the
    interpreted class's ``__slots__``, the compiled class's native attributes)."""
    declared = _declared_attributes(HandState)
    assert declared == tuple(f.name for f in FIELDS)
    assert len(set(declared)) == len(FIELDS)
    unsaved = {f.name: f.saved for f in FIELDS if f.saved is not Saved.YES}
    assert unsaved == _NOT_SAVED
    keys = [f.json_key for f in FIELDS if f.saved is Saved.YES]
    assert len(keys) == len(set(keys))
    state = HandState.new(get_preset("parlor"), seed=b"slots")
    for name in declared:
        assert hasattr(state, name), name
    with pytest.raises(AttributeError):
        state.not_a_field = 1  # type: ignore[attr-defined]
    assert not hasattr(state, "__dict__")
    written = json.loads(state.to_json())
    assert set(written) == {"version", *keys}


def _check_clone(state: HandState) -> None:
    other = state.clone()
    for f in FIELDS:
        mine, theirs = _value(state, f.name), _value(other, f.name)
        if f.copy is Copy.RESET:
            assert theirs == f.default(), f.name
            continue
        assert theirs == mine, f.name
        if f.copy in (Copy.LIST, Copy.NESTED, Copy.DICT):
            assert theirs is not mine, f"{f.name} is shared by a clone"
        if f.copy is Copy.NESTED:
            assert all(a is not b for a, b in zip(mine, theirs, strict=True)), f.name


def _check_json(state: HandState) -> None:
    back = HandState.from_json(state.to_json(), state.ruleset)
    for seat in Wind:  # the derived fields follow once the legal actions are asked for
        assert back.legal_actions(seat) == state.legal_actions(seat)
    derived = Saved.DERIVED if not state.is_over else Saved.YES  # an ended hand has no window
    for f in FIELDS:
        if f.saved is Saved.YES or f.saved is derived:
            assert _value(back, f.name) == _value(state, f.name), f.name


def test_every_field_survives_json_and_clone(
    play_states: Callable[..., Iterator[HandState]],
) -> None:
    """At ~2,000 states over every preset and switch grid, JSON and clone keep each field."""
    seen: dict[str, set[Any]] = {"phase": set(), "draw": set(), "pending": set()}
    count = 0
    for state in play_states("fields", 3, every=4):
        for seat in Wind:
            state.legal_actions(seat)  # fill the caches, so the clone copies them
        _check_clone(state)
        _check_json(state)
        seen["phase"].add(state.phase)
        seen["draw"].add(state.draw_source)
        seen["pending"].add(state.pending_kind)
        count += 1
    assert count > 1500
    assert seen["draw"] == set(DrawSource)
    assert {PendingKind.NONE, PendingKind.DISCARD} <= seen["pending"]
    assert {Phase.TURN, Phase.CLAIM, Phase.OVER} <= seen["phase"]


def test_a_version_1_state_still_loads() -> None:
    """A state saved before the table (window in one list, ``claimed_turn``) loads the same."""
    state = HandState.new(get_preset("parlor"), seed=b"v1")
    seat = state.to_act[0]
    state.apply(seat, state.legal_actions(seat)[0])
    obj = json.loads(state.to_json())
    obj["version"] = 1
    obj["pending"] = [obj.pop("pending_tile"), obj.pop("pending_from"), obj.pop("pending_kind")]
    obj["claimed_turn"] = obj.pop("claimed_tile")
    back = HandState.from_json(json.dumps(obj))
    assert back.to_json() == state.to_json()
    for f in FIELDS:
        if f.saved is Saved.YES:
            assert _value(back, f.name) == _value(state, f.name), f.name
