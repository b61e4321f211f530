"""Shared fixtures for the payment tests: real rulesets with payment switches replaced."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from hkmahjong.rules import Ruleset
from hkmahjong.rules.presets import get_preset

TableFactory = Callable[..., Ruleset]


def make_table(
    preset: str = "parlor",
    *,
    min_fan: int | None = None,
    limit: int | str | None = "keep",
    dead_wall: int | None = None,
    **payment: Any,
) -> Ruleset:
    """The preset with ``payment`` switches (and optionally min fan / limit) replaced."""
    base = get_preset(preset)
    changes: dict[str, Any] = {}
    if payment:
        changes["payment"] = dataclasses.replace(base.payment, **payment)
    if min_fan is not None:
        changes["min_fan"] = min_fan
    if limit != "keep":
        changes["limit"] = limit
    if dead_wall is not None:
        changes["dead_wall"] = dead_wall
    return dataclasses.replace(base, **changes) if changes else base


@pytest.fixture
def table() -> TableFactory:
    """``table(preset="parlor", **payment_switches)`` -> Ruleset."""
    return make_table
