"""Rate limits that cannot be turned against the victim (issue 29, defect 6; docs/security.md
*Rate limits*): logins are limited per address and per (name, address), never per name alone,
and ``X-Forwarded-For`` is believed only from the proxies the operator names — in-process and
on a real ``hkmj serve`` (whose uvicorn trusted 127.0.0.1 by default)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.server.conftest import cheap_argon2
from tests.server.test_serve import get_json, start_server

from hkmahjong.server.app import create_app
from hkmahjong.server.proxies import TrustedProxies
from hkmahjong.server.settings import Settings, SettingsError

PASSWORD = "long enough pw"


def outcome(response: httpx.Response) -> str:
    """``ok`` (logged in or registered) or the form's error code."""
    assert response.status_code == 303, response.text
    query = dict(parse_qsl(urlsplit(response.headers["location"]).query))
    return query.get("error", "ok")


def attempt(
    client: httpx.Client | TestClient,
    page: str,
    name: str,
    password: str,
    headers: dict[str, str] | None = None,
) -> str:
    client.cookies.clear()
    csrf = client.get("/api/me").json()["csrf"]
    r = client.post(
        page,
        data={"name": name, "password": password, "csrf": csrf},
        headers=headers or {},
        follow_redirects=False,
    )
    return outcome(r)


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    application = create_app(settings, password_hash=cheap_argon2())
    with TestClient(application, base_url="http://testserver"):  # runs the lifespan
        yield application


def from_address(app: FastAPI, host: str) -> TestClient:
    return TestClient(app, base_url="http://testserver", client=(host, 40000))


def test_ten_wrong_passwords_from_one_address_do_not_stop_the_owner_from_another(
    app: FastAPI, settings: Settings
) -> None:
    """Defect 6: after 10 wrong passwords for a name, the owner's correct password from another
    address was refused: anyone kept any account locked with 10 requests every 5 minutes."""
    owner, mallory = from_address(app, "10.0.0.1"), from_address(app, "10.6.6.6")
    assert attempt(owner, "/register", "Ah Ming", PASSWORD) == "ok"
    for _ in range(settings.login_attempts):
        assert attempt(mallory, "/login", "Ah Ming", "a guess!") == "bad_login"
    assert attempt(mallory, "/login", "ah ming", "a guess!") == "rate_limited"
    assert attempt(mallory, "/login", "AH MING", PASSWORD) == "rate_limited"  # that pair waits
    assert attempt(owner, "/login", "Ah Ming", PASSWORD) == "ok"
    assert owner.get("/api/me").json()["user"]["name"] == "Ah Ming"


def test_one_address_guessing_many_names_is_slowed_down(app: FastAPI, settings: Settings) -> None:
    mallory = from_address(app, "10.6.6.6")
    for n in range(settings.address_attempts):
        assert attempt(mallory, "/login", f"name {n}", "a guess!") == "bad_login"
    assert attempt(mallory, "/login", "someone else", "a guess!") == "rate_limited"
    assert attempt(from_address(app, "10.0.0.9"), "/login", "name 1", "x") == "bad_login"


def test_a_rotated_forwarded_for_from_an_untrusted_peer_does_not_get_past_the_limit(
    app: FastAPI, settings: Settings
) -> None:
    peer = from_address(app, "127.0.0.1")  # no trusted proxies by default: not even loopback
    assert attempt(peer, "/register", "Ah Ming", PASSWORD) == "ok"
    results = [
        attempt(peer, "/login", "Ah Ming", "a guess!", {"X-Forwarded-For": f"203.0.113.{n}"})
        for n in range(settings.login_attempts + 1)
    ]
    assert results[-1] == "rate_limited"


def test_a_trusted_proxy_is_believed(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path / "data",
        secret="proxy-secret-" + "x" * 20,
        trusted_proxies=("10.1.0.0/16", "::1"),
    )
    application = create_app(settings, password_hash=cheap_argon2())
    with TestClient(application, base_url="http://testserver"):
        proxy = from_address(application, "10.1.2.3")
        assert attempt(proxy, "/register", "Ah Ming", PASSWORD) == "ok"
        for n in range(settings.login_attempts + 5):
            hops = {"X-Forwarded-For": f"198.51.100.{n}, 10.1.9.9"}  # client, then an inner proxy
            assert attempt(proxy, "/login", "Ah Ming", "a guess!", hops) == "bad_login"
        hops = {"X-Forwarded-For": "198.51.100.200"}
        for _ in range(settings.login_attempts):
            assert attempt(proxy, "/login", "Ah Ming", "a guess!", hops) == "bad_login"
        assert attempt(proxy, "/login", "Ah Ming", "a guess!", hops) == "rate_limited"


def test_trusted_proxies_pick_the_last_untrusted_hop() -> None:
    proxies = TrustedProxies(("10.0.0.0/8", "2001:db8::/32"))
    assert proxies.client("10.0.0.1", "203.0.113.7") == "203.0.113.7"
    assert proxies.client("10.0.0.1", "6.6.6.6, 203.0.113.7, 10.2.2.2") == "203.0.113.7"
    assert proxies.client("10.0.0.1", "10.3.3.3") == "10.3.3.3"
    assert proxies.client("192.0.2.1", "203.0.113.7") == "192.0.2.1"  # not a trusted peer
    assert proxies.client("2001:db8::1", "not an address") == "not an address"
    assert not TrustedProxies().trusts("127.0.0.1")
    with pytest.raises(SettingsError, match="'localhost' is not an IP address"):
        Settings(trusted_proxies=("localhost",))
    assert Settings.from_env({"HKMJ_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}).trusted_proxies == (
        "127.0.0.1/32",
        "10.0.0.0/8",
    )


def _rotated(url: str, signups: int, logins: int) -> tuple[list[str], list[str]]:
    """Sign-ups, then logins, each with another name and another ``X-Forwarded-For``."""
    with httpx.Client(base_url=url, timeout=30) as client:
        made = [
            attempt(
                client, "/register", f"Player {i}", PASSWORD, {"X-Forwarded-For": f"203.0.113.{i}"}
            )
            for i in range(signups)
        ]
        tried = [
            attempt(
                client, "/login", f"Someone {i}", "a guess!", {"X-Forwarded-For": f"198.51.100.{i}"}
            )
            for i in range(logins)
        ]
        return made, tried


def test_hkmj_serve_believes_no_forwarded_for_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 6: under ``hkmj serve`` uvicorn believed ``X-Forwarded-For`` from 127.0.0.1, so a
    client on the machine (or behind a proxy on it) rotated the header for unlimited login
    attempts and sign-ups (the limits are lowered here to keep the test short)."""
    monkeypatch.setenv("HKMJ_SIGNUPS_PER_HOUR", "2")
    monkeypatch.setenv("HKMJ_ADDRESS_ATTEMPTS", "3")
    signups, logins = 3, 4
    proc, url = start_server(tmp_path / "plain")
    try:
        get_json(url + "healthz")
        made, tried = _rotated(url.rstrip("/"), signups, logins)
        assert made == ["ok"] * (signups - 1) + ["rate_limited"]
        assert tried == ["bad_login"] * (logins - 1) + ["rate_limited"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
