"""hkmahjong: a Hong Kong mahjong (香港麻雀) rules engine, calculator, bots and parlor."""

from __future__ import annotations

from hkmahjong._build import BuildInfo, build_info, install

__version__ = "0.1.0"

__all__ = ["BuildInfo", "__version__", "build_info"]

install()
