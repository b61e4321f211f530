"""A spectator is given public information only, checked on its raw frames (issue 18, *Spectating*:
"no concealed tile ever reaches a spectator, checked on raw frames as for players").

A hand with claims and a kong is played at a table by four scripted players, once on its own
wall and again on walls where every tile nobody ever shows is shuffled: each seat's concealed
tiles that stay concealed to the end and the part of the wall nobody draws. The players make the
same public moves on every wall (a claim window that opens only on one wall is passed). Every
frame a spectator receives up to the hand's end — and the snapshot of one who comes in the middle
of the hand — must be byte for byte the same, with the default delay (one hand-turn) and with a
delay in seconds (``watch_delay_ms``).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, settle, watch_send

from hkmahjong.engine import runner as runner_module
from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.events import Event, EventKind
from hkmahjong.engine.players import RandomPlayer
from hkmahjong.engine.record import hand_seed, seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import DEAL_POSITIONS, DEAL_SIZE
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ports import MemoryConnection, MemoryTableStore, SeatRow, TableRow
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Tile, Wind

_DEAL = HandState.new
"""The engine's own deal (HandState.new, bound to the class), taken before any test stacks a wall
(read as a bound method, not from the class's ``__dict__``: compiled by mypyc, a classmethod there
has no ``__func__``)."""
RULES = get_preset("parlor")
MATCH_SEED = seed_from_text("gallery-leak")
Script = list[tuple[Wind, Action]]


def _wall() -> list[int]:
    return list(HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0)).wall)


def _find_script() -> Script:
    """Random players on the hand's own wall until a hand has two claims and a kong."""
    for n in range(300):
        state = HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0))
        players = [RandomPlayer(f"g{n}/{s}", win_bias=0.3) for s in range(4)]
        script: Script = []
        kinds: list[EventKind] = []
        while not state.is_over:
            seat = state.to_act[0]
            action = players[seat].choose(state.view(seat), state.legal_actions(seat))
            kinds += [e.kind for e in state.apply(seat, action)]
            script.append((seat, action))
        kongs = sum(k in (EventKind.CONCEALED_KONG, EventKind.KONG_DONE) for k in kinds)
        if kinds.count(EventKind.CLAIM) >= 2 and kongs >= 1 and len(script) > 60:
            return [(s, a) for s, a in script if a.kind is not ActionKind.PASS]
    raise AssertionError("no hand with claims and a kong in 300 tries")


def _play(
    wall: list[int], script: Script, follow: Callable[[list[Event]], None] = lambda e: None
) -> tuple[list[str], HandState]:
    """Play the script's public moves on ``wall`` (passing every other window); the public events.

    ``follow`` sees every event as it happens."""
    state = HandState.new(RULES, seed=hand_seed(MATCH_SEED, 0), wall=[Tile(t) for t in wall])
    follow(list(state.initial_events))
    seen = [str(e.public()) for e in state.initial_events if e.public() is not None]
    i = 0
    while not state.is_over:
        want = script[i] if i < len(script) else None
        if want is not None and want[0] in state.to_act and want[1] in state.legal_actions(want[0]):
            seat, action = want
            i += 1
        else:
            seat = state.to_act[0]
            assert any(a.kind is ActionKind.PASS for a in state.legal_actions(seat)), "astray"
            action = Action.from_text("pass")
        events = state.apply(seat, action)
        follow(events)
        seen += [str(e.public()) for e in events if e.public() is not None]
    assert i == len(script)
    return seen, state


def _hidden(wall: list[int], script: Script) -> tuple[list[int], dict[int, set[int]]]:
    """Wall positions whose tile nobody ever shows: concealed to the end (not the winner's) and
    never drawn; and the kinds some of them are known not to hold. A discard tells whether it was
    the tile just drawn (摸切): a 摸切 shows that position, and a 手切 of kind X tells that the
    tile drawn in that turn (still held) is no X."""
    held: list[list[int]] = [list(DEAL_POSITIONS[s]) for s in range(4)]
    head, tail = DEAL_SIZE, len(wall)
    shown: set[int] = set()
    drawn: list[int | None] = [None] * 4  # the position each seat drew last in its turn
    not_kind: dict[int, set[int]] = {}

    def show(seat: int, tile: Tile | None) -> None:
        pos = next(p for p in held[seat] if wall[p] == tile)
        held[seat].remove(pos)
        shown.add(pos)

    def follow(events: list[Event]) -> None:
        nonlocal head, tail
        for e in events:
            if e.seat is None:
                continue
            s = int(e.seat)
            if e.kind is EventKind.DRAW:
                if e.detail == "head":
                    held[s].append(head)
                    head += 1
                else:
                    tail -= 1
                    held[s].append(tail)
                drawn[s] = held[s][-1]
            elif e.kind is EventKind.DISCARD:
                pos = drawn[s]
                if e.detail == "drawn":
                    assert pos is not None and wall[pos] == e.tile
                    held[s].remove(pos)
                    shown.add(pos)
                else:
                    show(s, e.tile)
                    if pos is not None:
                        assert e.tile is not None
                        not_kind.setdefault(pos, set()).add(int(e.tile))
                drawn[s] = None
            elif e.kind in (EventKind.BONUS, EventKind.ADDED_KONG):
                show(s, e.tile)
            elif e.kind is EventKind.CONCEALED_KONG:
                for _ in range(4):
                    show(s, e.tile)
            elif e.kind is EventKind.CLAIM and e.meld is not None:
                rest = list(e.meld.tiles)
                rest.remove(e.tile)
                for t in rest:
                    show(s, t)
                drawn[s] = None  # a claim draws nothing (a kong's replacement DRAW follows)

    _, end = _play(wall, script, follow)
    assert (head, tail) == (end.head, end.tail)
    winners = {int(w) for w in end.outcome.winners} if end.outcome else set()
    kept = [p for s in range(4) if s not in winners for p in held[s]]
    hidden = [p for p in kept + list(range(head, tail)) if wall[p] < 34 and p not in shown]
    return hidden, {p: not_kind[p] for p in hidden if p in not_kind}


def _shuffled(
    values: list[int], positions: list[int], not_kind: dict[int, set[int]], rng: random.Random
) -> list[int]:
    """``values`` shuffled over ``positions`` so that no position gets a kind it may not hold."""
    out = list(values)
    rng.shuffle(out)

    def ok(i: int, v: int) -> bool:
        return v not in not_kind.get(positions[i], ())

    for i in range(len(out)):
        if not ok(i, out[i]):
            j = next(j for j in range(len(out)) if ok(i, out[j]) and ok(j, out[i]))
            out[i], out[j] = out[j], out[i]
    assert all(ok(i, v) for i, v in enumerate(out))
    return out


def _walls(script: Script) -> Iterator[list[int]]:
    wall = _wall()
    seen, _ = _play(wall, script)
    hidden, not_kind = _hidden(wall, script)
    assert len(hidden) > 15
    for n in range(2):
        other = list(wall)
        values = _shuffled([wall[p] for p in hidden], hidden, not_kind, random.Random(n))
        for p, t in zip(hidden, values, strict=True):
            other[p] = t
        assert other != wall
        assert _play(other, script)[0] == seen, "the shuffle changed a public event: bad setup"
        yield other


class _Timed(MemoryConnection):
    """A spectator's connection that also notes the virtual time each frame arrives."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.times: list[float] = []

    def send(self, text: str) -> None:
        super().send(text)
        self.times.append(round(self.clock.now(), 3))


LATE = 30
"""The driver's round in which the second spectator comes in (mid-hand)."""


async def _spectator_frames(
    wall: list[int], script: Script, monkeypatch: pytest.MonkeyPatch, delay_ms: int | None = None
) -> tuple[list[str], list[str], list[float]]:
    original = _DEAL  # never a wall stacked by an earlier run: patches would chain

    def stacked(cls: type[HandState], ruleset: Any, **kw: Any) -> HandState:
        kw["wall"] = [Tile(t) for t in wall]
        return original(ruleset, **kw)

    monkeypatch.setattr(runner_module.HandState, "new", classmethod(stacked))
    store = MemoryTableStore()
    config = TableConfig.of(
        "online", RULES, length="one-hand", clocks=FAST, watch_delay_ms=delay_ms
    )
    seats = [SeatRow(p, p + 1, f"p{p}", None, "away") for p in range(4)]
    row = TableRow(1, "gallery", "online", "waiting", config.to_json(),
                   str(config.rules["digest"]), MATCH_SEED.hex())  # fmt: skip
    await store.create(row, seats)
    clock = FakeClock()
    table = Table(row, seats, store, clock=clock, epoch="fixed")
    early, late = _Timed(clock), MemoryConnection()
    table.watch(early)
    watch_send(table, early, '{"t":"hello","proto":1}')
    await table.start()
    clients = [Client(table, p) for p in range(4)]
    for c in clients:
        c.connect()
    await settle(table, clock, 0.2)
    assert table.runner is not None and table.runner._state is not None
    assert table.runner._state.wall == wall, "the hand is not dealt from the stacked wall"
    effective = list(script)
    for rounds in range(2000):
        if any('"t":"hand_end"' in f for f in clients[0].conn.frames):
            break
        if rounds == LATE:
            table.watch(late)
            watch_send(table, late, '{"t":"hello","proto":1}')
            watch_send(table, late, '{"t":"act","action":"pass","v":1,"id":"nope"}')
        for c in clients:
            prompt = c.open_prompt()
            if prompt is None or prompt["v"] == getattr(c, "answered", None):
                continue
            assert table.runner is not None
            seat = table.runner.seat_of(c.player)
            legal = [item["action"] for item in prompt["legal"]]
            if effective and effective[0][0] == seat and effective[0][1].text in legal:
                action = effective.pop(0)[1].text
            else:
                assert "pass" in legal, (seat, legal, effective[:1])
                action = "pass"
            c.answered = prompt["v"]  # type: ignore[attr-defined]
            c.send({"t": "act", "action": action, "v": prompt["v"], "id": "s"})
        await settle(table, clock, 0.1)
    assert not effective
    await settle(table, clock, 0.5 + (delay_ms or 0) / 1000 + 0.5)  # the hand's end released
    await table.stop()

    def cut(frames: list[str]) -> list[str]:
        end = next(i for i, f in enumerate(frames) if '"t":"hand_end"' in f)
        return frames[:end]

    frames = cut(early.frames)
    return frames, cut(late.frames), early.times[: len(frames)]


@pytest.mark.parametrize("delay_ms", [None, 1500], ids=["one-turn", "seconds"])
def test_shuffling_what_nobody_shows_changes_no_byte_a_spectator_receives(
    monkeypatch: pytest.MonkeyPatch, delay_ms: int | None
) -> None:
    """Both delays: one hand-turn (the default) and a number of seconds (``watch_delay_ms``)."""
    script = _find_script()
    first = asyncio.run(_spectator_frames(_wall(), script, monkeypatch, delay_ms))
    early, late, times = first
    if delay_ms is not None:  # the first hand's deal reaches the spectator the delay later
        deal = next(i for i, f in enumerate(early) if '"kind":"deal"' in f)
        assert times[deal] >= delay_ms / 1000
    kinds = [json.loads(f)["t"] for f in early]
    assert kinds[0] == "snapshot" and "hand" in kinds and kinds.count("event") > 60
    events = [json.loads(f)["event"] for f in early if '"t":"event"' in f]
    assert {"claim", "discard", "deal", "draw"} <= {e["kind"] for e in events}
    for e in events:
        if e["kind"] in ("deal", "draw"):
            assert e["tiles"] == [] and e["tile"] is None
    snap = json.loads(late[0])
    assert snap["t"] == "snapshot" and snap["view"]["concealed"] == []
    assert snap["view"]["seat"] is None and snap["table"]["you"] is None
    assert any('"code":"not_seated"' in f for f in late)
    for other in _walls(script):
        again = asyncio.run(_spectator_frames(other, script, monkeypatch, delay_ms))
        assert again[0] == early
        assert again[1] == late
