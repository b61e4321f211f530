"""存檔: a hand state as JSON text and back (:meth:`HandState.to_json`, :meth:`HandState.from_json`).

The JSON is one object, version 3, one key per saved field of :data:`~hkmahjong.engine.fields.FIELDS`
(each field's key and codec are declared there). Version-1 states (the window as one ``pending``
list, ``claimed_turn``) and version-2 states (no ``from_draw``: every earlier discard then reads as
手切) are upgraded on reading. Reading checks every field and that the 144 tiles (136 without
bonus tiles) are all accounted for; what a saved state does not hold (a claim window's options
and scored wins) the state recomputes (``HandState._reopen_window``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from hkmahjong.engine.fields import READ, WRITTEN
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile

if TYPE_CHECKING:
    from hkmahjong.engine.state import HandState

__all__ = ["JSON_VERSION", "StateError", "parse_state", "read_fields", "write_state"]

JSON_VERSION: Final = 3


class StateError(MahjongError):
    """A hand state that cannot be made: a JSON text that cannot be read (naming the field that
    is wrong), or a seed or prevailing wind given to ``HandState.new`` that is not one."""


def write_state(state: HandState) -> str:
    """The whole state as JSON text (every saved field, in table order)."""
    obj: dict[str, Any] = {"version": JSON_VERSION}
    for f in WRITTEN:
        obj[f.json_key] = f.encode(getattr(state, f.name))
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def parse_state(text: str, ruleset: Ruleset | None) -> tuple[dict[str, Any], Ruleset]:
    """The JSON object of a saved state, upgraded to the current version, and its ruleset
    (``ruleset``, else the preset the state names).

    :raises StateError: when the text is not a JSON object of a known version.
    """
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"hand state is not JSON: {exc}") from None
    if not isinstance(obj, dict) or obj.get("version") not in (1, 2, JSON_VERSION):
        raise StateError(f"hand state must be a JSON object with version {JSON_VERSION}")
    if ruleset is None:
        from hkmahjong.rules.presets import get_preset

        ruleset = get_preset(str(obj.get("ruleset")))
    if obj["version"] == 1:
        obj = _upgrade_v1(obj)
    if obj["version"] in (1, 2):
        obj = _upgrade_v2(obj)
    return obj, ruleset


def read_fields(state: HandState, obj: dict[str, Any]) -> None:
    """Set every saved field of the blank ``state`` from ``obj`` (:func:`parse_state`'s) and check
    that every tile is accounted for.

    :raises StateError: naming the field that is missing or malformed, or the tiles that do not
        add up to the full set.
    """
    key = "?"
    try:
        for f in READ:
            key = f.json_key
            setattr(state, f.name, f.decode(obj[key]))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise StateError(f"hand state field {key!r} is missing or malformed: {exc}") from None
    want = [4] * 34 + ([1] * 8 if state.ruleset.bonus_tiles else [0] * 8)
    try:
        census = state.census()
    except (IndexError, TypeError) as exc:
        raise StateError(f"hand state holds an impossible tile: {exc}") from None
    if census != want:
        wrong = [Tile(k).mpsz for k in range(42) if census[k] != want[k]]
        raise StateError(f"hand state does not account for every tile: {', '.join(wrong)}")


def _upgrade_v1(obj: dict[str, Any]) -> dict[str, Any]:
    """A version-1 state's keys in version 2 (the window in one list, the claimed tile's name)."""
    out = dict(obj)
    pending = out.pop("pending", None)
    if isinstance(pending, list) and len(pending) == 3:
        out["pending_tile"], out["pending_from"], out["pending_kind"] = pending
    if "claimed_turn" in out:
        out["claimed_tile"] = out.pop("claimed_turn")
    return out


def _upgrade_v2(obj: dict[str, Any]) -> dict[str, Any]:
    """A version-2 state in version 3: it did not record 摸切, so every discard reads as 手切."""
    out = dict(obj)
    rivers = out.get("rivers")
    if "from_draw" not in out and isinstance(rivers, list):
        out["from_draw"] = [[False] * len(r) if isinstance(r, list) else r for r in rivers]
    return out
