"""Security headers (issue 29, *Headers*; docs/security.md): the Content-Security-Policy runs
no inline script anywhere, and the templates hold none (no inline handler, no script block but
JSON data) — tests/web/browser/test_browser_csp.py loads every page in Chromium under it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from hkmahjong.server.headers import CONTENT_SECURITY_POLICY

TEMPLATES = Path(__file__).resolve().parents[2] / "src/hkmahjong/server/web/templates"


def directives(policy: str) -> dict[str, str]:
    return {d.split()[0]: d.partition(" ")[2] for d in (p.strip() for p in policy.split(";")) if d}


def test_the_policy_runs_no_inline_script_and_allows_no_framing() -> None:
    d = directives(CONTENT_SECURITY_POLICY)
    assert d["script-src"] == "'self'" and d["default-src"] == "'self'"
    assert d["frame-ancestors"] == "'none'" and d["object-src"] == "'none'"
    assert "unsafe" not in d["style-src"] and "unsafe-eval" not in CONTENT_SECURITY_POLICY


def test_every_answer_carries_the_headers(client: TestClient) -> None:
    for path in ("/", "/rules", "/healthz", "/no-such-page", "/api/lobby"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"
        assert "camera=()" in r.headers["permissions-policy"]


def test_the_api_pages_get_their_cdn_and_their_own_scripts_hashes(client: TestClient) -> None:
    r = client.get("/docs")
    d = directives(r.headers["content-security-policy"])
    assert "'sha256-" in d["script-src"] and "unsafe-inline" not in d["script-src"]
    assert d["frame-ancestors"] == "'none'"
    assert int(r.headers["content-length"]) == len(r.content)


def test_no_template_holds_an_inline_script_or_handler() -> None:
    found = []
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"<script\b([^>]*)>", text):
            attrs = m.group(1)
            if "src=" not in attrs and 'type="application/json"' not in attrs:
                found.append(f"{path.name}: {m.group(0)}")
        found += [f"{path.name}: {h}" for h in re.findall(r"\son[a-z]+\s*=", text)]
        found += [f"{path.name}: javascript: URL" for _ in re.findall(r"javascript:", text)]
    assert not found, found
