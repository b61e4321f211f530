"""The env examples run end to end (tiny budgets; the real runs are in docs/env.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_train_masked_policy_smoke() -> None:
    result = _load("train_masked_policy").main(["--minutes", "0.04", "--eval-hands", "4"])
    # even a few seconds of cloning agree with the teacher far more often than a uniform pick
    assert result["accuracy"] > 0.3
    assert result["edge"] == pytest.approx(result["learned"] - result["random"], abs=1e-9)


def test_evaluate_policy_puts_a_policy_in_the_arena() -> None:
    summary = _load("evaluate_policy").main(["--hands", "2", "--opponents", "random,fan,fan"])
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
