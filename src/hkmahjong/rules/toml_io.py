"""台例 as TOML: read a ruleset (a preset plus overrides, or a full table) and write one back.

Format reference: ``docs/ruleset-toml.md``. Reading uses :mod:`tomllib` (standard library); writing
is a small hand-written emitter (the core has no third-party dependency). Every bad value raises a
:class:`~hkmahjong.errors.RulesetError` naming the key, the value and what is allowed.

>>> r = loads_ruleset('preset = "parlor"\\nmin_fan = 1\\n[fan]\\nALL_PUNGS = 4')
>>> (r.min_fan, r.fan[FanId.ALL_PUNGS])
(1, 4)
>>> loads_ruleset(ruleset_to_toml(r)) == r
True
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from hkmahjong.errors import RulesetError
from hkmahjong.rules.fan import FanId, fan_id_from_text
from hkmahjong.rules.payment import PaymentRules
from hkmahjong.rules.presets import ALIASES, PRESETS, get_preset
from hkmahjong.rules.ruleset import MATCH_LENGTHS, SWITCHES, FrozenMap, Ruleset, switch_kind

__all__ = ["load_ruleset", "loads_ruleset", "ruleset_from_dict", "ruleset_to_toml"]

TOP_KEYS: tuple[str, ...] = (
    "preset",
    "name",
    "description",
    "min_fan",
    "limit",
    "limit_hands",
    "fan",
    "exclusions",
    "switches",
    "payment",
)
"""Keys allowed at the top level of a ruleset TOML file."""

_NO_LIMIT = ("none", "no_limit", "no-limit", "無限", "无限")


# --------------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------------
def load_ruleset(path_or_name: str | Path | Ruleset) -> Ruleset:
    """A ruleset from a preset name or alias, or a TOML file (``*.toml`` or any existing file).

    A :class:`Ruleset` passed in is returned as it is.

    :raises RulesetError: for an unknown preset, a missing or unreadable file, bad TOML or a bad
        value (the message names the file, the key, the value and what is allowed).
    """
    if isinstance(path_or_name, Ruleset):
        return path_or_name
    text = str(path_or_name)
    path = Path(text)
    looks_like_file = isinstance(path_or_name, Path) or path.suffix.lower() == ".toml"
    if not looks_like_file and text.strip().lower() in (*PRESETS, *ALIASES):
        return get_preset(text)
    if looks_like_file or path.is_file():
        try:
            data = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise RulesetError(f"{text}: no such ruleset file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesetError(f"{text}: cannot read the ruleset file ({exc})") from None
        return loads_ruleset(data, source=text)
    names = ", ".join(PRESETS)
    raise RulesetError(
        f"{text!r}: neither a preset ({names}; aliases {', '.join(ALIASES)}) nor a TOML file"
    )


def loads_ruleset(text: str, *, source: str = "<toml>", base: Ruleset | None = None) -> Ruleset:
    """A ruleset from TOML text (``base``: the preset its ``preset = …`` names, when that is
    not the preset as it is now — an earlier version, for a record that names one).

    :raises RulesetError: for TOML that does not parse or a bad key or value (prefixed by
        ``source``).
    """
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None
    return ruleset_from_dict(data, source=source, base=base)


def ruleset_from_dict(
    data: Mapping[str, Any], *, source: str = "<toml>", base: Ruleset | None = None
) -> Ruleset:
    """A ruleset from a parsed TOML table (``preset`` plus overrides, or a full table);
    ``base`` stands for the preset it names (an earlier version of it, :func:`loads_ruleset`).

    :raises RulesetError: for an unknown key, a wrong type, an unknown pattern id, a negative fan …
    """
    try:
        return _from_dict(data, base)
    except RulesetError as exc:
        raise RulesetError(f"{source}: {exc}") from None


def _from_dict(data: Mapping[str, Any], version: Ruleset | None = None) -> Ruleset:
    """:func:`ruleset_from_dict` without the source prefix."""
    if not isinstance(data, Mapping):
        raise RulesetError(f"ruleset = {data!r}: allowed a TOML table")
    for key, value in data.items():
        if key not in TOP_KEYS:
            raise RulesetError(f"{key} = {value!r}: unknown key; {_where_hint(key)}")
    # without a preset it is a full table: no pattern is played unless listed under [fan], and
    # switches not given keep their defaults (the parlor's)
    if "preset" not in data and "fan" not in data:
        raise RulesetError(
            'no preset and no [fan] table: nothing would score; allowed preset = "parlor" '
            "(or qingzhang, ml, cuhk) plus overrides, or a full table listing its patterns "
            "under [fan] (docs/ruleset-toml.md)"
        )
    base = get_preset(data["preset"]) if "preset" in data else Ruleset(name="custom")
    if version is not None and "preset" in data:
        if version.name != base.name:
            raise RulesetError(f"preset = {data['preset']!r}: not a version of {version.name!r}")
        base = version
    changes: dict[str, Any] = {}
    overrides = [k for k in data if k != "preset"]
    if "name" in data:
        changes["name"] = data["name"]
    elif "preset" in data and overrides:
        changes["name"] = f"{base.name}+custom"
    for key in ("description", "min_fan"):
        if key in data:
            changes[key] = data[key]
    if "limit" in data:
        changes["limit"] = _read_limit(data["limit"])

    fan = dict(base.fan)
    limit_hands = set(base.limit_hands)
    if "fan" in data:
        table = _table("fan", data["fan"])
        for key, value in table.items():
            fid = _read_fan_id(f"fan.{key}", key)
            if value is False or (isinstance(value, str) and value.strip().lower() == "off"):
                fan.pop(fid, None)
                limit_hands.discard(fid)
            elif isinstance(value, Mapping):
                for sub in value:
                    if sub not in ("fan", "limit"):
                        raise RulesetError(
                            f"fan.{key}.{sub} = {value[sub]!r}: unknown key; allowed fan, limit"
                        )
                if "fan" in value:
                    fan[fid] = _read_fan_value(f"fan.{key}.fan", value["fan"])
                elif fid not in fan:
                    raise RulesetError(f"fan.{key} = {value!r}: a new pattern needs fan = N")
                if "limit" in value:
                    flag = value["limit"]
                    if not isinstance(flag, bool):
                        raise RulesetError(f"fan.{key}.limit = {flag!r}: allowed true or false")
                    (limit_hands.add if flag else limit_hands.discard)(fid)
            else:
                fan[fid] = _read_fan_value(f"fan.{key}", value)
    if "limit_hands" in data:
        value = data["limit_hands"]
        if not isinstance(value, list):
            raise RulesetError(f"limit_hands = {value!r}: allowed a list of pattern ids")
        limit_hands = {_read_fan_id("limit_hands", v) for v in value}
    changes["fan"] = FrozenMap(fan)
    changes["limit_hands"] = frozenset(limit_hands)

    if "exclusions" in data:
        excl = dict(base.exclusions)
        for key, value in _table("exclusions", data["exclusions"]).items():
            fid = _read_fan_id(f"exclusions.{key}", key)
            if not isinstance(value, list):
                raise RulesetError(
                    f"exclusions.{key} = {value!r}: allowed a list of pattern ids ([] = none)"
                )
            ids = frozenset(_read_fan_id(f"exclusions.{key}", v) for v in value)
            if ids:
                excl[fid] = ids
            else:
                excl.pop(fid, None)
        changes["exclusions"] = FrozenMap(excl)

    given_switches: set[str] = set()
    if "switches" in data:
        for key, value in _table("switches", data["switches"]).items():
            if key not in SWITCHES:
                raise RulesetError(
                    f"switches.{key} = {value!r}: unknown switch; {_where_hint(key)}"
                )
            changes[key] = _read_switch(key, value)
            given_switches.add(key)
    # a pattern that is a win of its own goes with its switch unless the file sets the switch
    if "seven_pairs" not in given_switches:
        changes["seven_pairs"] = FanId.SEVEN_PAIRS in fan
    if "bonus_win_seven" not in given_switches and FanId.SEVEN_BONUS not in fan:
        changes["bonus_win_seven"] = False
    elif "bonus_win_seven" not in given_switches and FanId.SEVEN_BONUS not in base.fan:
        changes["bonus_win_seven"] = True

    if "payment" in data:
        changes["payment"] = PaymentRules.from_dict(
            _table("payment", data["payment"]), base=base.payment
        )
    return dataclasses.replace(base, **changes)


def _where_hint(key: str) -> str:
    """What is allowed at the top level, with a hint when ``key`` belongs in a sub-table."""
    if key in SWITCHES:
        return f"put it under [switches] ({key} is a switch)"
    if fan_id_from_text(key) is not None:
        return f"put it under [fan] ({key} is a pattern id)"
    if key in {f.name for f in dataclasses.fields(PaymentRules)}:
        return f"put it under [payment] ({key} is a payment rule)"
    return f"allowed {', '.join(TOP_KEYS)} at the top level; switches: {', '.join(SWITCHES)}"


def _table(key: str, value: object) -> Mapping[str, Any]:
    """``value`` as a TOML table; :raises RulesetError: when it is not one."""
    if not isinstance(value, Mapping):
        raise RulesetError(f"{key} = {value!r}: allowed a table [{key}]")
    return value


def _read_limit(value: object) -> int | None:
    """A limit: a whole number of fan, or "none"; :raises RulesetError: otherwise."""
    if isinstance(value, str) and value.strip().lower() in _NO_LIMIT:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f'limit = {value!r}: allowed a whole number of fan, or "none"')
    return value


def _read_fan_id(where: str, value: object) -> FanId:
    """A pattern id from its id, 繁/简 or English name; :raises RulesetError: when unknown."""
    fid = fan_id_from_text(value) if isinstance(value, str) else None
    if fid is None:
        raise RulesetError(
            f"{where} = {value!r}: unknown pattern id; allowed a FanId such as ALL_PUNGS, "
            f"RED_DRAGON, SEAT_BONUS or its Chinese name (`hkmj rules parlor` lists them all)"
        )
    return fid


def _read_fan_value(where: str, value: object) -> int:
    """A fan value: a whole number >= 0; :raises RulesetError: otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 64:
        raise RulesetError(
            f'{where} = {value!r}: allowed a whole number of fan from 0 to 64, or false / "off" '
            "(not played)"
        )
    return value


def _read_switch(key: str, value: object) -> object:
    """A switch value of the right type; :raises RulesetError: otherwise."""
    kind = switch_kind(key)
    if kind is bool:
        if not isinstance(value, bool):
            raise RulesetError(f"switches.{key} = {value!r}: allowed true or false")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(f"switches.{key} = {value!r}: allowed a whole number")
        return value
    if kind is tuple:
        if not isinstance(value, list):
            raise RulesetError(
                f"switches.{key} = {value!r}: allowed a list of {', '.join(MATCH_LENGTHS)}"
            )
        return tuple(value)
    assert isinstance(kind, type) and issubclass(kind, Enum)
    for member in kind:
        if isinstance(value, str) and value.strip().lower() in (member.value, member.name.lower()):
            return member
    allowed = ", ".join(repr(m.value) for m in kind)
    raise RulesetError(f"switches.{key} = {value!r}: allowed {allowed}")


# --------------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------------
def ruleset_to_toml(r: Ruleset, *, base: Ruleset | None = None) -> str:
    """TOML text for ``r`` that :func:`loads_ruleset` reads back to an equal ruleset.

    Without ``base`` it writes the full table; with ``base`` (a preset) it writes
    ``preset = "<base.name>"`` and only what differs.
    """
    if base is not None and base.name in PRESETS and PRESETS[base.name] == base:
        diff = _diff_toml(r, base)
        if diff is not None and loads_ruleset(diff) == r:
            return diff
    return _full_toml(r)


def _full_toml(r: Ruleset) -> str:
    """Every field of ``r`` written out."""
    out = [
        f"# 台例 ruleset {r.name!r} for hkmahjong (format: docs/ruleset-toml.md)",
        "# A full table: every pattern played is listed under [fan]; absent = not played.",
        f"name = {_value(r.name)}",
        f"description = {_value(r.description)}",
        f"min_fan = {r.min_fan}",
        f"limit = {_value(r.limit)}",
        f"limit_hands = {_value(_ordered(r.limit_hands))}",
        "",
        "[fan]  # pattern id = fan (per occurrence for SEAT_BONUS, BONUS_SET)",
    ]
    for fid in _ordered(r.fan):
        out.append(f"{fid.value} = {r.fan[fid]}  # {fid.zh} {fid.en}")
    out += ["", "[exclusions]  # pattern id = [patterns it includes]"]
    for fid in _ordered(r.exclusions):
        out.append(f"{fid.value} = {_value(_ordered(r.exclusions[fid]))}")
    out += ["", "[switches]"]
    for key in SWITCHES:
        out.append(f"{key} = {_value(getattr(r, key))}")
    out += ["", "[payment]"]
    for key, value in r.payment.to_dict().items():
        out.append(f"{key} = {_value(value)}")
    return "\n".join(out) + "\n"


def _diff_toml(r: Ruleset, base: Ruleset) -> str | None:
    """``preset = base`` plus what differs, or None when a difference cannot be expressed."""
    out = [f"# 台例 ruleset {r.name!r}: the {base.name!r} preset with these changes", ""]
    out.append(f"preset = {_value(base.name)}")
    out.append(f"name = {_value(r.name)}")
    if r.description != base.description:
        out.append(f"description = {_value(r.description)}")
    if r.min_fan != base.min_fan:
        out.append(f"min_fan = {r.min_fan}")
    if r.limit != base.limit:
        out.append(f"limit = {_value(r.limit)}")
    if r.limit_hands != base.limit_hands:
        out.append(f"limit_hands = {_value(_ordered(r.limit_hands))}")
    fan_lines = [
        f"{fid.value} = {r.fan[fid]}  # {fid.zh} {fid.en}"
        for fid in _ordered(r.fan)
        if base.fan.get(fid) != r.fan[fid]
    ]
    fan_lines += [
        f"{fid.value} = false  # {fid.zh}: not played"
        for fid in _ordered(base.fan)
        if fid not in r.fan
    ]
    if fan_lines:
        out += ["", "[fan]", *fan_lines]
    excl_lines = [
        f"{fid.value} = {_value(_ordered(r.exclusions.get(fid, frozenset())))}"
        for fid in _ordered(set(r.exclusions) | set(base.exclusions))
        if r.exclusions.get(fid) != base.exclusions.get(fid)
    ]
    if excl_lines:
        out += ["", "[exclusions]", *excl_lines]
    sw_lines = [
        f"{key} = {_value(getattr(r, key))}"
        for key in SWITCHES
        if getattr(r, key) != getattr(base, key)
    ]
    if sw_lines:
        out += ["", "[switches]", *sw_lines]
    mine, theirs = r.payment.to_dict(), base.payment.to_dict()
    if set(theirs) - set(mine):
        return None
    pay_lines = [f"{k} = {_value(v)}" for k, v in mine.items() if theirs.get(k) != v]
    if pay_lines:
        out += ["", "[payment]", *pay_lines]
    return "\n".join(out) + "\n"


def _ordered(ids: object) -> list[FanId]:
    """Pattern ids in FanId declaration order."""
    assert isinstance(ids, (set, frozenset, Mapping))
    return [f for f in FanId if f in ids]


def _value(value: object) -> str:
    """A TOML literal for a str, bool, int, float, None ("none"), Enum or list of those."""
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return _value(value.value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise RulesetError(f"cannot write {value!r} ({type(value).__name__}) as TOML")


def _string(text: str) -> str:
    """A TOML basic string with escapes."""
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
