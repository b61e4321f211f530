"""JSON Lines input for ``hkmj score --jsonl`` and ``hkmj shanten --jsonl``: one bad line never
loses the batch.

The file is read as bytes and each line decoded on its own: a line that is not UTF-8 becomes an
error for that line only, a UTF-8 byte-order mark before the first line is skipped, and blank lines
are skipped (they get no output line). Only a file that cannot be opened stops the batch.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["Line", "jsonl_lines", "open_jsonl"]

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Line:
    """One non-blank input line: its number (1-based) and its text, or why it cannot be read."""

    number: int
    text: str | None
    error: str = ""


@contextmanager
def open_jsonl(path: str) -> Iterator[Iterable[bytes]]:
    """The lines of ``path`` ('-' = standard input) as bytes, in a ``with`` block.

    :raises OSError: when the file cannot be opened.
    """
    if path != "-":
        with open(path, "rb") as fh:
            yield fh
        return
    buffer = getattr(sys.stdin, "buffer", None)
    yield buffer if buffer is not None else (line.encode("utf-8") for line in sys.stdin)


def jsonl_lines(stream: Iterable[bytes]) -> Iterator[Line]:
    """Every non-blank line of ``stream`` decoded as UTF-8, or an error naming line and byte."""
    for number, raw in enumerate(stream, 1):
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.start + 1].hex()
            yield Line(
                number,
                None,
                f"line {number}: not UTF-8 text (byte 0x{bad} at byte {exc.start + 1}); "
                "this line is skipped",
            )
            continue
        if text.strip():
            yield Line(number, text)
