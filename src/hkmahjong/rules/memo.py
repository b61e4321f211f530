"""快取: caches keyed by an object's identity that can never answer for another object.

``id(obj)`` is unique only while ``obj`` lives: CPython gives a freed object's address to the
next object of its size, so a dict keyed by ``id(ruleset)`` alone answers a new ruleset with a
dropped one's values. :class:`IdentityMemo` keeps every keyed object alive in its entry and
checks ``is`` on each hit, so an id is never reused while its entry stands. Use it for values
derived from a :class:`~hkmahjong.rules.Ruleset` (or any object compared by value that is too
costly to hash), with an optional extra key.

>>> from dataclasses import replace
>>> from hkmahjong.rules import get_preset
>>> memo: IdentityMemo[object, int] = IdentityMemo(limit=8)
>>> parlor = get_preset("parlor")
>>> memo.get(parlor, "min") is None
True
>>> memo.put(parlor, "min", parlor.min_fan)
3
>>> memo.get(parlor, "min"), memo.get(replace(parlor), "min")
(3, None)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["IdentityMemo"]

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """A bounded cache keyed by (object identity, extra key) that holds each keyed object.

    When more than ``limit`` entries are held it is emptied (the caches it serves are
    recomputed cheaply; emptying cannot make an answer stale since entries hold their objects).
    """

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int) -> None:
        """An empty memo of at most ``limit`` entries (then it starts again)."""
        self._entries: dict[tuple[int, Hashable], tuple[K, V]] = {}
        self._limit = limit

    def get(self, obj: K, key: Hashable = None) -> V | None:
        """The value stored for this very ``obj`` (and ``key``), else None."""
        hit = self._entries.get((id(obj), key))
        if hit is not None and hit[0] is obj:
            return hit[1]
        return None

    def put(self, obj: K, key: Hashable, value: V) -> V:
        """Store ``value`` for ``obj`` (and ``key``) and return it."""
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[(id(obj), key)] = (obj, value)
        return value

    def clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()

    def __len__(self) -> int:
        """Number of entries held."""
        return len(self._entries)
