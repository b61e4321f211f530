"""``hkmj admin``: users with their jade, grants, administrators, tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.server.conftest import cheap_argon2

from hkmahjong.entry import main
from hkmahjong.server.admin import AdminError, grant_jade, list_tables, list_users, set_admin
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
