"""Where a command's game records go as they are written (``hkmj sim --log``, ``hkmj arena --log``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from hkmahjong.errors import MahjongError

__all__ = ["record_sink"]


@contextlib.contextmanager
def record_sink(path: str | None) -> Iterator[Callable[[str], object] | None]:
    """Where the record's lines go as they are emitted: the file (opened before the first hand,
    so a bad path fails at once), standard output for ``-``, or nowhere."""
    if path is None:
        yield None
        return
    if path == "-":
        yield sys.stdout.write
        sys.stdout.flush()
        return
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise MahjongError(f"cannot write the record to {path}: {exc.strerror}") from None
    try:
        yield handle.write
    except OSError as exc:
        raise MahjongError(f"cannot write the record to {path}: {exc.strerror}") from None
    finally:
        handle.close()
