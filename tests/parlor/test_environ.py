"""One parser for the numeric HKMJ_* variables (parlor/environ.py): the same range checks and one
error, naming the variable, for the heap, league-sync, lease and search settings."""

from __future__ import annotations

import pytest

from hkmahjong.parlor.environ import EnvNumberError, env_number
from hkmahjong.parlor.thinking import _search_nice, _search_workers
from hkmahjong.server.heap import HeapSettings


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
