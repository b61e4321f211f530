"""Per-suit distance profiles: the exact engine under shanten (internal).

A *profile* of one suit's count vector ``c`` is a 10-tuple: entry ``2*m + p`` is the fewest tiles
that must be added to ``c`` so that it contains ``m`` sets and ``p`` pairs (``m`` 0–4, ``p`` 0–1)
with no count above its cap (4, less the copies held in melds). Suits are independent, so the
distance of a whole hand is the min-plus combination of its four profiles.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["INF", "combine", "suit_profile"]

INF = 99
_N = 10


@lru_cache(maxsize=1 << 16)
def suit_profile(counts: tuple[int, ...], caps: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    """Exact profile of one suit by dynamic programming over its ranks (slow path)."""
    size = len(counts)
    # state (chows started at i-1, chows started at i-2) -> profile so far
    states: dict[tuple[int, int], list[int]] = {(0, 0): [0] + [INF] * (_N - 1)}
    for i in range(size):
        ci = counts[i]
        cap = caps[i]
        new: dict[tuple[int, int], list[int]] = {}
        max_new = 4 if chows and i + 2 < size else 0
        for (s1, s2), prof in states.items():
            base = s1 + s2
            if base > cap:
                continue
            for a in range(max_new + 1):
                for u in (0, 1):
                    for q in (0, 1):
                        t = base + a + 3 * u + 2 * q
                        if t > cap:
                            continue
                        dm = a + u
                        if dm > 4:
                            continue
                        cost = t - ci if t > ci else 0
                        key = (a, s1)
                        tgt = new.get(key)
                        if tgt is None:
                            tgt = new[key] = [INF] * _N
                        for m in range(5 - dm):
                            for p in range(2 - q):
                                v = prof[2 * m + p]
                                if v >= INF:
                                    continue
                                j = 2 * (m + dm) + p + q
                                if v + cost < tgt[j]:
                                    tgt[j] = v + cost
        states = new
    result = states.get((0, 0))
    return tuple(result) if result is not None else (INF,) * _N


def combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Min-plus combination of two profiles (the profile of the union of two disjoint groups)."""
    out = [INF] * _N
    for m1 in range(5):
        for p1 in range(2):
            va = a[2 * m1 + p1]
            if va >= INF:
                continue
            for m2 in range(5 - m1):
                for p2 in range(2 - p1):
                    v = va + b[2 * m2 + p2]
                    j = 2 * (m1 + m2) + p1 + p2
                    if v < out[j]:
                        out[j] = v
    return tuple(out)
