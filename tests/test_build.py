"""The build that runs (issue 16): compiled by mypyc where built and current, else pure Python.

``make test`` runs the suite twice: once as built (``HKMJ_EXPECT_BUILD=compiled`` where a C
compiler is present) and once with ``HKMJ_BUILD=pure``; ``test_the_expected_build_is_loaded``
fails if the process runs another build than the one the Makefile expects.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hkmahjong
from hkmahjong import _build

EXT = _build.ext_suffix()


def _loaded_kind(module: str) -> str:
    file = importlib.import_module(module).__file__ or ""
    return "compiled" if file.endswith(EXT) else "pure"


def test_the_expected_build_is_loaded() -> None:
    """What the package says it runs is what is loaded, and what the Makefile expects."""
    info = hkmahjong.build_info()
    kinds = {_loaded_kind(m) for m in _build.COMPILED_MODULES}
    assert kinds == {info.kind}, (info, kinds)
    if info.kind == "compiled":
        assert sorted(info.modules) == sorted(_build.COMPILED_MODULES)
    expected = os.environ.get("HKMJ_EXPECT_BUILD")
    if expected:
        assert info.kind == expected, f"expected the {expected} build, running {info}"


def _fake_package(tmp_path: Path) -> Path:
    """A copy of the package's sources (no build), to edit and check."""
    root = tmp_path / "hkmahjong"
    shutil.copytree(
        _build.package_dir(), root, ignore=shutil.ignore_patterns("_compiled", "__pycache__")
    )
    return root


def _manifest(root: Path) -> dict[str, object]:
    return {
        "version": _build.MANIFEST_VERSION,
        "ext_suffix": EXT,
        "modules": list(_build.COMPILED_MODULES),
        "sources": _build.source_record(root),
    }


def test_manifest_is_current_for_the_sources_it_records(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    assert _build.check_manifest(_manifest(root), root) is None


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    manifest = _manifest(root)
    shanten = root / "hand" / "shanten.py"
    shanten.write_text(shanten.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert _build.check_manifest(manifest, root) == "hand/shanten.py changed since the build"


def test_a_touched_but_unchanged_source_stays_current(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    manifest = _manifest(root)
    tiles = root / "tiles.py"
    os.utime(tiles, ns=(1, 1))  # a checkout changes mtimes, not contents
    assert _build.check_manifest(manifest, root) is None


def test_the_sources_are_the_compiled_modules_and_what_they_import(tmp_path: Path) -> None:
    rels = {p.relative_to(_build.package_dir()).as_posix() for p in _build.source_files()}
    for module in _build.COMPILED_MODULES:
        assert module.removeprefix("hkmahjong.").replace(".", "/") + ".py" in rels
    assert {"tiles.py", "errors.py", "hand/meld.py"} <= rels  # imported by compiled modules
    assert not {"bots/arena.py", "cli/main.py", "server/app.py", "_build.py"} & rels


def test_edits_outside_the_sources_do_not_stale_the_build(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    manifest = _manifest(root)
    (root / "bots" / "arena.py").write_text("# the arena imports bots; bots do not import it\n")
    (root / "hand" / "new.py").write_text("x = 1\n", encoding="utf-8")
    assert _build.check_manifest(manifest, root) is None
    (root / "errors.py").unlink()
    assert _build.check_manifest(manifest, root) == "errors.py was removed since the build"


def test_other_interpreter_or_module_list(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    manifest = _manifest(root)
    assert "this interpreter loads" in str(
        _build.check_manifest({**manifest, "ext_suffix": ".cpython-39-x.so"}, root)
    )
    assert _build.check_manifest({**manifest, "modules": ["hkmahjong.tiles"]}, root) == (
        "the list of compiled modules changed since the build"
    )
    assert "manifest version" in str(_build.check_manifest({**manifest, "version": 0}, root))


def _run(
    env_value: str, code: str = "import hkmahjong; print(hkmahjong.build_info().kind)"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HKMJ_BUILD": env_value}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )


def test_hkmj_build_pure_runs_the_py_files() -> None:
    code = (
        "import hkmahjong, importlib; m = importlib.import_module('hkmahjong.hand.shanten');"
        " print(hkmahjong.build_info().kind, m.__file__.endswith('.py'))"
    )
    done = _run("pure", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["pure", "True"]


def test_hkmj_build_must_name_a_build() -> None:
    done = _run("fast")
    assert done.returncode != 0
    assert "HKMJ_BUILD='fast' is not a build" in done.stderr


def test_hkmj_build_compiled_says_why_it_cannot_run(tmp_path: Path) -> None:
    """With no build in the package folder, asking for the compiled one is a clear ImportError."""
    with pytest.raises(ImportError, match="compiled build cannot run: not built"):
        _build._choose("compiled", _fake_package(tmp_path))
    info, files = _build._choose("", _fake_package(tmp_path / "again"))
    assert (info.kind, files) == ("pure", {})


def test_a_stale_build_warns_and_runs_pure(tmp_path: Path) -> None:
    root = _fake_package(tmp_path)
    (root / "_compiled").mkdir()
    stale = {**_manifest(root), "files": {}}
    (root / "errors.py").write_text("# changed\n", encoding="utf-8")
    (root / "_compiled" / "manifest.json").write_text(json.dumps(stale), encoding="utf-8")
    with pytest.warns(RuntimeWarning, match="errors.py changed since the build"):
        info, files = _build._choose("auto", root)
    assert info.kind == "pure" and not files


def test_version_says_which_build() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hkmahjong.entry", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"hkmj {hkmahjong.__version__} ({hkmahjong.build_info()})"


def test_a_build_missing_its_files_is_not_current(tmp_path: Path) -> None:
    """The tool (tools/build_compiled.py) and the import ask the same question: a current manifest
    whose extension files are gone is rebuilt by make, not reported current and then not served."""
    root = _fake_package(tmp_path)
    (root / "_compiled").mkdir()
    files = {"hkmahjong.hand.shanten": "hkmahjong/hand/shanten" + EXT}
    manifest = {**_manifest(root), "files": files}
    (root / "_compiled" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    reason, served = _build.build_problem(root)
    assert reason is not None and reason.startswith("compiled files missing:") and not served
    so = root / "_compiled" / files["hkmahjong.hand.shanten"]
    so.parent.mkdir(parents=True)
    so.write_bytes(b"")
    assert _build.build_problem(root) == (None, {"hkmahjong.hand.shanten": so})
