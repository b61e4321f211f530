"""``hkmj rules``: list the presets (預設台例), or show one ruleset's fan table and switches."""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Sequence

from hkmahjong.errors import MahjongError
from hkmahjong.rules import (
    ALIASES,
    PRESETS,
    FanCategory,
    FanId,
    Ruleset,
    load_ruleset,
    ruleset_to_toml,
)
from hkmahjong.rules.ruleset import SWITCHES, field_doc

NAME = "rules"
HELP = "list the rule presets (台例), or show one preset's fan table and switches"
ORDER = 30


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``hkmj rules`` arguments."""
    parser.add_argument(
        "name",
        nargs="?",
        metavar="NAME_OR_TOML",
        help="a preset (parlor, qingzhang, ml, cuhk or an alias) or a ruleset TOML file",
    )
    parser.add_argument("--toml", action="store_true", help="print the ruleset as TOML")
    parser.add_argument(
        "--base",
        metavar="PRESET",
        help="with --toml: write only the differences from this preset",
    )
    parser.add_argument(
        "--all", action="store_true", help="also list the patterns this ruleset does not play"
    )


def run(args: argparse.Namespace) -> int:
    """List presets, or show / print the named ruleset; returns the exit status."""
    out = sys.stdout
    if args.base and not args.toml:
        raise MahjongError(
            f"--base {args.base} applies only with --toml (it writes the differences from "
            "that preset); without --toml the whole ruleset is shown"
        )
    if args.name is None:
        if args.toml:
            print("hkmj rules: --toml needs a preset name or file", file=sys.stderr)
            return 2
        out.write(render_preset_list())
        return 0
    ruleset = load_ruleset(args.name)
    if args.toml:
        base = load_ruleset(args.base) if args.base else None
        out.write(ruleset_to_toml(ruleset, base=base))
    else:
        out.write(render_ruleset(ruleset, show_all=args.all))
    return 0


def render_preset_list() -> str:
    """The table of presets with aliases, minimum fan, limit and description."""
    lines = ["預設台例 presets (`hkmj rules NAME` shows one):", ""]
    rows: list[tuple[str, ...]] = [("name", "aliases", "起糊 min", "爆棚 limit", "description")]
    for name, r in PRESETS.items():
        aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
        rows.append((name, aliases, str(r.min_fan), _limit_text(r.limit), r.description))
    lines += _table(rows)
    lines += [
        "",
        'A ruleset can also be a TOML file: `preset = "parlor"` plus overrides '
        "(docs/ruleset-toml.md).",
    ]
    return "\n".join(lines) + "\n"


def render_ruleset(r: Ruleset, *, show_all: bool = False) -> str:
    """The whole fan table (繁體 + English, fan, 例牌 marks), exclusions, switches and payment."""
    lines = [f"台例 {r.name}: {r.description}".rstrip(": "), ""]
    lines.append(f"起糊 minimum fan: {r.min_fan}    爆棚 limit: {_limit_text(r.limit)}")
    lines += [
        "",
        "番種 fan table (* = 例牌 limit hand: scores its value capped at the limit, "
        "nothing added):",
    ]
    rows: list[tuple[str, ...]] = [("fan", "id", "番種", "English", "source")]
    for fid in sorted(r.fan, key=lambda f: (r.fan[f], list(FanId).index(f))):
        mark = "*" if fid in r.limit_hands else ""
        value = str(r.fan[fid])
        if mark and r.limit is not None and r.fan[fid] != r.limit_value(fid):
            value = f"{r.fan[fid]}→{r.limit_value(fid)}"
        each = " (each)" if fid.per_occurrence else ""
        rows.append((value + mark, fid.value, fid.zh, fid.en + each, fid.source))
    lines += _table(rows, right=(0,))
    off = [f for f in FanId if f not in r.fan]
    if off:
        lines.append("")
        if show_all:
            lines.append("Not played (set a value under [fan] to play one):")
            rows = [("id", "番種", "English", "kind", "source")]
            for fid in off:
                rows.append((fid.value, fid.zh, fid.en, fid.category.value, fid.source))
            lines += _table(rows)
        else:
            optional = sum(1 for f in off if f.category is FanCategory.OPTIONAL)
            names = " ".join(f.zh for f in off if f.category is not FanCategory.OPTIONAL)
            lines.append(
                f"Not played: {names + '; ' if names else ''}{optional} optional 自訂 patterns "
                "(--all lists them)"
            )
    excl = r.exclusions_in_force()
    if excl:
        lines += ["", "包括 exclusions (when the first applies, the others are not counted):"]
        for fid in FanId:
            if fid in excl and fid in r.fan and excl[fid]:
                inner = [f for f in FanId if f in excl[fid]]
                lines.append(
                    f"  {fid.zh} {fid.value} includes "
                    + ", ".join(f"{f.zh} {f.value}" for f in inner)
                )
    lines += ["", "Switches:"]
    switch_rows: list[tuple[str, ...]] = []
    for key in SWITCHES:
        switch_rows.append((key, _fmt(getattr(r, key)), field_doc(key)))
    lines += _table(switch_rows, indent="  ")
    lines += ["", "Payment (付款, [payment]; each key and its seed: docs/payment.md):"]
    pay_rows = [(key, _fmt(value)) for key, value in r.payment.to_dict().items()]
    lines += _table(pay_rows, indent="  ")
    return "\n".join(lines) + "\n"


def _limit_text(limit: int | None) -> str:
    """The limit as text ("none" for no limit)."""
    return "none (無限)" if limit is None else str(limit)


def _fmt(value: object) -> str:
    """A value as in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ", ".join(_fmt(v) for v in value)
    value_attr = getattr(value, "value", None)
    if isinstance(value_attr, str):
        return value_attr
    return str(value)


def _width(text: str) -> int:
    """Display width in a terminal: East Asian wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _table(
    rows: Sequence[Sequence[str]], *, right: tuple[int, ...] = (), indent: str = "  "
) -> list[str]:
    """Rows aligned in columns by display width (the last column is not padded)."""
    if not rows:
        return []
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            if i == len(row) - 1:
                cells.append(cell)
                continue
            pad = " " * (widths[i] - _width(cell))
            cells.append(pad + cell if i in right else cell + pad)
        out.append((indent + "  ".join(cells)).rstrip())
    return out
