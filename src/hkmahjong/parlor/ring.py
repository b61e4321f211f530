"""環 the last messages of a versioned stream, kept compactly for a reconnect's resync.

A seat's stream (and the spectators') numbers its messages 1, 2, 3 …; a client that reconnects
says the last one it has and receives the rest again, byte for byte, when they are still kept.
:class:`Ring` keeps at least the last ``size`` of them: the newest as UTF-8 in one
``bytearray``, the older ones ``zlib``-compressed by chunks of ``chunk`` messages (JSON frames
compress several times over; a busy parlor holds five of these rings per table, and a resync is
rare), with their lengths in an ``array`` (no object per message).

>>> r = Ring(2, chunk=1)
>>> r.append(1, "a"); r.append(2, "碰"); r.append(3, "c")
>>> r.after(1), r.after(3), r.after(0)
(['碰', 'c'], [], None)
"""

from __future__ import annotations

import zlib
from array import array

__all__ = ["CHUNK", "Ring"]

CHUNK = 16
"""Messages compressed together (the newest ``< CHUNK`` stay as they are)."""
_WBITS = 12
_MEM_LEVEL = 4
"""A 4 KiB window and a small state: a chunk is a few KiB, and zlib's default state (256 KiB,
cleared for every compression) costs seven times the compression itself."""


def _split(data: bytes | bytearray, lengths: array[int]) -> list[str]:
    out: list[str] = []
    start = 0
    for n in lengths:
        out.append(data[start : start + n].decode())
        start += n
    return out


class Ring:
    """At least the last ``size`` messages of a stream (message ``v`` is kept while
    ``v > last - size``; up to ``2 * (chunk - 1)`` older ones may be kept too)."""

    __slots__ = ("_chunks", "_count", "_lengths", "_tail", "chunk", "last", "size")

    def __init__(self, size: int, *, chunk: int = CHUNK) -> None:
        self.size = size
        self.chunk = max(1, chunk)
        self.last = 0
        """The version of the newest message kept (0: none yet)."""
        self._count = 0
        self._chunks: list[tuple[bytes, array[int]]] = []
        self._tail = bytearray()
        self._lengths: array[int] = array("I")

    def __len__(self) -> int:
        """How many messages are kept."""
        return self._count

    def append(self, v: int, text: str) -> None:
        """Keep message ``v`` (the next version; after a gap only the new one is kept)."""
        if v != self.last + 1:
            self._chunks = []
            self._tail = bytearray()
            self._lengths = array("I")
            self._count = 0
        data = text.encode()
        self._tail += data
        self._lengths.append(len(data))
        self._count += 1
        self.last = v
        if len(self._lengths) >= self.chunk:
            packer = zlib.compressobj(1, zlib.DEFLATED, -_WBITS, _MEM_LEVEL)
            self._chunks.append((packer.compress(self._tail) + packer.flush(), self._lengths))
            self._tail = bytearray()
            self._lengths = array("I")
            chunks = self._chunks
            while chunks and self._count - len(chunks[0][1]) >= self.size:
                self._count -= len(chunks[0][1])
                del chunks[0]

    def after(self, v: int) -> list[str] | None:
        """The messages after version ``v``, oldest first; None when some of them are no longer
        kept (or ``v`` is ahead of the stream)."""
        if v > self.last or v < self.last - self._count:
            return None
        need = self.last - v
        if need == 0:
            return []
        out: list[str] = []
        for packed, lengths in self._chunks:
            out += _split(zlib.decompress(packed, -_WBITS), lengths)
        out += _split(self._tail, self._lengths)
        return out[len(out) - need :]
