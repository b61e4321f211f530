"""Every numeric option of every ``hkmj`` command refuses values it cannot use (issue 13 item 16)."""

from __future__ import annotations

import argparse

import pytest

from hkmahjong.argtypes import NUMBER_TYPES
from hkmahjong.cli.main import build_parser
from hkmahjong.entry import COMMAND_PACKAGES, main

BAD_NUMBERS: list[tuple[list[str], str, list[str]]] = [
    (["sim"], "--hands", ["0", "-1", "x", "1.5"]),
    (["sim"], "--start", ["-5", "nan", "2.5"]),
    (["sim"], "--time-budget", ["0", "-0.1", "inf", "nan"]),
    (["sim"], "--matches", ["0", "-2", "x"]),
    (["sim"], "--jobs", ["0", "-1"]),
    (["arena"], "--hands", ["0", "-3"]),
    (["arena"], "--jobs", ["0", "-1"]),
    (["arena"], "--budget", ["0", "-1", "nan"]),
    (["play"], "--speed", ["-1", "nan", "inf", "fast"]),
    (["play"], "--claim-timer", ["0", "-3", "inf"]),
    (["replay", "rec.jsonl"], "--hand", ["0", "-2"]),
    (["replay", "rec.jsonl"], "--record", ["0", "-2"]),
    (["serve"], "--port", ["-1", "65536", "http"]),
    (["serve"], "--metrics-port", ["-1", "65536", "http"]),
    (["review", "rec.jsonl"], "--hand", ["0", "-2"]),
    (["review", "rec.jsonl"], "--record", ["0", "-2"]),
    (["review", "rec.jsonl"], "--budget", ["0", "-1", "x", "1.5"]),
    (["review", "rec.jsonl"], "--width", ["0", "-1"]),
    (["review", "rec.jsonl"], "--jobs", ["0", "-1"]),
]


def _numeric_actions() -> list[tuple[str, argparse.Action]]:
    parser = build_parser(COMMAND_PACKAGES)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in sub.choices.items():
        for action in command._actions:
            if action.type in (int, float) or action.type in NUMBER_TYPES:
                found.append((name, action))
    return found


def test_no_command_keeps_an_unchecked_number() -> None:
    """A ``type=int`` / ``type=float`` option would take -5 or nan: each must use a checked type."""
    actions = _numeric_actions()
    assert len(actions) >= 9
    bare = [f"{name} {a.option_strings}" for name, a in actions if a.type in (int, float)]
    assert bare == []


def test_the_table_covers_every_numeric_option() -> None:
    """The table below names every numeric option of every command (a new one must be added)."""
    listed = {(cmd[0], opt) for cmd, opt, _ in BAD_NUMBERS}
    found = {(name, a.option_strings[-1]) for name, a in _numeric_actions()}
    assert found == listed


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [(cmd, opt, v) for cmd, opt, values in BAD_NUMBERS for v in values],
)
def test_bad_numbers_are_refused(
    capsys: pytest.CaptureFixture[str], command: list[str], option: str, value: str
) -> None:
    """``sim --start -5``, ``play --speed -1`` …: status 2 and a message naming the option."""
    with pytest.raises(SystemExit) as stop:
        main([*command, f"{option}={value}"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert option in err and value in err


def test_good_numbers_still_parse() -> None:
    """The boundaries that make sense are accepted (0 jade, no pause, hand 1)."""
    parser = build_parser(COMMAND_PACKAGES)
    args = parser.parse_args(["sim", "--start", "0", "--hands", "1", "--time-budget", "0.01"])
    assert (args.start, args.hands, args.time_budget) == (0, 1, 0.01)
    assert parser.parse_args(["play", "--speed", "0"]).speed == 0.0
    assert parser.parse_args(["replay", "f", "--hand", "1"]).hand == 1
    assert parser.parse_args(["serve", "--port", "0"]).port == 0
