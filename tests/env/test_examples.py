"""The env examples run end to end (tiny budgets; the real runs are in docs/env.md)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
Script = Callable[[str, str], ModuleType]


def test_train_masked_policy_smoke(script: Script) -> None:
    train = script("examples/train_masked_policy.py", "train_masked_policy")
    result = train.main(["--minutes", "0.04", "--eval-hands", "4"])
    # even a few seconds of cloning agree with the teacher far more often than a uniform pick
    assert result["accuracy"] > 0.3
    assert result["edge"] == pytest.approx(result["learned"] - result["random"], abs=1e-9)


def test_evaluate_policy_puts_a_policy_in_the_arena(script: Script) -> None:
    evaluate = script("examples/evaluate_policy.py", "evaluate_policy")
    summary = evaluate.main(["--hands", "2", "--opponents", "random,fan,fan"])
    text = repr(summary)
    assert "policy" in text and "fan" in text


def test_register_bot_refuses_builtin_and_duplicate_names() -> None:
    from hkmahjong.bots import BotNameError, get_bot, register_bot
    from hkmahjong.env.policy import PolicyBot

    with pytest.raises(BotNameError, match="built-in"):
        register_bot("fan", lambda s, r, b: PolicyBot(lambda p, m: 0))
    register_bot(
        "test-policy", lambda s, r, b: PolicyBot(lambda p, m: 0, "test-policy"), replace=True
    )
    with pytest.raises(BotNameError, match="registered already"):
        register_bot("test-policy", lambda s, r, b: PolicyBot(lambda p, m: 0))
    assert get_bot("test-policy").name == "test-policy"  # type: ignore[attr-defined]
