"""Build the compiled twin of the hot modules with mypyc (issue 16): ``src/hkmahjong/_compiled``.

    .venv/bin/python tools/build_compiled.py            # build when missing or stale (make does this)
    .venv/bin/python tools/build_compiled.py --force    # build again
    .venv/bin/python tools/build_compiled.py --check    # say whether the build is current; exit 1 if not
    .venv/bin/python tools/build_compiled.py --clean    # remove it: the package runs pure Python
    .venv/bin/python tools/build_compiled.py --expect   # print the build the tests should find

The modules are :data:`hkmahjong._build.COMPILED_MODULES`, compiled as one mypyc group (they call
each other natively); ``hkmahjong._build`` serves them at import when the manifest written here
matches the interpreter and every source (see its docstring; ``HKMJ_BUILD`` chooses). Without a C
compiler or the Python headers, or with ``HKMJ_BUILD=pure``, nothing is built and the package runs
pure Python: the build is an optimisation, never a requirement.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
REQUESTED = os.environ.get("HKMJ_BUILD", "").strip().lower()
os.environ["HKMJ_BUILD"] = "pure"  # this tool reads the sources; it never runs the build it makes
sys.path.insert(0, str(SRC))

from hkmahjong import _build as B  # noqa: E402

MYPY_CONFIG = """\
[mypy]
python_version = 3.11
[mypy-numpy,numpy.*,gymnasium,gymnasium.*,pettingzoo,pettingzoo.*,torch,torch.*,ray,ray.*]
follow_imports = skip
follow_imports_for_stubs = True
ignore_missing_imports = True
"""
"""The compile's own mypy settings. Compiling ``env/encoding.py`` type-checks its package, whose
``__init__`` imports the env's adapters: followed into NumPy, Gymnasium and PettingZoo (and from
there torch, whose sources crash mypy), that pass took about 110 s instead of 2. Those packages
are ``Any`` to the compile (their calls are Python calls from compiled code whatever their types),
and need not be installed (Ray and torch are optional extras: without Ray the build failed);
``make typecheck`` checks the real types with the project's strict settings."""


def compiler_missing() -> str | None:
    """Why no C extension can be built here (None: a compiler and the headers are present)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc!r} is not on PATH)"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (Python.h not in {include})"
    try:
        import mypyc  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as exc:
        return f"mypyc or setuptools is not installed ({exc.name}): pip install -e '.[dev]'"
    return None


def current_reason() -> str | None:
    """Why the build on disk cannot serve the sources as they are now (None: it is current) — the
    same test the package applies at import."""
    return B.build_problem(B.package_dir())[0]


def build(jobs: int) -> dict[str, object]:
    """Compile the modules into a fresh folder, then swap it in for ``_compiled``; the manifest."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    modules: tuple[str, ...] = B.COMPILED_MODULES
    out = B.compiled_dir()
    sources = B.source_record()
    paths = [name.replace(".", "/") + ".py" for name in modules]
    with tempfile.TemporaryDirectory(prefix="hkmj-mypyc-") as tmp:
        staging = Path(tmp) / "lib"
        cwd = os.getcwd()
        # mypy's cache beside the project's own (not in src/): an unchanged module is not re-read
        os.environ.setdefault("MYPY_CACHE_DIR", str(SRC.parent / ".mypy_cache" / "mypyc"))
        os.chdir(SRC)  # mypyc names modules by their path from here
        try:
            config = Path(tmp) / "mypy.ini"
            config.write_text(MYPY_CONFIG, encoding="utf-8")
            extensions = mypycify(
                [f"--config-file={config}", *paths],
                opt_level="3",
                multi_file=jobs > 1,
                target_dir=str(Path(tmp) / "c"),
                group_name="hkmahjong_compiled",
            )
            dist = Distribution({"name": "hkmahjong-compiled", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(staging)
            cmd.build_temp = str(Path(tmp) / "obj")
            cmd.parallel = jobs
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
        suffix = B.ext_suffix()
        files: dict[str, str] = {}
        for so in sorted(staging.rglob("*" + suffix)):
            rel = so.relative_to(staging)
            name = ".".join((*rel.parts[:-1], rel.name[: -len(suffix)]))
            files[name] = rel.as_posix()
        missing = [m for m in modules if m not in files]
        if missing:
            raise SystemExit(f"build_compiled: mypyc built no extension for {', '.join(missing)}")
        manifest = {
            "version": B.MANIFEST_VERSION,
            "ext_suffix": suffix,
            "python": sys.version.split()[0],
            "mypy": _mypy_version(),
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "modules": sorted(modules),
            "files": files,
            "sources": sources,
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        old = out.with_name("_compiled.old")
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            out.rename(old)
        shutil.copytree(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    return manifest


def _mypy_version() -> str:
    from mypy.version import __version__

    return str(__version__)


def main(argv: list[str] | None = None) -> int:
    """Build, check or remove the compiled build; prints one line saying what happened."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--force", action="store_true", help="build even if current")
    mode.add_argument("--check", action="store_true", help="exit 1 unless the build is current")
    mode.add_argument("--clean", action="store_true", help="remove the compiled build")
    mode.add_argument(
        "--expect",
        action="store_true",
        help="print the build the tests should find loaded: compiled where one can be built",
    )
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel C compiles")
    args = ap.parse_args(argv)
    out = B.compiled_dir()
    if args.clean:
        shutil.rmtree(out, ignore_errors=True)
        print(f"build_compiled: removed {out}; the package runs pure Python")
        return 0
    if args.expect:
        print("pure" if REQUESTED == "pure" or compiler_missing() else "compiled")
        return 0
    reason = current_reason()
    if args.check:
        print(f"build_compiled: {reason or 'current'}")
        return 0 if reason is None else 1
    if REQUESTED == "pure":
        print(f"build_compiled: {B.BUILD_ENV}=pure, not building")
        return 0
    if reason is None and not args.force:
        print(f"build_compiled: current ({len(B.COMPILED_MODULES)} modules)")
        return 0
    missing = compiler_missing()
    if missing is not None:
        print(f"build_compiled: {missing}; the package runs pure Python")
        return 0
    start, cpu = time.perf_counter(), time.process_time()
    print(
        f"build_compiled: {reason or 'forced'}: compiling {len(B.COMPILED_MODULES)} modules with mypyc ..."
    )
    manifest = build(max(1, args.jobs))
    print(
        f"build_compiled: built {len(manifest['files'])} extensions in {out}"
        f" ({time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU in this process)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
