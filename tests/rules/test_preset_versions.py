"""The parlor's claims follow seed 003, and what was made under the earlier parlor still loads
and verifies (issue 31 item 8).

Seed 003 (P): "每只打出的牌，其余三家都可以取" (every discard may be taken by the other three);
"碰或上之后即打出一只牌" (after a pung or chow, discard a tile — any tile); "任何牌都可以食，包括你
自己早前打出过的牌；放过一次食胡，亦不影响你之后再食". W2's 過水 for pungs ("過水 1st bullet") and
its 食替 ban ("上/碰牌之後不可打相同的牌") are W2's, not P's: they stay switches, on in qingzhang and
cuhk (W2's tables), off in parlor (P) and ml (silent, as P).

Records and stored tables name a preset by name and digest; the fixtures in ``tests/rules/data``
were written before the change by the code of the time (``*_before_issue31.jsonl``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from tests.parlor.tablekit import Client, act, settle

from hkmahjong.engine import Action
from hkmahjong.engine.record import GameRecord, RecordError, rules_from_spec, rules_spec, verify
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.ports import MemoryTableStore
from hkmahjong.parlor.table import Table
from hkmahjong.parlor.terms import TableConfig
from hkmahjong.rules import get_preset
from hkmahjong.rules.presets import PAST_VERSIONS, preset_versions
from hkmahjong.tiles import Wind

DATA = Path(__file__).with_name("data")
E, S, W, N = Wind
OLD_DIGESTS = {"parlor": "d51d29064a0f4a9a", "ml": "5b3e75b0a0c934cc"}
"""The digests of parlor and ml before issue 31 item 8 (as stored in records and tables)."""


def test_the_parlor_takes_every_discard_as_seed_003_says() -> None:
    parlor = get_preset("parlor")
    assert not parlor.pung_pass_rule and not parlor.no_swap_discard  # P
    assert not get_preset("ml").pung_pass_rule and not get_preset("ml").no_swap_discard
    for w2 in ("qingzhang", "cuhk"):  # W2 其他規則 過水
        assert get_preset(w2).pung_pass_rule and get_preset(w2).no_swap_discard


def _hand(ruleset_name: str, **changes: object) -> HandState:
    rs = get_preset(ruleset_name)
    rs = replace(rs, **changes) if changes else rs
    wall = stacked_wall(
        {
            E: "3s3m6m9m3p6p9p1z2z4z6z7z1p4p",
            S: "3s147m258p9s5z2z3z4z7z",
            W: "33s147m258p9p1z5z6z7z",
            N: "147m258p69s18m245z",
        },
        draws="9m",
    )
    return HandState.new(rs, seed=b"scenario", wall=wall)


def _texts(st: HandState, seat: Wind) -> list[str]:
    return [a.text for a in st.legal_actions(seat)]


@pytest.mark.parametrize(("preset", "offered"), [("parlor", True), ("qingzhang", False)])
def test_a_passed_pung_may_be_taken_again_at_the_parlor(preset: str, offered: bool) -> None:
    """P "每只打出的牌，其余三家都可以取": W passes E's 3s, S throws another 3s — at the parlor W
    may pung it; under W2's 過水 (qingzhang) not until W's next draw."""
    st = _hand(preset)
    st.apply(E, Action.from_text("discard 3s"))
    assert _texts(st, W) == ["pass", "pung"]
    st.apply(W, Action.from_text("pass"))
    st.apply(S, Action.from_text("discard 3s"))
    assert ("pung" in _texts(st, W)) is offered


@pytest.mark.parametrize(("preset", "allowed"), [("parlor", True), ("qingzhang", False)])
def test_the_tile_just_claimed_may_be_discarded_at_the_parlor(preset: str, allowed: bool) -> None:
    """P "碰或上之后即打出一只牌" names no tile that may not be thrown; W2 食替 bans the same one."""
    rs = get_preset(preset)
    wall = stacked_wall(
        {
            E: "3s3m6m9m3p6p9p1z2z4z6z7z1p4p",
            S: "147m258p9s5z2z3z4z7z1s",
            W: "333s147m258p1z5z6z7z",
            N: "147m258p69s18m245z",
        }
    )
    st = HandState.new(rs, seed=b"scenario", wall=wall)
    st.apply(E, Action.from_text("discard 3s"))
    st.apply(W, Action.from_text("pung"))
    assert ("discard 3s" in _texts(st, W)) is allowed


def test_the_earlier_versions_are_frozen_by_digest() -> None:
    for name, digest in OLD_DIGESTS.items():
        (past,) = PAST_VERSIONS[name]
        assert rules_spec(past) == {"preset": name, "digest": digest}
        assert rules_spec(get_preset(name))["digest"] != digest  # the preset changed
        assert rules_from_spec({"preset": name, "digest": digest}) == past
        assert past.pung_pass_rule and past.no_swap_discard
        assert preset_versions(name) == (get_preset(name), past)
    for name in ("qingzhang", "cuhk"):
        assert preset_versions(name) == (get_preset(name),)
    with pytest.raises(RecordError, match="differs from the one recorded"):
        rules_from_spec({"preset": "parlor", "digest": "0" * 16})


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("parlor_before_issue31", "parlor"),
        ("parlor_house_before_issue31", "parlor+custom"),
        ("ml_before_issue31", "ml"),
        ("parlor_pung_pass_before_issue31", "parlor"),
    ],
)
def test_a_record_made_before_the_change_loads_and_verifies(name: str, preset: str) -> None:
    record = GameRecord.load(DATA / f"{name}.jsonl")
    ruleset = rules_from_spec(record.rules)
    assert ruleset.name == preset and ruleset.pung_pass_rule and ruleset.no_swap_discard
    report = verify(record)
    assert report.hands == len(record.hands) >= 1


def test_the_old_parlor_is_needed_to_verify_a_record_where_its_rule_mattered() -> None:
    """In this hand South passed a pung that the earlier parlor barred from being offered again;
    replayed under today's parlor the claim window differs, so only the frozen version verifies."""
    record = GameRecord.load(DATA / "parlor_pung_pass_before_issue31.jsonl")
    assert verify(record).hands == 1
    today = replace(record, rules=rules_spec(get_preset("parlor")))
    with pytest.raises(RecordError, match="differ from the record"):
        verify(today)


def test_a_table_stored_under_the_old_parlor_plays_on_after_a_restart() -> None:
    """A live table whose stored config names the old parlor (its digest): rebuilt from the store,
    it continues under the old rules, and its log verifies as a record."""

    async def main() -> None:
        old = {"preset": "parlor", "digest": OLD_DIGESTS["parlor"]}
        config = TableConfig(
            "practice", old, length="one-hand", hints=True, bots=(None, "easy", "easy", "easy")
        )
        assert config.ruleset == PAST_VERSIONS["parlor"][0]
        store = MemoryTableStore()
        clock = FakeClock()
        table = await Table.create(store, config, creator=(1, "ann"), clock=clock)
        await table.start()
        ann = Client(table, 0)
        ann.connect()
        for _ in range(4):
            await settle(table, clock, 1.0)
            prompt = ann.open_prompt()
            if prompt is not None:
                act(ann, _quiet(prompt))
        await table.stop()
        again = await Table.restore(store, store.rows[table.id], clock=clock)
        assert again.ruleset == PAST_VERSIONS["parlor"][0]
        await again.start()
        ann = Client(again, 0)
        ann.connect()
        for _ in range(3000):
            await settle(again, clock, 0.7)
            if again.status != "playing":
                break
            prompt = ann.open_prompt()
            if prompt is not None:
                act(ann, _quiet(prompt))
        assert again.status == "finished"
        record = GameRecord.loads("\n".join(store.log[table.id]))
        assert record.rules == old and verify(record).hands == 1
        await again.stop()

    asyncio.run(main())


def _quiet(prompt: dict[str, object]) -> str:
    legal = prompt["legal"]
    assert isinstance(legal, list)
    kinds = {item["kind"]: item["action"] for item in legal}
    if "pass" in kinds:
        return str(kinds["pass"])
    return str([i["action"] for i in legal if i["kind"] == "discard"][-1])
