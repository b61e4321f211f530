"""枱例條款: TableConfig lives in parlor/terms.py; every new table's terms are checked before it
is stored (issue 29 item 5); a stored table of any age still reads back; the until-bankrupt
start is the length's (issue 31 item 5); a one-hand staked table pays straight from the payout
table (issue 31 item 3)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, settle

from hkmahjong.engine.match import BANKRUPTCY_START
from hkmahjong.parlor import table as table_module
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ledger import MemoryLedger, grant
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import MemoryTableStore
from hkmahjong.parlor.stakes import STAKE_LEVELS, stake_for, table_value
from hkmahjong.parlor.terms import TableConfig, TableError, check_new
from hkmahjong.rules import get_preset

PARLOR = get_preset("parlor")
ML = get_preset("ml")


def test_table_config_moved_and_is_still_importable_from_the_table() -> None:
    assert table_module.TableConfig is TableConfig
    assert table_module.TableError is TableError


def _online(**kw: Any) -> TableConfig:
    ruleset = kw.pop("ruleset", PARLOR)
    settings: dict[str, Any] = {"stake": 192, "level": 1, "clocks": FAST}
    settings.update(kw)
    return TableConfig.of("online", ruleset, **settings)


@pytest.mark.parametrize(
    ("config", "field"),
    [
        (lambda: _online(length="open"), "length"),
        (lambda: _online(length="one-hand"), "length"),
        (lambda: _online(level=3, stake=576), "level"),
        (lambda: _online(level=None), "level"),
        (lambda: _online(level=True, stake=192), "level"),
        (lambda: _online(stake=100), "stake"),
        (lambda: _online(fee=True), "fee"),
        (lambda: _online(fee=10**7), "fee"),
        (lambda: _online(max_hands=2), "max_hands"),
        (lambda: _online(starting_balance=500), "starting_balance"),
        (lambda: _online(bots=("easy", None, None, None)), "bots"),
        (lambda: _online(bots=(None, "nobody", None, None)), "bots"),
        (lambda: _online(hints=1), "hints"),
        (lambda: _online(clocks={"turn_ms": 1}), "clocks"),
        (
            lambda: TableConfig.of(
                "practice", PARLOR, length="one-hand", bots=(None, "easy", "easy", "easy")
            ),
            "length",
        ),
        (
            lambda: TableConfig.of(
                "practice", PARLOR, length="8-hands", bots=(None, "easy", None, "easy")
            ),
            "bots",
        ),
        (
            lambda: TableConfig.of("practice", PARLOR, length="8-hands", level=1),
            "level",
        ),
        (
            lambda: TableConfig.of("online", PARLOR, length="one-hand", league=3),
            "length",
        ),
        (
            lambda: TableConfig.of("online", ML, length="one-hand", league=3, stake=5),
            "stake",
        ),
    ],
)
def test_check_new_names_the_term_that_is_wrong(config: Any, field: str) -> None:
    with pytest.raises(TableError) as caught:
        check_new(config())
    assert caught.value.code == "bad_config" and caught.value.field == field
    assert caught.value.message.startswith(f"{field}: ")


def test_good_terms_pass() -> None:
    for level in STAKE_LEVELS:
        check_new(_online(level=level, stake=stake_for(PARLOR, level)))
    check_new(_online(ruleset=ML, length="one-hand", stake=1024))
    check_new(
        TableConfig.of("practice", PARLOR, length="bankruptcy", bots=(None, "easy", "easy", "easy"))
    )
    check_new(TableConfig.of("online", ML, length="four-rounds", league=3, bots=("easy",) * 4))


def test_a_table_stored_before_the_terms_still_reads_back() -> None:
    """A live table of the old rules (a free-number stake, no level, a one-hand parlor table)
    is rebuilt from its stored JSON: only new tables are checked."""
    old = {
        "kind": "online",
        "rules": _online().rules,
        "length": "one-hand",
        "stake": 100,
        "fee": 0,
        "clocks": FAST.to_json(),
        "hints": False,
        "private": False,
        "bots": [None, None, None, None],
        "starting_balance": 0,
        "max_hands": None,
        "watch_delay_ms": None,
    }
    config = TableConfig.from_json(old)
    assert (config.stake, config.level, config.length) == (100, None, "one-hand")
    assert TableConfig.from_json(config.to_json()) == config
    with pytest.raises(TableError, match=r"^length: .* offers online"):
        check_new(config)
    new = _online(level=2, stake=384, bots_on_start=("easy",))
    assert TableConfig.from_json(new.to_json()) == new


def test_the_table_value_follows_the_ruleset() -> None:
    """Seed 002 "每牌桌的賭注或牌桌的價值是由出沖最高番為定"."""
    assert table_value(PARLOR) == 192  # 10 fan 半辣上 = 64, 全銃 3 shares
    assert table_value(ML) == 1024  # ML 付錢表 +10 出沖
    assert table_value(get_preset("qingzhang")) == 384  # 13 fan = 192, W2 全銃 2 shares
    assert table_value(replace(PARLOR, limit=8)) == 96  # 8 fan = 32 × 3
    assert [stake_for(PARLOR, u) for u in STAKE_LEVELS] == [0, 192, 384, 960, 1920]


def test_a_practice_table_until_bankruptcy_starts_at_the_lengths_balance() -> None:
    """Issue 31 item 5: the web parlor's 1000 (table.py) and the terminal's 500 are one value."""

    async def main() -> int:
        clock = FakeClock()
        lobby = Lobby(MemoryTableStore(), clock=clock)
        table = await lobby.practice((1, "ann"), PARLOR, length="bankruptcy", bots=("easy",) * 3)
        Client(table, 0).connect()
        await settle(table, clock, 1.0)
        assert table.runner is not None
        start = table.runner.match.starting_balance
        await lobby.stop()
        return int(start)

    assert asyncio.run(main()) == BANKRUPTCY_START


def test_the_lobby_refuses_before_storing_anything() -> None:
    async def main() -> None:
        store = MemoryTableStore()
        ledger = MemoryLedger()
        ledger.post_sync(grant("user:1", 10_000, "g1"))
        lobby = Lobby(store, ledger=ledger, clock=FakeClock())
        for kw in ({"length": "open"}, {"level": 4}, {"length": "16-hands"}):
            with pytest.raises(TableError):
                await lobby.online((1, "ann"), PARLOR, **kw)
        with pytest.raises(TableError) as caught:
            await lobby.practice((1, "ann"), PARLOR, length="one-hand")
        assert caught.value.field == "length"
        assert await store.open_tables() == [] and lobby.tables == {}
        assert ledger.balance_sync("user:1") == 10_000

    asyncio.run(main())
