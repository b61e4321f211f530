"""``strong`` bot (期望值): win chance × payout of the best route, minus the risk of feeding.

For each action it estimates the jade it expects to win (the best route's win chance × what that
route pays, :func:`~hkmahjong.bots.planner.offense`) and the jade it risks by discarding
(each opponent's readiness × the chance the tile is a winning tile for them × what they would be
paid, :mod:`hkmahjong.bots.danger`), and never makes a liability (包牌) discard it can avoid. It
folds when the risk outweighs its chances: the safest tile simply scores best then.

Its routes are ranked by speed *and* value (:func:`~hkmahjong.bots.planner.value_route`): a
doubling of what a route pays over a minimum-fan win is worth some distance steps, so it goes one
step slower for a 混一色 when the table pays for it (``fan`` ranks distance first). How many
follows the table's pace (:mod:`~hkmahjong.bots.pace`): a step costs more late in a hand and at a
fast table (a 1-fan minimum) than early at a slow one.

Difficulty and style knobs (the practice room's easy / normal / hard / expert):
``aggression`` (weight of its own chances), ``defense`` (weight of the risk), ``value_steps`` and
``value_weight`` (speed vs value: in the route rank, and the exponent on a route's payout in the
fold test) and ``noise`` (random error in its scores).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from hkmahjong.bots.base import Candidate, Situation, claim_meld
from hkmahjong.bots.danger import Threat, feeder_shares, liability_tiles, threats, tile_danger
from hkmahjong.bots.evaluate import winning_tiles
from hkmahjong.bots.fan import FanBot
from hkmahjong.bots.pace import hand_turns, step_cost
from hkmahjong.bots.planner import discard_win_shares, offense, share_value
from hkmahjong.bots.reading import deal_in_probabilities
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.hand import Hand, Meld
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.tiles import Tile, Wind, tiles_from_counts

__all__ = ["LEVELS", "StrongBot", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    """Knobs of the ``strong`` bot."""

    aggression: float = 1.0
    defense: float = 1.0
    value_weight: float = 1.0
    noise: float = 0.0
    fold_ratio: float = 1.5
    """Fold when the risk of the best attacking discard exceeds this share of the hand's EV."""
    fold_floor: float = 1.0
    """Never fold over a risk below this many jade."""
    tiebreak: float = 2.4
    """While attacking: route-rank points given up per minimum deal-in's worth of risk (what
    feeding a minimum-fan win costs this seat: 12 jade in the parlor, 8 in qingzhang, 4 under
    ml), so it weighs alike at every table; it picks the safer of equals.

    2.4 is 0.2 a jade in the parlor ≈ the useful-tile bonus of five copies: it decides between
    discards the route rank leaves (nearly) equal and never trades a distance step (10 points)
    for safety.
    """
    wait_value: float = 0.5
    """Route-rank points per unseen copy of a wait beyond a minimum-fan win's worth: each copy
    counts what that wait pays (0.7 × the discard win + 0.3 × the 自摸) over what a minimum-fan
    win pays, so a wait worth more fan wins the tie against one with as many copies (0: count
    winnable copies only)."""
    value_steps: float = 0.27
    """Speed vs value in the route rank: distance steps one doubling of what a route pays
    (over a minimum-fan win's, from the table's shares and gun scheme) is worth where a step
    costs one doubling of win chance; divided by the table's step cost at this turn
    (:func:`~hkmahjong.bots.pace.step_cost`: about 0.8 steps early in a parlor hand, 0.3 late
    in an ml one). 0: rank routes exactly as ``fan``, distance first. Used for discards,
    claims, kongs and passing."""
    reading: float = 0.0
    """Opt-in: weight of the hand reading learnt from play (:mod:`~hkmahjong.bots.reading`) in
    the deal-in chance of each tile, against ``danger.py``'s readiness × wait weight (0: that
    estimate alone, the default; 1: the learnt model alone). The payment stays ``danger.py``'s."""
    attack_reading: float = 0.0
    """Opt-in: the same mix, but only where this seat attacks — its discards' safety tiebreak
    and its claims' risk; *whether* to fold stays ``danger.py``'s, and the folded discard is
    read with ``fold_reading`` (``reading``, when set, is used everywhere instead)."""
    fold_reading: float = 0.0
    """Opt-in: the same mix, but only in choosing the discard once folded (棄和): the decision to
    fold stays ``danger.py``'s (``fold_ratio`` was tuned on it), the safest tile is read with
    ``fold_reading`` of the learnt model (0: ``danger.py`` alone, the default). ``master`` plays
    1 (docs/bots.md: what it is worth)."""

    def __reduce__(self) -> tuple[type[Style], tuple[object, ...]]:
        """Copy and pickle by the field values: compiled (mypyc), a frozen class's fields cannot
        be set one by one as :mod:`copy` and :mod:`pickle` otherwise do."""
        return (Style, tuple(getattr(self, f.name) for f in fields(self)))


LEVELS: dict[str, Style] = {
    "easy": Style(defense=0.0, value_weight=0.8, noise=3.0),
    "normal": Style(defense=0.4, value_weight=0.9, noise=0.5),
    "hard": Style(defense=0.7, noise=0.05),
    "expert": Style(),
}
"""Difficulty presets (簡單 / 普通 / 困難 / 專家); ``strong`` plays ``expert``."""


def _with_reading(th: list[Threat], view: PlayerView, weight: float) -> list[Threat]:
    """``th`` with each tile's deal-in chance mixed with the learnt model's (``weight`` of it)."""
    probs = deal_in_probabilities(view)
    return [
        replace(
            t,
            p_ready=1.0,
            wait_weight=tuple(
                (1.0 - weight) * t.p_ready * w + weight * p
                for w, p in zip(t.wait_weight, probs[t.seat], strict=True)
            ),
        )
        for t in th
    ]


_HandKey = tuple[tuple[int, ...], tuple[Meld, ...], tuple[Tile, ...], Wind, Wind]
"""A hand as the calculator sees it: concealed counts, melds, bonus tiles, seat, prevailing."""
_WAIT_FANS: IdentityMemo[Ruleset, tuple[bool, int, bool]] = IdentityMemo(limit=50_000)


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
        self._steps_for: tuple[PlayerView, float] | None = None
        if level and level != "expert":
            self.name = f"strong-{level}"

    @property
    def _self_fan(self) -> int:
        """Fan a 自摸 adds under the bound ruleset."""
        return self.ruleset.fan_value(FanId.SELF_DRAWN) or 0

    def _noise(self) -> float:
        n = self.style.noise
        return self.rng.uniform(-n, n) if n else 0.0

    def _score(self, view: PlayerView, legal: list[Action]) -> tuple[list[Candidate], str]:
        cands, summary = super()._score(view, legal)
        kinds = {a.kind for a in legal}
        if not kinds & {ActionKind.DISCARD, ActionKind.CHOW, ActionKind.PUNG}:
            return cands, summary
        s = self._situation(view)
        st = self.style
        th = threats(s)
        test_th = _with_reading(th, view, st.reading) if st.reading else th
        risk_th = test_th
        if st.attack_reading and not st.reading:
            risk_th = _with_reading(th, view, st.attack_reading)
        liab = liability_tiles(s)
        tiebreak = st.defense * st.tiebreak / self._deal_in_unit()
        offered = [c for c in cands if c.action.kind is ActionKind.DISCARD]
        if offered:
            best = max(offered, key=lambda c: c.score)
            assert best.action.tile is not None
            bt = int(best.action.tile)
            s.counts[bt] -= 1
            ev, _, route, p = offense(s, s.counts, value_weight=st.value_weight)
            s.counts[bt] += 1
            best_danger = tile_danger(test_th, bt) + liab.get(bt, 0.0)
        else:
            ev, _, route, p = offense(s, s.counts, value_weight=st.value_weight)
            best_danger = 0.0
        fold = (
            st.defense * best_danger > st.fold_ratio * st.aggression * ev
            and best_danger > st.fold_floor
        )
        if fold:
            risk_th = _with_reading(th, view, st.fold_reading) if st.fold_reading else test_th
        out: list[Candidate] = []
        explain = self._explaining
        for c in cands:
            a = c.action
            if a.kind is ActionKind.DISCARD:
                assert a.tile is not None
                t = int(a.tile)
                danger = tile_danger(risk_th, t) + liab.get(t, 0.0)
                if fold:
                    score = -10.0 * danger + 0.01 * c.score
                else:
                    score = c.score - tiebreak * danger
                    if t in liab:
                        score -= 100.0
                score += self._noise()
                flag = " 包牌!" if t in liab else ""
                note = f"{c.note}; risk {danger:.2f}{flag}" if explain else ""
                out.append(Candidate(a, score, note))
            elif a.kind in (ActionKind.CHOW, ActionKind.PUNG) and c.score > -1e5:
                danger = self._claim_risk(s, a, risk_th, liab)
                score = c.score - tiebreak * danger
                if fold:
                    score = -1e5
                out.append(Candidate(a, score, f"{c.note}; risk {danger:.2f}" if explain else ""))
            else:
                out.append(c)
        if not explain:
            return out, ""
        risk = ", ".join(f"{t.seat.letter} ready {t.p_ready:.0%} ~{t.fan} fan" for t in th)
        mode = "FOLD" if fold else "push"
        plan = (
            f"{mode}: {route.name} d{route.distance} p{p:.2f} EV {ev:.2f} vs risk {best_danger:.2f}"
        )
        return out, f"{summary + '; ' if summary else ''}{plan}; {risk}"

    def _discards(self, s: Situation, discards: list[Action]) -> list[Candidate]:
        """The ``fan`` ranking, with every ready (聽牌) candidate's waits scored exactly."""
        cands = super()._discards(s, discards)
        tiles = [int(a.tile) for a in discards if a.tile is not None]
        _, batch = self._discard_routes(s, s.counts, tiles)
        shanten = {t: sh for t, (_, _, sh) in zip(tiles, batch, strict=True)}
        out: list[Candidate] = []
        for c in cands:
            assert c.action.tile is not None
            t = int(c.action.tile)
            ready = shanten[t] == 0
            if ready and not self.over_budget():
                s.counts[t] -= 1
                by_discard, self_only, worth = self._wait_quality(s, s.counts)
                s.counts[t] += 1
                if by_discard + self_only == 0:
                    out.append(
                        Candidate(c.action, c.score - 12.0, c.note + ", ready but no valid win")
                    )
                else:
                    bonus = 0.15 * by_discard + 0.05 * self_only
                    if self.style.wait_value:
                        # worth beyond what the count above already credits (a 自摸-only copy
                        # counts a third of a winnable one there)
                        bonus += self.style.wait_value * (worth - by_discard - self_only / 3.0)
                    note = (
                        f"{c.note}, waits {by_discard} winnable/{self_only} 自摸 only"
                        f" (worth {worth:.1f} minimum wins)"
                        if self._explaining
                        else ""
                    )
                    out.append(Candidate(c.action, c.score + bonus, note))
                continue
            out.append(c)
        return out

    def _steps(self, view: PlayerView) -> float:
        """Routes are ranked with :meth:`value_steps_now` steps per doubling of their payout
        (worked out once per decision)."""
        known = self._steps_for
        if known is not None and known[0] is view:
            return known[1]
        steps = self.value_steps_now(view)
        self._steps_for = (view, steps)
        return steps

    def _end_decision(self) -> None:
        super()._end_decision()
        self._steps_for = None

    def value_steps_now(self, view: PlayerView) -> float:
        """``value_steps`` over the step cost at this turn of a hand at this table's pace."""
        steps = self.style.value_steps
        if not steps:
            return 0.0
        turn = len(view.discards[view.seat])
        return steps / step_cost(turn, hand_turns(self.ruleset))

    def _wait_quality(self, s: Situation, counts: list[int]) -> tuple[int, int, float]:
        """Unseen copies of waits that win on a discard, of waits that win only by 自摸, and
        their worth: copies weighted by what each wait pays (a discard win 0.7, a 自摸 0.3) over
        what a minimum-fan win pays the same way."""
        r = self.ruleset
        view = s.view
        by_discard = self_only = 0
        worth = 0.0
        unit = self._win_pay(r.min_fan, r.min_fan + self._self_fan)
        waits = [
            t
            for t in winning_tiles(counts, len(s.melds), seven_pairs=r.seven_pairs)
            if s.unseen[t] > 0
        ]
        if not waits:
            return 0, 0, 0.0
        key = (tuple(counts), s.melds, view.bonus[view.seat], view.seat, view.prevailing_wind)
        for t in waits:
            valid, fan, self_valid = self._wait_fan(s, counts, key, t)
            if valid:
                by_discard += s.unseen[t]
                worth += s.unseen[t] * self._win_pay(fan, fan + self._self_fan) / unit
            elif self_valid:
                self_only += s.unseen[t]
                worth += s.unseen[t] * self._win_pay(None, fan + self._self_fan) / unit
        return by_discard, self_only, worth

    def _wait_fan(
        self, s: Situation, counts: list[int], key: _HandKey, t: int
    ) -> tuple[bool, int, bool]:
        """(valid on a discard, fan on a discard, valid by self-draw — asked only when not
        valid on a discard) of winning on ``t`` with ``counts``: the calculator's answer,
        remembered per hand (a ready hand that draws and discards the same tile asks again)."""
        r = self.ruleset
        found = _WAIT_FANS.get(r, (key, t))
        if found is None:
            view = s.view
            hand = Hand((*tiles_from_counts(counts), Tile(t)), s.melds, view.bonus[view.seat])
            ctx = WinContext(
                self_drawn=False,
                seat_wind=view.seat,
                prevailing_wind=view.prevailing_wind,
                winning_tile=Tile(t),
            )
            on_discard = score_hand(hand, ctx, r)
            self_valid = (
                not on_discard.valid_win
                and score_hand(hand, replace(ctx, self_drawn=True), r).valid_win
            )
            found = _WAIT_FANS.put(
                r, (key, t), (on_discard.valid_win, on_discard.total_fan, self_valid)
            )
        return found

    def _deal_in_unit(self) -> float:
        """Jade this seat pays for feeding a minimum-fan win (the gun scheme's share of it)."""
        r = self.ruleset
        return feeder_shares(r) * share_value(r.min_fan, r)

    def _win_pay(self, fan_discard: int | None, fan_self: int) -> float:
        """Jade a win pays as 0.7 × the discard win (if any) + 0.3 × the 自摸 (3 payers)."""
        r = self.ruleset
        cap = r.limit if r.limit is not None else fan_self
        pay = 0.3 * 3.0 * share_value(min(fan_self, cap), r)
        if fan_discard is not None:
            pay += 0.7 * discard_win_shares(r) * share_value(min(fan_discard, cap), r)
        return pay

    def _claim(self, s: Situation, a: Action, pass_rank: float) -> Candidate:
        """The ``fan`` claim, refused when it only leads to a ready hand that cannot win."""
        c = super()._claim(s, a, pass_rank)
        if c.score < -1e5 or a.kind is ActionKind.KONG or self.over_budget():
            return c
        tile = s.view.pending_tile
        assert tile is not None
        meld, used = claim_meld(a, tile)
        after = s.with_meld(meld, used)
        ready_any = winnable = False
        tiles = self._claim_tiles(after, int(tile))
        for t, (_, _, sh) in zip(tiles, self._claim_discards(after, int(tile)), strict=True):
            if sh == 0:
                ready_any = True
                after.counts[t] -= 1
                d, so, _ = self._wait_quality(after, after.counts)
                after.counts[t] += 1
                winnable = winnable or d + so > 0
            if winnable:
                break
        if ready_any and not winnable:
            return Candidate(a, -1e6, c.note + "; ready but no valid win after it")
        return c

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
        tiles = self._claim_tiles(after, int(tile))
        for t, (rank, _, _) in zip(tiles, self._claim_discards(after, int(tile)), strict=True):
            ranked.append((rank, t))
            best_rank = max(best_rank, rank)
        good = [t for rank, t in ranked if rank >= best_rank - 1.0]
        return min(tile_danger(th, t) + liab.get(t, 0.0) for t in good) if good else 0.0
