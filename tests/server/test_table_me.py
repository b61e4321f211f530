"""``/api/me/tables`` and ``/api/me/settings`` (issue 30, server side), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.people import csrf, register

DEFAULTS = {
    "auto_win": False,
    "auto_pass": "none",
    "sort": "suit",
    "large_tiles": False,
    "colour_blind": False,
    "sound": True,
    "animations": True,
}


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest) -> TestClient:
    name = "client" if request.param == "sqlite" else "pg_client"
    found: TestClient = request.getfixturevalue(name)
    return found


def test_settings_are_kept_per_account_strictly(any_client: TestClient) -> None:
    client = any_client
    client.cookies.clear()
    assert client.get("/api/me/settings").status_code == 401
    register(client, "Settings Sam")
    assert client.get("/api/me/settings").json() == DEFAULTS
    mine = {**DEFAULTS, "auto_pass": "no_chow", "auto_win": True, "sound": False}
    assert client.put("/api/me/settings", json=mine).status_code == 403  # no CSRF header
    r = client.put("/api/me/settings", json=mine, headers={"X-CSRF-Token": csrf(client)})
    assert r.status_code == 200 and r.json() == mine
    assert client.get("/api/me/settings").json() == mine
    for bad in (
        {**mine, "auto_win": 1},  # a number is not a boolean
        {**mine, "auto_pass": "some"},
        {**mine, "volume": 3},  # unknown key
        {k: v for k, v in mine.items() if k != "sort"},  # the whole object, every key
    ):
        r = client.put("/api/me/settings", json=bad, headers={"X-CSRF-Token": csrf(client)})
        assert r.status_code == 422, (bad, r.text)
    assert client.get("/api/me/settings").json() == mine
    register(client, "Other Olga")  # settings are per account
    assert client.get("/api/me/settings").json() == DEFAULTS


def test_a_guest_keeps_settings_in_the_browser_but_has_tables(any_client: TestClient) -> None:
    client = any_client
    client.cookies.clear()
    assert client.post("/guest", data={"csrf": csrf(client)}, follow_redirects=False).status_code
    r = client.get("/api/me/settings")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "guest"
    r = client.put("/api/me/settings", json=DEFAULTS, headers={"X-CSRF-Token": csrf(client)})
    assert r.status_code == 404
    assert client.get("/api/me/tables").json() == []
    r = client.post(
        "/api/tables",
        json={"kind": "practice", "length": "8-hands", "bots": ["easy", "master", "easy"]},
        headers={"X-CSRF-Token": csrf(client)},
    )
    assert r.status_code == 200, r.text
    public_id = r.json()["id"]
    (mine,) = client.get("/api/me/tables").json()
    assert mine["id"] == public_id and mine["url"] == f"/table/{public_id}"
    assert mine["kind"] == "practice" and mine["status"] in ("waiting", "playing")
    assert mine["rules"] == {"name": "parlor", "preset": "parlor"}
    assert [p["kind"] for p in mine["players"]] == ["human", "bot", "bot", "bot"]
    assert mine["players"][2]["bot"] == "master"
    assert (mine["length"], mine["hand_number"], mine["stake"]) == ("8-hands", 0, None)


def test_my_tables_lists_open_tables_and_not_the_others(client: TestClient) -> None:
    register(client, "Table Tom")
    token = csrf(client)
    made = client.post(
        "/api/tables",
        json={"kind": "online", "level": 1, "length": "online"},
        headers={"X-CSRF-Token": token},
    ).json()["id"]
    (listed,) = client.get("/api/me/tables").json()
    assert listed["id"] == made and listed["status"] == "waiting" and listed["stake"] == 192
    r = client.post(f"/api/tables/{made}/leave", json={}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    assert client.get("/api/me/tables").json() == []  # not seated there any more
    register(client, "Stranger Sue")
    assert client.get("/api/me/tables").json() == []
