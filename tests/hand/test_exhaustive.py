"""Exhaustive single-suit checks (python-chess perft style; docs/dev/architecture.md practice 6).

Every single-suit count vector (each rank 0-4, 0-14 tiles: 405,350 number-suit vectors) is
summarised by the fast code into aggregate counts pinned in ``data/single_suit_aggregates.json``;
the fast tables and arrangements are compared with the brute-force oracle (``oracle.py``) on all
small vectors and a seeded sample of the rest. ``python bench/bench_hand.py --exhaustive`` runs
the oracle on every vector (minutes).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

sys.path.insert(0, str(Path(__file__).parent))
import oracle

from hkmahjong.hand import _fast
from hkmahjong.hand.arrange import _decompose_sets, _regular
from hkmahjong.hand.groups import GroupKind

DATA = Path(__file__).parent / "data" / "single_suit_aggregates.json"


def fast_profile(c: tuple[int, ...]) -> tuple[int, ...]:
    """The table's profile of one suit vector (9 ranks: number suit, 7: honours)."""
    t = _fast.tables()
    key = 0
    for n in c:
        key = key * 5 + n
    table = t.number if len(c) == 9 else t.honour
    return t.profiles[table[key]]


def fast_arrangements(c: tuple[int, ...]) -> list[tuple[tuple[str, int], ...]]:
    """Our arrangements of one suit vector: sets (+ the pair when the count is 3m+2)."""
    counts = [0] * 34
    base = 0 if len(c) == 9 else 27
    counts[base : base + len(c)] = c
    n = sum(c)
    out: list[tuple[tuple[str, int], ...]] = []
    if n % 3 == 2:
        for groups in _regular(counts, 4 - (n - 2) // 3):
            out.append(tuple(sorted((k.value, i - base) for k, i in groups)))
    elif n % 3 == 0:
        for sets in _decompose_sets(counts, 0, n // 3):
            out.append(tuple(sorted((k.value, i - base) for k, i in sets)))
    return sorted(out)


def test_oracle_sanity() -> None:
    """The oracle itself on hand-checked cases (docs/rules.md §7: four sets and a pair)."""
    assert oracle.oracle_profile((1, 1, 1, 0, 0, 0, 0, 0, 0))[2] == 0
    assert oracle.oracle_profile((1, 1, 0, 0, 0, 0, 0, 0, 0))[2] == 1
    assert oracle.oracle_profile((0,) * 9)[9] == 14
    assert oracle.oracle_profile((4, 0, 0, 0, 0, 0, 0, 0, 0))[3] == 2  # 1111: 111+11 needs a 5th 1
    assert len(oracle.oracle_arrangements((3, 3, 3, 0, 0, 0, 0, 0, 2))) == 2
    assert GroupKind.PAIR.value == "pair"


@pytest.mark.parametrize("size,chows,max_tiles", [(9, True, 6), (7, False, 9)])
def test_profiles_match_oracle_on_all_small_vectors(size: int, chows: bool, max_tiles: int) -> None:
    """Fast per-suit profiles == brute force, every vector up to ``max_tiles`` tiles."""
    for c in oracle.all_vectors(size, max_tiles):
        assert fast_profile(c) == oracle.oracle_profile(c, chows), c


def test_profiles_match_oracle_on_a_seeded_sample() -> None:
    """Fast per-suit profiles == brute force on 700 random vectors of 7-14 tiles."""
    rng = random.Random(20240601)
    for _ in range(700):
        size = 9 if rng.random() < 0.8 else 7
        total = rng.randrange(7, 15)
        c = [0] * size
        while sum(c) < total:
            i = rng.randrange(size)
            if c[i] < 4:
                c[i] += 1
        v = tuple(c)
        assert fast_profile(v) == oracle.oracle_profile(v, size == 9), v


def test_arrangements_match_oracle() -> None:
    """Every arrangement of every vector up to 8 tiles, and of a sample of exact larger ones."""
    for c in oracle.all_vectors(9, 8):
        if sum(c) % 3 != 1:
            assert fast_arrangements(c) == oracle.oracle_arrangements(c), c
    t = _fast.tables()
    exact = [k for k, v in enumerate(t.exact9) if v != _fast.NOT_EXACT]
    rng = random.Random(7)
    for key in rng.sample(exact, 400):
        c = tuple(int(d) for d in f"{_base5(key):>09}")
        assert fast_arrangements(c) == oracle.oracle_arrangements(c), c


def _base5(key: int) -> str:
    digits = ""
    while key:
        key, d = divmod(key, 5)
        digits = str(d) + digits
    return digits or "0"


def compute_aggregates() -> dict[str, object]:
    """Aggregate counts over every number-suit vector with 0-14 tiles, from the fast code."""
    t = _fast.tables()
    by_tiles: dict[int, dict[str, object]] = {}
    for c in itertools.product(range(5), repeat=9):
        n = sum(c)
        if n > 14:
            continue
        key = 0
        for x in c:
            key = key * 5 + x
        prof = t.profiles[t.number[key]]
        row = by_tiles.setdefault(
            n, {"vectors": 0, "exact": 0, "arrangements": 0, "profile_sums": [0] * 10}
        )
        row["vectors"] = int(row["vectors"]) + 1  # type: ignore[call-overload]
        sums = row["profile_sums"]
        assert isinstance(sums, list)
        for j, v in enumerate(prof):
            sums[j] += v
        if t.exact9[key] != _fast.NOT_EXACT:
            row["exact"] = int(row["exact"]) + 1  # type: ignore[call-overload]
            row["arrangements"] = int(row["arrangements"]) + len(fast_arrangements(c))  # type: ignore[call-overload]
    return {
        "what": "number-suit vectors (ranks 0-4) by tile count: how many, how many split exactly "
        "into sets and at most one pair, their arrangements, and sums of profile entries 2*m+p",
        "by_tiles": {str(n): by_tiles[n] for n in sorted(by_tiles)},
    }


@pytest.mark.slow
def test_exhaustive_aggregates_are_pinned() -> None:
    """All 405,350 number-suit vectors: counts match the pinned data file."""
    pinned = json.loads(DATA.read_text(encoding="utf-8"))
    got = compute_aggregates()
    assert got["by_tiles"] == pinned["by_tiles"]
    total = sum(int(r["vectors"]) for r in pinned["by_tiles"].values())
    assert total == 405_350


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(compute_aggregates(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
