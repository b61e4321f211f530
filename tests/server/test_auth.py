"""Accounts, sessions, guests, CSRF and the login rate limit (issue 14 "Accounts, jade and stakes")."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

import pytest
from fastapi import Depends, WebSocket
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from hkmahjong.server.auth import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    CurrentUser,
    check_csrf,
    csrf_token,
    current_user,
    require_user,
    safe_next,
    user_or_guest,
)
from hkmahjong.server.settings import Settings
from hkmahjong.server.store.models import SessionRow, User, utcnow


def form_csrf(client: TestClient) -> str:
    token = client.get("/api/me").json()["csrf"]
    assert isinstance(token, str) and len(token) >= 20
    return token


def register(client: TestClient, name: str = "阿明", password: str = "correct horse") -> object:
    return client.post(
        "/register",
        data={"name": name, "password": password, "csrf": form_csrf(client)},
        follow_redirects=False,
    )


def back_to(response: object) -> tuple[str, dict[str, str]]:
    """Where a refused form post sends the browser: the page and its query."""
    from urllib.parse import parse_qsl, urlsplit

    location = urlsplit(response.headers["location"])  # type: ignore[attr-defined]
    return location.path, dict(parse_qsl(location.query))


def login(client: TestClient, name: str, password: str) -> object:
    return client.post(
        "/login",
        data={"name": name, "password": password, "csrf": form_csrf(client), "next": "/lobby"},
        follow_redirects=False,
    )


def test_register_logs_in_with_a_hardened_cookie_and_the_starting_grant(
    client: TestClient, settings: Settings
) -> None:
    response = register(client)
    assert response.status_code == 303 and response.headers["location"] == "/"
    cookie = next(
        c for c in response.headers.get_list("set-cookie") if c.startswith(SESSION_COOKIE + "=")
    )
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    me = client.get("/api/me").json()
    assert me["user"]["name"] == "阿明" and me["user"]["is_guest"] is False
    assert me["jade"] == settings.starting_grant


def test_only_the_token_hash_is_stored(client: TestClient) -> None:
    register(client)
    token = client.cookies[SESSION_COOKIE]
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        hashes = session.scalars(select(SessionRow.token_hash)).all()
    assert len(hashes) == 1 and token not in hashes[0] and len(hashes[0]) == 64


def test_register_without_the_csrf_token_is_refused(client: TestClient) -> None:
    response = client.post(
        "/register", data={"name": "mallory", "password": "12345678"}, follow_redirects=False
    )
    assert back_to(response) == ("/register", {"error": "csrf", "name": "mallory"})
    response = client.post(
        "/register",
        data={"name": "mallory", "password": "12345678", "csrf": "forged-token-xxxxxxxxxxxxxxxx"},
        follow_redirects=False,
    )
    assert back_to(response) == ("/register", {"error": "csrf", "name": "mallory"})
    assert client.get("/api/me").json()["user"] is None


@pytest.mark.parametrize(
    ("name", "password", "code"),
    [
        ("<script>", "long enough pw", "bad_name"),
        ("a" * 25, "long enough pw", "bad_name"),
        ("guest-123", "long enough pw", "name_reserved"),
        ("Ah Ming", "short", "bad_password"),
        ("AH MING", "long enough pw", "name_taken"),
    ],
)
def test_register_errors_come_back_as_codes(
    client: TestClient, name: str, password: str, code: str
) -> None:
    register(client, "Ah Ming", "long enough pw")
    client.cookies.clear()
    response = register(client, name, password)
    assert back_to(response) == ("/register", {"error": code, "name": name})


def test_login_logout_and_a_revoked_token_stays_dead(client: TestClient) -> None:
    register(client, "Ah Ming", "long enough pw")
    client.cookies.clear()
    assert (
        login(client, "ah ming", "wrong password")
        .headers["location"]
        .startswith(  # type: ignore[attr-defined]
            "/login?error=bad_login"
        )
    )
    response = login(client, "ah ming", "long enough pw")
    assert response.headers["location"] == "/lobby"  # type: ignore[attr-defined]
    token = client.cookies[SESSION_COOKIE]
    assert client.get("/api/me").json()["user"]["name"] == "Ah Ming"
    out = client.post("/logout", data={"csrf": form_csrf(client)}, follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/api/me").json()["user"] is None
    client.cookies.set(SESSION_COOKIE, token)
    assert client.get("/api/me").json()["user"] is None


def test_logout_needs_the_csrf_token(client: TestClient) -> None:
    register(client)
    response = client.post("/logout", data={"csrf": "nope"}, follow_redirects=False)
    assert response.headers["location"] == "/?error=csrf"
    assert client.get("/api/me").json()["user"] is not None


def test_login_is_rate_limited_per_name_and_address_even_with_the_right_password(
    client: TestClient, settings: Settings
) -> None:
    register(client, "Ah Ming", "long enough pw")
    client.cookies.clear()
    for _ in range(settings.login_attempts):
        login(client, "Ah Ming", "guess")
    response = login(client, "Ah Ming", "long enough pw")
    assert back_to(response) == (
        "/login",
        {"error": "rate_limited", "next": "/lobby", "name": "Ah Ming"},
    )
    assert client.get("/api/me").json()["user"] is None


def test_an_expired_session_does_not_authenticate(client: TestClient) -> None:
    register(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        session.execute(update(SessionRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    assert client.get("/api/me").json()["user"] is None


def test_play_as_guest_makes_a_guest_without_jade(client: TestClient) -> None:
    response = client.post(
        "/guest", data={"csrf": form_csrf(client), "next": "/practice"}, follow_redirects=False
    )
    assert response.headers["location"] == "/practice"
    me = client.get("/api/me").json()
    assert me["user"]["is_guest"] is True and me["user"]["name"].startswith("guest-")
    assert me["jade"] is None


def test_registering_from_a_guest_session_replaces_it(client: TestClient) -> None:
    client.post("/guest", data={"csrf": form_csrf(client)})
    guest_token = client.cookies[SESSION_COOKIE]
    register(client, "Ah Ming", "long enough pw")
    assert client.cookies[SESSION_COOKIE] != guest_token
    client.cookies.set(SESSION_COOKIE, guest_token)
    assert client.get("/api/me").json()["user"] is None


def test_dependencies_for_routes_and_websockets(client: TestClient) -> None:
    app = client.app

    @app.get("/t/page")  # type: ignore[attr-defined]
    def page(user: Annotated[CurrentUser, Depends(user_or_guest)]) -> dict[str, object]:
        return {"name": user.name, "guest": user.is_guest}

    @app.get("/t/private")  # type: ignore[attr-defined]
    def private(user: Annotated[CurrentUser, Depends(require_user)]) -> str:
        return user.name

    @app.post("/t/act", dependencies=[Depends(check_csrf)])  # type: ignore[attr-defined]
    def act() -> str:
        return "done"

    @app.websocket("/t/ws")  # type: ignore[attr-defined]
    async def ws(
        websocket: WebSocket, user: Annotated[CurrentUser | None, Depends(current_user)]
    ) -> None:
        await websocket.accept()
        await websocket.send_json({"name": None if user is None else user.name})
        await websocket.close()

    assert client.get("/t/private").status_code == 401
    with client.websocket_connect("/t/ws") as sock:
        assert sock.receive_json() == {"name": None}
    first = client.get("/t/page").json()
    assert first["guest"] is True
    assert client.get("/t/page").json() == first  # the guest's cookie was set on the page
    assert client.get("/t/private").json() == first["name"]
    cookie = f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"
    with client.websocket_connect("/t/ws", headers={"cookie": cookie}) as sock:
        assert sock.receive_json() == {"name": first["name"]}
    assert client.post("/t/act").status_code == 403
    assert client.post("/t/act", headers={"X-CSRF-Token": "x" * 32}).status_code == 403
    token = client.get("/api/me").json()["csrf"]
    assert client.post("/t/act", headers={"X-CSRF-Token": token}).json() == "done"
    assert client.post("/t/act", data={"csrf": token}).json() == "done"


def test_pre_login_csrf_is_bound_to_its_own_cookie(client: TestClient) -> None:
    token = form_csrf(client)
    assert CSRF_COOKIE in client.cookies
    other = TestClient(client.app, base_url="http://127.0.0.1")
    other.cookies.set(CSRF_COOKIE, "someone-elses-cookie-value")
    response = other.post(
        "/register",
        data={"name": "victim", "password": "long enough pw", "csrf": token},
        follow_redirects=False,
    )
    assert back_to(response) == ("/register", {"error": "csrf", "name": "victim"})


def test_csrf_token_helper_is_stable_within_a_session(client: TestClient) -> None:
    register(client)
    assert form_csrf(client) == form_csrf(client)
    assert callable(csrf_token)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/table/ab12?x=1", "/table/ab12?x=1"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil", "/"),
        ("/a\r\nSet-Cookie: x", "/"),
        (None, "/"),
    ],
)
def test_redirect_targets_stay_on_the_site(target: str | None, expected: str) -> None:
    assert safe_next(target) == expected


def test_users_table_keeps_argon2_hashes(client: TestClient) -> None:
    register(client, "Ah Ming", "long enough pw")
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        stored = session.scalar(select(User.password_hash))
    assert stored is not None and stored.startswith("$argon2id$")


def test_accounts_on_postgresql(pg_client: TestClient) -> None:
    assert pg_client.get("/healthz").json()["database"] == "postgresql"
    assert register(pg_client, "Ah Ming", "long enough pw").headers["location"] == "/"  # type: ignore[attr-defined]
    pg_client.cookies.clear()
    assert back_to(register(pg_client, "ah ming", "long enough pw")) == (
        "/register",
        {"error": "name_taken", "name": "ah ming"},
    )
    pg_client.cookies.clear()
    assert login(pg_client, "AH MING", "long enough pw").headers["location"] == "/lobby"  # type: ignore[attr-defined]
    me = pg_client.get("/api/me").json()
    assert me["user"]["name"] == "Ah Ming" and me["jade"] == 10_000


def test_new_guests_are_rate_limited_per_address(tmp_path: object) -> None:
    from pathlib import Path

    from tests.server.conftest import cheap_argon2

    from hkmahjong.server.app import create_app

    assert isinstance(tmp_path, Path)
    settings = Settings(data_dir=tmp_path, secret="s" * 32, guests_per_window=2)
    app = create_app(settings, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        codes = []
        for _ in range(3):
            client.cookies.clear()
            response = client.post(
                "/guest", data={"csrf": form_csrf(client)}, follow_redirects=False
            )
            codes.append(response.headers["location"])
    assert codes == ["/", "/", "/login?error=rate_limited"]
