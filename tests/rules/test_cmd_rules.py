"""`hkmj rules`: list presets, show a ruleset's whole fan table and switches, print TOML."""

from __future__ import annotations

from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.rules import PRESETS, SWITCHES, FanId, get_preset, loads_ruleset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run `hkmj …` and return the exit status, stdout and stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_lists_presets_with_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    """`hkmj rules` lists every preset with its aliases, minimum and limit."""
    status, out, _ = run(capsys, "rules")
    assert status == 0
    for name in PRESETS:
        assert name in out
    assert "麻雀館" in out and "清章" in out


@pytest.mark.parametrize("name", list(PRESETS))
def test_shows_whole_fan_table_and_switches(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """`hkmj rules NAME` shows every played pattern (id, 繁體, English, value) and every switch."""
    status, out, _ = run(capsys, "rules", name)
    assert status == 0
    r = get_preset(name)
    for fid, value in r.fan.items():
        line = next(ln for ln in out.splitlines() if f" {fid.value} " in ln)
        assert fid.zh in line and fid.en in line and str(value) in line
        assert ("*" in line.split()[0]) == (fid in r.limit_hands)
    for key in SWITCHES:
        assert f"  {key} " in out
    assert f"起糊 minimum fan: {r.min_fan}" in out


def test_all_lists_unplayed_patterns(capsys: pytest.CaptureFixture[str]) -> None:
    """--all also lists the patterns the preset does not play (the 自訂 list in the parlor)."""
    _, out, _ = run(capsys, "rules", "parlor", "--all")
    for fid in FanId:
        assert fid.value in out


def test_toml_output_loads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--toml` prints TOML that loads back to the same ruleset (also as a diff with --base)."""
    _, out, _ = run(capsys, "rules", "cuhk", "--toml")
    assert loads_ruleset(out) == get_preset("cuhk")
    _, diff, _ = run(capsys, "rules", "cuhk", "--toml", "--base", "parlor")
    assert diff.startswith("#") and 'preset = "parlor"' in diff
    assert loads_ruleset(diff) == get_preset("cuhk")
    path = tmp_path / "t.toml"
    path.write_text('preset = "ml"\nmin_fan = 2\n', encoding="utf-8")
    status, shown, _ = run(capsys, "rules", str(path))
    assert status == 0 and "起糊 minimum fan: 2" in shown


def test_errors_exit_2_with_message(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An unknown preset or a bad file exits 2 with the reason on stderr."""
    status, _, err = run(capsys, "rules", "nowhere")
    assert status == 2 and "'nowhere'" in err and "parlor" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "parlor"\n[fan]\nALL_PUNGS = -1\n', encoding="utf-8")
    status, _, err = run(capsys, "rules", str(bad))
    assert status == 2 and "fan.ALL_PUNGS = -1" in err
    status, _, err = run(capsys, "rules", "--toml")
    assert status == 2


def test_base_without_toml_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """`--base` only shapes `--toml` output: without it the option cannot apply (item 16)."""
    status, out, err = run(capsys, "rules", "--base", "parlor", "parlor")
    assert status == 2 and out == ""
    assert "--base parlor applies only with --toml" in err
    status, out, _ = run(capsys, "rules", "--base", "parlor", "qingzhang", "--toml")
    assert status == 0 and "preset" in out
