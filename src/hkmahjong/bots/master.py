"""``master`` bot (搜尋): ``strong``'s best few actions, each played out on sampled hidden tiles.

At a decision with more than one action worth weighing, ``master`` takes ``strong``'s ranking,
keeps the best ``width`` candidates within ``gap`` rank points of the best (plus ``strong``'s
choice, and against a win the best action that does not win), and values each by determinized
Monte Carlo (確定化): it samples what its view cannot show — the other seats' concealed tiles and
the order of the wall, uniformly among the tiles it cannot see
(:func:`~hkmahjong.engine.determinize.random_deal`) — rebuilds a playable hand from its view and
that sample (:func:`~hkmahjong.engine.determinize.rebuild`), plays each candidate and then the
rest of the hand with fast policies (``fan`` for every seat, its own included, by default), and
scores what the hand pays this seat in jade under the table's ruleset. Every candidate is played
on the same samples (common random numbers), so their differences are measured, not their
levels. It leaves ``strong``'s choice only for the candidate with the best mean jade, and only
when that candidate beats ``strong``'s on the same samples by more than ``z`` standard errors
(and ``margin`` jade) over at least ``min_rollouts`` samples; otherwise it plays as ``strong``.

Time: the search stops at ``min(budget, time_budget)`` seconds from the start of the decision
(anytime: a sample is started only when the previous ones say it will fit, and one the clock
overtakes is dropped, so a decision overruns its budget by one rollout step at most). With
only a time budget the decision depends on how many samples fit, so on the machine's speed and
load; with ``rollouts=N`` it plays exactly N samples and is deterministic for its seed (the
samples come from the seed and the view alone, never from the hidden tiles).

The samples are uniform unless ``Search.ready_bias`` leans them toward opponents near to ready
(:func:`lean_deal`, opt-in); they are not weighted by what the opponents' rivers say (e.g. by
:mod:`~hkmahjong.bots.reading`), so the rollouts under-rate an opponent's readiness (docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, fields

from hkmahjong.bots.base import WIN_KINDS, BaseBot, Candidate, Decision, Explanation
from hkmahjong.bots.fan import FanBot
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.engine.determinize import (
    Deal,
    DeterminizeError,
    HandState,
    random_deal,
    rebuild,
    unseen_tiles,
)
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.hand import shanten_counts
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile, Wind

__all__ = ["MasterBot", "Search", "lean_deal"]

_POLICIES = ("fan", "strong")
_SCOPES = ("all", "calls")


@dataclass(frozen=True, slots=True)
class Search:
    """Knobs of ``master``'s search."""

    budget: float = 0.2
    """Seconds a decision may search (capped by the bot's ``time_budget``)."""
    rollouts: int | None = None
    """Play exactly this many samples (deterministic for the seed); None: as many as fit."""
    max_rollouts: int = 500
    """At most this many samples under a time budget."""
    width: int = 3
    """Candidates searched: ``strong``'s best ones (its choice always among them)."""
    gap: float = 10.0
    """Only candidates within this many of ``strong``'s rank points of its best (a distance
    step is 10) are searched; a decision with one such candidate is not searched."""
    min_rollouts: int = 4
    """Fewer samples than this (and never fewer than 2): play ``strong``'s choice."""
    z: float = 2.0
    """Leave ``strong``'s choice only when the paired difference is this many standard errors
    above zero."""
    margin: float = 0.0
    """... and at least this many jade a hand."""
    policy: str = "fan"
    """Rollout policy of the other seats (``fan`` or ``strong``)."""
    own_policy: str = "fan"
    """Rollout policy of this seat after its first action (``fan`` or ``strong``)."""
    ready_bias: float = 0.0
    """Opt-in, unmeasured in play: lean samples toward opponents nearer to ready
    (:func:`lean_deal`: each other seat's hand drawn from ``ready_pool`` random hands with
    weight ``exp(-ready_bias × shanten)``); 0: uniform deals, the default."""
    ready_pool: int = 16
    """Random hands each leaning draw chooses from (with ``ready_bias`` > 0)."""
    scope: str = "all"
    """Which decisions are searched: ``all`` (every one with two candidates worth weighing) or
    ``calls`` (only those where a candidate is not a discard: a claim, passing one, a win, a
    kong — about two a hand; discards are ``strong``'s)."""

    def __post_init__(self) -> None:
        for p in (self.policy, self.own_policy):
            if p not in _POLICIES:
                raise ValueError(f"rollout policy {p!r}: expected one of {', '.join(_POLICIES)}")
        if self.scope not in _SCOPES:
            raise ValueError(f"search scope {self.scope!r}: expected one of {', '.join(_SCOPES)}")
        if self.rollouts is not None and self.rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {self.rollouts}")

    def __reduce__(self) -> tuple[type[Search], tuple[object, ...]]:
        """Copy and pickle by the field values: compiled (mypyc), a frozen class's fields cannot
        be set one by one as :mod:`copy` and :mod:`pickle` otherwise do."""
        return (Search, tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(frozen=True, slots=True)
class Searched:
    """One searched candidate: ``strong``'s score and the jade of each sample."""

    action: Action
    strong_score: float
    jade: tuple[float, ...]

    @property
    def mean(self) -> float:
        """Mean jade over the samples."""
        return sum(self.jade) / len(self.jade) if self.jade else 0.0


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of ``a - b`` over the same samples and its standard error."""
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


class MasterBot(StrongBot):
    """搜尋: ``strong``'s top candidates valued by playing them out on sampled hidden tiles."""

    name = "master"

    def __init__(
        self,
        seed: int | str | None = 0,
        *,
        ruleset: Ruleset | None = None,
        time_budget: float = 0.5,
        search: Search | None = None,
        style: Style | None = None,
    ) -> None:
        super().__init__(seed, ruleset=ruleset, time_budget=time_budget, style=style)
        self.search = search if search is not None else Search()
        self._rollout_bots: tuple[BaseBot, ...] = ()
        self.last_rollouts = 0
        """Samples played by the last decision (0 when it did not search)."""

    def bind(self, ruleset: Ruleset) -> None:
        """Use ``ruleset`` from now on (for the rollouts too)."""
        super().bind(ruleset)
        self._rollout_bots = ()

    def _policies(self, me: int) -> tuple[BaseBot, ...]:
        """The rollout bots by seat (this seat's own policy at ``me``), built once per ruleset."""
        bots = self._rollout_bots
        if len(bots) != 5 or bots[4].ruleset is not self.ruleset:
            cfg = self.search
            made: list[BaseBot] = []
            for i, name in enumerate((cfg.policy,) * 4 + (cfg.own_policy,)):
                cls = StrongBot if name == "strong" else FanBot
                made.append(cls(f"{self.seed}:rollout:{i}", ruleset=self.ruleset, time_budget=1e9))
            bots = self._rollout_bots = tuple(made)
        return tuple(bots[4] if s == me else bots[s] for s in range(4))

    def decide(
        self, view: PlayerView, legal: Sequence[Action], *, explain: bool = False
    ) -> Decision:
        """``strong``'s decision, or a searched candidate that beat it on the same samples.

        :raises IllegalActionError: when ``legal`` is empty.
        """
        if not legal:
            raise IllegalActionError(f"{self.name} bot asked to choose with no legal action")
        self.last_rollouts = 0
        if len(legal) == 1 and not explain:
            return Decision(legal[0])
        start = time.perf_counter()
        cands, summary, chosen = self._ranked(view, legal, explain=explain)
        pool = self._pool(cands, chosen)
        if len(pool) < 2:
            if not explain:
                return Decision(chosen)
            note = f"no search (one candidate within the gap); strong: {summary}"
            return Decision(chosen, Explanation(self.name, chosen, tuple(cands), note))
        try:
            searched = self._search(view, pool, start)
        except MahjongError as exc:  # a view the engine cannot rebuild: play as strong
            note = f"no search ({exc}); strong: {summary}"
            return Decision(
                chosen, Explanation(self.name, chosen, tuple(cands), note) if explain else None
            )
        n = len(searched[0].jade)
        self.last_rollouts = n
        base = next(s for s in searched if s.action == chosen)
        best = max(searched, key=lambda s: s.mean)
        pick = chosen
        verdict = "strong's choice kept"
        if n < max(2, self.search.min_rollouts):
            verdict = f"only {n} samples: strong's choice"
        elif best is not base:
            diff, se = _paired(best.jade, base.jade)
            if diff > self.search.z * se and diff > self.search.margin:
                pick = best.action
                verdict = f"beats strong's {chosen.text} by {diff:+.2f} ± {se:.2f} (1 s.e.)"
            else:
                verdict = f"{best.action.text} {diff:+.2f} ± {se:.2f} (1 s.e.): not separated"
        if not explain:
            return Decision(pick)
        if n == 0:
            text = f"no sample fitted the budget: strong's choice; strong: {summary}"
            return Decision(pick, Explanation(self.name, pick, tuple(cands), text))
        seen = {s.action for s in searched}
        out = [
            Candidate(
                s.action,
                s.mean,
                f"mean {s.mean:+.2f} jade over {n} samples (strong {s.strong_score:+.2f})",
            )
            for s in searched
        ]
        out += [
            Candidate(c.action, -math.inf, f"not searched (strong {c.score:+.2f})")
            for c in cands
            if c.action not in seen
        ]
        text = f"searched {len(searched)} over {n} samples: {verdict}; strong: {summary}"
        return Decision(pick, Explanation(self.name, pick, tuple(out), text))

    def _pool(self, cands: list[Candidate], chosen: Action) -> list[Candidate]:
        """The candidates worth searching, ``strong``'s choice first."""
        cfg = self.search
        live = sorted((c for c in cands if c.score > -1e5), key=lambda c: -c.score)
        first = next((c for c in live if c.action == chosen), None)
        if first is None:
            return []
        pool = [first]
        if chosen.kind in WIN_KINDS:
            other = next((c for c in live if c.action.kind not in WIN_KINDS), None)
            if other is not None:
                pool.append(other)
            return pool
        for c in live:
            if len(pool) >= cfg.width:
                break
            if c is not first and c.score >= first.score - cfg.gap:
                pool.append(c)
        if cfg.scope == "calls" and all(c.action.kind is ActionKind.DISCARD for c in pool):
            return pool[:1]
        return pool

    def _deal(self, view: PlayerView, rng: random.Random) -> Deal:
        """One sample of the hidden tiles: uniform, or leaning toward ready opponents."""
        cfg = self.search
        if cfg.ready_bias <= 0.0:
            return random_deal(view, self.ruleset, rng)
        return lean_deal(view, self.ruleset, rng, cfg.ready_bias, cfg.ready_pool)

    def _search(self, view: PlayerView, pool: list[Candidate], start: float) -> list[Searched]:
        """Each of ``pool`` played out on the same samples, until the budget or ``rollouts``."""
        cfg = self.search
        me = int(view.seat)
        rng = random.Random(f"master:{self.seed}:{zlib.crc32(repr(view).encode())}")
        bots = self._policies(me)
        jade: list[list[float]] = [[] for _ in pool]
        timed = cfg.rollouts is None
        deadline = start + min(cfg.budget, self.time_budget) if timed else math.inf
        n = 0
        while True:
            now = time.perf_counter()
            if not timed:
                if n >= (cfg.rollouts or 0):
                    break
            elif (
                n >= cfg.max_rollouts
                or now > deadline
                or (n and now + (now - start) / n > deadline)
            ):
                break
            state = rebuild(view, self.ruleset, self._deal(view, rng))
            sample: list[float] = []
            for i, c in enumerate(pool):
                play = state.clone() if i + 1 < len(pool) else state
                got = _play_out(play, me, c.action, bots, deadline)
                if got is None:
                    break
                sample.append(got)
            if len(sample) < len(pool):
                break  # out of time inside the sample: it is dropped
            for i, got in enumerate(sample):
                jade[i].append(got)
            n += 1
        return [Searched(c.action, c.score, tuple(j)) for c, j in zip(pool, jade, strict=True)]


def lean_deal(
    view: PlayerView, ruleset: Ruleset, rng: random.Random, bias: float, pool: int
) -> Deal:
    """A :class:`~hkmahjong.engine.determinize.Deal` whose other hands lean toward ready: each
    other seat in turn gets one of ``pool`` random hands from the tiles still unassigned, drawn
    with weight ``exp(-bias × shanten)``; the rest is the wall, shuffled."""
    unseen = unseen_tiles(view, ruleset)
    plain = [int(t) for t in unseen if t < 34]
    bonus = [t for t in unseen if t >= 34]
    hands: list[tuple[Tile, ...]] = []
    for s in range(4):
        if s == view.seat:
            hands.append(tuple(view.concealed))
            continue
        n = view.concealed_counts[s]
        if n > len(plain):
            raise DeterminizeError("the other seats hold more tiles than the view leaves unseen")
        melds = len(view.melds[s])
        options: list[list[int]] = []
        weights: list[float] = []
        for _ in range(max(1, pool)):
            picked = rng.sample(range(len(plain)), n)
            counts = [0] * 34
            for i in picked:
                counts[plain[i]] += 1
            options.append(picked)
            weights.append(math.exp(-bias * max(0, shanten_counts(counts, melds))))
        chosen = set(rng.choices(options, weights)[0])
        hands.append(tuple(sorted(Tile(plain[i]) for i in chosen)))
        plain = [t for i, t in enumerate(plain) if i not in chosen]
    wall = [Tile(t) for t in plain] + bonus
    rng.shuffle(wall)
    return Deal((hands[0], hands[1], hands[2], hands[3]), tuple(wall))


def _shanten_sum(view: PlayerView, deal: Deal) -> int:
    """The other seats' shanten (向聽) summed, in ``deal``."""
    total = 0
    for s in range(4):
        if s == view.seat:
            continue
        counts = [0] * 34
        for t in deal.hands[s]:
            counts[t] += 1
        total += max(0, shanten_counts(counts, len(view.melds[s])))
    return total


def _play_out(
    state: HandState, me: int, first: Action, bots: Sequence[BaseBot], deadline: float
) -> float | None:
    """Play ``first`` for seat ``me``, then the hand to its end; what it pays ``me`` (None when
    the clock passes ``deadline`` first)."""
    apply, legal_of, clock = state.apply, state.legal_actions, time.perf_counter
    apply(Wind(me), first)
    steps = 0
    while not state.is_over:
        if clock() > deadline:
            return None
        seat = state.to_act[0]
        legal = legal_of(seat)
        apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(state.view(seat), legal))
        steps += 1
        if steps > 3000:
            raise RuntimeError("a rollout did not end")
    out = state.outcome
    assert out is not None
    return float(out.deltas[me])
