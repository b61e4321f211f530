"""`hkmj play` options agree with the ruleset and the docs (issue 13 item 16)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import ModuleType

import pytest

from hkmahjong.cli.main import build_parser, main
from hkmahjong.cli.tui.launch import (
    DATA_DIR_ENV,
    SAVE_NAME,
    data_dir,
    default_save_path,
    offered_length,
)
from hkmahjong.errors import MahjongError
from hkmahjong.rules import PRESETS, get_preset


@pytest.mark.parametrize("name", list(PRESETS))
def test_play_offers_exactly_the_rulesets_lengths(name: str) -> None:
    """`hkmj rules NAME` lists match_lengths; `play` offers those and refuses the others."""
    ruleset = get_preset(name)
    assert offered_length(ruleset, None) == ruleset.match_lengths[0]
    for length in ruleset.match_lengths:
        assert offered_length(ruleset, length) == length
    for other in ("one-hand", "east-round", "four-rounds", "8-hands", "bankruptcy"):
        if other not in ruleset.match_lengths:
            with pytest.raises(MahjongError, match=f"--length {other}: the"):
                offered_length(ruleset, other)


def test_parlor_refuses_lengths_its_seed_does_not_offer(capsys: pytest.CaptureFixture[str]) -> None:
    """P: practice offers 四圈, 八局, 十六局 or until bankruptcy; East round / one hand are ml's."""
    parlor = get_preset("parlor")
    assert offered_length(parlor, "8") == "8-hands"
    assert offered_length(get_preset("ml"), "east") == "east-round"
    assert main(["play", "--length", "east"]) == 2
    err = capsys.readouterr().err
    assert "four-rounds, 8-hands, 16-hands, bankruptcy, online" in err
    assert main(["play", "--length", "nine"]) == 2
    err = capsys.readouterr().err
    assert "unknown match length 'nine'" in err
    assert "the parlor rules offer four-rounds, 8-hands, 16-hands, bankruptcy, online" in err
    assert "east-round" not in err  # the engine's lengths the ruleset does not offer
    assert build_parser().parse_args(["play"]).length is None


def test_saves_go_to_the_data_directory_not_the_working_directory(tmp_path: Path) -> None:
    """`make run` must not leave save files in a checkout: $HKMJ_DATA_DIR, else XDG, else ~/.local."""
    home = Path.home()
    assert data_dir({}) == home / ".local" / "share" / "hkmahjong"
    assert data_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "hkmahjong"
    assert data_dir({"XDG_DATA_HOME": "relative/dir"}) == home / ".local" / "share" / "hkmahjong"
    env = {DATA_DIR_ENV: str(tmp_path / "mine"), "XDG_DATA_HOME": "/elsewhere"}
    assert default_save_path(env) == tmp_path / "mine" / SAVE_NAME
    assert not default_save_path().is_relative_to(Path.cwd()) or Path.cwd() == home


@pytest.mark.parametrize(
    ("lang", "said"),
    [("zh-Hant", "儲存失敗"), ("zh-Hans", "保存失败"), ("en", "Save failed")],
)
def test_a_failed_save_says_so_in_the_screen_language(
    kit: ModuleType, tmp_path: Path, lang: str, said: str
) -> None:
    """Saving under a file (not a folder) says the save failed and why — never a raw [Errno …]."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS, lang=lang)
    app = kit.make_app(game, save_path=blocker / "sub" / "s.jsonl")

    async def run() -> str:
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            await pilot.press("s")
            await pilot.pause()
            return str(app.query_one("#message").render())

    message = asyncio.run(run())
    assert said in message and "Errno" not in message
    assert str(blocker / "sub" / "s.jsonl") in message


def test_the_app_creates_the_data_directory(kit: ModuleType, tmp_path: Path) -> None:
    """The default save folder does not exist on a fresh machine: `s` creates it."""
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS, lang="en")
    target = tmp_path / "new" / "dir" / "s.jsonl"
    app = kit.make_app(game, save_path=target)

    async def run() -> None:
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            await pilot.press("s")
            await pilot.pause()

    asyncio.run(run())
    assert target.is_file()
