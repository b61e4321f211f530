"""``hkmj serve``: a real server process on a free port prints its address and answers; without the
``[server]`` extra it says how to install it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from hkmahjong.entry import main


def start_server(data_dir: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``hkmj serve --port 0`` and return the process and the URL it printed."""
    env = {**os.environ, "HKMJ_SECRET": "serve-test-secret-0123456789"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hkmahjong.entry",
            "serve",
            "--port",
            "0",
            "--data-dir",
            str(data_dir),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "open http" in line or not line:
            break
    if "open http" not in line:
        proc.kill()
        raise AssertionError(
            f"no address printed: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        )
    return proc, line.split("open ", 1)[1].split()[0]


def get_json(url: str, timeout: float = 30) -> object:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.loads(response.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_serve_prints_the_url_and_answers_on_sqlite(tmp_path: Path) -> None:
    proc, url = start_server(tmp_path / "data")
    try:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        health = get_json(url + "healthz")
        assert isinstance(health, dict)
        assert health["status"] == "ok" and health["database"] == "sqlite"
        assert (tmp_path / "data" / "parlor.db").exists()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    assert proc.returncode in (0, -signal.SIGINT)  # uvicorn re-raises the signal it handled


def test_serve_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    proc, url = start_server(tmp_path / "data", "--db", pg_url.replace("+psycopg", ""))
    try:
        health = get_json(url + "healthz")
        assert isinstance(health, dict) and health["database"] == "postgresql"
        assert not (tmp_path / "data" / "parlor.db").exists()
    finally:
        proc.kill()
        proc.wait(timeout=30)


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
