"""``hkmj admin``: users with their jade, grants, administrators, tables, cancelling a table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.server.conftest import cheap_argon2
from tests.server.waits import Changes, chain, until_in_loop

from hkmahjong.entry import main
from hkmahjong.parlor.clocks import ClockSettings as TableClocks
from hkmahjong.parlor.ledger import FEES
from hkmahjong.parlor.lobby import WATCH_SECONDS, Lobby
from hkmahjong.parlor.stakes import escrow_of
from hkmahjong.rules import get_preset
from hkmahjong.server.admin import (
    AdminError,
    cancel_table,
    grant_jade,
    league_desk,
    list_tables,
    list_users,
    set_admin,
)
from hkmahjong.server.app import create_app
from hkmahjong.server.auth import Auth, CurrentUser
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import SqlLedger
from hkmahjong.server.store.models import ParlorTable, TableLog, TableSeat
from hkmahjong.server.store.tables import SqlTableStore


def test_admin_cli_on_the_servers_sqlite_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(data_dir=tmp_path, secret="s" * 32)
    store = Store.open(settings.database_url)
    auth = Auth(store, settings, cheap_argon2())
    auth.register("Ah Ming", "long enough pw")
    auth.create_guest()
    store.close()
    base = ["admin", "--data-dir", str(tmp_path)]
    assert main([*base, "grant", "ah ming", "500", "--memo", "league prize"]) == 0
    assert "balance 10500" in capsys.readouterr().out
    assert main([*base, "users"]) == 0
    out = capsys.readouterr().out
    assert "Ah Ming" in out and "10500" in out and "guest-" not in out
    assert main([*base, "users", "--guests"]) == 0
    assert "guest-" in capsys.readouterr().out
    assert main([*base, "promote", "Ah Ming"]) == 0
    assert "administrator" in capsys.readouterr().out
    assert main([*base, "grant", "nobody", "5"]) == 2
    assert "no user named 'nobody'" in capsys.readouterr().err
    assert main([*base, "tables"]) == 0


def test_admin_operations(store: Store, settings: Settings) -> None:
    auth = Auth(store, settings, cheap_argon2())
    ming = auth.register("Ah Ming", "long enough pw")
    guest = auth.create_guest()
    with pytest.raises(AdminError, match="positive"):
        grant_jade(store, "Ah Ming", 0)
    with pytest.raises(AdminError, match="guest"):
        grant_jade(store, guest.name, 10)
    assert grant_jade(store, "AH MING", 250) == settings.starting_grant + 250
    assert set_admin(store, "Ah Ming").is_admin
    assert [u.name for u in list_users(store)] == ["Ah Ming"]
    with store.session() as session:
        table = ParlorTable(
            public_id="t1",
            kind="online",
            status="waiting",
            config={},
            ruleset_digest="d",
            creator_id=ming.id,
            match_seed="seed",
        )
        session.add(table)
        session.flush()
        session.add(TableSeat(table_id=table.id, player=0, user_id=ming.id, status="connected"))
        session.add(TableSeat(table_id=table.id, player=1, bot_level="hard", status="bot"))
        session.add(TableSeat(table_id=table.id, player=2, status="empty"))
    rows = list_tables(store)
    assert [(t.public_id, t.seats, t.status) for t in rows] == [("t1", 2, "waiting")]
    assert list_tables(store, status="finished") == []


def test_admin_league_commands_from_create_to_rolled_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hkmj admin league create|list|start|result|show|cancel`` (seed 002 《取消》: 滾出)."""
    settings = Settings(data_dir=tmp_path, secret="s" * 32)
    store = Store.open(settings.database_url)
    auth = Auth(store, settings, cheap_argon2())
    people = [auth.register(f"Player {i}", "long enough pw") for i in range(1, 6)]
    base = ["admin", "--data-dir", str(tmp_path), "league"]
    make = [*base, "create", "Spring Cup", "--fee", "10", "--stake", "100", "--guarantee", "1"]
    assert main([*make, "--rounds", "2", "--fill", "byes", "--seed", "s"]) == 0
    assert "created league 1 'Spring Cup'" in capsys.readouterr().out
    assert main([*make, "--prizes", "50,60"]) == 2
    assert "prizes [50, 60]" in capsys.readouterr().err
    assert main([*base, "create", "Other", "--opens", "yesterday"]) == 2
    assert "ISO 8601" in capsys.readouterr().err
    assert main([*base, "create", "Other", "--length", "open"]) == 2
    assert "never ends" in capsys.readouterr().err
    assert main([*base, "start", "spring cup"]) == 2
    assert "start it early" in capsys.readouterr().err
    desk = league_desk(store)
    for user in people:
        desk.join(1, user.id, user.name)
    assert main([*base, "list"]) == 0
    out = capsys.readouterr().out
    assert "Spring Cup" in out and "open" in out and "501" in out
    assert main([*base, "start", "1", "--early"]) == 0
    assert "5 players" in capsys.readouterr().out
    assert main([*base, "result", "1", "1", "1", "30,10,-15"]) == 2
    assert "four whole numbers" in capsys.readouterr().err
    assert main([*base, "result", "1", "2", "1", "30,10,-15,-25"]) == 2
    assert "no round 2 table 1" in capsys.readouterr().err
    assert main([*base, "result", "Spring Cup", "1", "1", "30,10,-15,-25"]) == 0
    capsys.readouterr()
    assert main([*base, "show", "Spring Cup"]) == 0
    out = capsys.readouterr().out
    assert "running (round 2 of 2)" in out and "entry fee 10 (手續費) + stake 100" in out
    assert "byes:" in out and "tie-breaks: table points" in out and "decisions:" in out
    assert "pool:league:1 501" in out and "escrow:league:1:fees 50" in out
    with pytest.raises(SystemExit):  # a cancellation is logged with its reason: required
        main([*base, "cancel", "1"])
    assert "--reason" in capsys.readouterr().err
    assert main([*base, "cancel", "1", "--reason", "the hall flooded"]) == 0
    out = capsys.readouterr().out
    assert "rolled_out" in out and "the hall flooded" in out and "滾出" in out
    assert main([*base, "show", "1"]) == 0
    out = capsys.readouterr().out
    assert "split_points" in out and "fee_refund 10" in out
    assert main([*base, "show", "nothing"]) == 2
    assert "no league 'nothing'" in capsys.readouterr().err
    jade = {u.name: u.jade for u in list_users(store, limit=10)}
    assert sum(jade.values()) == 5 * settings.starting_grant + 1  # + the guarantee, all paid out


QUICK = TableClocks(
    turn_ms=40, claim_ms=40, bank_ms=0, grace_ms=0, discard_delay_ms=5, bot_ms=0, next_hand_ms=40
)


STAKE = 1024
"""The stake of a level-1 table under ml's rules (its table value, seed 002)."""


async def _start_staked_table(lobby: Lobby, user: CurrentUser) -> str:
    """An online table (ml's four rounds at level 1: stake 1024, fee 20) with the user and three
    bots, a few hands in."""
    lobby.online_clocks = QUICK
    table = await lobby.online(
        (user.id, user.name), get_preset("ml"), level=1, fee=20, length="four-rounds"
    )
    await table.fill_bots(user.id, "easy")
    assert table.status == "playing"
    ledger = lobby.ledger
    assert ledger is not None

    def moved() -> bool:  # a hand has moved jade between the escrows
        return (
            ledger.balance_sync(escrow_of(table.id, 0)) != STAKE
            or ledger.balance_sync(escrow_of(table.id, 1)) != STAKE
        )

    await until_in_loop(ledger, "on_post", moved, 30, "a hand's move of jade")
    return table.public_id


def _jade(store: Store, table_id: int, user_id: int) -> dict[str, int]:
    accounts = [f"user:{user_id}", FEES, "system:bots"] + [escrow_of(table_id, p) for p in range(4)]
    return SqlLedger(store).balances_sync(accounts)


def test_admin_cancel_refunds_a_table_while_the_server_is_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/rules.md §13: a cancelled game refunds stakes and fees, and the decision is logged with its
    reason. ``hkmj admin cancel`` on the database of a stopped server; the next start leaves the
    table cancelled (not rebuilt) and pays nothing again."""
    settings = Settings(data_dir=tmp_path, secret="s" * 32)
    store = Store.open(settings.database_url)
    ming = Auth(store, settings, cheap_argon2()).register("Ah Ming", "long enough pw")

    async def play() -> str:
        lobby = Lobby(SqlTableStore(store), ledger=SqlLedger(store))
        try:
            return await _start_staked_table(lobby, ming)
        finally:
            await lobby.stop()  # the server stops mid-match

    public_id = asyncio.run(play())
    with store.session() as session:
        row = session.scalar(select(ParlorTable).where(ParlorTable.public_id == public_id))
        assert row is not None and row.status == "playing"
        table_id = row.id
    assert _jade(store, table_id, ming.id)[f"user:{ming.id}"] == 10_000 - STAKE - 20
    base = ["admin", "--data-dir", str(tmp_path)]
    # no server takes the request up within the wait: the table is rebuilt here and cancelled
    assert (
        main([*base, "cancel", public_id, "--reason", "the room closes early", "--wait", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert f"table {public_id} cancelled (admin: the room closes early)" in out
    assert f"stake {STAKE} and fee 20" in out
    after = _jade(store, table_id, ming.id)
    assert after == {f"user:{ming.id}": 10_000, FEES: 0, "system:bots": 0} | {
        escrow_of(table_id, p): 0 for p in range(4)
    }
    audits = SqlTableStore(store).audits(table_id)
    assert ("cancelled", "admin: the room closes early") in audits
    assert ("cancel_request", "admin: the room closes early") in audits
    assert any(kind == "refund" for kind, _ in audits)
    assert main([*base, "cancel", public_id, "--reason", "again"]) == 2
    assert f"table {public_id} is already cancelled" in capsys.readouterr().err
    assert main([*base, "cancel", "no-such", "--reason", "x"]) == 2
    assert "no table 'no-such'" in capsys.readouterr().err
    assert main([*base, "cancel", public_id, "--reason", "  "]) == 2
    assert "needs a reason" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "cancel", public_id])  # --reason is required
    capsys.readouterr()
    assert main([*base, "tables", "--status", "cancelled"]) == 0
    listed = capsys.readouterr().out
    assert public_id in listed and f"stake {STAKE} + fee 20" in listed
    # the server starts again: the cancelled table is not rebuilt, nothing moves
    app = create_app(settings, store=store, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert app.state.lobby.get(public_id) is None
        assert client.get(f"/api/tables/{public_id}").status_code == 404
    assert _jade(store, table_id, ming.id) == after
    store.close()


def test_admin_cancel_while_the_server_runs_stops_the_live_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hkmj admin cancel`` while the server runs: its request goes to the live table's own actor
    (the lobby's watch hands it over), which refunds the stakes and fees exactly once and stops;
    no second table is rebuilt from the database (issue 32 item 4)."""
    import hkmahjong.server.admin as admin_module

    async def no_rebuild(*args: object) -> str:
        raise AssertionError("the table was rebuilt beside the live one")

    monkeypatch.setattr(admin_module, "_cancel", no_rebuild)
    settings = Settings(data_dir=tmp_path, secret="s" * 32)
    store = Store.open(settings.database_url)
    ming = Auth(store, settings, cheap_argon2()).register("Ah Ming", "long enough pw")
    app = create_app(settings, store=store, password_hash=cheap_argon2())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        lobby: Lobby = app.state.lobby
        public_id = client.portal.call(_start_staked_table, lobby, ming)
        live = lobby.get(public_id)
        assert live is not None and live.status == "playing"
        changes = Changes()
        chain(live, "on_change", changes.fire)  # told last when the actor has closed the table
        done = cancel_table(store, public_id, "testing while it runs")
        assert done.refunded is not None
        changes.until(lambda: live.status == "cancelled", 4 * WATCH_SECONDS, "the live cancel")
        expected = {f"user:{ming.id}": 10_000, FEES: 0, "system:bots": 0} | {
            escrow_of(live.id, p): 0 for p in range(4)
        }
        assert _jade(store, live.id, ming.id) == expected
        assert client.get(f"/api/tables/{public_id}").json()["status"] == "cancelled"
    store.close()


def test_a_table_whose_log_was_edited_is_aborted_and_refunded_at_start(tmp_path: Path) -> None:
    """docs/rules.md §13 (an error that cannot be recovered aborts the game, refunding stakes and
    fees; the reason is logged): a table whose stored log no longer replays, on SQLite. A second
    start refunds nothing again."""
    settings = Settings(data_dir=tmp_path, secret="s" * 32)
    store = Store.open(settings.database_url)
    ming = Auth(store, settings, cheap_argon2()).register("Ah Ming", "long enough pw")

    async def play() -> str:
        lobby = Lobby(SqlTableStore(store), ledger=SqlLedger(store))
        try:
            return await _start_staked_table(lobby, ming)
        finally:
            await lobby.stop()

    public_id = asyncio.run(play())
    with store.session() as session:
        table = session.scalar(select(ParlorTable).where(ParlorTable.public_id == public_id))
        assert table is not None
        table_id = table.id
        hand = session.scalar(
            select(TableLog).where(
                TableLog.table_id == table_id, TableLog.line.like('{"t":"hand"%')
            )
        )
        assert hand is not None
        obj = json.loads(hand.line)
        obj["commitment"] = ("0" if obj["commitment"][0] != "0" else "1") + obj["commitment"][1:]
        hand.line = json.dumps(obj, separators=(",", ":"))
    for _ in range(2):
        app = create_app(settings, store=store, password_hash=cheap_argon2())
        with TestClient(app, base_url="http://127.0.0.1") as client:
            live = app.state.lobby.get(public_id)
            assert live is None or live.status == "aborted"
            assert client.get("/api/lobby").json() == []
        with store.session() as session:
            row = session.get(ParlorTable, table_id)
            assert row is not None and row.status == "aborted"
        assert _jade(store, table_id, ming.id) == {
            f"user:{ming.id}": 10_000,
            FEES: 0,
            "system:bots": 0,
        } | {escrow_of(table_id, p): 0 for p in range(4)}
    audits = SqlTableStore(store).audits(table_id)
    assert [k for k, _ in audits].count("refund") == 1
    assert any(k == "aborted" and "does not replay" in why for k, why in audits)
    store.close()
