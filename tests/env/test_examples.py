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
