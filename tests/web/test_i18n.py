"""繁體 / 简体 / English: every page in each language holds no text of another script.

The visible text of a page (not scripts, styles or attributes) is checked character by character:
a 繁體 page has no character that exists only in simplified Chinese, a 简体 page none that exists
only in traditional Chinese, an English page no Chinese at all. Exempt: tile names (a tile is
named in Chinese everywhere), seed citations (``class="src"``, quoted as the seed wrote them) and
elements marked with another ``lang`` (the language switcher's own names).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hkmahjong.server.i18n import LANGS, WORDS

from .scriptcheck import foreign_chars, visible_text

PAGES = [
    "/",
    "/login",
    "/register",
    "/practice",
    "/practice?preset=ml",
    "/tables/new",
    "/rules",
    "/rules?preset=ml",
    "/tutorial",
    "/tutorial?preset=qingzhang",
    "/calculator",
    "/offline",
    "/table/abc",
    "/replay/abc",
    "/leagues",
    "/leaderboard",
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", PAGES)
def test_page_has_no_text_of_another_script(client: TestClient, path: str, lang: str) -> None:
    sep = "&" if "?" in path else "?"
    html = client.get(f"{path}{sep}lang={lang}").text
    text = visible_text(html, lang)
    assert len(text.strip()) > 20
    bad = foreign_chars(text, lang)
    assert not bad, f"{path} [{lang}] shows {sorted(bad)} in: " + ", ".join(
        sorted({w for w in text.split() if set(w) & bad})[:12]
    )


@pytest.mark.parametrize("key", sorted(WORDS))
def test_every_word_is_in_its_script(key: str) -> None:
    for lang, text in zip(LANGS, WORDS[key], strict=True):
        assert not foreign_chars(text, lang), f"{key} [{lang}]: {text!r}"


def test_the_checker_catches_a_mixed_page() -> None:
    assert foreign_chars("規則 规则", "zh-Hant") == {"规", "则"}
    assert foreign_chars("規則 规则", "zh-Hans") == {"規", "則"}
    assert foreign_chars("Rules 規則", "en") == {"規", "則"}
    html = '<p>门前清</p><cite class="src">門前清</cite><b lang="zh-Hans">简体</b>'
    assert foreign_chars(visible_text(html, "zh-Hant"), "zh-Hant") == {"门"}


def test_table_client_converts_every_payment_reason_to_simplified() -> None:
    # The engine's payment reasons (PaymentLine.reason_zh) are 繁體; the board (board.js, shared by
    # the table and the replays) shows them on 简体 pages through its T2S map, which must cover
    # every character they can hold.
    root = Path(__file__).resolve().parents[2] / "src" / "hkmahjong"
    source = (root / "scoring" / "payment.py").read_text(encoding="utf-8")
    js = (root / "server" / "web" / "static" / "js" / "board.js").read_text(encoding="utf-8")
    block = re.search(r"const T2S = \{(.*?)\};", js)
    assert block is not None
    mapped = dict(re.findall(r'(\S): "(\S)"', block.group(1)))
    for ch in sorted({c for c in source if "\u4e00" <= c <= "\u9fff"}):
        simplified = mapped.get(ch, ch)
        assert not foreign_chars(simplified, "zh-Hans"), f"{ch} needs a T2S entry in board.js"
