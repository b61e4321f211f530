"""Browser tests: Playwright driving Debian's chromium against a real ``hkmj serve``.

``make test`` installs the browser first (``tools/install_browser.sh``: ``apt-get install chromium
fonts-noto-cjk`` when /usr/bin/chromium is missing); Playwright's own browser download is not used.
Each test module gets a fresh server on a free loopback port with a temporary data directory.
Screenshots go to ``tests/artifacts/screens/`` (git-ignored): look at them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
    """A running ``hkmj serve`` subprocess and its base URL."""

    def __init__(
        self,
        data_dir: Path,
        clocks: dict[str, int] | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        hkmj = shutil.which("hkmj", path=str(Path(sys.executable).parent)) or "hkmj"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(extra_env or {})}
        if clocks:
            env["HKMJ_TABLE_CLOCKS"] = json.dumps(clocks)
        self.proc = subprocess.Popen(
            [hkmj, "serve", "--data-dir", str(data_dir), "--host", "127.0.0.1", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,
        )
        self.output: list[str] = []
        self.url = self._wait_for_url()
        threading.Thread(target=self._drain, daemon=True).start()

    def _wait_for_url(self) -> str:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            m = re.search(r"open (http://127\.0\.0\.1:\d+)/?", line)
            if m:
                url = m.group(1)
                self._wait_healthy(url)
                return url
        self.stop()
        raise RuntimeError("hkmj serve did not start:\n" + "".join(self.output))

    def _wait_healthy(self, url: str) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{url} did not answer")

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


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
