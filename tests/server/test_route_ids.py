"""Ids out of range and odd path values are a 4xx everywhere (issue 29, defect 7: ids past 64
bits raised ``OverflowError`` → 500 on ``/api/leagues/…``, ``/leagues/…`` and join/leave).

The test walks **every** route of the app that has path parameters — enumerated from the app
itself, so a new route is covered without touching this file — with each odd value in each
parameter, signed in and with the CSRF header (so the request reaches the route's own code), on
SQLite and on PostgreSQL (whose integers are 32 bits and whose text refuses NUL)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import routing
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server import people

ODD = [
    "0",
    "-1",
    "2147483648",  # past PostgreSQL's integer
    "9223372036854775808",  # past 64 bits
    "99999999999999999999999",
    "-99999999999999999999999",
    "1e400",
    "NaN",
    "1.5",
    "%00",
    "a%00b",
    "%ff%fe",
    "%C0%AF",
    "%F0%9F%80%84",
    "碰",
    "%20",
    "..",
    "%2e%2e",
    "x" * 3000,
    "%0d%0aSet-Cookie:%20x=1",
    "null",
    "%5B%5D",
]


@pytest.fixture(params=["sqlite", "postgresql"])
def signed_in(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    client = request.getfixturevalue("client" if request.param == "sqlite" else "pg_client")
    assert isinstance(client, TestClient)
    people.register(client, "walker")
    client.headers["X-CSRF-Token"] = people.csrf(client)
    yield client


def routes(app: Any) -> Iterator[tuple[str, frozenset[str]]]:
    """Every route of the app: its full path and its HTTP methods (none: a websocket). FastAPI
    0.16x includes routers lazily (``iter_route_contexts`` walks them); older ones list them."""
    walk = getattr(routing, "iter_route_contexts", None)
    for route in walk(app.routes) if walk is not None else app.routes:
        path = getattr(route, "path", None)
        if isinstance(path, str):
            yield path, frozenset(getattr(route, "methods", None) or ())


def _paths(template: str) -> Iterator[str]:
    params = re.findall(r"{([^}:]+)(?::[^}]*)?}", template)
    for name in params:
        for value in ODD:
            path = template
            for other in params:
                fill = value if other == name else "1"
                path = re.sub(r"{" + other + r"(?::[^}]*)?}", fill, path)
            yield path


def test_every_route_with_path_parameters_answers_odd_ids_with_a_4xx(
    signed_in: TestClient,
) -> None:
    app = signed_in.app
    walked = set()
    failures = []
    for template, methods in routes(app):
        if "{" not in template:
            continue
        for method in sorted(methods - {"HEAD", "OPTIONS"}):
            walked.add((method, template))
            for path in _paths(template):
                kwargs = {"json": {}} if method in ("POST", "PUT", "PATCH") else {}
                r = signed_in.request(method, path, follow_redirects=False, **kwargs)
                if r.status_code >= 500:
                    failures.append((method, path[:80], r.status_code, r.text[:120]))
    assert not failures, failures
    assert {("GET", "/api/leagues/{league_id}"), ("POST", "/leagues/{league_id}/join")} <= walked
    assert len(walked) >= 20, walked


def test_every_websocket_route_with_path_parameters_refuses_odd_ids(
    signed_in: TestClient,
) -> None:
    walked = 0
    for template, methods in routes(signed_in.app):
        if "{" not in template or methods:
            continue
        for path in _paths(template):
            walked += 1
            with (
                pytest.raises(WebSocketDisconnect) as info,  # in the handshake or after it
                signed_in.websocket_connect(path) as ws,
            ):
                ws.receive_text()
            # 4404 no such table, 1008 a URL refused at the door, 1000 no such route ("..")
            assert info.value.code in (4404, 1008, 1000), (path, info.value.code)
    assert walked >= len(ODD)
