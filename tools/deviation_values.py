"""What leaving ``strong``'s choice is worth, measured on the real hidden tiles.

    python tools/deviation_values.py --rules parlor --hands 6000 --seed g17 --jobs 2 calls
    python tools/deviation_values.py --rules parlor --hands 1300 --seed d17 --jobs 2 safe
    python tools/deviation_values.py --rules qingzhang --hands 3000 --seed f13 --jobs 2 push

Four ``strong`` bots play hands ``0..hands-1`` of ``--seed`` (arena walls, hand number 0). At
the decisions below, every seat's, the state is cloned and each alternative is played out to
the end of the hand by ``strong`` in every seat (the very rollout ``master`` plays, but on the
*true* hidden tiles, not a sample); y = what the alternative pays the seat − what ``strong``'s
own choice pays it, both on the same wall. The mean of y over a class of decisions is what a
rule "leave ``strong``'s choice for that alternative in this class" gains a decision, against
three ``strong`` opponents, without any sampling error of the hidden tiles: an upper bound on
what ``master``'s search can find in that class, less its noise.

* ``calls``: the pools ``master`` would search at ``scope="calls"`` with ``gap`` 10 (a claim,
  passing one, a kong; pools with a win are left out), every alternative against ``strong``'s
  choice, by (choice → alternative, ``strong``'s rank gap <2 / <5 / <10).
* ``push``: discard decisions where ``strong`` has folded (棄和) and, its fold rule switched
  off (``fold_ratio`` ∞), would discard another tile: that attacking discard against the fold,
  by the distance of ``strong``'s route (d0 = ready … d3+) and by its fold test's risk / EV
  (the rule folds above ``fold_ratio`` 1.5: 1.5–2, 2–4, ≥ 4 and an EV of 0).
* ``discards``: discard decisions where ``strong``'s next best discards are within 3 rank points
  of its choice (at most two of them), each against its choice, by the rank gap (<0.5 / <1 /
  <3) and by the tiles left in the wall (a hand's phase: ≥ 60, 40–60, < 40); each row also
  carries the gap, the tiles left and both tiles' learnt deal-in chances (``--out``).
* ``safe``: discard decisions where ``strong``'s discard has a learnt deal-in chance
  (``bots/reading.py``, summed over the opponents) of at least 1%, against the learnt model's
  safest discard, by that chance and by whether ``strong`` had folded (棄和).

Printed per class: decisions, mean y, its standard error, and the gain per seat-hand were the
rule applied to the whole class (n × mean / (4 × hands)). ``--out`` writes the rows as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.base import WIN_KINDS
from hkmahjong.bots.master import MasterBot, Search, play_out
from hkmahjong.bots.reading import deal_in_probabilities
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import Action, ActionKind
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

_KINDS = {0: "pass", 1: "discard", 2: "chow", 3: "pung", 4: "kong", 5: "kong", 6: "kong"}
_CHANCE_BINS = (0.02, 0.04, 0.08, 0.15)
"""Upper edges of the learnt-chance classes of ``safe``; a last class holds the rest."""


_RATIO_BINS = (2.0, 4.0)
"""Upper edges of the risk / EV classes of ``push`` (the fold rule fires above 1.5)."""
_NEVER_FOLD = Style(fold_ratio=math.inf)
_DISCARD_GAPS = (0.5, 1.0, 3.0)
"""Upper edges of the rank-gap classes of ``discards`` (the last is the pool's gap)."""
_WALL_BINS = (40.0, 60.0)
"""Upper edges of the tiles-left classes of ``discards``."""
_PLAN = re.compile(r"FOLD: .* d(\d+) p[\d.]+ EV (-?[\d.]+) vs risk (-?[\d.]+)")
"""``strong``'s fold line in its explanation: its route's distance, the EV and the risk."""


def _class(name: str, value: float, edges: tuple[float, ...]) -> str:
    """``value``'s class among ``edges`` (upper edges): ``name<edge``, or ``name>=last`` above
    them all."""
    top = next((b for b in edges if value < b), None)
    return f"{name}<{top:g}" if top is not None else f"{name}>={edges[-1]:g}"


def _chance(probs: dict[Wind, tuple[float, ...]], a: Action) -> float:
    """The learnt chance that discarding ``a``'s tile deals in, summed over the opponents."""
    assert a.tile is not None
    return sum(p[int(a.tile)] for p in probs.values())


def _gap_bin(gap: float) -> str:
    return "gap<2" if gap < 2 else ("gap<5" if gap < 5 else "gap<10")


def _hand(args: tuple[str, str, int, str]) -> list[dict[str, Any]]:
    """The measured decisions of one hand."""
    rules, seed, h, mode = args
    rs = get_preset(rules)
    # strong's own ranking and choice (its default style), and master's pools at gap 10
    ranker = MasterBot(
        f"{seed}:{h}", ruleset=rs, time_budget=3600.0, style=Style(), search=Search(gap=10.0)
    )
    # push: the discard strong would play had its fold rule not fired
    pusher = (
        StrongBot(f"{seed}:{h}", ruleset=rs, time_budget=3600.0, style=_NEVER_FOLD)
        if mode == "push"
        else None
    )
    state = HandState.new(rs, seed=hand_seed(seed, h), hand_number=0)
    rows: list[dict[str, Any]] = []

    def value(seat: int, action: Action) -> float:
        got = play_out(state.clone(), seat, action, ranker.rollout_bots(seat), math.inf)
        assert got is not None
        return got

    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply(seat, legal[0])
            continue
        view = state.view(seat)
        cands, summary, chosen = ranker._ranked(view, legal, explain=True)
        me = int(seat)
        if mode == "calls":
            pool = ranker._pool(cands, chosen)
            if len(pool) > 1 and not any(c.action.kind in WIN_KINDS for c in pool):
                base = value(me, chosen)
                for c in pool[1:]:
                    gap = pool[0].score - c.score
                    kinds = f"{_KINDS[int(chosen.kind)]} -> {_KINDS[int(c.action.kind)]}"
                    y = value(me, c.action) - base
                    rows.append({"hand": h, "class": f"{kinds}, {_gap_bin(gap)}", "y": y})
        elif mode == "push":
            assert pusher is not None
            if chosen.kind is ActionKind.DISCARD and "FOLD" in summary:
                push = pusher.choose(view, legal)
                if push != chosen:
                    d = _PLAN.search(summary)
                    assert d is not None
                    dist, ev, risk = int(d[1]), float(d[2]), float(d[3])
                    ratio = risk / ev if ev > 0 else math.inf
                    r_class = _class("risk/EV", ratio, _RATIO_BINS)
                    cls = f"d{min(dist, 3)}{'+' if dist >= 3 else ''}, {r_class}"
                    rows.append({"hand": h, "class": cls, "y": value(me, push) - value(me, chosen)})
        elif mode == "discards":
            if chosen.kind is ActionKind.DISCARD:
                live = sorted(
                    (c for c in cands if c.action.kind is ActionKind.DISCARD and c.score > -1e5),
                    key=lambda c: -c.score,
                )
                top = next(c for c in live if c.action == chosen)
                alts = [
                    c for c in live if c is not top and top.score - c.score < _DISCARD_GAPS[-1]
                ][:2]
                if alts:
                    probs = deal_in_probabilities(view)
                    base = value(me, chosen)
                    wall = view.tiles_left
                    phase = _class("wall", wall, _WALL_BINS)
                    p_choice = round(_chance(probs, chosen), 4)
                    for c in alts:
                        gap = top.score - c.score
                        rows.append(
                            {
                                "hand": h,
                                # alts are below the last edge
                                "class": f"{_class('gap', gap, _DISCARD_GAPS)}, {phase}",
                                "y": value(me, c.action) - base,
                                "gap": gap,  # unrounded: the class is named from it
                                "wall": wall,
                                "p_choice": p_choice,
                                "p_alt": round(_chance(probs, c.action), 4),
                                "folded": "FOLD" in summary,
                            }
                        )
        elif chosen.kind is ActionKind.DISCARD:
            probs = deal_in_probabilities(view)
            p = _chance(probs, chosen)
            safe = min(
                (a for a in legal if a.kind is ActionKind.DISCARD),
                key=lambda a: (_chance(probs, a), a),
            )
            if p >= 0.01 and safe != chosen:
                # a sum over three opponents: it may pass 1, so the last class is open
                chance_class = _class("chance", p, _CHANCE_BINS)
                mode_word = "folded" if "FOLD" in summary else "attacking"
                y = value(me, safe) - value(me, chosen)
                rows.append({"hand": h, "class": f"{chance_class}, {mode_word}", "y": y})
        state.apply(seat, chosen)
    return rows


def measure(
    rules: str, hands: int, seed: str, mode: str, jobs: int = 1
) -> Iterator[dict[str, Any]]:
    """The rows of hands ``0..hands-1``, hand by hand (in hand order with ``jobs`` 1)."""
    work = [(rules, seed, h, mode) for h in range(hands)]
    if jobs <= 1:
        for w in work:
            yield from _hand(w)
        return
    with Pool(jobs) as pool:
        for rows in pool.imap_unordered(_hand, work, chunksize=4):
            yield from rows


def summarize(rows: list[dict[str, Any]], hands: int) -> list[dict[str, Any]]:
    """Per class: n, mean y, its standard error, and the gain per seat-hand of the whole class."""
    by: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        by[r["class"]].append(float(r["y"]))
    out = []
    for name in sorted(by):
        ys = by[name]
        n = len(ys)
        mean = sum(ys) / n
        se = math.sqrt(sum((y - mean) ** 2 for y in ys) / (n - 1) / n) if n > 1 else math.inf
        out.append(
            {
                "class": name,
                "n": n,
                "mean": round(mean, 3),
                "se": round(se, 3),
                "per_seat_hand": round(n * mean / (4 * hands), 4),
            }
        )
    return out


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("calls", "discards", "safe", "push"))
    ap.add_argument("--rules", default="parlor")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", default="g17")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="write the rows here (JSON lines)")
    args = ap.parse_args(argv)
    rows = list(measure(args.rules, args.hands, args.seed, args.mode, args.jobs))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} decisions over {args.hands} hands ({args.rules}, seed {args.seed})")
    for s in summarize(rows, args.hands):
        print(
            f"{s['class']:<28} n={s['n']:>6}  mean {s['mean']:+8.3f} ± {s['se']:.3f} (1 s.e.)"
            f"  per seat-hand {s['per_seat_hand']:+.4f}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
