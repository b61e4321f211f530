"""Wall, dice and deal (docs/rules.md §3), action text forms, event visibility (docs/dev/architecture.md practice 10)."""

from __future__ import annotations

import hashlib
import random

import pytest

from hkmahjong.engine import Action, ActionKind, Event, EventKind, Visibility
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import (
    DEAL_POSITIONS,
    WallError,
    build_wall,
    full_tile_set,
    roll_dice,
    shuffled_kinds,
    shuffled_tiles,
    stacked_wall,
)
from hkmahjong.errors import IllegalActionError
from hkmahjong.rules.presets import get_preset
from hkmahjong.tiles import Tile, Wind, counts34, parse_tiles


def test_shuffle_and_dice_are_deterministic_permutations() -> None:
    """docs/rules.md §3.1: 144 tiles shuffled; the same seed gives the same wall and dice."""
    a, b = shuffled_tiles(b"seed-1"), shuffled_tiles(b"seed-1")
    assert a == b and sorted(a) == full_tile_set()
    assert shuffled_tiles(b"seed-2") != a
    assert sorted(shuffled_tiles(b"x", bonus_tiles=False)) == full_tile_set(bonus_tiles=False)
    dice = [roll_dice(bytes([i])) for i in range(200)]
    assert all(len(d) == 3 and all(1 <= x <= 6 for x in d) for d in dice)
    assert len({sum(d) for d in dice}) > 10
    assert roll_dice(b"z") == roll_dice(b"z")


def test_the_written_out_shuffle_is_random_shuffle() -> None:
    """docs/rules.md §3.1, issue 16: the engine's shuffle (written out, no call per tile) gives the
    walls ``random.Random.shuffle`` gives, for 500 seeds with and without bonus tiles."""
    for i in range(500):
        seed = f"shuffle-{i}".encode()
        for bonus in (True, False):
            rng = random.Random(hashlib.sha256(b"hkmahjong/wall\x00" + seed).digest())
            tiles = full_tile_set(bonus_tiles=bonus)
            rng.shuffle(tiles)
            assert shuffled_tiles(seed, bonus_tiles=bonus) == tiles
            assert shuffled_kinds(seed, bonus_tiles=bonus) == [int(t) for t in tiles]


@pytest.mark.parametrize(
    ("dice", "wall_seat", "first_stack"),
    [
        ((1, 1, 1), Wind.WEST, 18 * 2 + 3),  # 3: count E=1 S=2 W=3 -> West's wall
        ((2, 1, 1), Wind.NORTH, 18 * 1 + 4),  # 4 -> North (draw order E, N, W, S)
        ((1, 2, 2), Wind.EAST, 0 + 5),  # 5 -> East again
        ((6, 6, 6), Wind.SOUTH, (18 * 3 + 18) % 72),  # 18 -> South, 18 stacks: the whole wall
    ],
)
def test_wall_break_by_dice(dice: tuple[int, int, int], wall_seat: Wind, first_stack: int) -> None:
    """docs/rules.md §3.2: the dice total picks the wall counting the dealer as 1, and the break."""
    tiles = full_tile_set()  # position i holds a known tile
    wall, text = build_wall(tiles, dice)
    assert wall_seat.zh in text
    assert wall[0] == tiles[2 * first_stack] and wall[1] == tiles[2 * first_stack + 1]
    assert sorted(wall) == sorted(tiles)
    # The tail (replacements) is the other side of the break: the stack just before it.
    assert wall[-2] == tiles[2 * ((first_stack - 1) % 72)]


def test_build_wall_rejects_bad_input() -> None:
    """docs/rules.md §3: a wall has 144 (or 136) tiles and three dice of 1–6."""
    with pytest.raises(WallError, match="144"):
        build_wall(full_tile_set()[:100], (1, 2, 3))
    with pytest.raises(WallError, match="dice"):
        build_wall(full_tile_set(), (0, 2, 3))


def test_deal_is_4_4_4_then_the_jump() -> None:
    """docs/rules.md §3.3: 4-4-4 from the dealer, then the dealer takes two (the jump), others one."""
    assert [len(p) for p in DEAL_POSITIONS] == [14, 13, 13, 13]
    assert DEAL_POSITIONS[0][:4] == (0, 1, 2, 3) and DEAL_POSITIONS[1][:4] == (4, 5, 6, 7)
    assert DEAL_POSITIONS[0][12:] == (48, 52) and DEAL_POSITIONS[3][12] == 51
    flat = sorted(p for seat in DEAL_POSITIONS for p in seat)
    assert flat == list(range(53))
    wall = [int(t) for t in shuffled_tiles(b"deal")]
    wall = [t for t in wall if t < 34] + [t for t in wall if t >= 34]  # no bonus in the deal
    state = HandState.new(get_preset("parlor"), seed=b"d", wall=[Tile(t) for t in wall])
    for seat in Wind:
        expected = counts34(Tile(wall[p]) for p in DEAL_POSITIONS[seat])
        assert state.hands[seat] == expected
    assert state.head == 53 and state.tiles_left == 144 - 53
    assert state.to_act == (Wind.EAST,)
    assert sum(state.hands[0]) == 14 and all(sum(state.hands[s]) == 13 for s in (1, 2, 3))


def test_stacked_wall_places_deal_draws_and_replacements() -> None:
    """The stacked-deck helper: chosen deals, head draws in order, tail replacements in order."""
    w = stacked_wall(
        {Wind.SOUTH: "123456789m1223p"},
        draws="7z6z",
        replacements="5z1s",
    )
    assert sorted(w) == full_tile_set()
    assert [w[p] for p in DEAL_POSITIONS[1]] == parse_tiles("123456789m1223p")
    assert w[53:55] == parse_tiles("7z6z") and w[-1] == Tile.WHITE and w[-2] == Tile.S1
    with pytest.raises(WallError, match="13 tiles"):
        stacked_wall({Wind.SOUTH: "123m"})
    with pytest.raises(WallError, match="more often"):
        stacked_wall({Wind.EAST: "11111m234567899p"[:16]})


def test_new_rejects_a_wall_that_is_not_the_tile_set() -> None:
    """docs/rules.md §1: 144 tiles; a stacked wall must be exactly the set."""
    bad = full_tile_set()
    bad[0] = Tile.M2
    with pytest.raises(WallError, match="exactly"):
        HandState.new(get_preset("parlor"), seed=b"", wall=bad)


@pytest.mark.parametrize(
    "text",
    [
        "discard 5p",
        "chow 345p",
        "chow 789s",
        "pung",
        "kong",
        "win",
        "pass",
        "concealed_kong 7z",
        "added_kong 3s",
        "self_draw",
        "bonus_win",
        "false_win",
    ],
)
def test_action_text_round_trip(text: str) -> None:
    """Notation is the API: every action prints to and parses from its text form."""
    action = Action.from_text(text)
    assert action.text == text and str(action) == text
    assert eval(repr(action)) == action  # repr is code that rebuilds it


@pytest.mark.parametrize(
    "text",
    ["", "dance", "discard", "discard 5x", "chow 346p", "chow 891s", "pung 5p", "discard 1f"],
)
def test_bad_action_text_is_a_clear_error(text: str) -> None:
    """Bad input gets a MahjongError saying what is wrong."""
    with pytest.raises(IllegalActionError):
        Action.from_text(text)


def test_actions_sort_by_kind_then_tile() -> None:
    """legal_actions are sorted: pass, discards by tile, chow, pung, kong, kongs, wins."""
    acts = [Action.from_text(t) for t in ("win", "discard 9s", "pass", "chow 123m", "discard 1m")]
    assert [a.text for a in sorted(acts)] == [
        "pass",
        "discard 1m",
        "discard 9s",
        "chow 123m",
        "win",
    ]
    assert Action.discard(Tile.P5) is Action.from_text("discard 5p")  # cached values
    assert ActionKind.CONCEALED_KONG.zh == "暗槓"


def test_event_visibility_and_redaction() -> None:
    """Events carry visibility: a draw is seen whole by its seat, redacted by others."""
    draw = Event(EventKind.DRAW, Wind.SOUTH, Tile.P5, detail="head", visibility=Visibility.SEAT)
    assert draw.for_seat(Wind.SOUTH) is draw
    other = draw.for_seat(Wind.EAST)
    assert other is not None and other.tile is None and other.detail == "head"
    secret = Event(EventKind.DECISION, Wind.WEST, detail="pung", visibility=Visibility.REFEREE)
    assert all(secret.for_seat(s) is None for s in Wind)
    public = Event(EventKind.DISCARD, Wind.NORTH, Tile.RED)
    assert all(public.for_seat(s) is public for s in Wind)
    assert public.text == "N discard 7z"


def test_opening_events_hide_other_deals() -> None:
    """docs/rules.md §3 / practice 10: each seat sees only its own deal."""
    state = HandState.new(get_preset("parlor"), seed=b"events")
    deals = [e for e in state.initial_events if e.kind is EventKind.DEAL]
    assert len(deals) == 4
    for e in deals:
        assert e.visibility is Visibility.SEAT
        assert e.seat is not None
        for seat in Wind:
            seen = e.for_seat(seat)
            assert seen is not None
            assert (seen.tiles != ()) == (seat == e.seat)


def test_bad_state_json_is_a_clear_error() -> None:
    """Bad input gets a clear error: malformed JSON, a missing field, tiles that do not add up."""
    from hkmahjong.engine.state import StateError

    rs = get_preset("parlor")
    state = HandState.new(rs, seed=b"json")
    with pytest.raises(StateError, match="not JSON"):
        HandState.from_json("{", rs)
    with pytest.raises(StateError, match="version"):
        HandState.from_json("[]", rs)
    text = state.to_json()
    with pytest.raises(StateError, match="'hands'"):
        HandState.from_json(text.replace('"hands"', '"hand"'), rs)
    import json

    obj = json.loads(text)
    obj["hands"][1][0] += 1
    with pytest.raises(StateError, match="every tile: 1m"):
        HandState.from_json(json.dumps(obj), rs)
    with pytest.raises(IllegalActionError, match="not an action"):
        state.apply(Wind.EAST, None)  # type: ignore[arg-type]
    assert HandState.from_json(text).to_json() == text  # the preset is found by name


def test_bad_arguments_to_new_are_clear_errors() -> None:
    """Bad input gets a clear MahjongError: a text seed, a prevailing wind out of range."""
    from hkmahjong.engine.state import StateError

    rs = get_preset("parlor")
    with pytest.raises(StateError, match="seed must be bytes"):
        HandState.new(rs, seed="text")  # type: ignore[arg-type]
    with pytest.raises(StateError, match="prevailing_wind"):
        HandState.new(rs, seed=b"x", prevailing_wind=7)  # type: ignore[arg-type]


def test_repr_describe_and_legal_list_is_a_copy() -> None:
    """Notation is the API: the table prints with every hand; legal lists can be changed freely."""
    state = HandState.new(get_preset("parlor"), seed=b"describe")
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    legal.clear()
    assert state.legal_actions(seat), "changing the returned list must not change the state"
    text = state.describe()
    assert repr(state) in text and "tiles_left=" in repr(state)
    for w in Wind:
        assert state.hand_of(w).text in text
