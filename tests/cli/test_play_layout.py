"""80×24 layout of long sets, English bonus tiles, and the text replay's numbering (issue 13 item 15)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from rich.cells import cell_len

from hkmahjong.cli.cmd_replay import event_line
from hkmahjong.cli.main import main
from hkmahjong.cli.tui.app import ParlorApp
from hkmahjong.cli.tui.model import TableInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.widgets import HandView, SeatPanel, seat_text
from hkmahjong.engine import EventKind
from hkmahjong.engine.events import Event
from hkmahjong.hand import Meld
from hkmahjong.tiles import Tile, Wind, parse_tiles

LONG_SETS = tuple(Meld.from_text(m) for m in ("[1111m]", "[2222p]", "[3333s]", "[555z]"))
ALL_BONUS = tuple(Tile(i) for i in range(34, 42))


class LongSetsGame:
    """The game, but every seat shows four kongs/pungs and all eight bonus tiles."""

    def __init__(self, game: object) -> None:
        self.game = game

    def __getattr__(self, name: str) -> object:
        return getattr(self.game, name)

    def table(self) -> TableInfo:
        table: TableInfo = self.game.table()  # type: ignore[attr-defined]
        seats = tuple(replace(s, melds=LONG_SETS, bonus=ALL_BONUS) for s in table.seats)
        return replace(table, seats=seats)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_long_sets_wrap_with_an_indent_at_80x24(kit: ModuleType, lang: str) -> None:
    """A long meld line never pushes the bonus tiles to column 0 of their own line."""
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS, lang=lang)
    app = ParlorApp(LongSetsGame(game), renderer=game.renderer, bot_delay=0)  # type: ignore[arg-type]
    bonus_word = {"zh-Hant": "花", "zh-Hans": "花", "en": "bonus"}[lang]

    async def run() -> list[tuple[int, list[str]]]:
        async with app.run_test(size=(80, 24)) as pilot:
            await kit.settle(pilot)
            out = []
            table = app.table
            assert table is not None
            for seat in table.seats:
                offset = (seat.wind - table.me) % 4
                panel = app.query_one(f"#seat-{offset}", SeatPanel)
                width = panel.content_region.width
                text = seat_text(seat, table, app.renderer, width)
                out.append((width, text.plain.split("\n")))
            hand = app.query_one(HandView)
            out.append((hand.content_region.width, hand.render().plain.split("\n")))
            return out

    for width, lines in asyncio.run(run()):
        assert width <= 80
        for line in lines:
            assert cell_len(line.rstrip()) <= width, line
            assert not line.startswith(bonus_word), lines
        assert any(bonus_word in line for line in lines)


def test_bonus_tiles_have_english_names() -> None:
    """English shows ``bonus: plum autumn``, not the codes ``1f 3g`` (item 14)."""
    r = TileRenderer("en", "text")
    assert [r.bare(t) for t in parse_tiles("1f3g")] == ["plum", "autumn"]
    assert TileRenderer("en", "ascii").bare(Tile(34)) == "1f"
    assert TileRenderer("zh-Hant", "text").bare(Tile(34)) == "梅"


def test_replay_event_lines_number_hands_from_one_and_sort_deals() -> None:
    """hand_start counts from 1 like the header; a deal is a sorted hand in standard notation."""
    deal = Event(EventKind.DEAL, Wind.EAST, tiles=tuple(parse_tiles("3z3s8p6s92m7p3z563m2g1z")))
    assert event_line(deal) == "E deal 23569m78p36s133z2g"
    start = Event(EventKind.HAND_START, detail="hand 2, 東 round, dice 3+4+5")
    assert event_line(start) == "hand_start (hand 3, 東 round, dice 3+4+5)"


def test_text_replay_is_one_based_throughout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`hkmj replay FILE`: the header, hand_start and the end line all say hand N from 1."""
    log = tmp_path / "r.jsonl"
    assert main(["sim", "--hands", "2", "--seed", "one-based", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    headers = re.findall(r"第(\d+)局 hand (\d+)", out)
    starts = re.findall(r"hand_start \(hand (\d+)", out)
    ends = re.findall(r"--- hand (\d+) over", out)
    assert [h for h, _ in headers] == [n for _, n in headers] == starts == ["1", "2"]
    assert ends == ["1", "2"]
    for packed in re.findall(r"\b[ESWN] deal (\S+)", out):
        assert packed == re.sub(r"\s", "", packed)
        assert (
            packed
            == event_line(
                Event(EventKind.DEAL, Wind.EAST, tiles=tuple(parse_tiles(packed)))
            ).split()[-1]
        )
