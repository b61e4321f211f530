"""Groups and arrangements (組合): how a complete hand splits into sets and a pair."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hkmahjong.tiles import Tile, format_tiles

__all__ = ["Arrangement", "Group", "GroupKind", "Shape"]


class GroupKind(Enum):
    """The kind of one group: 順子 chow, 刻子 pung, 槓 kong, 眼 pair, or a 十三幺 single."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    SINGLE = "single"
    """One lone orphan of 十三幺 (only in that shape)."""

    @property
    def size(self) -> int:
        """Number of tiles in a group of this kind."""
        return _SIZES[self.value]


_SIZES = {"chow": 3, "pung": 3, "kong": 4, "pair": 2, "single": 1}


@dataclass(frozen=True, slots=True)
class Group:
    """組: one set or the pair of an arrangement.

    ``concealed`` is True for a group formed from concealed tiles or a concealed kong (暗槓);
    ``declared`` is True for a declared meld (exposed or a concealed kong).

    >>> Group(GroupKind.CHOW, Tile.M1).text
    '123m'
    """

    kind: GroupKind
    first: Tile
    concealed: bool = True
    declared: bool = False

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the group (a chow's three, a kong's four, ...)."""
        if self.kind is GroupKind.CHOW:
            return (self.first, Tile(self.first + 1), Tile(self.first + 2))
        return (self.first,) * self.kind.size

    @property
    def is_set(self) -> bool:
        """面子: a chow, pung or kong (not a pair or single)."""
        return self.kind in (GroupKind.CHOW, GroupKind.PUNG, GroupKind.KONG)

    @property
    def is_pung_or_kong(self) -> bool:
        """刻子 or 槓子 (a kong counts as a pung for every pattern but kong patterns)."""
        return self.kind in (GroupKind.PUNG, GroupKind.KONG)

    @property
    def text(self) -> str:
        """MPSZ text of the group's tiles, e.g. ``'123m'``, ``'7777z'``."""
        return format_tiles(self.tiles)

    def __str__(self) -> str:
        return self.text


class Shape(Enum):
    """The shape of a complete hand: 4 sets + pair, 十三幺, or 七對子."""

    REGULAR = "regular"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    SEVEN_PAIRS = "seven_pairs"

    @property
    def zh(self) -> str:
        """Chinese name: 正常 / 十三幺 / 七對子."""
        return {"regular": "正常", "thirteen_orphans": "十三幺", "seven_pairs": "七對子"}[
            self.value
        ]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to read a complete hand: its shape and its groups.

    Groups come declared melds first, then concealed sets (sorted), then the pair last (for
    十三幺: the twelve singles, then the pair).
    """

    shape: Shape
    groups: tuple[Group, ...]

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of every group, sorted."""
        return tuple(sorted(t for g in self.groups for t in g.tiles))

    @property
    def pair(self) -> Group | None:
        """The pair (眼) of a regular or 十三幺 arrangement; None for 七對子."""
        if self.shape is Shape.SEVEN_PAIRS:
            return None
        return self.groups[-1]

    @property
    def sets(self) -> tuple[Group, ...]:
        """The four sets of a regular arrangement (empty for the special shapes)."""
        return tuple(g for g in self.groups if g.is_set)

    @property
    def text(self) -> str:
        """Readable text: groups separated by spaces, declared melds in brackets."""
        parts = []
        for g in self.groups:
            if g.declared:
                parts.append(f"({g.text})" if g.concealed else f"[{g.text}]")
            else:
                parts.append(g.text)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text
