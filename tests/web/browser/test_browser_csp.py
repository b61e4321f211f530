"""Every page of the parlor works in Chromium under its Content-Security-Policy (issue 29,
*Headers*; docs/security.md): no inline script or handler, no resource from elsewhere. The test
loads each page (signed in, with a practice table and a league to show) and fails on any CSP
violation the browser reports; and a new page route fails it until it is added here."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, shot

pytestmark = pytest.mark.browser

NOT_PAGES = {
    "/static/{path:path}",
    "/lang/{code}",
    "/manifest.webmanifest",
    "/sw.js",
    "/openapi.json",
    "/healthz",
    "/metrics",  # Prometheus text (docs/operations.md), not a page
    "/me",  # a redirect to /players/{name}
}
"""GET routes that are not pages (assets, redirects); every ``/api/…`` route is not one either."""

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("csp-data")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[Server]:
    """This module's server, with a league to show (made by ``hkmj admin``)."""
    hkmj = shutil.which("hkmj", path=str(Path(sys.executable).parent)) or "hkmj"
    subprocess.run(
        [
            hkmj,
            "admin",
            "--data-dir",
            str(data_dir),
            "league",
            "create",
            "CSP Cup",
            "--rounds",
            "1",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    srv = Server(data_dir)
    yield srv
    srv.stop()


def page_routes() -> set[str]:
    """The app's GET routes that are pages (not ``/api/…`` and not :data:`NOT_PAGES`)."""
    from fastapi import routing

    from hkmahjong.server.app import create_app
    from hkmahjong.server.settings import Settings

    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp()), secret="x" * 32))
    app.state.store.close()
    walk = getattr(routing, "iter_route_contexts", None)
    out = set()
    for route in walk(app.routes) if walk is not None else app.routes:
        path, methods = getattr(route, "path", None), getattr(route, "methods", None) or ()
        if isinstance(path, str) and "GET" in methods and not path.startswith("/api/"):
            out.add(path)
    return out - NOT_PAGES


OTHER_FAULTS = {
    "/docs": "SwaggerUIBundle is not defined",  # its CDN is out of reach here
    "/docs/oauth2-redirect": "swaggerUIRedirectOauth2",  # opened without the page that opens it
}
"""Script errors that are not the policy's doing, by page (any other fails the test)."""


def test_every_page_runs_under_the_policy(browser: Any, server: Server) -> None:
    context = browser.new_context(base_url=server.url, locale="en-GB")
    context.add_cookies([{"name": "hkmj_lang", "value": "en", "url": server.url}])
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    errors: list[tuple[str, str]] = []
    page.on("console", lambda m: console.append(m.text))
    page.on("pageerror", lambda exc: errors.append((page.url, str(exc))))
    page.goto("/register")
    page.fill("input[name=name]", "Csp Tester")
    page.fill("input[name=password]", "long enough pw")
    page.fill("input[name=confirm]", "long enough pw")
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    made = page.evaluate(
        """async () => {
          const me = await (await fetch("/api/me")).json();
          const r = await fetch("/api/tables", {method: "POST", headers: {
            "Content-Type": "application/json", "X-CSRF-Token": me.csrf},
            body: JSON.stringify({kind: "practice",
                                  bots: ["easy", "easy", "easy"]})});
          return await r.json();
        }"""
    )
    table = made["id"]
    urls = {
        "/": "/",
        "/login": "/login?error=bad_login&name=Csp%20Tester",
        "/register": "/register?error=name_mixed",
        "/practice": "/practice",
        "/tables/new": "/tables/new",
        "/rules": "/rules",
        "/tutorial": "/tutorial",
        "/calculator": "/calculator",
        "/table/{table_id}": f"/table/{table}",
        "/offline": "/offline",
        "/players/{name}": "/players/Csp%20Tester",
        "/players/{name}/hands": "/players/Csp%20Tester/hands",
        "/players/{name}/matches": "/players/Csp%20Tester/matches",
        "/matches/{public_id}": f"/matches/{table}",
        "/leaderboard": "/leaderboard",
        "/leagues": "/leagues",
        "/leagues/{league_id}": "/leagues/1",
        "/replay/{public_id}": f"/replay/{table}",
        "/docs": "/docs",
        "/docs/oauth2-redirect": "/docs/oauth2-redirect",
        "/redoc": "/redoc",
    }
    assert page_routes() <= set(urls), f"pages not visited here: {page_routes() - set(urls)}"
    violations: dict[str, list[str]] = {}
    for template, url in urls.items():
        response = page.goto(url, wait_until="load", timeout=30_000)
        assert response is not None and response.status < 400, (url, response)
        page.wait_for_timeout(300)
        found = page.evaluate("window.__csp") + [
            m for m in console if re.search(r"Content Security Policy|Refused to", m)
        ]
        console.clear()
        if found:
            violations[template] = found
    assert not violations, violations
    unexplained = [
        (url, text)
        for url, text in errors
        if not any(
            words in text and url.startswith(server.url + urls[template])
            for template, words in OTHER_FAULTS.items()
        )
    ]
    assert not unexplained, unexplained
    page.goto("/rules")  # the preset picker submits its form from app.js, not an inline handler
    page.select_option("select[name=preset]", index=1)
    page.wait_for_url(re.compile(r".*/rules\?preset=.+"))
    assert page.evaluate("window.__csp") == []
    shot(page, "csp-rules-preset")
    context.close()


def test_the_policy_is_sent_with_every_page(new_page: Any) -> None:
    page = new_page(lang="en")
    response = page.goto("/")
    policy = response.headers["content-security-policy"]
    assert (
        "script-src 'self';" in policy and "unsafe-inline" not in policy.split("style-src-attr")[0]
    )
    assert "frame-ancestors 'none'" in policy
    for name in ("referrer-policy", "x-content-type-options", "permissions-policy"):
        assert response.headers[name]
