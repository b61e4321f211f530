"""What passing a win on a discard is worth: fork the hand at every win offered, play both lines.

    python tools/fork_wins.py --rules ml --walls 20000 --seed ronfork --jobs 2

One bot (``--bot``, default ``strong``) plays against three ``fan`` bots, in a different seat
on each wall. Whenever it may win on a discard (食糊), the hand is copied twice and played to
its end: once taking the win, once passing it (no 過水 under the parlor and ml rules, so later
wins stay open) and playing on as the bot would. Printed: the mean difference pass − take in the
bot's own points and in its margin over the other three (jade, 95% CI), by the fan of the win
offered and by tiles left, with how often the passed hand was still won (and by 自摸).

Each fork is one sample of the wall's real continuation, so the mean over many offers is an
unbiased estimate of what passing is worth in that situation. It answered a question for
``strong`` (docs/bots.md): under ml a 1-fan win pays 4 jade on a discard but 24 self-drawn, yet
passing it loses on average — the hand usually ends before the 自摸 comes.
"""

from __future__ import annotations

import argparse
import copy
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from hkmahjong.bots.arena import hand_seed, mean_ci
from hkmahjong.bots.base import BaseBot
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine import ActionKind, HandOutcome, Phase
from hkmahjong.engine.state import HandState
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, get_preset


@dataclass(frozen=True, slots=True)
class Fork:
    """One win offered to the bot: its fan, the tiles left, and both lines' results."""

    fan: int
    """Fan of the win taken; -1 when a seat nearer the discarder won instead (截糊)."""
    tiles_left: int
    take: float
    """The bot's points when it takes the win."""
    passed: float
    """The bot's points when it passes and plays on."""
    take_margin: float
    pass_margin: float
    won_later: bool
    self_drawn_later: bool


def _margin(out: HandOutcome, seat: int) -> float:
    deltas = [float(d) for d in out.deltas]
    return deltas[seat] - (sum(deltas) - deltas[seat]) / 3.0


def _finish(state: HandState, bots: Sequence[BaseBot], seat: int, first: ActionKind) -> HandOutcome:
    """Play ``state`` to its end; ``seat``'s pending decision is ``first`` (WIN or PASS)."""
    legal = state.legal_actions(seat)
    state.apply(seat, next(a for a in legal if a.kind is first))
    while not state.is_over:
        _step(state, bots)
    assert state.outcome is not None
    return state.outcome


def _step(state: HandState, bots: Sequence[BaseBot]) -> None:
    """The seat to act plays its only legal action or its bot's choice."""
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    state.apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(state.view(seat), legal))


def forks_of_wall(ruleset: Ruleset, bot: str, seed: str, wall: int) -> list[Fork]:
    """Every discard win offered to ``bot`` on one wall, forked and played both ways."""
    hero = wall % 4
    bots: list[BaseBot] = [
        get_bot(bot if i == hero else "fan", seed=f"{seed}:{wall}:{i}", ruleset=ruleset)
        for i in range(4)
    ]
    state = HandState.new(ruleset, seed=hand_seed(seed, wall), hand_number=wall)
    found: list[Fork] = []
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if seat == hero and any(a.kind is ActionKind.WIN for a in legal):
            view = state.view(seat)
            if view.phase is Phase.CLAIM:
                took = _finish(copy.deepcopy(state), copy.deepcopy(bots), seat, ActionKind.WIN)
                passed = _finish(copy.deepcopy(state), copy.deepcopy(bots), seat, ActionKind.PASS)
                mine = [w for w in took.wins if w.seat == hero]
                later = [w for w in passed.wins if w.seat == hero]
                found.append(
                    Fork(
                        fan=mine[0].result.total_fan if mine else -1,
                        tiles_left=view.tiles_left,
                        take=float(took.deltas[hero]),
                        passed=float(passed.deltas[hero]),
                        take_margin=_margin(took, hero),
                        pass_margin=_margin(passed, hero),
                        won_later=bool(later),
                        self_drawn_later=any(w.discarder is None for w in later),
                    )
                )
        _step(state, bots)
    return found


def _work(args: tuple[str, str, str, int]) -> list[Fork]:
    rules, bot, seed, wall = args
    return forks_of_wall(get_preset(rules), bot, seed, wall)


def collect(rules: str, bot: str, walls: int, seed: str, jobs: int) -> list[Fork]:
    """Forks of ``walls`` walls (in parallel over ``jobs`` processes)."""
    get_preset(rules)  # fail early on an unknown preset
    tasks = [(rules, bot, seed, w) for w in range(walls)]
    if jobs <= 1:
        return [f for t in tasks for f in _work(t)]
    with Pool(jobs) as pool:
        return [f for part in pool.imap(_work, tasks, chunksize=50) for f in part]


def report(forks: Sequence[Fork]) -> list[str]:
    """Pass − take by the fan offered and by tiles left: margin and own points, with CIs."""

    def line(label: str, group: Sequence[Fork]) -> str:
        m, mci = mean_ci([f.pass_margin - f.take_margin for f in group])
        o, oci = mean_ci([f.passed - f.take for f in group])
        won = sum(f.won_later for f in group) / len(group)
        selfd = sum(f.self_drawn_later for f in group) / len(group)
        return (
            f"{label:<18} n={len(group):>5}  margin {m:+7.2f} ± {mci:5.2f}  own {o:+7.2f} ± "
            f"{oci:5.2f}  won later {won:4.0%} (自摸 {selfd:4.0%})"
        )

    if not forks:
        return ["no discard win was offered"]
    lines = [line("all", forks)]
    by_fan: dict[int, list[Fork]] = defaultdict(list)
    by_left: dict[int, list[Fork]] = defaultdict(list)
    for f in forks:
        by_fan[min(f.fan, 6)].append(f)
        by_left[f.tiles_left // 20 * 20].append(f)
    lines += [
        line("截糊 (pre-empted)" if k < 0 else f"{k}{'+' if k == 6 else ''} fan", v)
        for k, v in sorted(by_fan.items())
    ]
    lines += [line(f"{k}-{k + 19} tiles left", v) for k, v in sorted(by_left.items())]
    return lines


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="ml")
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--walls", type=int, default=2000)
    ap.add_argument("--seed", default="ronfork")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        forks = collect(args.rules, args.bot, args.walls, args.seed, args.jobs)
    except MahjongError as exc:
        ap.error(str(exc))
    print("\n".join(report(forks)))


if __name__ == "__main__":
    main()
