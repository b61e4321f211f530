"""hkmahjong: a Hong Kong mahjong (香港麻雀) rules engine, calculator, bots and parlor."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
