"""Evaluate any policy in the bots' arena: duplicate walls, the policy in every seat in turn.

    python examples/evaluate_policy.py --weights policy.npz [--opponents fan,fan,fan] [--hands 200]
    python examples/evaluate_policy.py --policy mypkg.mymodule:make_policy --rules qingzhang

A policy is ``policy(planes, mask) -> action index`` over the env's observation and action space
(docs/env.md). ``--weights`` loads the linear policy that ``train_masked_policy.py --save`` wrote;
``--policy MODULE:NAME`` imports ``NAME`` from ``MODULE`` — a policy, or a factory returning one
(anything callable without arguments, e.g. ``def make(greedy=True)``, is taken for a factory). Without either, a demo policy (the lowest legal discard) is evaluated. The policy is
registered as a bot named ``policy`` and played by the arena exactly like the built-in bots, so the
summary is the arena's: points per hand with 95% confidence intervals, win and deal-in rates, …
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from hkmahjong.bots.arena import ArenaConfig, run_arena
from hkmahjong.bots.registry import register_bot
from hkmahjong.engine.state import HandState
from hkmahjong.env.policy import Policy, PolicyBot

warnings.filterwarnings("ignore")


def lowest_index(planes: Any, mask: Any) -> int:
    """Demo policy: the lowest legal index (discards the lowest tile; never claims or wins)."""
    return int(np.flatnonzero(mask)[0])


def load_policy(args: argparse.Namespace) -> Policy:
    if args.weights:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from train_masked_policy import LinearPolicy

        return LinearPolicy.load(args.weights)
    if args.policy:
        module, _, name = args.policy.partition(":")
        obj = getattr(importlib.import_module(module), name or "policy")
        return obj() if is_factory(obj) else obj  # type: ignore[no-any-return]
    return lowest_index


def is_factory(obj: object) -> bool:
    """Whether ``obj`` is a policy factory: callable with no arguments (defaults allowed)."""
    if not callable(obj):
        return False
    try:
        inspect.signature(obj).bind()
    except TypeError:
        return False
    except ValueError:  # no signature (a builtin): a policy takes (planes, mask)
        return False
    return True


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--weights", help="a .npz written by train_masked_policy.py --save")
    ap.add_argument("--policy", help="MODULE:NAME of a policy or a policy factory")
    ap.add_argument("--opponents", default="fan,fan,fan", help="three bot names (default fan)")
    ap.add_argument("--hands", type=int, default=100, help="hand-sets (default 100)")
    ap.add_argument("--rules", default="parlor")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--hints",
        action="store_true",
        help="the policy sees the hint planes too (SingleSeatEnv(hints=True), train_sb3.py's)",
    )
    args = ap.parse_args(argv)
    policy = load_policy(args)
    register_bot(
        "policy", lambda seed, ruleset, budget: PolicyBot(policy, ruleset=ruleset, hints=args.hints)
    )
    opponents = [o.strip() for o in args.opponents.split(",")]
    if len(opponents) != 3:
        ap.error("--opponents needs three bot names")
    cfg = ArenaConfig(
        bots=("policy", opponents[0], opponents[1], opponents[2]),
        hands=args.hands,
        ruleset=args.rules,
        seed=args.seed,
        duplicate=True,
        jobs=args.jobs,
    )
    result = run_arena(cfg, HandState.new, progress=sys.stderr)
    print(result.text())
    return result.summary()


if __name__ == "__main__":
    main()
