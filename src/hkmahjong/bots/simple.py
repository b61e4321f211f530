"""The baseline bots: ``random`` (uniform legal actions) and ``efficient`` (牌效: tile efficiency)."""

from __future__ import annotations

from collections.abc import Sequence

from hkmahjong.bots.base import WIN_KINDS, BaseBot, Candidate, Decision, Situation, claim_meld
from hkmahjong.bots.planner import efficiency
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.errors import IllegalActionError
from hkmahjong.rules import Ruleset

__all__ = ["EfficientBot", "RandomBot", "tile_shape_bonus"]


class RandomBot(BaseBot):
    """隨機: a uniformly random legal action from its seeded RNG (for tests and baselines).

    It never declares 詐糊 (``false_win``, offered only at a physical table): no bot attempts a
    win that is not valid.
    """

    name = "random"

    def __init__(
        self,
        seed: int | str | None = 0,
        *,
        ruleset: Ruleset | None = None,
        time_budget: float = 0.5,
    ) -> None:
        super().__init__(seed, ruleset=ruleset, time_budget=time_budget)

    def decide(
        self, view: PlayerView, legal: Sequence[Action], *, explain: bool = False
    ) -> Decision:
        """A uniformly random legal action; the explanation lists every action at score 0.

        :raises IllegalActionError: when ``legal`` is empty.
        """
        if not legal:
            raise IllegalActionError("random bot asked to choose with no legal action")
        pool = [a for a in legal if a.kind is not ActionKind.FALSE_WIN] or list(legal)
        action = pool[self.rng.randrange(len(pool))]
        if not explain:
            return Decision(action)
        from hkmahjong.bots.base import Explanation

        cands = tuple(Candidate(a, 0.0, "uniform") for a in pool)
        return Decision(action, Explanation(self.name, action, cands, "uniformly random"))


def tile_shape_bonus(tile: int, counts: Sequence[int]) -> float:
    """A small preference for discarding isolated honours and terminals first (ties only)."""
    if tile >= 27:
        return 0.3 if counts[tile] == 1 else 0.0
    r = tile % 9
    return 0.2 if r in (0, 8) else (0.1 if r in (1, 7) else 0.0)


class EfficientBot(BaseBot):
    """牌效: lowers shanten, then maximises useful tiles; wins whenever allowed; fan ignored."""

    name = "efficient"

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        s = Situation.of(view, self.ruleset)
        cands: list[Candidate] = []
        base: tuple[int, int] | None = None
        for a in legal:
            if a.kind in WIN_KINDS:
                cands.append(Candidate(a, 1e6, "win"))
            elif a.kind is ActionKind.DISCARD:
                assert a.tile is not None
                t = int(a.tile)
                s.counts[t] -= 1
                sh, useful = efficiency(s, s.counts, len(s.melds))
                s.counts[t] += 1
                score = -100.0 * sh + useful + tile_shape_bonus(t, s.counts)
                cands.append(Candidate(a, score, f"shanten {sh}, {useful} useful"))
            elif a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
                cands.append(self._kong(s, a))
            elif a.kind in (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG):
                if base is None:
                    base = efficiency(s, s.counts, len(s.melds))
                cands.append(self._claim(s, a, base))
            elif a.kind is ActionKind.PASS:
                cands.append(Candidate(a, 0.0, "pass"))
            else:
                cands.append(Candidate(a, -1e6, "never"))
        return cands, ""

    def _kong(self, s: Situation, a: Action) -> Candidate:
        assert a.tile is not None
        t = int(a.tile)
        counts = s.counts[:]
        if a.kind is ActionKind.CONCEALED_KONG:
            counts[t] -= 4
            meld_count = len(s.melds) + 1
        else:
            counts[t] -= 1
            meld_count = len(s.melds)
        sh, useful = efficiency(s, counts, meld_count)
        return Candidate(a, -100.0 * sh + useful + 5, f"shanten {sh} after kong")

    def _claim(self, s: Situation, a: Action, base: tuple[int, int]) -> Candidate:
        tile = s.view.pending_tile
        assert tile is not None
        meld, used = claim_meld(a, tile)
        after = s.with_meld(meld, used)
        if a.kind is ActionKind.KONG:
            sh, useful = efficiency(after, after.counts, len(after.melds))
        else:
            sh, useful = 99, 0
            for t in range(34):
                if after.counts[t]:
                    after.counts[t] -= 1
                    cand = efficiency(after, after.counts, len(after.melds))
                    after.counts[t] += 1
                    if (cand[0], -cand[1]) < (sh, -useful):
                        sh, useful = cand
        gain = base[0] - sh
        score = 50.0 * gain - 10.0 if gain > 0 else -1.0
        return Candidate(a, score, f"shanten {base[0]} -> {sh}")
