"""A player's hand (手牌): concealed tiles, declared melds and exposed bonus tiles, with a text form.

Text form — concealed tiles in MPSZ, then each meld in brackets, then bonus tiles (any ``f``/``g``
tile outside brackets is a bonus tile). Spaces are optional::

    234m44466p [111s] (7777z) 2f2g

means concealed ``234m44466p``, an exposed pung of 1s, a concealed kong of 中, and the bonus tiles
蘭 and 夏. See :mod:`hkmahjong.hand.meld` for the meld forms. ``str(hand)`` writes this form and
``Hand.from_text(str(hand)) == hand``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Flag, auto

from hkmahjong.errors import InvalidHandError, TileNotationError
from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Tile, counts34, format_tiles, parse_tiles

__all__ = ["Hand", "HandStatus"]


class HandStatus(Flag):
    """Impossibilities found in a hand; ``HandStatus.OK`` (no flag) when it could exist."""

    OK = 0
    FIFTH_COPY = auto()
    """More than four copies of a tile kind across concealed tiles and melds."""
    BAD_TILE_COUNT = auto()
    """Concealed tiles + 3 per meld is not 13 or 14 (each kong counts 3 here)."""
    BONUS_IN_CONCEALED = auto()
    """A flower or season among the concealed tiles (they are exposed at once)."""
    DUPLICATE_BONUS = auto()
    """The same bonus tile twice (there is one of each)."""
    TOO_MANY_MELDS = auto()
    """More than four declared melds."""


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand: ``concealed`` tiles (kept sorted), declared ``melds``, exposed ``bonus`` tiles.

    >>> h = Hand.from_text("123m456p789s11z [555s] 1f")
    >>> len(h.concealed), len(h.melds), h.bonus
    (11, 1, (Tile.PLUM,))
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(Tile(t) for t in self.concealed)))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "bonus", tuple(sorted(Tile(t) for t in self.bonus)))

    @classmethod
    def from_text(cls, text: str, *, allow_any_count: bool = False) -> Hand:
        """Parse a whole hand; see the module docstring for the form.

        The hand must be possible (no :class:`HandStatus` flag). With ``allow_any_count`` the
        13-or-14 tile count is not required (for partial hands in analysis).

        :raises InvalidHandError: naming what is wrong.
        """
        concealed: list[Tile] = []
        bonus: list[Tile] = []
        melds: list[Meld] = []
        i = 0
        plain_start = 0
        plain: list[tuple[int, str]] = []
        while i < len(text):
            ch = text[i]
            if ch in "[(":
                close = "]" if ch == "[" else ")"
                j = text.find(close, i)
                if j < 0:
                    raise InvalidHandError(
                        f"meld opened with {ch!r} at position {i} of {text!r} is never closed"
                    )
                plain.append((plain_start, text[plain_start:i]))
                melds.append(Meld.from_text(text[i : j + 1]))
                i = j + 1
                plain_start = i
                continue
            if ch in "])":
                raise InvalidHandError(f"unmatched {ch!r} at position {i} of {text!r}")
            i += 1
        plain.append((plain_start, text[plain_start:]))
        for offset, chunk in plain:
            try:
                tiles = parse_tiles(chunk)
            except TileNotationError as exc:
                pos = None if exc.position is None else exc.position + offset
                where = f" at position {pos}" if pos is not None else ""
                raise InvalidHandError(
                    f"bad tile notation in hand {text!r}{where}: {str(exc).split(' at position')[0]}"
                ) from exc
            for t in tiles:
                (bonus if t.is_bonus else concealed).append(t)
        hand = cls(tuple(concealed), tuple(melds), tuple(bonus))
        problems = hand.status()
        if allow_any_count:
            problems &= ~HandStatus.BAD_TILE_COUNT
        if problems:
            raise InvalidHandError(f"impossible hand {text!r}: {hand.describe_status(problems)}")
        return hand

    # --- counts -------------------------------------------------------------------------------
    @property
    def tile_count(self) -> int:
        """Concealed tiles plus three per meld (13 when waiting, 14 when complete)."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def concealed_counts(self) -> list[int]:
        """34-length count vector of the concealed tiles."""
        return counts34(self.concealed)

    def all_counts(self) -> list[int]:
        """34-length count vector of concealed tiles and every meld tile (kongs count four)."""
        counts = counts34(self.concealed)
        for m in self.melds:
            for t in m.tiles:
                counts[t] += 1
        return counts

    @property
    def kong_count(self) -> int:
        """Number of declared kongs of any kind."""
        return sum(1 for m in self.melds if m.is_kong)

    @property
    def is_concealed(self) -> bool:
        """門前清 in the strict sense: no meld declared at all (a concealed kong included)."""
        return not self.melds

    # --- validity -----------------------------------------------------------------------------
    def status(self) -> HandStatus:
        """Every impossibility of the hand as flags; ``HandStatus.OK`` when none."""
        flags = HandStatus.OK
        if any(n > 4 for n in self.all_counts()):
            flags |= HandStatus.FIFTH_COPY
        if self.tile_count not in (13, 14):
            flags |= HandStatus.BAD_TILE_COUNT
        if any(t.is_bonus for t in self.concealed):
            flags |= HandStatus.BONUS_IN_CONCEALED
        if len(set(self.bonus)) != len(self.bonus) or any(not t.is_bonus for t in self.bonus):
            flags |= HandStatus.DUPLICATE_BONUS
        if len(self.melds) > 4:
            flags |= HandStatus.TOO_MANY_MELDS
        return flags

    def describe_status(self, flags: HandStatus | None = None) -> str:
        """A readable sentence for each flag of ``flags`` (default: this hand's status)."""
        flags = self.status() if flags is None else flags
        parts: list[str] = []
        if HandStatus.FIFTH_COPY in flags:
            over = [Tile(i).mpsz for i, n in enumerate(self.all_counts()) if n > 4]
            parts.append(f"more than four copies of {', '.join(over)}")
        if HandStatus.BAD_TILE_COUNT in flags:
            parts.append(
                f"{len(self.concealed)} concealed tiles and {len(self.melds)} melds make "
                f"{self.tile_count} tiles (kongs count 3); a hand has 13, or 14 with the winning tile"
            )
        if HandStatus.BONUS_IN_CONCEALED in flags:
            parts.append("bonus tiles (flowers/seasons) cannot be concealed")
        if HandStatus.DUPLICATE_BONUS in flags:
            parts.append("each bonus tile exists once and bonus must be f/g tiles")
        if HandStatus.TOO_MANY_MELDS in flags:
            parts.append(f"{len(self.melds)} melds declared; at most four")
        return "; ".join(parts) if parts else "ok"

    # --- derived hands ------------------------------------------------------------------------
    def with_concealed(self, concealed: tuple[Tile, ...] | list[Tile]) -> Hand:
        """The same melds and bonus tiles with other concealed tiles."""
        return Hand(tuple(concealed), self.melds, self.bonus)

    def add(self, tile: Tile) -> Hand:
        """The hand with ``tile`` added to the concealed tiles."""
        return self.with_concealed((*self.concealed, tile))

    def remove(self, tile: Tile) -> Hand:
        """The hand with one ``tile`` taken from the concealed tiles.

        :raises InvalidHandError: when the hand holds no such concealed tile.
        """
        tiles = list(self.concealed)
        try:
            tiles.remove(tile)
        except ValueError:
            raise InvalidHandError(f"hand {self} holds no concealed {tile.mpsz}") from None
        return self.with_concealed(tiles)

    # --- text ---------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The hand's text form (round-trips through :meth:`from_text`)."""
        parts = [format_tiles(self.concealed)] if self.concealed else []
        parts += [m.text for m in self.melds]
        if self.bonus:
            parts.append(format_tiles(self.bonus))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Hand.from_text({self.text!r})"
