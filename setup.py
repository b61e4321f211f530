"""setuptools' hook for one thing pyproject.toml cannot say: ``HKMJ_WHEEL=compiled`` makes a
platform wheel holding the compiled build (``src/hkmahjong/_compiled``, made first by
``tools/build_compiled.py``; docs/operations.md, *The release*). Without it: the pure wheel."""

import os

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution


class _Platform(Distribution):
    def has_ext_modules(self) -> bool:  # the wheel is tagged for this interpreter and platform
        return True


class _WithCompiled(build_py):
    """Copies ``_compiled`` into the build (pyproject.toml excludes it from the package data)."""

    def run(self) -> None:
        super().run()
        source = os.path.join("src", "hkmahjong", "_compiled")
        if not os.path.isfile(os.path.join(source, "manifest.json")):
            raise SystemExit("HKMJ_WHEEL=compiled: run tools/build_compiled.py first")
        self.copy_tree(source, os.path.join(self.build_lib, "hkmahjong", "_compiled"))


if os.environ.get("HKMJ_WHEEL") == "compiled":
    setup(distclass=_Platform, cmdclass={"build_py": _WithCompiled})
else:
    setup()
