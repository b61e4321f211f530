"""Fit the hand-reading model (bots/reading.py) on self-play: P(a discard deals in), per opponent.

    .venv/bin/python tools/fit_danger.py --hands 3000 --seed read17 --jobs 2 \
        --plot docs/img/danger_calibration.png --write

Seats are ``strong``, ``fan``, ``fan``, ``efficient`` (rotated by one seat each hand), playing
hands ``0..hands-1`` of ``--seed`` (walls as ``hkmj arena`` deals them) in the presets ``--rules``
(cycled by hand). At every discard decision, for every kind the discarding seat holds and every
opponent, one row: :func:`hkmahjong.bots.reading.tile_features` of the discarder's view (public
information only) and the label — can that opponent legally win on that tile at that moment (the
engine's own win check: complete hand, minimum fan, win bars). ``danger.py``'s estimate for the
same row (``p_ready × wait_weight``) is kept for comparison.

Hands with ``hand % 5 == 0`` are held out. The model is an L2-regularised logistic regression
fitted by Newton's method (NumPy only); ``danger.py``'s estimate is calibrated on the training
hands by a one-variable logistic fit on its logit, so the held-out log-loss comparison is fair.
``--plot`` saves a reliability diagram (matplotlib, the ``rl`` extra); ``--write`` saves the
weights to ``src/hkmahjong/bots/data/danger_model.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from itertools import pairwise
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.base import BaseBot, Situation
from hkmahjong.bots.danger import threats
from hkmahjong.bots.reading import FEATURE_NAMES, tile_features
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine import ActionKind
from hkmahjong.engine.determinize import can_win_on
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

MODEL_PATH = Path(__file__).resolve().parent.parent / "src/hkmahjong/bots/data/danger_model.json"
LINEUP = ("strong", "fan", "fan", "efficient")
HOLDOUT = 5

Arr = npt.NDArray[np.float64]
Arr32 = npt.NDArray[np.float32]


def sigmoid(z: Arr) -> Arr:
    """σ(z), with z clipped so exp cannot overflow."""
    out: Arr = 1.0 / (1.0 + np.exp(-np.clip(z, -35.0, 35.0)))
    return out


def play(args: tuple[str, str, int, int]) -> tuple[Arr32, Arr32, Arr32]:
    """One hand: rows of features, labels and danger.py's estimates, at every ``every``-th
    discard decision (float32 arrays)."""
    rules, seed, hand, every = args
    ruleset = get_preset(rules)
    bots: list[BaseBot] = [
        get_bot(LINEUP[(i + hand) % 4], seed=f"{seed}:{hand}:{i}", ruleset=ruleset)
        for i in range(4)
    ]
    state = HandState.new(ruleset, seed=hand_seed(seed, hand), hand_number=hand % 4)
    xs: list[list[float]] = []
    ys: list[float] = []
    ds: list[float] = []
    decision = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        if any(a.kind is ActionKind.DISCARD for a in legal) and decision % every == 0:
            held = sorted({int(t) for t in view.concealed})
            th = {t.seat: t for t in threats(Situation.of(view, ruleset))}
            for opp in Wind:
                if opp == seat:
                    continue
                rows = tile_features(view, opp)
                est = th[opp]
                for t in held:
                    xs.append(rows[t])
                    ys.append(1.0 if can_win_on(state, int(opp), t) else 0.0)
                    ds.append(est.p_ready * est.wait_weight[t])
        if any(a.kind is ActionKind.DISCARD for a in legal):
            decision += 1
        action = legal[0] if len(legal) == 1 else bots[seat].choose(view, legal)
        state.apply(seat, action)
    x = np.array(xs, dtype=np.float32).reshape(-1, len(FEATURE_NAMES))
    return x, np.array(ys, dtype=np.float32), np.array(ds, dtype=np.float32)


def generate(
    rules: list[str], seed: str, hands: int, jobs: int, every: int
) -> tuple[Arr, Arr, Arr, npt.NDArray[np.bool_]]:
    """Features, labels, danger.py estimates and the held-out mask for ``hands`` hands."""
    work = [(rules[h % len(rules)], seed, h, every) for h in range(hands)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(play, work, chunksize=8)
    else:
        results = [play(w) for w in work]
    x = np.concatenate([res[0] for res in results]).astype(np.float64)
    y = np.concatenate([res[1] for res in results]).astype(np.float64)
    d = np.concatenate([res[2] for res in results]).astype(np.float64)
    held = np.concatenate(
        [np.full(len(res[1]), h % HOLDOUT == 0, dtype=np.bool_) for h, res in enumerate(results)]
    )
    return x, y, d, held


def fit_logistic(x: Arr, y: Arr, l2: float = 1.0, iters: int = 60) -> Arr:
    """L2-regularised logistic regression by Newton's method (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    w[0] = math.log(max(y.mean(), 1e-6) / max(1 - y.mean(), 1e-6))
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    for _ in range(iters):
        p = sigmoid(x @ w)
        g = x.T @ (p - y) + pen * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen + 1e-9)
        step = np.linalg.solve(h, g)
        big = float(np.abs(step).max())
        if big > 4.0:  # damped while far from the optimum
            step *= 4.0 / big
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    return w


def log_loss(p: Arr, y: Arr) -> float:
    """Mean negative log-likelihood (nats)."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())


def reliability(p: Arr, y: Arr, bins: int = 12) -> list[tuple[float, float, int]]:
    """(mean predicted, observed rate, count) in log-spaced predicted-probability bins."""
    edges = np.concatenate([[0.0], np.logspace(-4, 0, bins)])
    out = []
    for lo, hi in pairwise(edges):
        m = (p >= lo) & (p < hi) if hi < 1 else (p >= lo)
        if m.sum():
            out.append((float(p[m].mean()), float(y[m].mean()), int(m.sum())))
    return out


def plot(path: Path, curves: dict[str, list[tuple[float, float, int]]], title: str) -> None:
    """Reliability diagram (log-log), one curve per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([1e-4, 1], [1e-4, 1], color="grey", lw=0.8, ls="--", label="perfect")
    for name, pts in curves.items():
        pts = [pt for pt in pts if pt[1] > 0]
        ax.plot([a for a, _, _ in pts], [b for _, b, _ in pts], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("predicted P(deal-in)")
    ax.set_ylabel("observed deal-in rate (held-out hands)")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", default="read17")
    ap.add_argument("--rules", default="parlor,qingzhang,ml")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--every", type=int, default=2, help="keep every n-th discard decision")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--plot", type=Path, default=None)
    ap.add_argument("--write", action="store_true", help="save the weights in the package")
    ap.add_argument("--out", type=Path, default=None, help="save the weights here instead")
    a = ap.parse_args(argv)
    rules = a.rules.split(",")
    t0 = time.perf_counter()
    x, y, d, held = generate(rules, a.seed, a.hands, a.jobs, a.every)
    gen_s = time.perf_counter() - t0
    tr = ~held
    w = fit_logistic(x[tr], y[tr], a.l2)
    p_model = sigmoid(x @ w)
    dl = np.log(np.clip(d, 1e-6, 1 - 1e-6) / (1 - np.clip(d, 1e-6, 1 - 1e-6)))
    dx = np.stack([np.ones_like(dl), dl], axis=1)
    wd = fit_logistic(dx[tr], y[tr], 0.0)
    p_danger = sigmoid(dx @ wd)
    base = float(y[tr].mean())
    summary: dict[str, Any] = {
        "seed": a.seed,
        "hands": a.hands,
        "every": a.every,
        "rules": rules,
        "lineup": list(LINEUP),
        "rows_train": int(tr.sum()),
        "rows_held_out": int(held.sum()),
        "positive_rate_train": round(base, 5),
        "positive_rate_held_out": round(float(y[held].mean()), 5) if held.any() else None,
        "logloss_model": round(log_loss(p_model[held], y[held]), 5),
        "logloss_danger_raw": round(log_loss(np.clip(d[held], 0, 1), y[held]), 5),
        "logloss_danger_calibrated": round(log_loss(p_danger[held], y[held]), 5),
        "logloss_base_rate": round(log_loss(np.full(int(held.sum()), base), y[held]), 5),
        "danger_calibration": [round(float(v), 4) for v in wd],
        "generate_seconds": round(gen_s, 1),
    }
    print(json.dumps(summary, indent=1))
    if a.plot is not None:
        plot(
            a.plot,
            {
                "reading.py (fitted)": reliability(p_model[held], y[held]),
                "danger.py calibrated": reliability(p_danger[held], y[held]),
                "danger.py raw": reliability(np.clip(d[held], 0, 1), y[held]),
            },
            f"held-out hands: {int(held.sum())} rows, seed {a.seed!r}, {a.hands} hands",
        )
    out = a.out if a.out is not None else (MODEL_PATH if a.write else None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        obj = {
            "features": list(FEATURE_NAMES),
            "weights": [round(float(v), 6) for v in w],
            "meta": summary,
        }
        out.write_text(json.dumps(obj, indent=1) + "\n")
    return summary


if __name__ == "__main__":
    main()
