"""Issue 13 items 10-12: one bad line never loses a batch, a line reads no file it was not allowed
to, errors echo only a short excerpt, and ``total_fan`` is null where no fan was computed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules import load_ruleset
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.batch import BatchRules, score_line, score_request

PARLOR = get_preset("parlor")
WIN = "123m456p789s11155z"


def _run(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> tuple[int, list[dict[str, object]]]:
    rc = main(argv)
    out = capsys.readouterr().out
    return rc, [json.loads(line) for line in out.splitlines()]


def _line(obj: object, load: BatchRules | None = None) -> dict[str, object]:
    return score_line(json.dumps(obj), 1, PARLOR, load or BatchRules())


# --- item 10: every line its own answer ------------------------------------------------------
def test_bad_byte_bom_blank_and_long_rules_each_get_their_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A BOM, a non-UTF-8 byte, a blank line and a 300-character rules string: the good lines
    are all scored, each bad one gets an error line, the exit status is 0."""
    good = json.dumps({"id": "g", "hand": WIN}).encode()
    lines = [
        b"\xef\xbb\xbf" + good,
        b'{"id": "bad", "hand": "123m\xff"}',
        b"",
        b"   ",
        json.dumps({"id": "long", "hand": WIN, "rules": "x" * 300}).encode(),
        good,
    ]
    path = tmp_path / "batch.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    rc, out = _run(capsys, ["score", "--jsonl", str(path)])
    assert rc == 0
    assert [o["id"] for o in out] == ["g", None, "long", "g"]
    assert out[0]["valid_win"] is True and out[3] == out[0]
    assert "line 2: not UTF-8" in str(out[1]["error"])
    assert "line 5: rules" in str(out[2]["error"]) and "Errno" not in str(out[2]["error"])
    assert len(str(out[2]["error"])) < 400


def test_only_an_unopenable_file_is_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 2 only when the file cannot be opened (docs/calculator.md, *Batches*)."""
    assert main(["score", "--jsonl", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_shanten_batch_survives_bad_bytes_and_bom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The analyser's batch reads the same way: BOM skipped, a bad line answered alone."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"id": 1, "hand": "123m456p789s1122z"}\n{"id": 2, "hand": "1\xfe"}\n'
        b'{"id": 3, "hand": "123m456p789s1122z"}\n'
    )
    rc, out = _run(capsys, ["shanten", "--jsonl", str(path)])
    assert rc == 0
    assert [o["id"] for o in out] == [1, None, 3]
    assert out[0]["shanten"] == 0 and "not UTF-8" in str(out[1]["error"])


def test_toml_file_with_bom_loads(tmp_path: Path) -> None:
    """A ruleset TOML saved with a UTF-8 BOM (Windows editors) reads like one without."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfpreset = "parlor"\nmin_fan = 1\n')
    assert load_ruleset(str(path)).min_fan == 1


# --- item 11: no file outside --rules-dir, no file content, short excerpts -------------------
def test_a_line_cannot_read_a_file_and_never_echoes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """{"rules": "/any/path"} is refused without reading it; with --rules-dir a bad file's content
    is never shown, and a path leaving the directory is refused."""
    secret = tmp_path / "secret.toml"
    secret.write_text("secret_token = 'hunter2'\n", encoding="utf-8")
    path = tmp_path / "b.jsonl"
    rows = [
        {"id": 1, "hand": WIN, "rules": str(secret)},
        {"id": 2, "hand": WIN, "rules": "secret.toml"},
        {"id": 3, "hand": WIN, "rules": "../secret.toml"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _, out = _run(capsys, ["score", "--jsonl", str(path)])
    assert all("hunter2" not in json.dumps(o) and "--rules-dir" in str(o["error"]) for o in out)
    sub = tmp_path / "rules"
    sub.mkdir()
    (sub / "secret.toml").write_text("secret_token = 'hunter2'\n", encoding="utf-8")
    (sub / "one.toml").write_text('preset = "parlor"\nmin_fan = 1\n', encoding="utf-8")
    rows.append({"id": 4, "hand": WIN, "rules": "one.toml"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _, out = _run(capsys, ["score", "--jsonl", str(path), "--rules-dir", str(sub)])
    assert all("hunter2" not in json.dumps(o) for o in out)
    assert "not inside --rules-dir" in str(out[0]["error"])
    assert "not a valid ruleset" in str(out[1]["error"])
    assert "not inside --rules-dir" in str(out[2]["error"])
    assert out[3]["valid_win"] is True and "min_fan" not in json.dumps(out[3])


def test_inline_toml_rules() -> None:
    """A line's rules may be inline TOML (a house rule per line, no file)."""
    out = _line({"hand": "123m456p789s55s [222p] 3f", "rules": 'preset = "parlor"\nmin_fan = 0'})
    assert out["valid_win"] is True and out["total_fan"] == 0


@pytest.mark.parametrize(
    "obj",
    [
        {"id": "big", "hand": "1m" * 60_000},
        {"id": "big", "hand": {"concealed": "1m" * 60_000}},
        {"id": "big", "hand": WIN, "context": {"seat_wind": "S" * 60_000}},
        {"id": "big", "hand": WIN, "context": {"special": ["x" * 60_000]}},
        {"id": "big", "hand": WIN, "context": {"x" * 60_000: 1}},
        {"id": "x" * 60_000, "hand": WIN},
        {"id": "big", "hand": WIN, "rules": "preset = 'parlor'\nmin_fan = '" + "9" * 60_000 + "'"},
    ],
)
def test_errors_echo_only_a_short_excerpt(obj: dict[str, object]) -> None:
    """A 120 KB field is never echoed back whole."""
    out = _line(obj)
    assert len(json.dumps(out, ensure_ascii=False)) < 1_000, str(out)[:300]


def test_score_request_is_the_reusable_line_function() -> None:
    """score_request takes one decoded object and returns the output object (never raises)."""
    assert score_request({"hand": WIN}, PARLOR, BatchRules())["valid_win"] is True
    assert "error" in score_request(["not", "an", "object"], PARLOR, BatchRules())
    assert "error" in score_request({"hand": WIN, "rules": "/etc/passwd"}, PARLOR, BatchRules())


# --- item 12: total_fan null where nothing was computed; the hints -----------------------------
@pytest.mark.parametrize(
    ("hand", "ctx", "reason"),
    [
        ("1357m456p789s1234z", {}, "not_complete"),
        ("123m456p789s111555z", {}, "invalid_tile_count"),
        ({"concealed": "11111m456p789s5s"}, {}, "invalid_hand"),
        (
            "123m456p789s11155z",
            {"special": ["kong_replacement"], "self_drawn": True},
            "invalid_context",
        ),
        ("123m456p789s1115Xz", {}, "bad_notation"),
    ],
)
def test_total_fan_is_null_when_no_fan_was_computed(
    hand: object, ctx: dict[str, object], reason: str
) -> None:
    """docs/calculator.md, *Batches*: a total only for a win or a complete hand below the minimum."""
    out = _line({"hand": hand, "context": ctx})
    assert out["reason"] == reason and out["total_fan"] is None, out


def test_total_fan_given_below_the_minimum() -> None:
    """A complete hand below the minimum keeps its total (P 三番起糊: 雞糊 0)."""
    out = _line({"hand": "123m456p789s55s [222p] 3f"})
    assert out["reason"] == "below_minimum_fan" and out["total_fan"] == 0


def test_fifteen_tiles_get_the_right_hint() -> None:
    """15 tiles: one too many (a kong written as concealed tiles), not 'include the winning tile'."""
    out = _line({"hand": "123m456p789s111555z"})
    assert "too many" in str(out["message"]) and "include the winning" not in str(out["message"])
    out = _line({"hand": "123m456p789s1155z"})
    assert "include the winning tile" in str(out["message"])


@pytest.mark.parametrize("line", ['{"hand": "1\x01"}', '{"hand": "123', "{'hand': 1}", "{"])
def test_json_errors_say_at_column_once(line: str) -> None:
    """A JSON error reads '… at column N', never 'at at column'."""
    out = score_line(line, 3, PARLOR, BatchRules())
    assert "at at" not in str(out["error"]) and "line 3: not valid JSON" in str(out["error"])
    assert "column" in str(out["error"])


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_json_error_column_is_on_the_line_itself(end: str) -> None:
    """A line cut short is wrong where it stops (column 10 of '{"hand": '), not at 'column 1'
    of the line's own end of line (as a file or stdin hands it over)."""
    out = score_line('{"hand": ' + end, 1, PARLOR, BatchRules())
    assert str(out["error"]).endswith("at column 10"), out
