"""戰績頁: a player's record, their hands and matches page by page, a match's page and the
leaderboards (issue 18 "A player's page lists their matches and hands", "jade over time as a
chart", "leaderboards by rating and by jade, per ruleset family"), in 繁/简/English with no text
of another script; the numbers are the six hand-computed hands of tests/parlor/test_history.py."""

from __future__ import annotations

import asyncio
import re
from html import unescape

import pytest
from fastapi.testclient import TestClient
from tests.parlor.test_history import HANDS, A, D
from tests.server.people import register
from tests.web.scriptcheck import foreign_chars, visible_text

from hkmahjong.parlor.history import TableFacts, TableResults, summarize_hand, summarize_match
from hkmahjong.parlor.ledger import Transaction
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.server.i18n import LANGS
from hkmahjong.server.store import Store
from hkmahjong.server.store.history import keep_results
from hkmahjong.server.store.ledger import SqlLedger
from hkmahjong.server.store.tables import SqlTableStore

CONFIG = {"kind": "online", "rules": {"preset": "parlor", "digest": "d1"}, "length": "online"}


def table(store: Store, public_id: str, user: int, *, private: bool = False) -> int:
    row = TableRow(0, public_id, "online", "finished", CONFIG, "d1", "00" * 32, private=private)
    seats = [SeatRow(0, user, "Ah Ming", None, "away")] + [
        SeatRow(p, None, f"easy-bot-{p + 1}", "easy", "bot") for p in (1, 2, 3)
    ]
    return asyncio.run(SqlTableStore(store).create(row, seats))


def facts(user: int) -> TableFacts:
    return TableFacts(
        "online",
        "parlor",
        "d1",
        ("Ah Ming", "easy-bot-2", "easy-bot-3", "easy-bot-4"),
        (user, None, None, None),
        (None, "easy", "easy", "easy"),
        stake=500,
        fee=10,
    )


@pytest.fixture
def ming(client: TestClient) -> int:
    """Ah Ming has played the six hands (one match, stake 500, fee 10) and 60 more hands."""
    user = register(client, "Ah Ming")
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    t1 = table(store, "t1", user)
    match = summarize_match([336, -144, 24, -216], 6, stake=500, fee=10)
    more = tuple(summarize_hand(n, (0, 1, 2, 3), o, o["deltas"]) for n, o in enumerate([A, D] * 30))
    t2 = table(store, "t2", user)
    with store.session() as s:
        keep_results(s, t1, TableResults(facts(user), tuple(HANDS), match))
        keep_results(s, t2, TableResults(facts(user), more))
    ledger = SqlLedger(store)
    ledger.post_sync(Transaction.of(f"buyin:table:{t1}", "buy_in", {f"user:{user}": -510, "system:bots": -1500, **{f"escrow:table:{t1}:p{p}": 500 for p in range(4)}, "system:fees": 10 + 0}, "in"))  # fmt: skip
    return user


def test_the_player_page_shows_the_hand_computed_statistics(client: TestClient, ming: int) -> None:
    html = client.get("/players/Ah Ming?lang=en&rules=d1").text
    stat = dict(re.findall(r'data-stat="(\w+)">([^<]*)', html))
    assert stat["hands"] == "66"  # 6 + 60 more
    html = client.get("/players/ah%20ming?lang=en").text  # any case finds the player
    assert "Ah Ming&#39;s record" in html or "Ah Ming's record" in html
    assert "Full flush" in html and "Great three dragons" in html
    assert "Parlor (half-spicy): 3.0 (matches: 1)" in html  # rated once: μ − 3σ of the winner
    assert 'data-testid="jade-chart"' in html
    t1_only = client.get("/api/players/Ah Ming/stats").json()
    assert t1_only["hands"]["hands"] == 66 and t1_only["matches"]["jade"] == 326
    assert t1_only["matches"]["places"] == [1, 0, 0, 0]


def test_statistics_narrowed_to_one_table_kind_and_ruleset(client: TestClient, ming: int) -> None:
    none = client.get("/api/players/Ah Ming/stats?kind=practice").json()
    assert none["hands"]["hands"] == 0 and none["hands"]["win_rate"] is None
    other = client.get("/api/players/Ah Ming/stats?rules=nope").json()
    assert other["matches"]["matches"] == 0
    assert client.get("/api/players/nobody/stats").status_code == 404


def test_hands_and_matches_page_by_page(client: TestClient, ming: int) -> None:
    first = client.get("/players/Ah Ming/hands?lang=en").text
    assert "Page 1 of 2" in first and 'rel="next"' in first and 'rel="prev"' not in first
    assert first.count('<tr class="') + first.count("<tr>") >= 50
    second = client.get("/players/Ah Ming/hands?lang=en&page=2").text
    assert "Page 2 of 2" in second and "dealt in to easy-bot-3" in second
    rows = second.split('data-testid="hands"', 1)[1].split("</table>", 1)[0]
    assert "liable" not in rows  # Ah Ming was never liable
    assert "self-drawn, 13 fan" in second and "drawn" in second
    last = client.get("/players/Ah Ming/hands?page=999&lang=en").text
    assert "Page 2 of 2" in last
    matches = client.get("/players/Ah Ming/matches?lang=en").text
    assert 'href="/matches/t1"' in matches and "+326" in matches


def test_the_match_page_shows_every_hand_and_the_ledger_lines(
    client: TestClient, ming: int
) -> None:
    html = unescape(client.get("/matches/t1?lang=en").text)
    assert "easy-bot-2 won on easy-bot-3's discard" in html  # 一炮雙響: both winners
    assert "easy-bot-4 won on easy-bot-3's discard" in html
    assert "easy-bot-2 liable" in html and "13 fan in all limit" in html
    assert "easy-bot-4: false win" in html
    assert 'href="/replay/t1?hand=3"' in html  # each hand opens in the replay page
    assert "buy-in" in html and "Ah Ming -510" in html and "fees +10" in html
    hans = client.get("/matches/t1?lang=zh-Hans").text
    assert "包牌：独付全数（自摸）" in hans  # the engine's 繁體 reason in 简体
    hant = client.get("/matches/t1?lang=zh-Hant").text
    assert "包牌：獨付全數（自摸）" in hant and "對對糊" in hant
    assert client.get("/matches/nope").status_code == 404


def test_a_private_tables_match_page_is_for_its_players(client: TestClient, ming: int) -> None:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    table(store, "secret", ming, private=True)
    assert client.get("/matches/secret").status_code == 200  # Ah Ming sat there
    register(client, "Bo")
    assert client.get("/matches/secret").status_code == 404


def test_me_goes_to_your_own_record(client: TestClient, ming: int) -> None:
    r = client.get("/me", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/players/Ah%20Ming"
    assert 'data-testid="nav-me"' in client.get("/").text
    client.cookies.clear()
    r = client.get("/me", follow_redirects=False)
    assert r.headers["location"] == "/login?next=/me"
    assert client.get("/players/nobody").status_code == 404


def test_leaderboards_by_rating_and_by_jade(client: TestClient, ming: int) -> None:
    by_rating = client.get("/leaderboard?lang=en").text
    names = re.findall(r'<td><a href="/players/[^"]+">([^<]+)</a>', by_rating)
    assert names == ["Ah Ming"] and "bot (easy)" in by_rating
    by_jade = client.get("/leaderboard?by=jade&family=parlor&lang=en").text
    assert "+326" in by_jade
    assert "Nothing recorded yet." in client.get("/leaderboard?family=ml&lang=en").text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "path",
    ["/players/Ah Ming", "/players/Ah Ming/hands?page=2", "/players/Ah Ming/matches",
     "/matches/t1", "/leaderboard", "/leaderboard?by=jade", "/players/nobody"],
)  # fmt: skip
def test_history_pages_hold_no_text_of_another_script(
    client: TestClient, ming: int, path: str, lang: str
) -> None:
    sep = "&" if "?" in path else "?"
    html = client.get(f"{path}{sep}lang={lang}").text
    text = visible_text(html, lang)
    bad = foreign_chars(text, lang)
    assert not bad, f"{path} [{lang}] shows {sorted(bad)}"


def test_the_chart_keeps_the_shape_of_a_long_series() -> None:
    from datetime import UTC, datetime

    from hkmahjong.server.charts import line_chart

    at = datetime(2026, 12, 1, tzinfo=UTC)
    values = [1000 + (i % 50) * (1 if i % 100 < 50 else -1) for i in range(5000)]
    values[2500] = -400  # one deep trough must survive the thinning
    chart = line_chart(values, at, at)
    assert chart is not None and chart.count == 5000
    assert chart.low == -400 and chart.high == max(values) and chart.last == values[-1]
    assert len(chart.points.split()) <= 242 and chart.zero_y is not None
    flat = line_chart([500], at, at)
    assert flat is not None and flat.zero_y is None and len(flat.points.split()) == 2
    assert line_chart([], None, None) is None
