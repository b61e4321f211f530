"""建議 Advice: what to play and why, as plain data for the terminal and web parlors' hints.

:func:`advise` asks the ``strong`` bot for its choice and gives the reasons a player reads in
mahjong terms — never the bot's internal scores:

- the shanten (向聽) before and after the action, and the route (番路) it aims at: its patterns as
  :class:`~hkmahjong.rules.FanId` values, how many tiles away it is and the fan it can reach;
- when the hand is ready (聽牌) after the action, every wait with the copies this seat cannot see
  and its fan on a discard and on a self-draw, scored by the calculator
  (:func:`~hkmahjong.scoring.score_waits`, the same call as ``hkmj score`` on a 13-tile hand);
- when it is not, the useful tiles (有效牌) and their unseen copies;
- for a discard, its danger (放銃 risk) as this seat can read it, and how many steps toward a win
  the advice gives up for safety or value.

There is no text in here: the screens render it in their language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum

from hkmahjong.bots.base import Bot, Situation, claim_meld
from hkmahjong.bots.danger import feeder_shares, liability_tiles, threats, tile_danger
from hkmahjong.bots.planner import value_route
from hkmahjong.bots.strong import StrongBot
from hkmahjong.engine import Action, ActionKind, PlayerView
from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import Hand, Meld, MeldKind, shanten, useful_tiles
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.scoring import WinContext, score_waits
from hkmahjong.scoring.payment import share_for
from hkmahjong.tiles import Suit, Tile, Wind

__all__ = [
    "READY_CHANCE",
    "Advice",
    "Danger",
    "DangerLevel",
    "Goal",
    "WaitFan",
    "advise",
    "wait_fans",
]

READY_CHANCE = 0.5
"""An opponent whose estimated chance of being ready (聽牌) is at least this is named in
:attr:`Danger.ready`."""


class DangerLevel(IntEnum):
    """放銃 risk of a discard, from what this seat can see."""

    SAFE = 0
    """Nobody can be waiting on it as far as this seat can tell (no copy unseen, or no opponent
    has played a tile yet)."""
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    """Feeding a win is likely enough to cost about a tenth of a minimum deal-in or more."""


_SUITS = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
_LEVELS = ((0.03, DangerLevel.LOW), (0.1, DangerLevel.MEDIUM))
"""Expected loss as a share of a minimum-fan deal-in below which a level applies."""


@dataclass(frozen=True, slots=True)
class WaitFan:
    """聽牌: one winning tile, the copies this seat cannot see, and the fan of winning on it."""

    tile: Tile
    left: int
    on_discard: int | None
    """Fan of a win on a discard; None when that is not a valid win (below the minimum)."""
    self_drawn: int | None
    """Fan of a self-drawn win (自摸); None when that is not a valid win either."""


@dataclass(frozen=True, slots=True)
class Goal:
    """番路: the hand the advice aims at (the strong bot's route rank: speed and value)."""

    distance: int
    """Tiles away from ready on this route (its shanten; 0 = ready)."""
    fans: tuple[FanId, ...]
    """The patterns the route is built on (empty: any hand, 雞糊 and what it already holds)."""
    value_tiles: tuple[Tile, ...]
    """Honour pairs the route makes into 番牌 pungs."""
    suit: Suit | None
    """The suit a 混一色 / 清一色 route keeps, else None."""
    fan_on_discard: int
    """Fan the route's hand reaches on a discard, by the ruleset's fan table (an estimate until
    the hand is ready: then :attr:`Advice.waits` holds the exact fan of each wait)."""
    fan_self_drawn: int


@dataclass(frozen=True, slots=True)
class Danger:
    """放銃: how risky a discard is, read only from what this seat sees."""

    tile: Tile
    level: DangerLevel
    expected_loss: float
    """Jade this seat may expect to lose by discarding it (chance of feeding × what it pays)."""
    liability: bool
    """Discarding it could make this seat liable (包牌) for an opponent's limit hand."""
    ready: tuple[Wind, ...]
    """Opponents who look ready (chance at least :data:`READY_CHANCE`)."""


@dataclass(frozen=True, slots=True)
class Advice:
    """建議: the suggested action and the reasons for it, as data."""

    action: Action
    seat: Wind
    """The seat advised (the seats in :attr:`Danger.ready` are relative to it at the table)."""
    shanten_now: int
    """向聽 of the hand as it stands (-1: it is complete)."""
    shanten: int
    """向聽 after the action (after a claim: after its best discard)."""
    goal: Goal | None
    """The route aimed at after the action (None for a win)."""
    waits: tuple[WaitFan, ...]
    """When ready after the action: every wait with its unseen copies and fan."""
    useful: tuple[tuple[Tile, int], ...]
    """When not ready: tiles that lower the shanten and fit the goal's suits, with unseen copies,
    most first."""
    danger: Danger | None
    """For a discard: its risk."""
    steps_given_up: int = 0
    """Shanten steps this discard gives up against the fastest one (for safety or value)."""
    safer: bool = False
    """A faster discard exists but is more dangerous than this one."""


def wait_fans(hand: Hand, view: PlayerView, ruleset: Ruleset) -> tuple[WaitFan, ...]:
    """聽牌計番: each wait of a 13-tile ``hand`` with its unseen copies and fan for ``view.seat``.

    The fan is the calculator's (:func:`~hkmahjong.scoring.score_waits`) for a win on a discard
    and a self-draw by this seat in this round, without the moment's extras (海底, 槓上開花 …).

    :raises InvalidHandError: when ``hand`` does not hold 13 tiles (kongs count 3).
    """
    seen = view.visible_counts()
    ctx = WinContext(seat_wind=view.seat, prevailing_wind=view.prevailing_wind)
    on_discard = score_waits(hand, ctx, ruleset)
    self_drawn = dict(score_waits(hand, replace(ctx, self_drawn=True), ruleset))
    out = []
    for tile, result in on_discard:
        drawn = self_drawn[tile]
        out.append(
            WaitFan(
                tile,
                max(0, 4 - seen[tile]),
                result.total_fan if result.valid_win else None,
                drawn.total_fan if drawn.valid_win else None,
            )
        )
    return tuple(out)


def advise(
    view: PlayerView,
    legal: Sequence[Action],
    ruleset: Ruleset,
    *,
    action: Action | None = None,
    bot: Bot | None = None,
) -> Advice:
    """建議: the ``strong`` bot's choice among ``legal`` (or ``action``) and why, for ``view.seat``.

    :raises IllegalActionError: when ``legal`` is empty.
    """
    advisor = bot if bot is not None else StrongBot(0, ruleset=ruleset)
    chosen = action if action is not None else advisor.choose(view, legal)
    steps = advisor.value_steps_now(view) if isinstance(advisor, StrongBot) else 0.0
    s = Situation.of(view, ruleset)
    hand = view.hand
    now = _shanten(hand, ruleset)
    kind = chosen.kind
    if kind in (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN):
        return Advice(chosen, view.seat, now, -1, None, (), (), None)
    after, situation = _after(chosen, view, s)
    danger: Danger | None = None
    given_up = 0
    safer = False
    if after.tile_count == 14:
        after, situation = _best_discard(after, situation, ruleset, steps)
    if kind is ActionKind.DISCARD and chosen.tile is not None:
        danger = _danger(s, chosen.tile, ruleset)
        given_up, safer = _given_up(s, hand, chosen.tile, legal, ruleset)
    counts = situation.counts
    _, route = value_route(situation, counts, steps)
    goal = Goal(
        route.distance,
        route.goals,
        route.value_tiles,
        _SUITS[route.suit] if route.suit is not None else None,
        route.fan_discard,
        route.fan_self,
    )
    sh = _shanten(after, ruleset)
    waits: tuple[WaitFan, ...] = ()
    useful: tuple[tuple[Tile, int], ...] = ()
    if sh == 0:
        waits = wait_fans(after, view, ruleset)
    else:
        others = _others(view, hand)
        try:
            found = useful_tiles(after, others, seven_pairs=ruleset.seven_pairs)
        except InvalidHandError:
            found = {}
        on_route = {t: n for t, n in found.items() if n > 0 and route.keeps(t)}
        useful = tuple(sorted(on_route.items(), key=lambda kv: (-kv[1], kv[0])))
    return Advice(chosen, view.seat, now, sh, goal, waits, useful, danger, given_up, safer)


def _shanten(hand: Hand, ruleset: Ruleset) -> int:
    try:
        return shanten(
            hand,
            seven_pairs=ruleset.seven_pairs,
            thirteen_orphans=ruleset.plays(FanId.THIRTEEN_ORPHANS),
        )
    except InvalidHandError:
        return 8


def _others(view: PlayerView, hand: Hand) -> list[int]:
    """Copies of each kind seen outside this seat's own hand (for the useful-tile counts)."""
    own = hand.all_counts()
    return [max(0, s - o) for s, o in zip(view.visible_counts(), own, strict=True)]


def _after(action: Action, view: PlayerView, s: Situation) -> tuple[Hand, Situation]:
    """The hand (and the bot's counts) once ``action`` is played (14 tiles after a chow/pung)."""
    hand = view.hand
    kind = action.kind
    if kind is ActionKind.DISCARD and action.tile is not None:
        counts = s.counts[:]
        counts[action.tile] -= 1
        return hand.remove(action.tile), replace(s, counts=counts)
    if (
        kind in (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG)
        and view.pending_tile is not None
    ):
        meld, used = claim_meld(action, view.pending_tile)
        return _with_meld(hand, meld, used), s.with_meld(meld, used)
    if kind is ActionKind.CONCEALED_KONG and action.tile is not None:
        meld = Meld(MeldKind.CONCEALED_KONG, action.tile)
        return _with_meld(hand, meld, [int(action.tile)] * 4), s.with_meld(meld, [action.tile] * 4)
    if kind is ActionKind.ADDED_KONG and action.tile is not None:
        melds = tuple(
            Meld(MeldKind.ADDED_KONG, m.first, m.source)
            if m.kind is MeldKind.PUNG and m.first == action.tile
            else m
            for m in hand.melds
        )
        counts = s.counts[:]
        counts[action.tile] -= 1
        kong_hand = Hand(hand.remove(action.tile).concealed, melds, hand.bonus)
        return kong_hand, replace(s, counts=counts, melds=melds)
    return hand, s


def _with_meld(hand: Hand, meld: Meld, used: Sequence[int]) -> Hand:
    concealed = list(hand.concealed)
    for t in used:
        concealed.remove(Tile(t))
    return Hand(tuple(concealed), (*hand.melds, meld), hand.bonus)


def _best_discard(
    hand: Hand, s: Situation, ruleset: Ruleset, steps: float
) -> tuple[Hand, Situation]:
    """After a claim: the discard the route rank likes best (the hand is then 13 tiles)."""
    best: tuple[float, int] | None = None
    for t in range(34):
        if s.counts[t] <= 0:
            continue
        s.counts[t] -= 1
        rank, _ = value_route(s, s.counts, steps)
        s.counts[t] += 1
        if best is None or rank > best[0]:
            best = (rank, t)
    assert best is not None
    counts = s.counts[:]
    counts[best[1]] -= 1
    return hand.remove(Tile(best[1])), replace(s, counts=counts)


def _danger(s: Situation, tile: Tile, ruleset: Ruleset) -> Danger:
    """The discard's risk: the strong bot's estimate (:mod:`hkmahjong.bots.danger`), as a level."""
    th = threats(s)
    liab = liability_tiles(s)
    loss = tile_danger(th, int(tile)) + liab.get(int(tile), 0.0)
    unit = feeder_shares(ruleset) * float(share_for(ruleset.min_fan, ruleset))
    if loss <= 0.0:
        level = DangerLevel.SAFE
    else:
        level = DangerLevel.HIGH
        for bound, name in _LEVELS:
            if loss < bound * unit:
                level = name
                break
    ready = tuple(t.seat for t in th if t.p_ready >= READY_CHANCE)
    return Danger(tile, level, loss, int(tile) in liab, ready)


def _given_up(
    s: Situation, hand: Hand, tile: Tile, legal: Sequence[Action], ruleset: Ruleset
) -> tuple[int, bool]:
    """Shanten steps discarding ``tile`` gives up against the fastest discard, and whether
    every faster discard is more dangerous."""
    by_tile: dict[Tile, int] = {}
    for a in legal:
        if a.kind is ActionKind.DISCARD and a.tile is not None and a.tile not in by_tile:
            by_tile[a.tile] = _shanten(hand.remove(a.tile), ruleset)
    if tile not in by_tile:
        return 0, False
    fastest = min(by_tile.values())
    given_up = by_tile[tile] - fastest
    if given_up <= 0:
        return 0, False
    th = threats(s)
    liab = liability_tiles(s)

    def risk(t: Tile) -> float:
        return tile_danger(th, int(t)) + liab.get(int(t), 0.0)

    mine = risk(tile)
    faster = [t for t, sh in by_tile.items() if sh < by_tile[tile]]
    return given_up, all(risk(t) > mine for t in faster)
