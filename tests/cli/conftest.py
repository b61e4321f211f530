"""Fixtures for the terminal parlor tests: scenario walls, quiet bots, and pilot helpers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import pytest
from textual.pilot import Pilot

from hkmahjong.cli.tui.app import ParlorApp
from hkmahjong.cli.tui.game import ParlorGame
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.engine.players import FirstPlayer
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.tiles import Wind


def first_player_bots(_level: str, _seed: int) -> FirstPlayer:
    """Bots that always take the first legal action: pass every claim, discard the lowest tile."""
    return FirstPlayer()


class KongingBot:
    """A bot that adds a kong (加槓) or pungs whenever it may, else discards its highest tile."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """加槓 > 碰 > discard the highest tile > the first legal action (pass)."""
        for kind in (ActionKind.ADDED_KONG, ActionKind.PUNG):
            for action in legal:
                if action.kind is kind:
                    return action
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        return discards[-1] if discards else legal[0]


def south_kongs() -> Callable[[str, int], object]:
    """A bot factory: South (player 1, seated first) is a KongingBot, West and North FirstPlayers."""
    made: list[object] = []

    def factory(_level: str, _seed: int) -> object:
        made.append(KongingBot() if not made else FirstPlayer())
        return made[-1]

    return factory


class WinningBot:
    """A bot that wins whenever it may, else takes the first legal action."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """食糊 / 自摸 > the first legal action."""
        for action in legal:
            if action.kind in (ActionKind.WIN, ActionKind.SELF_DRAW):
                return action
        return legal[0]


def winning_bots(_level: str, _seed: int) -> WinningBot:
    """Bots that take every win."""
    return WinningBot()


def quiet_advisor(view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
    """An advisor that suggests the first legal action (keeps scenario tests independent of bots)."""
    return legal[0], "first legal action"


def scenario_game(
    deals: Mapping[Wind, str],
    draws: str = "",
    replacements: str = "",
    *,
    lang: str = "zh-Hant",
    length: str = "one",
    bots: Callable[[str, int], Any] | None = None,
    ruleset: Ruleset | None = None,
) -> ParlorGame:
    """A one-hand parlor game on a stacked wall; the human is East (dealer), bots pass/discard low."""

    def walls(number: int) -> list:  # type: ignore[type-arg]
        return stacked_wall(deals, draws=draws, replacements=replacements) if number == 0 else None  # type: ignore[return-value]

    game = ParlorGame.new(
        ruleset or get_preset("parlor"),
        length=length,
        seed="scenario",
        lang=lang,
        bot_factory=bots or first_player_bots,
        renderer=TileRenderer(lang, "text"),
        walls=walls,
    )
    game.advisor = quiet_advisor
    return game


def advance(game: ParlorGame, human_moves: int | None = None) -> None:
    """Play on (the human discards the first option and passes every claim, the bots play) for
    ``human_moves`` human decisions, or to the end of the hand (``None``)."""
    moves = 0
    while (human_moves is None or moves < human_moves) and not game.hand_over():
        if game.human_to_act():
            options = game.options()
            if options.mode == "turn":
                game.apply(next(iter(options.discard.values())))
            else:
                game.apply(options.pass_)
            moves += 1
        else:
            game.bot_step()


def make_app(game: ParlorGame, **kwargs: object) -> ParlorApp:
    """The parlor app on ``game`` with no pause between bot moves."""
    return ParlorApp(game, renderer=game.renderer, bot_delay=0, **kwargs)  # type: ignore[arg-type]


async def settle(pilot: Pilot[int]) -> None:
    """Let the bots' worker finish and the screen refresh."""
    app = pilot.app
    for _ in range(50):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not getattr(app, "_advancing", False):
            return


@pytest.fixture
def kit() -> ModuleType:
    """This module: scenario walls and helpers for the parlor tests."""
    return sys.modules[__name__]


# Seat hands for the scenarios (docs/rules.md §6 claims). The human (East, dealer) discards first with
# Enter (the lowest tile); each bot discards its lowest tile and passes every claim.
PUNG_OR_KONG = {
    Wind.EAST: "1m 234m 678m 555p 12s 99s",
    Wind.SOUTH: "5p 789p 45678s 2233z",
    Wind.WEST: "11m 22p 99m 11z 55z 66z 7z",
    Wind.NORTH: "3355m 77m 33s 66s 77z 4z",
}
PUNG_OR_KONG_DRAWS = "4z"

CHOW_THREE_WAYS = {
    Wind.EAST: "1m 234m 678m 34p 5p 67p 9s 1z",
    Wind.SOUTH: "2p 89p 2345678s 234z",
    Wind.WEST: "3p 89p 345678s 5671z",
    Wind.NORTH: "5p 6p 9p 112233s 1122z",
}
CHOW_DRAWS = "7z 7z 7z"

WIN_ON_DISCARD = {
    Wind.EAST: "1m 345m 67m 555z 666z 77z",
    Wind.SOUTH: "5m 999m 111p 222p 333p",
    Wind.WEST: "111s 222s 333s 444s 1z",
    Wind.NORTH: "555s 666s 777s 888s 2z",
}
WIN_DRAWS = "4z"

SELF_DRAW = {
    Wind.EAST: "1m 345m 67m 555z 666z 77z",
    Wind.SOUTH: "999m 111p 222p 333p 9p",
    Wind.WEST: "111s 222s 333s 444s 1z",
    Wind.NORTH: "555s 666s 777s 888s 2z",
}
SELF_DRAW_DRAWS = "4z 4z 4z 8m"

CONCEALED_KONG = {
    Wind.EAST: "1m 2222p 345m 678m 99s 1z",
    Wind.SOUTH: "5p 789p 45678s 2233z",
    Wind.WEST: "11m 33p 99m 11z 55z 66z 7z",
    Wind.NORTH: "3355m 77m 33s 66s 77z 4z",
}
CONCEALED_KONG_REPLACEMENTS = "9p"

# The human pungs 5p with 555p in hand, then adds the fourth 5p on a later turn (加槓).
ADDED_KONG_DRAWS = "4z 3z 2z 5z 7z"

# South pungs West's 1m (the human, ready on 1m/4m, lets it go), later draws the last 1m and adds
# a kong; the human may rob it (搶槓, docs/rules.md §6). The human first discards 9s (selected).
ROB_THE_KONG = {
    Wind.EAST: "9s 23m 555z 666z 77z 789p",
    Wind.SOUTH: "11m 56789p 45678s 3z",
    Wind.WEST: "1m 22p 99m 11223344z",
    Wind.NORTH: "3344p 1122s 33s 99m 5m",
}
ROB_DRAWS = "2z 5z 6z 7z 9s 1m"

# The human's first discard (1m) completes South's 清一色 and West's 對對糊 at once (一炮多響).
DOUBLE_WIN = {
    Wind.EAST: "1m 99m 99p 99s 1234567z",
    Wind.SOUTH: "23m 444m 555m 666m 88m",
    Wind.WEST: "1m 111p 222p 333p 444p",
    Wind.NORTH: "567s 567s 1122334s",
}
