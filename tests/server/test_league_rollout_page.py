"""The league page after a 滾出 shows what happened (issue 31 items 6 and 10).

Seed 002 《滾出》: "如果聯賽被滾出,這指聯賽已開始了但被取消. 那麼我們會退還手續費給每位已參加聯賽的玩家.
而獎池會因以下方法去分配 百分之五十的獎池會平均地分配給各玩家. 百分之五十的獎池會根據玩家的牌桌積分而
按比例地分配。… 請注意涉及滾出聯賽獎池會由人手計算,所以退款會需要一些時間。"
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient
from tests.server.test_league_web import desk, make
from tests.web.scriptcheck import foreign_chars, visible_text

from hkmahjong.parlor.league import League
from hkmahjong.server.i18n import LANGS, tr


def _rolled_out(client: TestClient) -> League:
    """Four entrants, fee 10 (90% of it would join the pool if the league finished), stake 75,
    guarantee 17: a pool of 317 (4 × 75 + 17), 353 with the fee share; round 1 played, round 2
    seated and never finished, then rolled out."""
    league = make(
        client, "Rain Cup", entry_fee=10, stake=75, guarantee=17, fee_to_pool=90, rounds=2
    )
    d = desk(client)
    auth = client.app.state.auth  # type: ignore[attr-defined]
    for name in ("Alice", "Bob", "Carol", "Dave"):
        d.join(league.id, auth.register(name, "long password").id, name)
    started = d.start(league.id, early=True)
    assert started.prize_pool == 353 and started.pool == 317
    seats = started.rounds[0].matches[0].seats
    points = {seats[0]: 30, seats[1]: 10, seats[2]: -15, seats[3]: -25}
    d.record(league.id, 1, 1, [points[s] for s in seats if s is not None])
    running = d.get(league.id)
    assert len(running.rounds) == 2 and not running.rounds[1].over
    return d.cancel(league.id, "the hall flooded")


@pytest.mark.parametrize("lang", LANGS)
def test_a_rolled_out_league_shows_what_happened(client: TestClient, lang: str) -> None:
    league = _rolled_out(client)
    html = client.get(f"/leagues/{league.id}?lang={lang}").text
    # the unplayed round is not "playing"
    round2 = html.split('data-testid="league-round-2"', 1)[1].split("</ul>", 1)[0]
    assert tr(lang, "lg_playing") not in round2
    assert tr(lang, "lg_unplayed") in round2
    # the pool that was split, not the fee share that joins only a finished league
    split = sum(p.amount for p in league.payouts if p.kind.startswith("split_"))
    assert split == 317 == league.shown_pool
    pool = html.split('data-testid="league-pool"', 1)[1].split("</td>", 1)[0]
    assert "317" in pool and "353" not in pool
    assert re.search(r"\b158\b", pool) and re.search(r"\b159\b", pool)  # the two halves
    # what happened, negatives as 0 (seed silent) and paid at once (seed: by hand) — said so
    assert 'data-testid="league-outcome"' in html
    assert tr(lang, "lg_rollout_notes") in html
    text = visible_text(html, lang)
    assert not foreign_chars(text, lang), sorted(foreign_chars(text, lang))
    body = client.get(f"/api/leagues/{league.id}").json()
    assert body["pool"] == 317 and body["status"] == "rolled_out"


def test_the_points_half_is_split_by_largest_remainders(client: TestClient) -> None:
    """The points half (159) over table points 30 and 10 (−15 and −25 count as 0): exact shares
    119.25 and 39.75 → 119 and 40 by the largest remainder (by rank it was 120 and 39)."""
    league = _rolled_out(client)
    by_points = sorted((p.amount for p in league.payouts if p.kind == "split_points"), reverse=True)
    assert by_points == [119, 40]
    html = client.get(f"/leagues/{league.id}?lang=en").text
    assert "largest-remainder method" in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_league_page_says_why_its_stake_is_no_table_value(
    client: TestClient, lang: str
) -> None:
    """Issue 31 item 2 ("leagues likewise or say why not"): a league's stake buys a share of the
    pool; its tables carry no stake, so seed 002's 牌桌價值 does not apply — the page says so."""
    league = _rolled_out(client)
    html = client.get(f"/leagues/{league.id}?lang={lang}").text
    assert tr(lang, "lg_stake_note") in unescape(html)
