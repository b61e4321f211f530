"""Shared test fixtures."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from bench.serving import Served, start_serve
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# The suite shares two cores with PostgreSQL, Chromium and live servers: Hypothesis's wall-clock
# checks (a slow example, slow input generation) measure the machine's load, not the code, and
# failed runs on a loaded machine (an example list of 20 tiles "slow" at 1.3 s). Correctness
# checks are unchanged; the speed of the code is measured by the benchmarks under bench/.
settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("shared-machine")


def load_script(relpath: str, name: str) -> ModuleType:
    """Import a repository script (``tools/golden.py``, ``examples/x.py``) as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


POSTGRES_FIXTURES = frozenset({"pg_url", "pg_client"})
"""Fixtures that need the local PostgreSQL (a test parametrised ``"postgresql"`` needs it too)."""
REDIS_FILES = ("test_cluster_",)
"""Test files (tests/server) whose tests need Redis as well as PostgreSQL: the cluster."""
TORCH_FILES = frozenset({"test_train_sb3.py", "test_backend_ray.py"})
"""Test files that need the rl or ray extra (torch; Ray)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what each test needs beyond Python and SQLite (``postgres``, ``redis``, ``torch``), so
    that ``make quick`` can leave those out by marker (``-m "not postgres and …"``) while ``make
    test`` runs everything."""
    for item in items:
        name = item.path.name
        params = getattr(getattr(item, "callspec", None), "params", {})
        if POSTGRES_FIXTURES.intersection(getattr(item, "fixturenames", ())) or (
            "postgresql" in params.values()
        ):
            item.add_marker(pytest.mark.postgres)
        if name.startswith(REDIS_FILES):
            item.add_marker(pytest.mark.postgres)
            item.add_marker(pytest.mark.redis)
        if name in TORCH_FILES:
            item.add_marker(pytest.mark.torch)


@pytest.fixture(scope="session")
def script() -> Callable[[str, str], ModuleType]:
    """:func:`load_script` for tests: ``script("tools/golden.py", "golden_tool")``."""
    return load_script


@pytest.fixture(autouse=True)
def _no_running_loop_of_the_browser(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API (tests/web/browser, a session-scoped browser) keeps its event loop
    marked as running in the main thread for as long as the browser lives; a test that calls
    ``asyncio.run`` later in the same xdist worker would be refused ("cannot be called from a
    running event loop"). Outside the browser tests, hide that loop for the test's duration."""
    loop = asyncio.events._get_running_loop()
    if loop is None or request.node.get_closest_marker("browser") is not None:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


@pytest.fixture(autouse=True)
def _private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own hkmj data directory (save secret, saved points), never the user's."""
    path = tmp_path_factory.mktemp("hkmj-data")
    monkeypatch.setenv("HKMJ_DATA_DIR", str(path))
    return path


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    """Start ``hkmj serve`` processes (:func:`bench.serving.start_serve`: the address read with a
    timeout, never a ``readline()`` that can block forever); each is stopped after the test."""
    started: list[Served] = []

    def start(data_dir: Path | None, *extra: str, **kwargs: object) -> Served:
        served = start_serve(data_dir, *extra, **kwargs)  # type: ignore[arg-type]
        started.append(served)
        return served

    yield start
    for served in reversed(started):
        served.stop()
