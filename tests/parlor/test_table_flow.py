"""The table as players meet it (issue 30, server side): practice that goes on by itself and
pauses for an absent player, seats that never connect, leaving a waiting table, being told a
table started, emotes, and the account's auto-win / auto-pass settings applied by the server."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest
from tests.parlor.tablekit import FAST, Client, act, funded_ledger, make_table, passive, settle

from hkmahjong.parlor.clocks import PRACTICE_CLOCKS, ClockSettings
from hkmahjong.parlor.lobby import Lobby
from hkmahjong.parlor.ports import MemoryTableStore
from hkmahjong.parlor.table import Table
from hkmahjong.rules import get_preset


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def until(table: Table, clock: Any, clients: list[Client], kind: str, limit: int = 3000):  # type: ignore[no-untyped-def]
    """Answer prompts passively until the first client receives a ``kind`` message."""
    for _ in range(limit):
        await settle(table, clock, 0.5)
        if any(m["t"] == kind for m in clients[0].new_kinds()):
            return
        for c in clients:
            p = c.open_prompt()
            if p is not None:
                act(c, passive(p))
    raise AssertionError(f"no {kind}")


def _new_kinds(self: Client) -> list[dict[str, Any]]:
    out = [json.loads(f) for f in self.conn.frames[getattr(self, "_kinds_seen", 0) :]]
    self._kinds_seen = len(self.conn.frames)  # type: ignore[attr-defined]
    return out


Client.new_kinds = _new_kinds  # type: ignore[attr-defined]

PRACTICE = replace(PRACTICE_CLOCKS, discard_delay_ms=50, bot_ms=20)


def test_practice_goes_on_to_the_next_hand_by_itself() -> None:
    """Issue 30, blocker 1: practice never passed hand 1 (it waited for a ``ready`` the page
    never sent). The next hand now starts ``next_hand_ms`` (8 s at practice) after the result,
    or at once when the player sends ``ready``."""
    assert PRACTICE_CLOCKS.next_hand_ms == 8000

    async def main() -> None:
        table, _, clock = await make_table(kind="practice", clocks=PRACTICE, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        await until(table, clock, [ann], "hand_end")
        assert table.runner is not None and table.runner.hand_number == 0
        await settle(table, clock, 7.0)  # (the result came in the last 0.5 s)
        assert table.runner.hand_number == 0 and not table.runner.in_hand
        await settle(table, clock, 1.5)
        assert table.runner.hand_number == 1, "the next hand started by itself after 8 s"
        await until(table, clock, [ann], "hand_end")
        ann.send({"t": "ready"})
        await settle(table, clock, 0.1)
        assert table.runner.hand_number == 2, "ready starts it at once"
        await table.stop()

    run(main())


def test_an_absent_player_pauses_practice_and_coming_back_resumes_it() -> None:
    async def main() -> None:
        table, _, clock = await make_table(kind="practice", clocks=PRACTICE, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        await until(table, clock, [ann], "hand_end")
        table.disconnect(0, ann.conn)
        await settle(table, clock, 30.0)
        assert table.status == "paused"
        assert table.runner is not None and table.runner.hand_number == 0, "no hand without them"
        ann.connect()
        await settle(table, clock, 0.1)
        assert table.status == "playing" and ann.messages[0]["t"] == "snapshot"
        await settle(table, clock, 8.5)
        assert table.runner.hand_number == 1
        seq = table.seq
        table.disconnect(0, ann.conn)  # mid-hand: the bots stop at their next turn
        await settle(table, clock, 20.0)
        paused_at = table.seq
        assert table.status == "paused" and paused_at - seq < 12
        await settle(table, clock, 20.0)
        assert table.seq == paused_at
        ann.connect()
        for _ in range(10):
            await settle(table, clock, 0.5)
            prompt = ann.open_prompt()
            if prompt is not None:
                act(ann, passive(prompt))
        assert table.status == "playing" and table.seq > paused_at
        await table.stop()

    run(main())


def test_a_seat_that_never_connects_is_released_before_the_buy_in() -> None:
    """Issue 30, major 3: a seat taken and never connected held the table (and the player's
    buy-in was taken while away). It is released after the same grace as a disconnect."""

    async def main() -> None:
        ledger = funded_ledger({"user:1": 1000, "user:2": 1000, "user:3": 1000})
        table, store, clock = await make_table(
            bots=(None, None, None, "easy"), stake=100, ledger=ledger, length="online"
        )
        ann = Client(table, 0)
        ann.connect()
        await table.join(2, "bo")  # bo never connects
        await settle(table, clock, 14.0)
        assert table.seats[1].kind == "human"
        await settle(table, clock, 1.5)
        assert table.seats[1].kind == "empty" and table.status == "waiting"
        assert any(kind == "released" for _, kind, _ in store.audits)
        assert ledger.balance_sync("user:2") == 1000
        await table.join(3, "cy")
        cy = Client(table, 1)
        cy.connect()
        await table.join(2, "bo")
        await settle(table, clock, 0.5)
        assert table.status == "playing"  # bo took a seat again and it started: bo is away
        assert table.seats[2].status.value == "away"
        await settle(table, clock, 15.5)
        assert table.seats[2].status.value == "sat_out", "sat out by the grace, not two timeouts"
        await table.stop()

    run(main())


def test_leaving_a_waiting_table_frees_the_seat_at_once() -> None:
    async def main() -> None:
        ledger = funded_ledger({"user:1": 1000, "user:2": 1000})
        table, store, clock = await make_table(
            bots=(None, None, None, "easy"), stake=100, ledger=ledger, length="online"
        )
        await table.join(2, "bo")
        bo = Client(table, 1)
        bo.connect()
        await settle(table, clock)
        await table.leave(2)
        assert table.seats[1].kind == "empty" and bo.conn.closed is not None
        assert ledger.balance_sync("user:2") == 1000
        assert any(kind == "left" for _, kind, _ in store.audits)
        await table.stop()

    run(main())


def test_the_lobby_is_told_when_a_table_starts() -> None:
    async def main() -> None:
        lobby = Lobby(MemoryTableStore(), online_clocks=FAST)
        started: list[str] = []
        lobby.on_table_started = lambda table: started.append(table.public_id)
        table = await lobby.online((1, "ann"), get_preset("parlor"), level=0)
        await table.fill_bots(1, "easy")
        assert started == [table.public_id]
        await lobby.stop()

    run(main())


def test_emotes_are_presets_shown_to_the_table_and_rate_limited() -> None:
    async def main() -> None:
        table, store, clock = await make_table(bots=(None, None, "easy", "easy"))
        await table.join(2, "bo")
        ann, bo = Client(table, 0), Client(table, 1)
        ann.connect()
        bo.connect()
        await settle(table, clock)
        ann.new()
        bo.new()
        ann.send({"t": "emote", "id": "gg"})
        ann.send({"t": "emote", "id": "gg"})  # within 2 s
        ann.send({"t": "emote", "id": "you fool"})  # free text: refused at the door
        await settle(table, clock)
        mine = [m for m in ann.new() if m["t"] in ("emote", "error")]
        assert [m.get("id") or m.get("code") for m in mine] == ["bad_message", "gg", "rate_limited"]
        (theirs,) = [m for m in bo.new() if m["t"] == "emote"]
        assert theirs == {"t": "emote", "v": theirs["v"], "player": 0, "id": "gg"}
        assert all("gg" not in line for line in store.log[table.id])  # not in the record
        await table.stop()

    run(main())


@pytest.mark.parametrize("setting", ["all", "no_chow", "none"])
def test_auto_pass_answers_windows_on_the_server_without_a_prompt(setting: str) -> None:
    """Issue 30 settings: auto-pass is applied by the server inside the hold, like a bot's pass:
    the person gets no prompt for a window it answers (``all``: any window without a win;
    ``no_chow``: windows whose only claims are chows)."""

    async def main() -> None:
        clocks = ClockSettings(turn_ms=0, claim_ms=0, bank_ms=0, grace_ms=0,
                               discard_delay_ms=100, bot_ms=20, next_hand_ms=500)  # fmt: skip
        table, _, clock = await make_table(kind="practice", clocks=clocks, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        ann.send({"t": "prefs", "auto_pass": setting, "auto_win": False, "sound": False})
        windows = []
        for _ in range(800):
            await settle(table, clock, 0.3)
            p = ann.open_prompt()
            if p is not None:
                if p["clock"]["kind"] == "claim":
                    windows.append(sorted({i["kind"] for i in p["legal"]} - {"pass"}))
                act(ann, passive(p))
            if table.runner is not None and table.runner.hand_number >= 3:
                break
            if any(m["t"] == "hand_end" for m in ann.new_kinds()):
                ann.send({"t": "ready"})
        assert table.seats[0].prefs.auto_pass == setting
        if setting == "all":
            assert all("win" in kinds for kinds in windows), windows
        elif setting == "no_chow":
            assert all(kinds != ["chow"] for kinds in windows), windows
            assert any(kinds for kinds in windows)
        else:  # the control: without the setting the person is asked
            assert any(kinds == ["chow"] for kinds in windows), windows
        await table.stop()

    run(main())


def test_auto_win_takes_a_win_without_a_prompt() -> None:
    """``auto_win``: a legal win is taken by the server — the person is never asked about one.
    The person here plays ``strong``'s choices (so it gets to win) through the protocol."""
    from hkmahjong.bots.strong import StrongBot
    from hkmahjong.engine.actions import Action

    async def main() -> None:
        table, _, clock = await make_table(kind="practice", clocks=PRACTICE, length="16-hands")
        ann = Client(table, 0)
        ann.connect()
        ann.send({"t": "prefs", "auto_win": True})
        strong = StrongBot(0, ruleset=table.ruleset)
        won = False
        for _ in range(3000):
            await settle(table, clock, 0.2)
            p = ann.open_prompt()
            if p is not None and table.runner is not None:
                assert not any(i["kind"] in ("win", "self_draw") for i in p["legal"]), p
                legal = [Action.from_text(i["action"]) for i in p["legal"]]
                act(ann, strong.choose(table.runner.view(0), legal))
            for m in ann.new_kinds():
                if m["t"] == "hand_end":
                    won = won or any(s["player"] == 0 and s["delta"] > 0 for s in m["standings"])
                    ann.send({"t": "ready"})
            if won:
                break
        assert won
        await table.stop()

    run(main())
