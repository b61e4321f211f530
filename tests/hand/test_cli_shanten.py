"""``hkmj shanten``: readable output and the JSON Lines batch format (docs/hand.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hkmahjong.cli import cmd_shanten
from hkmahjong.cli.main import main


def test_readable_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Shanten, waits with unseen copies, useful tiles."""
    assert main(["shanten", "123m456p789s1122z", "--visible", "1z"]) == 0
    out = capsys.readouterr().out
    assert "shanten (向聽): 0 — ready (聽牌)" in out
    assert "東/1z (1 unseen)" in out and "南/2z (2 unseen)" in out
    assert "有效牌" in out


def test_readable_fourteen_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    """A complete hand shows its arrangements and the best discards."""
    assert main(["shanten", "123m456p789s11122z", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "complete" in out and "arrangement" in out and "best discards" in out


def test_bad_hand_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad hand exits 2 with the reason and position."""
    assert main(["shanten", "123x"]) == 2
    assert "position 3" in capsys.readouterr().err


def run_lines(lines: list[str], seven_pairs: bool = False) -> list[dict[str, object]]:
    out = io.StringIO()
    cmd_shanten.process_jsonl(lines, out, seven_pairs=seven_pairs)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_jsonl_format() -> None:
    """Output keys and values follow docs/hand.md; melds as objects."""
    [a, b, c] = run_lines(
        [
            '{"id": "h1", "hand": "123m456p789s1234z"}',
            '{"id": "h2", "hand": "234m44466p", "melds": [{"type": "pung", "tiles": "111s"},'
            ' {"type": "kong", "tiles": "7777z", "exposed": false}]}',
            '{"id": "h3", "hand": "234m4466p", "melds": [{"type": "pung", "tiles": "111s"},'
            ' {"type": "kong", "tiles": "7777z", "exposed": false}]}',
        ]
    )
    assert a == {
        "id": "h1",
        "shanten": 2,
        "regular": 2,
        "thirteen_orphans": 7,
        "waits": [],
        "useful": {"1z": 3, "2z": 3, "3z": 3, "4z": 3},
    }
    assert b["shanten"] == -1 and b["waits"] == [] and b["thirteen_orphans"] is None
    assert c["shanten"] == 0 and c["waits"] == ["4p", "6p"] and c["useful"] == {"4p": 2, "6p": 2}


def test_jsonl_seven_pairs_switch() -> None:
    """--seven-pairs adds the 七對子 shape (and its key)."""
    line = '{"id": 1, "hand": "1155m2288p3399s1z"}'
    [off] = run_lines([line])
    [on] = run_lines([line], seven_pairs=True)
    assert off["shanten"] > 0 and "seven_pairs" not in off
    assert on["shanten"] == 0 and on["seven_pairs"] == 0 and on["waits"] == ["1z"]


def test_jsonl_malformed_lines_do_not_stop_the_batch() -> None:
    """A malformed line gets an error naming what is wrong and where; the others are processed."""
    rows = run_lines(
        [
            "not json",
            '{"id": "x", "hand": "123x"}',
            '{"id": "y", "hand": "123m", "melds": [{"type": "triple", "tiles": "111s"}]}',
            '{"id": "z", "hand": "123m456p789s1122z"}',
            "",
            '["a list"]',
        ]
    )
    assert len(rows) == 5
    assert rows[0]["id"] is None and "line 1" in str(rows[0]["error"])
    assert "position 3" in str(rows[1]["error"]) and rows[1]["id"] == "x"
    assert "melds[0].type" in str(rows[2]["error"])
    assert rows[3]["shanten"] == 0
    assert "JSON object" in str(rows[4]["error"])


def test_jsonl_files_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A readable file exits 0 even with bad lines; an unreadable one exits non-zero."""
    src = tmp_path / "hands.jsonl"
    src.write_text('{"id": 1, "hand": "123m456p789s1122z"}\nbad\n', encoding="utf-8")
    assert main(["shanten", "--jsonl", str(src)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and json.loads(out[0])["waits"] == ["1z", "2z"]
    assert main(["shanten", "--jsonl", str(tmp_path / "missing.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err
