"""``fan`` bot (番路): plans for the minimum fan and discards toward the best route.

Among the routes the ruleset rewards (番牌 pungs, 對對糊, 混一色/清一色, 平糊 and 門前清 + 自摸,
bonus tiles already held), it keeps the one closest to a hand worth at least the minimum and
discards toward it; it claims only when the claim banks fan or speeds a route that still reaches
the minimum. Its wins are always legal wins: the engine offers only those, and the bot never plans
toward a hand below the minimum unless no route reaches it.
"""

from __future__ import annotations

from hkmahjong.bots.base import WIN_KINDS, BaseBot, Candidate, Situation, claim_meld
from hkmahjong.bots.evaluate import shanten_all, useful_count
from hkmahjong.bots.planner import best_route
from hkmahjong.bots.routes import Route
from hkmahjong.bots.simple import tile_shape_bonus
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import FanId
from hkmahjong.tiles import Tile

__all__ = ["FanBot"]


class FanBot(BaseBot):
    """番路: discards toward the nearest route worth the minimum fan; claims only to bank fan."""

    name = "fan"
    claim_margin = 1.0

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        s = Situation.of(view, self.ruleset)
        cands: list[Candidate] = []
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        summary = ""

        if discards:
            scored = self._discards(s, discards)
            cands += scored
        pass_rank: float | None = None
        for a in legal:
            if a.kind in WIN_KINDS:
                cands.append(Candidate(a, 1e6, "win"))
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
                rank, route = self._route(after, counts)
                cands.append(Candidate(a, rank + 0.5, f"kong, then {route.name} d{route.distance}"))
            elif a.kind in (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG):
                if pass_rank is None:
                    pass_rank, route = self._route(s, s.counts)
                    summary = (
                        f"now: {route.name}, distance {route.distance}, {route.fan_discard} fan"
                    )
                cands.append(self._claim(s, a, pass_rank))
            elif a.kind is ActionKind.PASS:
                cands.append(Candidate(a, pass_rank if pass_rank is not None else 0.0, "pass"))
            elif a.kind is not ActionKind.DISCARD:
                cands.append(Candidate(a, -1e6, "never"))
        if pass_rank is not None:
            cands = [
                Candidate(c.action, pass_rank, c.note) if c.action.kind is ActionKind.PASS else c
                for c in cands
            ]
        return cands, summary

    def _route(self, s: Situation, counts: list[int]) -> tuple[float, Route]:
        """The best route of a 13-tile state and its rank (:func:`~hkmahjong.bots.planner.best_route`)."""
        return best_route(s, counts)

    def _discards(self, s: Situation, discards: list[Action]) -> list[Candidate]:
        out: list[tuple[float, Action, str]] = []
        for a in discards:
            assert a.tile is not None
            t = int(a.tile)
            s.counts[t] -= 1
            rank, route = self._route(s, s.counts)
            s.counts[t] += 1
            note = f"{route.name} d{route.distance} {route.fan_discard}/{route.fan_self} fan"
            out.append((rank + tile_shape_bonus(t, s.counts) * 0.1, a, note))
        top = max(r for r, _, _ in out)
        result: list[Candidate] = []
        r = self.ruleset
        flags = {"seven_pairs": r.seven_pairs, "thirteen": r.plays(FanId.THIRTEEN_ORPHANS)}
        for rank, a, note in out:
            if rank >= top - 1.0 and not self.over_budget():
                assert a.tile is not None
                t = int(a.tile)
                s.counts[t] -= 1
                sh = shanten_all(s.counts, len(s.melds), **flags)
                _, copies = useful_count(s.counts, len(s.melds), s.unseen, sh, **flags)
                s.counts[t] += 1
                rank += 0.04 * copies
                note += f", {copies} useful"
            result.append(Candidate(a, rank, note))
        return result

    def _claim(self, s: Situation, a: Action, pass_rank: float) -> Candidate:
        tile = s.view.pending_tile
        assert tile is not None
        meld, used = claim_meld(a, tile)
        after = s.with_meld(meld, used)
        if a.kind is ActionKind.KONG:
            rank, route = self._route(after, after.counts)
            rank += 0.5
        else:
            rank, route = -1e9, None
            for t in range(34):
                if after.counts[t] and not (t == int(tile) and self.ruleset.no_swap_discard):
                    after.counts[t] -= 1
                    r2, rt = self._route(after, after.counts)
                    after.counts[t] += 1
                    if r2 > rank:
                        rank, route = r2, rt
        assert route is not None
        valid = route.fan_self >= self.ruleset.min_fan
        score = rank - self.claim_margin if valid else -1e6
        return Candidate(
            a,
            score,
            f"-> {route.name} d{route.distance} {route.fan_discard} fan (pass {pass_rank:.1f})",
        )
