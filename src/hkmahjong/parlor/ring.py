"""環 the last messages of a versioned stream, kept compactly for a reconnect's resync.

A seat's stream (and the spectators') numbers its messages 1, 2, 3 …; a client that reconnects
says the last one it has and receives the rest again, byte for byte, when they are still kept.
:class:`Ring` keeps the last ``size`` of them as UTF-8 in one ``bytearray`` with their lengths
in an ``array`` (no object per message: a busy parlor holds thousands of these rings).

>>> r = Ring(2)
>>> r.append(1, "a"); r.append(2, "碰"); r.append(3, "c")
>>> r.after(1), r.after(3), r.after(0)
(['碰', 'c'], [], None)
"""

from __future__ import annotations

from array import array

__all__ = ["Ring"]


class Ring:
    """The last ``size`` messages of a stream; message ``v`` is kept while ``v > last - size``."""

    __slots__ = ("_data", "_lengths", "last", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.last = 0
        """The version of the newest message kept (0: none yet)."""
        self._data = bytearray()
        self._lengths = array("I")

    def __len__(self) -> int:
        return len(self._lengths)

    def append(self, v: int, text: str) -> None:
        """Keep message ``v`` (the next version; after a gap only the new one is kept)."""
        if v != self.last + 1:
            self._data.clear()
            del self._lengths[:]
        data = text.encode()
        self._data += data
        self._lengths.append(len(data))
        self.last = v
        if len(self._lengths) > self.size:
            del self._data[: self._lengths[0]]
            del self._lengths[0]

    def after(self, v: int) -> list[str] | None:
        """The messages after version ``v``, oldest first; None when some of them are no longer
        kept (or ``v`` is ahead of the stream)."""
        if v > self.last or v < self.last - len(self._lengths):
            return None
        skip = len(self._lengths) - (self.last - v)
        start = sum(self._lengths[:skip])
        out: list[str] = []
        for n in self._lengths[skip:]:
            out.append(self._data[start : start + n].decode())
            start += n
        return out
