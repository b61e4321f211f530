"""The committed per-suit tables (src/hkmahjong/hand/data, built by tools/build_hand_tables.py)."""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path

import pytest

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import _fast

# beside the package (the compiled build serves _fast from hkmahjong/_compiled)
DATA = Path(str(importlib.import_module("hkmahjong.hand").__file__)).parent / "data"


def test_data_file_matches_its_metadata() -> None:
    """The .bin is the file the .json describes (rebuild both with the tool, never by hand)."""
    meta = json.loads((DATA / "suit_tables.json").read_text(encoding="utf-8"))
    blob = (DATA / "suit_tables.bin").read_bytes()
    assert hashlib.sha256(blob).hexdigest() == meta["sha256"]
    t = _fast.tables()
    assert t.size == meta["profiles"] <= 255
    assert [len(t.exact9_by_counts), len(t.exact7_by_counts)] == meta["exact_vectors"]


def test_table_shapes_and_memory() -> None:
    """Every vector has a profile; the tables stay well under the 50 MB budget."""
    t = _fast.tables()
    assert len(t.number) == 5**9 and len(t.honour) == 5**7
    assert max(t.number) < t.size and max(t.honour) < t.size
    assert len(t.comb) == t.size**2 and all(len(f) == t.size**2 for f in t.final)
    assert t.profiles[t.number[0]] == (0, 2, 3, 5, 6, 8, 9, 11, 12, 14)  # the empty suit
    assert t.memory_bytes() < 50_000_000


def test_corrupt_table_file_is_reported() -> None:
    """A file in another format is an error that says to rebuild it."""
    with pytest.raises(InvalidHandError, match="rebuild"):
        _fast.Tables(b"not a table file")
