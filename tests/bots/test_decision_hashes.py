"""Every bot decides as it did before the speed work of issue 16 (tools/decision_hashes.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "decision_hashes.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decision_hashes", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("decision_hashes", module)
    spec.loader.exec_module(module)
    return module


TOOL_MODULE = _tool()
EXPECTED = json.loads(TOOL_MODULE.EXPECTED.read_text())


@pytest.mark.parametrize("key", sorted(EXPECTED["hashes"]))
def test_decisions_unchanged(key: str) -> None:
    preset, lineup = key.split("/")
    got = TOOL_MODULE.lineup_hash(
        preset, TOOL_MODULE.LINEUPS[lineup], EXPECTED["walls"], EXPECTED["seed"]
    )
    assert got == EXPECTED["hashes"][key], f"{key} plays differently from the committed hashes"


def test_hash_sees_a_different_wall() -> None:
    """The hash depends on the play: other walls give another hash."""
    names = TOOL_MODULE.LINEUPS["fan"]
    assert TOOL_MODULE.lineup_hash("parlor", names, 1, "other") != TOOL_MODULE.lineup_hash(
        "parlor", names, 1
    )
