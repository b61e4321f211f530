"""``hkmj``: the installed command — the terminal commands of :mod:`hkmahjong.cli` and the parlor
server's (``hkmj serve``, ``hkmj admin``) of :mod:`hkmahjong.server`, in one parser.

This module sits above both interface packages so that neither imports the other (docs/dev/architecture.md layers).
The server's command modules import only the standard library at load time; without the ``[server]``
extra, ``hkmj serve`` says how to install it.
"""

from __future__ import annotations

from collections.abc import Sequence

import hkmahjong.cli
import hkmahjong.server
from hkmahjong.cli.main import main as _main

__all__ = ["COMMAND_PACKAGES", "main"]

COMMAND_PACKAGES = (hkmahjong.cli, hkmahjong.server)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hkmj`` with ``argv`` (default: the process arguments); returns the exit status."""
    return _main(argv, COMMAND_PACKAGES)


if __name__ == "__main__":
    raise SystemExit(main())
