"""戰績 (history and statistics): what each finished hand and match means for each player.

Plain data from the engine's results, for the store to keep and the pages to show (docs/history.md):

- :func:`summarize_outcome` turns a finished hand — the engine's typed ``HandOutcome`` (the
  wins with their fan breakdown, the payment lines with their :class:`PaymentKind`), who sat
  where and the ledger deltas — into one :class:`SeatHand` per player: won or not, 自摸 or off whom, 放銃 to whom,
  the fan and its patterns, 包牌 paid, the points won or lost. :meth:`HandSummary.detail` is the
  whole hand as JSON (a replay or hand page reuses it as it is); :func:`summarize_hand` reads a
  hand back from that JSON by the same rules.
- :func:`summarize_match` gives each player's total, place (ties share a place) and jade.
- :class:`Tally` / :class:`Stats` define the statistics (what counts as a deal-in, the
  denominators); the SQL store computes the same tallies as aggregates, :func:`tally` computes them
  here (the reference the store is tested against).

A deal-in (放銃) is feeding a winner: being the ``discarder`` of a win (including a kong robbed
from you, 搶槓). A seat that fed two winners at once (一炮雙響) dealt in once, that hand.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.stakes import staked_shares
from hkmahjong.parlor.wire import outcome_json
from hkmahjong.rules import FanId
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.payment import PaymentKind

if TYPE_CHECKING:
    from hkmahjong.engine.events import HandOutcome
    from hkmahjong.engine.runner import HandEnd

__all__ = [
    "FanCount",
    "HandSummary",
    "HistoryError",
    "MatchSummary",
    "MatchTally",
    "SeatHand",
    "SeatMatch",
    "Stats",
    "TableFacts",
    "TableResults",
    "Tally",
    "fan_counts",
    "fan_names",
    "match_tally",
    "places",
    "ruleset_family",
    "summarize_hand",
    "summarize_hand_end",
    "summarize_match",
    "summarize_outcome",
    "tally",
]

WINDS = "ESWN"


class HistoryError(MahjongError):
    """A hand or match result that cannot be summarised (names what is wrong)."""


@dataclass(frozen=True, slots=True)
class FanCount:
    """一個番種 in a win: its id (``FanId`` value), how many times it counted, and its fan."""

    id: str
    count: int = 1
    fan: int = 0


@dataclass(frozen=True, slots=True)
class SeatHand:
    """一局一家: one player's part in one finished hand."""

    player: int
    seat: str
    """The seat wind letter (E S W N) this hand."""
    dealer: bool
    won: bool = False
    self_drawn: bool = False
    """自摸 (including 花糊 paid as a self-draw); False for a win off a discard or a robbed kong."""
    fed_by: int | None = None
    """The player whose discard (or kong) this winner won on; None for a self-draw or no win."""
    dealt_in: bool = False
    """放銃: this player was the discarder of at least one win this hand."""
    fed_to: tuple[int, ...] = ()
    """The winners this player fed (several on 一炮多響)."""
    false_win: bool = False
    """詐糊 declared by this player this hand."""
    drawn: bool = False
    """流局: nobody won the hand."""
    fan: int | None = None
    """The win's total fan (None without a win)."""
    limit: bool = False
    """The win was a limit hand (爆棚 / 滿糊)."""
    fans: tuple[FanCount, ...] = ()
    """The win's fan breakdown."""
    delta: int | float = 0
    """Points won (+) or lost (-) this hand, as the match's ledger has it."""
    liability_paid: int = 0
    """包牌: what this player paid as the liable seat (the amounts of its payment lines whose
    kind is liable, ``PaymentKind.liable``), whoever won."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """一局: a finished hand, by player, and the outcome it came from."""

    number: int
    dealer: int
    """The dealer's player number."""
    prevailing: str
    players: tuple[int, int, int, int]
    """The player at each seat, 東 南 西 北."""
    seats: tuple[SeatHand, SeatHand, SeatHand, SeatHand]
    """By player number."""
    outcome: Mapping[str, Any]
    """``outcome_json`` of the hand (seats as wind letters)."""
    end_seq: int | None = None
    """The log line number of the hand's ``end`` line (where a replay stops), when known."""

    @property
    def drawn(self) -> bool:
        """流局."""
        return bool(self.outcome.get("drawn"))

    def detail(self, names: Sequence[str] = ()) -> dict[str, Any]:
        """The hand as JSON for its page (and a replay page): number, dealer, prevailing wind,
        the player at each seat, the players' ``names`` (by player), the deltas by player, the
        full outcome (fan breakdowns, payments), the log line of its end."""
        return {
            "hand": self.number,
            "dealer": self.dealer,
            "prevailing": self.prevailing,
            "players": list(self.players),
            "names": list(names),
            "deltas": [s.delta for s in self.seats],
            "outcome": dict(self.outcome),
            "end_seq": self.end_seq,
        }


@dataclass(frozen=True, slots=True)
class _Win:
    """What a hand's summary needs of one win, by player number."""

    winner: int
    self_drawn: bool
    fed_by: int | None
    fan: int
    limit: bool
    fans: tuple[FanCount, ...]


def _player(players: Sequence[int], letter: object, what: str) -> int:
    if not isinstance(letter, str) or letter not in WINDS:
        raise HistoryError(f"{what}: expected a seat letter E/S/W/N, got {letter!r}")
    return players[WINDS.index(letter)]


def _check_seating(players: Sequence[int], deltas: Sequence[int | float]) -> None:
    if sorted(players) != [0, 1, 2, 3]:
        raise HistoryError(f"the four seats need players 0-3 once each, got {list(players)!r}")
    if len(deltas) != 4:
        raise HistoryError(f"four deltas (by player) expected, got {list(deltas)!r}")


def _summary(
    number: int,
    players: Sequence[int],
    deltas: Sequence[int | float],
    *,
    drawn: bool,
    wins: Iterable[_Win],
    false_winners: Iterable[int],
    liable: Iterable[tuple[int, int]],
    outcome: Mapping[str, Any],
    prevailing: str,
    end_seq: int | None,
) -> HandSummary:
    """The one summariser: the hand's facts by player (``liable``: (payer, amount) of each 包牌
    payment) into a :class:`HandSummary`."""
    seats: dict[int, dict[str, Any]] = {
        p: {"player": p, "seat": WINDS[i], "dealer": i == 0, "delta": deltas[p]}
        for i, p in enumerate(players)
    }
    for win in wins:
        seat = seats[win.winner]
        seat["won"] = True
        seat["self_drawn"] = win.self_drawn
        seat["fan"] = win.fan
        seat["limit"] = win.limit
        seat["fans"] = win.fans
        if win.fed_by is not None:
            if win.fed_by == win.winner:
                raise HistoryError(f"player {win.winner} cannot win on its own discard")
            seat["fed_by"] = win.fed_by
            seats[win.fed_by]["dealt_in"] = True
            seats[win.fed_by]["fed_to"] = (*seats[win.fed_by].get("fed_to", ()), win.winner)
    for player in false_winners:
        seats[player]["false_win"] = True
    for payer, amount in liable:
        seats[payer]["liability_paid"] = seats[payer].get("liability_paid", 0) + amount
    by_player = tuple(SeatHand(**seats[p], drawn=drawn) for p in range(4))
    return HandSummary(
        number,
        players[0],
        prevailing,
        (players[0], players[1], players[2], players[3]),
        (by_player[0], by_player[1], by_player[2], by_player[3]),
        dict(outcome),
        end_seq,
    )


def summarize_outcome(
    number: int,
    players: Sequence[int],
    outcome: HandOutcome,
    deltas: Sequence[int | float],
    *,
    prevailing: str = "E",
    end_seq: int | None = None,
) -> HandSummary:
    """The hand by player, from the engine's typed :class:`~hkmahjong.engine.events.HandOutcome`
    (its wins, false wins and payment lines, whose :class:`~hkmahjong.scoring.payment.PaymentKind`
    says which are 包牌); its ``outcome_json`` is kept only as the hand's page detail.

    ``players`` are the player numbers at 東 南 西 北 this hand (東 deals); ``deltas`` the
    points each player (by player number) got, as the match's ledger entry has them.

    :raises HistoryError: when the seating is malformed.
    """
    _check_seating(players, deltas)
    wins = [
        _Win(
            players[w.seat],
            w.self_drawn,
            None if w.discarder is None else players[w.discarder],
            w.result.total_fan,
            w.result.is_limit,
            tuple(FanCount(i.fan_id.value, i.count, i.fan) for i in w.result.items),
        )
        for w in outcome.wins
    ]
    return _summary(
        number,
        players,
        deltas,
        drawn=outcome.drawn,
        wins=wins,
        false_winners=[players[w] for w in outcome.false_winners],
        liable=[(players[p.payer], p.amount) for p in outcome.payments if p.kind.liable],
        outcome=outcome_json(outcome),
        prevailing=prevailing,
        end_seq=end_seq,
    )


def summarize_hand(
    number: int,
    players: Sequence[int],
    outcome: Mapping[str, Any],
    deltas: Sequence[int | float],
    *,
    prevailing: str = "E",
    end_seq: int | None = None,
) -> HandSummary:
    """The hand by player, read back from its outcome JSON (``outcome_json``: seats as wind
    letters; a hand kept before, a page's detail). Which payments are 包牌 is the payment's
    ``kind`` (a :class:`~hkmahjong.scoring.payment.PaymentKind` value), never its words.

    :raises HistoryError: when the outcome or seating is malformed.
    """
    _check_seating(players, deltas)
    wins = []
    for win in outcome.get("wins", ()):
        score = win.get("score") or {}
        fed = win.get("discarder")
        wins.append(
            _Win(
                _player(players, win.get("seat"), "a win's seat"),
                bool(win.get("self_drawn")),
                None if fed is None else _player(players, fed, "a win's discarder"),
                int(score.get("total_fan", 0)),
                bool(score.get("is_limit")),
                tuple(
                    FanCount(str(i["id"]), int(i.get("count", 1)), int(i.get("fan", 0)))
                    for i in score.get("items", ())
                ),
            )
        )
    liable = []
    for pay in outcome.get("payments", ()):
        try:
            kind = PaymentKind(pay.get("kind"))
        except ValueError:
            raise HistoryError(f"a payment's kind: got {pay.get('kind')!r}") from None
        if kind.liable:
            liable.append(
                (_player(players, pay.get("from"), "a payment's payer"), int(pay["amount"]))
            )
    false = [
        _player(players, f.get("seat"), "a false win's seat") for f in outcome.get("false_wins", ())
    ]
    return _summary(
        number,
        players,
        deltas,
        drawn=bool(outcome.get("drawn")),
        wins=wins,
        false_winners=false,
        liable=liable,
        outcome=outcome,
        prevailing=prevailing,
        end_seq=end_seq,
    )


def summarize_hand_end(
    end: HandEnd, players: Sequence[int], *, end_seq: int | None = None
) -> HandSummary:
    """:func:`summarize_outcome` of the engine's :class:`~hkmahjong.engine.runner.HandEnd`
    (``players``: the player at each seat that hand, e.g. ``runner.player_at``)."""
    return summarize_outcome(
        end.hand.number,
        players,
        end.outcome,
        end.entry.deltas,
        prevailing=end.hand.prevailing.letter,
        end_seq=end_seq,
    )


# --- matches -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatMatch:
    """一場一家: one player's result of a finished match."""

    player: int
    total: int | float
    """Points won or lost over the match."""
    place: int
    """1-4; tied totals share the better place (1, 2, 2, 4)."""
    jade: int | None
    """Jade won or lost at the table: at a staked table its share of the staked settlement less
    the stake, less the entry fee; at an unstaked online table minus the fee; None at practice."""


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """一場: the number of hands played and each player's result, by player."""

    hands: int
    seats: tuple[SeatMatch, SeatMatch, SeatMatch, SeatMatch]


def places(totals: Sequence[int | float]) -> list[int]:
    """名次 by total, higher first; equal totals share the better place.

    >>> places([10, -5, 10, -15])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def summarize_match(
    totals: Sequence[int | float],
    hands: int,
    *,
    kind: str = "online",
    stake: int | None = None,
    fee: int = 0,
) -> MatchSummary:
    """Each player's total, place and jade (see :class:`SeatMatch`).

    :raises HistoryError: without four totals.
    :raises MahjongError: when a staked table's totals are not whole jade.
    """
    if len(totals) != 4:
        raise HistoryError(f"four totals expected, got {list(totals)!r}")
    ranks = places(totals)
    if kind != "online":
        jades: list[int | None] = [None] * 4
    elif stake:
        jades = [share - stake - fee for share in staked_shares(stake, totals)]
    else:
        jades = [-fee] * 4
    seats = tuple(SeatMatch(p, totals[p], ranks[p], jades[p]) for p in range(4))
    return MatchSummary(hands, (seats[0], seats[1], seats[2], seats[3]))


@dataclass(frozen=True, slots=True)
class TableFacts:
    """Who sat at a table and under which rules: what every row of its history carries."""

    kind: str
    """``practice`` or ``online``."""
    family: str
    """The ruleset family (:func:`ruleset_family`)."""
    digest: str
    """The ruleset's digest (one exact ruleset)."""
    names: tuple[str, str, str, str]
    user_ids: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    bots: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)
    length: str = "online"
    stake: int | None = None
    fee: int = 0


@dataclass(frozen=True, slots=True)
class TableResults:
    """What a table hands the store when hands (and the match) end: kept in the same
    transaction as the record lines that end them, and idempotent (a hand or match already kept
    is skipped)."""

    facts: TableFacts
    hands: tuple[HandSummary, ...] = ()
    match: MatchSummary | None = None
    match_end_seq: int | None = None
    """The log line of the match's footer, when known."""


def ruleset_family(spec: Mapping[str, Any]) -> str:
    """台例系列 of a table's ``rules_spec``: the preset it is, or the preset its TOML is written
    as changes to (``preset = "parlor"`` and overrides), else ``custom``. Ratings and
    leaderboards are kept per family; statistics can also be narrowed to one exact ruleset (its
    digest).

    >>> ruleset_family({"preset": "parlor", "digest": "x"})
    'parlor'
    >>> ruleset_family({"toml": 'preset = "qz"\\nmin_fan = 1', "digest": "x"})
    'qingzhang'
    >>> ruleset_family({"toml": "min_fan = 1", "digest": "x"})
    'custom'
    """
    name = spec.get("preset")
    if name is None and isinstance(spec.get("toml"), str):
        try:
            name = tomllib.loads(str(spec["toml"])).get("preset")
        except tomllib.TOMLDecodeError:
            name = None
    if not isinstance(name, str):
        return "custom"
    try:
        return get_preset(name).name
    except MahjongError:
        return "custom"


# --- statistics ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tally:
    """The counts behind a player's hand statistics (sums over their :class:`SeatHand` rows)."""

    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    draws: int = 0
    false_wins: int = 0
    fan_total: int = 0
    points: int | float = 0
    liability_paid: int = 0
    liable_hands: int = 0


def tally(rows: Iterable[SeatHand]) -> Tally:
    """The :class:`Tally` of these rows (one player's hands)."""
    hands = wins = selfs = deal_ins = draws = falses = fan = liable_hands = liability = 0
    points: int | float = 0
    for r in rows:
        hands += 1
        wins += r.won
        selfs += r.won and r.self_drawn
        deal_ins += r.dealt_in
        draws += r.drawn
        falses += r.false_win
        fan += (r.fan or 0) if r.won else 0
        points += r.delta
        liability += r.liability_paid
        liable_hands += r.liability_paid > 0
    return Tally(hands, wins, selfs, deal_ins, draws, falses, fan, points, liability, liable_hands)


def _rate(part: int | float, whole: int | float) -> float | None:
    return None if not whole else part / whole


@dataclass(frozen=True, slots=True)
class Stats:
    """統計 from a :class:`Tally`. Every rate is None when its denominator is 0.

    - ``win_rate`` 食糊率 = wins / hands played (every hand dealt to the player, drawn ones too);
    - ``self_draw_share`` 自摸率 = self-drawn wins / wins;
    - ``deal_in_rate`` 放銃率 = hands in which the player fed a winner / hands played;
    - ``average_fan`` 平均番數 = total fan of the wins / wins (a limit hand counts its limit);
    - ``draw_rate`` 流局率 = drawn hands / hands played;
    - ``points_per_hand`` = points won less lost / hands played.
    """

    tally: Tally

    @property
    def win_rate(self) -> float | None:
        """食糊率."""
        return _rate(self.tally.wins, self.tally.hands)

    @property
    def self_draw_share(self) -> float | None:
        """自摸率 (of the wins)."""
        return _rate(self.tally.self_draws, self.tally.wins)

    @property
    def deal_in_rate(self) -> float | None:
        """放銃率."""
        return _rate(self.tally.deal_ins, self.tally.hands)

    @property
    def average_fan(self) -> float | None:
        """平均番數 of a win."""
        return _rate(self.tally.fan_total, self.tally.wins)

    @property
    def draw_rate(self) -> float | None:
        """流局率."""
        return _rate(self.tally.draws, self.tally.hands)

    @property
    def points_per_hand(self) -> float | None:
        """Average points per hand played."""
        return _rate(self.tally.points, self.tally.hands)

    def to_json(self) -> dict[str, Any]:
        """The tally and the rates."""
        t = self.tally
        return {
            "hands": t.hands,
            "wins": t.wins,
            "self_draws": t.self_draws,
            "deal_ins": t.deal_ins,
            "draws": t.draws,
            "false_wins": t.false_wins,
            "fan_total": t.fan_total,
            "points": t.points,
            "liability_paid": t.liability_paid,
            "liable_hands": t.liable_hands,
            "win_rate": self.win_rate,
            "self_draw_share": self.self_draw_share,
            "deal_in_rate": self.deal_in_rate,
            "average_fan": self.average_fan,
            "draw_rate": self.draw_rate,
            "points_per_hand": self.points_per_hand,
        }


def fan_counts(rows: Iterable[SeatHand]) -> dict[str, int]:
    """How many of these wins scored each pattern (a pattern counted once per win, however many
    times it scored in it), most frequent first."""
    found: Counter[str] = Counter()
    for r in rows:
        if r.won:
            found.update({f.id for f in r.fans})
    return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


def fan_names(fan_id: str) -> dict[str, str]:
    """A pattern's names from the scoring layer (繁體, 简体, English); its id for all three when
    the id is not a known pattern (a record from a newer version)."""
    try:
        fan = FanId(fan_id)
    except ValueError:
        return {"zh": fan_id, "zh_hans": fan_id, "en": fan_id}
    return {"zh": fan.zh, "zh_hans": fan.zh_hans, "en": fan.en}


@dataclass(frozen=True, slots=True)
class MatchTally:
    """The counts behind a player's match statistics."""

    matches: int = 0
    place_counts: tuple[int, int, int, int] = (0, 0, 0, 0)
    jade: int = 0
    """Jade won less lost over the matches that had jade (:attr:`SeatMatch.jade`)."""
    points: int | float = 0

    @property
    def average_place(self) -> float | None:
        """平均名次."""
        if not self.matches:
            return None
        return sum((i + 1) * n for i, n in enumerate(self.place_counts)) / self.matches

    @property
    def first_rate(self) -> float | None:
        """Share of matches in first place (ties included)."""
        return _rate(self.place_counts[0], self.matches)


def match_tally(rows: Iterable[SeatMatch]) -> MatchTally:
    """The :class:`MatchTally` of one player's match results."""
    counts = [0, 0, 0, 0]
    n = jade = 0
    points: int | float = 0
    for r in rows:
        n += 1
        counts[r.place - 1] += 1
        jade += r.jade or 0
        points += r.total
    return MatchTally(n, (counts[0], counts[1], counts[2], counts[3]), jade, points)
