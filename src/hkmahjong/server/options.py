"""開檯選項 ``GET /api/table-options``: what a player may choose when opening a table, and what it
costs, before anything is created (docs/protocol.md, *HTTP*; the create page and the quick-match
button are built from it).

For a ``kind`` (``practice`` or ``online``) and a preset it answers: the presets (name and label
in 繁 / 简 / English); the **lengths** that ruleset offers that kind of table
(:meth:`~hkmahjong.engine.match.MatchLength.offered`: seed 003 "麻雀馆的单人练习可选择牌局长度：
四圈、八局、十六局或打至有人破产。线上对局为四局"); the **table value** (seed 002 "每牌桌的賭注或
牌桌的價值是由出沖最高番為定": what a discard at the top fan pays; ``table_stake`` in the documented
answer, also given as ``table_value``, the name the table's facts use); the **levels** an online
creator picks from (stake = table value × level); the bot levels; and the house-rule switches
people change (key, where it goes in ``rules.switches``, type, choices, the preset's value).
Nothing here decides a rule: every value is read from the ruleset and the parlor's terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query

from hkmahjong.engine.match import MatchLength
from hkmahjong.parlor.lobby import QUICK_LEVEL
from hkmahjong.parlor.seats import BOT_LEVELS
from hkmahjong.parlor.stakes import STAKE_LEVELS, stake_for, table_value
from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import GunScheme
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.rules.ruleset import PassRule
from hkmahjong.server import i18n
from hkmahjong.server.tutorial import preset_label

__all__ = ["SWITCH_OPTIONS", "SwitchOption", "router", "table_options"]

router = APIRouter()


@dataclass(frozen=True)
class SwitchOption:
    """A house-rule switch people change when opening a table: where it goes in the request's
    ``rules.switches`` (``path``), its JSON type, its choices and its name in 繁 / 简 / English."""

    key: str
    path: tuple[str, ...]
    type: str
    choices: tuple[Any, ...]
    labels: tuple[str, str, str]

    def value(self, ruleset: Ruleset) -> Any:
        """The ruleset's value of this switch, as it is sent."""
        obj: Any = ruleset
        for part in self.path[-1:] if self.path[0] == "switches" else self.path:
            obj = getattr(obj, part)
        if isinstance(obj, Enum):
            return obj.value
        return "none" if obj is None and self.key == "limit" else obj


SWITCH_OPTIONS: tuple[SwitchOption, ...] = (
    SwitchOption(
        "min_fan", ("min_fan",), "int", (0, 1, 2, 3, 4, 5), ("起糊番數", "起胡番数", "Minimum fan")
    ),
    SwitchOption(
        "limit", ("limit",), "int|none", (8, 10, 13, "none"), ("番數上限", "番数上限", "Fan limit")
    ),
    SwitchOption(
        "gun",
        ("payment", "gun"),
        "choice",
        tuple(g.value for g in GunScheme),
        ("全銃／半銃", "全铳／半铳", "Full or half gun"),
    ),
    SwitchOption(
        "discarder_shares",
        ("payment", "discarder_shares"),
        "int",
        (2, 3, 4),
        ("全銃出銃者付幾份", "全铳出铳者付几份", "Shares a discarder pays (full gun)"),
    ),
    SwitchOption(
        "multiple_winners",
        ("switches", "multiple_winners"),
        "bool",
        (False, True),
        (
            "一炮多響（關：截糊）",
            "一炮多响（关：截胡）",
            "Several winners on one discard (off: head bump)",
        ),
    ),
    SwitchOption(
        "bonus_tiles",
        ("switches", "bonus_tiles"),
        "bool",
        (True, False),
        ("打花", "打花", "Play with bonus tiles"),
    ),
    SwitchOption(
        "dead_wall",
        ("switches", "dead_wall"),
        "int",
        (0, 14, 16),
        ("留牌尾（隻）", "留牌尾（张）", "Tiles kept back at the tail"),
    ),
    SwitchOption(
        "pass_rule",
        ("switches", "pass_rule"),
        "choice",
        tuple(p.value for p in PassRule),
        ("食糊過水", "胡牌过水", "Passing a win (過水)"),
    ),
)
"""The switches of the create page (issue 30: minimum fan, limit, half / full gun, 截糊 or
several winners, flowers, …), each loading under every preset (``tests/server/test_options.py``)."""


def _labels(texts: tuple[str, str, str]) -> dict[str, str]:
    return dict(zip(i18n.LANGS, texts, strict=True))


def _words(key: str) -> dict[str, str]:
    return {lang: i18n.tr(lang, key) for lang in i18n.LANGS}


def table_options(kind: str, preset: str) -> dict[str, Any]:
    """The options of a ``kind`` table under ``preset`` (the body of ``GET /api/table-options``).

    :raises KeyError: for an unknown preset (its name in the message).
    """
    if preset not in preset_names():
        raise KeyError(preset)
    ruleset = get_preset(preset)
    lengths = MatchLength.offered(kind, ruleset.match_lengths)
    value = table_value(ruleset)
    online = kind == "online"
    return {
        "kind": kind,
        "preset": preset,
        "presets": [
            {"name": name, "labels": {lang: preset_label(name, lang) for lang in i18n.LANGS}}
            for name in preset_names()
        ],
        "lengths": [
            {
                "value": m.value,
                "labels": {lang: m.label(lang) for lang in i18n.LANGS},
                "hands": m.hand_limit,
                "default": i == 0,
            }
            for i, m in enumerate(lengths)
        ],
        "table_stake": value,
        "table_value": value,
        "levels": [
            {"level": level, "stake": stake_for(ruleset, level), "default": level == QUICK_LEVEL}
            for level in STAKE_LEVELS
        ]
        if online
        else [],
        "bot_levels": [{"value": b, "labels": _words(f"level_{b}")} for b in BOT_LEVELS],
        "switches": [
            {
                "key": s.key,
                "path": list(s.path),
                "type": s.type,
                "choices": list(s.choices),
                "default": s.value(ruleset),
                "labels": _labels(s.labels),
            }
            for s in SWITCH_OPTIONS
        ],
    }


@router.get("/api/table-options", tags=["tables"])
def api_table_options(
    kind: Annotated[Literal["practice", "online"], Query()] = "online",
    preset: Annotated[str, Query(max_length=40)] = "parlor",
) -> dict[str, Any]:
    """What a ``kind`` table under ``preset`` offers and costs: lengths, the table value (seed
    002 牌桌價值), the stake of each level, bot levels and the switches people change."""
    try:
        return table_options(kind, preset)
    except KeyError:
        raise HTTPException(
            status_code=422,
            detail={
                "code": "bad_config",
                "field": "preset",
                "message": f"preset: no preset {preset!r}; allowed {', '.join(preset_names())}",
            },
        ) from None
