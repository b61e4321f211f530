"""Build the per-suit distance tables of hkmahjong.hand (``src/hkmahjong/hand/data/``).

For every count vector of one number suit (9 ranks, 0-4 copies each: 5**9 vectors) and of the
honours (7 ranks: 5**7), compute its *profile*: for m = 0..4 sets and p = 0..1 pairs, the fewest
tiles to add so the vector contains m sets and p pairs with no count above 4. Profiles are
interned; the data file holds the distinct profiles and, per vector, its profile id.

The computation is exact and independent of the runtime code: the targets (every multiset of m
sets + p pair fitting in 4 copies) are enumerated, then the one-sided distance
``min_t sum_i max(0, t_i - c_i)`` is taken by a separable min-plus transform along each rank.

Usage: ``python tools/build_hand_tables.py [--check]`` (needs numpy; not a runtime dependency).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "src" / "hkmahjong" / "hand" / "data"
INF = 99
MAGIC = b"HKMJHT3\n"


def targets(size: int, chows: bool) -> dict[tuple[int, int], set[tuple[int, ...]]]:
    """Every count vector made of exactly m sets and p pairs (all counts <= 4)."""
    sets: list[tuple[int, ...]] = []
    for i in range(size):
        v = [0] * size
        v[i] = 3
        sets.append(tuple(v))
    if chows:
        for i in range(size - 2):
            v = [0] * size
            v[i] = v[i + 1] = v[i + 2] = 1
            sets.append(tuple(v))
    zero = (0,) * size
    level: set[tuple[int, ...]] = {zero}
    by_m = [level]
    for _ in range(4):
        nxt: set[tuple[int, ...]] = set()
        for x in level:
            for s in sets:
                y = tuple(a + b for a, b in zip(x, s, strict=True))
                if max(y) <= 4:
                    nxt.add(y)
        level = nxt
        by_m.append(level)
    out: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    for m in range(5):
        out[(m, 0)] = by_m[m]
        with_pair: set[tuple[int, ...]] = set()
        for x in by_m[m]:
            for i in range(size):
                if x[i] <= 2:
                    y = list(x)
                    y[i] += 2
                    with_pair.add(tuple(y))
        out[(m, 1)] = with_pair
    return out


def distance_table(size: int, chows: bool) -> np.ndarray:
    """Array of shape (5**size, 10): the profile of every vector (C order, rank 0 most significant)."""
    tg = targets(size, chows)
    prof = np.empty((5,) * size + (10,), dtype=np.uint8)
    for (m, p), ts in tg.items():
        a = np.full((5,) * size, INF, dtype=np.int16)
        idx = np.array(sorted(ts), dtype=np.intp)
        a[tuple(idx.T)] = 0
        for axis in range(size):
            a = np.moveaxis(a, axis, 0)
            new = np.full_like(a, INF)
            for c in range(5):
                for k in range(5):
                    cost = k - c if k > c else 0
                    np.minimum(new[c], a[k] + cost, out=new[c])
            a = np.moveaxis(new, 0, axis)
        prof[..., 2 * m + p] = a
    return prof.reshape(5**size, 10)


def combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Min-plus combination of two profiles (written independently of the runtime's)."""
    return tuple(
        min(
            a[2 * m1 + p1] + b[2 * (m - m1) + (p - p1)]
            for m1 in range(m + 1)
            for p1 in range(p + 1)
        )
        for m in range(5)
        for p in range(2)
    )


def exact_vectors(size: int, chows: bool) -> list[tuple[tuple[int, ...], int]]:
    """Vectors made of exactly m sets and p <= 1 pair, with the code 64 * p + m."""
    out: list[tuple[tuple[int, ...], int]] = []
    for (m, p), ts in sorted(targets(size, chows).items()):
        out += [(t, 64 * p + m) for t in sorted(ts)]
    return out


def build() -> dict[str, bytes]:
    """Compute the tables and return the data files' contents."""
    number = distance_table(9, True)
    honour = distance_table(7, False)
    base = [
        tuple(int(x) for x in row) for row in np.unique(np.concatenate([number, honour]), axis=0)
    ]
    closure = list(base)
    ids = {p: i for i, p in enumerate(closure)}
    frontier = list(closure)
    while frontier:
        fresh = []
        for u in frontier:
            for v in base:
                w = combine(u, v)
                if w not in ids:
                    ids[w] = len(closure)
                    closure.append(w)
                    fresh.append(w)
        frontier = fresh
    nu = len(closure)
    if nu > 255:
        raise SystemExit(f"{nu} profiles do not fit in one byte")
    comb = bytearray(nu * nu)
    final = bytearray(5 * nu * nu)
    for i, u in enumerate(closure):
        for j, v in enumerate(closure):
            w = combine(u, v)
            if w not in ids:
                ids[w] = len(closure)
                closure.append(w)
                raise SystemExit("profile closure is not closed under combination")
            comb[i * nu + j] = ids[w]
            for m in range(5):
                final[m * nu * nu + i * nu + j] = min(w[2 * m + 1], 255)
    num_ids = bytes(ids[tuple(int(x) for x in row)] for row in number)
    hon_ids = bytes(ids[tuple(int(x) for x in row)] for row in honour)
    orphan_code = bytes(
        sum(1 for n in v if n) + (16 if max(v) >= 2 else 0)
        for v in itertools.product(range(5), repeat=7)
    )
    exact9 = exact_vectors(9, True)
    exact7 = exact_vectors(7, False)
    blob = bytearray(MAGIC)
    blob += struct.pack("<IIIII", nu, 5**9, 5**7, len(exact9), len(exact7))
    blob += bytes(x for p in closure for x in p)
    blob += num_ids + hon_ids + orphan_code + comb + final
    blob += b"".join(bytes(t) + bytes([c]) for t, c in exact9)
    blob += b"".join(bytes(t) + bytes([c]) for t, c in exact7)
    data = zlib.compress(bytes(blob), 9)
    meta = {
        "format": "HKMJHT3 (zlib): magic; <IIIII profiles NU, number vectors, honour vectors, "
        "exact number vectors, exact honour vectors; NU x 10 uint8 profiles (entry 2*m+p); "
        "uint8 profile id per number vector; per honour vector; honour 十三幺 code per honour vector "
        "(kinds present + 16 if a pair); NU*NU uint8 combination ids; "
        "5 x NU*NU uint8 distance to m sets + pair of a combination; exact vectors (counts, "
        "then code 64*pairs+sets)",
        "index": "vector index = sum(c[i] * 5**(size-1-i)): rank 1 most significant",
        "profiles": nu,
        "base_profiles": len(base),
        "exact_vectors": [len(exact9), len(exact7)],
        "sha256": hashlib.sha256(data).hexdigest(),
        "built_by": "tools/build_hand_tables.py",
    }
    return {
        "suit_tables.bin": data,
        "suit_tables.json": json.dumps(meta, indent=2).encode() + b"\n",
    }


def main(argv: list[str] | None = None) -> int:
    """Build (or with --check, verify) the committed data files."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="verify the committed files match")
    args = ap.parse_args(argv)
    files = build()
    if args.check:
        ok = all((OUT / n).read_bytes() == b for n, b in files.items())
        print("tables up to date" if ok else "tables differ: rerun tools/build_hand_tables.py")
        return 0 if ok else 1
    OUT.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (OUT / name).write_bytes(content)
        print(f"wrote {OUT / name} ({len(content)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
