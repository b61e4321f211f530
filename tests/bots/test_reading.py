"""bots/reading.py: the shipped hand-reading model loads, gives probabilities, sees no hidden tile;
tools/fit_danger.py regenerates it on a tiny setting."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.reading import FEATURE_NAMES, deal_in_probabilities, load_model
from hkmahjong.bots.registry import get_bot
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import ActionKind
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset

Script = Callable[[str, str], ModuleType]


def test_the_shipped_model_loads() -> None:
    model = load_model()
    assert len(model.weights) == len(FEATURE_NAMES)
    assert model.meta["hands"] >= 1000


def test_outputs_are_probabilities_and_ignore_hidden_tiles(script: Script) -> None:
    scramble = script("tests/engine/conftest.py", "engine_conftest_reading").scramble_hidden
    rs = get_preset("parlor")
    rng = random.Random(17)
    checked = 0
    for hand in range(3):
        bots = [get_bot("fan", seed=f"r:{hand}:{i}", ruleset=rs) for i in range(4)]
        state = HandState.new(rs, seed=hand_seed("reading", hand), hand_number=hand)
        step = 0
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if step % 7 == 0 and any(a.kind is ActionKind.DISCARD for a in legal):
                probs = deal_in_probabilities(state.view(seat))
                assert len(probs) == 3 and seat not in probs
                for row in probs.values():
                    assert len(row) == 34
                    assert all(0.0 < p < 1.0 for p in row)
                other = scramble(state, int(seat), rng)
                assert deal_in_probabilities(other.view(seat)) == probs
                checked += 1
            step += 1
            view = state.view(seat)
            state.apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(view, legal))
    assert checked >= 10


def test_the_tool_regenerates_on_a_tiny_setting(script: Script, tmp_path: Path) -> None:
    tool = script("tools/fit_danger.py", "fit_danger_tool")
    out = tmp_path / "model.json"
    summary = tool.main(["--hands", "10", "--seed", "tiny", "--rules", "parlor", "--out", str(out)])
    assert summary["rows_train"] > 0 and summary["rows_held_out"] > 0
    obj = json.loads(out.read_text())
    assert obj["features"] == list(FEATURE_NAMES)
    assert len(obj["weights"]) == len(FEATURE_NAMES)


def test_strong_with_the_learnt_reading_plays_a_hand() -> None:
    rs = get_preset("qingzhang")
    bots = [StrongBot(f"s{i}", ruleset=rs, style=Style(reading=1.0)) for i in range(2)]
    bots += [get_bot("fan", seed=f"f{i}", ruleset=rs) for i in range(2)]
    state = HandState.new(rs, seed=hand_seed("reading-strong", 0), hand_number=0)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = bots[seat].choose(state.view(seat), legal)
        assert action in legal
        state.apply(seat, action)
