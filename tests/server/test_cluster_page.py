"""The table page through a take-over, in Chromium, on two real ``hkmj serve`` processes sharing
the local PostgreSQL and Redis (issue 36, docs/deploy.md *Faults*, docs/protocol.md close 1013).

A guest starts a practice table by clicks at process A and then plays it through process B (the
page served by B, its socket relayed to A). A is killed with ``kill -9`` while the table's lease
row is held locked by another connection (an old owner's write in flight), so B cannot take the
table over at once: the page's reconnects are answered 1013 ("being taken over, retry") — never
4404, which the page treats as final — and once the row is free the page is back at its table by
itself within a few seconds, its hand shown, without a reload or a click.
"""

from __future__ import annotations

import secrets
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from bench.cluster_run import Database, Server
from sqlalchemy import text
from tests.web.browser.conftest import ARGS, CHROMIUM, DESKTOP, shot
from tests.web.browser.play import start_practice

pytestmark = [pytest.mark.slow, pytest.mark.browser]

playwright_sync = pytest.importorskip("playwright.sync_api")

LEASE = 2.0
REDIS = "redis://127.0.0.1:6379/0"

WATCH_SOCKETS = """
(() => {
  window.__closes = []; window.__opens = 0;
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener("open", () => { window.__opens += 1; });
    ws.addEventListener("close", (e) => { window.__closes.push(e.code); });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""
"""Counts the page's table sockets opened and records each one's close code."""


@pytest.fixture
def cluster(pg_url: str) -> Iterator[tuple[Database, Server, Server]]:
    admin = pg_url.rsplit("/", 1)[0] + "/postgres"
    db = Database(admin)
    prefix = f"hkmjtest:{secrets.token_hex(4)}"
    work = Path(tempfile.mkdtemp(prefix="hkmj-page-"))
    servers: list[Server] = []
    try:
        for name in ("a", "b"):  # the parlor's own clocks: the table waits for the person
            servers.append(Server(db, REDIS, prefix, LEASE, work / f"{name}.log", clocks=None))
        yield db, servers[0], servers[1]
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.stop()
        r = redis.Redis.from_url(REDIS)
        keys = list(r.scan_iter(f"{prefix}:*"))
        if keys:
            r.delete(*keys)
        r.close()
        db.drop()


def test_the_page_waits_out_a_take_over_and_is_back_by_itself(
    cluster: tuple[Database, Server, Server],
) -> None:
    db, a, b = cluster
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = browser.new_context(viewport=DESKTOP, base_url=a.url, locale="en-GB")
            ctx.set_default_timeout(20_000)
            ctx.add_cookies([{"name": "hkmj_lang", "value": "en", "url": a.url}])
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            url = start_practice(page, length="four-rounds")
            table_id = url.rstrip("/").rsplit("/", 1)[1]
            page.add_init_script(WATCH_SOCKETS)
            page.goto(f"{b.url}/table/{table_id}")  # served by b, the table live at a
            page.locator("#myhand button.tilebtn").first.wait_for()
            tid = db.query("SELECT id FROM parlor_tables WHERE public_id = :p", p=table_id)[0][0]
            owner = db.query("SELECT owner FROM table_leases WHERE table_id = :t", t=tid)[0][0]
            assert owner == a.owner
            with db.engine.connect() as hold:
                hold.execute(
                    text("SELECT 1 FROM table_leases WHERE table_id = :t FOR SHARE"), {"t": tid}
                )
                a.kill()
                page.wait_for_function("() => window.__closes.includes(1013)", timeout=15_000)
                time.sleep(2.5)  # several retries while the row stays locked
                opens = page.evaluate("window.__opens")
                hold.rollback()
                released = time.monotonic()
            page.wait_for_function(f"() => window.__opens > {opens}", timeout=10_000)
            page.wait_for_function(
                "() => document.getElementById('status').textContent === ''", timeout=10_000
            )
            page.locator("#myhand button.tilebtn").first.wait_for()
            back = time.monotonic() - released
            closes: list[Any] = page.evaluate("window.__closes")
            shot(page, "cluster-table-after-take-over-en")
            owner = db.query("SELECT owner FROM table_leases WHERE table_id = :t", t=tid)[0][0]
        finally:
            browser.close()
    assert owner == b.owner
    assert 4404 not in closes, closes  # never "no such table" while being taken over
    assert closes.count(1013) >= 2, closes  # retried, each time told to retry
    assert back < 3.0, (back, closes)  # retries stay half a second apart (no growing back-off)
    assert not errors, errors
