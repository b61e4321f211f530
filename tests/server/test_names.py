"""Names as people mean them (issue 29, defect 4; docs/security.md *Names*), on SQLite and
PostgreSQL: one caseless key computed in Python (NFKC + casefold) decides who a name is at login
and sign-up; mixed scripts, look-alikes of existing names (TR39 skeletons) and the reserved
``guest`` prefix (after normalisation) are refused, each with its own message; migration 0006
backfills the keys and renames the later of two users whose names now collide, saying so."""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from alembic import command
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select, text

from hkmahjong.server.names import NameRefusedError, name_key, name_skeleton, parse_name
from hkmahjong.server.store import Store
from hkmahjong.server.store.db import alembic_config
from hkmahjong.server.store.models import User

PASSWORD = "long enough pw"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest) -> TestClient:
    """The app on SQLite and on PostgreSQL."""
    name = "client" if request.param == "sqlite" else "pg_client"
    client = request.getfixturevalue(name)
    assert isinstance(client, TestClient)
    return client


def post(client: TestClient, page: str, name: str, password: str = PASSWORD) -> tuple[str, str]:
    """Register or log in (a fresh browser); the page it lands on and the error, if any."""
    client.cookies.clear()
    csrf = client.get("/api/me").json()["csrf"]
    r = client.post(
        page, data={"name": name, "password": password, "csrf": csrf}, follow_redirects=False
    )
    assert r.status_code == 303
    where = urlsplit(r.headers["location"])
    return where.path, dict(parse_qsl(where.query)).get("error", "")


def who(client: TestClient) -> str | None:
    user = client.get("/api/me").json()["user"]
    return None if user is None else str(user["name"])


# -- the examples, end to end ------------------------------------------------------------
def test_names_of_any_script_log_in_again_in_any_case(any_client: TestClient) -> None:
    """Defect 4: ``Ärger`` and ``Дмитрий`` registered and got their jade but could never log in
    again (SQLite's ``lower()`` folds ASCII only)."""
    for name, typed in (("Ärger", "ärger"), ("Дмитрий", "ДМИТРИЙ"), ("阿明", "阿明")):
        assert post(any_client, "/register", name) == ("/", "")
        assert post(any_client, "/login", name) == ("/", "")
        assert who(any_client) == name
        assert post(any_client, "/login", typed) == ("/", "")
        assert who(any_client) == name


def test_case_variants_are_one_account(any_client: TestClient) -> None:
    """Defect 4: ``Émile``/``émile`` were two accounts, and with equal passwords logging in as
    ``Émile`` opened ``émile``'s session; ``STRASSE`` coexisted with ``Straße``."""
    assert post(any_client, "/register", "Émile") == ("/", "")
    assert post(any_client, "/register", "émile") == ("/register", "name_taken")
    assert post(any_client, "/login", "ÉMILE") == ("/", "")
    assert who(any_client) == "Émile"
    assert post(any_client, "/register", "STRASSE") == ("/", "")
    assert post(any_client, "/register", "Straße") == ("/register", "name_taken")
    assert post(any_client, "/login", "straße") == ("/", "")
    assert who(any_client) == "STRASSE"
    assert post(any_client, "/register", "Ωμέγα") == ("/", "")
    assert post(any_client, "/register", "ωμέγα") == ("/register", "name_taken")


def test_look_alikes_and_widths_of_existing_names_are_refused(any_client: TestClient) -> None:
    assert post(any_client, "/register", "Alice") == ("/", "")
    assert post(any_client, "/register", "Alicе") == ("/register", "name_mixed")  # Cyrillic е
    assert post(any_client, "/register", "ＡＬＩＣＥ") == ("/register", "name_taken")
    assert post(any_client, "/register", "𝔞𝔩𝔦𝔠𝔢") == ("/register", "name_taken")
    assert post(any_client, "/register", "cop") == ("/", "")
    assert post(any_client, "/register", "сор") == ("/register", "name_confusable")  # Cyrillic
    assert post(any_client, "/register", "Ah Ming") == ("/", "")
    assert post(any_client, "/register", "Ah Rning") == ("/register", "name_confusable")
    assert post(any_client, "/login", "ａｌｉｃｅ") == ("/", "")
    assert who(any_client) == "Alice"


def test_mixed_scripts_and_the_reserved_prefix_after_normalisation(any_client: TestClient) -> None:
    for name in ("Ωmega", "ωmega", "Dmitrу"):
        assert post(any_client, "/register", name) == ("/register", "name_mixed")
    for name in ("ｇｕｅｓｔ-1a2b3c4d", "GUEST 7", "ɡuest-1"):  # fullwidth, capitals, script g
        assert post(any_client, "/register", name) == ("/register", "name_reserved")
    assert post(any_client, "/register", "ＢＯＢ") == ("/", "")
    assert who(any_client) == "BOB"  # shown in NFKC
    assert post(any_client, "/register", "Ah明") == ("/", "")  # Latin with Han: highly restrictive


def test_a_login_name_that_no_one_can_have_is_a_bad_login(any_client: TestClient) -> None:
    """A NUL or an over-long name is not asked of the database (PostgreSQL refuses NUL)."""
    for name in ("a\x00b", "x" * 150, "   "):
        path, error = post(any_client, "/login", name)
        assert (path, error) == ("/login", "bad_login")
    assert any_client.get("/players/a%00b").status_code == 400  # refused at the door


def test_the_form_keeps_the_typed_name_and_says_why_in_the_pages_language(
    client: TestClient,
) -> None:
    assert post(client, "/register", "Alice") == ("/", "")
    client.cookies.clear()
    csrf = client.get("/api/me").json()["csrf"]
    r = client.post(
        "/register",
        data={"name": "Alicе", "password": PASSWORD, "csrf": csrf},
        follow_redirects=False,
    )
    client.cookies.set("hkmj_lang", "en")
    page = client.get(r.headers["location"]).text
    assert 'value="Alicе"' in page
    assert "cannot mix scripts" in page
    for code, words in (
        ("name_reserved", "kept for guests"),
        ("name_confusable", "looks too much like"),
        ("name_taken", "taken"),
        ("bad_name", "1–24 letters"),
    ):
        assert words in client.get(f"/register?error={code}").text
    client.cookies.set("hkmj_lang", "zh-Hant")
    assert "西里爾" in client.get("/register?error=name_mixed").text
    page = client.get("/login?error=bad_login&name=%C3%89mile").text
    assert 'value="Émile"' in page


# -- the name functions ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Émile", "émile"),
        ("E\u0301mile", "émile"),  # decomposed: the same key
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),
        ("ＡＬＩＣＥ", "alice"),
        ("𝔞𝔩𝔦𝔠𝔢", "alice"),
        (" Ah Ming ", "ah ming"),
        ("ｇｕｅｓｔ-1a2b3c4d", "guest-1a2b3c4d"),
    ],
)
def test_keys(name: str, key: str) -> None:
    assert name_key(name) == key


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_keys_are_stable_and_checked_names_keep_their_key(raw: str) -> None:
    key = name_key(raw)
    assert name_key(key) == key
    try:
        checked = parse_name(raw)
    except NameRefusedError as exc:
        assert exc.code in ("bad_name", "name_reserved", "name_mixed")
    else:
        assert checked.key == name_key(checked.display) == key
        assert checked.skeleton == name_skeleton(key)


def test_skeletons_join_look_alikes() -> None:
    assert name_skeleton(name_key("Alicе")) == name_skeleton("alice")
    assert name_skeleton("ah rning") == name_skeleton("ah ming")
    assert name_skeleton("阿明") != name_skeleton("阿朋")


# -- migration 0006 ----------------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def at_0005(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty database migrated to revision 0005 only (SQLite file; a fresh PostgreSQL
    database of its own)."""
    if request.param == "sqlite":
        store = Store.open(f"sqlite:///{tmp_path / 'old.db'}", migrate=False)
        command.upgrade(alembic_config(store.engine), "0005")
        yield store
        store.close()
        return
    admin_url = os.environ.get(
        "HKMJ_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    )
    name = f"hkmj_names_{secrets.token_hex(4)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    store = Store.open(admin_url.rsplit("/", 1)[0] + "/" + name, migrate=False)
    try:
        command.upgrade(alembic_config(store.engine), "0005")
        yield store
    finally:
        store.close()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_migration_0006_backfills_keys_and_renames_the_later_of_colliding_names(
    at_0005: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Names the old ``lower(name)`` index let coexist: on SQLite (ASCII-only ``lower``)
    ``Émile``/``émile`` as well; on both, width (``ＡＬＩＣＥ``/``alice``) and full case folding
    (``STRASSE``/``Straße``)."""
    names = ["Émile", "ＡＬＩＣＥ", "STRASSE", "Ärger", "Straße", "guest-1a2b3c4d", "alice"]
    if at_0005.dialect == "sqlite":
        names += ["émile", "émile-8"]
    with at_0005.engine.begin() as conn:
        for name in names:
            conn.execute(
                text(
                    "INSERT INTO users (name, is_guest, is_admin, lang, created_at) "
                    "VALUES (:n, :g, false, 'en', CURRENT_TIMESTAMP)"
                ),
                {"n": name, "g": name.startswith("guest")},
            )
    with caplog.at_level(logging.WARNING, logger="hkmahjong.server.store.migrations"):
        at_0005.migrate()
    assert at_0005.revision() == at_0005.head()  # 0006 and any later revision
    with at_0005.session() as session:
        rows = {u.id: (u.name, u.name_key, u.name_skeleton) for u in session.scalars(select(User))}
    assert rows[1] == ("Émile", "émile", name_skeleton("émile"))
    assert rows[2] == ("ＡＬＩＣＥ", "alice", name_skeleton("alice"))
    assert rows[4] == ("Ärger", "ärger", name_skeleton("ärger"))
    assert rows[3][0] == "STRASSE" and rows[5][0] == "Straße-5"
    assert rows[7][0] == "alice-7"
    assert len({key for _, key, _ in rows.values()}) == len(rows)
    reports = [r.getMessage() for r in caplog.records]
    assert "user 5 'Straße' is renamed 'Straße-5'" in reports[0] and "user 3" in reports[0]
    assert "user 7 'alice' is renamed 'alice-7'" in reports[1] and "user 2" in reports[1]
    if at_0005.dialect == "sqlite":
        assert rows[8][0] == "émile-8-2"  # "émile-8" is user 9's name: the next free one
        assert rows[9][0] == "émile-8"
        assert "user 8 'émile' is renamed 'émile-8-2'" in reports[2] and "user 1" in reports[2]
    assert len(reports) == (3 if at_0005.dialect == "sqlite" else 2)
    with at_0005.session() as session:  # a later user of that key is refused by the database
        session.add(User(name="ÄRGER", password_hash=None, is_guest=False))
        with pytest.raises(Exception, match=r"(?i)unique"):
            session.flush()
        session.rollback()
