"""``strong`` bot (期望值): win chance × payout of the best route, minus the risk of feeding.

For each action it estimates the jade it expects to win (the best route's win chance × what that
route pays, :func:`~hkmahjong.bots.planner.win_value`) and the jade it risks by discarding
(each opponent's readiness × the chance the tile is a winning tile for them × what they would be
paid, :mod:`hkmahjong.bots.danger`), and never makes a liability (包牌) discard it can avoid. It
folds when the risk outweighs its chances: the safest tile simply scores best then.

Difficulty and style knobs (the practice room's easy / normal / hard / expert):
``aggression`` (weight of its own chances), ``defense`` (weight of the risk), ``value_weight``
(speed vs value: the exponent on a route's payout) and ``noise`` (random error in its scores).
"""

from __future__ import annotations

from dataclasses import dataclass

from hkmahjong.bots.base import Candidate, Situation, claim_meld
from hkmahjong.bots.danger import Threat, liability_tiles, threats, tile_danger
from hkmahjong.bots.fan import FanBot
from hkmahjong.bots.planner import best_route, offense
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.rules import Ruleset

__all__ = ["LEVELS", "StrongBot", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    """Knobs of the ``strong`` bot."""

    aggression: float = 1.0
    defense: float = 1.0
    value_weight: float = 1.0
    noise: float = 0.0
    step_value: float = 1.0
    """Jade a distance step is worth, as a fraction of the route's expected jade."""
    step_floor: float = 0.5
    """The least jade a distance step is worth (how readily it folds a hopeless hand)."""


LEVELS: dict[str, Style] = {
    "easy": Style(aggression=1.0, defense=0.15, value_weight=0.8, noise=1.5),
    "normal": Style(aggression=1.0, defense=0.5, value_weight=0.9, noise=0.5),
    "hard": Style(aggression=1.0, defense=0.8, value_weight=1.0, noise=0.1),
    "expert": Style(aggression=1.0, defense=1.0, value_weight=1.0, noise=0.0),
}
"""Difficulty presets (簡單 / 普通 / 困難 / 專家); ``strong`` plays ``expert``."""


class StrongBot(FanBot):
    """期望值: the ``fan`` bot's routes, valued in jade, against the jade it risks feeding."""

    name = "strong"

    def __init__(
        self,
        seed: int | str | None = 0,
        *,
        ruleset: Ruleset | None = None,
        time_budget: float = 0.5,
        style: Style | None = None,
        level: str | None = None,
    ) -> None:
        super().__init__(seed, ruleset=ruleset, time_budget=time_budget)
        self.style = style if style is not None else LEVELS[level or "expert"]
        if level and level != "expert":
            self.name = f"strong-{level}"

    def _noise(self) -> float:
        n = self.style.noise
        return self.rng.uniform(-n, n) if n else 0.0

    def _exchange(self, s: Situation, counts: list[int]) -> tuple[float, str]:
        """Rank points per jade of risk: a distance step (10 points) is worth half the route's EV."""
        ev, _, route, p = offense(s, counts, value_weight=self.style.value_weight)
        step = max(self.style.step_value * ev * self.style.aggression, self.style.step_floor)
        return 10.0 / step, f"{route.name} d{route.distance} p{p:.2f} EV {ev:.2f}"

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        cands, summary = super()._score(view, legal)
        kinds = {a.kind for a in legal}
        if not kinds & {ActionKind.DISCARD, ActionKind.CHOW, ActionKind.PUNG}:
            return cands, summary
        s = Situation.of(view, self.ruleset)
        th = threats(s)
        liab = liability_tiles(s)
        st = self.style
        if ActionKind.DISCARD in kinds:
            best = max(
                (c for c in cands if c.action.kind is ActionKind.DISCARD), key=lambda c: c.score
            )
            assert best.action.tile is not None
            s.counts[int(best.action.tile)] -= 1
            rate, note = self._exchange(s, s.counts)
            s.counts[int(best.action.tile)] += 1
        else:
            rate, note = self._exchange(s, s.counts)
        out: list[Candidate] = []
        for c in cands:
            a = c.action
            if a.kind is ActionKind.DISCARD:
                assert a.tile is not None
                t = int(a.tile)
                danger = tile_danger(th, t) + liab.get(t, 0.0)
                score = c.score - st.defense * rate * danger + self._noise()
                flag = " 包牌!" if t in liab else ""
                out.append(Candidate(a, score, f"{c.note}; risk {danger:.2f}{flag}"))
            elif a.kind in (ActionKind.CHOW, ActionKind.PUNG) and c.score > -1e5:
                danger = self._claim_risk(s, a, th, liab)
                out.append(
                    Candidate(
                        a, c.score - st.defense * rate * danger, f"{c.note}; risk {danger:.2f}"
                    )
                )
            else:
                out.append(c)
        risk = ", ".join(f"{t.seat.letter} ready {t.p_ready:.0%} ~{t.fan} fan" for t in th)
        return out, f"{summary + '; ' if summary else ''}plan {note}; risk: {risk}"

    def _claim_risk(
        self, s: Situation, a: Action, th: list[Threat], liab: dict[int, float]
    ) -> float:
        """The risk of the safest discard among the best ones after the claim."""
        tile = s.view.pending_tile
        assert tile is not None
        meld, used = claim_meld(a, tile)
        after = s.with_meld(meld, used)
        best_rank = -1e9
        ranked: list[tuple[float, int]] = []
        for t in range(34):
            if after.counts[t] and not (t == int(tile) and self.ruleset.no_swap_discard):
                after.counts[t] -= 1
                rank, _ = best_route(after, after.counts)
                after.counts[t] += 1
                ranked.append((rank, t))
                best_rank = max(best_rank, rank)
        good = [t for rank, t in ranked if rank >= best_rank - 1.0]
        return min(tile_danger(th, t) + liab.get(t, 0.0) for t in good) if good else 0.0
