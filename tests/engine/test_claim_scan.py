"""The claim scan after a discard takes shortcuts (issue 16); its answers are the full check's.

A win on a discard is checked only when the tile is among the seat's ``win_candidates`` (a mask
kept per seat and forgotten whenever its concealed tiles change); a seat that holds fewer than
two of the tile, is not the chow seat and cannot declare a false win is asked nothing else; a
drawn tile outside the mask skips the self-drawn win check. These tests compare, at every claim
window of random play over every preset and switch grid, each seat's options with the full check
(``_claim_options`` on a copy whose masks hold every tile) and every kept mask with a fresh one,
and check that no skipped self-drawn check would have found a win.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hkmahjong.engine import Phase
from hkmahjong.engine.state import HandState, PendingKind
from hkmahjong.hand.arrange import is_complete_counts, win_candidates
from hkmahjong.hand.meld import MeldKind


def test_claim_options_and_kept_masks_match_the_full_check(
    play_states: Callable[..., Iterator[HandState]],
) -> None:
    windows = masks = misses = 0
    for state in play_states("claim-scan", 3):
        for o in range(4):
            mask = state._cand[o]
            if mask >= 0:
                counts = state.hands[o]
                fresh = win_candidates(
                    bytes(counts), len(state.melds[o]), seven_pairs=state.ruleset.seven_pairs
                )
                assert mask == fresh, (o, counts)
                masks += 1
        if state.phase is Phase.CLAIM and state.pending_kind is PendingKind.DISCARD:
            d, t = state.pending_from, state.pending_tile
            for o in ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4):
                if state.decisions[o] is None:
                    copy = state.clone()
                    copy._cand = [(1 << 34) - 1] * 4  # every tile a candidate: the full check
                    full = copy._claim_options(o, t, d)
                    assert state.options[o] == full, (o, t, d)
            windows += 1
        if state.phase is Phase.TURN and state._draw_misses:
            s = state.current
            counts = state.hands[s]
            seven = state.ruleset.seven_pairs
            assert not is_complete_counts(counts, len(state.melds[s]), seven_pairs=seven)
            misses += 1
    assert windows > 50 and masks > 500 and misses > 200


def test_exposed_copies_count_the_exposed_melds_tiles(
    play_states: Callable[..., Iterator[HandState]],
) -> None:
    """生章's exposed count (``_exposed_copies``, from each meld's kind and first tile) is the
    count of the tile in every exposed meld's ``tiles`` (concealed kongs left out)."""
    checked = 0
    for state in play_states("exposed-copies", 2):
        counts = [0] * 34
        for melds in state.melds:
            for m in melds:
                if m.kind is not MeldKind.CONCEALED_KONG:
                    for x in m.tiles:
                        counts[x] += 1
        assert [state._exposed_copies(t) for t in range(34)] == counts
        checked += any(counts)
    assert checked > 100
