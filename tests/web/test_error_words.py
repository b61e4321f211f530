"""Every error code a table socket can send is said in the page's language (issue 30 item 11:
"server messages in English on Chinese pages"; issue 36: a failed commit "reported to the player
in their language"). table.js shows ``werr_<code>`` from the page's words, and the server's English
message only when no such word exists — so every code must have one."""

from __future__ import annotations

import re

import pytest

from hkmahjong.parlor.protocol import ErrorCode
from hkmahjong.server.i18n import LANGS, catalogue

HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", list(ErrorCode), ids=lambda c: c.value)
def test_every_error_code_has_words_in_each_language(lang: str, code: ErrorCode) -> None:
    words = catalogue(lang)
    said = words.get(f"werr_{code.value}")
    assert said, f"werr_{code.value} missing in {lang}: the page would show the server's English"
    if lang == "en":
        assert not HAN.search(said), said
    else:
        assert HAN.search(said), said
        assert not LATIN_WORD.search(said.replace("JSON", "")), f"English in {lang}: {said}"
