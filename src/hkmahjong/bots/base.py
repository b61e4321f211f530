"""機械人 base: the ``Bot`` protocol, explanations, and what a bot reads from a ``PlayerView``."""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from hkmahjong.bots.protocol import Bot
from hkmahjong.bots.routes import RouteContext
from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.errors import IllegalActionError
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.tiles import Tile

__all__ = [
    "WIN_KINDS",
    "BaseBot",
    "Bot",
    "Candidate",
    "Decision",
    "Explanation",
    "Situation",
]

WIN_KINDS = frozenset({ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN})


@dataclass(frozen=True, slots=True)
class Candidate:
    """One action a bot considered, its score (higher is better) and a short note."""

    action: Action
    score: float
    note: str = ""

    @property
    def text(self) -> str:
        """``discard 5p   +1.234  shanten 1, 12 useful``."""
        return f"{self.action.text:<18} {self.score:+9.3f}  {self.note}".rstrip()


@dataclass(frozen=True, slots=True)
class Explanation:
    """提示: why a bot chose ``chosen`` — every candidate with its score, best first."""

    bot: str
    chosen: Action
    candidates: tuple[Candidate, ...]
    summary: str = ""

    @property
    def text(self) -> str:
        """A readable multi-line form (the hint shown by the terminal and web parlors)."""
        lines = [f"{self.bot}: {self.chosen.text} ({self.chosen.zh})"]
        if self.summary:
            lines.append(f"  {self.summary}")
        for c in sorted(self.candidates, key=lambda c: -c.score):
            mark = "*" if c.action == self.chosen else " "
            lines.append(f" {mark} {c.text}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer: the ``action`` and, when asked, its ``explanation``."""

    action: Action
    explanation: Explanation | None = None


@dataclass(slots=True)
class Situation:
    """What a decision needs from the view, as count vectors (computed once per decision)."""

    view: PlayerView
    counts: list[int]
    """Own concealed tiles (34-count)."""
    melds: tuple[Meld, ...]
    unseen: list[int]
    """Copies of each kind this seat cannot see (4 minus visible)."""
    route_ctx: RouteContext
    own_discards: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def of(cls, view: PlayerView, ruleset: Ruleset) -> Situation:
        """Read ``view`` for seat ``view.seat``."""
        counts = [0] * 34
        for t in view.concealed:
            counts[t] += 1
        visible = view.visible_counts()
        if view.phase is Phase.CLAIM and view.pending_tile is not None:
            rivers = view.discards[view.pending_from] if view.pending_from is not None else ()
            if not rivers or rivers[-1] != view.pending_tile:
                visible[view.pending_tile] += 1
        unseen = [max(0, 4 - v) for v in visible]
        melds = tuple(view.melds[view.seat])
        ctx = RouteContext(ruleset, view.seat, view.prevailing_wind, melds, view.bonus[view.seat])
        return cls(
            view, counts, melds, unseen, ctx, frozenset(int(t) for t in view.discards[view.seat])
        )

    def with_meld(self, meld: Meld, used: Sequence[int]) -> Situation:
        """The situation after declaring ``meld`` from concealed tiles ``used``."""
        counts = self.counts[:]
        for t in used:
            counts[t] -= 1
        melds = (*self.melds, meld)
        ctx = RouteContext(
            self.route_ctx.ruleset,
            self.route_ctx.seat,
            self.route_ctx.prevailing,
            melds,
            self.route_ctx.bonus,
        )
        return Situation(self.view, counts, melds, self.unseen, ctx, self.own_discards)


def claim_meld(action: Action, tile: Tile) -> tuple[Meld, list[int]]:
    """The meld a claim ``action`` on discard ``tile`` makes, and the concealed tiles it uses."""
    if action.kind is ActionKind.CHOW:
        assert action.tile is not None
        first = int(action.tile)
        used = [t for t in (first, first + 1, first + 2) if t != int(tile)]
        return Meld(MeldKind.CHOW, Tile(first), 1), used
    if action.kind is ActionKind.PUNG:
        return Meld(MeldKind.PUNG, tile), [int(tile)] * 2
    if action.kind is ActionKind.KONG:
        return Meld(MeldKind.KONG, tile), [int(tile)] * 3
    raise IllegalActionError(f"{action.text} is not a claim on a discard")


class BaseBot:
    """Common machinery: a seeded RNG, the ruleset, a per-decision time budget, explanations.

    Subclasses implement :meth:`_score` returning candidates; the best score wins (ties broken by
    the seeded RNG, so a bot is deterministic for its seed). ``time_budget`` (seconds) bounds one
    decision: past it, remaining candidates are scored by the cheap pre-score only.
    """

    name = "base"

    def __init__(
        self,
        seed: int | str | None = 0,
        *,
        ruleset: Ruleset | None = None,
        time_budget: float = 0.5,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(f"{self.name}:{seed}")
        self.ruleset = ruleset if ruleset is not None else get_preset("parlor")
        self.time_budget = time_budget
        self._deadline = 0.0
        self._explaining = True
        """Whether this decision is explained: candidates' notes are written only then (no
        one reads them otherwise)."""

    def bind(self, ruleset: Ruleset) -> None:
        """Use ``ruleset`` from now on (the arena and the parlor call this before a hand)."""
        self.ruleset = ruleset

    def over_budget(self) -> bool:
        """True once this decision has used its time budget."""
        return time.perf_counter() > self._deadline

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One of ``legal``: the best-scored candidate.

        :raises IllegalActionError: when ``legal`` is empty.
        """
        return self.decide(view, legal).action

    def decide(
        self, view: PlayerView, legal: Sequence[Action], *, explain: bool = False
    ) -> Decision:
        """The chosen action and, with ``explain=True``, every candidate and its score.

        :raises IllegalActionError: when ``legal`` is empty.
        """
        if not legal:
            raise IllegalActionError(f"{self.name} bot asked to choose with no legal action")
        if len(legal) == 1 and not explain:
            return Decision(legal[0])
        cands, summary, chosen = self._ranked(view, legal, explain=explain)
        if not explain:
            return Decision(chosen)
        return Decision(chosen, Explanation(self.name, chosen, tuple(cands), summary))

    def _ranked(
        self, view: PlayerView, legal: Sequence[Action], *, explain: bool
    ) -> tuple[list[Candidate], str, Action]:
        """Every candidate with its score, the summary, and the chosen (best-scored) action."""
        self._deadline = time.perf_counter() + self.time_budget
        self._explaining = explain
        try:
            cands, summary = self._score(view, list(legal))
        finally:
            self._end_decision()
            self._explaining = True
        best = max(c.score for c in cands)
        top = [c for c in cands if c.score >= best - 1e-9]
        if len(top) == 1:
            chosen = top[0].action
        else:
            salt = f"{self.seed}:{view.hand_number}:{view.tiles_left}:{len(view.concealed)}"
            chosen = min(top, key=lambda c: zlib.crc32(f"{salt}:{c.action.text}".encode())).action
        return cands, summary, chosen

    def explain(self, view: PlayerView, legal: Sequence[Action]) -> Explanation:
        """提示: the candidates this bot considers for ``view`` and their scores.

        :raises IllegalActionError: when ``legal`` is empty.
        """
        d = self.decide(view, legal, explain=True)
        assert d.explanation is not None
        return d.explanation

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        raise NotImplementedError

    def _end_decision(self) -> None:
        """Forget what only one decision may reuse (a bot keeps no state between decisions
        beyond its RNG, so it can be copied or pickled between them)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, ruleset={self.ruleset.name!r})"
