"""The lowest versions pyproject.toml admits, as pip constraints (issue 32 item 6).

    .venv/bin/python tools/min_versions.py server                  # ``name==lower-bound`` each
    .venv/bin/python tools/min_versions.py server --ranges         # the extra's ranges as written
    .venv/bin/python tools/min_versions.py dev test --ranges --only pytest httpx

``make min-versions`` installs the ``server`` extra at these versions in a throwaway venv and runs
the tests of the native websocket path (``hkmahjong.server.wsframes``, which uses uvicorn's and
the websockets library's internals) against them. The constraints are read from pyproject.toml
each time, so they cannot drift from the ranges it declares. pip has no ``--resolution=lowest``
(uv's ``lowest-direct``): the constraints pin the extra's direct dependencies only; what those
need in turn resolves as pip resolves it.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")


def requirements(extra: str, path: Path = PYPROJECT) -> list[str]:
    """The requirement strings of ``extra`` (``dependencies`` for ``main``) in ``path``.

    :raises SystemExit: when the extra does not exist.
    """
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    if extra == "main":
        return list(project.get("dependencies", []))
    extras = project.get("optional-dependencies", {})
    if extra not in extras:
        raise SystemExit(f"min_versions: no extra {extra!r} in {path} (has {', '.join(extras)})")
    return list(extras[extra])


def lower_bound(requirement: str) -> str:
    """``name==version`` for a requirement's ``>=`` bound (extras dropped: a constraint names a
    package alone).

    :raises SystemExit: when the requirement has no lower bound (then it has no minimum to test).
    """
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise SystemExit(f"min_versions: cannot read the requirement {requirement!r}")
    name, _extras, spec = match.groups()
    for part in spec.split(","):
        part = part.strip()
        if part.startswith(">="):
            return f"{name}=={part[2:].strip()}"
    raise SystemExit(f"min_versions: {requirement!r} has no lower bound (>=)")


def name_of(requirement: str) -> str:
    """The package a requirement names, normalised (``python_multipart`` is ``python-multipart``)."""
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise SystemExit(f"min_versions: cannot read the requirement {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def main(argv: list[str] | None = None) -> int:
    """Print the constraints (or the ranges) of extras, one a line.

    :raises SystemExit: for an unknown extra, a requirement without a lower bound, or an
        ``--only`` package that the extras do not list.
    """
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "extras",
        nargs="+",
        help="optional-dependencies extras of pyproject.toml ('main': the base)",
    )
    ap.add_argument("--ranges", action="store_true", help="print the ranges, not the minimums")
    ap.add_argument("--only", nargs="+", default=None, help="only these packages")
    args = ap.parse_args(argv)
    reqs = [req for extra in args.extras for req in requirements(extra)]
    if args.only is not None:
        wanted = {name_of(n) for n in args.only}
        reqs = [req for req in reqs if name_of(req) in wanted]
        missing = wanted - {name_of(req) for req in reqs}
        if missing:
            raise SystemExit(f"min_versions: {', '.join(sorted(missing))} not in {args.extras}")
    for req in reqs:
        print(req if args.ranges else lower_bound(req))
    return 0


if __name__ == "__main__":
    sys.exit(main())
