"""``hkmj shanten``: 向聽 — shanten, waits (聽牌) and useful tiles (有效牌) of a hand.

``hkmj shanten "123m456p789s1122z"`` prints a readable analysis; ``hkmj shanten --jsonl FILE``
(``-`` for standard input) reads one hand per line and writes one JSON object per line, in the
format of docs/hand.md ("`hkmj shanten`").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from hkmahjong.cli.jsonl import jsonl_lines, open_jsonl
from hkmahjong.errors import InvalidHandError, MahjongError
from hkmahjong.hand import (
    Hand,
    arrangements,
    discard_shanten,
    shanten_detail,
    useful_after_discard,
    useful_tiles,
    waits,
)
from hkmahjong.hand.batch import analyse_json
from hkmahjong.scoring.batch import MAX_HAND_TEXT, MAX_ID_TEXT, excerpt, json_error_text
from hkmahjong.tiles import Tile, counts34, parse_tiles

NAME = "shanten"
HELP = "向聽: shanten, waits (聽牌) and useful tiles (有效牌) of a hand, or of a JSON Lines file"
ORDER = 30


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments to ``parser``."""
    parser.add_argument(
        "hand",
        nargs="?",
        help='the hand in MPSZ text, melds in brackets: "123m456p789s1122z", "11m [555p] (7777z) …"',
    )
    parser.add_argument(
        "--jsonl", metavar="FILE", help="analyse one hand per line of FILE (- for standard input)"
    )
    parser.add_argument(
        "--seven-pairs",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="count 七對子 as a winning shape (default: no, as in the parlor)",
    )
    parser.add_argument(
        "--visible", default="", help="tiles seen elsewhere (discards, other melds), MPSZ text"
    )
    parser.add_argument(
        "--lang",
        choices=("zh-Hant", "zh-Hans", "en"),
        default="zh-Hant",
        help="tile labels in the readable output",
    )


def run(args: argparse.Namespace) -> int:
    """Analyse one hand, or every line of a JSON Lines file.

    :raises InvalidHandError: for a bad hand or visible-tile text (single-hand mode).
    """
    if args.jsonl is not None:
        if args.hand is not None:
            raise InvalidHandError("give either a HAND or --jsonl FILE, not both")
        return _run_jsonl(args.jsonl, seven_pairs=args.seven_pairs)
    if args.hand is None:
        raise InvalidHandError('give a HAND, e.g. hkmj shanten "123m456p789s1122z", or --jsonl')
    hand = Hand.from_text(args.hand)
    visible = counts34(parse_tiles(args.visible)) if args.visible else None
    print(describe(hand, visible, seven_pairs=args.seven_pairs, lang=args.lang))
    return 0


def _label(tile: Tile, lang: str) -> str:
    return tile.label(lang) if lang == "en" else f"{tile.label(lang)}/{tile.mpsz}"


def _useful_text(useful: dict[Tile, int], lang: str) -> str:
    if not useful:
        return "none"
    total = sum(useful.values())
    items = " ".join(f"{_label(t, lang)}×{n}" for t, n in useful.items())
    kinds = "1 kind" if len(useful) == 1 else f"{len(useful)} kinds"
    return f"{kinds}, {total} unseen — {items}"


def describe(
    hand: Hand,
    visible: list[int] | None = None,
    *,
    seven_pairs: bool = False,
    lang: str = "zh-Hant",
) -> str:
    """A readable report: shanten per shape, waits or best discards, useful tiles.

    :raises InvalidHandError: for an impossible hand.
    """
    detail = shanten_detail(hand, seven_pairs=seven_pairs)
    lines = [f"hand: {hand}  ({hand.tile_count} tiles)"]
    state = {-1: "complete (糊)", 0: "ready (聽牌)"}.get(detail.shanten, "")
    lines.append(f"shanten (向聽): {detail.shanten}" + (f" — {state}" if state else ""))
    shapes = [f"regular {detail.regular}"]
    shapes.append(f"十三幺 {'—' if detail.thirteen_orphans is None else detail.thirteen_orphans}")
    if seven_pairs:
        shapes.append(f"七對子 {'—' if detail.seven_pairs is None else detail.seven_pairs}")
    lines.append("  by shape: " + ", ".join(shapes))
    held = hand.all_counts()
    if hand.tile_count == 13:
        ws = waits(hand, seven_pairs=seven_pairs)
        if ws:
            unseen = [max(0, 4 - held[t] - (visible[t] if visible else 0)) for t in ws]
            parts = [f"{_label(t, lang)} ({n} unseen)" for t, n in zip(ws, unseen, strict=True)]
            lines.append(f"waits (聽): {' '.join(parts)}")
        useful = useful_tiles(hand, visible, seven_pairs=seven_pairs)
        lines.append(f"useful tiles (有效牌): {_useful_text(useful, lang)}")
        return "\n".join(lines)
    if detail.shanten == -1:
        for arr in arrangements(hand, seven_pairs=seven_pairs):
            lines.append(f"  arrangement ({arr.shape.zh}): {arr}")
    per = discard_shanten(hand, seven_pairs=seven_pairs)
    after = useful_after_discard(hand, visible, seven_pairs=seven_pairs)
    best = min(per.values())
    ranked = sorted((t for t in per if per[t] == best), key=lambda t: -sum(after[t].values()))
    lines.append(f"best discards (shanten {best} after the discard):")
    for t in ranked:
        lines.append(f"  discard {_label(t, lang)}: useful {_useful_text(after[t], lang)}")
    return "\n".join(lines)


# --- JSON Lines -----------------------------------------------------------------------------


def analyse_line(line: str, number: int, *, seven_pairs: bool = False) -> dict[str, Any]:
    """The output object of one JSONL line; a malformed line gives ``{"id": …, "error": …}``."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"line {number}: {json_error_text(exc)}"}
    except RecursionError:
        return {"id": None, "error": f"line {number}: not valid JSON: nested too deeply"}
    ident = obj.get("id") if isinstance(obj, dict) else None
    if (isinstance(ident, str) and len(ident) > MAX_ID_TEXT) or isinstance(ident, list | dict):
        return {"id": None, "error": f"line {number}: id = {excerpt(ident)}: too long"}
    try:
        hand_text = obj.get("hand") if isinstance(obj, dict) else None
        if isinstance(hand_text, str) and len(hand_text) > MAX_HAND_TEXT:
            raise InvalidHandError(
                f"hand: {len(hand_text)} characters; a hand is at most {MAX_HAND_TEXT}"
            )
        return {"id": ident, **analyse_json(obj, seven_pairs=seven_pairs)}
    except MahjongError as exc:
        text = str(exc)
        if len(text) > 400:
            text = text[:399] + "…"
        return {"id": ident, "error": f"line {number}: {text}"}


def process_jsonl(lines: Iterable[str], out: TextIO, *, seven_pairs: bool = False) -> int:
    """Analyse every line of ``lines`` and write one JSON line each to ``out``; returns the count.

    Blank lines are skipped (no output line).
    """
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        count += 1
        result = analyse_line(line, number, seven_pairs=seven_pairs)
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return count


def _run_jsonl(source: str, *, seven_pairs: bool) -> int:
    """Every line of ``source`` ('-' = stdin); non-zero only when it cannot be opened."""
    try:
        with open_jsonl(source) as stream:
            for item in jsonl_lines(stream):
                if item.text is None:
                    result: dict[str, Any] = {"id": None, "error": item.error}
                else:
                    result = analyse_line(item.text, item.number, seven_pairs=seven_pairs)
                sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    except OSError as exc:
        print(f"hkmj shanten: error: cannot read {source}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
