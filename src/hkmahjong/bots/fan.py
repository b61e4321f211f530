"""``fan`` bot (番路): plans for the minimum fan and discards toward the best route.

Among the routes the ruleset rewards (番牌 pungs, 對對糊, 混一色/清一色, 平糊 and 門前清 + 自摸,
bonus tiles already held), it keeps the one closest to a hand worth at least the minimum and
discards toward it; it claims only when the claim banks fan or speeds a route that still reaches
the minimum. Its wins are always legal wins: the engine offers only those, and the bot never plans
toward a hand below the minimum unless no route reaches it.
"""

from __future__ import annotations

from hkmahjong.bots.base import WIN_KINDS, BaseBot, Candidate, Situation, claim_meld
from hkmahjong.bots.evaluate import hand_parts, useful_from_parts
from hkmahjong.bots.planner import discard_routes, value_route
from hkmahjong.bots.routes import Route, Static
from hkmahjong.bots.simple import tile_shape_bonus
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.tiles import Tile

__all__ = ["FanBot"]

_Batch = tuple[Static, list[tuple[float, Route, int]]]


class FanBot(BaseBot):
    """番路: discards toward the nearest route worth the minimum fan; claims only to bank fan."""

    name = "fan"
    claim_margin = 1.0

    def __init__(
        self,
        seed: int | str | None = 0,
        *,
        ruleset: Ruleset | None = None,
        time_budget: float = 0.5,
    ) -> None:
        super().__init__(seed, ruleset=ruleset, time_budget=time_budget)
        self._batches: dict[tuple[int, tuple[int, ...], tuple[int, ...], float], _Batch] = {}
        """This decision's :meth:`_discard_routes` answers."""
        self._last: tuple[PlayerView, Situation] | None = None
        """This decision's view and situation."""

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        s = self._situation(view)
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

    def _end_decision(self) -> None:
        self._batches.clear()
        self._last = None

    def _situation(self, view: PlayerView) -> Situation:
        """:meth:`Situation.of` the view, read once per decision (a subclass asks again)."""
        last = self._last
        if last is not None and last[0] is view and last[1].route_ctx.ruleset is self.ruleset:
            return last[1]
        s = Situation.of(view, self.ruleset)
        self._last = (view, s)
        return s

    def _steps(self, view: PlayerView) -> float:
        """Distance steps a doubling of a route's payout is worth (0: distance first, as ``fan``)."""
        return 0.0

    def _route(self, s: Situation, counts: list[int]) -> tuple[float, Route]:
        """The best route of a 13-tile state and its rank (:func:`~hkmahjong.bots.planner.value_route`
        with :meth:`_steps`)."""
        return value_route(s, counts, self._steps(s.view))

    def _discard_routes(self, s: Situation, counts: list[int], tiles: list[int]) -> _Batch:
        """:meth:`_route` (and the plain shanten) of ``counts`` without each of ``tiles``, all at
        once (:func:`~hkmahjong.bots.planner.discard_routes`); asked twice in a decision, the
        answer is remembered."""
        steps = self._steps(s.view)
        key = (id(s.route_ctx.static), tuple(counts), tuple(tiles), steps)
        found = self._batches.get(key)
        if found is None or found[0] is not s.route_ctx.static:
            found = (s.route_ctx.static, discard_routes(s, counts, tiles, steps))
            self._batches[key] = found
        return found

    def _discards(self, s: Situation, discards: list[Action]) -> list[Candidate]:
        out: list[tuple[float, Action, str, int]] = []
        tiles = [int(a.tile) for a in discards if a.tile is not None]
        assert len(tiles) == len(discards)
        _, batch = self._discard_routes(s, s.counts, tiles)
        explain = self._explaining
        for a, t, (rank, route, sh) in zip(discards, tiles, batch, strict=True):
            note = (
                f"{route.name} d{route.distance} {route.fan_discard}/{route.fan_self} fan"
                if explain
                else ""
            )
            out.append((rank + tile_shape_bonus(t, s.counts) * 0.1, a, note, sh))
        top = max(r for r, _, _, _ in out)
        result: list[Candidate] = []
        r = self.ruleset
        flags = {"seven_pairs": r.seven_pairs, "thirteen": r.plays(FanId.THIRTEEN_ORPHANS)}
        counts = s.counts
        parts = hand_parts(counts)
        for rank, a, note, sh in out:
            if rank >= top - 1.0 and not self.over_budget():
                assert a.tile is not None
                t = int(a.tile)
                k = t // 9
                after = list(parts)
                after[k] = parts[k].minus(t - 9 * k)
                counts[t] -= 1
                _, copies = useful_from_parts(
                    counts,
                    (after[0], after[1], after[2], after[3]),
                    len(s.melds),
                    s.unseen,
                    sh,
                    flags,
                )
                counts[t] += 1
                rank += 0.04 * copies
                if explain:
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
            for r2, rt, _ in self._claim_discards(after, int(tile)):
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

    def _claim_tiles(self, after: Situation, claimed: int) -> list[int]:
        """The tiles ``after`` a chow or pung may discard (not the claimed one under 食碰不打)."""
        no_swap = self.ruleset.no_swap_discard
        return [t for t in range(34) if after.counts[t] and not (t == claimed and no_swap)]

    def _claim_discards(self, after: Situation, claimed: int) -> list[tuple[float, Route, int]]:
        """:meth:`_discard_routes` of each discard :meth:`_claim_tiles` allows, in tile order."""
        return self._discard_routes(after, after.counts, self._claim_tiles(after, claimed))[1]
