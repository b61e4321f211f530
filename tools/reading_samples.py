"""How ready ``master``'s samples deal the opponents: the real hands, uniform and reading deals.

    python tools/reading_samples.py --rules parlor --hands 20 --seed rs17 --samples 4

Four ``strong`` bots play hands ``0..hands-1`` of ``--seed`` (arena walls, hand number 0) under
each preset of ``--rules``. At every discard decision from the deciding seat's sixth discard on,
for each of its three opponents:

* in the real state: its 向聽 (``shanten_counts`` of its concealed tiles) and the kinds it could
  legally win on now (the engine's check, ``engine.determinize.can_win_on``: complete hand, the
  table's minimum fan);
* r_o as ``master.reading_deal`` draws it (``ready_chances`` of ``deal_in_probabilities(view)``),
  for its calibration against the real opponents with at least one winnable kind;
* with ``--samples n``: the same figures in ``n`` uniform (``random_deal``) and ``n`` reading
  (``reading_deal``) samples of the deciding seat's view, rebuilt; for reading, how many of the
  opponents it dealt a ready hand may legally win on their wait; the time per call.

Printed as JSON: K (the mean number of winnable kinds over the real opponents with at least
one), the calibration table of r_o (``--scale``: K) against the real opponents' winnable rate and
the scale that would make its mean right, ready (向聽 0) and winnable rates and mean 向聽 for real
/ uniform / reading, reading's legal-wait rate and deals drawn (``--attempts``), milliseconds per
sample (the model once per decision; ``random_deal`` alone and with ``rebuild``; ``reading_deal``
with its rebuild, which ``master`` plays on).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from itertools import pairwise
from typing import Any

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.master import READY_KINDS, reading_sample
from hkmahjong.bots.reading import deal_in_probabilities
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine import ActionKind
from hkmahjong.engine.determinize import Deal, can_win_on, random_deal, rebuild
from hkmahjong.engine.state import HandState
from hkmahjong.hand import shanten_counts
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

BINS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.96)


def _opponent(state: HandState, opp: int) -> tuple[int, int]:
    """(向聽, kinds it can legally win on) of ``opp`` in ``state``."""
    shanten = max(0, shanten_counts(state.hands[opp], len(state.melds[opp])))
    return shanten, sum(1 for t in range(34) if can_win_on(state, opp, t))


def _rates(rows: list[tuple[int, int]]) -> dict[str, float]:
    n = len(rows)
    return {
        "n": n,
        "ready": round(sum(1 for s, _ in rows if s == 0) / n, 4) if n else 0.0,
        "winnable": round(sum(1 for _, k in rows if k) / n, 4) if n else 0.0,
        "mean_shanten": round(sum(s for s, _ in rows) / n, 3) if n else 0.0,
    }


def _calibrated(summed: list[tuple[float, bool]], observed: float) -> float | None:
    """The scale K' with mean r_o = min(0.95, Σ/K') equal to the observed winnable rate."""
    if not summed or observed <= 0.0:
        return None
    lo, hi = 1e-3, 1e3
    for _ in range(60):
        mid = (lo * hi) ** 0.5
        if statistics.fmean(min(0.95, x / mid) for x, _ in summed) > observed:
            lo = mid
        else:
            hi = mid
    return round(lo, 3)


def measure(
    rules: str, hands: int, seed: str, samples: int, scale: float, attempts: int = 4
) -> dict[str, Any]:
    """Play ``hands`` hands of four ``strong`` under ``rules``; the figures above."""
    rs = get_preset(rules)
    real: list[tuple[int, int]] = []
    summed: list[tuple[float, bool]] = []  # Σ_t P(t deals in to o), o winnable
    uniform: list[tuple[int, int]] = []
    reading: list[tuple[int, int]] = []
    intended = legal = 0
    tries: list[int] = []
    t_model: list[float] = []
    t_random: list[float] = []
    t_rebuild: list[float] = []
    t_reading: list[float] = []
    for h in range(hands):
        bots = [get_bot("strong", seed=f"{seed}:{h}:{i}", ruleset=rs) for i in range(4)]
        state = HandState.new(rs, seed=hand_seed(seed, h), hand_number=0)
        while not state.is_over:
            seat = state.to_act[0]
            legal_actions = state.legal_actions(seat)
            view = state.view(seat)
            if (
                any(a.kind is ActionKind.DISCARD for a in legal_actions)
                and len(view.discards[seat]) >= 5
            ):
                t0 = time.perf_counter()
                probs = deal_in_probabilities(view)
                t_model.append(time.perf_counter() - t0)
                opps = [o for o in range(4) if o != seat]
                for o in opps:
                    got = _opponent(state, o)
                    real.append(got)
                    summed.append((sum(probs[Wind(o)]), got[1] > 0))
                rng = random.Random(f"{seed}:{h}:{len(real)}")
                for _ in range(samples):
                    t0 = time.perf_counter()
                    deal: Deal = random_deal(view, rs, rng)
                    t1 = time.perf_counter()
                    sampled = rebuild(view, rs, deal)
                    t2 = time.perf_counter()
                    t_random.append(t1 - t0)
                    t_rebuild.append(t2 - t0)
                    uniform.extend(_opponent(sampled, o) for o in opps)
                    t0 = time.perf_counter()
                    smp = reading_sample(view, rs, rng, probs, scale=scale, attempts=attempts)
                    st = smp.state if smp.state is not None else rebuild(view, rs, smp.deal)
                    t_reading.append(time.perf_counter() - t0)
                    reading.extend(_opponent(st, o) for o in opps)
                    intended += len(smp.waits)
                    legal += len(smp.legal)
                    if smp.attempts:
                        tries.append(smp.attempts)
            action = (
                legal_actions[0]
                if len(legal_actions) == 1
                else bots[seat].choose(view, legal_actions)
            )
            state.apply(seat, action)
    kinds = [k for _, k in real if k]
    chance = [(min(0.95, x / scale), y) for x, y in summed]
    observed = sum(1 for _, y in summed if y) / len(summed) if summed else 0.0
    table = []
    for lo, hi in pairwise(BINS):
        cell = [(p, y) for p, y in chance if lo <= p < hi]
        if cell:
            table.append(
                {
                    "bin": f"[{lo:.2f}, {hi:.2f})",
                    "n": len(cell),
                    "mean_r": round(statistics.fmean(p for p, _ in cell), 4),
                    "observed": round(sum(1 for _, y in cell if y) / len(cell), 4),
                }
            )

    def ms(xs: list[float]) -> float:
        return round(1000 * statistics.fmean(xs), 3) if xs else 0.0

    return {
        "rules": rules,
        "hands": hands,
        "opponent_positions": len(real),
        "K": round(statistics.fmean(kinds), 3) if kinds else None,
        "winnable_kinds_total": sum(kinds),
        "opponents_winnable": len(kinds),
        "mean_r": round(statistics.fmean(p for p, _ in chance), 4) if chance else None,
        "observed_winnable": round(observed, 4),
        "calibrated_scale": _calibrated(summed, observed),
        "calibration": table,
        "real": _rates(real),
        "uniform": _rates(uniform),
        "reading": _rates(reading),
        "reading_ready_dealt": intended,
        "reading_ready_legal": legal,
        "reading_mean_attempts": round(statistics.fmean(tries), 3) if tries else None,
        "ms_model": ms(t_model),
        "ms_random_deal": ms(t_random),
        "ms_random_deal_and_rebuild": ms(t_rebuild),
        "ms_reading_deal_rebuilt": ms(t_reading),
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlor")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", default="rs17")
    ap.add_argument("--samples", type=int, default=4, help="uniform and reading samples each")
    ap.add_argument("--scale", type=float, default=READY_KINDS, help="K for r_o")
    ap.add_argument("--attempts", type=int, default=4, help="reading_deal's attempts")
    a = ap.parse_args(argv)
    out = [measure(r, a.hands, a.seed, a.samples, a.scale, a.attempts) for r in a.rules.split(",")]
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return out


if __name__ == "__main__":
    main()
