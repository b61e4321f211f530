"""docs/rules.md stays in step with the code: its tables show each preset's real values."""

from __future__ import annotations

from pathlib import Path

import pytest

from hkmahjong.rules import PRESETS, SWITCHES, FanCategory, FanId
from hkmahjong.rules.presets import OPTIONAL_VALUES

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _rows(first_header: str) -> dict[str, list[str]]:
    """The rows of the markdown table whose header starts with ``first_header``, by first cell."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(first_header))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells
    return rows


@pytest.mark.skipif(not DOC.exists(), reason="docs/ not shipped with this checkout")
def test_fan_table_matches_presets() -> None:
    """Each standard/bonus pattern's row shows every preset's value, * for a limit hand."""
    rows = _rows("| id | 番種 | English | parlor")
    for f in FanId:
        if f.category is FanCategory.OPTIONAL:
            continue
        cells = rows[f.value]
        assert cells[1] == f.zh
        for cell, r in zip(cells[3:7], PRESETS.values(), strict=True):
            want = "–" if f not in r.fan else f"{r.fan[f]}{'*' if f in r.limit_hands else ''}"
            assert cell == want, (f, r.name)


@pytest.mark.skipif(not DOC.exists(), reason="docs/ not shipped with this checkout")
def test_optional_table_and_switch_table_complete() -> None:
    """Every optional pattern and every switch has a row with the code's values."""
    rows = _rows("| id | 番種 | English | value when on")
    for f, value in OPTIONAL_VALUES.items():
        assert rows[f.value][3].rstrip("*") == str(value)
    switches = _rows("| switch |")
    assert set(switches) == set(SWITCHES)
    parlor = PRESETS["parlor"]
    for key in SWITCHES:
        value = getattr(parlor, key)
        shown = switches[key][1]
        if isinstance(value, bool):
            assert shown == str(value).lower(), key
        elif isinstance(value, int):
            assert shown == str(value), key


TOML_DOC = DOC.parent / "ruleset-toml.md"


@pytest.mark.skipif(not TOML_DOC.exists(), reason="docs/ not shipped with this checkout")
def test_toml_reference_example_loads() -> None:
    """The example in docs/ruleset-toml.md is a valid ruleset with the effects its comments say."""
    import re

    from hkmahjong.rules import loads_ruleset
    from hkmahjong.rules.payment import GunScheme

    match = re.search(r"```toml\n(.*?)```", TOML_DOC.read_text(encoding="utf-8"), re.S)
    assert match is not None
    r = loads_ruleset(match.group(1))
    assert r.min_fan == 1 and r.seven_pairs and r.multiple_winners and r.dead_wall == 14
    assert FanId.BONUS_REPLACEMENT not in r.fan and FanId.ALL_GREEN in r.limit_hands
    assert r.payment.gun is GunScheme.HALF_GUN
    for key in SWITCHES:
        assert f"`{key}`" in TOML_DOC.read_text(encoding="utf-8"), key
