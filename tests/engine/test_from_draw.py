"""摸切 / 手切 in the view: ``PlayerView.from_draw`` says which discards were the tile just drawn.

At a real table everyone sees whether a player throws the tile just taken (摸切) or one from the
hand (手切), so the flag is public. The scenarios check it through head draws, a kong
replacement, a bonus replacement and a claim (no draw: 手切); random play checks it against a
reference rebuilt from the event stream; the JSON keeps it and an older save still loads.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from hkmahjong.engine import Action, ActionKind, EventKind, Phase, PlayerView, PublicView
from hkmahjong.engine.events import Event
from hkmahjong.engine.state import DrawSource, HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.hand.meld import MeldKind
from hkmahjong.rules import get_preset, preset_names
from hkmahjong.tiles import Tile, Wind

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")


def _play(state: HandState, seat: Wind, text: str) -> list[Event]:
    return state.apply(seat, Action.from_text(text))


def _step(state: HandState) -> None:
    """One quiet move: on a turn the first discard, in a window everyone passes."""
    if state.phase is Phase.TURN:
        seat = state.to_act[0]
        state.apply(
            seat, next(a for a in state.legal_actions(seat) if a.kind is ActionKind.DISCARD)
        )
    else:
        for seat in state.to_act:
            state.apply(seat, Action.from_text("pass"))


def _flags(state: HandState) -> tuple[tuple[bool, ...], ...]:
    view = state.view(E)
    assert [len(f) for f in view.from_draw] == [len(d) for d in view.discards]
    return view.from_draw


def test_kong_and_bonus_replacements_head_draws_and_a_claim() -> None:
    """E kongs and throws the replacement (摸切), S draws a flower and throws its replacement
    (摸切), W and N throw from the hand (手切), E pungs N's tile and discards: 手切 (no draw)."""
    wall = stacked_wall(
        {
            E: "1234567m9999p22z1z",
            S: "2589m1478p34567z",
            W: "1369m2358p34567z",
            N: "478m3678p124567z",
        },
        draws="1f2s3s",
        replacements="5s7s",
    )
    st = HandState.new(PARLOR, seed=b"from-draw", wall=wall)
    assert _flags(st) == ((), (), (), ())
    _play(st, E, "concealed_kong 9p")
    assert st.draw_source is DrawSource.KONG and st.last_drawn == Tile.from_text("5s")
    _play(st, E, "discard 5s")
    assert st.phase is Phase.TURN and st.current == S
    assert st.draw_source is DrawSource.BONUS and st.bonus[S] == [Tile.from_text("1f")]
    _play(st, S, "discard 7s")
    _play(st, W, "discard 1m")
    assert st.last_drawn == Tile.from_text("3s")
    _play(st, N, "discard 2z")
    assert st.phase is Phase.CLAIM and st.to_act == (E,)
    _play(st, E, "pung")
    assert st.last_drawn == -1
    _play(st, E, "discard 1z")
    assert _flags(st) == ((True, False), (True,), (False,), (False,))
    assert st.view(S).from_draw == _flags(st)  # the same for every seat: public
    assert st.public_view().from_draw == _flags(st)
    assert st.view(E).claimed == ((False, False), (False,), (False,), (True,))


def test_the_dealers_first_discard_is_from_the_hand_and_a_held_kind_drawn_again_is_tsumogiri() -> (
    None
):
    """The dealer's 14th tile is dealt, not drawn: its first discard is 手切. A seat that draws a
    kind it already holds and discards that kind: 摸切 (the engine keeps no copy apart)."""
    wall = stacked_wall(
        {
            E: "1234567m123p1234z",
            S: "1589m1478p34567z",
            W: "3469m2358p34567z",
            N: "478m3679p134567z",
        },
        draws="1m6s",
    )
    st = HandState.new(PARLOR, seed=b"from-draw-2", wall=wall)
    _play(st, E, "discard 1z")
    _play(st, S, "discard 1m")  # S drew a second 1m
    _play(st, W, "discard 6s")  # the tile W just drew
    assert _flags(st) == ((False,), (True,), (True,), ())


def _reference(events: list[Event], drawn: list[int | None], river: list[list[bool]]) -> None:
    """Follow the events: a seat's discard is 摸切 when its last event since its last move was
    the draw of that very kind."""
    for e in events:
        if e.seat is None:
            continue
        s = int(e.seat)
        if e.kind is EventKind.DRAW:
            assert e.tile is not None
            drawn[s] = int(e.tile)
        elif e.kind is EventKind.DISCARD:
            assert e.tile is not None
            river[s].append(drawn[s] == int(e.tile))
            assert e.detail == ("drawn" if river[s][-1] else "")  # the event says it too
            drawn[s] = None
        elif e.kind is EventKind.CLAIM:
            drawn[s] = None  # a kong claim's replacement DRAW follows and sets it again


@pytest.mark.parametrize("preset", preset_names())
def test_random_play_matches_the_event_stream(preset: str) -> None:
    """In seeded random play the flags equal a reference rebuilt from the events, for every seat's
    view, and the JSON round trip and clone keep them."""
    rules = get_preset(preset)
    rng = random.Random(preset)
    kinds = {"tsumogiri": 0, "tedashi": 0, "after_claim": 0, "replacement": 0}
    for h in range(12):
        st = HandState.new(rules, seed=f"from-draw/{preset}/{h}".encode())
        drawn: list[int | None] = [None] * 4  # the deal (and its bonus replacements) is no draw
        river: list[list[bool]] = [[], [], [], []]
        after_claim = [False] * 4
        while not st.is_over:
            seat = rng.choice(st.to_act)
            legal = st.legal_actions(seat)
            action = rng.choice(legal)
            source = st.draw_source
            events = st.apply(seat, action)
            _reference(events, drawn, river)
            if action.kind is ActionKind.DISCARD:
                if after_claim[seat]:
                    assert river[seat][-1] is False
                    kinds["after_claim"] += 1
                elif river[seat][-1] and source is not DrawSource.HEAD:
                    kinds["replacement"] += 1
                kinds["tsumogiri" if river[seat][-1] else "tedashi"] += 1
            for e in events:
                if e.kind is EventKind.CLAIM and e.seat is not None and e.meld is not None:
                    after_claim[int(e.seat)] = e.meld.kind is not MeldKind.KONG  # no replacement
                elif e.kind is EventKind.DISCARD and e.seat is not None:
                    after_claim[int(e.seat)] = False
            want = tuple(tuple(r) for r in river)
            for w in Wind:
                assert st.view(w).from_draw == want
            if rng.random() < 0.1:
                back = HandState.from_json(st.to_json(), rules)
                assert back.from_draw == st.from_draw and back.view(E) == st.view(E)
                assert st.clone().view(N).from_draw == want
    assert min(kinds.values()) > 0, kinds


def test_a_version_2_save_loads_with_every_discard_from_the_hand() -> None:
    """A state saved before the flag existed (JSON version 2) loads; its discards read as 手切."""
    st = HandState.new(PARLOR, seed=b"from-draw-v2")
    while sum(map(len, st.rivers)) < 10:
        _step(st)
    obj = json.loads(st.to_json())
    assert obj["version"] == 3 and "from_draw" in obj
    del obj["from_draw"]
    obj["version"] = 2
    back = HandState.from_json(json.dumps(obj), PARLOR)
    assert back.from_draw == [[False] * len(r) for r in st.rivers]
    assert back.rivers == st.rivers and back.legal_actions(back.to_act[0]) == st.legal_actions(
        st.to_act[0]
    )


def test_views_that_differ_only_in_the_flags_differ() -> None:
    """The flag is a field like the others: equality, hash, repr, pickle and PublicView see it."""
    st = HandState.new(PARLOR, seed=b"from-draw-eq")
    while sum(map(len, st.rivers)) < 6:
        _step(st)
    view = st.view(E)
    flipped = tuple(tuple(not f for f in r) for r in view.from_draw)
    other = replace(view, from_draw=flipped)
    assert isinstance(other, PlayerView) and other != view
    assert other.discards == view.discards and "from_draw=" in repr(view)
    assert PublicView.of(other) != PublicView.of(view)
    assert replace(other, from_draw=view.from_draw) == view
    assert hash(replace(other, from_draw=view.from_draw)) == hash(view)
