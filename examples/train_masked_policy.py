"""Train a small masked policy on CPU with the research env, and show it beating ``random``.

    python examples/train_masked_policy.py [--minutes 3] [--teacher fan] [--eval-hands 400]

Method (NumPy only, no deep-learning framework): behaviour cloning. The four seats of the AEC env
are played by the ``--teacher`` bot; each decision's observation planes, legal-action mask and the
teacher's action index are recorded. A masked softmax-linear policy (logits = W·planes + b, illegal
actions at −∞) is then fitted by minibatch Adam until the time budget runs out. Evaluation is
duplicate: the same walls are played with the learned policy in one seat and ``random`` in the
other three, then with ``random`` in that seat too; the difference in points per hand (with a 95%
confidence interval over walls) is the policy's edge over random.
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.bots import get_bot
from hkmahjong.env import NUM_ACTIONS, NUM_PLANES, action_index, raw_env
from hkmahjong.env.aec import pending_tile

warnings.filterwarnings("ignore")
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def collect(teacher: str, seconds: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks and teacher actions from self-play of the teacher bot."""
    e = raw_env(rules="parlor")
    xs: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    ys: list[int] = []
    bots = [get_bot(teacher, seed + i, ruleset=e.ruleset) for i in range(4)]
    t0 = time.perf_counter()
    episode = 0
    while time.perf_counter() - t0 < seconds:
        e.reset(seed=seed * 100_000 + episode)
        episode += 1
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            st = e.state_
            assert st is not None
            seat = e.seat_of(agent)
            action = bots[int(seat)].choose(st.view(seat), st.legal_actions(seat))
            idx = action_index(action, pending_tile(st))
            if obs["action_mask"].sum() > 1:  # forced moves teach nothing
                xs.append(obs["observation"].reshape(-1))
                ms.append(obs["action_mask"])
                ys.append(idx)
            e.step(idx)
    return np.array(xs, dtype=np.float32), np.array(ms, dtype=bool), np.array(ys, dtype=np.int64)


class LinearPolicy:
    """Masked softmax over ``W·x + b``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (NUM_PLANES * 34, NUM_ACTIONS)).astype(np.float32)
        self.b = np.zeros(NUM_ACTIONS, dtype=np.float32)

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        """Weights saved with ``--save``."""
        data = np.load(path)
        policy = cls(np.random.default_rng(0))
        policy.w, policy.b = data["w"], data["b"]
        return policy

    def logits(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = x @ self.w + self.b
        return np.where(mask, z, -1e9)

    def __call__(self, planes: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        z = self.logits(planes.reshape(1, -1), mask.astype(bool).reshape(1, -1))[0]
        return int(np.argmax(z))


def train(
    policy: LinearPolicy, x: np.ndarray, m: np.ndarray, y: np.ndarray, seconds: float, seed: int
) -> list[float]:
    """Minibatch Adam on the masked cross-entropy; returns the accuracy after each epoch."""
    rng = np.random.default_rng(seed)
    params = [policy.w, policy.b]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    lr, b1, b2, step = 3e-3, 0.9, 0.999, 0
    t0 = time.perf_counter()
    accs: list[float] = []
    while time.perf_counter() - t0 < seconds:
        order = rng.permutation(len(y))
        for start in range(0, len(y), 256):
            batch = order[start : start + 256]
            xb, mb, yb = x[batch], m[batch], y[batch]
            z = policy.logits(xb, mb)
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z) * mb
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1.0
            grads = [xb.T @ p / len(yb), p.mean(axis=0)]
            step += 1
            for i, (param, g) in enumerate(zip(params, grads, strict=True)):
                m1[i] = b1 * m1[i] + (1 - b1) * g
                m2[i] = b2 * m2[i] + (1 - b2) * g * g
                param -= lr * (m1[i] / (1 - b1**step)) / (np.sqrt(m2[i] / (1 - b2**step)) + 1e-8)
            if time.perf_counter() - t0 > seconds:
                break
        pred = np.argmax(policy.logits(x, m), axis=1)
        accs.append(float((pred == y).mean()))
    return accs


def random_policy(seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    return lambda planes, mask: int(rng.choice(np.flatnonzero(mask)))


def play(policy: Policy, seat_agent: str, walls: range, seed: int) -> list[float]:
    """Points per wall of ``policy`` at ``seat_agent`` against three random players."""
    e = raw_env(rules="parlor")
    others = random_policy(seed)
    points: list[float] = []
    for wall in walls:
        e.reset(seed=wall)
        total = 0.0
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            if agent == seat_agent:
                total += reward
            if term or trunc:
                e.step(None)
                continue
            chooser = policy if agent == seat_agent else others
            e.step(chooser(obs["observation"], obs["action_mask"]))
        points.append(total)
    return points


def mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=3.0, help="total training budget (default 3)")
    ap.add_argument("--teacher", default="fan", help="bot whose decisions are cloned (default fan)")
    ap.add_argument(
        "--eval-hands", type=int, default=400, help="walls per evaluation (default 400)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="write the trained weights (.npz) for evaluate_policy.py")
    args = ap.parse_args(argv)
    budget = args.minutes * 60
    t0 = time.perf_counter()
    x, m, y = collect(args.teacher, budget * 0.5, args.seed)
    print(
        f"collected {len(y)} decisions from {args.teacher} self-play in {time.perf_counter() - t0:.0f}s"
    )
    policy = LinearPolicy(np.random.default_rng(args.seed))
    accs = train(policy, x, m, y, budget * 0.5, args.seed)
    print(f"trained {len(accs)} epochs; agreement with the teacher {accs[-1]:.1%}")
    if args.save:
        np.savez(args.save, w=policy.w, b=policy.b)
        print(f"saved the weights to {args.save}")
    walls = range(10_000_000, 10_000_000 + args.eval_hands)
    learned = play(policy, "player_1", walls, args.seed)
    baseline = play(random_policy(args.seed + 7), "player_1", walls, args.seed)
    diff = [a - b for a, b in zip(learned, baseline, strict=True)]
    (lm, lc), (bm, bc), (dm, dc) = mean_ci(learned), mean_ci(baseline), mean_ci(diff)
    print(f"learned policy vs 3 random: {lm:+.2f} ± {lc:.2f} points/hand")
    print(f"random policy  vs 3 random: {bm:+.2f} ± {bc:.2f} points/hand")
    print(f"edge over random (duplicate walls): {dm:+.2f} ± {dc:.2f} points/hand")
    return {"accuracy": accs[-1], "learned": lm, "random": bm, "edge": dm, "edge_ci": dc}


if __name__ == "__main__":
    main()
