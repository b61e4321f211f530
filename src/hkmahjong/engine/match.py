"""一場 (a match): players and seats, dealer rotation (連莊), wind rounds, lengths and the jade ledger.

docs/rules.md §2: the dealer stays (連莊) on a dealer win or a drawn hand; otherwise the deal passes to
the next player and every seat wind moves one place; when the deal has passed all four players the
prevailing wind (圈風) advances. A dealer's false win (詐糊, §11) ends the deal. The ledger keeps the
jade (玉) each player won or paid in every hand and in total.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hkmahjong.errors import MahjongError
from hkmahjong.tiles import Wind

__all__ = [
    "BANKRUPTCY_START",
    "TABLE_KINDS",
    "Amount",
    "HandResult",
    "LedgerEntry",
    "Match",
    "MatchError",
    "MatchLength",
]

Amount = int | float
"""Jade (玉). Whole numbers except on tables whose 雞糊 share is ½."""


class MatchError(MahjongError):
    """A match used wrongly: a hand recorded after the end, deltas that do not sum to zero, ..."""


TABLE_KINDS = ("practice", "online", "league")
"""Where a match is played: a practice table (one person and three bots), an online table
(people, perhaps staked) and a league's table."""

BANKRUPTCY_START = 1000
"""打到破產: the jade each player starts a match until bankruptcy with (seeds silent; *decision*:
enough for about five limit hands paid by one player at the parlor, 5 × 192). The web parlor's
practice tables and the terminal game both start there (:attr:`MatchLength.start_balance`)."""


class MatchLength(Enum):
    """場 length: how long a match lasts, and where it may be played (docs/rules.md §2).

    The one place that knows a length's names (繁 / 简 / English, aliases), its end, which table
    kinds may play it (:meth:`offered` — seed 003 (P) "麻雀馆的单人练习可选择牌局长度：四圈、八局、
    十六局或打至有人破产。线上对局为四局"; seed 002 (ML) 單局 / 東圈 / 四圈) and what a player
    starts with (:attr:`start_balance`). ``OPEN`` (不限) never ends by itself: simulations cap it
    with ``Match.max_hands``; no table plays it.
    """

    ONE_HAND = "one-hand"
    EAST_ROUND = "east-round"
    FOUR_ROUNDS = "four-rounds"
    EIGHT_HANDS = "8-hands"
    SIXTEEN_HANDS = "16-hands"
    BANKRUPTCY = "bankruptcy"
    ONLINE = "online"
    OPEN = "open"

    @property
    def zh(self) -> str:
        """The Chinese (繁體) name shown to players."""
        return _LENGTH_LABELS[self][0]

    def label(self, lang: str) -> str:
        """The name in ``lang``: ``zh-Hant`` (or ``zh``), ``zh-Hans`` or ``en``.

        >>> MatchLength.ONLINE.label("en")
        '4 hands'
        """
        index = {"zh-Hans": 1, "zh_hans": 1, "en": 2}.get(lang, 0)
        return _LENGTH_LABELS[self][index]

    @property
    def hand_limit(self) -> int | None:
        """局數: the number of hands (repeated dealer hands included) after which it ends, if fixed."""
        return _LENGTH_HANDS.get(self)

    @property
    def deal_limit(self) -> int | None:
        """How many times the deal must pass before it ends (東圈 4, 四圈 16), if that decides."""
        return _LENGTH_DEALS.get(self)

    @property
    def start_balance(self) -> int:
        """The jade each player starts with: :data:`BANKRUPTCY_START` until bankruptcy, else 0
        (the match counts what each won or paid)."""
        return BANKRUPTCY_START if self is MatchLength.BANKRUPTCY else 0

    @property
    def kinds(self) -> frozenset[str]:
        """The table kinds (:data:`TABLE_KINDS`) that may play this length at all: practice
        P's four and ML's three, online P's 四局 and ML's three, a league any that ends."""
        return _LENGTH_KINDS[self]

    @classmethod
    def offered(cls, kind: str, lengths: Sequence[str]) -> tuple[MatchLength, ...]:
        """The lengths a table of ``kind`` offers under a ruleset offering ``lengths`` (its
        ``match_lengths``, docs/rules.md §2):

        - ``practice``: the ruleset's lengths a practice table plays (P: 四圈, 八局, 十六局,
          打到破產; ML: 單局, 東圈, 四圈);
        - ``online``: 四局 alone when the ruleset names it (P "线上对局为四局"), else its lengths
          an online table plays (ML's platform: 單局, 東圈, 四圈);
        - ``league``: any of the ruleset's lengths that ends, and 四局 always (docs/leagues.md).

        >>> [m.value for m in MatchLength.offered("online", ("four-rounds", "8-hands", "online"))]
        ['online']

        :raises MatchError: for an unknown kind.
        """
        if kind not in TABLE_KINDS:
            raise MatchError(f"kind {kind!r}: expected one of {', '.join(TABLE_KINDS)}")
        listed = [cls.parse(v) for v in lengths]
        if kind == "online" and cls.ONLINE in listed:
            return (cls.ONLINE,)
        out = [m for m in listed if kind in m.kinds]
        if kind == "league" and cls.ONLINE not in out:
            out.append(cls.ONLINE)
        return tuple(dict.fromkeys(out))

    @classmethod
    def for_table(cls, kind: str, lengths: Sequence[str], text: str) -> MatchLength:
        """The length ``text`` names, when a table of ``kind`` under a ruleset offering
        ``lengths`` may play it (:meth:`offered`).

        :raises MatchError: naming the lengths that kind offers, when it may not.
        """
        length = cls.parse(text)
        offered = cls.offered(kind, lengths)
        if length not in offered:
            choices = ", ".join(f"{m.value} ({m.zh})" for m in offered) or "none"
            raise MatchError(
                f"length {length.value!r} ({length.zh}): a {kind} table under these rules "
                f"offers {choices}"
            )
        return length

    @classmethod
    def parse(cls, text: str) -> MatchLength:
        """Read a match length by its value, an alias or a name in any language (``east``,
        ``東圈``, ``东圈``, ``16``, ``4 hands``).

        :raises MatchError: when ``text`` names no match length.
        """
        if not isinstance(text, str):
            raise MatchError(f"a match length is text, not {text!r}")
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        for length in cls:
            names = {length.value, length.name.lower().replace("_", "-")}
            names.update(label.lower().replace(" ", "-") for label in _LENGTH_LABELS[length])
            if key in names:
                return length
        if key in _LENGTH_ALIASES:
            return _LENGTH_ALIASES[key]
        choices = ", ".join(m.value for m in cls)
        raise MatchError(f"unknown match length {text!r}: expected one of {choices}")


_LENGTH_LABELS = {
    MatchLength.ONE_HAND: ("單局", "单局", "One hand"),
    MatchLength.EAST_ROUND: ("東圈", "东圈", "East round"),
    MatchLength.FOUR_ROUNDS: ("四圈", "四圈", "Four rounds"),
    MatchLength.EIGHT_HANDS: ("八局", "八局", "8 hands"),
    MatchLength.SIXTEEN_HANDS: ("十六局", "十六局", "16 hands"),
    MatchLength.BANKRUPTCY: ("打到破產", "打到破产", "Until someone is bankrupt"),
    MatchLength.ONLINE: ("四局", "四局", "4 hands"),
    MatchLength.OPEN: ("不限", "不限", "Open"),
}
_PRACTICE, _ONLINE, _LEAGUE = TABLE_KINDS
_LENGTH_KINDS = {
    MatchLength.ONE_HAND: frozenset({_PRACTICE, _ONLINE, _LEAGUE}),  # ML 單局
    MatchLength.EAST_ROUND: frozenset({_PRACTICE, _ONLINE, _LEAGUE}),  # ML 東圈
    MatchLength.FOUR_ROUNDS: frozenset({_PRACTICE, _ONLINE, _LEAGUE}),  # P 四圈; ML 四圈
    MatchLength.EIGHT_HANDS: frozenset({_PRACTICE, _LEAGUE}),  # P 八局 (practice)
    MatchLength.SIXTEEN_HANDS: frozenset({_PRACTICE, _LEAGUE}),  # P 十六局 (practice)
    MatchLength.BANKRUPTCY: frozenset({_PRACTICE, _LEAGUE}),  # P 打至有人破产 (practice)
    MatchLength.ONLINE: frozenset({_ONLINE, _LEAGUE}),  # P "线上对局为四局"
    MatchLength.OPEN: frozenset(),  # simulations only
}
_LENGTH_HANDS = {
    MatchLength.ONE_HAND: 1,
    MatchLength.EIGHT_HANDS: 8,
    MatchLength.SIXTEEN_HANDS: 16,
    MatchLength.ONLINE: 4,
}
_LENGTH_DEALS = {MatchLength.EAST_ROUND: 4, MatchLength.FOUR_ROUNDS: 16}
_LENGTH_ALIASES = {
    "1": MatchLength.ONE_HAND,
    "one": MatchLength.ONE_HAND,
    "single": MatchLength.ONE_HAND,
    "一局": MatchLength.ONE_HAND,
    "east": MatchLength.EAST_ROUND,
    "一圈": MatchLength.EAST_ROUND,
    "full": MatchLength.FOUR_ROUNDS,
    "four-winds": MatchLength.FOUR_ROUNDS,
    "4-rounds": MatchLength.FOUR_ROUNDS,
    "8": MatchLength.EIGHT_HANDS,
    "16": MatchLength.SIXTEEN_HANDS,
    "bankrupt": MatchLength.BANKRUPTCY,
    "打至有人破產": MatchLength.BANKRUPTCY,
    "打至有人破产": MatchLength.BANKRUPTCY,
    "4": MatchLength.ONLINE,
    "4-hands": MatchLength.ONLINE,
}


def _check_amount(value: object, what: str) -> Amount:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise MatchError(f"{what} must be a finite number of jade, not {value!r}")
    return value


@dataclass(frozen=True)
class HandResult:
    """一局的結果: what a match needs from one finished hand.

    ``deltas`` are indexed by seat wind (東 南 西 北) and sum to zero. A hand either has winners,
    or is drawn (流局), or ended on a false win (詐糊) alone; ``false_winners`` lists seats that made
    a false win during the hand (physical tables only).
    """

    deltas: tuple[Amount, Amount, Amount, Amount]
    winners: tuple[Wind, ...] = ()
    drawn: bool = False
    false_winners: tuple[Wind, ...] = ()

    def __post_init__(self) -> None:
        if len(self.deltas) != 4:
            raise MatchError(f"a hand result needs 4 deltas (東 南 西 北), got {self.deltas!r}")
        for seat, value in zip(Wind, self.deltas, strict=True):
            _check_amount(value, f"the delta of seat {seat.letter}")
        if sum(self.deltas) != 0:
            raise MatchError(f"hand deltas {list(self.deltas)} sum to {sum(self.deltas)}, not zero")
        if len(set(self.winners)) != len(self.winners):
            raise MatchError(f"a seat is listed twice among the winners {self.winners!r}")
        if self.drawn and self.winners:
            raise MatchError("a drawn hand (流局) cannot have winners")
        if not self.drawn and not self.winners and not self.false_winners:
            raise MatchError("a hand result must have a winner, be drawn, or end on a false win")

    @property
    def dealer_stays(self) -> bool:
        """連莊: the dealer won or the hand was drawn, and the dealer made no false win."""
        if Wind.EAST in self.false_winners:
            return False
        return Wind.EAST in self.winners or not self.winners

    def to_json(self) -> dict[str, Any]:
        """The JSON object form used in records."""
        return {
            "deltas": list(self.deltas),
            "winners": [w.letter for w in self.winners],
            "drawn": self.drawn,
            "false_winners": [w.letter for w in self.false_winners],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> HandResult:
        """Rebuild from :meth:`to_json`.

        :raises MatchError: when a field is missing or malformed.
        """
        try:
            deltas = tuple(obj["deltas"])
            winners = tuple(Wind.parse(w) for w in obj.get("winners", []))
            false_winners = tuple(Wind.parse(w) for w in obj.get("false_winners", []))
            drawn = bool(obj.get("drawn", False))
        except (KeyError, TypeError, MahjongError) as exc:
            raise MatchError(f"malformed hand result {dict(obj)!r}: {exc}") from None
        if len(deltas) != 4:
            raise MatchError(f"a hand result needs 4 deltas, got {list(deltas)!r}")
        return cls((deltas[0], deltas[1], deltas[2], deltas[3]), winners, drawn, false_winners)


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the jade (玉) ledger: a hand, where it was played, and what each player got."""

    hand_number: int
    prevailing: Wind
    deal: int
    dealer: int
    repeat: int
    result: HandResult
    deltas: tuple[Amount, ...]
    balances: tuple[Amount, ...]

    @property
    def label(self) -> str:
        """Where the hand was played, e.g. ``東風第2局 連1`` (prevailing wind, deal, repeats)."""
        extra = f" 連{self.repeat}" if self.repeat else ""
        return f"{self.prevailing.zh}風第{self.deal % 4 + 1}局{extra}"


@dataclass
class Match:
    """一場: four players, who sits where, who deals, the prevailing wind and the jade ledger.

    Player ``i`` starts at seat wind ``i`` (player 0 is the first dealer). Record each finished hand
    with :meth:`record`; the match says who deals next and when it is over.
    """

    players: tuple[str, str, str, str] = ("P1", "P2", "P3", "P4")
    length: MatchLength = MatchLength.EAST_ROUND
    starting_balance: Amount = 0
    max_hands: int | None = None
    hand_number: int = 0
    dealer: int = 0
    deals_passed: int = 0
    repeat: int = 0
    ledger: list[LedgerEntry] = field(default_factory=list)
    balances: list[Amount] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.players) != 4 or len(set(self.players)) != 4:
            raise MatchError(f"a match needs four distinct players, got {self.players!r}")
        _check_amount(self.starting_balance, "the starting balance")
        if self.length is MatchLength.BANKRUPTCY and self.starting_balance <= 0:
            raise MatchError(
                "a match until bankruptcy (打到破產) needs a positive starting balance"
            )
        if self.length is MatchLength.OPEN and self.max_hands is None:
            raise MatchError("an open match (不限) needs max_hands")
        if self.max_hands is not None and self.max_hands < 1:
            raise MatchError(f"max_hands must be at least 1, got {self.max_hands}")
        if not self.balances:
            self.balances = [self.starting_balance] * 4

    @property
    def prevailing(self) -> Wind:
        """圈風: advances each time the deal has gone round all four players."""
        return Wind((self.deals_passed // 4) % 4)

    def seat_of(self, player: int) -> Wind:
        """門風 of player ``player`` (0–3) in the coming hand."""
        return Wind((player - self.dealer) % 4)

    def player_at(self, seat: Wind) -> int:
        """The player (0–3) sitting at ``seat`` in the coming hand."""
        return (self.dealer + int(seat)) % 4

    @property
    def finished(self) -> bool:
        """Whether the match is over (its length reached, someone bankrupt, or ``max_hands``)."""
        if self.max_hands is not None and self.hand_number >= self.max_hands:
            return True
        hands = self.length.hand_limit
        if hands is not None and self.hand_number >= hands:
            return True
        deals = self.length.deal_limit
        if deals is not None and self.deals_passed >= deals:
            return True
        return self.length is MatchLength.BANKRUPTCY and any(b <= 0 for b in self.balances)

    def seat_balances(self) -> dict[Wind, Amount] | None:
        """What each seat holds, for the payments' ``balances`` argument (bankruptcy matches only)."""
        if self.length is not MatchLength.BANKRUPTCY:
            return None
        return {seat: self.balances[self.player_at(seat)] for seat in Wind}

    def record(self, result: HandResult, *, allow_debt: bool = False) -> LedgerEntry:
        """Enter a finished hand in the ledger and move the deal on (連莊 or pass).

        In a match until bankruptcy a payer pays at most what it holds (settle with
        :meth:`seat_balances`); ``allow_debt`` lets balances go below zero (tables without the cap).

        :raises MatchError: when the match is over, or a payer would pay more than it holds.
        """
        if self.finished:
            raise MatchError(f"the match is over after {self.hand_number} hands; no more hands")
        player_deltas: list[Amount] = [0] * 4
        for seat in Wind:
            player_deltas[self.player_at(seat)] = result.deltas[seat]
        new_balances = [b + d for b, d in zip(self.balances, player_deltas, strict=True)]
        if self.length is MatchLength.BANKRUPTCY and not allow_debt:
            for player, (before, after) in enumerate(zip(self.balances, new_balances, strict=True)):
                if after < 0:
                    raise MatchError(
                        f"player {self.players[player]} holds {before} jade but is charged "
                        f"{before - after}: settle with balances=match.seat_balances()"
                    )
        entry = LedgerEntry(
            hand_number=self.hand_number,
            prevailing=self.prevailing,
            deal=self.deals_passed,
            dealer=self.dealer,
            repeat=self.repeat,
            result=result,
            deltas=tuple(player_deltas),
            balances=tuple(new_balances),
        )
        self.ledger.append(entry)
        self.balances = new_balances
        self.hand_number += 1
        if result.dealer_stays:
            self.repeat += 1
        else:
            self.repeat = 0
            self.deals_passed += 1
            self.dealer = (self.dealer + 1) % 4
        return entry

    def totals(self) -> dict[str, Amount]:
        """Each player's total won (+) or paid (−) so far, by name."""
        return {
            name: self.balances[i] - self.starting_balance for i, name in enumerate(self.players)
        }

    def standings(self) -> str:
        """A short text table of the ledger: one line per hand, then the totals."""
        lines = [self.standings_head()]
        lines.extend(self.standings_row(e) for e in self.ledger)
        lines.append(self.standings_total())
        return "\n".join(lines)

    def _width(self) -> int:
        return max(6, *(len(p) for p in self.players))

    def standings_head(self) -> str:
        """The head line of :meth:`standings` (the players' names)."""
        width = self._width()
        return "hand  where          " + " ".join(f"{p:>{width}}" for p in self.players)

    def standings_row(self, entry: LedgerEntry) -> str:
        """One hand's line of :meth:`standings` (where it was played, each player's points)."""
        width = self._width()
        cells = " ".join(f"{_fmt(d):>{width}}" for d in entry.deltas)
        return f"{entry.hand_number + 1:>4}  {entry.label:<13}{cells}"

    def standings_total(self) -> str:
        """The last line of :meth:`standings`: each player's total so far."""
        width, totals = self._width(), self.totals()
        return "total" + " " * 15 + " ".join(f"{_fmt(totals[p]):>{width}}" for p in self.players)

    def config_json(self) -> dict[str, Any]:
        """The match settings (not its progress) as JSON, for a record header."""
        return {
            "players": list(self.players),
            "length": self.length.value,
            "starting_balance": self.starting_balance,
            "max_hands": self.max_hands,
        }

    @classmethod
    def from_config(cls, obj: Mapping[str, Any]) -> Match:
        """A new match from :meth:`config_json`.

        :raises MatchError: when a setting is missing or malformed.
        """
        unknown = sorted(set(obj) - _CONFIG_KEYS)
        if unknown:
            raise MatchError(f"unknown match setting(s): {', '.join(map(str, unknown))}")
        try:
            players = tuple(str(p) for p in obj["players"])
            length = MatchLength.parse(str(obj["length"]))
            start = _check_amount(obj.get("starting_balance", 0), "starting_balance")
            max_hands = obj.get("max_hands")
        except (KeyError, TypeError) as exc:
            raise MatchError(f"malformed match settings {dict(obj)!r}: missing {exc}") from None
        if len(players) != 4:
            raise MatchError(f"a match needs four players, got {list(players)!r}")
        if max_hands is not None and (
            isinstance(max_hands, bool) or not isinstance(max_hands, int)
        ):
            raise MatchError(f"max_hands must be a whole number, got {max_hands!r}")
        return cls(
            (players[0], players[1], players[2], players[3]),
            length,
            starting_balance=start,
            max_hands=max_hands,
        )


_CONFIG_KEYS = frozenset({"players", "length", "starting_balance", "max_hands"})


def _fmt(value: Amount) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:+}" if value else "0"
