"""Jade at a table: the entry fee (手續費) beside the stake, who paid whom at the release, and the
refunds of a cancelled or aborted match (docs/rules.md §13, seed 002 "賭注和手續費會歸還給玩家").

Every test checks the ledger's invariants too: each transaction sums to zero (the ledger refuses
any other) and nothing is refunded or released twice.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.parlor.tablekit import (
    FAST,
    Client,
    act,
    drive,
    funded_ledger,
    idle,
    make_table,
    passive,
    settle,
)

from hkmahjong.parlor.ledger import FEES, MemoryLedger, transfer
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import CANCEL_REQUEST, MemoryTableStore
from hkmahjong.parlor.stakes import escrow_of
from hkmahjong.parlor.table import Table, TableConfig, TableError

USERS = {"user:1": 1000, "user:2": 1000}


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def play_out(table: Table, clock: Any, clients: list[Client], limit: int = 3000) -> None:
    for _ in range(limit):
        await settle(table, clock, 0.7)
        if table.status != "playing":
            return
        for c in clients:
            prompt = c.open_prompt()
            if prompt is not None:
                act(c, passive(prompt))
    raise AssertionError("the match did not end")


def escrows(ledger: MemoryLedger, table: Table) -> list[int]:
    return [ledger.balance_sync(escrow_of(table.id, p)) for p in range(4)]


def jade(ledger: MemoryLedger) -> dict[str, int]:
    accounts = {r.account for t in ledger.transactions() for r in t.rows}
    return ledger.balances_sync(sorted(accounts))


async def staked_table(
    ledger: MemoryLedger, *, fee: int = 20, length: str = "online", **kw: Any
) -> tuple[Table, MemoryTableStore, Any, list[Client]]:
    table, store, clock = await make_table(
        bots=(None, None, "easy", "easy"), stake=200, fee=fee, ledger=ledger, length=length, **kw
    )
    await table.join(2, "bo")
    clients = [Client(table, 0), Client(table, 1)]
    for c in clients:
        c.connect()
    await settle(table, clock)
    return table, store, clock, clients


def test_the_fee_is_taken_at_the_buy_in_shown_and_kept_when_the_match_ends() -> None:
    """Seed 002: matches have an entry fee besides the stake; it goes to system:fees."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, _, clock, clients = await staked_table(ledger)
        assert table.status == "playing"
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000 - 220
        assert ledger.balance_sync(FEES) == 4 * 20 and escrows(ledger, table) == [200] * 4
        info = table.info().to_json()
        assert (info["stake"], info["fee"], info["buy_in"]) == (200, 20, 220)
        buy_ins = [t for t in ledger.transactions() if t.kind == "buy_in"]
        assert [t.idem_key for t in buy_ins] == [f"buyin:table:{table.id}"]  # all four at once
        await play_out(table, clock, clients)
        assert table.status == "finished"
        assert ledger.balance_sync(FEES) == 80  # kept
        assert escrows(ledger, table) == [0, 0, 0, 0]
        # every movement of the table's jade says whose it is (what fences it in a cluster)
        kinds = {t.kind for t in ledger.transactions() if t.table_id == table.id}
        assert {"buy_in", "release"} <= kinds
        assert all(t.table_id == table.id for t in ledger.transactions() if t.kind != "grant")
        await table.stop()

    run(main())


def test_match_end_says_who_paid_whom_at_the_release() -> None:
    """Seed 002 (a loser never pays more than the stake; winners share in proportion): the
    payments of match_end add up, per player, to what the release transaction paid out."""

    async def main() -> None:
        for _ in range(4):  # a match where every hand is drawn moves nothing: try another
            ledger = funded_ledger(USERS)
            table, _, clock, clients = await staked_table(ledger, fee=0)
            await play_out(table, clock, clients)
            (end,) = [m for m in clients[0].messages if m["t"] == "match_end"]
            settlement = end["settlement"]
            (release,) = [t for t in ledger.transactions() if t.kind == "release"]
            owners = ["user:1", "user:2", "system:bots", "system:bots"]
            net = [0, 0, 0, 0]
            seat_of = {p["player"]: p["seat"] for p in table.info().to_json()["players"]}
            for line in settlement["payments"]:
                net[line["from_player"]] -= line["amount"]
                net[line["to_player"]] += line["amount"]
                assert line["from"] == seat_of[line["from_player"]]
                assert line["to"] == seat_of[line["to_player"]]
                assert line["zh"].startswith("結算") and line["en"]
            assert net == settlement["deltas"]
            paid = release.amounts()
            for p in (0, 1):
                assert paid.get(owners[p], 0) - 200 == settlement["deltas"][p]
            assert net[2] + net[3] == paid.get("system:bots", 0) - 400
            await table.stop()
            if any(settlement["deltas"]):
                assert settlement["payments"]
                return
        raise AssertionError("four matches without a single win")

    run(main())


def test_cancel_refunds_stakes_and_fees_once_and_logs_the_reason() -> None:
    """docs/rules.md §13: a cancelled game refunds stakes and fees; the decision is logged with its
    reason. Mid-match, whatever the hands moved between the escrows."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, store, clock, _ = await staked_table(ledger, length="16-hands")
        for _ in range(200):  # until a hand has moved jade between the escrows
            await settle(table, clock, 1.0)
            if escrows(ledger, table) != [200] * 4:
                break
        await drive(clock, table.cancel("admin: the room closes"))
        assert table.status == "cancelled" and store.rows[table.id].status == "cancelled"
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000
        assert ledger.balance_sync(FEES) == 0 and ledger.balance_sync("system:bots") == 0
        assert escrows(ledger, table) == [0, 0, 0, 0]
        assert (table.id, "cancelled", "admin: the room closes") in store.audits
        assert any(kind == "refund" and "fee 20" in why for _, kind, why in store.audits)
        count = len(ledger.transactions())
        await drive(clock, table.cancel("again"))
        assert len(ledger.transactions()) == count
        # a restart of a cancelled table: not rebuilt, nothing moves
        lobby = Lobby(store, ledger=ledger, clock=clock)
        assert await lobby.start(watch=False) == []
        assert len(ledger.transactions()) == count
        await table.stop()

    run(main())


def test_join_needs_the_stake_and_the_fee() -> None:
    async def main() -> None:
        ledger = funded_ledger({"user:1": 1000, "user:2": 210})
        table, _, _ = await make_table(
            bots=(None, None, "easy", "easy"), stake=200, fee=20, ledger=ledger
        )
        try:
            await table.join(2, "bo")
        except TableError as exc:
            assert exc.code == "balance" and "220" in exc.message
        else:
            raise AssertionError("joined without the fee")
        await table.stop()

    run(main())


def test_a_failed_buy_in_charges_nobody() -> None:
    """All four buy in in one transaction: one who spent the jade since joining is unseated and
    nobody pays; the next player to sit starts the match."""

    async def main() -> None:
        ledger = funded_ledger({**USERS, "user:3": 1000})
        table, store, clock = await make_table(
            bots=(None, None, None, "easy"), stake=200, fee=20, ledger=ledger
        )
        await table.join(2, "bo")
        ledger.post_sync(transfer("user:2", "user:9", 900, "spent:elsewhere", "spend"))
        await table.join(3, "cy")
        assert table.status == "waiting" and table.seats[1].kind == "empty"
        assert ledger.balance_sync("user:1") == 1000 and ledger.balance_sync("user:3") == 1000
        assert ledger.balance_sync(FEES) == 0 and not any(
            t.kind == "buy_in" for t in ledger.transactions()
        )
        assert any(kind == "buy_in_failed" and "bo" in why for _, kind, why in store.audits)
        ledger.post_sync(transfer("user:9", "user:2", 900, "spent:back", "spend"))
        await table.join(2, "bo")
        await settle(table, clock)
        assert table.status == "playing"
        assert [ledger.balance_sync(f"user:{u}") for u in (1, 2, 3)] == [780, 780, 780]
        await table.stop()

    run(main())


def corrupt(store: MemoryTableStore, table_id: int) -> None:
    """Edit the log: the first hand's commitment no longer matches its seed."""
    log = store.log[table_id]
    for i, line in enumerate(log):
        obj = json.loads(line)
        if obj["t"] == "hand":
            c = obj["commitment"]
            obj["commitment"] = ("0" if c[0] != "0" else "1") + c[1:]
            log[i] = json.dumps(obj, separators=(",", ":"))
            return
    raise AssertionError("no hand in the log")


def test_a_log_that_does_not_replay_aborts_the_table_and_refunds_once() -> None:
    """docs/rules.md §13: a server error that cannot be recovered (here: an edited log) aborts the
    match, refunds stakes and fees and logs why; a second restart refunds nothing again."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, store, clock, _ = await staked_table(ledger, length="16-hands")
        for _ in range(200):
            await settle(table, clock, 1.0)
            if escrows(ledger, table) != [200] * 4:
                break
        await table.stop()
        corrupt(store, table.id)
        lobby = Lobby(store, ledger=ledger, clock=clock)
        assert await lobby.start(watch=False) == [table.public_id]
        again = lobby.get(table.public_id)
        assert again is not None and again.broken is not None
        await idle(again)
        assert again.status == "aborted" and store.rows[table.id].status == "aborted"
        assert any(k == "aborted" and "does not replay" in why for _, k, why in store.audits)
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000
        assert ledger.balance_sync(FEES) == 0 and escrows(ledger, table) == [0, 0, 0, 0]
        before = jade(ledger), len(ledger.transactions())
        await lobby.stop()
        # the server died after the refund, before the status was written: restart again
        await store.set_status(table.id, "playing")
        lobby = Lobby(store, ledger=ledger, clock=clock)
        await lobby.start(watch=False)
        third = lobby.get(table.public_id)
        assert third is not None
        await idle(third)
        assert third.status == "aborted"
        assert (jade(ledger), len(ledger.transactions())) == before
        await lobby.stop()

    run(main())


def test_a_table_cancelled_elsewhere_stops_and_tells_its_seats() -> None:
    """``hkmj admin cancel`` works on the store while the server runs: the admin's own copy of the
    table refunds and closes it; the live table refuses to log another action, follows the stored
    status (the lobby's watch finds it too) and pays nothing again."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, store, clock, clients = await staked_table(ledger, length="16-hands")
        lobby = Lobby(store, ledger=ledger, clock=clock)
        lobby.tables[table.public_id] = table
        await settle(table, clock, 3.0)
        lines = len(store.log[table.id])
        admin = await Table.restore(store, store.rows[table.id], ledger=ledger)
        await admin.cancel("admin: duplicate table")
        assert store.rows[table.id].status == "cancelled"
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000
        count = len(ledger.transactions())
        assert await lobby.check_closed() == [table.public_id]
        await settle(table, clock, 20.0)
        assert table.status == "cancelled"
        assert len(store.log[table.id]) <= lines + 2  # at most the step in flight was refused
        assert len(ledger.transactions()) == count
        for c in clients:
            last = [m for m in c.messages if m["t"] == "table"][-1]
            assert last["table"]["status"] == "cancelled"
            assert c.open_prompt() is None
        await table.stop()

    run(main())


def test_the_live_table_follows_a_cancel_it_meets_when_logging() -> None:
    """Without the lobby's watch: the next action's commit is refused (the table is over) and
    the table follows the stored status."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, store, clock, _ = await staked_table(ledger, length="16-hands")
        await settle(table, clock, 2.0)
        admin = await Table.restore(store, store.rows[table.id], ledger=ledger)
        await admin.cancel("admin: testing")
        lines = list(store.log[table.id])
        await settle(table, clock, 30.0)
        assert table.status == "cancelled"
        assert store.log[table.id] == lines
        assert ledger.balance_sync("user:1") == 1000 and ledger.balance_sync(FEES) == 0
        await table.stop()

    run(main())


def test_fees_only_at_online_tables() -> None:
    from hkmahjong.rules import get_preset

    for bad in ({"kind": "practice", "fee": 5}, {"kind": "online", "fee": -1}):
        kind = str(bad.pop("kind"))
        try:
            TableConfig.of(kind, get_preset("parlor"), **bad)
        except TableError as exc:
            assert exc.code == "bad_config"
        else:
            raise AssertionError(f"accepted {bad}")
    config = TableConfig.of("online", get_preset("parlor"), stake=100, fee=10, clocks=FAST)
    assert TableConfig.from_json(config.to_json()) == config and config.buy_in == 110


def test_an_operators_cancel_request_goes_to_the_live_tables_actor() -> None:
    """``hkmj admin cancel`` writes a cancel request; the lobby holding the table hands it to the
    table's own actor (Lobby.follow_requests), which refunds once and closes; once the table is
    over, the request is not followed again."""

    async def main() -> None:
        ledger = funded_ledger(USERS)
        table, store, clock, _ = await staked_table(ledger, length="16-hands")
        await settle(table, clock, 1.0)
        lobby = Lobby(store, ledger=ledger, clock=clock)
        lobby.tables[table.public_id] = table  # the lobby holding the live table
        assert await lobby.follow_requests() == []
        await store.audit(table.id, CANCEL_REQUEST, "admin: the room closes")
        await store.audit(table.id, CANCEL_REQUEST, "admin: a second request")
        assert await drive(clock, lobby.follow_requests()) == [table.public_id]
        assert table.status == "cancelled" and store.rows[table.id].status == "cancelled"
        assert (table.id, "cancelled", "admin: the room closes") in store.audits
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000
        assert escrows(ledger, table) == [0, 0, 0, 0]
        count = len(ledger.transactions())
        assert await lobby.follow_requests() == []  # over: the request is not followed again
        assert len(ledger.transactions()) == count
        await table.stop()

    run(main())
