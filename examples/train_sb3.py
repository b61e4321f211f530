"""Train a MaskablePPO policy (sb3-contrib, torch on CPU) that beats the ``efficient`` bot.

    pip install -e '.[env,rl]'          # torch: `pip install torch==2.13.0` first (CPU wheel on disk)
    python examples/train_sb3.py [--minutes 30] [--workers 2] [--eval-sets 400] [--seed 0]
    python examples/train_sb3.py --speed-test 60     # PPO steps/s with 1 and 2 SubprocVecEnv workers

The env is used as shipped: ``SingleSeatEnv(observation="flat", hints=True)`` (the planes and the
hint planes of ``hkmahjong.env.hints`` — shanten, useful tiles and fan route after each discard,
kong and claim, read from the learner's own view — as one ``Box``, the legal-action mask through
``action_masks()``), three ``efficient`` bots at the table, the hand's jade as reward
(× ``--reward-scale``). Three phases share the ``--minutes`` budget:

1. **Behaviour cloning data** (``--collect`` of the budget): ``--workers`` processes deal hands in
   the AEC env; at each seat, in each hand, either the ``--teacher`` bot (default ``fan``) or
   ``efficient`` plays, and every decision with more than one legal action is labelled with what
   the teacher would do there.
2. **Cloning** (``--clone``): the actor of the MaskablePPO ``MlpPolicy`` (2 × 256 ReLU) is fitted
   by masked cross-entropy to the labels, with a held-out split for the agreement curve. Then one
   DAgger round (``--dagger``): the cloned policy plays its own hands, the teacher labels the states
   it reaches, and the actor is fitted again on all the data.
3. **PPO fine-tune** (the rest): MaskablePPO on ``SubprocVecEnv`` workers, first with the actor
   frozen so the value head learns the cloned policy's returns (``--value-warmup``), then both with a
   low learning rate and a small clip range so the policy does not forget what it cloned.

Evaluation is the arena's duplicate machinery (``hkmahjong.bots.arena``): the greedy policy in one
seat and ``efficient`` in three, the line-up rotated through all four seats on the same wall; the
margin is the policy's points per hand minus ``efficient``'s, with its 95% confidence interval over
hand-sets. It is run for the cloned policy and for the final one, and the learning curve (clone
agreement, PPO points per hand) is written as a PNG. Every figure is printed with its conditions.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
import warnings
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.bots import get_bot
from hkmahjong.bots.arena import ArenaConfig, run_arena
from hkmahjong.bots.registry import register_bot
from hkmahjong.engine.state import HandState
from hkmahjong.env import AGENTS, NUM_ACTIONS, NUM_PLANES, SingleSeatEnv, action_index, raw_env
from hkmahjong.env.aec import pending_tile
from hkmahjong.env.hints import HINT_PLANES, NUM_HINT_PLANES, hint_planes
from hkmahjong.env.policy import PolicyBot

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.utils import get_schedule_fn
    from stable_baselines3.common.vec_env import SubprocVecEnv
    from threadpoolctl import threadpool_limits
except ImportError as exc:  # pragma: no cover - depends on the install
    raise SystemExit(
        f"train_sb3.py needs the rl extra ({exc.name} is missing): "
        "pip install torch==2.13.0 && pip install -e '.[env,rl]'"
    ) from exc

warnings.filterwarnings("ignore")
IN_PLANES = NUM_PLANES + NUM_HINT_PLANES
"""The policy sees ``SingleSeatEnv(hints=True)``: the 86 planes and the hint planes."""
OBS_SIZE = IN_PLANES * 34
HIDDEN = (256, 256)
Weights = dict[str, npt.NDArray[np.float32]]


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages, as ``uptime`` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# --- the policy as plain NumPy (for the arena and the collection workers) ---------------------------
class NumpyPolicy:
    """The MaskablePPO actor (``Linear-ReLU-Linear-ReLU-Linear``) in NumPy: greedy over the mask.

    Used by the arena and by the collection processes, so they never run torch."""

    def __init__(self, weights: Weights) -> None:
        self.layers = [(weights[f"w{i}"], weights[f"b{i}"]) for i in range(len(weights) // 2)]

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        h = x
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    def __call__(self, planes: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        z = self.logits(planes.reshape(1, -1).astype(np.float32))[0]
        return int(np.argmax(np.where(mask.astype(bool), z, -np.inf)))

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """Weights written by :func:`save_weights` (``policy.npz`` of a training run)."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})


def actor_modules(model: MaskablePPO) -> list[torch.nn.Module]:
    """What the actor's choice depends on: the features extractor (SB3's flatten: no weights),
    the policy MLP and the action head."""
    return [
        model.policy.features_extractor,
        model.policy.mlp_extractor.policy_net,
        model.policy.action_net,
    ]


def actor_weights(model: MaskablePPO) -> Weights:
    """The actor's layers of ``model`` as NumPy arrays (``w0, b0, …`` with ``x @ w + b``)."""
    out: Weights = {}
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    for i, layer in enumerate(linears):
        out[f"w{i}"] = layer.weight.detach().cpu().numpy().T.copy()
        out[f"b{i}"] = layer.bias.detach().cpu().numpy().copy()
    return out


def save_weights(weights: Weights, path: Path) -> None:
    np.savez(path, **weights)  # type: ignore[arg-type]


def policy_factory(path: str = "runs/train_sb3/policy.npz") -> NumpyPolicy:
    """For ``evaluate_policy.py --policy train_sb3:policy_factory`` (with examples/ on the path;
    ``HKMJ_POLICY`` names the weights). Limits BLAS to one thread (see :func:`main`)."""
    threadpool_limits(1)
    return NumpyPolicy.load(os.environ.get("HKMJ_POLICY", path))


# --- phase 1: labelled decisions --------------------------------------------------------------------
def collect(
    job: tuple[int, float, str, Weights | None, int],
) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], npt.NDArray[np.int16], int]:
    """One worker: planes, masks and teacher labels of every real decision for ``seconds``.

    Without ``weights`` each seat of a hand is played by the teacher or by ``efficient`` (even
    odds) and every seat's decisions are labelled. With ``weights`` (a DAgger round) one seat is
    played by that policy and three by ``efficient``, the evaluation's table, and only the policy's
    decisions are labelled. Returns the arrays and the number of hands."""
    seed, seconds, teacher, weights, max_samples = job
    threadpool_limits(1)
    rng = np.random.default_rng(seed)
    policy = NumpyPolicy(weights) if weights is not None else None
    e = raw_env(rules="parlor")
    xs: list[npt.NDArray[np.float16]] = []
    ms: list[npt.NDArray[np.bool_]] = []
    ys: list[int] = []
    hands = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds and len(ys) < max_samples:
        hand = int(rng.integers(0, 2**62))
        e.reset(seed=hand)
        hands += 1
        teachers = {a: get_bot(teacher, hand + i, ruleset=e.ruleset) for i, a in enumerate(AGENTS)}
        others = {
            a: get_bot("efficient", hand + 4 + i, ruleset=e.ruleset) for i, a in enumerate(AGENTS)
        }
        learner = AGENTS[int(rng.integers(0, 4))] if policy is not None else None
        teacher_plays = {a: learner is None and rng.random() < 0.5 for a in AGENTS}
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal_idx = np.flatnonzero(mask)
            if len(legal_idx) == 1:  # a forced move teaches nothing
                e.step(int(legal_idx[0]))
                continue
            st = e.state_
            assert st is not None
            seat = e.seat_of(agent)
            view, legal = st.view(seat), st.legal_actions(seat)
            label = None
            planes = np.concatenate([obs["observation"], hint_planes(view, e.ruleset, legal)])
            if learner is None or agent == learner:
                label = action_index(teachers[agent].choose(view, legal), pending_tile(st))
                xs.append(planes.reshape(-1).astype(np.float16))
                ms.append(mask.astype(bool))
                ys.append(label)
            if agent == learner:
                assert policy is not None
                e.step(policy(planes, mask))
            elif teacher_plays[agent]:
                e.step(label)
            else:
                e.step(action_index(others[agent].choose(view, legal), pending_tile(st)))
    if not ys:
        empty = np.zeros((0, OBS_SIZE), np.float16)
        return empty, np.zeros((0, NUM_ACTIONS), bool), np.zeros(0, np.int16), hands
    return np.stack(xs), np.stack(ms), np.array(ys, dtype=np.int16), hands


def collect_parallel(
    workers: int,
    seconds: float,
    teacher: str,
    seed: int,
    weights: Weights | None,
    max_samples: int,
) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], npt.NDArray[np.int16], int]:
    jobs = [
        (seed * 1000 + k, seconds, teacher, weights, max_samples // workers) for k in range(workers)
    ]
    if workers == 1:
        parts = [collect(jobs[0])]
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) as pool:
            parts = pool.map(collect, jobs)
    x = np.concatenate([p[0] for p in parts])
    m = np.concatenate([p[1] for p in parts])
    y = np.concatenate([p[2] for p in parts])
    return x, m, y, sum(p[3] for p in parts)


# --- phase 2: cloning -------------------------------------------------------------------------------


def symmetries() -> list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """The 72 relabellings of tiles that leave Hong Kong scoring unchanged: the three suits in any
    order (6), every suit's ranks reversed or not (2: 1↔9, 2↔8, …) and the three dragons in any
    order (6); winds stay (seat and prevailing winds). Each is (column gather index for the 34
    tile columns, gather index for the 110 actions, gather index for the planes): the planes, the
    mask and the label move together. A reversal turns a chow on its lowest tile into one on its
    highest (action 102 <-> 104, and the hint planes of those two claims swap)."""
    from itertools import permutations

    out = []
    for suits in permutations(range(3)):
        for reverse in (False, True):
            for dragons in permutations(range(3)):
                f = np.arange(34)
                for t in range(27):
                    suit, rank = divmod(t, 9)
                    f[t] = suits[suit] * 9 + (8 - rank if reverse else rank)
                for k in range(3):
                    f[31 + k] = 31 + dragons[k]
                g = np.arange(NUM_ACTIONS)
                for base in (0, 34, 68):
                    g[base : base + 34] = base + f
                rows = np.arange(IN_PLANES)
                if reverse:
                    g[102], g[104] = 104, 102
                    for i, name in enumerate(HINT_PLANES):
                        if name.startswith("chow_low"):
                            j = HINT_PLANES.index(name.replace("chow_low", "chow_high"))
                            rows[NUM_PLANES + i], rows[NUM_PLANES + j] = (
                                NUM_PLANES + j,
                                NUM_PLANES + i,
                            )
                # new column f[t] holds old column t
                out.append((np.argsort(f), np.argsort(g), rows))
    return out


SYMMETRIES = symmetries()


def augment(
    x: npt.NDArray[np.float32], m: npt.NDArray[np.bool_], y: npt.NDArray[np.int64], k: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """``x, m, y`` under symmetry ``k`` of :data:`SYMMETRIES`."""
    cols, acts, rows = SYMMETRIES[k]
    new_label = np.argsort(acts)  # old action index -> new
    xs = x.reshape(len(x), IN_PLANES, 34)[:, rows][:, :, cols].reshape(len(x), OBS_SIZE)
    return xs, m[:, acts], new_label[y]


def masked_logits(model: MaskablePPO, x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    latent = model.policy.mlp_extractor.forward_actor(model.policy.extract_features(x))
    z = model.policy.action_net(latent)
    return z.masked_fill(~m, -1e9)


def clone(
    model: MaskablePPO,
    data: tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], npt.NDArray[np.int16]],
    seconds: float,
    seed: int,
    curve: list[dict[str, float]],
    lr: float = 1e-3,
) -> float:
    """Fit the actor to the labels by masked cross-entropy for ``seconds``; returns the held-out
    agreement with the teacher. Each epoch appends its (time, train loss, agreement) to ``curve``."""
    x, m, y = data
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    n_val = max(1, len(y) // 20)
    val, train = order[:n_val], order[n_val:]
    params = [p for module in actor_modules(model) for p in module.parameters()]
    opt = torch.optim.Adam(params, lr=lr)
    xv = torch.as_tensor(x[val].astype(np.float32))
    mv, yv = torch.as_tensor(m[val]), torch.as_tensor(y[val].astype(np.int64))
    t0 = time.perf_counter()
    acc = 0.0
    epoch = 0
    while time.perf_counter() - t0 < seconds or epoch == 0:
        epoch += 1
        rng.shuffle(train)
        losses = []
        for start in range(0, len(train), 512):
            b = train[start : start + 512]
            parts = [  # four symmetries per batch: each epoch sees other relabellings
                augment(x[c].astype(np.float32), m[c], y[c].astype(np.int64), int(k))
                for c, k in zip(
                    np.array_split(b, 4), rng.integers(0, len(SYMMETRIES), 4), strict=True
                )
            ]
            logits = masked_logits(
                model,
                torch.as_tensor(np.concatenate([p[0] for p in parts])),
                torch.as_tensor(np.concatenate([p[1] for p in parts])),
            )
            loss = torch.nn.functional.cross_entropy(
                logits, torch.as_tensor(np.concatenate([p[2] for p in parts]))
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss))
            if time.perf_counter() - t0 > seconds and epoch > 1:
                break
        with torch.no_grad():
            acc = float((masked_logits(model, xv, mv).argmax(1) == yv).float().mean())
        curve.append(
            {"seconds": time.perf_counter() - t0, "loss": float(np.mean(losses)), "agreement": acc}
        )
        print(
            f"  clone epoch {epoch}: loss {np.mean(losses):.3f}, held-out agreement {acc:.1%} "
            f"({len(train)} train / {n_val} held out)",
            flush=True,
        )
    return acc


# --- phase 3: PPO -----------------------------------------------------------------------------------
def make_vec_env(workers: int, seed: int, reward_scale: float) -> SubprocVecEnv:
    fn = partial(
        SingleSeatEnv,
        "parlor",
        opponents=("efficient",) * 3,
        observation="flat",
        hints=True,
        reward_scale=reward_scale,
    )
    venv = SubprocVecEnv([fn] * workers, start_method="fork")
    venv.seed(seed)
    return venv


class Curve(BaseCallback):  # type: ignore[misc]
    """Records every finished hand's jade for the learner; stops at the deadline."""

    def __init__(self, deadline: float, rows: list[dict[str, float]], phase: str) -> None:
        super().__init__()
        self.deadline = deadline
        self.rows = rows
        self.phase = phase

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "match_scores" in info:
                points = info["match_scores"][AGENTS.index(info["agent"])]
                self.rows.append(
                    {
                        "steps": float(self.model.num_timesteps),
                        "points": float(points),
                        "phase": self.phase,
                    }
                )
        return time.monotonic() < self.deadline


def set_actor_trainable(model: MaskablePPO, trainable: bool) -> None:
    for module in actor_modules(model):
        for p in module.parameters():
            p.requires_grad_(trainable)


def new_model(venv: SubprocVecEnv, args: argparse.Namespace) -> MaskablePPO:
    return MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=args.lr,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=4,
        gamma=0.999,
        gae_lambda=0.95,
        clip_range=args.clip,
        ent_coef=0.0,
        target_kl=0.02,
        policy_kwargs={
            "net_arch": {"pi": list(HIDDEN), "vf": list(HIDDEN)},
            "activation_fn": torch.nn.ReLU,
        },
        seed=args.seed,
        device="cpu",
    )


def ppo(
    model: MaskablePPO, seconds: float, warmup: float, lr: float, rows: list[dict[str, float]]
) -> int:
    """Value warm-up with the actor frozen (learning rate 3e-4), then PPO on both (``lr``), for
    ``seconds`` in all."""
    start = time.monotonic()
    steps0 = model.num_timesteps
    if warmup > 0:
        set_actor_trainable(model, False)
        model.lr_schedule = get_schedule_fn(3e-4)
        model.learn(
            10**9,
            callback=Curve(start + seconds * warmup, rows, "value warm-up"),
            reset_num_timesteps=False,
        )
        set_actor_trainable(model, True)
    model.lr_schedule = get_schedule_fn(lr)
    model.learn(10**9, callback=Curve(start + seconds, rows, "ppo"), reset_num_timesteps=False)
    return model.num_timesteps - steps0


def speed_test(args: argparse.Namespace) -> dict[str, float]:
    """PPO training steps/s (rollouts and updates) with 1 and 2 SubprocVecEnv workers."""
    out: dict[str, float] = {}
    for workers in (1, 2):
        venv = make_vec_env(workers, args.seed, args.reward_scale)
        model = new_model(venv, args)
        model.learn(args.n_steps * workers)  # warm: processes started, first update done
        t0, s0 = time.perf_counter(), model.num_timesteps
        model.learn(
            10**9,
            callback=Curve(time.monotonic() + args.speed_test, [], "speed"),
            reset_num_timesteps=False,
        )
        rate = (model.num_timesteps - s0) / (time.perf_counter() - t0)
        venv.close()
        out[f"workers_{workers}"] = rate
        print(
            f"MaskablePPO training, {workers} SubprocVecEnv worker(s): {rate:.0f} env steps/s "
            f"(n_steps {args.n_steps}/worker, batch {args.batch_size}, 4 epochs, MLP 2x256, "
            f"opponents 3 efficient; {args.speed_test:.0f} s; load average {load_average()})",
            flush=True,
        )
    return out


# --- evaluation -------------------------------------------------------------------------------------
def evaluate(weights: Weights, sets: int, jobs: int, seed: str, name: str) -> dict[str, Any]:
    """Duplicate arena: the greedy policy and three ``efficient``; returns the arena summary."""
    policy = NumpyPolicy(weights)
    register_bot(
        name, lambda s, r, b: PolicyBot(policy, name=name, ruleset=r, hints=True), replace=True
    )
    cfg = ArenaConfig(
        bots=(name, "efficient", "efficient", "efficient"),
        hands=sets,
        ruleset="parlor",
        seed=seed,
        duplicate=True,
        jobs=jobs,
    )
    result = run_arena(cfg, HandState.new)
    print(result.text(), flush=True)
    return result.summary()


def plot(
    path: Path, clone_curve: list[dict[str, float]], rows: list[dict[str, float]], title: str
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
    if clone_curve:
        a1.plot(
            [c["seconds"] / 60 for c in clone_curve],
            [100 * c["agreement"] for c in clone_curve],
            "o-",
        )
        before = [c["seconds"] / 60 for c in clone_curve if not c.get("dagger")]
        if len(before) < len(clone_curve):
            a1.axvline(max(before), color="grey", ls="--", label="+ DAgger data")
            a1.legend(loc="lower right")
    a1.set_xlabel("cloning time (min, both rounds)")
    a1.set_ylabel("held-out agreement with the teacher (%)")
    a1.set_title("behaviour cloning")
    a1.grid(alpha=0.3)
    if rows:
        pts = np.array([r["points"] for r in rows])
        steps = np.array([r["steps"] for r in rows])
        window = max(1, min(1000, len(pts) // 8))
        kernel = np.ones(window) / window
        mean = np.convolve(pts, kernel, mode="valid")
        sq = np.convolve(pts**2, kernel, mode="valid")
        half = 1.96 * np.sqrt(np.maximum(sq - mean**2, 0) / window)
        x = steps[window - 1 :] / 1000
        a2.plot(x, mean, label=f"mean of the last {window} hands")
        a2.fill_between(x, mean - half, mean + half, alpha=0.25, label="95% CI")
        warm = [r["steps"] for r in rows if r["phase"] == "value warm-up"]
        if warm:
            a2.axvline(max(warm) / 1000, color="grey", ls="--", label="actor unfrozen")
        a2.axhline(0, color="black", lw=0.8)
        a2.legend(loc="lower right")
    a2.set_xlabel("PPO env steps (thousands)")
    a2.set_ylabel("learner's jade per hand vs 3 efficient")
    a2.set_title("PPO fine-tune (sampled actions)")
    a2.grid(alpha=0.3)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- main -------------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=30.0, help="training budget (default 30)")
    ap.add_argument("--collect", type=float, default=0.40, help="share for BC data (default 0.40)")
    ap.add_argument("--clone", type=float, default=0.20, help="share for cloning (default 0.20)")
    ap.add_argument("--dagger", type=float, default=0.10, help="share for the DAgger round (0.10)")
    ap.add_argument("--value-warmup", type=float, default=0.25, help="share of PPO (default 0.25)")
    ap.add_argument("--teacher", default="fan", help="bot whose decisions are cloned (default fan)")
    ap.add_argument("--workers", type=int, default=2, help="processes / SubprocVecEnv workers")
    ap.add_argument("--max-samples", type=int, default=400_000, help="cap on cloning decisions")
    ap.add_argument("--lr", type=float, default=2e-5, help="PPO learning rate (default 2e-5)")
    ap.add_argument("--clip", type=float, default=0.1, help="PPO clip range (default 0.1)")
    ap.add_argument("--n-steps", type=int, default=1024, help="PPO rollout per worker")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--reward-scale", type=float, default=1 / 16, help="jade × this (1/16)")
    ap.add_argument("--eval-sets", type=int, default=400, help="duplicate hand-sets (default 400)")
    ap.add_argument("--eval-seed", default="train-sb3-eval", help="arena seed of the evaluation")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--out", default="runs/train_sb3", help="folder for the model, PNG and JSON")
    ap.add_argument(
        "--speed-test",
        type=float,
        default=0,
        metavar="SECONDS",
        help="only measure PPO steps/s with 1 and 2 workers for SECONDS each",
    )
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    # One BLAS thread: a 1 x 2924 by 2924 x 256 product takes ~0.1 ms on one thread and 1-5 ms on
    # two when the other core is busy (OpenBLAS threads wait for each other). Forked workers inherit it.
    threadpool_limits(1)
    torch.manual_seed(args.seed)
    print(
        f"conditions: parlor rules, opponents 3 efficient, teacher {args.teacher}, seed {args.seed}, "
        f"{args.workers} worker(s), torch {torch.__version__} on CPU with {args.threads} thread(s), "
        f"{os.cpu_count()} cores, load average {load_average()}",
        flush=True,
    )
    if args.speed_test:
        return speed_test(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    budget = args.minutes * 60
    t_start = time.perf_counter()
    loads: list[str] = []

    # 1. data from the teacher
    t0 = time.perf_counter()
    x, m, y, hands = collect_parallel(
        args.workers, budget * args.collect, args.teacher, args.seed, None, args.max_samples
    )
    loads.append(load_average())
    print(
        f"[1] {len(y)} labelled decisions from {hands} hands in {time.perf_counter() - t0:.0f} s "
        f"(load average {loads[-1]})",
        flush=True,
    )

    # 2. cloning, one DAgger round, cloning again
    venv = make_vec_env(args.workers, args.seed, args.reward_scale)
    model = new_model(venv, args)
    clone_curve: list[dict[str, float]] = []
    acc = clone(model, (x, m, y), budget * args.clone / 2, args.seed, clone_curve)
    if args.dagger > 0:
        t0 = time.perf_counter()
        dx, dm, dy, dh = collect_parallel(
            args.workers,
            budget * args.dagger,
            args.teacher,
            args.seed + 1,
            actor_weights(model),
            args.max_samples // 2,
        )
        print(
            f"[2] DAgger: {len(dy)} decisions of the cloned policy labelled in {dh} hands "
            f"({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        x, m, y = np.concatenate([x, dx]), np.concatenate([m, dm]), np.concatenate([y, dy])
        del dx, dm, dy
        offset = clone_curve[-1]["seconds"] if clone_curve else 0.0
        second: list[dict[str, float]] = []
        acc = clone(model, (x, m, y), budget * args.clone / 2, args.seed + 1, second, lr=3e-4)
        clone_curve += [{**c, "seconds": c["seconds"] + offset, "dagger": 1.0} for c in second]
    del x, m, y
    loads.append(load_average())
    bc_weights = actor_weights(model)
    save_weights(bc_weights, out / "policy_bc.npz")
    bc_minutes = (time.perf_counter() - t_start) / 60
    print(
        f"[2] cloned: held-out agreement {acc:.1%} after {bc_minutes:.1f} min (load average {loads[-1]})",
        flush=True,
    )

    # 3. PPO fine-tune for the rest of the budget
    rows: list[dict[str, float]] = []
    remaining = budget - (time.perf_counter() - t_start)
    t0 = time.perf_counter()
    # (a few seconds at least: a tiny budget, as in the smoke test, may be spent by now)
    steps = ppo(model, max(remaining, 3.0), args.value_warmup, args.lr, rows)
    ppo_seconds = time.perf_counter() - t0
    loads.append(load_average())
    venv.close()
    train_minutes = (time.perf_counter() - t_start) / 60
    cpu = os.times()
    cpu_minutes = (cpu.user + cpu.system + cpu.children_user + cpu.children_system) / 60
    print(
        f"[3] PPO: {steps} env steps, {len(rows)} hands in {ppo_seconds:.0f} s "
        f"({steps / max(ppo_seconds, 1e-9):.0f} steps/s with {args.workers} worker(s), "
        f"load average {loads[-1]}); training took {train_minutes:.1f} min in all, "
        f"{cpu_minutes:.1f} CPU minutes (all its processes)",
        flush=True,
    )
    final_weights = actor_weights(model)
    save_weights(final_weights, out / "policy.npz")
    model.save(out / "maskable_ppo.zip")

    title = (
        f"MaskablePPO on SingleSeatEnv(flat, hints), parlor, 3 efficient opponents; BC of {args.teacher} "
        f"+ DAgger then PPO (lr {args.lr}, clip {args.clip}); seed {args.seed}, {args.workers} "
        f"workers, {train_minutes:.1f} min training"
    )
    plot(out / "learning_curve.png", clone_curve, rows, title)
    print(f"learning curve: {out / 'learning_curve.png'}", flush=True)

    # evaluation: cloned and final policies on the same duplicate walls
    results: dict[str, Any] = {
        "conditions": {k: v for k, v in vars(args).items()},
        "training_minutes": train_minutes,
        "training_cpu_minutes": cpu_minutes,
        "clone_agreement": acc,
        "ppo_steps": steps,
        "ppo_steps_per_second": steps / max(ppo_seconds, 1e-9),
        "load_averages": loads,
        "clone_curve": clone_curve,
    }
    for label, weights in (("bc", bc_weights), ("final", final_weights)):
        if args.eval_sets <= 0:
            break
        print(
            f"evaluating the {label} policy: {args.eval_sets} duplicate hand-sets vs 3 efficient",
            flush=True,
        )
        summary = evaluate(weights, args.eval_sets, args.workers, args.eval_seed, f"{label}-policy")
        margin = summary["margin"]
        results[label] = summary
        print(
            f"{label} policy - efficient: {margin['points_per_hand']:+.3f} ± {margin['ci95']:.3f} "
            f"jade/hand (95% CI, {summary['hand_sets']} hand-sets, {summary['hands']} hands, "
            f"seed {args.eval_seed!r}; CI {'excludes' if margin['significant'] else 'includes'} 0)",
            flush=True,
        )
    (out / "result.json").write_text(json.dumps(results, indent=1, default=str))
    return results


if __name__ == "__main__":
    main()
