"""Bots are legal, deterministic, explain themselves, and never attempt a win below the minimum.

Rules checked: docs/rules.md §7 (a win must reach the table minimum; P: 三番起糊) — with
``physical_table`` the engine offers 詐糊 (§11) and a bot must never take it; every preset's fan
table is read from the ruleset (§8 "Other presets").
"""

from __future__ import annotations

import copy
import pickle

import pytest

from hkmahjong.bots import BOT_NAMES, LEVEL_NAMES, BotNameError, Explanation, get_bot
from hkmahjong.bots.arena import hand_seed
from hkmahjong.engine import ActionKind
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

PRESETS = ("parlor", "qingzhang", "ml")


def _play(
    names: list[str], preset: str, wall: int, *, physical: bool = False, explain_seat: int = -1
) -> tuple[list[str], HandState]:
    ruleset = get_preset(preset)
    # an hour's budget: the budget is a safety net for slow machines, and a loaded test machine
    # must not cut a decision short (determinism is what these tests check)
    bots = [
        get_bot(n, seed=f"t{wall}:{i}", ruleset=ruleset, time_budget=3600.0)
        for i, n in enumerate(names)
    ]
    state = HandState.new(
        ruleset, seed=hand_seed("tests", wall), hand_number=wall, physical_table=physical
    )
    log: list[str] = []
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        if seat == explain_seat:
            decision = bots[seat].decide(view, legal, explain=True)
            action = decision.action
            assert isinstance(decision.explanation, Explanation)
            assert decision.explanation.chosen == action
            assert {c.action for c in decision.explanation.candidates} <= set(legal)
        else:
            action = bots[seat].choose(view, legal)
        assert action in legal, f"{names[seat]} chose illegal {action} from {legal}"
        assert action.kind is not ActionKind.FALSE_WIN, f"{names[seat]} attempted 詐糊"
        log.append(f"{seat.letter} {action.text}")
        state.apply(seat, action)
        assert len(log) < 3000
    return log, state


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_plays_only_legal_actions_and_never_a_false_win(name: str, preset: str) -> None:
    """docs/rules.md §7/§11: physical table offers 詐糊; no bot takes it, every win reaches the minimum."""
    ruleset = get_preset(preset)
    for wall in range(2):
        _, state = _play([name, "fan", name, "efficient"], preset, wall, physical=True)
        out = state.outcome
        assert out is not None
        assert not out.false_winners
        for w in out.wins:
            assert w.result.valid_win
            assert w.result.total_fan >= ruleset.min_fan


@pytest.mark.parametrize("name", [*BOT_NAMES, *LEVEL_NAMES])
def test_bot_is_deterministic_for_its_seed(name: str) -> None:
    """Same seed, same wall: the same action sequence (and explanations do not change it)."""
    first, _ = _play([name] * 4, "parlor", 7)
    again, _ = _play([name] * 4, "parlor", 7, explain_seat=int(Wind.SOUTH))
    assert first == again


def test_explanation_text_lists_candidates_best_first() -> None:
    """The hint text names the bot, the chosen action and a line per candidate."""
    ruleset = get_preset("parlor")
    state = HandState.new(ruleset, seed=hand_seed("tests", 3))
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    for name in ("efficient", "fan", "strong"):
        exp = get_bot(name, seed=1, ruleset=ruleset).explain(state.view(seat), legal)
        lines = exp.text.splitlines()
        assert lines[0].startswith(f"{name}: {exp.chosen.text}")
        starred = [ln for ln in lines if ln.startswith(" *")]
        assert len(starred) == 1 and exp.chosen.text in starred[0]
        scores = sorted((c.score for c in exp.candidates), reverse=True)
        assert max(c.score for c in exp.candidates if c.action == exp.chosen) == scores[0]


def test_registry_names_and_errors() -> None:
    """Every tier and level builds; an unknown name is a clear error listing the known ones."""
    for name in (*BOT_NAMES, *LEVEL_NAMES, "strong-easy"):
        assert get_bot(name, seed=3).choose
    assert get_bot("normal").name == "strong-normal"
    with pytest.raises(BotNameError, match="known bots: random, efficient, fan, strong"):
        get_bot("genius")


def test_strong_discards_the_safer_of_equally_ranked_tiles() -> None:
    """docs/rules.md §8 "Other presets" (ml, seed 002: the discarder pays alone): among discards the
    route rank leaves tied, ``strong`` (tiebreak > 0) gives up the one with the least 放銃 risk."""
    from hkmahjong.bots.strong import StrongBot, Style

    ruleset = get_preset("ml")
    checked = 0
    for wall in range(12):
        state = HandState.new(ruleset, seed=hand_seed("tiebreak", wall), hand_number=wall)
        plain = StrongBot(1, ruleset=ruleset, style=Style(tiebreak=0.0))
        safe = StrongBot(1, ruleset=ruleset)
        others = [get_bot("fan", seed=i, ruleset=ruleset) for i in range(4)]
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if seat == Wind.EAST and len(legal) > 1:
                exp = plain.explain(view, legal)
                discards = [c for c in exp.candidates if c.action.kind is ActionKind.DISCARD]
                if exp.chosen.kind is ActionKind.DISCARD and "FOLD" not in exp.summary:
                    risk = {
                        c.action: float(c.note.rsplit("risk ", 1)[1].split()[0]) for c in discards
                    }
                    top = max(c.score for c in discards)
                    tied = [risk[c.action] for c in discards if c.score >= top - 1e-9]
                    if len(set(tied)) > 1:
                        chosen = safe.choose(view, legal)
                        assert risk[chosen] <= min(tied), (chosen, risk, tied)
                        checked += 1
                action = safe.choose(view, legal)
            else:
                action = others[seat].choose(view, legal) if len(legal) > 1 else legal[0]
            state.apply(seat, action)
    assert checked >= 3


def test_strong_weighs_waits_by_what_they_pay() -> None:
    """docs/rules.md §8 (ml, seed 002: 門風/圈風 pungs 1 fan each, 中 1 fan, relative table 2, 8, 16…):
    with the same waits (4s/7s, 8 copies), keeping 東東東 (門風 + 圈風 for 東 in the 東 round)
    pays more than keeping 中中中; ``wait_value`` adds its share of that difference."""
    from dataclasses import replace

    from hkmahjong.bots.base import Situation
    from hkmahjong.bots.strong import StrongBot, Style
    from hkmahjong.engine import Action
    from hkmahjong.tiles import Tile, counts34, parse_tiles

    ruleset = get_preset("ml")
    state = HandState.new(ruleset, seed=hand_seed("waits", 0))
    base = state.view(Wind.EAST)
    tiles = parse_tiles("1117z123456m56s77z")
    view = replace(
        base,
        phase=state.phase,
        concealed=tuple(sorted(tiles)),
        last_drawn=None,
        melds=((), (), (), ()),
        bonus=((Tile(35),), (), (), ()),  # 蘭 is not 東's own flower: no 正花, no 無花
        discards=((), (), (), ()),
        claimed=((), (), (), ()),
    )
    legal = [Action.discard(Tile(k)) for k in sorted(set(int(t) for t in tiles))]

    bot = StrongBot(1, ruleset=ruleset)
    s = Situation.of(view, ruleset)
    keep_east = counts34(parse_tiles("111z123456m56s77z"))
    keep_red = counts34(parse_tiles("11z123456m56s777z"))
    d_east, so_east, worth_east = bot._wait_quality(s, keep_east)
    d_red, so_red, worth_red = bot._wait_quality(s, keep_red)
    assert (d_east, so_east) == (d_red, so_red) == (8, 0)
    assert worth_red == pytest.approx(8.0)  # 1 fan: exactly the minimum win's worth per copy
    assert worth_east > worth_red  # 2 fan on a discard: 16 jade instead of 4

    def gap(style: Style) -> float:
        exp = StrongBot(1, ruleset=ruleset, style=style).explain(view, legal)
        score = {c.action.tile: c.score for c in exp.candidates}
        return score[Tile(33)] - score[Tile(27)]  # discard 中 (keep 東) minus discard 東

    plain, weighted = gap(Style(wait_value=0.0)), gap(Style(wait_value=0.5))
    assert weighted - plain == pytest.approx(0.5 * (worth_east - worth_red))


def test_strong_reads_the_self_draw_fan_of_the_table_it_is_bound_to() -> None:
    """docs/rules.md §8: 自摸 is worth what the table says; ``bind`` (the arena, the parlor) changes
    the table after construction, and the wait worth must follow it."""
    from hkmahjong.bots.strong import StrongBot
    from hkmahjong.rules import FanId

    bot = StrongBot(1)
    assert bot._self_fan == get_preset("parlor").fan_value(FanId.SELF_DRAWN)
    bot.bind(get_preset("parlor").with_fan({FanId.SELF_DRAWN: 2}))
    assert bot._self_fan == 2


def test_strong_weighs_risk_in_minimum_deal_ins_of_its_table() -> None:
    """docs/rules.md §9 (full gun: the discarder alone pays; 3 shares P, 2 ML — qingzhang 2) and the
    minimum (P 三番起糊: 4 a share at 3 fan; ML 1 番起糊: 2 a share): what feeding a minimum-fan
    win costs is the unit of ``strong``'s tiebreak, so the same knob weighs alike at every table;
    ``bind`` follows the table."""
    from hkmahjong.bots.strong import StrongBot

    bot = StrongBot(1, ruleset=get_preset("parlor"))
    assert bot._deal_in_unit() == 3 * 4
    for preset, unit in (("qingzhang", 2 * 4), ("ml", 2 * 2)):
        bot.bind(get_preset(preset))
        assert bot._deal_in_unit() == unit


@pytest.mark.parametrize("name", [*BOT_NAMES, *LEVEL_NAMES])
def test_every_bot_copies_and_pickles(name: str) -> None:
    """Worker processes and tools (fork_wins) copy bots; on the compiled build too, where a frozen
    value class (``Style``) cannot be rebuilt field by field."""
    bot = get_bot(name, seed=3)
    for other in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert type(other) is type(bot)
        assert getattr(other, "style", None) == getattr(bot, "style", None)
