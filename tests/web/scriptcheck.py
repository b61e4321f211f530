"""Script checks shared by the page and browser tests: the visible text of a page and the
characters in it that do not belong to the page's language (繁體 / 简体 / English).

Exempt: tile names (a tile is named in Chinese everywhere), seed citations (``class="src"``, quoted
as the seed wrote them) and elements marked with another ``lang`` (the language switcher's names).
"""

from __future__ import annotations

from html.parser import HTMLParser

import hanzidentifier

from hkmahjong.tiles import Tile

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
    """The text a reader sees in ``html`` outside exempt elements, tile names removed."""
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


def strip_tile_names(text: str) -> str:
    """``text`` without any tile's Chinese name."""
    for name in TILE_NAMES:
        text = text.replace(name, " ")
    return text
