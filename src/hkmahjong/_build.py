"""Which build runs: the pure-Python modules, or their twins compiled to C extensions by mypyc.

One codebase, two builds. ``tools/build_compiled.py`` (run by ``make``) compiles the modules of
:data:`COMPILED_MODULES` with mypyc into the folder ``hkmahjong/_compiled`` beside this file, with a
manifest of the interpreter it was built for and of every source file the compiled code was built
from (the compiled modules and every module of the package they import). When the package is
imported, :func:`install` puts a finder in front of ``sys.meta_path`` that loads those modules
from ``_compiled`` instead of their ``.py`` files — only if the manifest matches this interpreter
and those sources as they are now, so an edited module never runs stale compiled code. The environment variable ``HKMJ_BUILD`` chooses:

* unset or ``auto``: the compiled build when it is there and current, else pure Python (a stale
  build says so once, as a warning);
* ``pure``: pure Python, whatever is built;
* ``compiled``: the compiled build, or an ``ImportError`` that says why it cannot be used.

:func:`build_info` tells which build runs and why (``hkmj --version`` prints it).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Literal

__all__ = [
    "BUILD_ENV",
    "COMPILED_MODULES",
    "MANIFEST_VERSION",
    "BuildInfo",
    "build_info",
    "build_problem",
    "check_manifest",
    "compiled_dir",
    "install",
    "source_files",
]

BUILD_ENV = "HKMJ_BUILD"
MANIFEST_VERSION = 1

#: The modules mypyc compiles, in one group (they call each other natively). Order does not matter.
COMPILED_MODULES: tuple[str, ...] = (
    "hkmahjong.hand._fast",
    "hkmahjong.hand._profile",
    "hkmahjong.hand.arrange",
    "hkmahjong.hand.shanten",
    "hkmahjong.bots.evaluate",
    "hkmahjong.bots.routes",
    "hkmahjong.bots.planner",
    "hkmahjong.bots.base",
    "hkmahjong.bots.simple",
    "hkmahjong.bots.fan",
    "hkmahjong.bots.strong",
    "hkmahjong.bots.danger",
    "hkmahjong.bots.pace",
    "hkmahjong.bots.master",
    "hkmahjong.engine.state",
    "hkmahjong.engine.fields",
    "hkmahjong.engine.moments",
    "hkmahjong.engine.outcome",
    "hkmahjong.engine.state_json",
    "hkmahjong.engine.claims",
    "hkmahjong.engine.wall",
    "hkmahjong.engine.context",
    "hkmahjong.env.encoding",
)

Build = Literal["compiled", "pure"]


@dataclass(frozen=True)
class BuildInfo:
    """The build this process runs: ``kind``, why, and the modules served compiled."""

    kind: Build
    reason: str
    modules: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.kind == "compiled":
            return f"compiled (mypyc, {len(self.modules)} modules)"
        return f"pure Python ({self.reason})"


def package_dir() -> Path:
    """The folder of the ``hkmahjong`` package's sources."""
    return Path(__file__).resolve().parent


def compiled_dir() -> Path:
    """Where ``tools/build_compiled.py`` puts the compiled build and its manifest."""
    return package_dir() / "_compiled"


def _module_file(name: str, root: Path) -> Path | None:
    """The source of module ``name`` (``hkmahjong.x.y``) under the package folder ``root``."""
    parts = name.split(".")[1:]
    base = root.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _imported(path: Path, root: Path) -> set[str]:
    """The package's modules that the source ``path`` imports (``TYPE_CHECKING`` ones too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "hkmahjong" and _module_file(name, root) is not None:
                found.add(name)
    return found


def source_files(root: Path | None = None, modules: Sequence[str] = COMPILED_MODULES) -> list[Path]:
    """The sources a compiled build is made from: the modules and every module they import.

    mypyc compiles each module with the types of what it imports, so an edit to any of these
    files may change the compiled code; nothing else can.
    """
    root = package_dir() if root is None else root
    seen: set[str] = set()
    todo = [name for name in modules if _module_file(name, root) is not None]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        file = _module_file(name, root)
        assert file is not None
        todo.extend(_imported(file, root) - seen)
    return sorted({f for f in (_module_file(name, root) for name in seen) if f is not None})


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_record(
    root: Path | None = None, modules: Sequence[str] = COMPILED_MODULES
) -> dict[str, dict[str, int | str]]:
    """Size, mtime and SHA-256 of each source file (the manifest's ``sources``), by relative path."""
    root = package_dir() if root is None else root
    record: dict[str, dict[str, int | str]] = {}
    for path in source_files(root, modules):
        st = path.stat()
        record[path.relative_to(root).as_posix()] = {
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
            "sha256": _digest(path),
        }
    return record


def check_manifest(
    manifest: dict[str, object], root: Path, modules: Sequence[str] = COMPILED_MODULES
) -> str | None:
    """Why the build described by ``manifest`` cannot serve the sources under ``root`` (None: it can).

    It must be for this interpreter (extension suffix), compile exactly ``modules``, and have been
    built from every source file it lists (:func:`source_files`) as it is now (size and mtime,
    else the SHA-256 of the contents).
    """
    if manifest.get("version") != MANIFEST_VERSION:
        return f"manifest version {manifest.get('version')!r}, expected {MANIFEST_VERSION}"
    suffix = ext_suffix()
    if manifest.get("ext_suffix") != suffix:
        return f"built for {manifest.get('ext_suffix')!r}, this interpreter loads {suffix!r}"
    compiled = manifest.get("modules")
    if not isinstance(compiled, list) or sorted(compiled) != sorted(modules):
        return "the list of compiled modules changed since the build"
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or not sources:
        return "the manifest lists no sources"
    for rel in sorted(sources):
        entry = sources[rel]
        path = root / rel
        if not isinstance(entry, dict):
            return f"the manifest's entry for {rel} is malformed"
        try:
            st = path.stat()
        except OSError:
            return f"{rel} was removed since the build"
        if entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns:
            continue
        if entry.get("sha256") != _digest(path):
            return f"{rel} changed since the build"
    return None


class _CompiledFinder:
    """Serves the compiled modules (and their shared mypyc library) from the build folder."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(name, file)

    def invalidate_caches(self) -> None:
        """Nothing cached beyond the fixed file map."""


_info: BuildInfo | None = None


def build_problem(root: Path) -> tuple[str | None, dict[str, Path]]:
    """Why the compiled build in ``root/_compiled`` cannot serve the sources under ``root`` (None:
    it can), and the files it serves by module name (empty when it cannot).

    Its manifest must be there and readable, pass :func:`check_manifest`, and list files that exist.
    """
    build = root / "_compiled"
    manifest_path = build / "manifest.json"
    if not manifest_path.is_file():
        return "not built (make compiled builds it; it needs a C compiler)", {}
    try:
        loaded = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"unreadable manifest {manifest_path}: {exc}", {}
    manifest = loaded if isinstance(loaded, dict) else {}
    reason = check_manifest(manifest, root)
    if reason is not None:
        return reason, {}
    listed = manifest.get("files")
    files = (
        {str(name): build / str(rel) for name, rel in listed.items()}
        if isinstance(listed, dict)
        else {}
    )
    missing = [str(p) for p in files.values() if not p.is_file()]
    if not files or missing:
        return f"compiled files missing: {', '.join(missing) or 'none listed'}", {}
    return None, files


def _choose(requested: str, root: Path) -> tuple[BuildInfo, dict[str, Path]]:
    """Decide the build for ``HKMJ_BUILD=requested``; the files to serve when compiled."""
    if requested not in ("", "auto", "pure", "compiled"):
        raise ImportError(
            f"{BUILD_ENV}={requested!r} is not a build: use 'auto' (default), 'pure' or 'compiled'"
        )
    if requested == "pure":
        return BuildInfo("pure", f"{BUILD_ENV}=pure"), {}
    reason, files = build_problem(root)
    manifest_path = root / "_compiled" / "manifest.json"
    if reason is not None:
        if requested == "compiled":
            raise ImportError(f"{BUILD_ENV}=compiled, but the compiled build cannot run: {reason}")
        if manifest_path.is_file():
            warnings.warn(
                f"hkmahjong: the compiled build is not used ({reason}); running pure Python"
                " — `make compiled` rebuilds it",
                RuntimeWarning,
                stacklevel=3,
            )
        return BuildInfo("pure", reason), {}
    modules = tuple(sorted(name for name in files if name.startswith("hkmahjong.")))
    return BuildInfo("compiled", "built and current", modules), files


def install() -> BuildInfo:
    """Choose the build once per process (``HKMJ_BUILD``) and serve it; returns :func:`build_info`.

    :raises ImportError: ``HKMJ_BUILD`` names no build, or is ``compiled`` and the build cannot run.
    """
    global _info
    if _info is not None:
        return _info
    info, files = _choose(os.environ.get(BUILD_ENV, "").strip().lower(), package_dir())
    if files:
        sys.meta_path.insert(0, _CompiledFinder(files))
    _info = info
    return info


def build_info() -> BuildInfo:
    """The build this process runs (chosen when the package was first imported)."""
    return install()


def ext_suffix() -> str:
    """The file ending of this interpreter's extension modules (e.g. ``.cpython-311-x86_64-linux-gnu.so``)."""
    return str(sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0])
