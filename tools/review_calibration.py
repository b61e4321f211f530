"""Calibrate the review (issue 37): what its verdicts claim against what the decisions really lose.

    python tools/review_calibration.py --hands 40 --jobs 2            # ≈ 3,300 decisions
    python tools/review_calibration.py --hands 8 --budget 8           # a bounded run
    python tools/review_calibration.py --records games.jsonl          # records of your own

Self-play records: one-hand matches (hand ``w`` from the seed text ``{seed}:{w}``) of the line-up
``--bots`` (default ``random,easy,normal,efficient``: players who make mistakes, from senseless
to small), rotated one seat a hand so each bot sits everywhere; or a record stream (``hkmj arena
--log``, ``hkmj sim --log``).
Every decision of every seat (``--seats``) is reviewed as ``hkmj review`` reviews it — from the
seat's view, on sampled hidden tiles — and then **forked from the true state**: the played
action, the review's best and ``master``'s ranking's choice are each played on the real hidden
tiles (the other hands and the wall as they were), the rest of the hand by the review's own
rollout policy (``strong`` in every seat, ``tools/fork_wins.py``-style). The fork's difference
best − played is one unbiased sample of the decision's real loss under that policy; averaged by
verdict it is compared with the loss the review claimed.

Printed, by verdict: decisions, the claimed mean loss and the measured mean loss (jade, 95% CI),
their ratio, and how often the measured loss was positive; the same for the unbiased figure
(master's choice − played); and by claimed-loss bins. ``--json FILE`` writes every decision's
row.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from hkmahjong.bots import get_bot
from hkmahjong.bots.arena import mean_ci
from hkmahjong.bots.backend import Backend, imap_indexed
from hkmahjong.bots.master import play_out
from hkmahjong.bots.review import (
    VERDICTS,
    ReviewConfig,
    point_at,
    review_point,
    rollout_bots,
)
from hkmahjong.engine import Action
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import run_match
from hkmahjong.engine.record import (
    GameRecord,
    read_records,
    replay_hand,
    rules_from_spec,
    seed_from_text,
)
from hkmahjong.errors import MahjongError
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind


@dataclass(frozen=True, slots=True)
class Row:
    """One reviewed decision and its forks on the true hidden tiles."""

    hand: str
    seat: str
    index: int
    tiles_left: int
    kind: str
    played: str
    best: str
    verdict: str
    claimed: float
    se: float
    samples: int
    measured: float
    """Jade of the best − of the played, both forked from the true state."""
    suggested_claimed: float
    suggested_measured: float


def _self_play(rules: str, bots: Sequence[str], seed: str, w: int) -> GameRecord:
    ruleset = get_preset(rules)
    lineup = [bots[(i + w) % len(bots)] for i in range(4)]
    players = [
        get_bot(name, seed=f"{seed}:{w}:{i}", ruleset=ruleset, time_budget=1e9)
        for i, name in enumerate(lineup)
    ]
    return run_match(
        Match(tuple(f"{n}#{i}" for i, n in enumerate(lineup)), MatchLength("one-hand")),
        ruleset,
        players,
        match_seed=seed_from_text(f"{seed}:{w}"),
    )


def calibrate_record(record: GameRecord, config: ReviewConfig, seats: Sequence[int]) -> list[Row]:
    """Every decision of ``seats`` in every finished hand of ``record``: reviewed, then forked."""
    ruleset = rules_from_spec(record.rules, source=record.source)
    rows: list[Row] = []
    for n, hand in enumerate(record.hands):
        if hand.result is None:
            continue
        steps = replay_hand(record, n)
        step = next(steps)
        for i, a in enumerate(hand.actions):
            if int(a.seat) in seats:
                played = Action.from_text(a.action)
                point = point_at(step.state, a.seat, played, n, i)
                if point is not None:
                    d = review_point(point, ruleset, config)
                    if d.reviewed:
                        got: dict[Action, float] = {}
                        for c in {d.played, d.best, d.suggested}:
                            bots = rollout_bots(config, ruleset)
                            v = play_out(step.state.clone(), int(a.seat), c, bots, math.inf)
                            assert v is not None
                            got[c] = v
                        rows.append(
                            Row(
                                f"{record.source}#{n}",
                                a.seat.letter,
                                i,
                                d.tiles_left,
                                played.kind.name.lower(),
                                d.played.text,
                                d.best.text,
                                d.verdict,
                                d.loss,
                                d.se,
                                d.samples,
                                got[d.best] - got[d.played],
                                d.suggested_diff,
                                got[d.suggested] - got[d.played],
                            )
                        )
            step = next(steps)
        for _ in steps:
            pass
    return rows


@dataclass(frozen=True, slots=True)
class _Task:
    rules: str
    bots: tuple[str, ...]
    seed: str
    wall: int
    config: ReviewConfig
    seats: tuple[int, ...]
    record: GameRecord | None = None


def _work(task: _Task) -> list[Row]:
    record = task.record or _self_play(task.rules, task.bots, task.seed, task.wall)
    if task.record is None:
        record.source = f"{task.seed}:{task.wall}"
    return calibrate_record(record, task.config, task.seats)


def _ci(values: Sequence[float]) -> str:
    if not values:
        return "—"
    m, h = mean_ci(values)
    return f"{m:+7.2f} ± {h:5.2f}" if math.isfinite(h) else f"{m:+7.2f}"


def report(rows: Sequence[Row]) -> list[str]:
    """The calibration tables: by verdict, and by claimed-loss bins (jade)."""
    out = [
        f"{'verdict':<11} {'n':>5}  {'claimed loss (95% CI)':>20}  {'measured loss':>16}  "
        f"{'meas/claim':>10}  {'meas > 0':>8}   master's choice − played: claimed / measured"
    ]
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        groups[r.verdict].append(r)
    flagged = [r for r in rows if r.verdict != "good"]
    for name, group in [*((v, groups.get(v, [])) for v in VERDICTS), ("flagged", flagged)]:
        if not group:
            out.append(f"{name:<11} {0:>5}")
            continue
        claimed = sum(r.claimed for r in group) / len(group)
        measured = sum(r.measured for r in group) / len(group)
        ratio = f"{measured / claimed:10.2f}" if claimed > 0 else f"{'—':>10}"
        pos = sum(r.measured > 0 for r in group) / len(group)
        out.append(
            f"{name:<11} {len(group):>5}  {_ci([r.claimed for r in group]):>20}  "
            f"{_ci([r.measured for r in group]):>16}  {ratio}  {pos:8.0%}   "
            f"{_ci([r.suggested_claimed for r in group])} / "
            f"{_ci([r.suggested_measured for r in group])}"
        )
    out.append("")
    out.append("by claimed loss (jade), every verdict:")
    bins: dict[str, list[Row]] = defaultdict(list)
    edges = (0.0, 1e-9, 3.0, 6.0, 12.0, 24.0, math.inf)
    labels = ("0", "(0, 3)", "[3, 6)", "[6, 12)", "[12, 24)", "≥ 24")
    for r in rows:
        for lo, hi, label in zip(edges, edges[1:], labels, strict=False):
            if lo <= r.claimed < hi or (label == "0" and r.claimed == 0.0):
                bins[label].append(r)
                break
    for label in labels:
        group = bins.get(label, [])
        if group:
            out.append(
                f"  {label:<9} n={len(group):>5}  claimed {_ci([r.claimed for r in group])}  "
                f"measured {_ci([r.measured for r in group])}"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="parlor")
    ap.add_argument("--bots", default="random,easy,normal,efficient")
    ap.add_argument("--hands", type=int, default=40, help="self-play hands (one-hand matches)")
    ap.add_argument("--records", default=None, help="review these records instead of self-play")
    ap.add_argument("--seats", default="ESWN", help="seats whose decisions are reviewed")
    ap.add_argument("--seed", default="calib")
    ap.add_argument("--budget", type=int, default=ReviewConfig().budget)
    ap.add_argument("--review-seed", default="0")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--json", default=None, help="write every decision's row (JSON Lines, hand by hand)"
    )
    ap.add_argument(
        "--report",
        default=None,
        help="only print the tables of a --json file (of a run, or of one stopped midway)",
    )
    args = ap.parse_args(argv)
    if args.report:
        with open(args.report, encoding="utf-8") as f:
            rows_read = [Row(**json.loads(line)) for line in f if line.strip()]
        print(f"{len(rows_read)} decisions from {args.report}")
        print("\n".join(report(rows_read)))
        return 0
    try:
        seats = tuple(int(Wind.parse(c)) for c in args.seats)
        config = ReviewConfig(budget=args.budget, seed=args.review_seed)
        bots = tuple(args.bots.split(","))
        if args.records:
            tasks = [
                _Task(args.rules, bots, args.seed, i, config, seats, rec)
                for i, rec in enumerate(read_records(args.records))
            ]
        else:
            get_preset(args.rules)
            tasks = [
                _Task(args.rules, bots, args.seed, w, config, seats) for w in range(args.hands)
            ]
        start, cpu = time.perf_counter(), time.process_time()
        parts: list[list[Row] | None] = [None] * len(tasks)
        sink = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115
        for i, got in imap_indexed(_work, tasks, Backend(jobs=args.jobs)):
            parts[i] = got
            if sink is not None:  # as each hand ends: a run stopped midway keeps its rows
                for r in got:
                    sink.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")
                sink.flush()
            print(f"\r{sum(len(p) for p in parts if p)} decisions", end="", file=sys.stderr)
        print(file=sys.stderr)
        if sink is not None:
            sink.close()
    except (MahjongError, ValueError) as exc:
        ap.error(str(exc))
    rows = [r for p in parts if p for r in p]
    print(
        f"{len(rows)} decisions reviewed ({len(tasks)} hands; seats {args.seats}; bots "
        f"{args.bots if not args.records else args.records}; rules {args.rules}; budget "
        f"{args.budget}, extend {config.extend}, width {config.width}) in "
        f"{time.perf_counter() - start:.0f} s wall ({time.process_time() - cpu:.0f} s CPU here)"
    )
    print("\n".join(report(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
