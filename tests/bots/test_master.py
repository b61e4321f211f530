"""``master`` (issue 17): determinized search over ``strong``'s best candidates.

``engine/determinize.py`` rebuilds a playable hand from one seat's view and a sample of what it
cannot see: the rebuilt state shows that seat the very same view (every field, every preset), it
accounts for every tile (144 with bonus tiles), and with the true hidden tiles it offers the
same legal actions and plays out to the same payments as the real hand. ``master`` reads only
its view: shuffling the hidden tiles of a real state leaves its decision (fixed sample count and
seed) unchanged.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from hkmahjong.bots import SEARCH_NAMES, BotNameError, MasterBot, Search, get_bot
from hkmahjong.bots.arena import ArenaConfig, hand_seed, run_arena
from hkmahjong.bots.base import BaseBot
from hkmahjong.bots.master import (
    MASTER_STYLE,
    READY_KINDS,
    reading_deal,
    reading_sample,
    ready_chances,
)
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.engine.determinize import (
    Deal,
    DeterminizeError,
    can_win_on,
    deal_of,
    random_deal,
    rebuild,
    unseen_tiles,
)
from hkmahjong.engine.state import HandState
from hkmahjong.hand import is_complete_counts
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.tiles import Wind

Script = Callable[[str, str], ModuleType]
PRESETS = ("parlor", "qingzhang", "ml")


def _positions(preset: str, hands: int, label: str = "det") -> Iterator[tuple[HandState, Ruleset]]:
    """Every decision point of ``hands`` hands of four ``fan`` bots under ``preset``."""
    rs = get_preset(preset)
    bots = [get_bot("fan", seed=f"{label}:{i}", ruleset=rs, time_budget=3600.0) for i in range(4)]
    for h in range(hands):
        state = HandState.new(rs, seed=hand_seed(f"{label}:{preset}", h), hand_number=h)
        while not state.is_over:
            yield state, rs
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            action = legal[0] if len(legal) == 1 else bots[seat].choose(state.view(seat), legal)
            state.apply(seat, action)


def _play_out(state: HandState, bots: list[BaseBot]) -> tuple[int | float, ...]:
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(
            seat, legal[0] if len(legal) == 1 else bots[seat].choose(state.view(seat), legal)
        )
    assert state.outcome is not None
    return state.outcome.deltas


@pytest.mark.parametrize("preset", PRESETS)
def test_rebuilt_state_shows_the_same_view_and_every_tile(preset: str) -> None:
    """For every seat at every decision of self-play: the rebuilt state's view equals the
    original in every field, its census is the whole tile set, and with the true hidden tiles
    the legal actions of every seat are the real ones."""
    rng = random.Random(preset)
    checked = 0
    for state, rs in _positions(preset, 3):
        total = 144 if rs.bonus_tiles else 136
        for w in Wind:
            view = state.view(w)
            unseen = unseen_tiles(view, rs)
            others = sum(n for s, n in enumerate(view.concealed_counts) if s != w)
            assert len(unseen) == others + view.tiles_left + rs.dead_wall
            sampled = rebuild(view, rs, random_deal(view, rs, rng))
            assert sampled.view(w) == view
            assert sum(sampled.census()) == total
            true = rebuild(view, rs, deal_of(state, w))
            assert true.view(w) == view
            for o in Wind:
                # in a window the others' decisions are hidden from w: they decide again
                if o == w or state.decisions[o] is None:
                    assert true.legal_actions(o) == state.legal_actions(o)
            checked += 1
    assert checked > 300


def test_true_deal_plays_out_like_the_real_hand() -> None:
    """Rebuilt with the true hidden tiles, a hand played on by the same bots pays the same
    (claims, kongs, 包牌 and settlement follow from what the view holds)."""
    compared = 0
    for preset in PRESETS:
        rs = get_preset(preset)
        bots: list[BaseBot] = [
            get_bot("fan", seed=i, ruleset=rs, time_budget=3600.0) for i in range(4)
        ]
        for n, (state, _) in enumerate(_positions(preset, 2, "out")):
            if n % 9:
                continue
            seat = state.to_act[0]
            rebuilt = rebuild(state.view(seat), rs, deal_of(state, seat))
            assert _play_out(rebuilt, bots) == _play_out(state.clone(), bots)
            compared += 1
    assert compared >= 15


def test_a_deal_that_does_not_fit_is_refused() -> None:
    rs = get_preset("parlor")
    state = HandState.new(rs, seed=hand_seed("bad", 0))
    view = state.view(Wind.EAST)
    deal = deal_of(state, Wind.EAST)
    with pytest.raises(DeterminizeError, match="concealed tiles"):
        rebuild(view, rs, Deal((deal.hands[0], deal.hands[1][1:], *deal.hands[2:]), deal.wall))
    with pytest.raises(DeterminizeError, match="wall"):
        rebuild(view, rs, Deal(deal.hands, deal.wall[1:]))
    fifth = next(t for t in view.concealed if t != deal.wall[0])  # one copy too many
    with pytest.raises(DeterminizeError, match="tile set"):
        rebuild(view, rs, Deal(deal.hands, (fifth, *deal.wall[1:])))


def _master(rollouts: int = 3, **kw: object) -> MasterBot:
    """A ``master`` with fixed samples; its pools reach a distance step (gap 10, not the default
    near ties) so that the tests find searched decisions in a few hands."""
    knobs: dict[str, object] = {"gap": 10.0, **kw}
    return MasterBot(
        5,
        ruleset=get_preset("parlor"),
        time_budget=3600.0,
        search=Search(rollouts=rollouts, **knobs),  # type: ignore[arg-type]
    )


def _searched_positions(
    count: int, label: str = "m", scope: str = "calls"
) -> Iterator[tuple[HandState, PlayerView, list[Action]]]:
    """Decisions of self-play (``strong`` seats) where ``master``'s pool holds 2+ candidates."""
    rs = get_preset("parlor")
    probe = _master(scope=scope)
    bots = [get_bot("strong", seed=i, ruleset=rs, time_budget=3600.0) for i in range(4)]
    found = 0
    for h in range(20):
        state = HandState.new(rs, seed=hand_seed(label, h), hand_number=h)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            if len(legal) > 1:
                cands, _, chosen = probe._ranked(view, legal, explain=False)
                if len(probe._pool(cands, chosen)) >= 2 and len(view.discards[seat]) % 3 == 1:
                    yield state, view, legal
                    found += 1
                    if found >= count:
                        return
            action = legal[0] if len(legal) == 1 else bots[seat].choose(view, legal)
            state.apply(seat, action)


def test_decision_ignores_the_hidden_tiles(script: Script) -> None:
    """The true other hands and wall shuffled: the same decision and the same sample means
    (fixed sample count and seed) — the search reads only the view."""
    scramble = script("tests/engine/conftest.py", "engine_conftest_master").scramble_hidden
    rng = random.Random(3)
    master = _master()
    checked = 0
    for state, view, legal in _searched_positions(5):
        seat = int(view.seat)
        first = master.decide(view, legal, explain=True)
        assert master.last_rollouts == 3
        other = scramble(state, seat, rng)
        assert other.view(Wind(seat)) == view
        assert deal_of(other, Wind(seat)) != deal_of(state, Wind(seat))
        again = master.decide(other.view(Wind(seat)), legal, explain=True)
        assert again.action == first.action
        assert again.explanation is not None and first.explanation is not None
        assert again.explanation.text == first.explanation.text
        checked += 1
    assert checked == 5


def test_fixed_rollouts_are_deterministic_and_the_bot_copies() -> None:
    """Same seed, same view: the same decision; a deep copy and a pickled copy decide alike."""
    master = _master(rollouts=2)
    for _, view, legal in _searched_positions(3, "copy"):
        d = master.decide(view, legal, explain=True)
        assert d.explanation is not None
        for other in (master, copy.deepcopy(master), pickle.loads(pickle.dumps(master))):
            again = other.decide(view, legal, explain=True)
            assert again.explanation is not None
            assert again.explanation.text == d.explanation.text


def test_explanation_shows_each_searched_candidate() -> None:
    """decide(explain=True): searched candidates carry their mean jade and sample count; the
    others say they were not searched; the summary gives the verdict and strong's read."""
    master = _master(rollouts=2)
    _, view, legal = next(_searched_positions(1, "explain"))
    exp = master.explain(view, legal)
    assert exp.bot == "master" and exp.chosen in legal
    searched = [c for c in exp.candidates if "samples" in c.note]
    assert 2 <= len(searched) <= 3
    assert all("over 2 samples" in c.note for c in searched)
    assert "searched" in exp.summary and "strong:" in exp.summary
    assert all("not searched" in c.note for c in exp.candidates if c not in searched)
    assert exp.text.splitlines()[0].startswith(f"master: {exp.chosen.text}")


def test_it_leaves_strong_only_for_a_measured_gain() -> None:
    """With the default rule (2 standard errors) ``master`` plays ``strong``'s choice unless a
    searched candidate's mean beats it; with z = 0 it plays the best mean outright."""
    plain = _master(rollouts=2)
    eager = _master(rollouts=2, z=0.0, min_rollouts=1)
    for _, view, legal in _searched_positions(4, "rule"):
        strong_choice = plain._ranked(view, legal, explain=False)[2]
        d = plain.decide(view, legal, explain=True)
        assert d.explanation is not None
        means = {c.action: c.score for c in d.explanation.candidates if "samples" in c.note}
        if d.action != strong_choice:
            assert means[d.action] > means[strong_choice]
        e = eager.decide(view, legal)
        best = max(means.values())
        if means[strong_choice] < best:
            assert means[e.action] == best
        else:
            assert e.action == strong_choice


def test_cheap_decisions_do_not_search() -> None:
    """One legal action, or no other candidate within the gap: no sample is played."""
    master = _master(gap=-1.0)
    rs = get_preset("parlor")
    state = HandState.new(rs, seed=hand_seed("cheap", 0))
    view = state.view(Wind.EAST)
    legal = state.legal_actions(Wind.EAST)
    d = master.decide(view, legal, explain=True)
    assert master.last_rollouts == 0
    assert d.explanation is not None and "no search" in d.explanation.summary
    assert master.decide(view, legal[:1]).action == legal[0]
    assert master.last_rollouts == 0


def test_registry_and_time_budget() -> None:
    """``master`` is a named bot above the tiers; its search is capped by ``time_budget``."""
    assert SEARCH_NAMES == ("master",)
    bot = get_bot("master", seed=1, time_budget=0.05)
    assert isinstance(bot, MasterBot) and bot.name == "master"
    assert bot.search.budget == 0.2 and bot.time_budget == 0.05
    # master folds by the learnt reading; its rollouts play default strong in every seat
    assert isinstance(bot, MasterBot) and bot.style == MASTER_STYLE
    assert Style(fold_reading=1.0, fold_ratio=2.0) == MASTER_STYLE
    rollout = bot.rollout_bots(0)
    assert len(rollout) == 4
    assert all(isinstance(b, StrongBot) and b.style == Style() for b in rollout)
    assert bot.search.gap == 2.0
    with pytest.raises(BotNameError, match="master"):
        get_bot("grandmaster")
    with pytest.raises(ValueError, match="rollout policy"):
        Search(policy="random")


def test_master_plays_in_the_arena() -> None:
    """``hkmj arena --bots master,strong,strong,strong --duplicate``: one hand-set, short budget."""
    cfg = ArenaConfig(("master", "strong", "strong", "strong"), 1, seed="m", time_budget=0.01)
    summary = run_arena(cfg, HandState.new).summary()
    m = summary["per_bot"]["master"]
    assert m["hands"] == 4 and m["under_minimum_win_attempts"] == 0
    assert "margin" in summary


def test_a_view_the_engine_cannot_rebuild_falls_back_to_strong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should the engine refuse to rebuild a view, ``master`` plays ``strong``'s choice."""
    import hkmahjong.bots.master as master_module

    def refuse(*_: object, **__: object) -> HandState:
        raise DeterminizeError("refused")

    monkeypatch.setattr(master_module, "rebuild", refuse)
    master = _master()
    _, view, legal = next(_searched_positions(1, "refuse"))
    d = master.decide(view, legal, explain=True)
    assert d.action == master._ranked(view, legal, explain=False)[2]
    assert d.explanation is not None and "no search (refused)" in d.explanation.summary


def test_leaning_samples_read_only_the_view_and_lean_toward_ready(script: Script) -> None:
    """``ready_bias`` (opt-in): still blind to the hidden tiles, and its samples' opponents are
    nearer to ready than uniform ones."""
    scramble = script("tests/engine/conftest.py", "engine_conftest_master_lean").scramble_hidden
    from hkmahjong.bots.master import _shanten_sum

    lean = _master(rollouts=2, sampling="lean", ready_bias=2.0)
    uniform = _master(rollouts=2, sampling="uniform")
    rng = random.Random(5)
    leaned = flat = 0
    for state, view, legal in _searched_positions(3, "lean"):
        seat = Wind(int(view.seat))
        d = lean.decide(view, legal, explain=True)
        again = lean.decide(scramble(state, int(seat), rng).view(seat), legal, explain=True)
        assert d.explanation is not None and again.explanation is not None
        assert again.explanation.text == d.explanation.text
        for i in range(10):
            leaned += _shanten_sum(view, lean._deal(view, random.Random(i)))
            flat += _shanten_sum(view, uniform._deal(view, random.Random(i)))
    assert leaned < flat


def test_no_sample_within_the_budget_is_strong_with_its_scores() -> None:
    """A budget too short for one sample: ``strong``'s choice, scores and candidates."""
    master = MasterBot(5, ruleset=get_preset("parlor"), time_budget=1e-9, search=Search(gap=10.0))
    _, view, legal = next(_searched_positions(1, "short"))
    d = master.decide(view, legal, explain=True)
    assert master.last_rollouts == 0
    strong = master._ranked(view, legal, explain=True)
    assert d.action == strong[2]
    assert d.explanation is not None and "no sample fitted" in d.explanation.summary
    assert [c.score for c in d.explanation.candidates] == [c.score for c in strong[0]]


def test_calls_scope_searches_claims_and_wins_but_not_discards() -> None:
    """``Search(scope="calls")``: a decision whose candidates are all discards is ``strong``'s
    (no sample); one with a claim, a pass or a win among them is searched as under ``all``."""
    calls, every = _master(scope="calls"), _master(scope="all")
    seen = {"discards": 0, "calls": 0}
    for _, view, legal in _searched_positions(40, label="scope", scope="all"):
        cands, _, chosen = every._ranked(view, legal, explain=False)
        pool = every._pool(cands, chosen)
        discards_only = all(c.action.kind is ActionKind.DISCARD for c in pool)
        calls.decide(view, legal)
        if discards_only:
            seen["discards"] += 1
            assert calls.last_rollouts == 0
        else:
            seen["calls"] += 1
            assert calls.last_rollouts == 3
            assert calls.decide(view, legal).action == every.decide(view, legal).action
        if min(seen.values()) >= 2:
            break
    assert min(seen.values()) >= 2, seen
    with pytest.raises(ValueError, match="search scope 'some'"):
        Search(scope="some")


def _boosted(view: PlayerView, p: float = 0.3) -> dict[Wind, tuple[float, ...]]:
    """A reading model's output that calls every opponent of ``view.seat`` very likely ready."""
    return {o: (p,) * 34 for o in Wind if o != view.seat}


def test_can_win_on_is_the_engines_own_check() -> None:
    """``can_win_on`` says yes exactly where a claim window offers the win (食糊) on the
    discard, and leaves the state as it was."""
    offered = 0
    for preset in PRESETS:
        for state, _ in _positions(preset, 3, "win"):
            if state.phase is not Phase.CLAIM:
                continue
            tile = state.view(Wind.EAST).pending_tile
            assert tile is not None
            for w in Wind:
                if w == state.current or state.decisions[w] is not None:
                    continue
                before = state.legal_actions(w)
                can = any(a.kind is ActionKind.WIN for a in before)
                assert can_win_on(state, w, tile) == can
                assert state.legal_actions(w) == before
                offered += can
    assert offered >= 3


def test_reading_deals_account_for_every_tile() -> None:
    """For every seat's view at decisions of self-play (every preset, seats on their turn
    included), with every opponent read as likely ready: each reading deal rebuilds into a
    state with the same view and the whole tile set, and the ready hands it calls legal are."""
    rng = random.Random(11)
    built = legal = 0
    for preset in PRESETS:
        for n, (state, rs) in enumerate(_positions(preset, 2, "rd")):
            if n % 4:
                continue
            total = 144 if rs.bonus_tiles else 136
            for w in Wind:
                view = state.view(w)
                got = reading_sample(view, rs, rng, _boosted(view))
                sampled = rebuild(view, rs, got.deal)
                assert sampled.view(w) == view
                assert sum(sampled.census()) == total
                assert set(got.waits) <= set(got.drawn_ready)
                for s in got.legal:
                    assert can_win_on(sampled, s, got.waits[s])
                built += len(got.waits)
                legal += len(got.legal)
    assert built > 300 and legal > built // 2


def test_reading_with_no_ready_opponent_is_uniform() -> None:
    """Probabilities 0: ``random_deal``'s very sample (no draw is made); ≈ 0: no opponent is
    dealt a ready hand."""
    _, view, _ = next(_searched_positions(1, "zero"))
    rs = get_preset("parlor")
    zero = {o: (0.0,) * 34 for o in Wind if o != view.seat}
    tiny = {o: (1e-9,) * 34 for o in Wind if o != view.seat}
    for i in range(30):
        assert reading_deal(view, rs, random.Random(i), zero) == random_deal(
            view, rs, random.Random(i)
        )
        got = reading_sample(view, rs, random.Random(i), tiny)
        assert got.drawn_ready == () and got.waits == {} and got.state is None
    assert ready_chances(zero) == {o: 0.0 for o in zero}


def test_a_kind_read_as_dangerous_is_waited_on() -> None:
    """One opponent read as ready on one kind (scale 0.5: r = 0.95): most samples deal it a hand
    that a copy of that kind completes, most of them a legal win; the others are not built."""
    rs = get_preset("parlor")
    _, view, _ = next(_searched_positions(1, "wait"))
    unseen = [0] * 34
    for t in unseen_tiles(view, rs):
        if t < 34:
            unseen[t] += 1
    opp = Wind((int(view.seat) + 2) % 4)
    melds = len(view.melds[opp])
    for kind in (k for k in range(0, 34, 3) if unseen[k] >= 2):
        probs = {o: (0.0,) * 34 for o in Wind if o != view.seat}
        probs[opp] = tuple(1.0 if k == kind else 1e-6 for k in range(34))
        waiting = winning = 0
        for i in range(40):
            got = reading_sample(view, rs, random.Random(i), probs, scale=0.5)
            assert set(got.waits) <= {int(opp)}
            counts = [0] * 34
            for t in got.deal.hands[opp]:
                counts[t] += 1
            counts[kind] += 1
            waiting += is_complete_counts(counts, melds)
            winning += int(opp) in got.legal and got.waits[int(opp)] == kind
        assert waiting >= 30 and winning >= 20, (kind, waiting, winning)


def test_reading_master_reads_only_the_view_and_is_deterministic(script: Script) -> None:
    """``Search(sampling="reading")``: the same decision and sample means with the hidden
    tiles shuffled, twice in a row and from a copy."""
    scramble = script("tests/engine/conftest.py", "engine_conftest_master_read").scramble_hidden
    master = _master(sampling="reading")
    rng = random.Random(7)
    for state, view, legal in _searched_positions(3, "read"):
        seat = Wind(int(view.seat))
        d = master.decide(view, legal, explain=True)
        assert master.last_rollouts == 3
        other = scramble(state, int(seat), rng)
        for bot, v in ((master, view), (master, other.view(seat)), (copy.deepcopy(master), view)):
            again = bot.decide(v, legal, explain=True)
            assert d.explanation is not None and again.explanation is not None
            assert again.action == d.action
            assert again.explanation.text == d.explanation.text


def test_sampling_knob() -> None:
    """``sampling`` is checked; ``ready_bias`` needs leaning samples; reading is the default."""
    assert Search().sampling == "reading"
    assert Search(sampling="lean", ready_bias=2.0).sampling == "lean"
    assert Search(sampling="reading").sampling == "reading"
    assert Search(sampling="reading").reading_scale == READY_KINDS
    with pytest.raises(ValueError, match="sampling"):
        Search(sampling="oracle")
    with pytest.raises(ValueError, match="ready_bias"):
        Search(sampling="reading", ready_bias=1.0)
    with pytest.raises(ValueError, match="ready_bias"):
        Search(sampling="uniform", ready_bias=1.0)
    with pytest.raises(ValueError, match="reading_attempts"):
        Search(sampling="reading", reading_attempts=0)
