"""機械人名冊: every bot by name or difficulty level, for ``hkmj sim``, the arena, the parlor, the env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hkmahjong.bots.base import BaseBot
from hkmahjong.bots.fan import FanBot
from hkmahjong.bots.master import MasterBot
from hkmahjong.bots.simple import EfficientBot, RandomBot
from hkmahjong.bots.strong import LEVELS, StrongBot
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["BOT_NAMES", "LEVEL_NAMES", "SEARCH_NAMES", "BotNameError", "get_bot", "register_bot"]


class BotNameError(MahjongError):
    """A bot name or level that does not exist."""


_Factory = Callable[[int | str | None, Ruleset | None, float], BaseBot]

_FACTORIES: dict[str, _Factory] = {
    "random": lambda seed, r, b: RandomBot(seed, ruleset=r, time_budget=b),
    "efficient": lambda seed, r, b: EfficientBot(seed, ruleset=r, time_budget=b),
    "fan": lambda seed, r, b: FanBot(seed, ruleset=r, time_budget=b),
    "strong": lambda seed, r, b: StrongBot(seed, ruleset=r, time_budget=b, level="expert"),
    "master": lambda seed, r, b: MasterBot(seed, ruleset=r, time_budget=b),
}


def _level_factory(level: str) -> _Factory:
    def make(seed: int | str | None, r: Ruleset | None, b: float) -> BaseBot:
        return StrongBot(seed, ruleset=r, time_budget=b, level=level)

    return make


for _level in LEVELS:
    _FACTORIES[_level] = _level_factory(_level)

BOT_NAMES: tuple[str, ...] = ("random", "efficient", "fan", "strong")
"""The bot tiers, weakest first."""
SEARCH_NAMES: tuple[str, ...] = ("master",)
"""Bots that search (a level above ``strong``; about 200 ms a decision, so kept out of
``BOT_NAMES``, whose bots the tests and the parlor run by the thousand)."""
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
"""Difficulty levels of ``strong`` (easy / normal / hard / expert); ``strong`` is ``expert``."""


def get_bot(
    name_or_level: str,
    seed: int | str | None = 0,
    *,
    ruleset: Ruleset | None = None,
    time_budget: float = 0.5,
) -> BaseBot:
    """A bot by tier name (``random efficient fan strong``, ``master``) or level (``easy … expert``).

    ``master`` searches for ``min(0.2, time_budget)`` seconds a decision
    (:class:`~hkmahjong.bots.master.MasterBot`).

    :raises BotNameError: for an unknown name, listing the known ones.
    """
    key = name_or_level.strip().lower()
    if key.startswith("strong-"):
        key = key.removeprefix("strong-")
    factory = _FACTORIES.get(key)
    if factory is None:
        known = ", ".join((*BOT_NAMES, *SEARCH_NAMES, *LEVEL_NAMES, *_CUSTOM))
        raise BotNameError(f"unknown bot {name_or_level!r}; known bots: {known}")
    return factory(seed, ruleset, time_budget)


_CUSTOM: list[str] = []


def register_bot(
    name: str,
    factory: Callable[[int | str | None, Ruleset | None, float], Any],
    *,
    replace: bool = False,
) -> None:
    """Make ``factory(seed, ruleset, time_budget)`` available as bot ``name`` wherever a bot is
    asked for by name (the arena, ``hkmj sim``, the env's opponents) — e.g. a learned policy.

    The object it returns needs only ``choose(view, legal) -> Action``. With ``--jobs`` the arena's
    worker processes are forked, so they see bots registered before the run.

    :raises BotNameError: for an empty name, a built-in bot's name, or a name already registered
        (unless ``replace``).
    """
    key = name.strip().lower()
    if not key:
        raise BotNameError("a bot name cannot be empty")
    if key in _FACTORIES and key not in _CUSTOM:
        raise BotNameError(f"{name!r} is a built-in bot; choose another name")
    if key in _CUSTOM and not replace:
        raise BotNameError(f"bot {name!r} is registered already (pass replace=True)")
    _FACTORIES[key] = factory
    if key not in _CUSTOM:
        _CUSTOM.append(key)
