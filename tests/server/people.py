"""Who comes to the door in the server tests: one CSRF reader, one registration, one guest.

Every test of the HTTP surface signs people up the same way (the form a browser posts, with the
CSRF token of ``/api/me``); these were copied into eight test modules before (issue 32 item 8).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

__all__ = ["PASSWORD", "cookies", "csrf", "guest", "register"]

PASSWORD = "long enough pw"
"""The password every registered test user gets (long enough for the server's rule)."""


def csrf(client: TestClient) -> str:
    """The client's CSRF token, as ``/api/me`` gives it (for a form's ``csrf`` or the
    ``X-CSRF-Token`` header)."""
    return str(client.get("/api/me").json()["csrf"])


def register(client: TestClient, name: str, password: str = PASSWORD) -> int:
    """Sign ``name`` up through the form (a fresh session: cookies cleared first; the starting
    grant of jade comes with it); the new user's id. Fails the test when the server refuses."""
    client.cookies.clear()
    r = client.post(
        "/register",
        data={"name": name, "password": password, "csrf": csrf(client)},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "error" not in r.headers["location"], (r.headers, r.text)
    return int(client.get("/api/me").json()["user"]["id"])


def guest(client: TestClient) -> None:
    """Come in as a new guest (a fresh session: cookies cleared first)."""
    client.cookies.clear()
    r = client.post("/guest", data={"csrf": csrf(client)}, follow_redirects=False)
    assert r.status_code == 303, r.text


def cookies(client: TestClient) -> dict[str, str]:
    """The client's cookies now (to come back as the same person after another signs in)."""
    return dict(client.cookies.items())
