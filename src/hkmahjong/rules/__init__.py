"""Rules as data: fan ids, rulesets (台例), presets and TOML load/save."""

from hkmahjong.rules.fan import FanCategory, FanId, FanInfo, fan_id_from_text
from hkmahjong.rules.payment import PaymentRules
from hkmahjong.rules.presets import ALIASES, PRESETS, get_preset, preset_names
from hkmahjong.rules.ruleset import (
    MATCH_LENGTHS,
    SWITCHES,
    BonusWinHand,
    DealBonusWin,
    FrozenMap,
    LastTileRule,
    PassRule,
    Ruleset,
)
from hkmahjong.rules.toml_io import load_ruleset, loads_ruleset, ruleset_from_dict, ruleset_to_toml

__all__ = [
    "ALIASES",
    "MATCH_LENGTHS",
    "PRESETS",
    "SWITCHES",
    "BonusWinHand",
    "DealBonusWin",
    "FanCategory",
    "FanId",
    "FanInfo",
    "FrozenMap",
    "LastTileRule",
    "PassRule",
    "PaymentRules",
    "Ruleset",
    "fan_id_from_text",
    "get_preset",
    "load_ruleset",
    "loads_ruleset",
    "preset_names",
    "ruleset_from_dict",
    "ruleset_to_toml",
]
