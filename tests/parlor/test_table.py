"""The table actor on in-memory ports and a virtual clock (docs/protocol.md, PARLOR.md "table")."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest
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

from hkmahjong.bots.advice import advise
from hkmahjong.engine.actions import Action
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.hand import shanten
from hkmahjong.parlor.clocks import ClockSettings
from hkmahjong.parlor.ports import MemoryTableStore
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.parlor.wire import advice_json
from hkmahjong.rules import get_preset


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def play_out(table: Table, clock: Any, clients: list[Client], limit: int = 600) -> None:
    """Answer every prompt (passively) until the match ends."""
    for _ in range(limit):
        await settle(table, clock, 0.7)
        if table.status != "playing":
            return
        for c in clients:
            prompt = c.open_prompt()
            if prompt is not None:
                act(c, passive(prompt))
    raise AssertionError("the match did not end")


def test_practice_hand_plays_to_the_end_and_the_log_verifies() -> None:
    async def main() -> None:
        table, store, clock = await make_table(kind="practice")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock)
        assert table.status == "playing"
        await play_out(table, clock, [ann])
        kinds = [m["t"] for m in ann.messages]
        assert kinds[0] == "snapshot" and "hand" in kinds and "hand_end" in kinds
        assert kinds[-1] == "table" and "match_end" in kinds
        versions = [m["v"] for m in ann.messages if m["t"] not in ("snapshot", "error", "pong")]
        assert versions == list(range(1, len(versions) + 1))
        record = GameRecord.loads("\n".join(store.log[table.id]))
        assert verify(record).hands == 1
        await table.stop()

    run(main())


def test_a_failed_commit_tells_nobody_and_changes_nothing() -> None:
    """Commit before anything is said (issue 36: "nothing is acknowledged before it is
    committed"): when the store refuses the action's lines, no seat hears of it — not even the
    actor's own ``done`` — the sender gets ``commit_failed`` (with its ``ref``), the prompt stays
    open with the same ``v``, and the same decision can be made again."""

    async def main() -> None:
        table, store, clock = await make_table(kind="practice")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 1.0)
        prompt = ann.open_prompt()
        assert prompt is not None
        before_log = list(store.log[table.id])
        before = len(ann.conn.frames)
        store.fail_appends = 1
        act(ann, passive(prompt), ref="first")
        await settle(table, clock, 1.0)
        after = ann.messages[before:]
        assert [m["t"] for m in after] == ["error"]
        assert after[0]["code"] == "commit_failed" and after[0]["ref"] == "first"
        assert store.log[table.id] == before_log
        assert ann.open_prompt() == prompt
        act(ann, passive(prompt), ref="again")
        await settle(table, clock, 1.0)
        assert len(store.log[table.id]) > len(before_log)
        done = [m for m in ann.messages[before:] if m["t"] == "done"]
        assert done[0]["prompt"] == prompt["v"] and done[0]["ref"] == "again"
        await table.stop()

    run(main())


def test_errors_go_to_the_sender_only_and_change_nothing() -> None:
    async def main() -> None:
        table, store, clock = await make_table(bots=(None, None, "easy", "easy"))
        ann, bo = Client(table, 0), Client(table, 1)
        await table.join(2, "bo")
        ann.connect()
        bo.connect()
        await settle(table, clock, 0.1)
        prompt = ann.open_prompt()
        assert prompt is not None and prompt["clock"]["kind"] == "turn"
        log_before = list(store.log[table.id])
        bo_before = list(bo.conn.frames)
        bad: list[tuple[Any, str]] = [
            ("nonsense", "bad_json"),
            ({"t": "fly"}, "bad_message"),
            ({"t": "hello", "proto": 1}, "hello_first"),
            ({"t": "act", "action": "pung", "v": prompt["v"], "id": "a"}, "illegal"),
            ({"t": "act", "action": passive(prompt), "v": prompt["v"] - 1, "id": "b"}, "stale"),
            ({"t": "sit_back"}, "not_sat_out"),
            ({"t": "hint"}, "no_hints"),
        ]
        for frame, code in bad:
            ann.new()
            ann.send(frame)
            await idle(table)
            reply = ann.new()
            assert [m["t"] for m in reply] == ["error"], (frame, reply)
            assert reply[0]["code"] == code, (frame, reply)
        bo.new()
        bo.send({"t": "act", "action": "pass", "v": 1, "id": "z"})
        await idle(table)
        assert [m["code"] for m in bo.new()] == ["no_prompt"]
        assert store.log[table.id] == log_before
        assert bo.conn.frames[: len(bo_before)] == bo_before
        assert all(json.loads(f)["t"] != "error" for f in bo.conn.frames[: len(bo_before)])
        assert ann.open_prompt() == prompt
        await table.stop()

    run(main())


def test_reconnect_resends_the_missed_messages_byte_for_byte() -> None:
    async def main() -> None:
        table, _, clock = await make_table(kind="practice")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 1.0)
        act(ann, passive(ann.open_prompt() or {}))
        await settle(table, clock, 0.2)
        snapshot = ann.messages[0]
        first = list(ann.conn.frames)
        seen_v = ann.last_v()
        table.disconnect(0, ann.conn)
        await settle(table, clock, 2.0)
        ann.connect(since=seen_v - 2, epoch=snapshot["epoch"])
        # the actor answers once it is free: at the latest when a discard delay (0.6 s) ends
        await settle(table, clock, 0.7)
        resent = ann.conn.frames
        kinds = [json.loads(f)["t"] for f in resent]
        assert "snapshot" not in kinds
        cut = kinds.index("synced")
        replay, synced = resent[:cut], json.loads(resent[cut])
        assert replay[:2] == first[-2:]
        assert [json.loads(f)["v"] for f in replay] == list(range(seen_v - 1, synced["v"] + 1))
        # another epoch: a snapshot
        ann.connect(since=seen_v, epoch="other")
        await settle(table, clock, 0.7)
        assert ann.messages[0]["t"] == "snapshot"
        await table.stop()

    for _ in range(4):  # four random deals: the discard delay falls at different moments
        run(main())


def test_discard_delay_hides_whether_anyone_could_claim() -> None:
    """After a discard, the next draw comes only after the fixed delay."""

    async def main() -> None:
        table, _, clock = await make_table(kind="practice")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 0.5)
        prompt = ann.open_prompt()
        assert prompt is not None
        ann.new()
        act(ann, passive(prompt))
        await idle(table)
        got = ann.new()
        kinds = [(m["t"], m.get("event", {}).get("kind")) for m in got]
        assert kinds[-1] == ("event", "discard")
        clock.advance(0.59)
        await idle(table)
        assert ann.new() == []
        clock.advance(0.02)
        await idle(table)
        later = ann.new()
        assert later, "the next events come once the delay has passed"
        await table.stop()

    for _ in range(4):  # four random deals: some give a bot a claim window, some do not
        run(main())


def test_two_turn_timeouts_sit_a_player_out_and_sit_back_returns() -> None:
    async def main() -> None:
        clocks = ClockSettings(turn_ms=1000, claim_ms=1000, bank_ms=500, grace_ms=15000,
                               discard_delay_ms=100, bot_ms=50, next_hand_ms=1000)  # fmt: skip
        table, store, clock = await make_table(clocks=clocks, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        for _ in range(400):
            await settle(table, clock, 0.5)
            if table.seats[0].status.value == "sat_out":
                break
            p = ann.open_prompt()
            if p is not None and p["clock"]["kind"] == "claim":
                act(ann, "pass")
        assert table.seats[0].status.value == "sat_out"
        dones = [m for m in ann.messages if m["t"] == "done"]
        assert [d["by"] for d in dones if d["by"] == "timeout"][:2] == ["timeout", "timeout"]
        assert any(a[1] == "sat_out" for a in store.audits)
        assert any(m["t"] == "seat" and m["status"] == "sat_out" for m in ann.messages)
        await settle(table, clock, 3.0)
        assert ann.open_prompt() is None  # the passive player decides
        ann.new()
        ann.send({"t": "sit_back"})
        await settle(table, clock, 0.1)
        assert table.seats[0].status.value == "connected"
        back = [m for m in ann.new() if m["t"] == "seat"]
        assert back[0]["status"] == "connected" and back[0]["player"] == 0
        await table.stop()

    run(main())


CLAIM_CLOCKS = ClockSettings(turn_ms=2000, claim_ms=1000, bank_ms=0, grace_ms=15000,
                             discard_delay_ms=100, bot_ms=50, next_hand_ms=500)  # fmt: skip


def _timeouts(ann: Client, seen: int) -> list[str]:
    """The kinds (``turn`` / ``claim``) of the prompts closed by their clock since ``seen``."""
    prompts = [
        m if m["t"] == "prompt" else m["prompt"]
        for m in ann.messages
        if m["t"] in ("prompt", "snapshot", "synced")
    ]
    kinds = {p["v"]: p["clock"]["kind"] for p in prompts if p is not None}
    return [
        kinds[m["prompt"]] for m in ann.messages[seen:] if m["t"] == "done" and m["by"] == "timeout"
    ]


def test_a_claim_clock_that_runs_out_passes_and_alone_is_never_idle() -> None:
    """Seed 002 《斷線》: "突然斷線或未能連續在兩次圈內作出任何動作…自動被停玩". A claim window left
    to its clock is answered ``pass``; when the player then plays their own turn, they were not
    idle: a player who lets every claim clock run out but answers every turn is never sat out."""

    async def main() -> None:
        table, store, clock = await make_table(clocks=CLAIM_CLOCKS, length="16-hands")
        ann = Client(table, 0)
        ann.connect()
        claim_timeouts = 0
        for _ in range(6000):
            await settle(table, clock, 0.25)
            assert table.seats[0].status.value == "connected", store.audits
            seen = len(ann.messages)
            p = ann.open_prompt()
            if p is not None and p["clock"]["kind"] == "turn":
                act(ann, passive(p))
            await settle(table, clock, 0.25)
            kinds = _timeouts(ann, seen)
            assert "turn" not in kinds
            claim_timeouts += kinds.count("claim")
            if claim_timeouts >= 6 or table.status != "playing":
                break
        assert claim_timeouts >= 6, (claim_timeouts, table.status)
        assert all(m["action"] == "pass" for m in ann.messages if m["t"] == "done" and
                   m["by"] == "timeout")  # fmt: skip
        assert table.seats[0].timeouts == 0
        assert not any(kind == "sat_out" for _, kind, _ in store.audits)
        await table.stop()

    run(main())


def test_a_missed_claim_window_and_the_own_turn_after_it_sit_the_player_out() -> None:
    """Seed 002 《斷線》 "未能連續在兩次圈內作出任何動作": missing a claim window and then the own turn
    after it is two rounds without any action: the seat is sat out (issue 31 item 9), though
    only one own turn was missed."""

    async def main() -> None:
        table, store, clock = await make_table(clocks=CLAIM_CLOCKS, length="16-hands")
        ann = Client(table, 0)
        ann.connect()
        missed_claim = False
        order: list[str] = []
        for _ in range(6000):
            seen = len(ann.messages)
            await settle(table, clock, 0.25)
            kinds = _timeouts(ann, seen)
            order += kinds
            missed_claim = missed_claim or "claim" in kinds
            if table.seats[0].status.value == "sat_out":
                break
            p = ann.open_prompt()
            if p is not None and p["clock"]["kind"] == "turn" and not missed_claim:
                act(ann, passive(p))  # turns answered until a claim window was missed
        assert table.seats[0].status.value == "sat_out"
        assert order[-1] == "turn" and order.count("turn") == 1 and "claim" in order
        reasons = [r for _, kind, r in store.audits if kind == "sat_out"]
        assert reasons == ["player 0: a missed claim window and the own turn after it"]
        await table.stop()

    run(main())


def test_a_practice_hint_is_the_advisors_structured_advice() -> None:
    """Seed 003 practice hints (issue 14: shanten, waits with copies left, fan per wait, the strong
    bot's suggestion): ``hint`` carries ``bots.advice.advise`` for the open prompt, as data."""

    async def main() -> None:
        table, _, clock = await make_table(kind="practice", hints=True, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        hints = ready = 0
        for _ in range(2000):
            await settle(table, clock, 0.5)
            prompt = ann.open_prompt()
            if prompt is None:
                continue
            ann.new()
            ann.send({"t": "hint"})
            await settle(table, clock)
            (msg,) = [m for m in ann.new() if m["t"] == "hint"]
            advice = msg["advice"]
            legal = {item["action"]: item for item in prompt["legal"]}
            assert advice["action"] == legal[advice["action"]["action"]]
            assert table.runner is not None
            view = table.runner.view(0)
            chosen = Action.from_text(advice["action"]["action"])
            again = advise(view, table.runner.legal(0), table.ruleset, action=chosen)
            assert advice == advice_json(again)
            assert advice["shanten_now"] == shanten(view.hand)
            assert {"shanten", "waits", "useful", "goal", "danger"} <= set(advice)
            for wait in advice["waits"]:
                assert set(wait) == {"tile", "left", "on_discard", "self_drawn"}
                assert 0 <= wait["left"] <= 4
            hints += 1
            ready += bool(advice["waits"])
            act(ann, chosen)  # follow the advice: the hand gets ready sooner or later
            if hints >= 12 and ready:
                break
        assert hints >= 12 and ready, (hints, ready)
        await table.stop()

    run(main())


def test_disconnect_beyond_the_grace_sits_out() -> None:
    async def main() -> None:
        table, store, clock = await make_table(length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 0.5)
        table.disconnect(0, ann.conn)
        await settle(table, clock, 14.0)
        assert table.seats[0].status.value == "away"
        await settle(table, clock, 1.5)
        assert table.seats[0].status.value == "sat_out"
        assert any("disconnected" in a[2] for a in store.audits)
        await table.stop()

    run(main())


def test_staked_match_moves_escrow_per_hand_and_releases_once() -> None:
    async def main() -> None:
        ledger = funded_ledger({"user:1": 1000, "user:2": 1000})
        clocks = FAST
        table, store, clock = await make_table(
            bots=(None, None, "easy", "easy"), stake=300, ledger=ledger, clocks=clocks,
            length="online",
        )  # fmt: skip
        await table.join(2, "bo")
        ann, bo = Client(table, 0), Client(table, 1)
        ann.connect()
        bo.connect()
        await settle(table, clock)
        assert ledger.balance_sync("user:1") == 700 and ledger.balance_sync("user:2") == 700
        await play_out(table, clock, [ann, bo], limit=3000)
        assert table.status == "finished"
        posted = {t.idem_key: t for t in ledger.transactions()}
        accounts = {row.account for t in posted.values() for row in t.rows}
        balances = ledger.balances_sync(accounts)
        escrows = [k for k in accounts if k.startswith("escrow:")]
        assert escrows and all(ledger.balance_sync(k) == 0 for k in escrows)
        totals = table._totals()
        assert (
            sum(v for k, v in balances.items() if k.startswith("user:"))
            + balances.get("system:bots", 0)
            == 2000 - balances["system:grants"] - 2000
        )
        assert ledger.balance_sync("user:1") - 1000 >= -300
        assert ledger.balance_sync("user:2") - 1000 >= -300
        assert "release:table:1" in posted
        assert sum(1 for k in posted if k.startswith("hand:")) <= 4
        # a rebuild re-posts every hand move and the release under the same keys: nothing moves
        count = len(ledger.transactions())
        row = store.rows[table.id]
        await table.stop()
        await store.set_status(table.id, "playing")
        again = await Table.restore(store, store.rows[table.id], clock=clock, ledger=ledger)
        await again.start()
        await settle(again, clock)
        assert ledger.balances_sync(accounts) == balances
        assert len(ledger.transactions()) == count
        assert again.status == "finished" and row.id == table.id
        assert totals == again._totals()
        await again.stop()

    run(main())


def test_cancel_refunds_the_stakes_and_logs_the_reason() -> None:
    async def main() -> None:
        ledger = funded_ledger({"user:1": 500, "user:2": 500})
        table, store, clock = await make_table(
            bots=(None, None, "easy", "easy"), stake=200, ledger=ledger, length="online"
        )
        await table.join(2, "bo")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 5.0)
        await drive(clock, table.cancel("admin: testing"))
        assert table.status == "cancelled"
        assert ledger.balance_sync("user:1") == 500 and ledger.balance_sync("user:2") == 500
        escrows = {r.account for t in ledger.transactions() for r in t.rows} - {"user:1", "user:2"}
        assert all(ledger.balance_sync(k) == 0 for k in escrows if k.startswith("escrow:"))
        assert any(t.kind == "refund" for t in ledger.transactions())
        assert (table.id, "cancelled", "admin: testing") in store.audits
        await table.stop()

    run(main())


def test_join_needs_the_balance_for_the_buy_in() -> None:
    async def main() -> None:
        from hkmahjong.parlor.table import TableError

        ledger = funded_ledger({"user:1": 500, "user:2": 50})
        table, _, _ = await make_table(bots=(None, None, "easy", "easy"), stake=200, ledger=ledger)
        with pytest.raises(TableError) as info:
            await table.join(2, "bo")
        assert info.value.code == "balance"
        await table.stop()

    run(main())


def test_a_restored_table_continues_the_hand_where_it_was() -> None:
    async def main() -> None:
        table, store, clock = await make_table(kind="practice")
        ann = Client(table, 0)
        ann.connect()
        for _ in range(6):
            await settle(table, clock, 1.0)
            p = ann.open_prompt()
            if p is not None:
                act(ann, passive(p))
        await settle(table, clock, 1.0)
        lines = list(store.log[table.id])
        view_before = table.runner.view(0) if table.runner else None
        await table.stop()
        again = await Table.restore(store, store.rows[table.id], clock=clock)
        assert again.runner is not None and again.runner.view(0) == view_before
        await again.start()
        ann2 = Client(again, 0)
        ann2.connect()
        await settle(again, clock)
        assert ann2.messages[0]["t"] == "snapshot"
        assert store.log[table.id][: len(lines)] == lines
        await play_out(again, clock, [ann2])
        assert verify(GameRecord.loads("\n".join(store.log[table.id]))).hands == 1
        await again.stop()

    run(main())


def test_the_table_tells_its_dead_wall_so_a_client_can_count_the_wall() -> None:
    """The page counts the wall from events; the tiles kept back (牌尾, a house rule) come with the
    table's facts, so the count is right before any snapshot."""

    async def main() -> None:
        for dead_wall in (0, 14):
            rules = replace(get_preset("parlor"), dead_wall=dead_wall)
            config = TableConfig.of("practice", rules, length="one-hand", hints=True)
            table = await Table.create(MemoryTableStore(), config, creator=(1, "ann"))
            assert table.info(0).to_json()["rules"]["dead_wall"] == dead_wall

    run(main())


def test_a_public_id_never_starts_like_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hkmj admin cancel ID`` must be able to read any table id: one starting with ``-`` read as
    an option (it failed 1 time in 64, as a random id came out)."""
    from hkmahjong.parlor import table as table_module

    drawn = iter(["-x3Fq_9a", "_abcdefg", "Qx3Fq_9a"])
    monkeypatch.setattr(table_module.secrets, "token_urlsafe", lambda n: next(drawn))
    assert table_module.new_public_id() == "Qx3Fq_9a"


def test_a_failure_in_the_tables_own_work_is_recovered_from_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: an exception while the table works (here: a bot's turn coming due) is never
    the table's end: the actor rebuilds the match from its committed log and plays on."""

    async def main() -> None:
        table, store, clock = await make_table(kind="practice")
        failed: list[int] = []
        original = Table._on_auto_due

        def once(self: Table, player: int, token: int) -> None:
            if not failed:
                failed.append(player)
                raise RuntimeError("injected failure in the table's own work")
            original(self, player, token)

        monkeypatch.setattr(Table, "_on_auto_due", once)
        ann = Client(table, 0)
        ann.connect()
        await play_out(table, clock, [ann])
        assert failed and table.status == "finished"
        assert not any(kind == "aborted" for _, kind, _ in store.audits)
        assert verify(GameRecord.loads("\n".join(store.log[table.id]))).hands == 1
        await table.stop()

    run(main())


def test_a_table_that_cannot_make_progress_is_aborted_with_the_cause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The actor's own invariant: when its own work fails again and again with nothing committed
    between (here: every decision of the server's), the table is aborted with the cause logged,
    and every stake is refunded once."""

    async def main() -> None:
        ledger = funded_ledger({"user:1": 1000, "user:2": 1000})
        table, store, clock = await make_table(
            bots=(None, None, "easy", "easy"), stake=200, ledger=ledger, length="online"
        )
        await table.join(2, "bo")
        ann, bo = Client(table, 0), Client(table, 1)
        ann.connect()
        bo.connect()
        await settle(table, clock)
        assert table.status == "playing" and ledger.balance_sync("user:1") == 800

        def broken(self: Table, seat: Any, pending: Any) -> None:
            raise RuntimeError("the bots are broken")

        monkeypatch.setattr(Table, "_decide", broken)
        for _ in range(400):
            await settle(table, clock, 0.5)
            if table.status != "playing":
                break
            for c in (ann, bo):
                p = c.open_prompt()
                if p is not None:
                    act(c, passive(p))
        assert table.status == "aborted"
        reasons = [r for _, kind, r in store.audits if kind == "aborted"]
        assert len(reasons) == 1 and "the bots are broken" in reasons[0]
        assert ledger.balance_sync("user:1") == ledger.balance_sync("user:2") == 1000
        await table.stop()

    run(main())


def test_a_hello_waits_while_another_seat_may_claim_but_not_its_own_window() -> None:
    """Issue 29, defect 2: a seat reconnecting while another person's claim window is open gets
    its snapshot only once that window has closed (so it never shows ``phase: claim``); the seat
    that decides gets its own at once, with its prompt."""

    async def main() -> None:
        table, _, clock = await make_table(bots=(None, None, "easy", "easy"), length="8-hands")
        await table.join(2, "bo")
        ann, bo = Client(table, 0), Client(table, 1)
        ann.connect()
        bo.connect()
        waited = own = 0
        for _ in range(3000):
            await settle(table, clock, 0.2)
            if table.status != "playing" or (waited >= 2 and own >= 2):
                break
            prompt = ann.open_prompt()
            if prompt is not None:
                act(ann, passive(prompt))
            prompt = bo.open_prompt()
            if prompt is None:
                continue
            if prompt["clock"]["kind"] == "turn":
                act(bo, passive(prompt))
                continue
            # Bo may claim: Ann reconnects and waits; Bo reconnects and is answered at once.
            ann.connect()
            await settle(table, clock)
            assert ann.messages == [], ann.messages
            bo.connect(since=prompt["v"] - 1, epoch=table.epoch)
            await settle(table, clock)
            kinds = [m["t"] for m in bo.messages]
            assert kinds[-1] == "synced" and bo.messages[-1]["prompt"]["v"] == prompt["v"]
            own += 1
            act(bo, "pass")
            await settle(table, clock)
            snap = ann.messages[0]
            assert snap["t"] == "snapshot" and snap["view"]["phase"] != "claim"
            waited += 1
        assert waited >= 2 and own >= 2, (waited, own, table.status)
        await table.stop()

    run(main())


def test_master_plays_at_a_practice_table_and_the_hold_covers_its_thinking() -> None:
    """大師 as a bot seat (issue 32 item 2): it thinks in the search process; the table's
    discard delay is raised to cover a searched decision (else the release would come later
    exactly when master had a window to weigh), and the table says so in its clocks."""

    async def main() -> None:
        table, store, clock = await make_table(
            kind="practice", bots=(None, "master", "easy", "easy"), length="one-hand"
        )
        assert table.clocks.discard_delay_ms == 1000 > FAST.discard_delay_ms
        assert table.info().to_json()["clocks"]["discard_delay_ms"] == 1000
        ann = Client(table, 0)
        ann.connect()
        await play_out(table, clock, [ann])
        record = GameRecord.loads("\n".join(store.log[table.id]))
        assert verify(record).hands == 1
        assert any(line.get("seat") == "S" for line in map(json.loads, store.log[table.id]))
        await table.stop()

    run(main())


def test_a_hint_from_master_is_its_choice_explained() -> None:
    """``{"t":"hint","engine":"master"}``: the advice explains 大師's choice (searched in the
    worker process with the table's fixed samples), as the strong advisor's would."""

    async def main() -> None:
        from hkmahjong.parlor.seats import SearchBot

        table, _, clock = await make_table(kind="practice", hints=True, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        asked = 0
        for _ in range(400):
            await settle(table, clock, 0.5)
            prompt = ann.open_prompt()
            if prompt is None:
                continue
            ann.new()
            ann.send({"t": "hint", "engine": "master"})
            ann.send({"t": "hint"})  # one at a time
            await settle(table, clock)
            got = ann.new()
            assert [m.get("code") for m in got if m["t"] == "error"] == ["rate_limited"]
            (hint,) = [m for m in got if m["t"] == "hint"]
            assert hint["engine"] == "master"
            assert table.runner is not None
            view, legal = table.runner.view(0), table.runner.legal(0)
            choice = SearchBot(f"{table.row.match_seed}:advice:0", table.ruleset).choose(
                view, legal
            )
            assert hint["advice"]["action"]["action"] == choice.text
            asked += 1
            act(ann, choice)
            if asked >= 3:
                break
        assert asked >= 3
        await table.stop()

    run(main())


def test_failed_commits_of_the_servers_own_moves_are_made_again_and_never_told() -> None:
    """Issue 36 item 2 for the moves the server makes: a bot's move or a timeout whose commit
    fails is not told to anyone (no event, no ``done``); the decision is made again and the
    hand goes on; the log verifies and every seat's versions stay consecutive."""

    async def main() -> None:
        clocks = ClockSettings(turn_ms=1000, claim_ms=1000, bank_ms=0, grace_ms=15000,
                               discard_delay_ms=100, bot_ms=50, next_hand_ms=500)  # fmt: skip
        table, store, clock = await make_table(clocks=clocks)
        ann = Client(table, 0)
        ann.connect()
        failed_bot = failed_timeout = False
        for _ in range(2000):
            await settle(table, clock, 0.1)
            if table.status != "playing":
                break
            runner = table.runner
            if runner is None or not runner.in_hand:
                continue
            prompt = ann.open_prompt()
            if not failed_bot and 0 not in runner.to_act_players:
                store.fail_appends = 2  # the next two commits fail: a bot's move, twice
                failed_bot = True
            elif not failed_timeout and prompt is not None and prompt["clock"]["kind"] == "turn":
                before = [m for m in ann.messages if m["t"] == "done"]
                store.fail_appends = 1
                await settle(table, clock, 1.05)  # the clock runs out; its commit fails
                assert [m for m in ann.messages if m["t"] == "done"] == before
                assert ann.open_prompt() == prompt
                await settle(table, clock, 1.1)  # the clock decides again a moment later
                done = [m for m in ann.messages if m["t"] == "done"][len(before) :]
                assert [(d["prompt"], d["by"]) for d in done] == [(prompt["v"], "timeout")]
                failed_timeout = True
            elif prompt is not None:
                act(ann, passive(prompt))
        assert failed_bot and failed_timeout and table.status == "finished"
        first = ann.messages[0]["v"] + 1  # (the table started before Ann's snapshot)
        versions = [m["v"] for m in ann.messages if m["t"] not in ("snapshot", "error", "pong")]
        assert versions == list(range(first, first + len(versions)))
        assert verify(GameRecord.loads("\n".join(store.log[table.id]))).hands == 1
        await table.stop()

    run(main())
