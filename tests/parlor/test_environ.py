"""One parser for the numeric HKMJ_* variables (parlor/environ.py): the same range checks and one
error, naming the variable, for the heap, league-sync, lease and search settings."""

from __future__ import annotations

import pytest

from hkmahjong.parlor.environ import EnvNumberError, env_number
from hkmahjong.parlor.thinking import _search_nice, _search_workers
from hkmahjong.server.settings import HeapSettings, Settings, SettingsError


def test_whole_numbers_and_seconds() -> None:
    assert env_number("N", "3", low=0, high=5, env={}) == 3
    assert isinstance(env_number("N", "3", low=0, high=5, env={}), int)
    assert env_number("S", "1", low=0.5, high=5, seconds=True, env={"S": "2.5"}) == 2.5
    assert env_number("S", "1", low=0.5, high=5, seconds=True, zero_off=True, env={"S": "0"}) == 0


@pytest.mark.parametrize("text", ["", "x", "1.5", "nan", "inf", "-1", "6"])
def test_bad_whole_numbers_name_the_variable(text: str) -> None:
    with pytest.raises(EnvNumberError, match=r"HKMJ_N='.*': expected a whole number from 0 to 5"):
        env_number("HKMJ_N", "1", low=0, high=5, env={"HKMJ_N": text})


@pytest.mark.parametrize("text", ["nan", "inf", "0", "0.01", "7"])
def test_bad_seconds_are_value_errors(text: str) -> None:
    with pytest.raises(ValueError, match="HKMJ_S"):
        env_number("HKMJ_S", "1", low=0.05, high=5, seconds=True, env={"HKMJ_S": text})


def test_the_parlor_settings_use_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HKMJ_SEARCH_WORKERS", "65")
    with pytest.raises(EnvNumberError, match="0: search in threads"):
        _search_workers()
    monkeypatch.setenv("HKMJ_SEARCH_NICE", "x")
    with pytest.raises(EnvNumberError, match="HKMJ_SEARCH_NICE"):
        _search_nice()
    monkeypatch.setenv("HKMJ_GC_FREEZE_SECONDS", "0")
    assert HeapSettings.from_env().freeze_s == 0  # 0: off
    monkeypatch.setenv("HKMJ_GC_YOUNG", "99")
    with pytest.raises(EnvNumberError, match="HKMJ_GC_YOUNG='99'"):
        HeapSettings.from_env()


def test_every_setting_fails_as_one_error_naming_the_variable() -> None:
    """One tree, one parser: the server's numbers go through env_number too, and every failure is
    a SettingsError that says which variable and why."""
    assert issubclass(EnvNumberError, SettingsError) and issubclass(SettingsError, ValueError)
    for name, text, why in [
        ("HKMJ_PORT", "http", "a whole number from 0 to 65535"),
        ("HKMJ_PORT", "70000", "a whole number from 0 to 65535"),
        ("HKMJ_MAX_OPEN_TABLES", "0", "a whole number from 1 to 10000"),
        ("HKMJ_WAITING_TABLE_SECONDS", "soon", "seconds from"),
        ("HKMJ_LEAGUE_SYNC_SECONDS", "0", "seconds from 0.05 to 3600"),
        ("HKMJ_GC_YOUNG", "1", "a whole number from 100"),
    ]:
        with pytest.raises(SettingsError, match=f"{name}='{text}': expected {why}"):
            Settings.from_env({name: text})
    with pytest.raises(SettingsError, match=r"HKMJ_TABLE_CLOCKS='.*turn_ms"):
        Settings.from_env({"HKMJ_TABLE_CLOCKS": '{"turn_ms": -1}'})
    with pytest.raises(SettingsError, match=r"HKMJ_TABLE_CLOCKS='\[1\]'"):
        Settings.from_env({"HKMJ_TABLE_CLOCKS": "[1]"})


def test_the_settings_tree_holds_the_parlors_own_clocks() -> None:
    """One ClockSettings (the parlor's): the server's defaults are the parlor's, and
    HKMJ_TABLE_CLOCKS changes the named fields of both the online and the practice clocks."""
    from hkmahjong.parlor.clocks import PRACTICE_CLOCKS, ClockSettings

    plain = Settings.from_env({})
    assert plain.clocks == ClockSettings() and plain.practice_clocks == PRACTICE_CLOCKS
    assert plain.heap == HeapSettings() and plain.league_sync_s == 5.0
    fast = Settings.from_env(
        {"HKMJ_TABLE_CLOCKS": '{"bot_ms": 0, "discard_delay_ms": 0}', "HKMJ_PORT": "8123"}
    )
    assert fast.port == 8123 and isinstance(fast.port, int)
    assert fast.clocks == ClockSettings(bot_ms=0, discard_delay_ms=0)
    assert fast.practice_clocks.bot_ms == 0 and fast.practice_clocks.turn_ms == 0
    assert fast.practice_clocks.next_hand_ms == PRACTICE_CLOCKS.next_hand_ms
