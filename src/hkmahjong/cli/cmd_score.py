"""``hkmj score``: the fan calculator (計番) — one hand with a breakdown, or a JSON Lines batch."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from hkmahjong.cli.jsonl import jsonl_lines, open_jsonl
from hkmahjong.errors import MahjongError
from hkmahjong.hand import Hand
from hkmahjong.rules import Ruleset, load_ruleset
from hkmahjong.scoring import ScoreResult, WinContext, score_hand, score_waits
from hkmahjong.scoring.applies import Settlement, inapplicable
from hkmahjong.scoring.batch import (
    BatchRules,
    arrangement_texts,
    payment_json,
    result_json,
    score_line,
    settlement_extras,
)
from hkmahjong.scoring.context import SPECIAL_FLAGS
from hkmahjong.scoring.payment import settle_win
from hkmahjong.tiles import Tile, Wind, parse_tiles

NAME = "score"
HELP = "score a hand (計番): fan breakdown, total, limit and payments; --jsonl for batches"
ORDER = 10
DEFAULT_PRIORITY = 10

EXAMPLE = "234m44466p [111s] (7777z) 2f2g"
EXAMPLE_ARGS = ["--seat", "S", "--winning-tile", "6p", "--discarder", "E", "--last-tile"]

_CLI_FLAG_NAMES = {"double_kong_replacement": "double_kong", "concealed_kong_before": "kong_first"}
"""Option names that differ from the batch format's ``special`` words."""
_FLAG_FIELDS = {
    "self_drawn": "self_drawn",
    **{_CLI_FLAG_NAMES.get(word, word): name for word, name in SPECIAL_FLAGS.items()},
}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``hkmj score`` arguments."""
    parser.add_argument(
        "hand",
        nargs="?",
        metavar="HAND",
        help="the winning hand, winning tile included: e.g. '234m44466p [111s] (7777z) 2f' "
        "(a 13-tile hand: the score of a win on each of its waits)",
    )
    parser.add_argument("--jsonl", metavar="FILE", help="score a JSON Lines batch ('-' = stdin)")
    parser.add_argument("--rules", default="parlor", metavar="NAME_OR_TOML", help="preset or TOML")
    parser.add_argument(
        "--rules-dir",
        metavar="DIR",
        help='with --jsonl: a line\'s "rules" may name a TOML file in DIR (no other file)',
    )
    parser.add_argument("--seat", help="seat wind 門風 (E S W N; default E)")
    parser.add_argument("--round", help="prevailing wind 圈風 (default E)")
    parser.add_argument(
        "--bonus", default="", help="bonus tiles 花 e.g. 1f2g (or put them in HAND)"
    )
    parser.add_argument("--winning-tile", metavar="T", help="the winning tile (default: best)")
    parser.add_argument("--discarder", metavar="S", help="seat that discarded (or kong declarer)")
    parser.add_argument("--liable", metavar="S", help="seat liable to pay the whole win (包牌)")
    parser.add_argument(
        "--liable-half",
        action="store_true",
        help="落地: the --liable seat pays only half of the discarder's amount (C)",
    )
    parser.add_argument(
        "--kong-discarder",
        metavar="S",
        help="出槓: seat that discarded the tile of the exposed kong whose replacement won",
    )
    parser.add_argument(
        "--co-winner",
        metavar="S",
        action="append",
        default=[],
        help="一炮多響: another seat that won on the same discard (repeatable; it pays nothing)",
    )
    parser.add_argument(
        "--balances",
        metavar="E=N,S=N,W=N,N=N",
        help="what each seat holds: a payer pays at most that (破產, until-bankrupt matches)",
    )
    parser.add_argument(
        "--lang", choices=("zh-Hant", "zh-Hans", "en"), help="names in (default zh-Hant)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    flags = parser.add_argument_group("how the hand was won")
    helps = {
        "self_drawn": "自摸 self-drawn",
        "last_tile": "海底 on the last tile",
        "kong_replacement": "槓上開花 on a kong replacement",
        "double_kong": "槓上槓 after two or more consecutive kongs",
        "bonus_replacement": "花上自摸 on a bonus replacement",
        "robbing_kong": "搶槓 robbing a kong (--discarder = the kong declarer)",
        "heavenly": "天糊 dealer's first fourteen tiles",
        "earthly": "地糊 on the dealer's first discard",
        "first_go_around": "人糊 in the first go-around",
        "seven_bonus": "花糊 win by seven bonus tiles",
        "eight_bonus": "八仙過海 win by all eight bonus tiles",
        "early_ready": "冚手糊 concealed ready declared at the start",
        "declined_bonus_win": "a 花糊 declined earlier adds its fan",
        "kong_first": "a concealed kong came first (no 天糊/人糊; dealer kong: no 地糊)",
    }
    for dest, text in helps.items():
        flags.add_argument("--" + dest.replace("_", "-"), dest=dest, action="store_true", help=text)


@cache
def _load(name: str) -> Ruleset:
    return load_ruleset(name)


def _context(args: argparse.Namespace) -> WinContext:
    kw: dict[str, Any] = {field: bool(getattr(args, dest)) for dest, field in _FLAG_FIELDS.items()}
    kw["seat_wind"] = Wind.parse(args.seat or "E")
    kw["prevailing_wind"] = Wind.parse(args.round or "E")
    if args.winning_tile:
        kw["winning_tile"] = Tile.from_text(args.winning_tile)
    return WinContext(**kw)


def _extras(args: argparse.Namespace, rules: Ruleset, ctx: WinContext) -> dict[str, Any]:
    """--liable-half, --kong-discarder, --co-winner and --balances checked as the batch fields are.

    :raises MahjongError: naming the flag and what is allowed.
    """
    obj: dict[str, Any] = {}
    if args.liable_half:
        if not args.liable or ctx.self_drawn:
            raise MahjongError(
                "--liable-half (落地: the liable seat pays half the discard) needs --liable S "
                "and a win on a discard"
            )
        obj["liable_half_discard"] = True
    if args.kong_discarder:
        obj["kong_discarder_seat"] = args.kong_discarder
    if args.co_winner:
        obj["co_winner_seats"] = list(args.co_winner)
    if args.balances:
        bal: dict[str, Any] = {}
        for part in args.balances.split(","):
            key, sep, value = part.partition("=")
            if not sep or not value.strip().isdigit():
                raise MahjongError(
                    f"--balances {args.balances!r}: expected E=N,S=N,W=N,N=N (whole jade >= 0)"
                )
            bal[key.strip()] = int(value)
        obj["balances"] = bal
    try:
        extras: dict[str, Any] = settlement_extras(obj, rules, ctx)
    except MahjongError as exc:
        text = str(exc)
        for key, option in _OPTION_OF_KEY.items():
            text = text.replace(f"context.{key}", option)
        raise MahjongError(text) from None
    return extras


def _hand(args: argparse.Namespace) -> Hand:
    text = args.hand + (" " + args.bonus if args.bonus else "")
    if args.bonus and not all(t.is_bonus for t in parse_tiles(args.bonus)):
        raise MahjongError(f"--bonus {args.bonus!r}: only flowers and seasons (1f-4f, 1g-4g)")
    return Hand.from_text(text, allow_any_count=True)


_OPTION_OF_KEY: dict[str, str] = {
    "discarder_seat": "--discarder",
    "liable_seat": "--liable",
    "kong_discarder_seat": "--kong-discarder",
    "co_winner_seats": "--co-winner",
    "balances": "--balances",
    "winning_tile": "--winning-tile",
    **{field: "--" + dest.replace("_", "-") for dest, field in _FLAG_FIELDS.items()},
}
"""The option that sets each request field (``applies.inapplicable`` names fields by batch key)."""

_SINGLE_ONLY = (
    "seat",
    "round",
    "bonus",
    "winning_tile",
    "discarder",
    "liable",
    "kong_discarder",
    "co_winner",
    "balances",
    "lang",
    "json",
    *_FLAG_FIELDS,
)
"""Options of one hand; a batch line carries its own context instead."""
_SETTLEMENT = ("winning_tile", "discarder", "liable", "kong_discarder", "co_winner", "balances")
"""Options a 13-tile hand (each wait scored, no settlement) cannot use."""


def _option(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _given(args: argparse.Namespace, dest: str) -> bool:
    value = getattr(args, dest)
    return value not in (None, False, [], "")


def _refuse_unused(args: argparse.Namespace) -> None:
    """Options that cannot apply to what was asked are errors, never silently dropped.

    :raises MahjongError: naming the option.
    """
    if args.jsonl:
        if args.hand:
            raise MahjongError("give either a HAND or --jsonl FILE, not both")
        for dest in _SINGLE_ONLY:
            if _given(args, dest):
                raise MahjongError(
                    f"{_option(dest)} does not apply to --jsonl: each line gives its own "
                    "context (docs/calculator.md, *Batches*); --rules sets the default ruleset"
                )
        return
    if args.rules_dir:
        raise MahjongError("--rules-dir applies only to --jsonl (where a line names its rules)")
    if args.json and args.lang:
        raise MahjongError("--lang does not apply to --json (the output gives zh and en names)")


def run(args: argparse.Namespace) -> int:
    """Score one hand (or a batch); returns the exit status.

    :raises MahjongError: for a bad hand, wind, tile or ruleset, or an option that cannot apply
        (main prints it).
    """
    _refuse_unused(args)
    rules = _load(args.rules)
    if args.jsonl:
        return _run_batch(args.jsonl, rules, args.rules_dir)
    if not args.hand:
        print("hkmj score: give a HAND or --jsonl FILE (see hkmj score -h)", file=sys.stderr)
        return 2
    lang = args.lang or "zh-Hant"
    hand = _hand(args)
    ctx = _context(args)
    if hand.tile_count == 13 and not (ctx.seven_bonus or ctx.eight_bonus):
        for dest in _SETTLEMENT:
            if _given(args, dest):
                raise MahjongError(
                    f"{_option(dest)} does not apply to a 13-tile hand: it is scored on each of "
                    "its waits (聽牌計番), without settlement; add the winning tile to score one win"
                )
        return _run_waits(hand, ctx, rules, args, lang)
    discarder = Wind.parse(args.discarder) if args.discarder else None
    liable = Wind.parse(args.liable) if args.liable else None
    extras = _extras(args, rules, ctx)
    bad = inapplicable(
        hand,
        ctx,
        rules,
        Settlement(
            discarder=discarder,
            liable=liable,
            kong_discarder=extras["kong_discarder"],
            co_winners=extras["co_winners"],
            balances=extras["balances"],
        ),
    )
    if bad is None:
        result = score_hand(hand, ctx, rules)
    else:
        result = ScoreResult(
            valid_win=False,
            reason="invalid_context",
            message=f"{_OPTION_OF_KEY[bad.key]} cannot apply: {bad.why}",
            total_fan=0,
            is_limit=False,
            limit=rules.limit,
        )
    self_paid = ctx.self_drawn or ctx.seven_bonus or ctx.eight_bonus
    if args.json:
        out: dict[str, Any] = {"hand": hand.text}
        out.update(result_json(result))
        pay = payment_json(
            result,
            rules,
            self_drawn=self_paid,
            winner=ctx.seat_wind,
            discarder=discarder,
            liable=liable,
            robbed_kong=ctx.robbing_kong,
            **extras,
        )
        if pay is not None:
            out["payment"] = pay
        print(json.dumps(out, ensure_ascii=False))
        return 0
    sys.stdout.write(
        render(
            hand,
            ctx,
            result,
            rules,
            lang=lang,
            discarder=discarder,
            liable=liable,
            extras=extras,
        )
    )
    return 0


def _run_waits(
    hand: Hand, ctx: WinContext, rules: Ruleset, args: argparse.Namespace, lang: str
) -> int:
    """A 13-tile hand: score a win on each of its waits (聽牌計番)."""
    scored = score_waits(hand, ctx, rules)
    if args.json:
        waits_out = []
        for tile, r in scored:
            entry: dict[str, Any] = {"tile": tile.mpsz}
            entry.update(result_json(r))
            waits_out.append(entry)
        print(json.dumps({"hand": hand.text, "waits": waits_out}, ensure_ascii=False))
        return 0
    how = "自摸 self-drawn" if ctx.self_drawn else "食出銃 on a discard"
    print(f"{_w('hand', lang)}: {hand.text} (13 tiles: scoring each wait 聽牌, {how})")
    if not scored:
        print("未聽牌 not ready: no tile completes this hand")
        return 0
    for tile, r in scored:
        names = " ".join(_name(i.fan_id, lang)[0] for i in r.items)
        mark = "" if r.valid_win else f"  (不成糊 {r.reason})"
        total = f"{r.total_fan:>3}" if r.fan_counted else "  -"
        print(f"  {_pad(tile.label(lang), 5)}{total} 番  {names}{mark}")
    return 0


def _run_batch(path: str, rules: Ruleset, rules_dir: str | None) -> int:
    """Score every line of ``path`` ('-' = stdin); non-zero only when it cannot be opened."""
    if rules_dir is not None and not Path(rules_dir).is_dir():
        print(f"hkmj score: --rules-dir {rules_dir}: not a directory", file=sys.stderr)
        return 2
    load = BatchRules(rules_dir)
    try:
        with open_jsonl(path) as stream:
            for item in jsonl_lines(stream):
                if item.text is None:
                    out: dict[str, Any] = {"id": None, "error": item.error}
                else:
                    out = score_line(item.text, item.number, rules, load)
                sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    except OSError as exc:
        print(f"hkmj score: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _name(fan_id: Any, lang: str) -> tuple[str, str]:
    if lang == "en":
        return fan_id.en, fan_id.zh
    zh = fan_id.zh_hans if lang == "zh-Hans" else fan_id.zh
    return zh, fan_id.en


_WORDS = {
    "hand": ("手牌", "手牌", "Hand"),
    "rules": ("台例", "台例", "Rules"),
    "how": ("食法", "食法", "Win"),
    "arr": ("組合", "组合", "Arrangement"),
    "total": ("總番數", "总番数", "Total"),
    "limit": ("上限", "上限", "Limit"),
    "pay": ("付款", "付款", "Payment"),
    "share": ("一份", "一份", "one share"),
    "none": ("無上限", "无上限", "no limit"),
}


def _w(key: str, lang: str) -> str:
    zh, hans, en = _WORDS[key]
    if lang == "en":
        return f"{en} ({zh})"
    return f"{hans if lang == 'zh-Hans' else zh} {en}"


def render(
    hand: Hand,
    ctx: WinContext,
    result: ScoreResult,
    rules: Ruleset,
    *,
    lang: str = "zh-Hant",
    discarder: Wind | None = None,
    liable: Wind | None = None,
    extras: dict[str, Any] | None = None,
) -> str:
    """The human breakdown: hand, context, items as a table, total, limit and payments.

    ``extras``: ``kong_discarder``, ``co_winners`` and ``balances`` for the settlement.
    """
    lines: list[str] = []
    how = "自摸 self-drawn" if ctx.self_drawn else "食出銃 on a discard"
    if ctx.robbing_kong:
        how = "搶槓 robbing a kong"
    lines.append(f"{_w('hand', lang)}: {hand.text}")
    lines.append(
        f"{_w('how', lang)}: {how}; 門風 seat {ctx.seat_wind.zh} {ctx.seat_wind.letter}, "
        f"圈風 round {ctx.prevailing_wind.zh} {ctx.prevailing_wind.letter}"
    )
    limit_text = str(rules.limit) if rules.limit is not None else _w("none", lang)
    lines.append(
        f"{_w('rules', lang)}: {rules.name} (起糊 min {rules.min_fan}, 上限 limit {limit_text})"
    )
    if result.arrangement is not None:
        lines.append(f"{_w('arr', lang)}: {' '.join(arrangement_texts(result))}")
    if result.items:
        rows = [(*_name(i.fan_id, lang), i.count, i.fan) for i in result.items]
        w1 = max(_width(r[0] + (f" ×{r[2]}" if r[2] > 1 else "")) for r in rows) + 2
        w2 = max(_width(r[1]) for r in rows) + 2
        lines.append("")
        for primary, secondary, count, fan in rows:
            times = f" ×{count}" if count > 1 else ""
            lines.append(f"  {_pad(primary + times, w1)}{_pad(secondary, w2)}{fan:>3} 番")
        lines.append("  " + "-" * (w1 + w2 + 6))
        lines.append(f"  {_pad(_w('total', lang), w1 + w2)}{result.total_fan:>3} 番")
    lines.append("")
    if result.is_limit:
        lines.append(f"爆棚 limit reached ({_w('limit', lang)} {limit_text})")
    if not result.valid_win:
        lines.append(f"不成糊 not a valid win [{result.reason}]: {result.message}")
        return "\n".join(lines) + "\n"
    lines.append(result.message)
    lines.extend(_payment_lines(result, ctx, rules, lang, discarder, liable, extras or {}))
    return "\n".join(lines) + "\n"


def _payment_lines(
    result: ScoreResult,
    ctx: WinContext,
    rules: Ruleset,
    lang: str,
    discarder: Wind | None,
    liable: Wind | None,
    extras: dict[str, Any],
) -> list[str]:
    self_paid = ctx.self_drawn or ctx.seven_bonus or ctx.eight_bonus
    pay = payment_json(
        result, rules, self_drawn=self_paid, winner=None, discarder=None, liable=None
    )
    if pay is None:
        return []
    out = [f"{_w('pay', lang)}: {_w('share', lang)} = {pay['share']}"]
    if self_paid or discarder is not None:
        settlement = settle_win(
            result,
            winner=ctx.seat_wind,
            discarder=None if self_paid else discarder,
            self_drawn=self_paid,
            ruleset=rules,
            liable=liable,
            robbed_kong=ctx.robbing_kong,
            **extras,
        )
        for line in settlement.lines:
            out.append("  " + line.text("zh" if lang != "en" else "en"))
        deltas = ", ".join(f"{w.zh} {w.letter} {settlement.delta(w):+d}" for w in Wind)
        out.append(f"  結算 settlement: {deltas}")
    else:
        out.append(
            f"  全銃 full gun: discarder pays {pay['discarder_full_gun']}; "
            f"半銃 half gun: discarder {pay['discarder_half_gun']}, others {pay['others_half_gun']} each"
        )
        out.append("  (give --discarder S for the settlement between seats)")
    return out


def default_main(parser: argparse.ArgumentParser) -> int:
    """What a bare ``hkmj`` runs: score an example hand, then print the help."""
    args = parser.parse_args(["score", EXAMPLE, *EXAMPLE_ARGS])
    print(f"hkmj score '{EXAMPLE}' {' '.join(EXAMPLE_ARGS)}\n")
    run(args)
    print()
    parser.print_help()
    return 0
