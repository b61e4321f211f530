"""An installable release (docs/operations.md, *The release*): ``python -m build`` makes an sdist
and a pure-Python wheel (built from the sdist, so the sdist is complete) holding the package data;
installed into a fresh venv outside the checkout, ``hkmj --version`` says which build runs,
``hkmj score`` scores and ``hkmj serve`` serves its pages and a table socket. Then an upgrade: the
installed release is stopped mid-hand (SIGTERM), a release with one more migration replaces it,
and the table resumes at the next start, nothing lost.

The fresh venv gets the wheel with ``pip install --no-deps`` and borrows the third-party packages
of the running environment (a path line, not its ``.pth`` hooks: the checkout's editable install
stays out), so the test needs no network; ``pip install 'hkmahjong[server]'`` from the wheel
resolves the same dependencies from the package index. Skipped without the ``build`` package."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.ops.conftest import Seat, Served, guest_table, mid_hand, start_server

pytestmark = [pytest.mark.slow, pytest.mark.release, pytest.mark.xdist_group("release")]
"""One worker runs them: the release is built and installed once (``--dist loadgroup``)."""

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Installed:
    """The release installed in a fresh venv: its python, its ``hkmj``, its site-packages, a
    directory outside the checkout, and the environment to run them in."""

    python: Path
    hkmj: Path
    site: Path
    outside: Path
    env: dict[str, str]
    wheel_names: set[str]
    tracked: set[str]

    def run(self, *args: str) -> str:
        out = subprocess.run(
            [*args], cwd=self.outside, capture_output=True, text=True, timeout=120, env=self.env
        )
        assert out.returncode == 0, out.stderr
        return out.stdout


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


def _install(tmp: Path, wheel: Path) -> tuple[Path, Path, Path]:
    """``wheel`` installed in a fresh venv under ``tmp`` (the running environment's third-party
    packages borrowed); its python, its site-packages and a directory outside the checkout."""
    fresh = tmp / "venv"
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
    done = subprocess.run([*pip, str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outside = tmp / "elsewhere"
    outside.mkdir()
    return python, Path(site), outside


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    pytest.importorskip("build")
    tracked = subprocess.run(["git", "ls-files", "src/hkmahjong"], cwd=ROOT, capture_output=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    tmp = tmp_path_factory.mktemp("release")
    source = _checkout_copy(tmp / "checkout")
    dist = tmp / "dist"
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
    python, site, outside = _install(tmp, wheels[0])
    yield Installed(
        python,
        python.parent / "hkmj",
        site,
        outside,
        env,
        set(zipfile.ZipFile(wheels[0]).namelist()),
        {n[4:] for n in tracked.stdout.decode().split()},
    )


def test_the_wheel_installs_outside_the_checkout_and_serves(
    installed: Installed, tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    names = installed.wheel_names
    assert installed.tracked <= names, sorted(installed.tracked - names)[:10]  # data included
    assert not [n for n in names if "_compiled" in n]  # a local build is not shipped
    for data in ("store/migrations/script.py.mako", "web/templates", "web/static"):
        assert any(data in n for n in names), data
    where = installed.run(
        str(installed.python), "-c", "import hkmahjong; print(hkmahjong.__file__)"
    )
    assert where.startswith(str(installed.site)), where  # the wheel's package, not the checkout's
    version = installed.run(str(installed.hkmj), "--version")
    assert version.startswith("hkmj 0.1.0") and "pure Python" in version, version
    scored = installed.run(
        str(installed.hkmj), "score", "123m456p789s 55z [777z]", "--self-drawn", "--json"
    )
    assert json.loads(scored)["valid_win"] is True

    served = start_server(
        tmp_path / "data", hkmj=[str(installed.hkmj)], cwd=installed.outside, env=installed.env
    )
    try:
        page = httpx.get(served.url + "/", timeout=30)
        assert page.status_code == 200 and "麻雀" in page.text
        health = httpx.get(served.url + "/healthz", timeout=30).json()
        assert health["revision"] is not None  # the shipped migrations ran
        http, cookie, table = guest_table(served.url)
        seat = seat_at(served.url, table, cookie)
        first = json.loads(seat.ws.recv(timeout=60))
        assert first["t"] == "snapshot"  # a websocket hello answered
        http.close()
    finally:
        assert served.stop() == 0


UPGRADE = '''"""A test release's migration (tests/ops/test_release.py): one more table and column."""

import sqlalchemy as sa
from alembic import op

revision = "ops_upgrade"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("ops_upgrade_probe", sa.Column("id", sa.Integer(), primary_key=True))
    op.add_column("parlor_tables", sa.Column("ops_note", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("parlor_tables", "ops_note")
    op.drop_table("ops_upgrade_probe")
'''


def test_an_upgrade_with_a_new_migration_loses_nothing(
    installed: Installed, tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    """Stop the release mid-hand (SIGTERM), install one with a new migration, start: migrated,
    and the table goes on where it was."""
    data = tmp_path / "data"
    versions = installed.site / "hkmahjong" / "server" / "store" / "migrations" / "versions"
    added = versions / "v9000_ops_upgrade.py"

    def serve() -> Served:
        return start_server(
            data, hkmj=[str(installed.hkmj)], cwd=installed.outside, env=installed.env
        )

    served = serve()
    try:
        head = httpx.get(served.url + "/healthz", timeout=30).json()["revision"]
        guests: list[httpx.Client] = []

        def practice() -> tuple[str, str]:
            http, cookie, table = guest_table(served.url)
            guests.append(http)
            return table, cookie

        table, cookie, seat, _ = mid_hand(
            practice, lambda t, c: seat_at(served.url, t, c), actions=3
        )
        acked = sum(1 for m in seat.messages if m["t"] == "done" and m.get("by") == "you")
        for http in guests:
            http.close()
    finally:
        assert served.stop() == 0
    added.write_text(UPGRADE.replace("{head}", head), encoding="utf-8")  # the next release
    try:
        served = serve()
        try:
            health = httpx.get(served.url + "/healthz", timeout=30).json()
            assert health["revision"] == "ops_upgrade"
            again = seat_at(served.url, table, cookie)
            again.play(until="match_end")
            assert again.messages[0]["t"] == "snapshot"
            record = httpx.get(
                f"{served.url}/api/tables/{table}/record", headers={"Cookie": cookie}, timeout=30
            ).text
        finally:
            assert served.stop() == 0
    finally:
        added.unlink()
    lines = [json.loads(line) for line in record.splitlines()]
    assert lines[-1]["t"] == "match_end"
    mine = [x for x in lines if x["t"] == "act" and x["seat"] == "E"]
    assert len(mine) >= acked >= 3  # every acknowledged action survived the upgrade
    with sqlite3.connect(data / "parlor.db") as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(parlor_tables)")]
    assert "ops_note" in columns
    kept = tmp_path / "record.jsonl"
    kept.write_text(record, encoding="utf-8")
    installed.run(str(installed.hkmj), "replay", "--verify", str(kept))


def test_the_core_tests_pass_against_the_installed_package(installed: Installed) -> None:
    """The scoring casebook (every fan of docs/calculator.md's cases) run by the fresh venv's
    Python from outside the checkout: against the wheel's package."""
    tests = installed.outside / "tests"
    (tests / "scoring").mkdir(parents=True, exist_ok=True)
    for item in (ROOT / "tests" / "scoring").iterdir():
        if item.is_file():
            shutil.copy2(item, tests / "scoring" / item.name)
    (tests / "scoring" / "test_loaded_from.py").write_text(
        "import hkmahjong\n\n\ndef test_loaded_from_the_wheel():\n"
        f"    assert hkmahjong.__file__.startswith({str(installed.site)!r})\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [str(installed.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--import-mode=importlib", "tests/scoring/test_cases.py",
         "tests/scoring/test_loaded_from.py"],
        cwd=installed.outside, capture_output=True, text=True, timeout=600, env=installed.env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_the_compiled_wheel_runs_the_compiled_build(tmp_path: Path) -> None:
    """``HKMJ_WHEEL=compiled python -m build --wheel`` (setup.py) makes a platform wheel holding
    the checkout's compiled build; installed outside the checkout it runs compiled. Uses the
    checkout's own build (``make test`` makes it where a C compiler is): skipped without one."""
    pytest.importorskip("build")
    tool = ROOT / "tools" / "build_compiled.py"
    check = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    if check.returncode != 0:
        pytest.skip(f"no current compiled build in the checkout: {check.stdout.strip()}")
    source = _checkout_copy(tmp_path / "checkout")
    shutil.copytree(
        ROOT / "src" / "hkmahjong" / "_compiled", source / "src" / "hkmahjong" / "_compiled"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HKMJ_BUILD")}
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist),
         str(source)],
        capture_output=True, text=True, timeout=300, env={**env, "HKMJ_WHEEL": "compiled"},
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = list(dist.glob("hkmahjong-*.whl"))
    assert len(wheels) == 1 and "-py3-none-any" not in wheels[0].name, wheels
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "hkmahjong/_compiled/manifest.json" in names
    python, site, outside = _install(tmp_path, wheels[0])
    run = {"cwd": outside, "capture_output": True, "text": True, "timeout": 120, "env": env}
    version = subprocess.run([str(python.parent / "hkmj"), "--version"], **run)  # type: ignore[call-overload]
    assert version.returncode == 0, version.stderr
    assert "compiled (mypyc" in version.stdout, version.stdout
    scored = subprocess.run(
        [str(python.parent / "hkmj"), "score", "123m456p789s 55z [777z]", "--self-drawn", "--json"],
        **run,
    )  # type: ignore[call-overload]
    assert scored.returncode == 0 and json.loads(scored.stdout)["valid_win"] is True
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import sys, hkmahjong.hand.shanten; print(sys.modules['hkmahjong.hand.shanten'].__file__)",
        ],
        **run,
    )  # type: ignore[call-overload]
    assert where.stdout.startswith(str(site)) and ".so" in where.stdout, where.stdout
