"""docs/protocol.md's JSON examples are what the code sends: tools/protocol_doc.py regenerates them.

On a difference, read the diff: if the protocol change is intended, run
``.venv/bin/python tools/protocol_doc.py`` and commit the doc (and tell the client's authors).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "protocol_doc", ROOT / "tools" / "protocol_doc.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["protocol_doc"] = mod
    spec.loader.exec_module(mod)
    return mod


tool = _load_tool()


def test_doc_examples_are_generated() -> None:
    """Every generated block of the doc equals what the code builds today."""
    text = tool.DOC.read_text(encoding="utf-8")
    assert tool.render(text) == text, "run .venv/bin/python tools/protocol_doc.py"


def test_every_example_is_in_the_doc() -> None:
    """No example is left out of the doc, and the doc names no missing example."""
    named = set(re.findall(r"<!-- gen:([a-z_]+) -->", tool.DOC.read_text(encoding="utf-8")))
    assert named == set(tool.EXAMPLES)


def test_examples_are_json_messages() -> None:
    """Each JSON block holds JSON objects with a message type ``t`` (one per line when compact)."""
    for name, build in tool.EXAMPLES.items():
        if name in ("error_codes", "view_turn", "view_over"):
            continue
        body = build()
        objs = (
            [json.loads(body)]
            if body.startswith("{\n")
            else [json.loads(line) for line in body.splitlines()]
        )
        assert objs and all(isinstance(o, dict) and "t" in o for o in objs), name


def test_events_example_covers_every_kind_a_seat_receives() -> None:
    """The events example shows every event kind except the referee's and 詐糊 (physical only)."""
    kinds = {json.loads(line)["event"]["kind"] for line in tool.EXAMPLES["events"]().splitlines()}
    from hkmahjong.engine.events import EventKind

    missing = {k.value for k in EventKind} - kinds - {"decision", "false_win"}
    assert missing <= {"decline_bonus_win"}, missing
