"""Times in the browser's own zone (issue 30 item 9: "All times are UTC, also for a browser in
Hong Kong"): a league whose sign-up opens and closes at known UTC times shows them as Hong Kong
times (UTC+8) on the leagues list and the league's page, in each language, to a browser whose
zone is Asia/Hong_Kong; the same page in a UTC browser shows the UTC times."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hkmahjong.entry import main
from hkmahjong.server.i18n import LANGS

from .conftest import Server

pytestmark = pytest.mark.browser

OPENS, CLOSES = "2030-01-02T03:04", "2030-01-03T16:30"
"""UTC; in Hong Kong 2030-01-02 11:04 and 2030-01-04 00:30 (the next day)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data_dir: Path = tmp_path_factory.mktemp("times-parlor")
    assert main(["admin", "--data-dir", str(data_dir), "league", "create", "Time Cup",
                 "--opens", OPENS, "--closes", CLOSES]) == 0  # fmt: skip
    srv = Server(data_dir)
    yield srv
    srv.stop()


def times(page: Any, where: str) -> list[str]:
    return [str(t) for t in page.locator(f"{where} time[data-local]").all_inner_texts()]


@pytest.mark.parametrize("lang", LANGS)
def test_league_times_are_shown_in_the_browsers_zone(new_page: Any, lang: str) -> None:
    hk = new_page(lang=lang, tz="Asia/Hong_Kong")
    hk.goto("/leagues")
    closes = times(hk, "[data-testid=leagues]")
    assert len(closes) == 1 and "00:30" in closes[0] and "04" in closes[0], closes
    hk.get_by_role("link", name="Time Cup").click()
    hk.wait_for_load_state("networkidle")
    window = times(hk, "main")
    assert any("11:04" in t and "02" in t for t in window), window
    assert any("00:30" in t and "04" in t for t in window), window
    assert not any("16:30" in t or "03:04" in t for t in window), window
    assert "UTC" not in hk.locator("[aria-labelledby=signup-h]").inner_text()  # nor says UTC
    utc = new_page(lang=lang)  # the same page in a browser on UTC
    utc.goto(hk.url)
    shown = times(utc, "main")
    assert any("03:04" in t for t in shown) and any("16:30" in t for t in shown), shown
