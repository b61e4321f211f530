"""``hkmj admin``: users with their jade, grants, administrators, tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.server.conftest import cheap_argon2

from hkmahjong.entry import main
from hkmahjong.server.admin import (
    AdminError,
    grant_jade,
    league_desk,
    list_tables,
    list_users,
    set_admin,
)
from hkmahjong.server.auth import Auth
from hkmahjong.server.settings import Settings
from hkmahjong.server.store import Store
from hkmahjong.server.store.models import ParlorTable, TableSeat


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
    store.close()
