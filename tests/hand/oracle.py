"""Slow brute-force oracles for the hand algorithms, written for the tests (not shared with src).

Single suit: a count vector of ``size`` ranks (9 for a number suit, 7 for honours: no chows).
- ``targets(size, chows)``: every vector made of exactly m sets and p pairs (m 0-4, p 0-1),
  counts at most 4 — generated as multisets of groups.
- ``oracle_profile(c, ...)``: for each (m, p), min over those targets t of sum(max(0, t_i - c_i)):
  the fewest tiles to add to ``c`` so that it contains m sets and p pairs.
- ``oracle_arrangements(c, ...)``: every multiset of groups (sets and at most one pair) whose
  tiles are exactly ``c``.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

Vector = tuple[int, ...]


def _groups(size: int, chows: bool) -> list[tuple[str, int, Vector]]:
    out: list[tuple[str, int, Vector]] = []
    for i in range(size):
        out.append(("pung", i, tuple(3 if j == i else 0 for j in range(size))))
    if chows:
        for i in range(size - 2):
            out.append(("chow", i, tuple(1 if i <= j <= i + 2 else 0 for j in range(size))))
    return out


@cache
def targets(size: int, chows: bool) -> dict[tuple[int, int], np.ndarray]:
    """(m, p) -> array of every distinct target vector (rows)."""
    groups = [g for _, _, g in _groups(size, chows)]
    out: dict[tuple[int, int], np.ndarray] = {}
    for m in range(5):
        vecs: set[Vector] = set()
        for combo in itertools.combinations_with_replacement(range(len(groups)), m):
            v = [0] * size
            for gi in combo:
                for j, n in enumerate(groups[gi]):
                    v[j] += n
            if max(v, default=0) <= 4:
                vecs.add(tuple(v))
        with_pair: set[Vector] = set()
        for v in vecs:
            for i in range(size):
                if v[i] + 2 <= 4:
                    with_pair.add(tuple(n + 2 if j == i else n for j, n in enumerate(v)))
        out[(m, 0)] = np.array(sorted(vecs), dtype=np.int16).reshape(-1, size)
        out[(m, 1)] = np.array(sorted(with_pair), dtype=np.int16).reshape(-1, size)
    return out


def oracle_profile(c: Vector, chows: bool = True) -> tuple[int, ...]:
    """Entry 2*m + p: fewest tiles to add so ``c`` contains m sets and p pairs."""
    vec = np.array(c, dtype=np.int16)
    tg = targets(len(c), chows)
    return tuple(
        int(np.maximum(tg[(m, p)] - vec, 0).sum(axis=1).min()) for m in range(5) for p in range(2)
    )


def oracle_arrangements(c: Vector, chows: bool = True) -> list[tuple[tuple[str, int], ...]]:
    """Every multiset of sets (+ at most one pair) using exactly the tiles of ``c``, sorted."""
    size = len(c)
    groups = _groups(size, chows)
    found: list[tuple[tuple[str, int], ...]] = []

    def rec(k: int, rest: list[int], chosen: list[tuple[str, int]]) -> None:
        if k == len(groups):
            if not any(rest):
                found.append(tuple(chosen))
            elif sum(rest) == 2 and max(rest) == 2:
                found.append((*chosen, ("pair", rest.index(2))))
            return
        name, first, vec = groups[k]
        times = 0
        while True:
            rec(k + 1, rest, chosen + [(name, first)] * times)
            if any(r < v for r, v in zip(rest, vec, strict=True)):
                break
            rest = [r - v for r, v in zip(rest, vec, strict=True)]
            times += 1

    rec(0, list(c), [])
    return sorted(tuple(sorted(a)) for a in found)


def all_vectors(size: int, max_tiles: int) -> list[Vector]:
    """Every vector of ``size`` ranks, counts 0-4, at most ``max_tiles`` tiles."""
    return [v for v in itertools.product(range(5), repeat=size) if sum(v) <= max_tiles]
