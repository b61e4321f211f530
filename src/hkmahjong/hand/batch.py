"""批量向聽 the JSON of ``hkmj shanten --jsonl`` and ``POST /api/shanten`` (docs/hand.md, "`hkmj shanten`"): one
decoded input object to its output object, as plain data."""

from __future__ import annotations

from typing import Any

from hkmahjong.errors import InvalidHandError, MahjongError
from hkmahjong.hand.hand import Hand
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.hand.shanten import shanten_detail, useful_tiles, waits
from hkmahjong.tiles import counts34, parse_tiles

__all__ = ["analyse_json", "hand_from_json"]

_MELD_TYPES = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG}


def _meld_from_json(obj: Any, index: int) -> Meld:
    if not isinstance(obj, dict):
        raise InvalidHandError(f"melds[{index}] must be an object with type and tiles")
    kind_name = obj.get("type")
    if kind_name not in _MELD_TYPES:
        raise InvalidHandError(f"melds[{index}].type must be chow, pung or kong, got {kind_name!r}")
    tiles_text = obj.get("tiles")
    if not isinstance(tiles_text, str):
        raise InvalidHandError(f'melds[{index}].tiles must be MPSZ text such as "111s"')
    exposed = obj.get("exposed", True)
    if not isinstance(exposed, bool):
        raise InvalidHandError(f"melds[{index}].exposed must be true or false")
    if not exposed and kind_name != "kong":
        raise InvalidHandError(f"melds[{index}]: only a kong can be concealed (exposed: false)")
    try:
        tiles = sorted(parse_tiles(tiles_text))
    except MahjongError as exc:
        raise InvalidHandError(f"melds[{index}].tiles: {exc}") from None
    text = f"[{tiles_text}]" if exposed else f"({tiles_text})"
    meld = Meld.from_text(text)
    expected = _MELD_TYPES[kind_name]
    if expected is MeldKind.KONG and meld.kind is MeldKind.CONCEALED_KONG:
        return meld
    if meld.kind is not expected:
        raise InvalidHandError(
            f"melds[{index}]: tiles {tiles_text!r} are a {meld.kind.value}, not a {kind_name}"
        )
    del tiles
    return meld


def hand_from_json(obj: Any) -> Hand:
    """Build a hand from a JSON object ``{"hand": "...", "melds": [...]}`` (docs/hand.md, "`hkmj shanten`").

    :raises InvalidHandError: naming the field that is wrong.
    """
    if not isinstance(obj, dict):
        raise InvalidHandError("each line must be a JSON object")
    text = obj.get("hand")
    if isinstance(text, dict):
        extra = text.get("melds", [])
        text = text.get("concealed")
    else:
        extra = obj.get("melds", [])
    if not isinstance(text, str):
        raise InvalidHandError('"hand" must be MPSZ text such as "123m456p789s1234z"')
    if not isinstance(extra, list):
        raise InvalidHandError('"melds" must be a list')
    base = Hand.from_text(text, allow_any_count=True)
    melds = base.melds + tuple(_meld_from_json(m, i) for i, m in enumerate(extra))
    hand = Hand(base.concealed, melds, base.bonus)
    problems = hand.status()
    if problems:
        raise InvalidHandError(f"impossible hand: {hand.describe_status(problems)}")
    return hand


def analyse_json(obj: Any, *, seven_pairs: bool = False) -> dict[str, Any]:
    """The output object for one input object (without ``id``).

    :raises InvalidHandError: for a malformed or impossible hand.
    """
    hand = hand_from_json(obj)
    visible_text = obj.get("visible", "")
    if not isinstance(visible_text, str):
        raise InvalidHandError('"visible" must be MPSZ text')
    try:
        visible = counts34(parse_tiles(visible_text)) if visible_text else None
    except MahjongError as exc:
        raise InvalidHandError(f'"visible": {exc}') from None
    detail = shanten_detail(hand, seven_pairs=seven_pairs)
    out: dict[str, Any] = {
        "shanten": detail.shanten,
        "regular": detail.regular,
        "thirteen_orphans": detail.thirteen_orphans,
    }
    if seven_pairs:
        out["seven_pairs"] = detail.seven_pairs
    out["waits"] = (
        [t.mpsz for t in waits(hand, seven_pairs=seven_pairs)] if (hand.tile_count == 13) else []
    )
    useful = useful_tiles(hand, visible, seven_pairs=seven_pairs)
    out["useful"] = {t.mpsz: n for t, n in useful.items()}
    return out
