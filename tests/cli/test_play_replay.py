"""hkmj replay in the parlor interface: frames from a record, stepping with the keys."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.cli.conftest import advance
from textual.widgets import Static

from hkmahjong.cli.tui.game import ParlorGame
from hkmahjong.cli.tui.launch import build_game
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.replay import ReplayApp, load_frames
from hkmahjong.engine.record import RecordError


def _finish_hand(game: ParlorGame) -> None:
    advance(game)
    game.hand_end()
    game.next_hand()


@pytest.fixture
def finished_record(tmp_path: Path) -> tuple[Path, ParlorGame]:
    game = build_game(seed="replay-1", length="one", opponents="easy", lang="en")
    _finish_hand(game)
    path = tmp_path / "one.jsonl"
    game.save(path)
    return path, game


def test_frames_follow_the_record(finished_record: tuple[Path, ParlorGame]) -> None:
    """One frame for the deal and one per action; the last frame shows every hand open."""
    path, game = finished_record
    frames = load_frames(path, TileRenderer("en", "text"))
    actions = game.record.hands[0].actions
    assert len(frames) == 1 + len(actions)
    last = frames[-1].table
    assert all(seat.concealed is not None for seat in last.seats)
    final = game.runner.view(last.me)
    assert last.seats[last.me].discards == final.discards[last.me]
    outcome = game.runner.outcome
    assert outcome is not None
    assert [s.score for s in last.seats] == [float(d) for d in outcome.deltas]
    assert actions[0].action.split()[0] in frames[1].caption


def test_replay_app_steps(finished_record: tuple[Path, ParlorGame]) -> None:
    """→ steps forward, ← back, End jumps to the last step, Home to the first."""
    path, _game = finished_record
    frames = load_frames(path, TileRenderer("en", "text"))
    app = ReplayApp(frames, TileRenderer("en", "text"))

    async def run() -> None:
        async with app.run_test() as pilot:
            await pilot.pause()
            assert app.index == 0
            await pilot.press("right", "right")
            assert app.index == 2
            await pilot.press("left")
            assert app.index == 1
            await pilot.press("end")
            assert app.index == len(frames) - 1
            caption = str(app.query_one("#message", Static).render())
            assert f"{len(frames)}/{len(frames)}" in caption
            await pilot.press("right")
            assert app.index == len(frames) - 1
            await pilot.press("home")
            assert app.index == 0
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(run())


def test_replay_of_a_match_in_progress_shows_finished_hands(tmp_path: Path) -> None:
    """A save made in the middle of hand 2 replays hand 1 (the wall of hand 2 is still secret)."""
    game = build_game(seed="replay-2", length="east", opponents="easy")
    _finish_hand(game)
    path = tmp_path / "mid.jsonl"
    game.save(path)
    frames = load_frames(path, TileRenderer("zh-Hant", "text"))
    assert {f.hand for f in frames} == {0}
    assert len(frames) == 1 + len(game.record.hands[0].actions)


def test_replay_of_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    """A file that is not a record names the line that is wrong."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": "hand"}\n', encoding="utf-8")
    with pytest.raises(RecordError, match="line 1"):
        load_frames(bad, TileRenderer())
    with pytest.raises(RecordError, match="cannot read"):
        load_frames(tmp_path / "missing.jsonl", TileRenderer())
