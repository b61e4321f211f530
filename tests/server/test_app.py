"""The app's foundation: health, request size limits, OpenAPI."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient

from hkmahjong.server.settings import Settings


def test_health_reports_the_migrated_database(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "sqlite"
    assert body["revision"] == "0008"


def test_secret_is_created_once_in_the_data_dir(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    first = Settings(data_dir=tmp_path).with_secret()
    second = Settings(data_dir=tmp_path).with_secret()
    assert first.secret == second.secret and first.secret and len(first.secret) >= 32
    assert (tmp_path / "secret").stat().st_mode & 0o777 == 0o600


def test_a_body_over_the_limit_is_refused_413(client: TestClient, settings: Settings) -> None:
    big = b"x" * (settings.max_body_bytes + 1)
    response = client.post("/healthz", content=big)
    assert response.status_code == 413
    assert "larger than" in response.json()["detail"]


def test_a_chunked_body_over_the_limit_is_refused_413() -> None:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from hkmahjong.server.limits import BodySizeLimit

    async def echo(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(len(await request.body())))

    app = BodySizeLimit(Starlette(routes=[Route("/", echo, methods=["POST"])]), max_bytes=4096)

    def chunks(n: int) -> Iterator[bytes]:
        for _ in range(n):
            yield b"y" * 1024

    with TestClient(app) as small:  # type: ignore[arg-type]
        assert small.post("/", content=chunks(4)).text == "4096"
        refused = small.post("/", content=chunks(5))
    assert refused.status_code == 413


def test_openapi_is_published(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/healthz" in schema["paths"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/healthz"), client.get("/no-such-page"), client.post("/login")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
