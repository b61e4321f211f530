"""A reload at a hand's end shows the same result (issue 30 item 7: "after a reload the hand
result loses the standings, everyone's hands, the seed and the replay link"): between a hand's
end and the next hand, a seat's ``snapshot`` carries the ``hand_end`` it was sent — no more (the
same result, hands, seed and standings) — and a snapshot mid-hand carries none."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from tests.parlor.tablekit import Client, act, make_table, passive, settle

from hkmahjong.parlor.clocks import PRACTICE_CLOCKS

CLOCKS = replace(PRACTICE_CLOCKS, discard_delay_ms=50, bot_ms=20, next_hand_ms=60_000)


def test_a_snapshot_at_a_hands_end_repeats_its_hand_end_and_mid_hand_has_none() -> None:
    async def main() -> None:
        table, _, clock = await make_table(kind="practice", clocks=CLOCKS, length="8-hands")
        ann = Client(table, 0)
        ann.connect()
        await settle(table, clock, 0.1)
        first = ann.messages[0]
        assert first["t"] == "snapshot" and "hand_end" not in first  # mid-hand: no result
        sent: dict[str, Any] | None = None
        for _ in range(3000):
            await settle(table, clock, 0.5)
            ends = [m for m in ann.messages if m["t"] == "hand_end"]
            if ends:
                sent = ends[-1]
                break
            prompt = ann.open_prompt()
            if prompt is not None:
                act(ann, passive(prompt))
        assert sent is not None, "the hand did not end"
        ann.connect()  # a reload: a new connection, a plain hello
        await settle(table, clock, 0.1)
        snap = ann.messages[0]
        assert snap["t"] == "snapshot"
        again = {k: v for k, v in sent.items() if k not in ("t", "v")}
        assert snap["hand_end"] == again  # the same result, hands, seed and standings
        assert set(again) == {"hand", "result", "hands", "seed", "standings"}
        assert len(again["seed"]) == 64 and len(again["standings"]) == 4
        ann.send({"t": "ready"})  # the next hand: a snapshot no longer carries the old result
        await settle(table, clock, 0.5)
        ann.connect()
        await settle(table, clock, 0.1)
        assert "hand_end" not in ann.messages[0]
        await table.stop()

    asyncio.run(main())


def test_the_snapshot_is_json_as_documented() -> None:
    from hkmahjong.parlor import protocol as proto

    plain = proto.snapshot_msg(3, "e", {}, None, None)
    assert "hand_end" not in plain
    ended = proto.snapshot_msg(3, "e", {}, None, None, {"hand": 0})
    assert json.loads(json.dumps(ended))["hand_end"] == {"hand": 0}
