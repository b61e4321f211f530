"""``master`` bot (搜尋): ``strong`` that folds by the learnt reading, and searches its near-tie calls.

``master`` plays ``strong`` with :data:`MASTER_STYLE`: once ``strong``'s rule says fold (棄和),
the safest discard is read with the hand reading learnt from play (:mod:`~hkmahjong.bots.reading`)
instead of ``danger.py``'s guess (:attr:`~hkmahjong.bots.strong.Style.fold_reading`), and it
folds later than ``strong`` (``fold_ratio`` 2, not 1.5).

At a decision with more than one action worth weighing (by default only a call: a claim,
passing one, a win, a kong — ``Search.scope`` — whose candidates ``strong`` ranks within
``gap`` of each other), ``master`` takes that ranking, keeps the best ``width`` candidates
within ``gap`` rank points of the best (plus its choice, and against a win the best action
that does not win), and values each by determinized Monte Carlo (確定化): it samples what its
view cannot show — the other seats' concealed tiles and the order of the wall — rebuilds a
playable hand from its view and that sample (:func:`~hkmahjong.engine.determinize.rebuild`),
plays each candidate and then the rest of the hand with ``strong`` in every seat
(``Search.policy``, ``own_policy``), and scores what the hand pays this seat in jade under the
table's ruleset. Every candidate is played on the same samples (common random numbers), so
their differences are measured, not their levels. It leaves its ranking's choice only for the
candidate with the best mean jade, and only when that candidate beats the choice on the same
samples by more than ``z`` standard errors (and ``margin`` jade) over at least
``min_rollouts`` samples.

Time: the search stops at ``min(budget, time_budget)`` seconds from the start of the decision
(anytime: a sample is started only when the previous ones say it will fit, and one the clock
overtakes is dropped, so a decision overruns its budget by one rollout step at most). With
only a time budget the decision depends on how many samples fit, so on the machine's speed and
load; with ``rollouts=N`` it plays exactly N samples and is deterministic for its seed (the
samples come from the seed and the view alone, never from the hidden tiles).

Samples (``Search.sampling``): ``"reading"`` (the default, :func:`reading_deal`) reads each
opponent's river with :mod:`~hkmahjong.bots.reading` once per decision and deals it, as often as
the model says it is ready (r_o = Σ_t P(t deals in to o) / K, :data:`READY_KINDS`), a ready hand
waiting where the model points, checked with the engine to be a legal win (minimum fan
included); ``"uniform"`` deals every hidden tile at random
(:func:`~hkmahjong.engine.determinize.random_deal`: opponents are then almost never ready);
``"lean"`` (:func:`lean_deal`, ``Search.ready_bias``) leans every other hand toward fewer 向聽.

Measured (docs/bots.md): what ``master`` gains over ``strong`` comes from the learnt reading
in its folds; the search departs rarely and its worth is within noise of zero — played out on
the true hidden tiles (``tools/deviation_values.py``), ``strong``'s calls are already as good as
any alternative on average.
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
from hkmahjong.bots.reading import deal_in_probabilities
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.engine.determinize import (
    Deal,
    DeterminizeError,
    HandState,
    can_win_on,
    deal_around,
    random_deal,
    rebuild,
    unseen_tiles,
)
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.hand import Meld, MeldKind, shanten_counts
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "MASTER_STYLE",
    "READY_KINDS",
    "SAMPLINGS",
    "MasterBot",
    "ReadingSample",
    "Search",
    "lean_deal",
    "paired_diff",
    "play_candidates",
    "play_out",
    "reading_deal",
    "reading_sample",
    "ready_chances",
]

_POLICIES = ("fan", "strong")
_SCOPES = ("all", "calls")
SAMPLINGS = ("uniform", "lean", "reading")
"""How ``master`` samples the hidden tiles (:attr:`Search.sampling`)."""

READY_KINDS = 1.65
"""K: the mean number of kinds a legally ready opponent can win on, the divisor of r_o.

Measured (``tools/reading_samples.py --rules parlor,qingzhang,ml --hands 150 --samples 0
--seed k17``: four ``strong``, at every discard decision from the deciding seat's sixth discard
on, the kinds each opponent could legally win on, by the engine's check): 9,984 kinds over the
6,047 of 49,695 opponent positions with at least one, 1.65; per preset 1.69 (parlor), 1.70
(qingzhang), 1.58 (ml). With it r_o ranks opponents well but its level is off by the table's
minimum fan: mean r_o 0.20 against 8.8% of opponents winnable in parlor, 0.155 against 22.9%
in ml (docs/bots.md, "Informed samples")."""

MASTER_STYLE = Style(fold_reading=1.0, fold_ratio=2.0)
"""``master``'s own ``strong`` style: ``strong``'s, but once folded (棄和) the safest discard is
read with the hand reading learnt from play (:attr:`Style.fold_reading`), not ``danger.py``'s
guess, and it folds later — only when the best attacking discard risks twice the hand's EV, not
1.5 times (played out on the true hidden tiles, ``strong``'s folds between the two lose against
attacking on: ``tools/deviation_values.py push``). Measured in docs/bots.md. Its rollouts keep
default ``strong`` in every seat."""

_T = [Tile(i) for i in range(42)]

Probs = dict[Wind, tuple[float, ...]]
"""Per opponent, P(discarding each of the 34 kinds now deals in to it) (``bots/reading.py``)."""


@dataclass(frozen=True, slots=True)
class Search:
    """Knobs of ``master``'s search: its budget and sample count, which candidates it weighs,
    when it leaves ``strong``'s choice, the rollout policies, and how it samples the hidden
    tiles (``sampling``: ``"uniform"``, ``"lean"`` or ``"reading"``; see the module docstring)."""

    budget: float = 0.2
    """Seconds a decision may search (capped by the bot's ``time_budget``)."""
    rollouts: int | None = None
    """Play exactly this many samples (deterministic for the seed); None: as many as fit."""
    max_rollouts: int = 500
    """At most this many samples under a time budget."""
    width: int = 3
    """Candidates searched: ``strong``'s best ones (its choice always among them)."""
    gap: float = 2.0
    """Only candidates within this many of ``strong``'s rank points of its best (a distance
    step is 10) are searched; a decision with one such candidate is not searched. 2: the near
    ties, about a fifth of the calls with an alternative within a distance step — where
    ``strong``'s own ranking hardly separates its candidates. Played out on the true hidden
    tiles (``tools/deviation_values.py calls``, docs/bots.md), its choice beats the farther
    alternatives on average (every class of them but one, within noise); at 10 the search
    spent five times the time there for nothing."""
    min_rollouts: int = 4
    """Fewer samples than this (and never fewer than 2): play ``strong``'s choice."""
    z: float = 2.0
    """Leave ``strong``'s choice only when the paired difference is this many standard errors
    above zero."""
    margin: float = 0.0
    """... and at least this many jade a hand."""
    policy: str = "strong"
    """Rollout policy of the other seats (``fan`` or ``strong``)."""
    own_policy: str = "strong"
    """Rollout policy of this seat after its first action (``fan`` or ``strong``)."""
    sampling: str = "reading"
    """How the hidden tiles are sampled (:data:`SAMPLINGS`): ``"reading"`` (the default,
    :func:`reading_deal`: each opponent dealt a ready hand as often as ``bots/reading.py`` reads
    its river, waiting where the model says; the model is read once per decision), ``"uniform"``
    (:func:`~hkmahjong.engine.determinize.random_deal`) or ``"lean"`` (:func:`lean_deal`, with
    ``ready_bias`` and ``ready_pool``). Pilots in docs/bots.md: reading samples with ``strong``
    rollouts did better than uniform ones with ``fan`` rollouts."""
    ready_bias: float = 0.0
    """``"lean"`` sampling: each other seat's hand drawn from ``ready_pool`` random hands with
    weight ``exp(-ready_bias × shanten)`` (0: as uniform)."""
    ready_pool: int = 16
    """Random hands each leaning draw chooses from (``"lean"`` sampling)."""
    reading_scale: float = READY_KINDS
    """``"reading"`` sampling: K in r_o = min(0.95, Σ_t P(t deals in to o) / K), the mean number
    of kinds a legally ready opponent can win on (:data:`READY_KINDS`, measured)."""
    reading_attempts: int = 4
    """``"reading"`` sampling: deals drawn at most, to find one whose ready opponents may all
    legally win on their wait (the best is kept)."""
    scope: str = "calls"
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
        if self.sampling not in SAMPLINGS:
            raise ValueError(f"sampling {self.sampling!r}: expected one of {', '.join(SAMPLINGS)}")
        if self.sampling != "lean" and self.ready_bias > 0.0:
            raise ValueError("ready_bias leans the samples: it needs sampling='lean'")
        if self.reading_scale <= 0.0 or self.reading_attempts < 1:
            raise ValueError("reading_scale must be positive and reading_attempts at least 1")

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


def paired_diff(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of ``a - b`` over the same samples (common random numbers) and its standard error
    (0 and inf with no sample; inf with one). Shared by the search and the review
    (:mod:`hkmahjong.bots.review`).

    >>> paired_diff([3.0, 5.0], [1.0, 1.0])
    (3.0, 1.0)
    """
    n = len(a)
    if n == 0:
        return 0.0, math.inf
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
        super().__init__(
            seed,
            ruleset=ruleset,
            time_budget=time_budget,
            style=style if style is not None else MASTER_STYLE,
        )
        self.search = search if search is not None else Search()
        self._rollout_bots: tuple[BaseBot, ...] = ()
        self.last_rollouts = 0
        """Samples played by the last decision (0 when it did not search)."""

    def bind(self, ruleset: Ruleset) -> None:
        """Use ``ruleset`` from now on (for the rollouts too)."""
        super().bind(ruleset)
        self._rollout_bots = ()

    def rollout_bots(self, me: int) -> tuple[BaseBot, ...]:
        """The rollout bots by seat (this seat's own policy at ``me``), built once per ruleset;
        :func:`play_out` plays a hand to its end with them."""
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
            diff, se = paired_diff(best.jade, base.jade)
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

    def _deal(self, view: PlayerView, rng: random.Random, probs: Probs | None = None) -> Deal:
        """One sample of the hidden tiles, as :attr:`Search.sampling` says (``probs``: the
        reading model's output for ``view``, computed when not given)."""
        return self._sample(view, rng, probs)[0]

    def _sample(
        self, view: PlayerView, rng: random.Random, probs: Probs | None
    ) -> tuple[Deal, HandState]:
        """One sample and the hand rebuilt from it."""
        cfg = self.search
        how = cfg.sampling
        if how == "reading":
            got = reading_sample(
                view,
                self.ruleset,
                rng,
                probs if probs is not None else deal_in_probabilities(view),
                scale=cfg.reading_scale,
                attempts=cfg.reading_attempts,
            )
            if got.state is not None:
                return got.deal, got.state
            deal = got.deal
        elif how == "lean":
            deal = lean_deal(view, self.ruleset, rng, cfg.ready_bias, cfg.ready_pool)
        else:
            deal = random_deal(view, self.ruleset, rng)
        return deal, rebuild(view, self.ruleset, deal)

    def _search(self, view: PlayerView, pool: list[Candidate], start: float) -> list[Searched]:
        """Each of ``pool`` played out on the same samples, until the budget or ``rollouts``."""
        cfg = self.search
        me = int(view.seat)
        rng = random.Random(f"master:{self.seed}:{zlib.crc32(repr(view).encode())}")
        bots = self.rollout_bots(me)
        jade: list[list[float]] = [[] for _ in pool]
        probs = deal_in_probabilities(view) if cfg.sampling == "reading" else None
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
            state = self._sample(view, rng, probs)[1]
            sample = play_candidates(state, me, [c.action for c in pool], bots, deadline)
            if sample is None:
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


def ready_chances(probs: Probs, scale: float = READY_KINDS) -> dict[Wind, float]:
    """r_o, the chance :func:`reading_deal` deals opponent ``o`` a ready hand: its summed
    deal-in probabilities over ``scale`` kinds (K, :data:`READY_KINDS`), at most 0.95."""
    return {o: min(0.95, max(0.0, sum(p) / scale)) for o, p in probs.items()}


@dataclass(frozen=True, slots=True)
class ReadingSample:
    """One :func:`reading_deal` with what it meant: the opponents it dealt a ready hand (seat →
    the kind it waits on), those of them the engine lets win on it (``legal``), and the state
    rebuilt from it (None when no opponent was drawn ready: a uniform deal, not rebuilt)."""

    deal: Deal
    state: HandState | None
    waits: dict[int, int]
    legal: tuple[int, ...]
    drawn_ready: tuple[int, ...]
    """The seats drawn ready (a seat whose hand could not be built is not in ``waits``)."""
    attempts: int = 0
    """Deals drawn (0: none drawn ready, a uniform deal)."""


def reading_deal(
    view: PlayerView,
    ruleset: Ruleset,
    rng: random.Random,
    probs: Probs,
    *,
    scale: float = READY_KINDS,
    attempts: int = 4,
) -> Deal:
    """A :class:`~hkmahjong.engine.determinize.Deal` whose opponents are as ready as their
    rivers say.

    Each other seat ``o`` is drawn ready with probability r_o (:func:`ready_chances`: the sum of
    ``probs[o]`` over ``scale``, K). A ready seat waits on a kind ``w`` drawn with weight
    ``probs[o][w]`` among the kinds not all in sight (its copies may be unseen or in this seat's
    own hand); its hand is a complete hand built around ``w`` from the tiles still unassigned —
    ``w`` in a chow, a pung or the pair, then the other sets and the pair at random, in a shape
    drawn among those its melds and ``w`` allow (any sets; one suit with honours; all chows;
    all pungs) — less that ``w`` (plus one random tile for a seat on its turn). The other seats
    get uniform random hands from the tiles left; the rest is the wall with every unseen bonus
    tile, shuffled. The deal is rebuilt and each ready seat's win on its ``w`` is checked with
    the engine (:func:`~hkmahjong.engine.determinize.can_win_on`: the table's minimum fan
    included); the hands found legal are kept and the others built again, with the rest of the
    deal, up to ``attempts`` deals in all, and the deal with the most legal waits is returned.
    A seat whose hand cannot be built gets a random one. With no seat drawn ready it is
    :func:`~hkmahjong.engine.determinize.random_deal`'s sample (r_o = 0 draws nothing, so an
    all-zero ``probs`` gives ``random_deal``'s very deal). It reads only ``view``, ``rng`` and
    ``probs``, never the hidden tiles.

    :raises DeterminizeError: when the view's counts do not fit the unseen tiles.
    """
    return reading_sample(view, ruleset, rng, probs, scale=scale, attempts=attempts).deal


def reading_sample(
    view: PlayerView,
    ruleset: Ruleset,
    rng: random.Random,
    probs: Probs,
    *,
    scale: float = READY_KINDS,
    attempts: int = 4,
) -> ReadingSample:
    """:func:`reading_deal` with its intended waits, which of them are legal and its state."""
    me = int(view.seat)
    chances = ready_chances(probs, scale)
    ready: list[int] = []
    for s in range(4):
        r = chances.get(Wind(s), 0.0) if s != me else 0.0
        if r > 0.0 and rng.random() < r:
            ready.append(s)
    if not ready:
        return ReadingSample(random_deal(view, ruleset, rng), None, {}, (), ())
    base = [0] * 34
    bonus: list[Tile] = []
    for t in unseen_tiles(view, ruleset):
        if t < 34:
            base[t] += 1
        else:
            bonus.append(t)
    live = base[:]
    for t in view.concealed:
        live[t] += 1  # copies someone may still discard: the unseen ones and this seat's own
    best: ReadingSample | None = None
    kept: dict[int, tuple[list[int], int]] = {}  # ready hands found legal: kept as they are
    tries = 0
    while tries < max(1, attempts):
        tries += 1
        pool = base[:]
        built: dict[int, list[int]] = {}
        waits: dict[int, int] = {}
        for s in ready:
            if s in kept:
                built[s], waits[s] = kept[s]
                for k in built[s]:
                    pool[k] -= 1
        for s in ready:
            if s in kept:
                continue
            got = _ready_hand(
                pool, live, probs[Wind(s)], view.concealed_counts[s], view.melds[s], rng
            )
            if got is not None:
                built[s], waits[s] = got
        rest = [_T[k] for k in range(34) for _ in range(pool[k])]
        fixed = {s: tuple(_T[k] for k in sorted(h)) for s, h in built.items()}
        deal = deal_around(view, fixed, rest, bonus, rng)
        state = rebuild(view, ruleset, deal)
        legal = tuple(s for s in ready if s in waits and can_win_on(state, s, waits[s]))
        for s in legal:
            kept[s] = built[s], waits[s]
        if best is None or len(legal) > len(best.legal):
            best = ReadingSample(deal, state, waits, legal, tuple(ready))
        if len(legal) == len(ready):
            break
    assert best is not None
    return ReadingSample(best.deal, best.state, best.waits, best.legal, best.drawn_ready, tries)


def _pick(pool: list[int], rng: random.Random, allowed: Sequence[bool] | None = None) -> int:
    """A kind drawn with weight its count in ``pool`` (among the ``allowed`` kinds); -1 when
    there is none."""
    weights = (
        pool if allowed is None else [c if ok else 0 for c, ok in zip(pool, allowed, strict=True)]
    )
    total = sum(weights)
    if total <= 0:
        return -1
    r = rng.randrange(total)
    for k, c in enumerate(weights):
        r -= c
        if r < 0:
            return k
    raise AssertionError("unreachable")


def _chows_with(k: int, pool: list[int], take: int) -> list[tuple[int, ...]]:
    """The chows holding ``k`` whose tiles other than one ``k`` are in ``pool``; each as those
    tiles (``take`` = 1: ``k`` itself taken from the pool too)."""
    if k >= 27:
        return []
    out: list[tuple[int, ...]] = []
    rank = k % 9
    for first in (k - 2, k - 1, k):
        fr = rank - (k - first)
        if fr < 0 or fr > 6:
            continue
        others = tuple(x for x in (first, first + 1, first + 2) if x != k)
        if all(pool[x] for x in others) and pool[k] >= take:
            out.append(others + (k,) * take)
    return out


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a constructed hand may hold: the kinds of its sets (and pair), chows, pungs."""

    allowed: tuple[bool, ...]
    chows: bool
    pungs: bool


_ANY = tuple([True] * 34)
_SUITED = tuple(k < 27 for k in range(34))


def _shapes(melds: Sequence[Meld], w: int, rng: random.Random) -> list[_Shape]:
    """The hand shapes a ready hand waiting on ``w`` beside ``melds`` may be built in: any sets,
    and where the melds and ``w`` allow, one suit with honours (混一色), all chows (平糊), all
    pungs (對對糊) — the patterns that make most legal wins under a 3-fan minimum."""
    out = [_Shape(_ANY, True, True)]
    suits = {m.first // 9 for m in melds if m.first < 27}
    if w < 27:
        suits.add(w // 9)
    if len(suits) <= 1:
        x = next(iter(suits)) if suits else rng.randrange(3)
        out.append(_Shape(tuple(k >= 27 or k // 9 == x for k in range(34)), True, True))
    chowed = any(m.kind is MeldKind.CHOW for m in melds)
    if w < 27 and all(m.kind is MeldKind.CHOW for m in melds):
        out.append(_Shape(_SUITED, True, False))
    if not chowed:
        out.append(_Shape(_ANY, False, True))
    return out


def _random_set(
    pool: list[int], rng: random.Random, shape: _Shape, tries: int = 12
) -> tuple[int, ...] | None:
    """A pung or chow of ``shape`` from ``pool`` around a random tile (taken out of ``pool``);
    None if none is found in ``tries`` draws."""
    for _ in range(tries):
        k = _pick(pool, rng, shape.allowed)
        if k < 0:
            return None
        options = _chows_with(k, pool, 1) if shape.chows else []
        if shape.pungs and pool[k] >= 3:
            options.append((k, k, k))
        if options:
            got = rng.choice(options)
            for x in got:
                pool[x] -= 1
            return got
    return None


def _ready_hand(
    pool: list[int],
    live: list[int],
    probs: Sequence[float],
    n: int,
    melds: Sequence[Meld],
    rng: random.Random,
) -> tuple[list[int], int] | None:
    """``n`` concealed tiles from ``pool`` that wait on a kind drawn by ``probs`` (and that kind),
    taken out of ``pool``; None (``pool`` untouched) when no such hand is found."""
    extra = 1 if n % 3 == 2 else 0
    if (n - extra) % 3 != 1:
        return None
    sets = (n - extra - 1) // 3
    weights = [p if live[k] else 0.0 for k, p in enumerate(probs)]
    if sum(weights) <= 0.0:
        return None
    w = rng.choices(range(34), weights)[0]
    shape = rng.choice(_shapes(melds, w, rng))
    work = pool[:]
    options: list[tuple[int, ...]] = []
    if work[w]:
        options.append((w,))  # the pair: 單吊
    if sets:
        if work[w] >= 2 and shape.pungs:
            options.append((w, w))  # a pung: 對碰
        if shape.chows:
            options.extend(_chows_with(w, work, 0))  # a chow: the two other tiles held
    if not options:
        return None
    held = list(rng.choice(options))
    for x in held:
        work[x] -= 1
    tanki = len(held) == 1
    for _ in range(sets if tanki else sets - 1):
        got = _random_set(work, rng, shape)
        if got is None:
            return None
        held.extend(got)
    if not tanki:
        allowed = shape.allowed if shape.pungs else _ANY
        pairs = [c if c >= 2 and ok else 0 for c, ok in zip(work, allowed, strict=True)]
        if not any(pairs):
            return None
        k = rng.choices(range(34), pairs)[0]
        work[k] -= 2
        held += [k, k]
    if extra:
        k = _pick(work, rng)
        if k < 0:
            return None
        work[k] -= 1
        held.append(k)
    pool[:] = work
    return held, w


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


def play_candidates(
    state: HandState,
    me: int,
    candidates: Sequence[Action],
    bots: Sequence[BaseBot],
    deadline: float = math.inf,
) -> list[float] | None:
    """One sample of a search: each of ``candidates`` played for seat ``me`` from ``state`` (a
    copy for all but the last, which plays ``state`` itself) and the rest of the hand by ``bots``
    — what each paid ``me``, in order; None when the clock passes ``deadline`` first. Every
    candidate meets the same hidden tiles and the same bots (common random numbers): the
    search's and the review's rollouts (:mod:`hkmahjong.bots.review`) both play them so."""
    out: list[float] = []
    for i, a in enumerate(candidates):
        play = state.clone() if i + 1 < len(candidates) else state
        got = play_out(play, me, a, bots, deadline)
        if got is None:
            return None
        out.append(got)
    return out


def play_out(
    state: HandState, me: int, first: Action, bots: Sequence[BaseBot], deadline: float
) -> float | None:
    """Play ``first`` for seat ``me``, then the hand to its end with ``bots`` (by seat; e.g.
    :meth:`MasterBot.rollout_bots`); what it pays ``me`` (None when the clock passes ``deadline``
    first)."""
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
