"""A defect of the server while answering one request is logged with a request id and answered
with a clean JSON 500 naming that id; the server goes on (``hkmahjong.server.faults``)."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import cheap_argon2

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings


def test_a_defect_answers_a_clean_500_with_the_logged_request_id(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(settings, password_hash=cheap_argon2())

    @app.get("/boom")
    def boom() -> None:
        raise ZeroDivisionError("a defect with a secret in its message")

    with TestClient(app, base_url="http://testserver") as client:
        with caplog.at_level(logging.ERROR, logger="hkmahjong.server.faults"):
            r = client.get("/boom")
        assert r.status_code == 500
        detail = r.json()["detail"]
        assert detail["code"] == "internal" and "secret" not in r.text
        request_id = detail["request_id"]
        assert r.headers["x-request-id"] == request_id
        assert r.headers["x-content-type-options"] == "nosniff"
        assert any(request_id in rec.getMessage() and rec.exc_info for rec in caplog.records)
        assert client.get("/healthz").status_code == 200
