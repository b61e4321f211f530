"""提示: the advice (bots.advice) agrees with the calculator and the waits line, in every language.

Issue 13 item 13: the hint once said "雞糊 … 自摸 only" beside a waits line saying "on a discard
3 fan". The waits and their fan now come from one place (``advise`` → ``score_waits``) and the
screen renders only that data; these tests check it over many played states.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from hkmahjong.bots import get_bot
from hkmahjong.bots.advice import Advice, DangerLevel, advise
from hkmahjong.cli.tui.model import HintInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.screens import hint_text
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.engine.state import HandState
from hkmahjong.hand import Hand, waits
from hkmahjong.rules import get_preset
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.tiles import Wind

RULES = get_preset("parlor")


def _states(seeds: range, per_hand: int) -> Iterator[tuple[PlayerView, list[Action], Action]]:
    """Decisions from hands the ``efficient`` bot plays (it gets ready often), with its choice."""
    for seed in seeds:
        state = HandState.new(RULES, seed=f"advice-{seed}".encode())
        bots = [get_bot("efficient", f"{seed}/{i}", ruleset=RULES) for i in range(4)]
        taken = 0
        while not state.is_over and taken < per_hand:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            choice = bots[seat].choose(view, legal)
            if len(legal) > 1 and choice.kind is not ActionKind.PASS:
                taken += 1
                yield view, legal, choice
            state.apply(seat, choice)


def _hand_after_discard(view: PlayerView, action: Action) -> Hand:
    assert action.tile is not None
    return view.hand.remove(action.tile)


def _calculator_fan(hand: Hand, view: PlayerView, tile: object, self_drawn: bool) -> int | None:
    """What ``hkmj score`` gives for winning on ``tile`` (the oracle, computed here again)."""
    ctx = WinContext(
        self_drawn=self_drawn,
        seat_wind=view.seat,
        prevailing_wind=view.prevailing_wind,
        winning_tile=tile,  # type: ignore[arg-type]
    )
    result = score_hand(hand.add(tile), ctx, RULES)  # type: ignore[arg-type]
    return result.total_fan if result.valid_win else None


_WAIT_LINE = re.compile(r"^  (\S+)  剩(\d+)  食 (\d+番|不夠番) / 自摸 (\d+番|不夠番)$", re.M)


def _fan_of(text: str) -> int | None:
    return None if text == "不夠番" else int(text.removesuffix("番"))


def test_advice_fan_per_wait_equals_the_calculator_and_the_waits_line() -> None:
    """Over many played decisions: every ready discard's waits, copies left and fan equal the
    calculator's, and the rendered waits line says exactly those numbers."""
    renderer = TileRenderer("zh-Hant", "text")
    ready = 0
    for view, legal, choice in _states(range(30), per_hand=60):
        if choice.kind is not ActionKind.DISCARD:
            continue
        advice = advise(view, legal, RULES, action=choice)
        after = _hand_after_discard(view, choice)
        expected_waits = waits(after, seven_pairs=RULES.seven_pairs)
        assert [w.tile for w in advice.waits] == (expected_waits if advice.shanten == 0 else [])
        if advice.shanten != 0:
            continue
        ready += 1
        seen = view.visible_counts()
        for wait in advice.waits:
            assert wait.left == max(0, 4 - seen[wait.tile])
            assert wait.on_discard == _calculator_fan(after, view, wait.tile, False)
            assert wait.self_drawn == _calculator_fan(after, view, wait.tile, True)
        shown = _WAIT_LINE.findall(str(hint_text(HintInfo(advice), renderer)))
        assert len(shown) == len(advice.waits)
        for (label, left, on_discard, self_drawn), wait in zip(shown, advice.waits, strict=True):
            assert label == renderer.bare(wait.tile)
            assert int(left) == wait.left
            assert _fan_of(on_discard) == wait.on_discard
            assert _fan_of(self_drawn) == wait.self_drawn
    assert ready >= 20


def test_no_route_estimate_beside_the_exact_waits() -> None:
    """A ready hand shows the waits' exact fan, never the route's estimate (which said 雞糊)."""
    renderer = TileRenderer("en", "text")
    for view, legal, choice in _states(range(40, 48), per_hand=60):
        if choice.kind is not ActionKind.DISCARD:
            continue
        advice = advise(view, legal, RULES, action=choice)
        body = str(hint_text(HintInfo(advice), renderer))
        assert ("Aim:" in body) == (advice.shanten > 0)
        assert ("Waits:" in body) == (advice.shanten == 0)


def test_the_strong_bot_picks_the_action_and_the_reasons_follow_it() -> None:
    """Without ``action`` the strong bot decides; the shanten and danger describe that action."""
    checked = 0
    for view, legal, _choice in _states(range(3), per_hand=8):
        advice = advise(view, legal, RULES)
        assert advice.action in legal
        assert advice.seat == view.seat
        if advice.action.kind is ActionKind.DISCARD:
            assert advice.danger is not None and advice.danger.tile == advice.action.tile
            assert advice.shanten >= advice.shanten_now
            assert advice.steps_given_up == advice.shanten - advice.shanten_now
            checked += 1
    assert checked >= 5


def test_advice_is_data_only() -> None:
    """No text in the advice: the web parlor renders the same data in its own language."""
    view, legal, choice = next(_states(range(1), per_hand=1))
    advice = advise(view, legal, RULES, action=choice)

    def walk(value: object) -> Iterator[object]:
        yield value
        if isinstance(value, tuple):
            for item in value:
                yield from walk(item)
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, Action):
            for name in value.__dataclass_fields__:
                yield from walk(getattr(value, name))

    assert not [v for v in walk(advice) if isinstance(v, str)]
    assert isinstance(advice, Advice)


def test_danger_levels_read_the_table() -> None:
    """A first discard before anyone played is safe; late in a hand some discards are risky."""
    state = HandState.new(RULES, seed=b"danger-1")
    view = state.view(Wind.EAST)
    legal = state.legal_actions(Wind.EAST)
    discard = next(a for a in legal if a.kind is ActionKind.DISCARD)
    first = advise(view, legal, RULES, action=discard)
    assert first.danger is not None and first.danger.level is DangerLevel.SAFE
    assert first.danger.ready == ()
    late = [
        advise(v, legal_, RULES, action=c)
        for v, legal_, c in _states(range(60, 65), per_hand=60)
        if c.kind is ActionKind.DISCARD and len(v.discards[v.seat]) >= 8
    ]
    assert any(a.danger is not None and a.danger.level >= DangerLevel.MEDIUM for a in late)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_a_ready_discard_hint_in_each_language(lang: str) -> None:
    """The suggestion, the ready word and each wait appear in the chosen language."""
    renderer = TileRenderer(lang, "text")
    for view, legal, choice in _states(range(40), per_hand=60):
        if choice.kind is not ActionKind.DISCARD:
            continue
        advice = advise(view, legal, RULES, action=choice)
        if advice.shanten == 0:
            break
    else:
        pytest.fail("no ready state found")
    body = str(hint_text(HintInfo(replace(advice, steps_given_up=0)), renderer))
    ready = {"zh-Hant": "叫糊", "zh-Hans": "听牌", "en": "Ready"}[lang]
    assert ready in body
    for wait in advice.waits:
        assert renderer.bare(wait.tile) in body
