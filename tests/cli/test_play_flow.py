"""hkmj play end to end: a seeded hand through the UI with real bots, records, save and resume."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import ModuleType

import pytest
from rich.cells import cell_len
from tests.cli.conftest import advance

from hkmahjong.cli.main import main
from hkmahjong.cli.tui.app import ParlorApp
from hkmahjong.cli.tui.game import ParlorGame, SaveError, key_path
from hkmahjong.cli.tui.launch import build_game
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.screens import HandEndScreen, MatchEndScreen
from hkmahjong.cli.tui.widgets import HandView
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.tiles import Wind


async def _play_until_hand_end(app: ParlorApp, kit: ModuleType, max_keys: int = 400) -> int:
    """Discard the selected tile on each turn and pass each claim until the hand ends."""
    keys = 0
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        while keys < max_keys and not isinstance(app.screen, HandEndScreen):
            mode = app.options.mode
            await pilot.press("enter" if mode == "turn" else "x")
            keys += 1
            await kit.settle(pilot)
        assert isinstance(app.screen, HandEndScreen)
        body = str(app.screen.body)
        for name in app.controller.match.players:  # type: ignore[attr-defined]
            assert name in body
        await pilot.press("enter")
        await kit.settle(pilot)
        assert isinstance(app.screen, MatchEndScreen)
        await pilot.press("enter")
        await pilot.pause()
    return keys


@pytest.mark.parametrize("seed", ["7", "parlor-1"])
def test_full_seeded_hand_through_the_ui(kit: ModuleType, seed: str) -> None:
    """A whole one-hand match with the normal bots, driven only by keys; its record verifies."""
    game = build_game(seed=seed, length="one", opponents="normal", lang="en")
    app = ParlorApp(game, renderer=game.renderer, bot_delay=0)
    keys = asyncio.run(_play_until_hand_end(app, kit))
    assert keys > 0
    outcome = game.runner.outcome
    assert outcome is not None and sum(outcome.deltas) == 0
    human_actions = [a for a in game.record.hands[0].actions if a.seat is Wind.EAST]
    assert len(human_actions) >= min(keys, 1)
    assert game.match.finished and game.record.complete
    report = verify(GameRecord.loads(game.record.dumps(), partial=False))
    assert report.hands == 1 and report.actions == len(game.record.hands[0].actions)
    assert game.match.totals()["You"] == outcome.deltas[Wind.EAST]


def test_same_seed_same_deal() -> None:
    """Determinism (docs/dev/architecture.md practice 9): the same --seed deals the same hand."""
    a = build_game(seed="42", length="east")
    b = build_game(seed="42", length="east")
    c = build_game(seed="43", length="east")
    assert a.table() == b.table()
    assert a.table().concealed != c.table().concealed


def _advance(game: ParlorGame, human_moves: int) -> None:
    advance(game, human_moves)


def _play_out(game: ParlorGame) -> None:
    """Finish the current hand and deal the next (pass every claim, discard the first option)."""
    while not game.hand_over():
        _advance(game, 1)
    game.hand_end()
    game.next_hand()


def test_save_and_resume_in_the_middle_of_a_hand(tmp_path: Path) -> None:
    """Save (s) writes the record and its key; --resume rebuilds the very same table."""
    game = build_game(seed="resume-me", length="east", opponents="easy")
    _play_out(game)
    _advance(game, 5)
    path = tmp_path / "match.jsonl"
    game.save(path)
    assert key_path(path).exists()
    record = GameRecord.loads(path.read_text(encoding="utf-8"), partial=True)
    assert len(record.hands) == 2 and record.hands[0].seed is not None
    assert record.hands[1].seed is None  # the wall of the hand in play stays secret
    resumed = ParlorGame.resume(path)
    assert resumed.table() == game.table()
    assert resumed.options() == game.options()
    assert resumed.match.ledger == game.match.ledger
    _advance(game, 3)
    _advance(resumed, 3)
    assert resumed.table() == game.table()


def test_save_key_through_the_app(kit: ModuleType, tmp_path: Path) -> None:
    """The s key saves where --save points and says so on the message line."""
    game = build_game(seed="key-s", length="one", opponents="easy", lang="en")
    path = tmp_path / "s.jsonl"
    app = ParlorApp(game, renderer=game.renderer, bot_delay=0, save_path=path)

    async def run() -> None:
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            await pilot.press("enter")
            await kit.settle(pilot)
            await pilot.press("s")
            await pilot.pause()
            assert "Saved to" in str(app.query_one("#message").render())

    asyncio.run(run())
    assert ParlorGame.resume(path).table() == game.table()


def test_resume_errors_are_clear(tmp_path: Path) -> None:
    """A missing key, another match's key or a non-record file is a SaveError saying so."""
    game = build_game(seed="a", length="one")
    path = tmp_path / "a.jsonl"
    game.save(path)
    other = build_game(seed="b", length="one")
    other_path = tmp_path / "b.jsonl"
    other.save(other_path)
    key_path(path).write_text(key_path(other_path).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(SaveError, match="key of another match"):
        ParlorGame.resume(path)
    key_path(path).unlink()
    with pytest.raises(SaveError, match="cannot read"):
        ParlorGame.resume(path)
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n", encoding="utf-8")
    with pytest.raises(SaveError, match="line 1"):
        ParlorGame.resume(junk)
    bad_key = tmp_path / "c.jsonl"
    game.save(bad_key)
    key_path(bad_key).write_text(json.dumps({"format": "x"}), encoding="utf-8")
    with pytest.raises(SaveError, match="not an hkmj play key file"):
        ParlorGame.resume(bad_key)


def test_cli_errors_exit_cleanly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Bad options end with a one-line error and status 2 before any screen opens."""
    assert main(["play", "--resume", str(tmp_path / "nope.jsonl"), "--lang", "en"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["play", "--resume", str(tmp_path / "nope.jsonl")]) == 2  # 繁體 by default
    err = capsys.readouterr().err
    assert "無法續局：讀不到" in err and "找不到檔案" in err
    with pytest.raises(SystemExit) as stop:  # argparse refuses it (hkmahjong.argtypes)
        main(["play", "--claim-timer", "-3"])
    assert stop.value.code == 2
    assert "--claim-timer" in capsys.readouterr().err
    assert main(["play", "--rules", "no-such-rules"]) == 2
    assert "no-such-rules" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_layout_fits_80_columns(kit: ModuleType, lang: str) -> None:
    """At 80×24 the whole hand (14 tiles, the drawn one apart) fits on one line."""
    game = kit.scenario_game(
        kit.CONCEALED_KONG, replacements=kit.CONCEALED_KONG_REPLACEMENTS, lang=lang
    )
    game.renderer = TileRenderer(lang, "text")
    app = ParlorApp(game, renderer=game.renderer, bot_delay=0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await kit.settle(pilot)
            hand = app.query_one(HandView)
            first_line = hand.render().plain.split("\n")[0]
            assert len(hand.tiles) == 14
            assert cell_len(first_line) <= hand.content_region.width
            status = str(app.query_one("#status").render())
            assert "parlor" in status

    asyncio.run(run())


def test_save_at_the_end_of_the_match_writes_a_complete_record(
    kit: ModuleType, tmp_path: Path
) -> None:
    """s on the standings saves the whole match; hkmj replay --verify accepts it."""
    game = build_game(seed="end-save", length="one", opponents="easy", lang="en")
    path = tmp_path / "done.jsonl"
    app = ParlorApp(game, renderer=game.renderer, bot_delay=0, save_path=path)

    async def run() -> None:
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            while not isinstance(app.screen, HandEndScreen):
                await pilot.press("enter" if app.options.mode == "turn" else "x")
                await kit.settle(pilot)
            await pilot.press("enter")
            await kit.settle(pilot)
            assert isinstance(app.screen, MatchEndScreen)
            assert "s saves the record" in str(app.screen.body)
            await pilot.press("s")
            await pilot.pause()

    asyncio.run(run())
    assert main(["replay", "--verify", str(path)]) == 0


def test_claim_timer_from_option_or_ruleset() -> None:
    """--claim-timer wins; otherwise a ruleset that sets a claim timer is followed; else none."""
    from hkmahjong.cli.tui.launch import claim_timer_for

    game = build_game(seed="t", length="one")
    assert claim_timer_for(6.0, game) == 6.0
    preset_timer = getattr(game.ruleset, "claim_timer", None)
    if not preset_timer:
        assert claim_timer_for(None, game) is None

    class Timed:
        claim_timer = 8

    game.ruleset = Timed()  # type: ignore[assignment]
    assert claim_timer_for(None, game) == 8.0
