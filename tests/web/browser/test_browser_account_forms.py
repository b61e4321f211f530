"""The login and register forms after an error (issue 30 item 14: "the login form clears the
name after an error; a refused name gives no reason"): clicked and typed as a person would, the
form comes back with the typed name still in it and the reason in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

from hkmahjong.server.i18n import LANGS, tr

from .play import check_script, register

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_name_says_why_and_the_form_keeps_it(new_page: Any, lang: str) -> None:
    page = new_page(lang=lang, phone=lang == "zh-Hans")
    page.goto("/register")
    page.get_by_label(tr(lang, "username")).fill("Ah Ming!")
    page.get_by_label(tr(lang, "password"), exact=True).fill("long password")
    page.get_by_label(tr(lang, "password_again")).fill("long password")
    page.locator("form[action='/register'] button[type=submit]").click()
    page.wait_for_url("**/register?**")
    quote = "“!”" if lang == "en" else "「!」"
    error = page.get_by_test_id("form-error")
    assert error.inner_text() == tr(lang, "err_name_chars", chars=quote)
    assert page.get_by_label(tr(lang, "username")).input_value() == "Ah Ming!"
    check_script(page, lang)
    # a taken name: someone registered it meanwhile
    other = new_page(lang=lang)
    register(other, f"Ah Ming {lang}")
    page.get_by_label(tr(lang, "username")).fill(f"Ah Ming {lang}")
    page.get_by_label(tr(lang, "password"), exact=True).fill("long password")
    page.get_by_label(tr(lang, "password_again")).fill("long password")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert error.inner_text() == tr(lang, "err_name_taken")
    assert page.get_by_label(tr(lang, "username")).input_value() == f"Ah Ming {lang}"
    # login with a wrong password keeps the name too
    page.goto("/login")
    page.get_by_label(tr(lang, "username")).fill(f"Ah Ming {lang}")
    page.get_by_label(tr(lang, "password")).fill("not the password")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "/login?" in page.url
    assert page.get_by_test_id("form-error").inner_text() == tr(lang, "err_bad_login")
    assert page.get_by_label(tr(lang, "username")).input_value() == f"Ah Ming {lang}"
