"""Cross-check against the `mahjong` library (PyPI; test-only dependency).

Its regular-hand shanten has our definition (a wait on a fifth copy does not count), so the two
must agree exactly — edge cases included — on seeded random and near-complete hands, with k
declared melds passed as the 13-3k / 14-3k concealed tiles. The full 100,000+ hand check is
``python bench/bench_hand.py --full``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from hkmahjong.hand import is_complete_counts, shanten_counts

pytest.importorskip("mahjong")
from mahjong.agari import Agari
from mahjong.shanten import Shanten

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_hand import build_corpora


def test_regular_shanten_agrees_with_mahjong() -> None:
    """8,000 seeded hands (random, near-complete, with melds): identical regular shanten."""
    mj = Shanten()
    corpora = build_corpora(1600, seed=31337)
    checked = 0
    for name, corpus in corpora.items():
        for counts, k in corpus:
            ours = shanten_counts(counts, k, thirteen_orphans=False)
            assert ours == mj.calculate_shanten_for_regular_hand(counts), (name, counts, k)
            checked += 1
    assert checked == 8000


def test_edge_cases_agree_with_mahjong() -> None:
    """Hands built around four held copies: the fifth-copy rule on both sides."""
    mj = Shanten()
    rng = random.Random(8)
    for _ in range(1500):
        c = [0] * 34
        quads = rng.sample(range(34), rng.choice((1, 2, 3)))
        for t in quads:
            c[t] = 4
        while sum(c) < 13:
            t = rng.randrange(34)
            if c[t] < 4:
                c[t] += 1
        assert shanten_counts(c, thirteen_orphans=False) == mj.calculate_shanten_for_regular_hand(c)


def test_win_detection_agrees_with_mahjong() -> None:
    """Win detection agrees with mahjong's Agari (which also takes 七對子, four of a kind as two)."""
    agari = Agari()
    corpora = build_corpora(1500, seed=4242)
    for counts, _ in corpora["near14"] + corpora["random14"]:
        theirs = agari.is_agari(counts)
        ours = is_complete_counts(counts, seven_pairs=True)
        if max(counts) < 4:
            assert ours == theirs, counts
        else:
            assert ours <= theirs, counts
