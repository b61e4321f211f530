"""The parlor's pages: every page in every language, language switching, escaping, static files."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from hkmahjong.rules.presets import get_preset
from hkmahjong.rules.ruleset import SWITCHES
from hkmahjong.scoring import score_hand
from hkmahjong.server.i18n import LANGS, SWITCH_DOCS, negotiate, tr
from hkmahjong.server.tutorial import worked_examples

from .scriptcheck import foreign_chars

PAGES = [
    "/",
    "/login",
    "/register",
    "/practice",
    "/tables/new",
    "/rules",
    "/tutorial",
    "/calculator",
    "/offline",
    "/leagues",
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_in_every_language(client: TestClient, path: str, lang: str) -> None:
    r = client.get(path, params={"lang": lang})
    assert r.status_code == 200
    assert f'<html lang="{lang}">' in r.text
    assert tr(lang, "brand") in r.text
    assert r.headers["content-language"] == lang


def test_language_is_remembered_in_a_cookie(client: TestClient) -> None:
    r = client.get("/lang/en", params={"next": "/rules"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rules"
    assert "hkmj_lang=en" in r.headers["set-cookie"]
    assert '<html lang="en">' in client.get("/rules").text
    client.get("/lang/zh-Hans", follow_redirects=False)
    assert '<html lang="zh-Hans">' in client.get("/").text


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "\\\\x", ""])
def test_language_switch_never_redirects_off_site(client: TestClient, target: str) -> None:
    r = client.get("/lang/en", params={"next": target}, follow_redirects=False)
    assert r.headers["location"] == "/"


def test_unknown_language_is_404(client: TestClient) -> None:
    assert client.get("/lang/fr", follow_redirects=False).status_code == 404


def test_negotiation_order() -> None:
    assert negotiate(None, None, None) == "zh-Hant"
    assert negotiate(None, None, "en-GB,en;q=0.8") == "en"
    assert negotiate(None, None, "zh-TW") == "zh-Hant"
    assert negotiate("zh-Hans", "en", "zh-TW") == "en"
    assert negotiate("xx", None, "fr, zh-Hans-CN;q=0.5") == "zh-Hans"


def test_form_values_are_escaped(client: TestClient) -> None:
    evil = '"><script>alert(1)</script>'
    r = client.get("/login", params={"name": evil, "error": "<b>x</b>"})
    assert "<script>alert(1)</script>" not in r.text
    assert "&lt;script&gt;" in r.text or "&#34;&gt;&lt;script" in r.text
    assert "<b>x</b>" not in r.text
    assert tr("zh-Hant", "err_unknown") in r.text


def test_here_link_is_escaped(client: TestClient) -> None:
    r = client.get('/rules?x="><img src=x onerror=alert(1)>')
    assert "onerror=alert(1)>" not in r.text


def test_login_errors_are_translated(client: TestClient) -> None:
    r = client.get("/login", params={"error": "bad_login", "lang": "en"})
    assert tr("en", "err_bad_login") in r.text


def test_tutorial_shows_the_calculators_numbers(client: TestClient) -> None:
    html = client.get("/tutorial", params={"lang": "en", "preset": "parlor"}).text
    ruleset = get_preset("parlor")
    for fan_id, ex in worked_examples("parlor"):
        assert ex is not None
        block = html.split(f'id="fan-{fan_id.value}"', 1)[1].split('class="example"', 1)[0]
        result = score_hand(ex.hand, ex.ctx, ruleset)
        total = tr(
            "en", "example_limit" if result.is_limit else "example_total", n=result.total_fan
        )
        assert total in block, fan_id
        for tile in ex.hand.concealed:
            assert f'data-tile="{tile.mpsz}"' in block


def test_tutorial_other_preset_and_unknown_preset(client: TestClient) -> None:
    assert "ML" in client.get("/tutorial", params={"preset": "ml", "lang": "en"}).text
    assert client.get("/tutorial", params={"preset": "nope"}).status_code == 404


def test_rules_page_shows_the_rulesets_values(client: TestClient) -> None:
    html = client.get("/rules", params={"lang": "en", "preset": "qingzhang"}).text
    rs = get_preset("qingzhang")
    assert tr("en", "rp_value", v=tr("en", "rp_turn_v", n=rs.min_fan)) in html
    for name in ("seven_pairs", "dead_wall", "multiple_winners"):  # by name in words, not code
        assert f'data-switch="{name}"><td>{tr("en", f"rs_{name}")}</td>' in html
        assert f"<code>{name}</code>" not in html


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("preset", ["parlor", "qingzhang", "ml"])
def test_rules_page_describes_every_switch_in_chinese(
    client: TestClient, lang: str, preset: str
) -> None:
    """The rules page (seed 003 規則) lists every house-rule switch (``hkmj rules``) by its name in
    words, its value in words and its description in the page's language: on a 繁體 / 简体 page
    none is English (the seed names W1 W2 C P ML aside, explained in the page's legend)."""
    html = client.get("/rules", params={"lang": lang, "preset": preset}).text
    rows = re.findall(
        r'<tr id="switch-([a-z_]+)" data-switch="[a-z_]+"><td>(.*?)</td>'
        r'<td data-testid="switch-value">(.*?)</td>'
        r'<td data-testid="switch-doc"><small>(.*?)</small></td></tr>',
        html,
    )
    assert [name for name, *_ in rows] == list(SWITCHES)
    for name, label, value, marked in rows:
        doc = re.sub(r"<[^>]+>", "", marked)  # its text (source codes are <abbr> links)
        for shown in (label, value, doc):
            assert not re.search(r"[a-z]+_[a-z_]+", shown), f"{name}: a raw name in {shown!r}"
        assert re.search(r"[\u4e00-\u9fff]", doc + label), f"{name}: no Chinese in {doc!r}"
        words = set(re.findall(r"[A-Za-z_]{3,}", doc))
        assert not words, f"{name} [{lang}]: English words {sorted(words)} in {doc!r}"
        assert not foreign_chars(doc + label + value, lang)


def test_every_switch_has_a_description_in_both_chinese_scripts() -> None:
    assert set(SWITCH_DOCS) == set(SWITCHES)
    for name, (hant, hans) in SWITCH_DOCS.items():
        assert not foreign_chars(hant, "zh-Hant"), name
        assert not foreign_chars(hans, "zh-Hans"), name
        assert hant != hans or not re.search(r"[\u4e00-\u9fff]", hant), name


def test_static_files_and_traversal(client: TestClient) -> None:
    r = client.get("/static/tiles/5p.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    again = client.get("/static/tiles/5p.svg", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304
    for bad in ("/static/../pages.py", "/static/%2e%2e/pages.py", "/static/nope.js"):
        assert client.get(bad).status_code == 404


def test_manifest_and_service_worker(client: TestClient) -> None:
    m = client.get("/manifest.webmanifest", params={"lang": "en"})
    body = json.loads(m.text)
    assert body["start_url"] == "/" and body["display"] == "standalone"
    sizes = {i["sizes"] for i in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert client.get(icon["src"]).status_code == 200
    sw = client.get("/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript")
    assert "__VERSION__" not in sw.text and re.search(r'"hkmj-[0-9a-f]{10}"', sw.text)
    assert '"/offline"' in sw.text


def _form_csrf(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has no CSRF field"
    return m.group(1)


def test_register_form_works_with_its_own_csrf_and_shows_name_and_jade(client: TestClient) -> None:
    page = client.get("/register", params={"lang": "en"}).text
    assert 'name="confirm"' in page and 'name="lang" value="en"' in page
    r = client.post(
        "/register",
        data={
            "csrf": _form_csrf(page),
            "name": "阿明",
            "password": "correct horse",
            "confirm": "correct horse",
            "lang": "en",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/"
    home = client.get("/").text
    assert '<span class="who" data-testid="user-name">阿明</span>' in home
    jade = re.search(r'data-testid="user-jade">([^<]+)<', home)
    assert jade and jade.group(1).split()[0].isdigit()
    out = client.post("/logout", data={"csrf": _form_csrf(home)}, follow_redirects=False)
    assert out.status_code == 303
    assert 'data-testid="user-name"' not in client.get("/").text


def test_login_form_errors_come_back_translated(client: TestClient) -> None:
    page = client.get("/login", params={"lang": "zh-Hans"}).text
    r = client.post(
        "/login",
        data={"csrf": _form_csrf(page), "name": "nobody", "password": "wrong password"},
    )
    assert tr("zh-Hans", "err_bad_login") in r.text


def test_guest_button_posts_to_guest_and_lands_on_practice(client: TestClient) -> None:
    home = client.get("/").text
    assert 'action="/guest"' in home and 'name="next" value="/practice"' in home
    r = client.post("/guest", data={"csrf": _form_csrf(home), "next": "/practice"})
    assert r.url.path == "/practice"
    assert tr("zh-Hant", "guest") in r.text
    assert 'data-testid="practice-link"' in client.get("/").text


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_table_is_a_404_page(client: TestClient, lang: str) -> None:
    """Issue 30 item 10: not an empty board saying the others are thinking."""
    r = client.get("/table/no-such-table", params={"lang": lang})
    assert r.status_code == 404
    assert tr(lang, "not_found") in r.text and 'id="table-app"' not in r.text


def test_practice_page_offers_the_lengths_of_the_chosen_ruleset(client: TestClient) -> None:
    """The parlor's practice lengths (四圈, 八局, 十六局, 打至破產; no 單局), ml's (單局, 東圈,
    四圈), as GET /api/table-options gives them; bot levels as the API takes them."""
    options = client.get("/api/table-options", params={"kind": "practice"}).json()
    page = client.get("/practice").text
    shown = re.findall(r'name="length" value="([^"]+)"', page)
    assert shown == [x["value"] for x in options["lengths"]] and "one-hand" not in shown
    levels = re.findall(r'name="bots" value="([^"]+)"', page)
    assert levels == [x["value"] for x in options["bot_levels"]]
    ml = client.get("/practice", params={"preset": "ml"}).text
    assert re.findall(r'name="length" value="([^"]+)"', ml)[0] == "one-hand"
    assert 'value="ml" selected' in ml


def test_leaderboard_ties_share_a_rank() -> None:
    """Issue 30 item 8: equal ratings (as shown) share a rank, 1= 1= 3, and a tie is said."""
    from types import SimpleNamespace

    from hkmahjong.server.pages import _env

    def rating(mu: float, sigma: float) -> SimpleNamespace:
        return SimpleNamespace(mu=mu, sigma=sigma, ordinal=mu - 3 * sigma)

    rows = [
        SimpleNamespace(user_id=1, name="Ann", rating=rating(25, 8), value=12, matches=1),
        SimpleNamespace(user_id=2, name="Bo", rating=rating(25, 8), value=12, matches=1),
        SimpleNamespace(user_id=3, name="Cy", rating=rating(20, 8), value=-24, matches=1),
    ]
    for by in ("rating", "jade"):
        html = _env().get_template("leaderboard.html").render(
            t=lambda k, **f: tr("en", k, **f), words={}, lang_names={}, lang="en", here="/",
            user=None, jade=None, csrf="", asset_version="x", families=[], family="parlor",
            by=by, rows=rows, ordinal=lambda r: f"{r.ordinal:.1f}", signed=str,
        )  # fmt: skip
        ranks = re.findall(r'data-testid="rank"[^>]*>([^<]*)<', html)
        assert ranks == ["1=", "1=", "3"], (by, ranks)
