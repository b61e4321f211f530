"""bots/reading.py: the shipped hand-reading model loads, gives probabilities, sees no hidden tile,
reads 摸切/手切 from the view; tools/fit_danger.py regenerates it on a tiny setting."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.base import Decision
from hkmahjong.bots.reading import (
    FEATURE_NAMES,
    deal_in_probabilities,
    load_model,
    opponent_features,
    tile_features,
)
from hkmahjong.bots.registry import get_bot
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

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


def _with_from_draw(view: PlayerView, seat: Wind, flags: tuple[bool, ...]) -> PlayerView:
    """``view`` with ``seat``'s 摸切/手切 flags replaced."""
    from_draw = tuple(flags if s == seat else f for s, f in zip(Wind, view.from_draw, strict=True))
    return PlayerView(
        seat=view.seat,
        prevailing_wind=view.prevailing_wind,
        hand_number=view.hand_number,
        phase=view.phase,
        to_act=view.to_act,
        current=view.current,
        concealed=view.concealed,
        last_drawn=view.last_drawn,
        melds=view.melds,
        bonus=view.bonus,
        discards=view.discards,
        claimed=view.claimed,
        from_draw=from_draw,
        concealed_counts=view.concealed_counts,
        tiles_left=view.tiles_left,
        pending_tile=view.pending_tile,
        pending_from=view.pending_from,
        scores=view.scores,
        outcome=view.outcome,
    )


def _mid_hand_view() -> tuple[PlayerView, Wind]:
    """A view at a discard decision where an opponent has six discards, the last a suited 3-7."""
    rs = get_preset("parlor")
    for hand in range(20):
        bots = [get_bot("fan", seed=f"te:{hand}:{i}", ruleset=rs) for i in range(4)]
        state = HandState.new(rs, seed=hand_seed("reading-te", hand), hand_number=hand % 4)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if any(a.kind is ActionKind.DISCARD for a in legal):
                for opp in Wind:
                    river = view.discards[opp]
                    if opp != seat and len(river) >= 6 and river[-1] < 27 and river[-1] % 9 == 4:
                        return view, opp
            state.apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(view, legal))
    raise AssertionError("no such view")


def test_tsumogiri_and_tedashi_are_read_from_the_view() -> None:
    view, opp = _mid_hand_view()
    turns = len(view.discards[opp])
    last = int(view.discards[opp][-1])
    at = {n: i for i, n in enumerate(FEATURE_NAMES)}
    all_drawn = _with_from_draw(view, opp, (True,) * turns)
    base = opponent_features(all_drawn, opp)
    assert base[at["te_last"]] == base[at["te_last3"]] == base[at["te_last_middle"]] == 0.0
    assert base[at["since_te"]] == min(turns, 12) / 6.0
    rows = tile_features(all_drawn, opp)
    assert all(r[at["te_near1"]] == r[at["te_suit"]] == 0.0 for r in rows)

    cut = _with_from_draw(view, opp, (True,) * (turns - 1) + (False,))  # a 手切 after a 摸切 run
    base = opponent_features(cut, opp)
    assert base[at["te_last"]] == 1.0 and base[at["te_last3"]] == 1 / 3
    assert base[at["since_te"]] == 0.0 and base[at["te_last_middle"]] == 1.0
    rows = tile_features(cut, opp)
    assert rows[last - 1][at["te_near1"]] == rows[last + 1][at["te_near1"]] == 1.0
    assert rows[last + 2][at["te_near2"]] == 1.0 and rows[last][at["te_near1"]] == 0.0
    assert [r[at["te_suit"]] for r in rows] == [
        1.0 if t // 9 == last // 9 else 0.0 for t in range(34)
    ]
    # the sudden 手切 raises the danger of its neighbours against that opponent
    p_drawn = deal_in_probabilities(all_drawn)[opp]
    p_cut = deal_in_probabilities(cut)[opp]
    assert p_cut[last - 1] > p_drawn[last - 1] and p_cut[last + 1] > p_drawn[last + 1]


def test_probabilities_match_the_full_rows() -> None:
    view, _ = _mid_hand_view()
    model = load_model()
    for opp, probs in deal_in_probabilities(view).items():
        rows = tile_features(view, opp)
        assert all(len(r) == len(FEATURE_NAMES) for r in rows)
        for p, row in zip(probs, rows, strict=True):
            assert abs(p - model.probability(row)) < 1e-12


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


def _paired_decisions(
    style: Style, walls: str, prefix: str
) -> Iterator[tuple[PlayerView, list[Action], Decision, Decision, StrongBot]]:
    """Six parlor hands of four ``strong``: at each decision with a choice, default ``strong``'s
    and a ``style`` variant's explained decisions on the same view (and the variant)."""
    rs = get_preset("parlor")
    # budgets that never bind: a wall-clock budget hit on a loaded machine changes a choice
    budget = 60.0
    for h in range(6):
        plain = StrongBot(f"{prefix}{h}", ruleset=rs, time_budget=budget)
        reader = StrongBot(f"{prefix}{h}", ruleset=rs, style=style, time_budget=budget)
        bots = [
            get_bot("strong", seed=f"s{h}:{i}", ruleset=rs, time_budget=budget) for i in range(4)
        ]
        state = HandState.new(rs, seed=hand_seed(walls, h), hand_number=0)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if len(legal) > 1:
                d0 = plain.decide(view, legal, explain=True)
                d1 = reader.decide(view, legal, explain=True)
                assert d0.explanation is not None and d1.explanation is not None
                yield view, legal, d0, d1, reader
            state.apply(seat, bots[seat].choose(view, legal))


def test_fold_reading_changes_only_the_folded_discards() -> None:
    """``Style(fold_reading=1)``: wherever ``strong`` attacks it plays alike; once folded (棄和)
    its discard is the safest by the learnt model's deal-in chance × ``danger.py``'s payment (up
    to the 0.01 × rank tiebreak of the fold score), and on some folds that is another tile."""
    from hkmahjong.bots.danger import liability_tiles, threats, tile_danger
    from hkmahjong.bots.strong import _with_reading

    folds = differ = 0
    for view, legal, d0, d1, reader in _paired_decisions(
        Style(fold_reading=1.0), "fold-reading", "p"
    ):
        assert d0.explanation is not None
        if "FOLD" not in d0.explanation.text:
            assert d1.action == d0.action
            continue
        folds += 1
        differ += d1.action != d0.action
        s = reader._situation(view)
        learnt = _with_reading(threats(s), view, 1.0)
        liab = liability_tiles(s)

        def risk(a: Action, th: list = learnt, lb: dict = liab) -> float:
            assert a.tile is not None
            t = int(a.tile)
            return tile_danger(th, t) + lb.get(t, 0.0)

        assert d1.action.kind is ActionKind.DISCARD
        safest = min(risk(a) for a in legal if a.kind is ActionKind.DISCARD)
        assert risk(d1.action) <= safest + 0.6
    assert folds >= 10 and differ >= 1, (folds, differ)


def test_attack_reading_keeps_the_fold_test_of_danger_py() -> None:
    """``Style(attack_reading=1)``: the learnt reading weighs the safety of the discards and
    claims where ``strong`` attacks, while *whether* it folds stays ``danger.py``'s — it folds
    on exactly the decisions ``strong`` folds on (and there plays ``strong``'s fold, as
    ``fold_reading`` is 0), and where it attacks it sometimes picks another tile."""
    folds = differ = 0
    for _, _, d0, d1, _ in _paired_decisions(Style(attack_reading=1.0), "attack-reading", "a"):
        assert d0.explanation is not None and d1.explanation is not None
        folded = "FOLD" in d0.explanation.text
        assert folded == ("FOLD" in d1.explanation.text)
        if folded:
            folds += 1
            assert d1.action == d0.action
        else:
            differ += d1.action != d0.action
    assert folds >= 10 and differ >= 1, (folds, differ)
