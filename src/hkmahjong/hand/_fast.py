"""Fast paths over 34-count vectors (internal): the per-suit tables and the regular distance.

The tables (``data/suit_tables.bin``, built by ``tools/build_hand_tables.py``) load on first use
(about 10 ms, under 5 MB): for every single-suit count vector (index: the counts read as a base-5
number, rank 1 most significant) the id of its *profile* — entry ``2*m + p`` is the fewest tiles
to add so the suit holds ``m`` sets and ``p`` pairs — and the min-plus combinations of profiles,
so a whole hand's distance is four index computations and four byte lookups. A second table
marks the vectors that split *exactly* into sets and at most one pair (for win detection).
"""

from __future__ import annotations

import os
import struct
import sys
import zlib
from collections.abc import Sequence

from hkmahjong.errors import InvalidHandError

__all__ = ["NOT_EXACT", "Tables", "regular_distance", "tables"]

_MAGIC = b"HKMJHT3\n"
NOT_EXACT = 255
"""Code of a vector that does not split exactly into sets and at most one pair."""


class Tables:
    """The loaded per-suit tables (see ``tools/build_hand_tables.py`` for the file format)."""

    def __init__(self, raw: bytes) -> None:
        if not raw.startswith(_MAGIC):
            raise InvalidHandError("hand table file is not in format HKMJHT3; rebuild it")
        off = len(_MAGIC)
        nu, n_num, n_hon, n_e9, n_e7 = struct.unpack_from("<IIIII", raw, off)
        off += 20
        self.size: int = nu
        self.profiles: list[tuple[int, ...]] = [
            tuple(raw[off + 10 * i : off + 10 * i + 10]) for i in range(nu)
        ]
        off += 10 * nu
        self.index: dict[tuple[int, ...], int] = {p: i for i, p in enumerate(self.profiles)}
        """Profile -> its id (for profiles computed outside the tables, e.g. under meld caps)."""
        self.number = raw[off : off + n_num]
        off += n_num
        self.honour = raw[off : off + n_hon]
        off += n_hon
        self.honour_orphans = raw[off : off + n_hon]
        off += n_hon
        self.comb = raw[off : off + nu * nu]
        off += nu * nu
        self.final = [raw[off + m * nu * nu : off + (m + 1) * nu * nu] for m in range(5)]
        off += 5 * nu * nu
        exact9 = bytearray([NOT_EXACT]) * n_num
        self.exact9_by_counts: dict[bytes, int] = {}
        """Counts (9 bytes) of every number-suit vector that splits exactly -> its code."""
        for i in range(n_e9):
            rec = raw[off + 10 * i : off + 10 * i + 10]
            exact9[_index(rec[:9])] = rec[9]
            self.exact9_by_counts[rec[:9]] = rec[9]
        off += 10 * n_e9
        exact7 = bytearray([NOT_EXACT]) * n_hon
        self.exact7_by_counts: dict[bytes, int] = {}
        """Counts (7 bytes) of every honour vector that splits exactly -> its code."""
        for i in range(n_e7):
            rec = raw[off + 8 * i : off + 8 * i + 8]
            exact7[_index(rec[:7])] = rec[7]
            self.exact7_by_counts[rec[:7]] = rec[7]
        off += 8 * n_e7
        if off != len(raw):
            raise InvalidHandError("hand table file has trailing bytes; rebuild it")
        self.number_by_counts = _by_counts(9, SMALL_SUIT, self.number)
        """Counts (9 bytes) of every number-suit vector of at most 9 tiles -> its profile id."""
        self.honour_by_counts = _by_counts(7, SMALL_SUIT, self.honour)
        """Counts (7 bytes) of every honour vector of at most 9 tiles -> its profile id."""
        self.exact9 = bytes(exact9)
        """Per number-suit vector: ``64 * pairs + sets`` if it splits exactly, else 255."""
        self.exact7 = bytes(exact7)
        """Per honour vector: ``64 * pairs + sets`` if it splits exactly, else 255."""

    def memory_bytes(self) -> int:
        """Approximate memory held by the tables."""
        parts = (self.number, self.honour, self.honour_orphans, self.comb, self.exact9)
        size = sum(map(sys.getsizeof, (*parts, self.exact7, *self.final)))
        dicts = (self.exact9_by_counts, self.exact7_by_counts, self.index)
        for d in (*dicts, self.number_by_counts, self.honour_by_counts):
            size += sys.getsizeof(d) + sum(map(sys.getsizeof, d))
        return size + sum(sys.getsizeof(p) for p in self.profiles)


SMALL_SUIT = 9
"""Suit vectors of at most this many tiles are also indexed by their count bytes."""


def _by_counts(size: int, max_tiles: int, table: bytes) -> dict[bytes, int]:
    level = [(b"", 0, 0)]
    digits = [bytes([d]) for d in range(5)]
    for _ in range(size):
        level = [
            (prefix + digits[d], tiles + d, index * 5 + d)
            for prefix, tiles, index in level
            for d in range(5)
            if tiles + d <= max_tiles
        ]
    return {prefix: table[index] for prefix, _, index in level}


def _index(counts: Sequence[int]) -> int:
    key = 0
    for n in counts:
        key = key * 5 + n
    return key


_TABLES: Tables | None = None


def tables() -> Tables:
    """The tables, loaded on first use."""
    global _TABLES
    if _TABLES is None:
        # beside the package's own files: the compiled build's module lives in hkmahjong/_compiled
        package = sys.modules.get("hkmahjong.hand")
        here = getattr(package, "__file__", None) or __file__
        path = os.path.join(os.path.dirname(here), "data", "suit_tables.bin")
        if os.path.exists(path):
            with open(path, "rb") as fh:
                data = fh.read()
        else:  # installed in a zip: importlib.resources is slow to import, so only then
            from importlib import resources

            data = resources.files("hkmahjong.hand").joinpath("data/suit_tables.bin").read_bytes()
        _TABLES = Tables(zlib.decompress(data))
    return _TABLES


def regular_distance(c: Sequence[int], meld_count: int) -> int:
    """Fewest tiles to add so the concealed counts hold ``4 - meld_count`` sets and a pair.

    No validation: counts must be 0-4 (callers check).
    """
    t = _TABLES if _TABLES is not None else tables()
    num = t.number
    nu = t.size
    comb = t.comb
    a = num[
        390625 * c[0] + 78125 * c[1] + 15625 * c[2] + 3125 * c[3] + 625 * c[4]
        + 125 * c[5] + 25 * c[6] + 5 * c[7] + c[8]
    ]  # fmt: skip
    b = num[
        390625 * c[9] + 78125 * c[10] + 15625 * c[11] + 3125 * c[12] + 625 * c[13]
        + 125 * c[14] + 25 * c[15] + 5 * c[16] + c[17]
    ]  # fmt: skip
    d = num[
        390625 * c[18] + 78125 * c[19] + 15625 * c[20] + 3125 * c[21] + 625 * c[22]
        + 125 * c[23] + 25 * c[24] + 5 * c[25] + c[26]
    ]  # fmt: skip
    z = t.honour[
        15625 * c[27] + 3125 * c[28] + 625 * c[29] + 125 * c[30] + 25 * c[31] + 5 * c[32] + c[33]
    ]
    return t.final[4 - meld_count][comb[comb[a * nu + b] * nu + d] * nu + z]
