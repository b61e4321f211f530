"""A record's lines hold exactly their documented fields (issue 13 item 5, and item 3's digest).

docs/records.md "The format": a header names its ruleset one way (``preset`` or ``toml``) with a
required digest; a field a line type does not have is refused by ``hkmj replay --verify``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, RecordError, seed_from_text, verify
from hkmahjong.rules import get_preset, ruleset_to_toml


@pytest.fixture(scope="module")
def lines() -> list[str]:
    players = [RandomPlayer(f"strict/{i}", win_bias=0.9) for i in range(4)]
    match = Match(length=MatchLength.ONE_HAND)
    record = run_match(match, get_preset("parlor"), players, match_seed=seed_from_text("strict"))
    return record.dumps().splitlines()


def _edit(lines: list[str], index: int, **changes: object) -> str:
    obj = json.loads(lines[index])
    for key, value in changes.items():
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = value
    edited = list(lines)
    edited[index] = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return "\n".join(edited) + "\n"


def _verify_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> str:
    path = tmp_path / "edited.jsonl"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", "--verify", str(path)]) == 2
    return capsys.readouterr().err


def test_the_unedited_record_verifies(lines: list[str]) -> None:
    """The fixture itself is a good record (so each refusal below is the edit's doing)."""
    assert verify(GameRecord.loads("\n".join(lines) + "\n")).hands == 1


def test_rules_with_both_preset_and_toml_fail_verify(
    lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 5: ``preset`` and ``toml`` together (the TOML saying something else) is refused."""
    rules = dict(json.loads(lines[0])["rules"])
    rules["toml"] = ruleset_to_toml(get_preset("ml"))
    err = _verify_fails(tmp_path, capsys, _edit(lines, 0, rules=rules))
    assert "line 1: the rules hold both 'preset' and 'toml'" in err


@pytest.mark.parametrize(
    ("index", "key", "message"),
    [
        (0, "comment", "unknown field(s) in a 'header' line: comment"),
        (1, "seed", "unknown field(s) in a 'hand' line: seed"),
        (2, "note", "unknown field(s) in a 'act' line: note"),
        (-1, "extra", "unknown field(s) in a 'match_end' line: extra"),
    ],
)
def test_unknown_keys_fail_verify(
    lines: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    index: int,
    key: str,
    message: str,
) -> None:
    """Item 5: a field a line type does not have fails --verify, naming the line and the field."""
    err = _verify_fails(tmp_path, capsys, _edit(lines, index, **{key: "x"}))
    line = index + 1 if index >= 0 else len(lines)
    assert f"line {line}: {message}" in err


def test_unknown_keys_inside_rules_and_match_fail_verify(
    lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 5: the header's ``rules`` and ``match`` objects are closed too."""
    header = json.loads(lines[0])
    rules = {**header["rules"], "min_fan": 0}
    err = _verify_fails(tmp_path, capsys, _edit(lines, 0, rules=rules))
    assert "line 1: unknown field(s) in the rules: min_fan" in err
    match = {**header["match"], "opponents": "easy"}
    err = _verify_fails(tmp_path, capsys, _edit(lines, 0, match=match))
    assert "line 1: bad match settings: unknown match setting(s): opponents" in err


def test_a_ruleset_without_its_digest_fails_verify(
    lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 3/4: the digest is required — a swapped ruleset without one is refused."""
    rules = {"toml": ruleset_to_toml(get_preset("parlor")).replace("min_fan = 3", "min_fan = 0")}
    err = _verify_fails(tmp_path, capsys, _edit(lines, 0, rules=rules))
    assert "line 1: the rules need a 'digest'" in err
    with pytest.raises(RecordError, match="need a 'digest'"):
        verify(GameRecord.loads(_edit(lines, 0, rules={"preset": "parlor"})))


def test_unknown_keys_inside_an_end_result_fail_verify(
    lines: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 5's class: an ``end`` line's ``result`` object is closed like the header's objects."""
    index = next(i for i, text in enumerate(lines) if json.loads(text)["t"] == "end")
    result = {**json.loads(lines[index])["result"], "bonus": 100}
    err = _verify_fails(tmp_path, capsys, _edit(lines, index, result=result))
    assert f"line {index + 1}: unknown field(s) in the hand result: bonus" in err
