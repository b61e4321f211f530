"""TLS in front (docs/operations.md, *TLS in front*): Caddy — its internal CA, loopback only — in
front of two ``hkmj serve`` processes (one PostgreSQL, one Redis), with secure cookies and Caddy
as the trusted proxy; Chromium plays a practice hand through ``https://`` and ``wss://``."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from tests.ops.conftest import Served, pg_databases, start_server
from tests.web.browser.conftest import ARGS, CHROMIUM, DESKTOP, shot
from tests.web.browser.play import play_until_result, start_practice

pytestmark = [pytest.mark.slow, pytest.mark.browser]

playwright_sync = pytest.importorskip("playwright.sync_api")
REDIS = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def behind_caddy(tmp_path: Path) -> Iterator[tuple[str, Path, list[Served]]]:
    """Two cluster processes behind Caddy: the HTTPS URL, Caddy's root certificate, the servers."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.fail("caddy is missing: run tools/ensure_caddy.sh (apt-get install caddy)")
    prefix = f"hkmjops:{tmp_path.name[-12:]}"
    served: list[Served] = []
    proc: subprocess.Popen[str] | None = None
    with pg_databases(1) as (url,):
        try:
            env = {
                "HKMJ_CLUSTER_PREFIX": prefix,
                "HKMJ_LEASE_SECONDS": "2",
                "HKMJ_SECURE_COOKIES": "1",
            }
            args = ["--db", url, "--redis", REDIS, "--forwarded-allow-ips", "127.0.0.1"]
            for name in ("a", "b"):
                served.append(start_server(tmp_path / name, *args, env=env))
            port, plain = free_port(), free_port()
            upstreams = " ".join(s.url.removeprefix("http://") for s in served)
            home = tmp_path / "caddy"
            (home / "data").mkdir(parents=True)
            config = tmp_path / "Caddyfile"
            config.write_text(
                "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n"
                f"\tauto_https disable_redirects\n\thttp_port {plain}\n\thttps_port {port}\n"
                f"\tstorage file_system {home / 'data'}\n}}\n"
                f"https://localhost:{port} {{\n\ttls internal\n"
                f"\treverse_proxy {upstreams} {{\n\t\tlb_policy round_robin\n\t}}\n}}\n",
                encoding="utf-8",
            )
            log = (tmp_path / "caddy.log").open("w")
            proc = subprocess.Popen(
                [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
                env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
            )
            log.close()
            base = f"https://localhost:{port}"
            root = home / "data" / "pki" / "authorities" / "local" / "root.crt"
            for _ in range(300):
                if root.exists():
                    try:
                        if httpx.get(base + "/healthz", verify=str(root), timeout=2).is_success:
                            break
                    except (httpx.HTTPError, ssl.SSLError):
                        pass
                time.sleep(0.1)
            else:
                raise AssertionError((tmp_path / "caddy.log").read_text()[-3000:])
            yield base, root, served
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(20)
            for s in served:
                s.stop()
            r = redis.Redis.from_url(REDIS)
            keys = list(r.scan_iter(f"{prefix}:*"))
            if keys:
                r.delete(*keys)
            r.close()


def test_a_hand_is_played_through_caddy_over_wss(
    behind_caddy: tuple[str, Path, list[Served]],
) -> None:
    base, root, served = behind_caddy
    # the certificate chains to Caddy's internal CA; each process answers behind it in turn
    nodes = {httpx.get(base + "/healthz", verify=str(root)).json()["node"] for _ in range(4)}
    assert nodes == {s.line("cluster node").split()[2].rstrip(":") for s in served}
    with pytest.raises(httpx.ConnectError):
        httpx.get(base + "/healthz")  # not a publicly trusted certificate
    sockets: list[str] = []
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # Chromium's trust store does not hold Caddy's local root (skip_install_trust)
            ctx = browser.new_context(
                viewport=DESKTOP, base_url=base, locale="en-GB", ignore_https_errors=True
            )
            ctx.set_default_timeout(30_000)
            ctx.add_cookies([{"name": "hkmj_lang", "value": "en", "url": base}])
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("websocket", lambda ws: sockets.append(ws.url))
            start_practice(page, length="four-rounds")  # (practice offers no 單局)
            play_until_result([page], timeout=180)
            shot(page, "tls-caddy-practice-result-en")
            cookies: list[Any] = ctx.cookies()
        finally:
            browser.close()
    assert not errors, errors
    assert any(u.startswith(f"wss://localhost:{base.rsplit(':', 1)[1]}/ws/table/") for u in sockets)
    session = [c for c in cookies if c["name"] == "hkmj_session"]
    assert session and session[0]["secure"] and session[0]["httpOnly"]
