"""Shared test fixtures."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_script(relpath: str, name: str) -> ModuleType:
    """Import a repository script (``tools/golden.py``, ``examples/x.py``) as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def script() -> Callable[[str, str], ModuleType]:
    """:func:`load_script` for tests: ``script("tools/golden.py", "golden_tool")``."""
    return load_script


@pytest.fixture(autouse=True)
def _private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own hkmj data directory (save secret, saved points), never the user's."""
    path = tmp_path_factory.mktemp("hkmj-data")
    monkeypatch.setenv("HKMJ_DATA_DIR", str(path))
    return path
