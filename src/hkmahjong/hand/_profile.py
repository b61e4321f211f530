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


_SHIFTS: dict[tuple[int, int], dict[int, int]] = {
    (dm, q): {2 * m + p: 2 * (m + dm) + p + q for m in range(5 - dm) for p in range(2 - q)}
    for dm in range(5)
    for q in range(2)
}
"""(sets added, pair added) -> the (from, to) profile entries it moves between."""


@lru_cache(maxsize=1 << 14)
def suit_profile(counts: tuple[int, ...], caps: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    """Exact profile of one suit by dynamic programming over its ranks (the capped slow path).

    State after rank ``i``: (chows started at ``i``, chows started at ``i - 1``), each with the
    profile of the cheapest ways so far; a rank takes the pending chows, new chows, at most one
    pung and at most one pair, never more than its cap.
    """
    size = len(counts)
    states: dict[tuple[int, int], list[int]] = {(0, 0): [0] + [INF] * (_N - 1)}
    for i in range(size):
        ci = counts[i]
        cap = caps[i]
        max_new = min(4, cap, caps[i + 1], caps[i + 2]) if chows and i + 2 < size else 0
        new: dict[tuple[int, int], list[int]] = {}
        for (s1, s2), prof in states.items():
            base = s1 + s2
            if base > cap:
                continue
            live = [(j, v) for j, v in enumerate(prof) if v < INF]
            for a in range(min(max_new, cap - base) + 1):
                if i + 1 < size and s1 + a > caps[i + 1]:
                    break
                for u in (0, 1):
                    for q in (0, 1):
                        t = base + a + 3 * u + 2 * q
                        if t > cap or a + u > 4:
                            continue
                        cost = t - ci if t > ci else 0
                        key = (a, s1)
                        tgt = new.get(key)
                        if tgt is None:
                            tgt = new[key] = [INF] * _N
                        moves = _SHIFTS[(a + u, q)]
                        for j, v in live:
                            dst = moves.get(j)
                            if dst is not None and v + cost < tgt[dst]:
                                tgt[dst] = v + cost
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
