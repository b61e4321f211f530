"""An installable release (docs/operations.md, *Release*): ``python -m build`` makes an sdist and
a pure-Python wheel (built from the sdist, so the sdist is complete) holding the package data;
installed into a fresh venv outside the checkout, ``hkmj --version`` says which build runs,
``hkmj score`` scores and ``hkmj serve`` serves its pages and a table socket.

The fresh venv gets the wheel with ``pip install --no-deps`` and borrows the third-party packages
of the running environment (a path line, not its ``.pth`` hooks: the checkout's editable install
stays out), so the test needs no network; ``pip install 'hkmahjong[server]'`` from the wheel
resolves the same dependencies from the package index. Skipped without the ``build`` package."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import venv
import zipfile
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.ops.conftest import Seat, guest_table

pytestmark = [pytest.mark.slow, pytest.mark.release]

ROOT = Path(__file__).resolve().parents[2]


def _checkout_copy(dest: Path) -> Path:
    """The files git tracks (what a clone holds), copied to ``dest``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        src = ROOT / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def test_the_wheel_installs_outside_the_checkout_and_serves(
    tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    pytest.importorskip("build")
    tracked = subprocess.run(["git", "ls-files", "src/hkmahjong"], cwd=ROOT, capture_output=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    source = _checkout_copy(tmp_path / "checkout")
    dist = tmp_path / "dist"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HKMJ_BUILD")}
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = list(dist.glob("hkmahjong-*-py3-none-any.whl"))
    assert len(wheels) == 1 and list(dist.glob("hkmahjong-*.tar.gz"))
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    package = {n[4:] for n in tracked.stdout.decode().split()}
    assert package <= names, sorted(package - names)[:10]  # every tracked file, data included
    assert not [n for n in names if "_compiled" in n]  # a local build is not shipped
    for data in ("store/migrations/script.py.mako", "web/templates", "web/static"):
        assert any(data in n for n in names), data

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q"]
    done = subprocess.run([*pip, str(wheels[0])], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    hkmj = str(fresh / "bin" / "hkmj")

    def run(*args: str) -> str:
        out = subprocess.run(
            [*args], cwd=outside, capture_output=True, text=True, timeout=120, env=env
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    where = run(str(python), "-c", "import hkmahjong; print(hkmahjong.__file__)")
    assert where.startswith(site), where  # the wheel's package, not the checkout's
    version = run(hkmj, "--version")
    assert version.startswith("hkmj 0.1.0") and "pure Python" in version, version
    scored = json.loads(run(hkmj, "score", "123m456p789s 55z [777z]", "--self-drawn", "--json"))
    assert scored["valid_win"] is True

    serve = subprocess.Popen(
        [hkmj, "serve", "--port", "0", "--data-dir", str(tmp_path / "data")],
        cwd=outside,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**env, "HKMJ_SECRET": "release-test-secret-0123456789"},
    )
    try:
        assert serve.stdout is not None
        line = ""
        deadline = time.monotonic() + 120
        while "open http" not in line and time.monotonic() < deadline:
            line = serve.stdout.readline()
            if not line:
                break
        assert "open http" in line, line
        url = line.split("open ", 1)[1].split()[0].rstrip("/")
        page = httpx.get(url + "/", timeout=30)
        assert page.status_code == 200 and "麻雀" in page.text
        health = httpx.get(url + "/healthz", timeout=30).json()
        assert health["revision"] is not None  # the shipped migrations ran
        http, cookie, table = guest_table(url)
        seat = seat_at(url, table, cookie)
        first = json.loads(seat.ws.recv(timeout=60))
        assert first["t"] == "snapshot"  # a websocket hello answered
        http.close()
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(60) == 0
