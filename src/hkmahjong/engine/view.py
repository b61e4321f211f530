"""PlayerView: what one seat may see of a hand — never another seat's concealed tiles or the wall.

Bots, the terminal game, the web parlor and the research env all read a hand through this view,
so no client can cheat by construction. :class:`PublicView` is what a spectator (旁觀) may see:
what every seat sees, and no concealed tile at all.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from hkmahjong.hand.hand import Hand
from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Tile, Wind

if TYPE_CHECKING:
    from hkmahjong.engine.events import HandOutcome

__all__ = ["Phase", "PlayerView", "PublicView"]


class Phase(Enum):
    """Where a hand is."""

    TURN = "turn"
    """A seat holds 14 tiles (kongs count 3) and must discard, kong or win (own turn)."""
    CLAIM = "claim"
    """A discard lies on the table; the seats that can claim it decide (win / pung / kong / chow)."""
    ROB = "rob"
    """An added (or, by ruleset, concealed) kong was declared; seats that can win on it decide."""
    OVER = "over"
    """The hand has ended (win, false win or exhaustive draw)."""


_Public = tuple[
    tuple[Meld, ...], tuple[Tile, ...], tuple[Tile, ...], tuple[bool, ...], tuple[bool, ...]
]
"""One seat's public part of a view: melds, bonus tiles, discards, claimed flags, 摸切 flags."""


_Scalars = tuple[
    Wind,  # prevailing_wind
    int,  # hand_number
    Phase,  # phase
    tuple[Wind, ...],  # to_act
    Wind,  # current
    "Tile | None",  # last_drawn
    int,  # tiles_left
    "Tile | None",  # pending_tile
    "Wind | None",  # pending_from
    "tuple[int | float, ...] | None",  # scores
    "HandOutcome | None",  # outcome
]
"""A view's scalar fields, in this order."""


class ViewSource(Protocol):
    """What a lazy :class:`PlayerView` reads from its hand state while the state is unchanged."""

    def _view_scalars(self, s: int) -> _Scalars: ...

    def _view_concealed(self, s: int) -> tuple[Tile, ...]: ...

    def _view_public(self) -> tuple[_Public, _Public, _Public, _Public]: ...

    def _view_counts(self) -> tuple[int, ...]: ...


_FIELDS = (
    "seat",
    "prevailing_wind",
    "hand_number",
    "phase",
    "to_act",
    "current",
    "concealed",
    "last_drawn",
    "melds",
    "bonus",
    "discards",
    "claimed",
    "from_draw",
    "concealed_counts",
    "tiles_left",
    "pending_tile",
    "pending_from",
    "scores",
    "outcome",
)


class PlayerView:
    """玩家視角: everything ``seat`` may see. Per-seat tuples are indexed by seat (東 南 西 北).

    Immutable, compared and hashed by its fields like a frozen dataclass. A view from
    :meth:`HandState.view <hkmahjong.engine.state.HandState.view>` is built lazily: only its seat
    is set, and the other fields are read from the state when first asked for (the scalars
    together, each tuple on its own); a view still alive when the state next changes is completed
    from the state before the change — so a view always shows the moment it was taken, and a
    player that reads few fields (or none) pays only for those.
    """

    __slots__ = (
        "__weakref__",
        "_bonus",
        "_claimed",
        "_concealed",
        "_concealed_counts",
        "_discards",
        "_from_draw",
        "_melds",
        "_public",
        "_s",
        "_src",
        "seat",
    )

    seat: Wind
    _s: _Scalars
    _concealed: tuple[Tile, ...]
    _public: tuple[_Public, _Public, _Public, _Public]
    _melds: tuple[tuple[Meld, ...], ...]
    _bonus: tuple[tuple[Tile, ...], ...]
    _discards: tuple[tuple[Tile, ...], ...]
    _claimed: tuple[tuple[bool, ...], ...]
    _from_draw: tuple[tuple[bool, ...], ...]
    _concealed_counts: tuple[int, ...]
    _src: ViewSource | None

    def __init__(
        self,
        *,
        seat: Wind,
        prevailing_wind: Wind,
        hand_number: int,
        phase: Phase,
        to_act: tuple[Wind, ...],
        current: Wind,
        concealed: tuple[Tile, ...],
        last_drawn: Tile | None,
        melds: tuple[tuple[Meld, ...], ...],
        bonus: tuple[tuple[Tile, ...], ...],
        discards: tuple[tuple[Tile, ...], ...],
        claimed: tuple[tuple[bool, ...], ...],
        from_draw: tuple[tuple[bool, ...], ...],
        concealed_counts: tuple[int, ...],
        tiles_left: int,
        pending_tile: Tile | None,
        pending_from: Wind | None,
        scores: tuple[int | float, ...] | None,
        outcome: HandOutcome | None,
    ) -> None:
        values = (
            seat, prevailing_wind, hand_number, phase, to_act, current, concealed, last_drawn,
            melds, bonus, discards, claimed, from_draw, concealed_counts, tiles_left,
            pending_tile, pending_from, scores, outcome,
        )  # fmt: skip
        _fill(self, values)

    @classmethod
    def _lazy(cls, src: ViewSource, seat: Wind) -> PlayerView:
        """A view of ``seat`` whose fields are read from ``src`` on first use (``src`` calls
        :meth:`_freeze` before it changes while the view is alive)."""
        self = _new(cls)
        _set_seat(self, seat)
        _set_src(self, src)
        return self

    def _freeze(self) -> None:
        """Read every field from the source now (it is about to change) and let it go."""
        if self._src is not None:
            self._values()
            _set_src(self, None)

    def _scalars(self) -> _Scalars:
        try:
            return self._s
        except AttributeError:
            assert self._src is not None
            v = self._src._view_scalars(int(self.seat))
            _set_s(self, v)
            return v

    def _pub(self) -> tuple[_Public, _Public, _Public, _Public]:
        try:
            return self._public
        except AttributeError:
            assert self._src is not None
            p = self._src._view_public()
            _set_public(self, p)
            return p

    @property
    def prevailing_wind(self) -> Wind:
        """圈風: the prevailing wind."""
        return self._scalars()[0]

    @property
    def hand_number(self) -> int:
        """The hand's number in its match."""
        return self._scalars()[1]

    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        return self._scalars()[2]

    @property
    def to_act(self) -> tuple[Wind, ...]:
        """Seats that must decide now, as far as this seat may know: on a turn the current seat;
        in a claim or robbing window only this seat, if it must decide — who else may claim
        (which would reveal a pair or a ready hand) and who has decided are hidden."""
        return self._scalars()[3]

    @property
    def current(self) -> Wind:
        """Whose turn it is (the discarder during a claim window, the kong declarer while
        robbing)."""
        return self._scalars()[4]

    @property
    def last_drawn(self) -> Tile | None:
        """The tile this seat drew last in this turn (None when it did not draw this turn)."""
        return self._scalars()[5]

    @property
    def tiles_left(self) -> int:
        """Tiles that may still be drawn (the reserved tail excluded)."""
        return self._scalars()[6]

    @property
    def pending_tile(self) -> Tile | None:
        """The discard being claimed or the kong tile that may be robbed, else None."""
        return self._scalars()[7]

    @property
    def pending_from(self) -> Wind | None:
        """Who discarded (or declared the kong of) the pending tile, else None."""
        return self._scalars()[8]

    @property
    def scores(self) -> tuple[int | float, ...] | None:
        """Payments of this hand per seat once it is over, else None."""
        return self._scalars()[9]

    @property
    def outcome(self) -> HandOutcome | None:
        """The outcome once the hand is over (every hand is revealed then), else None."""
        return self._scalars()[10]

    @property
    def concealed(self) -> tuple[Tile, ...]:
        """This seat's own concealed tiles, sorted."""
        try:
            return self._concealed
        except AttributeError:
            assert self._src is not None
            v = self._src._view_concealed(int(self.seat))
            _set_concealed(self, v)
            return v

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """Each seat's declared melds."""
        try:
            return self._melds
        except AttributeError:
            p = self._pub()
            v = (p[0][0], p[1][0], p[2][0], p[3][0])
            _set_melds(self, v)
            return v

    @property
    def bonus(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's exposed bonus tiles."""
        try:
            return self._bonus
        except AttributeError:
            p = self._pub()
            v = (p[0][1], p[1][1], p[2][1], p[3][1])
            _set_bonus(self, v)
            return v

    @property
    def discards(self) -> tuple[tuple[Tile, ...], ...]:
        """Every tile each seat discarded, in order, claimed ones included."""
        try:
            return self._discards
        except AttributeError:
            p = self._pub()
            v = (p[0][2], p[1][2], p[2][2], p[3][2])
            _set_discards(self, v)
            return v

    @property
    def claimed(self) -> tuple[tuple[bool, ...], ...]:
        """Parallel to ``discards``: True where that discard was claimed by another seat."""
        try:
            return self._claimed
        except AttributeError:
            p = self._pub()
            v = (p[0][3], p[1][3], p[2][3], p[3][3])
            _set_claimed(self, v)
            return v

    @property
    def from_draw(self) -> tuple[tuple[bool, ...], ...]:
        """Parallel to ``discards``: True where that discard was the tile the seat had just drawn
        (摸切, from the wall or a kong or bonus replacement), False where it came from the hand
        (手切; a discard after a claim, with no draw, is always 手切, and so is the dealer's first).
        Public at a real table: everyone sees whether the tile thrown is the one just taken. A
        seat holding another copy of the drawn kind that discards that kind counts as 摸切."""
        try:
            return self._from_draw
        except AttributeError:
            p = self._pub()
            v = (p[0][4], p[1][4], p[2][4], p[3][4])
            _set_from_draw(self, v)
            return v

    @property
    def concealed_counts(self) -> tuple[int, ...]:
        """How many concealed tiles each seat holds (a public fact)."""
        try:
            return self._concealed_counts
        except AttributeError:
            assert self._src is not None
            v = self._src._view_counts()
            _set_counts(self, v)
            return v

    def _values(self) -> tuple[object, ...]:
        return (
            self.seat, *self._scalars()[:5], self.concealed, self.last_drawn, self.melds,
            self.bonus, self.discards, self.claimed, self.from_draw, self.concealed_counts,
            *self._scalars()[6:],
        )  # fmt: skip

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, PlayerView)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._values(), strict=True))
        return f"PlayerView({inner})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_view_from_values, self._values())

    def __copy__(self) -> PlayerView:
        return self

    def __deepcopy__(self, memo: object) -> PlayerView:
        return self

    @property
    def hand(self) -> Hand:
        """This seat's hand: its concealed tiles, melds and bonus tiles."""
        return Hand(self.concealed, self.melds[self.seat], self.bonus[self.seat])

    @property
    def dealer(self) -> Wind:
        """莊家: always East (seats are winds of this hand)."""
        return Wind.EAST

    def visible_counts(self) -> list[int]:
        """34-count of every tile this seat can see: own concealed, all melds and unclaimed discards."""
        counts = [0] * 34
        for t in self.concealed:
            counts[t] += 1
        for seat_melds in self.melds:
            for m in seat_melds:
                for t in m.tiles:
                    counts[t] += 1
        for river, flags in zip(self.discards, self.claimed, strict=True):
            for t, taken in zip(river, flags, strict=True):
                if not taken:
                    counts[t] += 1
        if self.pending_tile is not None and self.phase is Phase.ROB:
            counts[self.pending_tile] += 1
        return counts


@dataclass(frozen=True, slots=True)
class _ViewFields:
    """The fields of :class:`PlayerView` as a dataclass declares them, so ``dataclasses.fields``,
    ``replace`` and ``asdict`` work on a view as on the frozen dataclass it used to be."""

    seat: Wind
    prevailing_wind: Wind
    hand_number: int
    phase: Phase
    to_act: tuple[Wind, ...]
    current: Wind
    concealed: tuple[Tile, ...]
    last_drawn: Tile | None
    melds: tuple[tuple[Meld, ...], ...]
    bonus: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    claimed: tuple[tuple[bool, ...], ...]
    from_draw: tuple[tuple[bool, ...], ...]
    concealed_counts: tuple[int, ...]
    tiles_left: int
    pending_tile: Tile | None
    pending_from: Wind | None
    scores: tuple[int | float, ...] | None
    outcome: HandOutcome | None


type.__setattr__(PlayerView, "__dataclass_fields__", _ViewFields.__dataclass_fields__)
type.__setattr__(PlayerView, "__dataclass_params__", _ViewFields.__dataclass_params__)  # type: ignore[attr-defined]
_new = object.__new__
_slot = {n: PlayerView.__dict__[n] for n in PlayerView.__slots__ if n != "__weakref__"}
_set_seat, _set_s, _set_concealed, _set_public = (
    _slot[n].__set__ for n in ("seat", "_s", "_concealed", "_public")
)
_set_melds, _set_bonus, _set_discards, _set_claimed, _set_from_draw, _set_counts, _set_src = (
    _slot[n].__set__
    for n in (
        "_melds", "_bonus", "_discards", "_claimed", "_from_draw", "_concealed_counts", "_src"
    )
)  # fmt: skip


def _fill(view: PlayerView, values: tuple[Any, ...]) -> None:
    """Set every field of ``view`` from ``values`` (in :data:`_FIELDS` order)."""
    (
        seat, prevailing, number, phase, to_act, current, concealed, last_drawn, melds, bonus,
        discards, claimed, from_draw, counts, tiles_left, pending_tile, pending_from, scores,
        outcome,
    ) = values  # fmt: skip
    _set_seat(view, seat)
    _set_s(view, (prevailing, number, phase, to_act, current, last_drawn, tiles_left,
                  pending_tile, pending_from, scores, outcome))  # fmt: skip
    _set_concealed(view, concealed)
    _set_melds(view, melds)
    _set_bonus(view, bonus)
    _set_discards(view, discards)
    _set_claimed(view, claimed)
    _set_from_draw(view, from_draw)
    _set_counts(view, counts)
    _set_src(view, None)


def _view_from_values(*values: Any) -> PlayerView:
    """Rebuild a view from its field values in order (pickle)."""
    view: PlayerView = _new(PlayerView)
    _fill(view, values)
    return view


@dataclass(frozen=True, slots=True)
class PublicView:
    """旁觀視角: what anyone at the table can see — discards, melds, bonus tiles, counts, scores.

    No concealed tile of any seat, no wall. Per-seat tuples are indexed by seat (東 南 西 北).
    Inside a claim or robbing window the phase itself tells whether some seat may claim (the
    window stays open only then), so a stream to spectators takes this view only where
    :attr:`settled` holds (a turn has begun, or the hand is over).
    """

    prevailing_wind: Wind
    hand_number: int
    phase: Phase
    to_act: tuple[Wind, ...]
    """On a turn the current seat; in a window or when the hand is over nobody (who may claim is
    hidden)."""
    current: Wind
    melds: tuple[tuple[Meld, ...], ...]
    bonus: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    claimed: tuple[tuple[bool, ...], ...]
    from_draw: tuple[tuple[bool, ...], ...]
    """Parallel to ``discards``: 摸切 (the tile just drawn) True, 手切 (from the hand) False."""
    concealed_counts: tuple[int, ...]
    tiles_left: int
    pending_tile: Tile | None
    pending_from: Wind | None
    scores: tuple[int | float, ...] | None
    outcome: HandOutcome | None
    """The outcome once the hand is over (the winners' hands are shown then), else None."""

    @property
    def settled(self) -> bool:
        """No window is open: a seat is on its turn, or the hand is over."""
        return self.phase is Phase.TURN or self.phase is Phase.OVER

    @classmethod
    def of(cls, view: PlayerView) -> PublicView:
        """The public part of a seat's view (its concealed tiles and last draw dropped)."""
        return cls(
            prevailing_wind=view.prevailing_wind,
            hand_number=view.hand_number,
            phase=view.phase,
            to_act=(view.current,) if view.phase is Phase.TURN else (),
            current=view.current,
            melds=view.melds,
            bonus=view.bonus,
            discards=view.discards,
            claimed=view.claimed,
            from_draw=view.from_draw,
            concealed_counts=view.concealed_counts,
            tiles_left=view.tiles_left,
            pending_tile=view.pending_tile,
            pending_from=view.pending_from,
            scores=view.scores,
            outcome=view.outcome,
        )
