"""Browser tests: Playwright driving Debian's chromium against a real ``hkmj serve``.

``make test`` installs the browser first (``tools/install_browser.sh``: ``apt-get install chromium
fonts-noto-cjk`` when /usr/bin/chromium is missing); Playwright's own browser download is not used.
Each test module gets a fresh server on a free loopback port with a temporary data directory.
Screenshots go to ``tests/artifacts/screens/`` (git-ignored): look at them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bench.serving import start_serve

playwright_sync = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("HKMJ_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-gpu",
]
ROOT = Path(__file__).resolve().parents[3]
SCREENS = ROOT / "tests" / "artifacts" / "screens"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


class Server:
    """A running ``hkmj serve`` subprocess and its base URL (``bench.serving``'s
    :func:`start_serve`, the one serve helper: the address read with a timeout, ``/healthz``
    answered before a test starts, the server's whole process group stopped at the end)."""

    def __init__(
        self,
        data_dir: Path,
        clocks: dict[str, int] | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        hkmj = shutil.which("hkmj", path=str(Path(sys.executable).parent))
        env = {"PYTHONUNBUFFERED": "1", **(extra_env or {})}
        if clocks:
            env["HKMJ_TABLE_CLOCKS"] = json.dumps(clocks)
        self.served = start_serve(
            None,
            env=env,
            args=["--data-dir", str(data_dir), "--host", "127.0.0.1", "--port", "0"],
            hkmj=[hkmj] if hkmj else (sys.executable, "-m", "hkmahjong.entry"),
            log=data_dir.with_name(data_dir.name + "-serve.log"),
            timeout=60,
            healthy=True,
            group=True,
            stop_signal=signal.SIGTERM,
        )
        self.proc = self.served.proc
        self.url = self.served.url

    def stop(self) -> None:
        """SIGTERM to the server's process group; SIGKILL after 10 s."""
        self.served.stop(timeout=10)


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """A fresh ``hkmj serve`` for the module; the module's ``TABLE_CLOCKS`` (a dict of table
    clock fields, docs/server.md ``HKMJ_TABLE_CLOCKS``) shorten its tables' clocks, its
    ``SERVER_ENV`` (``HKMJ_*`` variables of docs/server.md) set the server's environment."""
    srv = Server(
        tmp_path_factory.mktemp("parlor-data"),
        getattr(request.module, "TABLE_CLOCKS", None),
        getattr(request.module, "SERVER_ENV", None),
    )
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run tools/install_browser.sh (make test does)")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Any]:
    """``new_page(lang="en", phone=False, tz=None)``: a page in a fresh browser context (own
    cookies), in time zone ``tz`` (default UTC)."""
    contexts: list[Any] = []

    def make(lang: str | None = None, phone: bool = False, tz: str | None = None) -> Any:
        ctx = browser.new_context(
            timezone_id=tz or "UTC",
            viewport=PHONE if phone else DESKTOP,
            device_scale_factor=1,
            base_url=server.url,
            locale={"en": "en-GB", "zh-Hans": "zh-CN"}.get(lang or "", "zh-HK"),
            is_mobile=phone,
            has_touch=phone,
        )
        ctx.set_default_timeout(20_000)
        if lang:
            ctx.add_cookies([{"name": "hkmj_lang", "value": lang, "url": server.url}])
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    errors: list[str] = []
    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot of ``page`` as ``tests/artifacts/screens/<name>.png``."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
