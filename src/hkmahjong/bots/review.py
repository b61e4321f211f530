"""覆盤 (review): ``master``'s rollouts read back one player's decisions and say what each cost.

For a finished hand of a game record and one player, every decision that player made with more
than one legal action is looked at **from that player's seat only**: the review takes the seat's
:class:`~hkmahjong.engine.view.PlayerView` and its legal actions at that moment, never the
state behind them, so what the other seats held and the order of the wall cannot change it
(tested by shuffling them). The candidates (``width``, 2 by default) are the action played and
``master``'s ranking's choice — or, when the player chose it, the ranking's next best; against a
win, the win and the best action that does not win. Each is valued as ``master`` values its
near-tie calls (:mod:`~hkmahjong.bots.master`): the hidden tiles are sampled as the rivers read
(確定化, ``master``'s reading samples), the hand is rebuilt from the view and the sample, the
candidate is played and the rest of the hand played out by ``strong`` in every seat, and the
jade the hand pays the seat is the sample's value. Every candidate is played on the same
samples (common random numbers), so the review measures differences, not levels: for each
candidate the mean of (its jade − the played action's jade) over the samples and that mean's
standard error.

The **loss** of a decision is the largest of those differences (0 when the played action has
the best mean); its **standard error** is that candidate's. The verdict (:data:`VERDICTS`):

* ``good`` whenever the loss is inside its noise — not above :func:`noise_gate` standard errors
  (``z`` = 3, widened by Student's t for few samples) — or below the ``inaccuracy`` threshold;
* otherwise ``inaccuracy`` / ``mistake`` / ``blunder`` as the loss reaches the thresholds of
  :class:`Thresholds`, fractions of the table's **unit**, what feeding a minimum-fan win costs
  (:func:`deal_in_unit`: 12 jade in the parlor preset, 8 in qingzhang, 4 under ml), so a verdict
  means the same at every table.

A decision whose loss may be real but is not yet told from noise gets more samples, in rounds of
``budget``, up to ``extend`` rounds (a deterministic rule on the samples themselves).

A hand's or a match's :class:`Totals`: the **accuracy** (share of the reviewed decisions judged
``good``), the **loss** (summed over the decisions judged worse than good, with its standard
error) and, unbiased because no candidate is picked by the samples, what ``master``'s ranking's
choice would have gained over the played action, summed over every decision.

The budget is a number of samples per decision (deterministic, never wall time), and everything
is a function of the record, the player, the seed and the budget: the samples of a decision are
drawn from a generator seeded by the seed and a digest of the view, and the bots are made afresh
for each decision. Decisions are independent and picklable (:func:`review_point`), so they run
in a process pool (``jobs``; the parlor's ``Thinker`` can run :func:`review_point` the same way)
with the same result.

See ``docs/review.md`` for the thresholds, the calibration against the true hidden tiles and the
figures.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hkmahjong.bots.advice import advise
from hkmahjong.bots.backend import Backend, imap_indexed
from hkmahjong.bots.base import WIN_KINDS, BaseBot
from hkmahjong.bots.danger import feeder_shares
from hkmahjong.bots.master import MASTER_STYLE, paired_diff, play_candidates, reading_sample
from hkmahjong.bots.planner import share_value
from hkmahjong.bots.reading import deal_in_probabilities
from hkmahjong.bots.strong import StrongBot
from hkmahjong.engine import Action, PlayerView
from hkmahjong.engine.determinize import HandState, random_deal, rebuild
from hkmahjong.engine.match import Match
from hkmahjong.engine.record import GameRecord, RecordError, replay_hand, rules_from_spec
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Wind

__all__ = [
    "REVIEW_BUDGET",
    "VERDICTS",
    "CandidateValue",
    "DecisionPoint",
    "DecisionReview",
    "HandReview",
    "MatchReview",
    "Reason",
    "ReviewConfig",
    "ReviewError",
    "Thresholds",
    "Totals",
    "candidates_for",
    "deal_in_unit",
    "decision_points",
    "noise_gate",
    "player_index",
    "point_at",
    "reason_for",
    "review_hand",
    "review_match",
    "review_point",
    "rollout_bots",
    "verdict_of",
]

REVIEW_BUDGET = 16
"""Samples (determinizations) per decision by default; each candidate is played out on every
one. At 16 the decisions the review flags measurably lose on the true tiles (at 6 the gate let
almost none through: docs/review.md, *Calibration*), and a four-hand match is still reviewed for
one player within a minute on the development machine (43 s, ``bench/bench_review.py``)."""

VERDICTS = ("good", "inaccuracy", "mistake", "blunder")
"""The verdicts, from none to the worst; ``unreviewed`` marks a decision the engine could not
rebuild a hand for (not counted in the accuracy)."""

UNREVIEWED = "unreviewed"
_UNTIMED = 1e9


class ReviewError(MahjongError):
    """A review that cannot be made: no such hand or player, a hand not finished."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Where the verdicts start: expected loss as a fraction of the table's unit
    (:func:`deal_in_unit`), and the noise gate ``z`` (no verdict worse than ``good`` for a loss
    below ``z`` standard errors)."""

    inaccuracy: float = 0.1
    mistake: float = 0.25
    blunder: float = 0.6
    z: float = 3.0
    """3, not 2: over thousands of decisions a 2-standard-error gate flags about one in a hundred
    that lose nothing — calibrated on self-play, what it flagged did not lose on the true tiles
    (docs/review.md, "Calibration")."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must grow: 0 ≤ inaccuracy ≤ mistake ≤ blunder")
        if self.z < 0.0:
            raise ValueError("z must not be negative")


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """What a review depends on besides the record and the player."""

    budget: int = REVIEW_BUDGET
    """Samples per decision (every candidate is played on each); more for an unresolved
    decision, see ``extend``."""
    seed: int | str = 0
    extend: int = 3
    """At most this many rounds of ``budget`` samples: a decision whose loss may be real but is
    not yet told from noise (:func:`_unresolved`) gets another round, up to ``extend`` ×
    ``budget`` samples (1: never). A clear decision costs one round."""
    width: int = 2
    """Candidates valued per decision, the played action included (2: it and the ranking's
    choice, or its next best when they are the same; against a win, the win and the best action
    that does not win). More candidates cost a rollout each per sample."""
    thresholds: Thresholds = field(default_factory=Thresholds)
    sampling: str = "reading"
    """``"reading"`` (``master``'s default) or ``"uniform"``."""

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise ValueError(f"the budget is a number of samples, at least 1 (got {self.budget})")
        if self.extend < 1:
            raise ValueError(f"extend must be at least 1 (got {self.extend})")
        if self.width < 2:
            raise ValueError(f"width must be at least 2 (got {self.width})")
        if self.sampling not in ("reading", "uniform"):
            raise ValueError(f"sampling {self.sampling!r}: expected 'reading' or 'uniform'")


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of one seat: what it could see (``view``), what it could do (``legal``), what
    it did (``played``) — action ``index`` of hand ``hand`` of the record."""

    hand: int
    index: int
    view: PlayerView
    legal: tuple[Action, ...]
    played: Action


@dataclass(frozen=True, slots=True)
class Reason:
    """The advisor's words for one action (:func:`~hkmahjong.bots.advice.advise`): what it does
    to the hand, as the practice table's hints say it — never the bot's scores."""

    action: Action
    shanten_now: int
    """向聽 before the action (-1: complete)."""
    shanten: int
    """向聽 after it (after a claim: after its best discard; -1 for a win)."""
    waits: tuple[str, ...]
    """When ready after it: the waits (MPSZ)."""
    route: tuple[str, ...]
    """The route's patterns (``FanId`` values; empty: any hand) and its distance below."""
    distance: int | None
    danger: str | None
    """For a discard: its 放銃 risk (``SAFE`` … ``HIGH``)."""
    risk: float | None
    """For a discard: the jade it may be expected to cost in deal-ins."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "action": self.action.text,
            "shanten_now": self.shanten_now,
            "shanten": self.shanten,
            "waits": list(self.waits),
            "route": list(self.route),
            "distance": self.distance,
            "danger": self.danger,
            "risk": None if self.risk is None else round(self.risk, 3),
        }


def reason_for(
    view: PlayerView, legal: Sequence[Action], action: Action, ruleset: Ruleset
) -> Reason | None:
    """The advisor's reading of ``action`` at this decision (None if it cannot read it)."""
    try:
        a = advise(view, legal, ruleset, action=action)
    except MahjongError:
        return None
    return Reason(
        action,
        a.shanten_now,
        a.shanten,
        tuple(w.tile.mpsz for w in a.waits),
        tuple(f.value for f in a.goal.fans) if a.goal is not None else (),
        a.goal.distance if a.goal is not None else None,
        a.danger.level.name if a.danger is not None else None,
        a.danger.expected_loss if a.danger is not None else None,
    )


@dataclass(frozen=True, slots=True)
class CandidateValue:
    """One valued candidate: its mean jade over the samples, its paired difference from the
    played action (mean and standard error) and the ranking's score (``strong``'s rank points)."""

    action: Action
    mean: float
    diff: float
    se: float
    rank: float

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "action": self.action.text,
            "zh": self.action.zh,
            "mean": _num(self.mean),
            "diff": _num(self.diff),
            "se": _num(self.se),
            "rank": _num(self.rank),
        }


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """The review of one decision."""

    hand: int
    index: int
    seat: Wind
    tiles_left: int
    played: Action
    best: Action
    """The candidate with the best mean jade (the played action when none beats it)."""
    loss: float
    """Expected jade lost against ``best`` (mean paired difference; ≥ 0)."""
    se: float
    """Standard error of ``loss`` (inf with fewer than two samples)."""
    samples: int
    verdict: str
    unit: float
    candidates: tuple[CandidateValue, ...]
    suggested: Action
    """``master``'s ranking's choice (``strong`` with ``master``'s style, before any search)."""
    suggested_diff: float
    """Mean jade of ``suggested`` − the played action's, on the same samples (0 when it was
    played): unlike :attr:`loss` no candidate is picked by the samples, so it is unbiased."""
    suggested_se: float
    note: str = ""
    why: tuple[Reason, ...] = ()
    """The advisor's words for the played action and, when another is better, for it."""

    @property
    def reviewed(self) -> bool:
        """Whether the decision was valued (the engine rebuilt its hand)."""
        return self.verdict != UNREVIEWED

    def to_json(self) -> dict[str, Any]:
        """Plain data (for tools and the web)."""
        return {
            "hand": self.hand,
            "index": self.index,
            "seat": self.seat.letter,
            "tiles_left": self.tiles_left,
            "played": self.played.text,
            "played_zh": self.played.zh,
            "best": self.best.text,
            "best_zh": self.best.zh,
            "loss": _num(self.loss),
            "se": _num(self.se),
            "samples": self.samples,
            "verdict": self.verdict,
            "unit": self.unit,
            "suggested": self.suggested.text,
            "suggested_diff": _num(self.suggested_diff),
            "suggested_se": _num(self.suggested_se),
            "candidates": [c.to_json() for c in self.candidates],
            "why": [r.to_json() for r in self.why],
            "note": self.note,
        }


def _num(x: float) -> float | None:
    """A float for JSON (None for inf / nan, which JSON has not)."""
    return round(x, 4) if math.isfinite(x) else None


@dataclass(frozen=True, slots=True)
class Totals:
    """What a hand's or a match's decisions add up to."""

    reviewed: int
    """Decisions valued (forced and unreviewed ones not counted)."""
    verdicts: dict[str, int]
    accuracy: float | None
    """Share of the reviewed decisions judged ``good`` (None: nothing reviewed)."""
    loss: float
    """Expected jade lost in the decisions judged worse than good (the losses the review can
    tell from noise; those within it are not counted)."""
    loss_se: float
    """Standard error of :attr:`loss` (the decisions' samples are independent)."""
    against_suggested: float
    """Summed :attr:`DecisionReview.suggested_diff` over every reviewed decision: what playing
    ``master``'s ranking's choice throughout would have gained (signed; unbiased)."""
    against_suggested_se: float

    @classmethod
    def of(cls, decisions: Sequence[DecisionReview]) -> Totals:
        """Add up ``decisions``."""
        done = [d for d in decisions if d.reviewed]
        counts = {v: 0 for v in (*VERDICTS, UNREVIEWED)}
        for d in decisions:
            counts[d.verdict] += 1
        flagged = [d for d in done if d.verdict != "good"]
        return cls(
            len(done),
            counts,
            counts["good"] / len(done) if done else None,
            sum((d.loss for d in flagged), 0.0),
            math.sqrt(sum(d.se**2 for d in flagged)),
            sum((d.suggested_diff for d in done), 0.0),
            math.sqrt(sum(d.suggested_se**2 for d in done)),
        )

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "reviewed": self.reviewed,
            "verdicts": dict(self.verdicts),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 4),
            "loss": round(self.loss, 4),
            "loss_se": _num(self.loss_se),
            "against_suggested": round(self.against_suggested, 4),
            "against_suggested_se": _num(self.against_suggested_se),
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand reviewed for one player: its decisions, and how many were forced (one legal
    action: not reviewed)."""

    hand: int
    player: int
    seat: Wind
    decisions: tuple[DecisionReview, ...]
    forced: int
    result: float
    """Jade the hand paid the player (its ledger delta)."""

    @property
    def totals(self) -> Totals:
        """The hand's accuracy and losses."""
        return Totals.of(self.decisions)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "hand": self.hand,
            "player": self.player,
            "seat": self.seat.letter,
            "result": self.result,
            "forced": self.forced,
            **self.totals.to_json(),
            "decisions": [d.to_json() for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class MatchReview:
    """The hands of a record reviewed for one player."""

    player: int
    name: str
    hands: tuple[HandReview, ...]
    config: ReviewConfig
    rules: str

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        """Every reviewed decision, hand by hand."""
        return tuple(d for h in self.hands for d in h.decisions)

    @property
    def totals(self) -> Totals:
        """The match's accuracy and losses, over its reviewed hands."""
        return Totals.of(self.decisions)

    def to_json(self) -> dict[str, Any]:
        """Plain data: the settings, the totals, then each hand."""
        t = self.config.thresholds
        return {
            "player": self.player,
            "name": self.name,
            "rules": self.rules,
            "budget": self.config.budget,
            "seed": self.config.seed,
            "extend": self.config.extend,
            "width": self.config.width,
            "sampling": self.config.sampling,
            "thresholds": {
                "inaccuracy": t.inaccuracy,
                "mistake": t.mistake,
                "blunder": t.blunder,
                "z": t.z,
            },
            "unit": self.hands[0].decisions[0].unit if self.decisions else None,
            "forced": sum(h.forced for h in self.hands),
            **self.totals.to_json(),
            "hands": [h.to_json() for h in self.hands],
        }


# --------------------------------------------------------------------------------------------
# what a decision is worth
# --------------------------------------------------------------------------------------------
def deal_in_unit(ruleset: Ruleset) -> float:
    """The table's unit: jade a seat pays for feeding a minimum-fan win (the gun scheme's share
    of it) — what ``strong`` weighs risk in."""
    return feeder_shares(ruleset) * share_value(ruleset.min_fan, ruleset)


_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t, two-sided 95% (the 97.5% quantile), for 1–30 degrees of freedom."""


def noise_gate(z: float, samples: int) -> float:
    """How many standard errors a loss must exceed to be told from noise: ``z`` for many
    samples, widened by Student's t for few (a standard error from 8 samples is itself
    uncertain: the gate is ``z`` × t₀.₉₇₅(n − 1) / 1.96, 3.62 for ``z`` = 3 and 8 samples)."""
    if samples < 2:
        return math.inf
    df = samples - 1
    t = _T975[df - 1] if df <= len(_T975) else 1.959964 * (1.0 + 1.0 / (4.0 * df))
    return z * t / 1.959964


def verdict_of(
    loss: float, se: float, unit: float, thresholds: Thresholds, samples: int = 1000
) -> str:
    """The verdict of an expected ``loss`` (jade) with standard error ``se`` over ``samples``
    samples at a table whose unit is ``unit``: ``good`` when the loss is within the noise
    (:func:`noise_gate`: ``z`` standard errors, widened for few samples), else by the
    thresholds (fractions of ``unit``)."""
    if not loss > noise_gate(thresholds.z, samples) * se:  # (se = inf: never separated)
        return "good"
    share = loss / unit
    if share >= thresholds.blunder:
        return "blunder"
    if share >= thresholds.mistake:
        return "mistake"
    if share >= thresholds.inaccuracy:
        return "inaccuracy"
    return "good"


def _ranker(config: ReviewConfig, ruleset: Ruleset) -> StrongBot:
    """``master``'s own ranking (``strong`` with its style), untimed."""
    return StrongBot(
        f"review:{config.seed}:rank", ruleset=ruleset, time_budget=_UNTIMED, style=MASTER_STYLE
    )


def candidates_for(
    view: PlayerView, legal: Sequence[Action], played: Action, ranker: BaseBot, width: int
) -> tuple[list[Action], dict[Action, float], Action]:
    """The candidates to value (the played action first), every legal action's rank score, and
    the ranking's choice.

    The played action, the ranking's choice, then its next best (actions it refuses, scored
    below -1e5, only if played) up to ``width``; when a win is legal, the best win and the best
    action that does not win are both in."""
    decision = ranker.decide(view, legal, explain=True)
    assert decision.explanation is not None
    scores = {c.action: c.score for c in decision.explanation.candidates}
    ranked = sorted(
        (a for a in legal if scores.get(a, -math.inf) > -1e5),
        key=lambda a: (-scores.get(a, -math.inf), a.text),
    )
    pool: list[Action] = [played]

    def add(a: Action | None) -> None:
        if a is not None and a not in pool:
            pool.append(a)

    add(decision.action)
    if any(a.kind in WIN_KINDS for a in legal):
        add(next((a for a in ranked if a.kind in WIN_KINDS), None))
        add(next((a for a in ranked if a.kind not in WIN_KINDS), None))
    for a in ranked:
        if len(pool) >= width:
            break
        add(a)
    return pool, scores, decision.action


def _view_digest(view: PlayerView) -> str:
    return hashlib.sha256(repr(view).encode()).hexdigest()[:16]


def _sample_state(
    view: PlayerView, ruleset: Ruleset, rng: random.Random, probs: Any, sampling: str
) -> HandState:
    """One determinization of ``view``: a hand state rebuilt from the view and a sample of what
    it cannot see (``master``'s reading samples, or uniform ones)."""
    if sampling == "reading":
        got = reading_sample(view, ruleset, rng, probs)
        if got.state is not None:
            return got.state
        return rebuild(view, ruleset, got.deal)
    return rebuild(view, ruleset, random_deal(view, ruleset, rng))


def _unresolved(jade: Sequence[Sequence[float]], unit: float, thresholds: Thresholds) -> bool:
    """Whether more samples could change the verdict: a candidate beats the played action
    (``jade[0]``) by at least the ``inaccuracy`` threshold and by more than one standard error,
    yet not by the whole noise gate (a loss that may be real but is not yet told from noise)."""
    n = len(jade[0])
    gate = noise_gate(thresholds.z, n)
    for other in jade[1:]:
        diff, se = paired_diff(other, jade[0])
        if diff >= thresholds.inaccuracy * unit and se < diff <= gate * se:
            return True
    return False


def rollout_bots(config: ReviewConfig, ruleset: Ruleset) -> tuple[BaseBot, ...]:
    """``strong`` in every seat (``master``'s rollout policy), untimed, fresh for a decision."""
    return tuple(
        StrongBot(f"review:{config.seed}:rollout:{s}", ruleset=ruleset, time_budget=_UNTIMED)
        for s in range(4)
    )


def review_point(
    point: DecisionPoint, ruleset: Ruleset, config: ReviewConfig | None = None
) -> DecisionReview:
    """Value the candidates of one decision from its view alone and judge the played action.

    Deterministic for ``config.seed``: the samples come from the seed and the view; the bots are
    made afresh for each decision."""
    config = config or ReviewConfig()
    view, legal, played = point.view, point.legal, point.played
    me = int(view.seat)
    unit = deal_in_unit(ruleset)
    pool, scores, suggested = candidates_for(
        view, legal, played, _ranker(config, ruleset), config.width
    )
    rng = random.Random(f"review:{config.seed}:{_view_digest(view)}")
    bots = rollout_bots(config, ruleset)
    jade: list[list[float]] = [[] for _ in pool]
    note = ""
    try:
        probs = deal_in_probabilities(view) if config.sampling == "reading" else None
        limit = config.budget * max(1, config.extend)
        while len(jade[0]) < limit:
            for _ in range(config.budget):
                state = _sample_state(view, ruleset, rng, probs, config.sampling)
                got = play_candidates(state, me, pool, bots)
                assert got is not None  # no deadline
                for i, x in enumerate(got):
                    jade[i].append(x)
            if not _unresolved(jade, unit, config.thresholds):
                break
    except MahjongError as exc:  # a view the engine cannot rebuild a hand for
        note = f"not reviewed: {exc}"
        jade = [[] for _ in pool]
    n = len(jade[0])
    values: list[CandidateValue] = []
    for a, j in zip(pool, jade, strict=True):
        diff, se = paired_diff(j, jade[0])
        if a == played:
            diff, se = 0.0, 0.0
        mean = sum(j) / len(j) if j else math.nan
        values.append(CandidateValue(a, mean, diff, se, scores.get(a, -math.inf)))
    if n == 0:
        return DecisionReview(
            point.hand, point.index, view.seat, view.tiles_left, played, played,
            0.0, math.inf, 0, UNREVIEWED, unit, tuple(values), suggested, 0.0, 0.0, note,
        )  # fmt: skip
    best = max(values, key=lambda c: (c.diff, c.action == played))
    if best.diff > 0.0:
        loss, se = best.diff, best.se
    else:  # nothing beat the played action: its noise is the widest of the others'
        best = values[0]
        loss, se = 0.0, max((c.se for c in values[1:]), default=0.0)
    verdict = verdict_of(loss, se, unit, config.thresholds, n)
    ordered = tuple(sorted(values, key=lambda c: -c.diff))
    sug = next(c for c in values if c.action == suggested)
    why = tuple(
        r
        for r in (reason_for(view, legal, a, ruleset) for a in dict.fromkeys((played, best.action)))
        if r is not None
    )
    return DecisionReview(
        point.hand, point.index, view.seat, view.tiles_left, played, best.action,
        loss, se, n, verdict, unit, ordered, suggested, sug.diff, sug.se, note, why,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# from a record
# --------------------------------------------------------------------------------------------
def point_at(
    state: HandState, seat: Wind, played: Action, hand: int = 0, index: int = 0
) -> DecisionPoint | None:
    """The decision ``seat`` faces in ``state`` (its view and legal actions, nothing else of the
    state), or None when it has a single legal action (forced: nothing to review)."""
    legal = tuple(state.legal_actions(seat))
    if len(legal) < 2:
        return None
    return DecisionPoint(hand, index, state.view(seat), legal, played)


def player_index(record: GameRecord, who: str) -> int:
    """The player (0–3) ``who`` names: ``P1``–``P4`` or ``1``–``4``, a player's name, or a wind
    (``E``/``S``/``W``/``N``, 東南西北): the player who sat there in the first hand.

    :raises ReviewError: when ``who`` names none of them.
    """
    players = list(record.match.get("players", ()))
    key = who.strip()
    if key in players:
        return players.index(key)
    upper = key.upper()
    if upper.startswith("P") and upper[1:].isdigit():
        upper = upper[1:]
    if upper.isdigit() and 1 <= int(upper) <= 4:
        return int(upper) - 1
    try:
        wind = Wind.parse(key)
    except MahjongError:
        names = ", ".join(players)
        raise ReviewError(
            f"seat {who!r}: expected E, S, W or N (the seats of the first hand), P1–P4, or a "
            f"player's name ({names})"
        ) from None
    dealer = record.hands[0].dealer if record.hands else 0
    return (dealer + int(wind)) % 4


def decision_points(
    record: GameRecord, hand: int, player: int
) -> tuple[Wind, list[DecisionPoint], int, float]:
    """Replay hand ``hand`` (0-based) and collect ``player``'s decisions: (its seat, the decision
    points, the forced actions, the jade the hand paid it).

    :raises ReviewError: when there is no such hand or it has not ended.
    :raises RecordError: when the record does not replay.
    """
    if not 0 <= hand < len(record.hands):
        raise ReviewError(f"no hand {hand + 1}: the record holds {len(record.hands)} hand(s)")
    if not 0 <= player < 4:
        raise ReviewError(f"no player {player + 1}: a table has players 1 to 4")
    h = record.hands[hand]
    if h.result is None:
        raise ReviewError(f"hand {hand + 1} has not ended: only finished hands are reviewed")
    seat = Wind((player - h.dealer) % 4)
    points: list[DecisionPoint] = []
    forced = 0
    steps = replay_hand(record, hand)
    step = next(steps)
    for i, a in enumerate(h.actions):
        if a.seat == seat:
            point = point_at(step.state, seat, Action.from_text(a.action), hand, i)
            if point is None:
                forced += 1
            else:
                points.append(point)
        step = next(steps)
    for _ in steps:  # the end of the hand: its digest is checked
        pass
    return seat, points, forced, float(h.result.deltas[int(seat)])


def _review_item(item: tuple[DecisionPoint, Ruleset, ReviewConfig]) -> DecisionReview:
    return review_point(*item)


def _run(
    points: Sequence[DecisionPoint], ruleset: Ruleset, config: ReviewConfig, jobs: int
) -> list[DecisionReview]:
    items = [(p, ruleset, config) for p in points]
    out: list[DecisionReview | None] = [None] * len(items)
    for i, got in imap_indexed(_review_item, items, Backend(jobs=max(1, jobs))):
        out[i] = got
    return [d for d in out if d is not None]


def review_hand(
    record: GameRecord,
    hand: int,
    player: int,
    config: ReviewConfig | None = None,
    *,
    jobs: int = 1,
) -> HandReview:
    """Review hand ``hand`` (0-based) of ``record`` for ``player`` (0–3); ``jobs`` worker
    processes (the result does not depend on them).

    :raises ReviewError: when there is no such hand or player, or the hand has not ended.
    :raises RecordError: when the record does not replay.
    """
    config = config or ReviewConfig()
    ruleset = rules_from_spec(record.rules, source=record.source)
    seat, points, forced, result = decision_points(record, hand, player)
    return HandReview(
        hand, player, seat, tuple(_run(points, ruleset, config, jobs)), forced, result
    )


def review_match(
    record: GameRecord,
    player: int,
    config: ReviewConfig | None = None,
    *,
    hands: Iterable[int] | None = None,
    jobs: int = 1,
) -> MatchReview:
    """Review ``hands`` (0-based; default every finished hand) of ``record`` for ``player``.

    All the decisions go to the ``jobs`` worker processes together.

    :raises ReviewError: when there is no such hand or player, or nothing to review.
    :raises RecordError: when the record does not replay.
    """
    config = config or ReviewConfig()
    ruleset = rules_from_spec(record.rules, source=record.source)
    try:
        Match.from_config(record.match)
    except MahjongError as exc:
        raise RecordError(f"bad match settings: {exc}", 1, record.source) from None
    chosen = (
        list(hands)
        if hands is not None
        else [i for i, h in enumerate(record.hands) if h.result is not None]
    )
    if not chosen:
        raise ReviewError("the record holds no finished hand to review")
    found = [decision_points(record, n, player) for n in chosen]
    every = [p for _, pts, _, _ in found for p in pts]
    reviewed = iter(_run(every, ruleset, config, jobs))
    out = []
    for n, (seat, pts, forced, result) in zip(chosen, found, strict=True):
        ds = tuple(next(reviewed) for _ in pts)
        out.append(HandReview(n, player, seat, ds, forced, result))
    players = list(record.match.get("players", ()))
    name = str(players[player]) if player < len(players) else f"P{player + 1}"
    return MatchReview(player, name, tuple(out), config, _rules_name(record, ruleset))


def _rules_name(record: GameRecord, ruleset: Ruleset) -> str:
    preset = record.rules.get("preset")
    return str(preset) if preset else ruleset.name
