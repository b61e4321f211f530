"""Numeric command-line options (數值選項): argparse types that refuse what a command cannot use.

Shared by the commands of :mod:`hkmahjong.cli` and :mod:`hkmahjong.server` (it imports only the
standard library, so both may use it). Every numeric option of every ``hkmj`` command uses one of
these, so
``sim --start -5`` or ``play --speed -1`` stop at the parser with a message naming the option
(``tests/cli/test_cli_numbers.py`` checks that no command keeps a bare ``int`` or ``float``).

>>> non_negative_float("0.5")
0.5
>>> positive_int("3")
3
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = [
    "NUMBER_TYPES",
    "non_negative_float",
    "non_negative_int",
    "port_number",
    "positive_float",
    "positive_int",
]


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _real(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number ≥ 1 (hands, jobs, a 1-based hand number).

    :raises argparse.ArgumentTypeError: for anything else (argparse names the option).
    """
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number ≥ 0 (starting jade).

    :raises argparse.ArgumentTypeError: for anything else.
    """
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (a claim timer, a time budget in seconds).

    :raises argparse.ArgumentTypeError: for anything else.
    """
    value = _real(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def non_negative_float(text: str) -> float:
    """A finite number ≥ 0 (a pause in seconds).

    :raises argparse.ArgumentTypeError: for anything else.
    """
    value = _real(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 0–65535 (0: the system picks a free one).

    :raises argparse.ArgumentTypeError: for anything else.
    """
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535, got {text}")
    return value


NUMBER_TYPES: tuple[Callable[[str], int | float], ...] = (
    port_number,
    positive_int,
    non_negative_int,
    positive_float,
    non_negative_float,
)
"""The checked numeric option types; a command's numeric option must use one of them."""
