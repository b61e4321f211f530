"""How fast a table plays (節奏): hand length and what one distance step costs, by self-play.

    python tools/table_pace.py --rules ml --hands 1200 --seed pace --jobs 2
    python tools/table_pace.py --rules parlor --min-fan 1 --hands 1200 --jobs 2

Four ``fan`` bots play ``--hands`` hands of the ruleset (``--min-fan`` overrides its minimum).
Printed: the mean hand length in own turns (the most discards any seat made) with its 95% CI,
and, by own turn, the share of decisions after which the seat went on to win the hand, by the
distance of its best route to a hand worth the minimum; the step cost is log2 of the ratio of
neighbouring distances' win shares (how many doublings of win chance one step costs), shown next
to :func:`hkmahjong.bots.pace.step_cost`'s model of it. These runs are the measurements behind
:mod:`hkmahjong.bots.pace` (docs/bots.md, "Table pace").
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from dataclasses import dataclass, replace
from itertools import pairwise
from multiprocessing import Pool

from hkmahjong.bots.arena import hand_seed, mean_ci
from hkmahjong.bots.base import BaseBot, Situation
from hkmahjong.bots.pace import hand_turns, step_cost
from hkmahjong.bots.planner import best_route
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine import ActionKind
from hkmahjong.engine.state import HandState
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, get_preset

_TURN_BINS = (0, 3, 6, 9, 12)
_MAX_DISTANCE = 4


@dataclass(frozen=True, slots=True)
class HandPace:
    """One hand: its length in own turns and, per discard, (own turn, route distance, won)."""

    turns: int
    decisions: tuple[tuple[int, int, bool], ...]


def table(rules: str, min_fan: int | None) -> Ruleset:
    """The preset ``rules``, with its minimum fan replaced when ``min_fan`` is given."""
    r = get_preset(rules)
    return r if min_fan is None else replace(r, min_fan=min_fan)


def play(ruleset: Ruleset, seed: str, hand: int) -> HandPace:
    """One hand of four ``fan`` bots, recording every discard's route distance."""
    bots: list[BaseBot] = [
        get_bot("fan", seed=f"{seed}:{hand}:{i}", ruleset=ruleset) for i in range(4)
    ]
    state = HandState.new(ruleset, seed=hand_seed(seed, hand), hand_number=hand)
    turns = [0, 0, 0, 0]
    seen: list[tuple[int, int, int]] = []
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        action = legal[0] if len(legal) == 1 else bots[seat].choose(view, legal)
        if action.kind is ActionKind.DISCARD:
            assert action.tile is not None
            s = Situation.of(view, ruleset)
            s.counts[int(action.tile)] -= 1
            _, route = best_route(s, s.counts)
            reaches = max(route.fan_discard, route.fan_self) >= ruleset.min_fan
            seen.append((int(seat), turns[seat], route.distance if reaches else _MAX_DISTANCE + 1))
            turns[seat] += 1
        state.apply(seat, action)
    assert state.outcome is not None
    winners = {int(w.seat) for w in state.outcome.wins}
    return HandPace(max(turns), tuple((t, d, seat in winners) for seat, t, d in seen))


def _work(args: tuple[str, int | None, str, int]) -> HandPace:
    rules, min_fan, seed, hand = args
    return play(table(rules, min_fan), seed, hand)


def collect(rules: str, min_fan: int | None, hands: int, seed: str, jobs: int) -> list[HandPace]:
    """``hands`` hands of self-play (in parallel over ``jobs`` processes)."""
    table(rules, min_fan)  # fail early on an unknown preset or a bad minimum
    tasks = [(rules, min_fan, seed, h) for h in range(hands)]
    if jobs <= 1:
        return [_work(t) for t in tasks]
    with Pool(jobs) as pool:
        return list(pool.imap(_work, tasks, chunksize=20))


def report(hands: list[HandPace], ruleset: Ruleset) -> list[str]:
    """Hand length, and win share and step cost by own turn and distance, measured vs model."""
    length, ci = mean_ci([float(h.turns) for h in hands])
    lines = [
        f"{ruleset.name} (minimum {ruleset.min_fan} fan): {len(hands)} hands, "
        f"{length:.2f} ± {ci:.2f} own turns a hand (model: {hand_turns(ruleset):.2f})"
    ]
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for h in hands:
        for turn, distance, won in h.decisions:
            b = max(x for x in _TURN_BINS if x <= turn)
            cell = tally[(b, min(distance, _MAX_DISTANCE + 1))]
            cell[0] += 1
            cell[1] += won
    for b in _TURN_BINS:
        shares: list[float] = []
        cells: list[str] = []
        for d in range(_MAX_DISTANCE + 1):
            n, w = tally[(b, d)]
            enough = n >= 30
            shares.append(w / n if enough else math.nan)
            cells.append(f"d{d} {w / n:.3f} ({n})" if enough else f"d{d} - ({n})")
        steps = [math.log2(a / c) for a, c in pairwise(shares) if a > 0 and c > 0]
        cost = sum(steps) / len(steps) if steps else math.nan
        model = step_cost(b + 1, hand_turns(ruleset))
        lines.append(
            f"turn {b:>2}+: " + "  ".join(cells) + f"  step cost {cost:.2f} (model {model:.2f})"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="ml")
    ap.add_argument("--min-fan", type=int, default=None)
    ap.add_argument("--hands", type=int, default=1200)
    ap.add_argument("--seed", default="pace")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        hands = collect(args.rules, args.min_fan, args.hands, args.seed, args.jobs)
        ruleset = table(args.rules, args.min_fan)
    except MahjongError as exc:
        ap.error(str(exc))
    print("\n".join(report(hands, ruleset)))


if __name__ == "__main__":
    main()
