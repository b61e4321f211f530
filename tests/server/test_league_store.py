"""聯賽 leagues on the parlor's database (SQLite and PostgreSQL): revision 0002, the SQL league
store committing each step with its jade as one unit (seed 002 《取消》 through the real ledger)."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from alembic import command

from hkmahjong.parlor.league import (
    T0,
    LeagueConfig,
    LeagueConflictError,
    LeagueDesk,
    LeagueError,
    escrow_of,
    join,
    pool_of,
)
from hkmahjong.parlor.ledger import FEES, InsufficientJadeError, grant, user_account
from hkmahjong.rules import get_preset
from hkmahjong.server.store import Store
from hkmahjong.server.store.db import alembic_config
from hkmahjong.server.store.leagues import SqlLeagueStore
from hkmahjong.server.store.ledger import SqlLedger

CLOSES = T0 + timedelta(days=1)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def cfg(name: str = "Spring", **kw: object) -> LeagueConfig:
    return LeagueConfig.of(name, get_preset("parlor"), signup_opens=T0, signup_closes=CLOSES, **kw)  # type: ignore[arg-type]


def setup(store: Store, players: int, jade: int = 1000) -> tuple[LeagueDesk, SqlLedger, Clock]:
    ledger = SqlLedger(store)
    for u in range(1, players + 1):
        ledger.post_sync(grant(user_account(u), jade, f"grant:test:{u}"))
    clock = Clock()
    return LeagueDesk(SqlLeagueStore(store), clock=clock), ledger, clock


def test_a_league_is_stored_and_read_back_whole(store: Store) -> None:
    desk, ledger, clock = setup(store, 5)
    lg = desk.create(cfg(entry_fee=10, stake=100, guarantee=7, fill="byes"), seed="abc")
    for u in range(1, 6):
        desk.join(lg.id, u, f"玩家{u}")
    clock.now = CLOSES
    lg = desk.start(lg.id)
    assert desk.store.get(lg.id) == lg
    assert desk.store.find("SPRING") == lg and desk.store.leagues() == [lg]
    assert [d.kind for d in lg.log] == ["created", *["joined"] * 5, "started", "seated"]
    assert (
        ledger.balance_sync(pool_of(lg.id)) == 507 and ledger.balance_sync(escrow_of(lg.id)) == 50
    )
    with pytest.raises(LeagueError, match="named") as caught:
        desk.create(cfg(name="spring"))
    assert caught.value.code == "name_taken"


def test_a_league_played_to_the_end_pays_its_prizes(store: Store) -> None:
    desk, ledger, clock = setup(store, 4)
    lg = desk.create(cfg(entry_fee=5, stake=100, rounds=1, prizes=(70, 30)), seed="s")
    for u in range(1, 5):
        desk.join(lg.id, u, f"P{u}")
    clock.now = CLOSES
    lg = desk.start(lg.id)
    match = lg.rounds[0].matches[0]
    points = {1: 40, 2: 20, 3: -20, 4: -40}
    lg = desk.record(lg.id, 1, 1, [points[s] for s in match.seats if s is not None])
    assert lg.status == "finished"
    assert [ledger.balance_sync(user_account(u)) for u in range(1, 5)] == [
        1175,
        1015,
        895,
        895,
    ]  # pool 400: 70% 280, 30% 120
    assert ledger.balance_sync(FEES) == 20 and ledger.total() == 0
    assert desk.record(lg.id, 1, 1, [points[s] for s in match.seats if s is not None]) == lg


def test_rolled_back_and_rolled_out_on_the_database(store: Store) -> None:
    """滾回 refunds fee and stake; 滾出 refunds fees and splits the pool (seed 002 《取消》)."""
    desk, ledger, clock = setup(store, 4)
    back = desk.create(cfg(name="Back", entry_fee=10, stake=100), seed="b")
    out = desk.create(cfg(name="Out", entry_fee=10, stake=100, guarantee=101, rounds=2), seed="o")
    for u in range(1, 5):
        desk.join(back.id, u, f"P{u}")
        desk.join(out.id, u, f"P{u}")
    assert [ledger.balance_sync(user_account(u)) for u in range(1, 5)] == [780] * 4
    back = desk.cancel(back.id, "not enough interest")
    assert back.status == "rolled_back" and back.log[-1].kind == "rolled_back"
    assert "not enough interest" in back.log[-1].reason
    assert [ledger.balance_sync(user_account(u)) for u in range(1, 5)] == [890] * 4
    clock.now = CLOSES
    lg = desk.start(out.id)
    match = lg.rounds[0].matches[0]
    points = {1: 30, 2: 10, 3: -15, 4: -25}
    desk.record(lg.id, 1, 1, [points[s] for s in match.seats if s is not None])
    lg = desk.cancel(lg.id, "server move")
    assert lg.status == "rolled_out"
    # the worked example of docs/leagues.md: 63+188, 63+63, 62, 62 (largest remainders), plus
    # each fee back
    assert [ledger.balance_sync(user_account(u)) for u in range(1, 5)] == [
        890 + 10 + 63 + 188,
        890 + 10 + 63 + 63,
        890 + 10 + 62,
        890 + 10 + 62,
    ]
    assert ledger.balance_sync(pool_of(lg.id)) == 0 and ledger.balance_sync(escrow_of(lg.id)) == 0
    assert desk.store.get(lg.id) == lg and desk.cancel(lg.id, "twice") == lg
    assert ledger.total() == 0


def test_a_step_whose_jade_cannot_move_saves_nothing(store: Store) -> None:
    desk, ledger, _ = setup(store, 1, jade=50)
    lg = desk.create(cfg(stake=100), seed="x")
    step = join(lg, 1, "P1", now=T0)
    with pytest.raises(InsufficientJadeError, match="has 50, needs 100"):
        desk.store.commit(lg, step.league, step.txns)
    assert desk.store.get(lg.id) == lg and ledger.balance_sync(user_account(1)) == 50
    with pytest.raises(LeagueConflictError):
        desk.store.commit(replace(lg, version=7), step.league, ())  # version 1 is stored


def test_concurrent_sign_ups_all_land_once(store: Store) -> None:
    desk, ledger, _ = setup(store, 8)
    lg = desk.create(cfg(stake=100, max_players=8), seed="x")
    errors: list[Exception] = []

    def sign_up(u: int) -> None:
        try:
            desk.join(lg.id, u, f"P{u}")
            desk.join(lg.id, u, f"P{u}")  # a retry of the same sign-up
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=sign_up, args=(u,)) for u in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    lg = desk.get(lg.id)
    assert sorted(e.user_id for e in lg.active) == list(range(1, 9))
    assert ledger.balance_sync(pool_of(lg.id)) == 800
    assert all(ledger.balance_sync(user_account(u)) == 900 for u in range(1, 9))


def test_revision_0002_upgrades_a_0001_database(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'old.db'}", migrate=False)
    try:
        command.upgrade(alembic_config(store.engine), "0001")
        assert store.revision() == "0001"
        SqlLedger(store).post_sync(grant(user_account(1), 500, "grant:old"))
        command.upgrade(alembic_config(store.engine), "0002")
        assert store.revision() == "0002"
        desk = LeagueDesk(SqlLeagueStore(store), clock=lambda: T0)
        lg = desk.join(desk.create(cfg(stake=100), seed="x").id, 1, "Old timer")
        assert SqlLedger(store).balance_sync(user_account(1)) == 400 and len(lg.active) == 1
        command.downgrade(alembic_config(store.engine), "0001")
        assert store.revision() == "0001"
    finally:
        store.close()
