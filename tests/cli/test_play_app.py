"""hkmj play through Textual's pilot: claim prompts, kongs, wins, illegal input, mouse, timer.

Scenario walls (tests/cli/conftest.py) put the exact claim in front of the human (East, dealer);
the bots there always pass and discard their lowest tile.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Callable, Coroutine
from types import ModuleType
from typing import Any, cast

import pytest
from textual.widgets import Button, Static

from hkmahjong.cli.tui.game import ParlorGame
from hkmahjong.cli.tui.screens import HandEndScreen, HintScreen, MatchEndScreen
from hkmahjong.cli.tui.widgets import HandView
from hkmahjong.hand import MeldKind
from hkmahjong.rules import FanId, get_preset
from hkmahjong.tiles import Tile, Wind


def pilot_test(
    fn: Callable[[ModuleType], Coroutine[Any, Any, None]],
) -> Callable[[ModuleType], None]:
    """Run an async pilot test with asyncio (no pytest plugin needed); ``kit`` is conftest."""

    @functools.wraps(fn)
    def run(kit: ModuleType) -> None:
        asyncio.run(fn(kit))

    return run


async def _wait_for_timer(pilot: Any, app: Any, limit: float = 10.0) -> None:
    """Wait (at most ``limit`` seconds, for loaded machines) until the claim timer has passed."""
    waited = 0.0
    while app.countdown is not None and waited < limit:
        await pilot.pause(0.1)
        waited += 0.1
    assert app.countdown is None
    await pilot.pause(0.1)


def _message(app: object) -> str:
    widget = cast(Static, app.query_one("#message"))  # type: ignore[attr-defined]
    return str(widget.render())


def _visible_buttons(app: object) -> set[str]:
    return {
        (b.id or "").removeprefix("btn-")
        for b in app.query(Button)  # type: ignore[attr-defined]
        if b.display
    }


def _east_melds(game: ParlorGame) -> list[tuple[MeldKind, Tile]]:
    view = game.runner.view(Wind.EAST)
    return [(m.kind, m.first) for m in view.melds[Wind.EAST]]


@pilot_test
async def test_pung_prompt_and_pung(kit: ModuleType) -> None:
    """docs/rules.md §6 (P): a pung (碰) on another seat's discard; the prompt offers 碰 槓 過."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        assert app.options.mode == "turn"
        await pilot.press("enter")  # East discards its lowest tile (1m)
        await kit.settle(pilot)
        assert app.options.mode == "claim"
        assert app.options.claim_tile is Tile.P5
        assert _visible_buttons(app) >= {"pung", "kong", "pass", "hint"}
        assert "chow" not in _visible_buttons(app)
        assert "5筒" in _message(app)
        await pilot.press("p")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.PUNG, Tile.P5)]
        assert app.options.mode == "turn"  # discard at once after a pung


@pilot_test
async def test_kong_claim_on_discard(kit: ModuleType) -> None:
    """docs/rules.md §6: 明槓 — three in hand plus the discard, then a replacement draw."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        left_before = game.runner.view(Wind.EAST).tiles_left
        await pilot.press("k")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.KONG, Tile.P5)]
        assert app.options.mode == "turn"
        assert game.runner.view(Wind.EAST).tiles_left == left_before - 1  # the replacement


@pilot_test
async def test_chow_prompt_offers_every_choice(kit: ModuleType) -> None:
    """docs/rules.md §6: chow (上) only from 上家; three ways to chow 5p, the player picks one."""
    game = kit.scenario_game(kit.CHOW_THREE_WAYS, kit.CHOW_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.mode == "claim"
        assert app.options.claim_from is Wind.NORTH
        assert [c.first for c in app.options.chows] == [Tile.P3, Tile.P4, Tile.P5]
        await pilot.press("c")
        await pilot.pause()
        assert _visible_buttons(app) >= {"chow0", "chow1", "chow2"}
        assert "pung" not in _visible_buttons(app)
        await pilot.press("2")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.CHOW, Tile.P4)]


@pilot_test
async def test_chow_choice_by_mouse_and_cancel(kit: ModuleType) -> None:
    """The chow buttons work with the mouse; x while choosing goes back to the prompt."""
    game = kit.scenario_game(kit.CHOW_THREE_WAYS, kit.CHOW_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        await pilot.click("#btn-chow")
        await pilot.pause()
        assert app.choosing_chow
        await pilot.press("x")
        await pilot.pause()
        assert not app.choosing_chow and app.options.mode == "claim"
        await pilot.press("c")
        await pilot.pause()
        await pilot.click("#btn-chow2")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.CHOW, Tile.P5)]


@pilot_test
async def test_concealed_kong_on_own_turn(kit: ModuleType) -> None:
    """docs/rules.md §5/§6: 暗槓 of four in hand on one's own turn, with a replacement from the tail."""
    game = kit.scenario_game(kit.CONCEALED_KONG, replacements=kit.CONCEALED_KONG_REPLACEMENTS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        assert Tile.P2 in app.options.kongs
        await pilot.press("k")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.CONCEALED_KONG, Tile.P2)]
        assert app.options.mode == "turn"
        table = game.table()
        assert table.drawn is Tile.P9  # the replacement is shown apart
        hand = app.query_one(HandView)
        assert hand.current_tile() is Tile.P9


@pilot_test
async def test_win_on_discard_shows_breakdown(kit: ModuleType) -> None:
    """docs/rules.md §7/§8: 食糊 on a discard; the end of hand lists 小三元 and 混一色 (screen language)."""
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.win is not None and app.options.claim_tile is Tile.M5
        await pilot.press("w")
        await kit.settle(pilot)
        assert isinstance(app.screen, HandEndScreen)
        outcome = game.runner.outcome
        assert outcome is not None and outcome.winners == (Wind.EAST,)
        fan_ids = outcome.wins[0].result.fan_ids
        assert FanId.SMALL_DRAGONS in fan_ids
        body = str(app.screen.body)
        assert FanId.SMALL_DRAGONS.zh in body and FanId.SMALL_DRAGONS.en not in body
        assert sum(outcome.deltas) == 0 and outcome.deltas[Wind.EAST] > 0
        await pilot.press("q")  # q on the result arms quitting; Enter goes on instead
        await pilot.pause()
        assert app.quit_armed and app.is_running
        assert outcome.deltas[Wind.SOUTH] < 0  # the discarder pays (全銃, P)
        await pilot.press("enter")  # one-hand match: on to the standings
        await pilot.pause()
        assert isinstance(app.screen, MatchEndScreen)
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_value == 0


@pilot_test
async def test_self_drawn_win(kit: ModuleType) -> None:
    """docs/rules.md §7: 自摸 on one's own draw; the win key says 自摸 and everyone pays."""
    game = kit.scenario_game(kit.SELF_DRAW, kit.SELF_DRAW_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.mode == "turn" and app.options.win is not None
        assert "電腦3: 打 5索" in _message(app)  # what 上家 did last
        assert str(app.query_one("#btn-win", Button).label) == "自摸"
        await pilot.click("#btn-win")
        await kit.settle(pilot)
        outcome = game.runner.outcome
        assert outcome is not None and outcome.wins[0].self_drawn
        assert FanId.SELF_DRAWN in outcome.wins[0].result.fan_ids
        assert all(outcome.deltas[s] < 0 for s in (Wind.SOUTH, Wind.WEST, Wind.NORTH))
        assert isinstance(app.screen, HandEndScreen)


@pilot_test
async def test_illegal_input_is_a_message_not_a_crash(kit: ModuleType) -> None:
    """Keys that do not fit the moment (pung on one's own turn, Enter in a claim) only say so."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        before = game.table()
        for key in ("p", "c", "x", "w", "1"):
            await pilot.press(key)
            await pilot.pause()
        assert "不可以" in _message(app)
        assert game.table() == before
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.mode == "claim"
        await pilot.press("enter")  # no discarding during a claim window
        await pilot.pause()
        assert "不可以" in _message(app)
        assert app.options.mode == "claim"
        assert app.controller.human_to_act()


@pilot_test
async def test_no_swap_discard_is_refused(kit: ModuleType) -> None:
    """docs/rules.md §6 (W2 食替): after a chow you may not discard the tile just claimed — under W2's
    rules (qingzhang); the parlor lets any tile go (seed 003, issue 31 item 8)."""
    game = kit.scenario_game(kit.CHOW_THREE_WAYS, kit.CHOW_DRAWS, ruleset=get_preset("qingzhang"))
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        await pilot.press("c", "1")  # chow 345p with the discarded 5p
        await kit.settle(pilot)
        assert app.options.mode == "turn"
        assert _east_melds(game) == [(MeldKind.CHOW, Tile.P3)]
        hand = app.query_one(HandView)
        assert hand.select_tile(Tile.P5)
        assert Tile.P5 not in app.options.discard
        before = game.table()
        await pilot.press("enter")
        await pilot.pause()
        assert "不可以" in _message(app)
        assert game.table() == before
        assert app.options.mode == "turn"


@pilot_test
async def test_mouse_selects_then_discards(kit: ModuleType) -> None:
    """A click selects a tile of the hand; a click on the selected tile discards it."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        hand = app.query_one(HandView)
        target = 3
        x = next(s.start for s in hand._spans if s.index == target) + 1
        offset = (
            hand.content_region.x - hand.region.x + x,
            hand.content_region.y - hand.region.y,
        )
        await pilot.click(HandView, offset=offset)
        await pilot.pause()
        assert hand.selected == target
        tile = hand.tiles[target]
        await pilot.click(HandView, offset=offset)
        await kit.settle(pilot)
        assert game.runner.view(Wind.EAST).discards[Wind.EAST][0] is tile


@pilot_test
async def test_claim_timer_counts_down_then_passes(kit: ModuleType) -> None:
    """--claim-timer: the prompt shows the seconds left and passes when they run out."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game, claim_timer=1.0)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.mode == "claim"
        assert "1秒" in str(app.query_one("#countdown", Static).render())
        await _wait_for_timer(pilot, app)
        await kit.settle(pilot)
        assert _east_melds(game) == []
        view = game.runner.view(Wind.EAST)
        assert view.discards[Wind.SOUTH][0] is Tile.P5


@pilot_test
async def test_debug_hints_show_the_bot_trace(kit: ModuleType) -> None:
    """hkmj play --debug-hints: the hint also shows the advising bot's raw trace."""
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS)
    app = kit.make_app(game, debug_hints=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await kit.settle(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HintScreen)
        assert "first legal action" in str(app.screen.body)


@pilot_test
async def test_hint_popup(kit: ModuleType) -> None:
    """h: shanten, waits with the copies left and their fan, and the advisor's suggestion."""
    game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS)
    app = kit.make_app(game)
    async with app.run_test(size=(100, 40)) as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HintScreen)
        body = str(app.screen.body)
        assert "叫糊" in body  # ready (shanten 0)
        assert "5萬" in body and "8萬" in body
        hint = game.hint()
        waits = hint.advice.waits
        assert [w.tile for w in waits] == [Tile.M2, Tile.M5, Tile.M8]  # 34567m: 2-5-8
        for wait in waits:
            assert 0 < wait.left <= 4
            assert wait.on_discard is not None and wait.self_drawn is not None
            assert (
                wait.self_drawn >= wait.on_discard
            )  # 自摸 adds a fan (docs/rules.md §8), to the limit
            assert f"食 {wait.on_discard}番 / 自摸 {wait.self_drawn}番" in body
        assert "first legal action" not in body  # the bot's trace: only with --debug-hints
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HintScreen)
        assert app.options.mode == "claim"


@pilot_test
async def test_quit_needs_two_presses(kit: ModuleType) -> None:
    """q once warns; q again leaves."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and app.quit_armed
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0


@pilot_test
async def test_added_kong_on_own_turn(kit: ModuleType) -> None:
    """docs/rules.md §5/§6: 加槓 — the fourth tile onto one's own exposed pung, then a replacement."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.ADDED_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        await pilot.press("p")
        await kit.settle(pilot)
        hand = app.query_one(HandView)
        assert hand.select_tile(Tile.S9)
        await pilot.press("enter")
        await kit.settle(pilot)
        while app.options.mode == "claim":  # North's 3m could be chowed: let it go
            await pilot.press("x")
            await kit.settle(pilot)
        assert app.options.mode == "turn"
        assert list(app.options.kongs) == [Tile.P5]
        await pilot.press("k")
        await kit.settle(pilot)
        assert _east_melds(game) == [(MeldKind.ADDED_KONG, Tile.P5)]
        assert app.options.mode == "turn"


@pilot_test
async def test_robbing_the_kong_prompt(kit: ModuleType) -> None:
    """docs/rules.md §6 (P, W2): 搶槓 — win on the tile another player adds to its pung."""
    game = kit.scenario_game(kit.ROB_THE_KONG, kit.ROB_DRAWS, bots=kit.south_kongs())
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        assert app.query_one(HandView).select_tile(Tile.S9)
        await pilot.press("enter")
        await kit.settle(pilot)
        assert app.options.claim_tile is Tile.M1 and app.options.win is not None
        await pilot.press("x")  # let West's 1m go: South pungs it
        await kit.settle(pilot)
        while not (app.options.mode == "claim" and app.options.claim_kind == "rob"):
            await pilot.press("enter" if app.options.mode == "turn" else "x")
            await kit.settle(pilot)
        assert "搶槓" in _message(app)
        assert _visible_buttons(app) >= {"win", "pass"}
        await pilot.press("w")
        await kit.settle(pilot)
        outcome = game.runner.outcome
        assert outcome is not None and outcome.winners == (Wind.EAST,)
        assert FanId.ROBBING_KONG in outcome.wins[0].result.fan_ids
        assert outcome.wins[0].discarder is Wind.SOUTH  # the kong declarer pays
        assert isinstance(app.screen, HandEndScreen)


@pytest.mark.parametrize(("lang", "word"), [("zh-Hans", "胡"), ("en", "Win")])
def test_other_languages(kit: ModuleType, lang: str, word: str) -> None:
    """--lang: the prompt, the buttons and the fan names follow the language (简体 / English)."""

    async def run() -> None:
        game = kit.scenario_game(kit.WIN_ON_DISCARD, kit.WIN_DRAWS, lang=lang)
        app = kit.make_app(game)
        async with app.run_test() as pilot:
            await kit.settle(pilot)
            await pilot.press("enter")
            await kit.settle(pilot)
            assert str(app.query_one("#btn-win", Button).label) == word
            await pilot.press("w")
            await kit.settle(pilot)
            assert isinstance(app.screen, HandEndScreen)
            body = str(app.screen.body)
            dragons = FanId.SMALL_DRAGONS
            assert (dragons.zh_hans if lang == "zh-Hans" else dragons.en) in body
            other = dragons.en if lang == "zh-Hans" else dragons.zh
            assert other not in body  # one language per screen (issue 13 item 14)

    asyncio.run(run())


@pilot_test
async def test_two_winners_on_one_discard(kit: ModuleType) -> None:
    """docs/rules.md §6 一炮多響 switch: both winners are shown with their own hand and fan."""
    ruleset = dataclasses.replace(get_preset("parlor"), multiple_winners=True)
    game = kit.scenario_game(kit.DOUBLE_WIN, bots=kit.winning_bots, ruleset=ruleset)
    app = kit.make_app(game)
    async with app.run_test(size=(100, 50)) as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        outcome = game.runner.outcome
        assert outcome is not None and outcome.winners == (Wind.SOUTH, Wind.WEST)
        assert isinstance(app.screen, HandEndScreen)
        body = str(app.screen.body)
        for win in outcome.wins:  # on the dealer's first discard: 地糊 for both (docs/rules.md §7)
            assert FanId.EARTHLY in win.result.fan_ids
            assert body.count(f"  {FanId.EARTHLY.zh}  ") == 2
        assert "電腦1: 1萬2萬3萬" in body and "電腦2: 1筒1筒1筒" in body
        assert outcome.deltas[Wind.EAST] < 0 and outcome.deltas[Wind.NORTH] == 0


@pilot_test
async def test_game_keys_wait_while_a_popup_is_open(kit: ModuleType) -> None:
    """With the hint open, w/p/Enter do nothing to the game; the timer closes the hint and passes."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game, claim_timer=4.0)  # long enough to open the hint on a loaded machine
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.press("enter")
        await kit.settle(pilot)
        await pilot.press("h")
        for _ in range(30):  # the hint computes the advisor's suggestion: slow on a busy machine
            if isinstance(app.screen, HintScreen):
                break
            await pilot.pause(0.1)
        assert isinstance(app.screen, HintScreen)
        await pilot.press("p", "k", "c", "left")
        await pilot.pause()
        assert _east_melds(game) == []
        await _wait_for_timer(pilot, app)
        await kit.settle(pilot)
        assert not isinstance(app.screen, HintScreen)
        assert _east_melds(game) == []
        assert game.runner.view(Wind.EAST).discards[Wind.SOUTH][0] is Tile.P5


@pilot_test
async def test_enter_after_a_click_still_discards(kit: ModuleType) -> None:
    """After clicking 提示 with the mouse, Enter discards (the buttons never keep the focus)."""
    game = kit.scenario_game(kit.PUNG_OR_KONG, kit.PUNG_OR_KONG_DRAWS)
    app = kit.make_app(game)
    async with app.run_test() as pilot:
        await kit.settle(pilot)
        await pilot.click("#btn-hint")
        await pilot.pause()
        assert isinstance(app.screen, HintScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
        await kit.settle(pilot)
        assert not isinstance(app.screen, HintScreen)
        assert len(game.runner.view(Wind.EAST).discards[Wind.EAST]) == 1
