"""``hkmj serve``: a real server process on a free port prints its address and answers; without the
``[server]`` extra it says how to install it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench.serving import Served, start_serve

from hkmahjong.entry import main

SECRET = {"HKMJ_SECRET": "serve-test-secret-0123456789"}


def start_server(data_dir: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``hkmj serve --port 0`` and return the process and the URL it printed (the address
    read with a timeout: :mod:`bench.serving`)."""
    served = start_serve(data_dir, *extra, env=SECRET)
    return served.proc, served.url + "/"


def get_json(url: str, timeout: float = 60) -> object:
    """GET ``url`` as JSON. The server listens before it prints its address, so a request made
    after that waits in the socket's backlog until the app has started: no polling."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


def test_serve_prints_the_url_and_answers_on_sqlite(
    tmp_path: Path, serve: Callable[..., Served]
) -> None:
    served = serve(tmp_path / "data", env=SECRET)
    assert served.url.startswith("http://127.0.0.1:")
    health = get_json(served.url + "/healthz")
    assert isinstance(health, dict)
    assert health["status"] == "ok" and health["database"] == "sqlite"
    assert (tmp_path / "data" / "parlor.db").exists()
    code = served.stop(signal.SIGINT)
    assert code in (0, -signal.SIGINT)  # uvicorn re-raises the signal it handled


def test_serve_on_postgresql(tmp_path: Path, pg_url: str, serve: Callable[..., Served]) -> None:
    served = serve(tmp_path / "data", "--db", pg_url.replace("+psycopg", ""), env=SECRET)
    health = get_json(served.url + "/healthz")
    assert isinstance(health, dict) and health["database"] == "postgresql"
    assert not (tmp_path / "data" / "parlor.db").exists()


def test_serve_without_the_extra_says_how_to_install(capsys: object, monkeypatch: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "pip install 'hkmahjong[server]'" in err and "uvicorn" in err


def test_hkmj_lists_both_terminal_and_server_commands(capsys: object) -> None:
    import pytest

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "serve" in out and "play" in out and "score" in out
