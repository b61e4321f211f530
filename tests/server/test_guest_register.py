"""A guest who registers keeps what it played (issue 30 item 14): the guest's matches, hands and
statistics are the new account's, under the new name; the account gets its starting jade like
any other; a registered player's new account (a second registration from a logged-in session)
takes nothing of theirs; the refused name comes back with the reason in the page's words."""

from __future__ import annotations

import asyncio
from html import unescape

import pytest
from fastapi.testclient import TestClient
from tests.parlor.test_history import HANDS

from hkmahjong.parlor.history import TableFacts, TableResults, summarize_match
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.server.i18n import LANGS, tr
from hkmahjong.server.store import Store
from hkmahjong.server.store.history import keep_results
from hkmahjong.server.store.tables import SqlTableStore

CONFIG = {"kind": "practice", "rules": {"preset": "parlor", "digest": "d1"}, "length": "8-hands"}


def me(client: TestClient) -> dict[str, object]:
    user = client.get("/api/me").json()["user"]
    assert isinstance(user, dict)
    return user


def register(client: TestClient, name: str) -> object:
    token = client.get("/api/me").json()["csrf"]
    return client.post(
        "/register",
        data={"name": name, "password": "long password", "confirm": "long password", "csrf": token},
        follow_redirects=False,
    )


def played(store: Store, user: int, name: str) -> None:
    """``user`` played the six hands of tests/parlor/test_history.py and finished the match
    (a practice table: no stake, no jade)."""
    row = TableRow(0, f"p{user}", "practice", "finished", CONFIG, "d1", "00" * 32)
    seats = [SeatRow(0, user, name, None, "away")] + [
        SeatRow(p, None, f"easy-bot-{p + 1}", "easy", "bot") for p in (1, 2, 3)
    ]
    table_id = asyncio.run(SqlTableStore(store).create(row, seats))
    facts = TableFacts(
        "practice",
        "parlor",
        "d1",
        (name, "easy-bot-2", "easy-bot-3", "easy-bot-4"),
        (user, None, None, None),
        (None, "easy", "easy", "easy"),
        length="8-hands",
    )
    match = summarize_match([336, -144, 24, -216], 6)
    with store.session() as s:
        keep_results(s, table_id, TableResults(facts, tuple(HANDS), match))


def test_a_guest_who_registers_keeps_its_matches_and_hands(client: TestClient) -> None:
    token = client.get("/api/me").json()["csrf"]
    client.post("/guest", data={"csrf": token}, follow_redirects=False)  # 以訪客身分玩
    guest = me(client)
    assert guest["is_guest"] is True
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    played(store, int(str(guest["id"])), str(guest["name"]))
    assert register(client, "Ah Fai").status_code == 303  # type: ignore[attr-defined]
    now = me(client)
    assert now["name"] == "Ah Fai" and now["is_guest"] is False
    assert now["id"] == guest["id"]  # the same player: every row kept by id is theirs
    stats = client.get("/api/players/Ah Fai/stats").json()
    assert stats["hands"]["hands"] == 6 and stats["matches"]["matches"] == 1
    html = unescape(client.get("/players/Ah Fai?lang=en").text)
    assert 'data-stat="hands">6<' in html
    assert str(guest["name"]) not in html  # the match is listed under the new name
    assert client.get("/api/me").json()["jade"] > 0  # the starting grant, as for any account


def test_a_new_account_from_a_registered_session_takes_nothing(client: TestClient) -> None:
    assert register(client, "Ah Ming").status_code == 303  # type: ignore[attr-defined]
    first = me(client)
    played(client.app.state.store, int(str(first["id"])), "Ah Ming")  # type: ignore[attr-defined]
    assert register(client, "Ah Kei").status_code == 303  # type: ignore[attr-defined]
    second = me(client)
    assert second["id"] != first["id"]
    assert client.get("/api/players/Ah Kei/stats").json()["hands"]["hands"] == 0
    assert client.get("/api/players/Ah Ming/stats").json()["hands"]["hands"] == 6


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("name", "key", "said"),
    [
        ("a" * 25, "err_name_too_long", {"n": 25, "max": 24}),
        ("ah<ming>", "err_name_chars", {"chars": "< >"}),
        ("-ahming", "err_name_ends", {}),
        ("guest-7", "err_name_reserved", {}),
    ],
)
def test_a_refused_name_says_why_and_is_kept(
    client: TestClient, lang: str, name: str, key: str, said: dict[str, object]
) -> None:
    client.cookies.set("hkmj_lang", lang)
    response = register(client, name)
    page = client.get(response.headers["location"])  # type: ignore[attr-defined]
    html = unescape(page.text)
    error = html.split('data-testid="form-error">', 1)[1].split("</p>", 1)[0]
    if key == "err_name_chars":
        quote = "“{}”" if lang == "en" else "「{}」"
        said = {"chars": tr(lang, "comma").join(quote.format(c) for c in "<>")}
    assert error == tr(lang, key, **said)
    assert f'value="{name}"' in html  # the form keeps what was typed
