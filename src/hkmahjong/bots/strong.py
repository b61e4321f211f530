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

from hkmahjong.bots.base import WIN_KINDS, BaseBot, Candidate, Situation, claim_meld
from hkmahjong.bots.danger import Threat, liability_tiles, threats, tile_danger
from hkmahjong.bots.planner import win_value
from hkmahjong.bots.simple import tile_shape_bonus
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile

__all__ = ["LEVELS", "StrongBot", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    """Knobs of the ``strong`` bot."""

    aggression: float = 1.0
    defense: float = 1.0
    value_weight: float = 1.0
    noise: float = 0.0


LEVELS: dict[str, Style] = {
    "easy": Style(aggression=1.0, defense=0.15, value_weight=0.8, noise=1.5),
    "normal": Style(aggression=1.0, defense=0.5, value_weight=0.9, noise=0.5),
    "hard": Style(aggression=1.0, defense=0.8, value_weight=1.0, noise=0.1),
    "expert": Style(aggression=1.0, defense=1.0, value_weight=1.0, noise=0.0),
}
"""Difficulty presets (簡單 / 普通 / 困難 / 專家); ``strong`` plays ``expert``."""


class StrongBot(BaseBot):
    """期望值: expected jade of the best route minus the expected jade fed to opponents."""

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

    def _ev(self, s: Situation, counts: list[int]) -> tuple[float, str]:
        v = win_value(s, counts, value_weight=self.style.value_weight)
        if v is None:
            return 0.0, "no route reaches the minimum"
        rt = v.route
        return v.ev, f"{rt.name} d{rt.distance} p{v.p_win:.2f} x{v.gain:.0f}"

    def _noise(self) -> float:
        n = self.style.noise
        return self.rng.uniform(-n, n) if n else 0.0

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        s = Situation.of(view, self.ruleset)
        st = self.style
        cands: list[Candidate] = []
        th: list[Threat] | None = None
        liab: dict[int, float] = {}
        needs_risk = any(a.kind is ActionKind.DISCARD for a in legal) or any(
            a.kind in (ActionKind.CHOW, ActionKind.PUNG) for a in legal
        )
        if needs_risk:
            th = threats(s)
            liab = liability_tiles(s)
        summary = ""
        if th:
            summary = "risk: " + ", ".join(
                f"{t.seat.letter} ready {t.p_ready:.0%} ~{t.fan} fan" for t in th
            )

        def risk(tile: int) -> float:
            if th is None:
                return 0.0
            return tile_danger(th, tile) + liab.get(tile, 0.0)

        pass_ev: float | None = None
        for a in legal:
            if a.kind in WIN_KINDS:
                cands.append(Candidate(a, 1e6, "win"))
            elif a.kind is ActionKind.DISCARD:
                assert a.tile is not None
                t = int(a.tile)
                s.counts[t] -= 1
                ev, note = self._ev(s, s.counts)
                s.counts[t] += 1
                danger = risk(t)
                score = st.aggression * ev - st.defense * danger + self._noise()
                score += 0.01 * tile_shape_bonus(t, s.counts)
                extra = " 包牌!" if t in liab else ""
                cands.append(Candidate(a, score, f"{note}; risk {danger:.2f}{extra}"))
            elif a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
                assert a.tile is not None
                t = int(a.tile)
                counts = s.counts[:]
                after = s
                if a.kind is ActionKind.CONCEALED_KONG:
                    counts[t] -= 4
                    after = s.with_meld(Meld(MeldKind.CONCEALED_KONG, Tile(t)), [])
                else:
                    counts[t] -= 1
                ev, note = self._ev(after, counts)
                rob = 0.3 if a.kind is ActionKind.ADDED_KONG else 0.0
                cands.append(Candidate(a, st.aggression * ev * 1.05 + 0.05 - rob, f"kong: {note}"))
            elif a.kind in (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG):
                if pass_ev is None:
                    pass_ev, pnote = self._ev(s, s.counts)
                    summary = (summary + "; " if summary else "") + f"pass keeps {pnote}"
                cands.append(self._claim(s, a, risk))
            elif a.kind is ActionKind.PASS:
                cands.append(Candidate(a, 0.0, "pass"))
            else:
                cands.append(Candidate(a, -1e6, "never"))
        if pass_ev is not None:
            cands = [
                Candidate(c.action, st.aggression * pass_ev, c.note)
                if c.action.kind is ActionKind.PASS
                else c
                for c in cands
            ]
        return cands, summary

    def _claim(self, s: Situation, a: Action, risk: object) -> Candidate:
        st = self.style
        tile = s.view.pending_tile
        assert tile is not None
        meld, used = claim_meld(a, tile)
        after = s.with_meld(meld, used)
        assert callable(risk)
        if a.kind is ActionKind.KONG:
            ev, note = self._ev(after, after.counts)
            return Candidate(a, st.aggression * ev * 1.05, f"kong: {note}")
        best = -1e9
        best_note = ""
        for t in range(34):
            if not after.counts[t] or (t == int(tile) and self.ruleset.no_swap_discard):
                continue
            after.counts[t] -= 1
            ev, note = self._ev(after, after.counts)
            after.counts[t] += 1
            score = st.aggression * ev - st.defense * float(risk(t))
            if score > best:
                best, best_note = score, f"then discard {Tile(t).mpsz}: {note}"
        return Candidate(a, best - 0.05, best_note)
