"""``hkmj review``: 覆盤 — ``master`` reads back one player's decisions of a record and says what
each cost (docs/review.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from hkmahjong.argtypes import positive_int
from hkmahjong.bots.review import (
    REVIEW_BUDGET,
    DecisionReview,
    MatchReview,
    ReviewConfig,
    ReviewError,
    Totals,
    deal_in_unit,
    player_index,
    review_match,
)
from hkmahjong.cli.cmd_replay import pick_record
from hkmahjong.engine.record import rules_from_spec

NAME = "review"
HELP = "覆盤 review: master's rollouts judge one player's decisions in a game record"
ORDER = 72

VERDICT_ZH = {
    "good": "好",
    "inaccuracy": "疑問手",
    "mistake": "錯着",
    "blunder": "大錯",
    "unreviewed": "未評",
}
"""The verdicts' Chinese names (as a chess review's 疑問手 / 錯着 / 大錯)."""

_MARK = {"good": " ", "inaccuracy": "?!", "mistake": "?", "blunder": "??", "unreviewed": "-"}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``review`` options."""
    parser.add_argument(
        "file", help="a finished game record (JSON Lines: hkmj sim, the parlor, hkmj arena --log)"
    )
    parser.add_argument(
        "--record",
        type=positive_int,
        default=None,
        help="in a stream of records (hkmj arena --log), review record N (1-based)",
    )
    parser.add_argument(
        "--seat",
        default="E",
        help="whose decisions: E, S, W or N (the seat in the first hand; the player keeps it "
        "as the winds move), P1–P4, or a player's name (default E)",
    )
    parser.add_argument(
        "--hand",
        type=positive_int,
        default=None,
        help="review only hand N (1-based; default every finished hand)",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=REVIEW_BUDGET,
        help=f"samples of the hidden tiles per decision, every candidate played out on each "
        f"(default {REVIEW_BUDGET}; deterministic, more is slower and more precise)",
    )
    parser.add_argument(
        "--width",
        type=positive_int,
        default=2,
        help="candidates valued per decision, the played action included (at least 2; default 2)",
    )
    parser.add_argument("--seed", default="0", help="the review's seed (default 0)")
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="worker processes (the review is the same for any number)",
    )
    parser.add_argument(
        "--flagged", action="store_true", help="list only the decisions judged worse than good"
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")


def run(args: argparse.Namespace) -> int:
    """Review the record and print it."""
    record = pick_record(args.file, args.record)
    if not record.hands:
        raise ReviewError(f"{args.file}: the record holds no hand")
    player = player_index(record, args.seat)
    hands = None
    if args.hand is not None:
        if not 1 <= args.hand <= len(record.hands):
            raise ReviewError(f"--hand {args.hand}: the record has hands 1 to {len(record.hands)}")
        if record.hands[args.hand - 1].result is None:
            raise ReviewError(f"--hand {args.hand}: the hand has not ended (nothing to review)")
        hands = [args.hand - 1]
    if args.width < 2:
        raise ReviewError("--width: at least 2 candidates (the played action and another)")
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    config = ReviewConfig(budget=args.budget, seed=seed, width=args.width)
    review = review_match(record, player, config, hands=hands, jobs=args.jobs)
    if args.json:
        json.dump(review.to_json(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    unit = deal_in_unit(rules_from_spec(record.rules, source=record.source))
    show(review, unit, sys.stdout, flagged=args.flagged)
    return 0


def _pm(x: float) -> str:
    return "   inf" if x == float("inf") else f"{x:6.1f}"


def _totals(t: Totals) -> str:
    acc = "—" if t.accuracy is None else f"{t.accuracy:.0%}"
    bad = ", ".join(f"{t.verdicts[v]} {v}" for v in ("inaccuracy", "mistake", "blunder"))
    return (
        f"accuracy {acc} of {t.reviewed} decisions ({bad}); lost in them "
        f"{t.loss:.1f} ± {t.loss_se:.1f} jade; master's choice throughout: "
        f"{t.against_suggested:+.1f} ± {t.against_suggested_se:.1f} jade"
    )


def _why(d: DecisionReview) -> str:
    """向聽 after the played action and after the better one, when they differ."""
    if d.best == d.played or len(d.why) < 2:
        return ""
    played, best = d.why[0], d.why[1]
    if played.shanten == best.shanten:
        return ""

    def sh(n: int) -> str:
        return "和" if n < 0 else str(n)

    return f"  (向聽 {sh(played.shanten_now)}→{sh(played.shanten)}, better →{sh(best.shanten)})"


def _line(d: DecisionReview) -> str:
    best = "" if d.best == d.played else d.best.text
    return (
        f"  {d.index + 1:>3} {d.tiles_left:>4}  {d.played.text:<18} {best:<18} "
        f"{d.loss:6.1f} ±{_pm(d.se)}  {_MARK[d.verdict]:<2} {d.verdict} "
        f"{VERDICT_ZH[d.verdict]}{_why(d)}"
    ).rstrip()


def show(review: MatchReview, unit: float, out: TextIO, *, flagged: bool = False) -> None:
    """The review as a terminal table: settings, each hand's decisions and totals, the match."""
    c = review.config
    t = c.thresholds
    who = f"P{review.player + 1}"
    if review.name != who:
        who += f" {review.name}"
    print(
        f"覆盤 review of {who} — rules {review.rules}; "
        f"{c.budget} samples a decision, {c.width} candidates, seed {c.seed}",
        file=out,
    )
    print(
        f"verdicts by expected loss (unit: a minimum deal-in, {unit:g} jade): inaccuracy "
        f"疑問手 ≥ {t.inaccuracy * unit:g}, mistake 錯着 ≥ {t.mistake * unit:g}, blunder 大錯 ≥ "
        f"{t.blunder * unit:g} jade — and never within {t.z:g} standard errors of zero (more "
        f"for few samples)",
        file=out,
    )
    for h in review.hands:
        print(
            f"\n第{h.hand + 1}局 hand {h.hand + 1} — seat {h.seat.letter} {h.seat.zh}; result "
            f"{h.result:+g} jade; {h.forced} forced action(s) not reviewed",
            file=out,
        )
        print("    #  left  played             better             loss ± s.e.    verdict", file=out)
        for d in h.decisions:
            if flagged and d.verdict == "good":
                continue
            print(_line(d), file=out)
        print(f"  {_totals(h.totals)}", file=out)
    if len(review.hands) > 1:
        print(f"\nmatch: {_totals(review.totals)}", file=out)
