"""Bots (機械人): players that see only a PlayerView and the legal actions.

>>> from hkmahjong.bots import get_bot
>>> get_bot("fan", seed=1).name
'fan'
"""

from hkmahjong.bots.base import Bot, Candidate, Decision, Explanation
from hkmahjong.bots.fan import FanBot
from hkmahjong.bots.master import MasterBot, Search
from hkmahjong.bots.registry import (
    BOT_NAMES,
    LEVEL_NAMES,
    SEARCH_NAMES,
    BotNameError,
    get_bot,
    register_bot,
)
from hkmahjong.bots.simple import EfficientBot, RandomBot
from hkmahjong.bots.strong import LEVELS, StrongBot, Style

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "LEVEL_NAMES",
    "SEARCH_NAMES",
    "Bot",
    "BotNameError",
    "Candidate",
    "Decision",
    "EfficientBot",
    "Explanation",
    "FanBot",
    "MasterBot",
    "RandomBot",
    "Search",
    "StrongBot",
    "Style",
    "get_bot",
    "register_bot",
]
