"""schemathesis against the published OpenAPI (issue 14 "Proof"; issue 29: the whole OpenAPI with
zero 5xx): the calculator and account operations conform to the schema in-process; every
operation, against a real ``hkmj serve`` and signed in, never answers a server error.

Stateful runs (schemathesis chaining operations by OpenAPI links) are not done: the schema has no
links, so they would only chain random calls the stateless run already makes."""

from __future__ import annotations

import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, positive_data_acceptance
from tests.server.conftest import cheap_argon2
from tests.server.test_serve import get_json, start_server

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings

_DATA = Path(tempfile.mkdtemp(prefix="hkmj-schema-"))
APP = create_app(
    Settings(data_dir=_DATA, secret="schema-secret-" + "x" * 20), password_hash=cheap_argon2()
)
# The calculator API and the account probe (the table routes are tested by their own suite).
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).include(
    path_regex=r"^/(healthz|api/(score|shanten|me))$"
)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms_and_never_fails(case: schemathesis.Case) -> None:
    # Tile text and preset names are checked beyond what JSON Schema can say (a string "0000" is
    # schema-valid but not a hand): a schema-valid request may get 422, every other check holds.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


# -- every operation, against a real hkmj serve, signed in (issue 29: zero 5xx) -----------------
# The table routes create live tables: a real server keeps their actors on one event loop (the
# in-process ASGI client above would run each request in a loop of its own). Only the server-
# error check holds there: a refusal (401, 402, 403, 404, 409, 422, 429) is every route's answer
# to most generated requests, and the calculator's full conformance is checked above.
every_operation = schemathesis.openapi.from_dict(APP.openapi())
"""The whole OpenAPI (the same app's), sent to the live server below."""


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live ``hkmj serve`` and a registered player's session cookie and CSRF header there,
    for every generated request."""
    proc, url = start_server(tmp_path_factory.mktemp("schema-live"))
    try:
        get_json(url + "healthz")
        with httpx.Client(base_url=url, timeout=30) as http:
            csrf = http.get("/api/me").json()["csrf"]
            http.post(
                "/register", data={"name": "Fuzzer", "password": "long enough pw", "csrf": csrf}
            )
            yield {
                "url": url.rstrip("/"),
                "cookies": dict(http.cookies.items()),
                "headers": {"X-CSRF-Token": http.get("/api/me").json()["csrf"]},
            }
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


@every_operation.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_never_answers_a_server_error(
    case: schemathesis.Case, signed_in: dict[str, Any]
) -> None:
    headers = {**(case.headers or {}), **signed_in["headers"]}
    case.call_and_validate(
        base_url=signed_in["url"],
        headers=headers,
        cookies=signed_in["cookies"],
        checks=[not_a_server_error],
    )
