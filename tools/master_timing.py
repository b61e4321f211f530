"""How long ``master`` takes a decision and how many samples fit in its budget.

    python tools/master_timing.py --rules parlor --hands 3 --seed mt17 --budget 0.2

``master`` sits in one seat (a different one each hand) against three ``strong`` bots on the
arena's walls; every decision it makes with more than one legal action is timed (wall clock).
Printed: decisions, how many searched, median / p99 / max decision time (wall clock, and the
CPU time of the process: on a loaded machine the difference is time spent waiting for a core),
the samples
(determinizations; each plays every searched candidate) per searched decision, and how often
``master`` left ``strong``'s choice.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.master import MasterBot, Search
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset


def measure(
    rules: str,
    hands: int,
    seed: str,
    budget: float,
    rollouts: int | None = None,
    scope: str = Search().scope,
) -> dict[str, float]:
    """Time ``master``'s decisions over ``hands`` hands; the summary figures."""
    rs = get_preset(rules)
    times: list[float] = []
    cpu: list[float] = []
    samples: list[int] = []
    playouts = 0
    left = 0
    cpu0 = time.process_time()
    for h in range(hands):
        hero = h % 4
        master = MasterBot(
            f"{seed}:{h}",
            ruleset=rs,
            time_budget=3600.0 if rollouts else 0.5,
            search=Search(budget=3600.0 if rollouts else budget, rollouts=rollouts, scope=scope),
        )
        bots = [get_bot("strong", seed=f"{seed}:{h}:{i}", ruleset=rs) for i in range(4)]
        state = HandState.new(rs, seed=hand_seed(seed, h), hand_number=0)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if seat == hero and len(legal) > 1:
                t0, c0 = time.perf_counter(), time.process_time()
                d = master.decide(view, legal, explain=True)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                action = d.action
                if master.last_rollouts:
                    samples.append(master.last_rollouts)
                    assert d.explanation is not None
                    searched = sum("samples" in c.note for c in d.explanation.candidates)
                    playouts += searched * master.last_rollouts
                    if action != master._ranked(view, legal, explain=False)[2]:
                        left += 1
            else:
                action = legal[0] if len(legal) == 1 else bots[seat].choose(view, legal)
            state.apply(seat, action)
    times.sort()
    cpu.sort()
    return {
        "decisions": len(times),
        "searched": len(samples),
        "median_ms": 1e3 * statistics.median(times),
        "p99_ms": 1e3 * times[min(len(times) - 1, int(0.99 * len(times)))],
        "max_ms": 1e3 * times[-1],
        "cpu_median_ms": 1e3 * statistics.median(cpu),
        "cpu_p99_ms": 1e3 * cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))],
        "samples_median": statistics.median(samples) if samples else 0,
        "samples_min": min(samples, default=0),
        "samples_max": max(samples, default=0),
        "playouts_per_searched": playouts / len(samples) if samples else 0.0,
        "left_strong": left,
        "cpu_s": time.process_time() - cpu0,
    }


def main(argv: list[str] | None = None) -> None:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="parlor")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--seed", default="mt17")
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--rollouts", type=int, default=None, help="fixed samples (no time budget)")
    ap.add_argument(
        "--scope", choices=("all", "calls"), default=Search().scope, help="decisions searched"
    )
    args = ap.parse_args(argv)
    found = measure(args.rules, args.hands, args.seed, args.budget, args.rollouts, args.scope)
    for k, v in found.items():
        print(f"{k:<22} {v:.1f}" if isinstance(v, float) else f"{k:<22} {v}")


if __name__ == "__main__":
    main()
