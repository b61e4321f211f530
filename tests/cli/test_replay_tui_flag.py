"""`hkmj replay --tui FILE` opens the record in the parlor's interface (issue 4 + issue 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hkmahjong.cli.main import main


def test_replay_tui_flag_hands_the_record_to_the_parlor_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "games.jsonl"
    assert main(["sim", "--hands", "1", "--seed", "3", "--log", str(log)]) == 0
    calls: list[tuple[str, str]] = []

    def fake(path: str, *, lang: str = "zh-Hant", tiles: str = "auto") -> int:
        calls.append((str(path), lang))
        return 0

    monkeypatch.setattr("hkmahjong.cli.tui.replay.run_replay_app", fake)
    assert main(["replay", "--tui", "--lang", "en", str(log)]) == 0
    assert calls == [(str(log), "en")]
