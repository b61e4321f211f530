"""聯賽 the league pages and API: the list, a league's page with its stated rules, sign-up and
withdrawal for registered players (forms and JSON), refusals translated, every page in 繁/简/English
with no text of another script."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import cheap_argon2
from tests.web.scriptcheck import foreign_chars, visible_text

from hkmahjong.parlor.league import League, LeagueConfig, LeagueDesk
from hkmahjong.rules import get_preset
from hkmahjong.server.app import create_app
from hkmahjong.server.i18n import LANGS
from hkmahjong.server.settings import Settings


def desk(client: TestClient) -> LeagueDesk:
    found = client.app.state.leagues  # type: ignore[attr-defined]
    assert isinstance(found, LeagueDesk)
    return found


def make(client: TestClient, name: str = "Spring Cup", **kw: object) -> League:
    now = datetime.now(UTC)
    settings: dict[str, object] = {
        "signup_opens": now - timedelta(hours=1),
        "signup_closes": now + timedelta(hours=1),
    }
    settings.update(kw)
    preset = "ml" if settings.get("length") == "one-hand" else "parlor"
    config = LeagueConfig.of(name, get_preset(preset), **settings)  # type: ignore[arg-type]
    return desk(client).create(config, seed="web")


def csrf(client: TestClient) -> str:
    return str(client.get("/api/me").json()["csrf"])


def register(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post(
        "/register",
        data={"name": name, "password": "long password", "csrf": csrf(client)},
        follow_redirects=False,
    )
    assert r.status_code == 303


def jade(client: TestClient) -> int:
    return int(client.get("/api/me").json()["jade"])


def post_form(client: TestClient, path: str, token: str | None = None) -> str:
    r = client.post(path, data={"csrf": token or csrf(client)}, follow_redirects=False)
    assert r.status_code == 303
    return str(r.headers["location"])


def test_sign_up_and_withdraw_through_the_league_page(client: TestClient) -> None:
    league = make(client, entry_fee=10, stake=100, guarantee=50)
    page = client.get("/leagues?lang=en").text
    assert "Spring Cup" in page and "Entry fee 10 + stake 100 jade" in page
    assert "<td>50 jade</td>" in page  # the pool as promised: no stakes yet + the guarantee
    anonymous = client.get(f"/leagues/{league.id}?lang=en").text
    assert "Log in to sign up." in anonymous and 'data-testid="league-join"' not in anonymous
    register(client, "Ah Ming")
    before = jade(client)
    html = client.get(f"/leagues/{league.id}?lang=en").text
    assert 'data-testid="league-join"' in html
    assert "bots (normal)" not in html and "bots (Normal)" in html  # the fill rule is stated
    assert "Table points first, then the best single match" in html
    assert "Rolled out (cancelled after it started)" in html
    where = post_form(client, f"/leagues/{league.id}/join")
    assert where == f"/leagues/{league.id}?done=joined"
    assert jade(client) == before - 110
    html = client.get(where + "&lang=en").text
    assert "You are signed up." in html and 'data-testid="league-leave"' in html
    assert '<li class="you">Ah Ming</li>' in html
    assert post_form(client, f"/leagues/{league.id}/leave").endswith("?done=left")
    assert jade(client) == before
    assert post_form(client, f"/leagues/{league.id}/leave").endswith("?error=not_entered")
    html = client.get(f"/leagues/{league.id}?error=not_entered&lang=zh-Hant").text
    assert "你未報名。" in html
    assert post_form(client, f"/leagues/{league.id}/join", "forged").endswith("?error=csrf")


def test_refusals_come_back_as_translated_errors(client: TestClient) -> None:
    rich = make(client, "Rich", stake=10**9)
    closed = make(
        client,
        "Later",
        signup_opens=datetime.now(UTC) + timedelta(days=1),
        signup_closes=datetime.now(UTC) + timedelta(days=2),
    )
    r = client.post("/guest", data={"csrf": csrf(client)}, follow_redirects=False)
    assert r.status_code == 303
    assert post_form(client, f"/leagues/{rich.id}/join").endswith("?error=guest")
    register(client, "Ah Ying")
    assert post_form(client, f"/leagues/{rich.id}/join").endswith("?error=balance")
    assert "你的玉不夠付手續費和賭注。" in client.get(f"/leagues/{rich.id}?error=balance").text
    assert post_form(client, f"/leagues/{closed.id}/join").endswith("?error=closed")
    assert "Sign-up has not opened yet." in client.get(f"/leagues/{closed.id}?lang=en").text
    assert client.get("/leagues/999").status_code == 404
    assert client.post("/leagues/999/join", data={"csrf": csrf(client)}).status_code == 404
    client.cookies.clear()
    where = post_form(client, f"/leagues/{rich.id}/join")
    assert where.startswith("/login?next=")


def test_the_json_api(client: TestClient) -> None:
    league = make(client, stake=100, prizes=(60, 40))
    assert client.get("/api/leagues").json()[0]["prizes"] == [60, 40]
    register(client, "Api Player")
    token = {"X-CSRF-Token": csrf(client)}
    assert client.post(f"/api/leagues/{league.id}/join").status_code == 403  # no CSRF token
    r = client.post(f"/api/leagues/{league.id}/join", headers=token)
    assert r.status_code == 200 and r.json()["players"] == 1
    body = client.get(f"/api/leagues/{league.id}").json()
    assert body["entrants"][0]["name"] == "Api Player" and body["pool"] == 100
    assert [d["kind"] for d in body["log"]] == ["created", "joined"]
    r = client.post(f"/api/leagues/{league.id}/leave", headers=token)
    assert r.json()["players"] == 0
    r = client.post(f"/api/leagues/{league.id}/leave", headers=token)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "not_entered"
    client.cookies.clear()
    assert client.post(f"/api/leagues/{league.id}/join", headers=token).status_code in (401, 403)


def test_the_page_and_the_api_say_what_share_of_the_fees_joins_the_pool(
    client: TestClient,
) -> None:
    league = make(client, "Fee Cup", entry_fee=10, stake=0, guarantee=50, fee_to_pool=80)
    d = desk(client)
    auth = client.app.state.auth  # type: ignore[attr-defined]
    for name in ("Alice", "Bob"):
        d.join(league.id, auth.register(name, "long password").id, name)
    body = client.get(f"/api/leagues/{league.id}").json()
    assert body["fee_to_pool"] == 80 and body["pool"] == 50 + 16  # 80% of 2 × 10
    html = client.get(f"/leagues/{league.id}?lang=zh-Hant").text
    assert "手續費的 80% 撥入獎池" in html and "66 玉" in html


def _played_league(client: TestClient) -> League:
    """A league with Latin-named entrants, a round played, then rolled out."""
    league = make(client, "Autumn", entry_fee=5, stake=50, fill="byes", rounds=2)
    d = desk(client)
    auth = client.app.state.auth  # type: ignore[attr-defined]
    for name in ("Alice", "Bob", "Carol", "Dave", "Eve"):
        user = auth.register(name, "long password")
        d.join(league.id, user.id, name)
    d.start(league.id, early=True)
    d.record(league.id, 1, 1, [30, 10, -15, -25])
    return d.cancel(league.id, "the hall flooded")


@pytest.mark.parametrize("lang", LANGS)
def test_league_pages_hold_no_text_of_another_script(client: TestClient, lang: str) -> None:
    league = _played_league(client)
    make(client, "Free Roll", guarantee=100)
    for path in ("/leagues", f"/leagues/{league.id}"):
        html = client.get(f"{path}?lang={lang}").text
        text = visible_text(html, lang)
        assert not foreign_chars(text, lang), (path, sorted(foreign_chars(text, lang)))
    html = client.get(f"/leagues/{league.id}?lang={lang}").text
    for testid in ("league-standings", "league-round-1", "league-payouts", "league-log"):
        assert f'data-testid="{testid}"' in html
    assert "the hall flooded" in html  # the reason, as logged


def test_a_played_league_page_shows_standings_byes_and_payouts(client: TestClient) -> None:
    league = _played_league(client)
    html = client.get(f"/leagues/{league.id}?lang=en").text
    assert "Cancelled (rolled out)" in html and "Byes: " in html
    assert "Pool: by table points" in html and "Fee refunded" in html
    standings = html.split('data-testid="league-standings"')[1].split("</table>")[0]
    assert standings.count("<tr") == 6  # the header and five entrants
    assert "nav" in html and 'href="/leagues" aria-current="page"' in html


def test_a_league_round_is_played_at_the_parlors_tables_to_the_prizes(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server opens each match's table, seats the entrants, collects the table points when
    the match ends and pays the prizes (entrants who never come are sat out and played for)."""
    monkeypatch.setenv("HKMJ_LEAGUE_SYNC_SECONDS", "0.1")
    monkeypatch.setenv(
        "HKMJ_TABLE_CLOCKS",
        json.dumps({"turn_ms": 50, "claim_ms": 50, "bank_ms": 0, "discard_delay_ms": 0,
                    "bot_ms": 0, "next_hand_ms": 0, "grace_ms": 100}),
    )  # fmt: skip
    app = create_app(settings, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        league = make(client, "Live Cup", stake=100, length="one-hand", rounds=1, min_players=2)
        d = desk(client)
        auth = client.app.state.auth  # type: ignore[attr-defined]
        for name in ("Ann", "Ben", "Cat"):
            d.join(league.id, auth.register(name, "long password").id, name)
        d.start(league.id, early=True)
        table_id = f"lg{league.id}r1t1"
        running = client.get(f"/api/leagues/{league.id}").json()
        seated = datetime.fromisoformat(running["rounds"][0]["seated_at"])
        assert running["round_minutes"] == 60
        assert datetime.fromisoformat(running["round_ends"]) == seated + timedelta(minutes=60)
        client.cookies.clear()  # anyone, not seated, not logged in
        for _ in range(300):
            if d.get(league.id).rounds[0].matches[0].table_id:
                break
            time.sleep(0.1)
        page = client.get(f"/leagues/{league.id}?lang=en").text
        if not d.get(league.id).rounds[0].matches[0].over:  # (a fast machine may be done)
            assert f'href="/table/{table_id}" data-testid="league-table-link">Watch</a>' in page
            ends = datetime.fromisoformat(running["round_ends"])
            # in UTC for a page without scripts; app.js shows it in the browser's zone
            assert f'data-local="full">{ends:%Y-%m-%d %H:%M} UTC</time>' in page
        info = client.get(f"/api/tables/{table_id}")
        assert info.status_code == 200 and info.json()["you"] is None  # 旁觀: watchable
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            ws.send_json({"t": "hello", "proto": 1})
            snap = ws.receive_json()
            assert snap["t"] == "snapshot" and snap["table"]["you"] is None
            assert snap["prompt"] is None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            body = client.get(f"/api/leagues/{league.id}").json()
            if body["status"] == "finished":
                break
            time.sleep(0.2)
        assert body["status"] == "finished", body["log"][-3:]
        match = body["rounds"][0]["tables"][0]
        assert match["table_id"] == table_id and match["names"].count(None) == 1
        assert client.get("/api/lobby").json() == []  # league tables are not in the lobby
        assert sum(p["amount"] for p in body["payouts"]) == 300
        html = client.get(f"/leagues/{league.id}?lang=en").text
        assert f'href="/matches/{table_id}"' in html  # the match's record once it ended
        assert client.get(f"/matches/{table_id}?lang=en").status_code == 200


@pytest.mark.parametrize("value", ["soon", "0", "nan", "-1", "99999"])
def test_a_bad_league_sync_interval_is_refused_by_name(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("HKMJ_LEAGUE_SYNC_SECONDS", value)
    with pytest.raises(ValueError, match="HKMJ_LEAGUE_SYNC_SECONDS"):
        create_app(settings, password_hash=cheap_argon2())
