"""繁體 / 简体 / English: every page in each language holds no text of another script.

The visible text of a page (not scripts, styles or attributes) is checked character by character:
a 繁體 page has no character that exists only in simplified Chinese, a 简体 page none that exists
only in traditional Chinese, an English page no Chinese at all. Exempt: tile names (a tile is
named in Chinese everywhere), seed citations (``class="src"``, quoted as the seed wrote them) and
elements marked with another ``lang`` (the language switcher's own names).
"""

from __future__ import annotations

from html.parser import HTMLParser

import hanzidentifier
import pytest
from fastapi.testclient import TestClient

from hkmahjong.server.i18n import LANGS, WORDS
from hkmahjong.tiles import Tile

PAGES = [
    "/",
    "/login",
    "/register",
    "/practice",
    "/rules",
    "/rules?preset=ml",
    "/tutorial",
    "/tutorial?preset=qingzhang",
    "/calculator",
    "/offline",
    "/table/abc",
]
_VOID = {"img", "input", "br", "meta", "link", "hr", "source", "area", "base", "col", "wbr"}
# Written alike in both scripts in Hong Kong mahjong terms, but missing from hanzidentifier's
# traditional or simplified lists: 幺 (十三幺, 花幺九), 冚 (冚手糊).
BOTH_SCRIPTS = frozenset("幺冚")
TILE_NAMES = sorted({n for t in Tile for n in (t.zh, t.zh_hans)}, key=len, reverse=True)


class _Text(HTMLParser):
    """Collects the visible text outside exempt elements."""

    def __init__(self, lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = lang
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        a = dict(attrs)
        exempt = (
            tag in ("script", "style", "title")
            or "src" in (a.get("class") or "").split()
            or (a.get("lang") not in (None, self.lang))
        )
        self.stack.append(exempt or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def visible_text(html: str, lang: str) -> str:
    parser = _Text(lang)
    parser.feed(html)
    text = " ".join(parser.parts)
    for name in TILE_NAMES:
        text = text.replace(name, " ")
    return text


def _cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def foreign_chars(text: str, lang: str) -> set[str]:
    """Characters of ``text`` that do not belong to ``lang``'s script."""
    bad: set[str] = set()
    for ch in set(text):
        if not _cjk(ch) or (lang != "en" and ch in BOTH_SCRIPTS):
            continue
        if (
            lang == "en"
            or (lang == "zh-Hant" and not hanzidentifier.is_traditional(ch))
            or (lang == "zh-Hans" and not hanzidentifier.is_simplified(ch))
        ):
            bad.add(ch)
    return bad


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
