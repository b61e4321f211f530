"""hkmj score: the human breakdown, --json, and --jsonl exactly as docs/calculator.md, *Batches* specifies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.batch import score_line

EXAMPLE_IN = {
    "id": "case-7",
    "hand": {
        "concealed": "234m44466p",
        "melds": [
            {"type": "pung", "tiles": "111s", "exposed": True},
            {"type": "kong", "tiles": "7777z", "exposed": False},
        ],
        "winning_tile": "6p",
    },
    "context": {
        "self_drawn": False,
        "seat_wind": "S",
        "prevailing_wind": "E",
        "flowers": ["2f", "2g"],
        "special": ["last_tile"],
        "winner_seat": "S",
        "discarder_seat": "E",
    },
    "rules": "parlor",
}
EXAMPLE_OUT = {
    "id": "case-7",
    "valid_win": True,
    "reason": None,
    "total_fan": 4,
    "limit": False,
    "items": [
        {"id": "RED_DRAGON", "zh": "中", "en": "Red dragon pung", "fan": 1},
        {"id": "LAST_DISCARD", "zh": "海底炮", "en": "Win on the last discard", "fan": 1},
        {"id": "SEAT_BONUS", "zh": "正花", "en": "Own bonus tile", "fan": 2},
    ],
    "arrangement": ["234m", "444p", "66p", "111s", "7777z"],
    "payment": {
        "share": 8,
        "self_draw_each": 8,
        "discarder_full_gun": 24,
        "discarder_half_gun": 16,
        "others_half_gun": 8,
        "settlement": {"S": 24, "E": -24, "W": 0, "N": 0},
    },
}


def _score(obj: object) -> dict[str, object]:
    return score_line(json.dumps(obj), 1, get_preset("parlor"), get_preset)


def test_batch_example_is_reproduced_exactly() -> None:
    """docs/calculator.md's batch format example line gives exactly its example output (P 海底炮, 正花, 全銃 3 份)."""
    assert _score(EXAMPLE_IN) == EXAMPLE_OUT


def test_batch_settlement_sums_to_zero_and_self_draw() -> None:
    """A self-drawn line with a winner seat settles three payers (P 自摸: 三家各付一份)."""
    obj = {
        "id": "sd",
        "hand": {"concealed": "123m456p789s11155z"},
        "context": {"self_drawn": True, "seat_wind": "E", "winner_seat": "E"},
    }
    out = _score(obj)
    settlement = out["payment"]["settlement"]  # type: ignore[index]
    assert sum(settlement.values()) == 0 and settlement["E"] > 0
    assert "message" in out  # winning tile unknown: the calculator says so


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ({"id": "a", "hand": {"concealed": "234m4446p"}}, "invalid_tile_count"),
        ({"id": "b", "hand": {"concealed": "123m456p789s235m55s"}}, "not_complete"),
        ({"id": "c", "hand": {"concealed": "123m456p789s55s222p"}}, "below_minimum_fan"),
        ({"id": "d", "hand": {"concealed": "123m456p789x55s222p"}}, "bad_notation"),
        ({"id": "e", "hand": {"concealed": "11111m456p789s55s"}}, "invalid_hand"),
    ],
)
def test_batch_reason_codes(obj: dict[str, object], reason: str) -> None:
    """Non-wins carry a reason code and a human message (docs/calculator.md, *Batches*)."""
    out = _score(obj)
    assert out["valid_win"] is False and out["reason"] == reason and out["message"]


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        '{"id": "m", "hand": {"concealed": "123m456p789s55s", "melds": [{"type": "pong", "tiles": "222p"}]}}',
        '{"id": "s", "hand": {"concealed": "123m456p789s55s222p"}, "context": {"special": ["moon"]}}',
        '{"id": "w", "hand": {"concealed": "123m456p789s55s222p"}, "context": {"seat_wind": "X"}}',
        '{"id": "r", "hand": {"concealed": "123m456p789s55s222p"}, "rules": "nosuchpreset"}',
        "[1, 2]",
    ],
)
def test_batch_malformed_lines_give_an_error(line: str) -> None:
    """A malformed line produces {"error": ...} naming the line, never an exception."""
    out = score_line(line, 7, get_preset("parlor"), get_preset)
    assert "line 7" in str(out["error"])


def test_jsonl_file_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every line is answered in order; exit 0 even with bad lines, non-zero for a missing file."""
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps(EXAMPLE_IN) + "\nnot json\n\n" + json.dumps(EXAMPLE_IN) + "\n", "utf-8")
    assert main(["score", "--jsonl", str(f)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x.get("id") for x in lines] == ["case-7", None, "case-7"]
    assert lines[0] == EXAMPLE_OUT and "error" in lines[1]
    assert main(["score", "--jsonl", str(tmp_path / "missing.jsonl")]) != 0


def test_cli_breakdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The table shows Chinese with English alongside, the total, the limit and who pays."""
    code = main(["score", "123m456p789s111z55s", "--self-drawn", "--rules", "parlor"])
    out = capsys.readouterr().out
    assert code == 0
    for text in ("自摸", "Self-drawn", "門前清", "總番數", "5 番", "上限 limit 10", "結算"):
        assert text in out, text


def test_cli_lang_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--lang zh-Hans uses simplified names; --json prints one object with the payment."""
    main(["score", "111z222z333z44z [123m] 3f", "--seat", "N", "--round", "N", "--lang", "zh-Hans"])
    assert "总番数" in capsys.readouterr().out
    main(["score", "234m44466p [111s] (7777z) 2f2g", "--seat", "S", "--winning-tile", "6p",
          "--discarder", "E", "--last-tile", "--json"])  # fmt: skip
    obj = json.loads(capsys.readouterr().out)
    assert obj["total_fan"] == 4 and obj["payment"]["settlement"] == {
        "E": -24,
        "S": 24,
        "W": 0,
        "N": 0,
    }


def test_cli_bad_input_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Bad notation is a clear error with exit status 2, not a traceback."""
    assert main(["score", "123x"]) == 2
    assert "hkmj: error" in capsys.readouterr().err


def test_bare_hkmj_scores_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    """cmd_score.default_main prints a scored example and then the help."""
    import argparse

    from hkmahjong.cli import cmd_score
    from hkmahjong.cli.main import build_parser

    parser = build_parser()
    assert isinstance(parser, argparse.ArgumentParser)
    assert cmd_score.default_main(parser) == 0
    out = capsys.readouterr().out
    assert "4 番" in out and "usage: hkmj" in out


def test_docs_calculator_example_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/calculator.md's example session is what hkmj score prints today (docs in step)."""
    import re
    import shlex

    doc = (Path(__file__).parents[2] / "docs" / "calculator.md").read_text("utf-8")
    block = re.search(r"```\n\$ (hkmj score .*?)\n(.*?)```", doc, re.S)
    assert block is not None
    argv = shlex.split(block.group(1))[1:]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == block.group(2).strip()
    batch_in = re.search(r"Input:\n\n```json\n(.*?)```", doc, re.S)
    batch_out = re.search(r"Output \(same order\):\n\n```json\n(.*?)```", doc, re.S)
    assert batch_in and batch_out
    got = score_line(" ".join(batch_in.group(1).split()), 1, get_preset("parlor"), get_preset)
    assert got == json.loads(batch_out.group(1))


def test_thirteen_tiles_score_each_wait(capsys: pytest.CaptureFixture[str]) -> None:
    """A 13-tile hand lists each wait with its score (W2 九蓮寶燈 聽九張: nine waits, each 10)."""
    from hkmahjong.hand import Hand
    from hkmahjong.scoring import WinContext, score_waits

    got = score_waits(Hand.from_text("1112345678999m"), WinContext(), get_preset("parlor"))
    assert [t.mpsz for t, _ in got] == [f"{i}m" for i in range(1, 10)]
    assert all(r.total_fan == 10 and r.is_limit for _, r in got)
    assert main(["score", "123m456p789s11z55s", "--self-drawn", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert {w["tile"]: w["total_fan"] for w in obj["waits"]} == {"5s": 3, "1z": 5}
    assert main(["score", "123m456p789s13z55s"]) == 0
    assert "not ready" in capsys.readouterr().out
