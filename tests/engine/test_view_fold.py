"""Views are redacted folds of events (docs/dev/architecture.md practice 10).

Folding only the events a seat may see (``Event.for_seat``) must rebuild what its ``PlayerView``
shows: its own concealed tiles, everyone's discards (and which were 摸切), melds, bonus tiles and
concealed-tile counts.
So the events are complete, and a view holds nothing the seat's events did not reveal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from hkmahjong.engine import Event, EventKind, PlayerView
from hkmahjong.engine.state import HandState
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.tiles import Tile, Wind


@dataclass
class Fold:
    """What one seat knows, rebuilt from the events it saw."""

    seat: Wind
    concealed: list[Tile] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    rivers: list[list[Tile]] = field(default_factory=lambda: [[], [], [], []])
    from_draw: list[list[bool]] = field(default_factory=lambda: [[], [], [], []])
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    bonus: list[list[Tile]] = field(default_factory=lambda: [[], [], [], []])

    def see(self, event: Event) -> None:
        """Fold one event as this seat sees it."""
        seen = event.for_seat(self.seat)
        if seen is None or seen.seat is None:
            return
        s = int(seen.seat)
        mine = seen.seat == self.seat
        kind = seen.kind
        if kind is EventKind.DEAL:
            self.counts[s] += len(seen.tiles) if mine else int(seen.detail.split()[0])
            if mine:
                self.concealed.extend(seen.tiles)
        elif kind is EventKind.DRAW:
            self.counts[s] += 1
            if mine:
                assert seen.tile is not None
                self.concealed.append(seen.tile)
        elif kind is EventKind.BONUS:
            assert seen.tile is not None
            self.counts[s] -= 1
            self.bonus[s].append(seen.tile)
            if mine:
                self.concealed.remove(seen.tile)
        elif kind is EventKind.DISCARD:
            assert seen.tile is not None
            self.counts[s] -= 1
            self.rivers[s].append(seen.tile)
            self.from_draw[s].append(seen.detail == "drawn")
            if mine:
                self.concealed.remove(seen.tile)
        elif kind is EventKind.CLAIM:
            assert seen.meld is not None and seen.tile is not None
            used = list(seen.meld.tiles)
            used.remove(seen.tile)
            self.counts[s] -= len(used)
            self.melds[s].append(seen.meld)
            if mine:
                for t in used:
                    self.concealed.remove(t)
        elif kind is EventKind.CONCEALED_KONG:
            assert seen.tile is not None
            self.counts[s] -= 4
            self.melds[s].append(Meld(MeldKind.CONCEALED_KONG, seen.tile))
            if mine:
                for _ in range(4):
                    self.concealed.remove(seen.tile)
        elif kind is EventKind.ADDED_KONG:
            assert seen.tile is not None
            self.counts[s] -= 1
            if mine:
                self.concealed.remove(seen.tile)
        elif kind is EventKind.KONG_DONE:
            melds = self.melds[s]
            for i, m in enumerate(melds):
                if m.kind is MeldKind.PUNG and m.first == seen.tile:
                    melds[i] = Meld(MeldKind.ADDED_KONG, m.first, m.source)

    def check(self, view: PlayerView) -> None:
        """The view shows exactly what the folded events revealed."""
        assert tuple(sorted(self.concealed)) == view.concealed
        assert tuple(self.counts) == view.concealed_counts
        assert tuple(map(tuple, self.rivers)) == view.discards
        assert tuple(map(tuple, self.from_draw)) == view.from_draw
        assert tuple(map(tuple, self.melds)) == view.melds
        assert tuple(map(tuple, self.bonus)) == view.bonus


@pytest.mark.parametrize("preset", preset_names())
def test_views_are_folds_of_the_events_a_seat_sees(preset: str) -> None:
    """Practice 10: for every seat and step, fold(events seen) == view (random play, 25 hands)."""
    rs = get_preset(preset)
    rng = random.Random(preset)
    for h in range(25):
        state = HandState.new(rs, seed=f"fold/{preset}/{h}".encode())
        folds = [Fold(seat) for seat in Wind]
        for fold in folds:
            for event in state.initial_events:
                fold.see(event)
            fold.check(state.view(fold.seat))
        while not state.is_over:
            seat = rng.choice(state.to_act)
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            for fold in folds:
                for event in events:
                    fold.see(event)
                if not state.is_over:
                    fold.check(state.view(fold.seat))


def test_a_window_hides_who_else_may_claim() -> None:
    """docs/rules.md §6 / issue 4 "decides without seeing the others' decisions": in a claim or robbing
    window a seat's view names only itself (if it must decide) in ``to_act`` — not the other seats
    that could claim (that would reveal a pair or a ready hand) — and another seat's decision does
    not change it."""
    rng = random.Random(11)
    rules = get_preset("parlor")
    windows = several = 0
    for n in range(60):
        state = HandState.new(rules, seed=b"window-%d" % n)
        while not state.is_over:
            deciding = state.to_act
            if state.phase.value in ("claim", "rob"):
                windows += 1
                several += len(deciding) > 1
                before = {seat: state.view(seat) for seat in Wind}
                for seat in Wind:
                    assert before[seat].to_act == ((seat,) if seat in deciding else ())
                first = deciding[0]
                legal = state.legal_actions(first)
                state.apply(first, legal[rng.randrange(len(legal))])
                if state.phase.value in ("claim", "rob") and state.pending_tile >= 0:
                    for seat in Wind:
                        if seat != first and seat in deciding:
                            assert state.view(seat) == before[seat], "a decision leaked"
                continue
            legal = state.legal_actions(deciding[0])
            state.apply(deciding[0], legal[rng.randrange(len(legal))])
    assert windows > 100 and several > 0


@pytest.mark.parametrize("preset", ["parlor", "qingzhang"])
def test_cached_view_parts_are_never_stale(preset: str) -> None:
    """The per-seat cache behind ``view`` (melds, bonus tiles, discards, claimed flags) always
    equals a fresh build: at every step of random hands with kongs, robbing and claims."""
    rng = random.Random(5)
    rules = get_preset(preset)
    for n in range(25):
        state = HandState.new(rules, seed=b"cache-%d" % n, physical_table=n % 5 == 0)
        while True:
            fresh = state.clone()
            fresh._pub = [None, None, None, None]
            for seat in Wind:
                assert state.view(seat) == fresh.view(seat)
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            legal = state.legal_actions(seat)
            kongs = [a for a in legal if a.kind.name.endswith("KONG") or a.kind.name == "WIN"]
            state.apply(seat, kongs[0] if kongs and rng.random() < 0.7 else rng.choice(legal))
