"""Loader for the scoring case table ``cases.toml`` (shared by the case tests and the meta-test).

Each case is one inline table::

    {id = "...", rules = "parlor", hand = "123m456p789s234m55s", ctx = "self seat=S win=5s",
     total = 3, items = "ALL_CHOWS=1 CONCEALED_HAND=1 NO_BONUS=1", src = "W2 正統 一番 平糊"}

Optional keys: ``valid`` (default true), ``reason``, ``limit`` (is_limit), ``neg`` (pattern ids this
row is a negative case for: they must be enabled and absent), ``fan`` (fan values to add),
``limit_hands``, ``drop`` (ids not played), ``set`` (switch overrides), ``max`` (the ruleset limit,
``"none"`` = no limit), ``min`` (minimum fan), ``excl`` (exclusion overrides).

``ctx`` tokens: ``self``, ``seat=S``, ``round=E``, ``win=5s``, ``last``, ``kong``, ``kong2``,
``nochain`` (the second kong did not come from the first's replacement), ``bonusrep``, ``rob``,
``heavenly``, ``earthly``, ``first``, ``seven``, ``eight``, ``early``, ``declined``, ``kongfirst``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from hkmahjong.rules import FanId, FrozenMap, Ruleset
from hkmahjong.rules.presets import get_preset
from hkmahjong.rules.ruleset import switch_kind
from hkmahjong.scoring import WinContext
from hkmahjong.tiles import Tile, Wind

CASES_FILE = Path(__file__).with_name("cases.toml")

_FLAGS = {
    "self": "self_drawn",
    "last": "last_tile",
    "kong": "kong_replacement",
    "kong2": "double_kong_replacement",
    "bonusrep": "bonus_replacement",
    "rob": "robbing_kong",
    "heavenly": "heavenly",
    "earthly": "earthly",
    "first": "first_go_around",
    "seven": "seven_bonus",
    "eight": "eight_bonus",
    "early": "early_ready",
    "declined": "declined_bonus_win",
    "kongfirst": "concealed_kong_before",
}


@dataclass(frozen=True)
class Case:
    """One row of the case table."""

    id: str
    rules: str
    hand: str
    ctx: str
    valid: bool
    reason: str | None
    total: int
    items: dict[FanId, int]
    is_limit: bool | None
    neg: tuple[FanId, ...]
    src: str
    overrides: dict[str, Any]


def parse_ctx(text: str) -> WinContext:
    """Build a WinContext from the table's ctx tokens."""
    kw: dict[str, Any] = {}
    for tok in text.split():
        if "=" in tok:
            key, val = tok.split("=", 1)
            if key == "seat":
                kw["seat_wind"] = Wind.parse(val)
            elif key == "round":
                kw["prevailing_wind"] = Wind.parse(val)
            elif key == "win":
                kw["winning_tile"] = Tile.from_text(val)
            else:
                raise ValueError(f"unknown ctx key {key!r}")
        elif tok == "nochain":
            kw["second_kong_from_replacement"] = False
        else:
            kw[_FLAGS[tok]] = True
    return WinContext(**kw)


def _items(text: str) -> dict[FanId, int]:
    out: dict[FanId, int] = {}
    for tok in text.split():
        key, val = tok.split("=")
        out[FanId(key)] = int(val)
    return out


def _coerce_switch(name: str, value: Any) -> Any:
    kind = switch_kind(name)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(value)
    return value


@cache
def ruleset_for(rules: str, overrides_key: str) -> Ruleset:
    """The preset ``rules`` with the row's overrides (cached by their repr)."""
    ov: dict[str, Any] = eval(overrides_key) if overrides_key else {}
    r = get_preset(rules)
    if "drop" in ov:
        r = r.without_fan(*(FanId(x) for x in ov["drop"]))
    if "fan" in ov:
        r = r.with_fan(
            {FanId(k): v for k, v in ov["fan"].items()},
            limit_hands=[FanId(x) for x in ov.get("limit_hands", [])],
        )
    changes: dict[str, Any] = {}
    for name, value in ov.get("set", {}).items():
        changes[name] = _coerce_switch(name, value)
    if "max" in ov:
        changes["limit"] = None if ov["max"] == "none" else ov["max"]
    if "min" in ov:
        changes["min_fan"] = ov["min"]
    if "excl" in ov:
        ex = dict(r.exclusions)
        for k, v in ov["excl"].items():
            ex[FanId(k)] = frozenset(FanId(x) for x in v)
        changes["exclusions"] = FrozenMap(ex)
    if changes:
        r = dataclasses.replace(r, **changes)
    return r


_OVERRIDE_KEYS = ("fan", "limit_hands", "drop", "set", "max", "min", "excl")


@cache
def load_cases() -> tuple[Case, ...]:
    """Every case of ``cases.toml``, in file order."""
    data = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))
    out: list[Case] = []
    for row in data["cases"]:
        overrides = {k: row[k] for k in _OVERRIDE_KEYS if k in row}
        out.append(
            Case(
                id=row["id"],
                rules=row.get("rules", "parlor"),
                hand=row["hand"],
                ctx=row.get("ctx", ""),
                valid=row.get("valid", True),
                reason=row.get("reason"),
                total=row.get("total", 0),
                items=_items(row.get("items", "")),
                is_limit=row.get("limit"),
                neg=tuple(FanId(x) for x in row.get("neg", [])),
                src=row["src"],
                overrides=overrides,
            )
        )
    return tuple(out)


def case_ruleset(case: Case) -> Ruleset:
    """The ruleset a case is scored under."""
    return ruleset_for(case.rules, repr(case.overrides) if case.overrides else "")
