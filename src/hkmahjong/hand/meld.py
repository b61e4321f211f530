"""Melds (副露): declared chows, pungs and kongs, and their text form.

Text form (used inside a whole hand's text, see :mod:`hkmahjong.hand.hand`):

========================  ==========================================
``[123m]``                chow (上)
``[555p]``                exposed pung (碰)
``[7777z]``               exposed kong (明槓: three in hand + a discard)
``[7777z+]``              added kong (加槓: the fourth tile onto an exposed pung)
``(7777z)``               concealed kong (暗槓)
``[555p:2]``              ``:1``/``:2``/``:3`` — claimed from 上家 / 對家 / 下家
========================  ==========================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hkmahjong.errors import InvalidHandError, TileNotationError
from hkmahjong.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Meld", "MeldKind"]


class MeldKind(Enum):
    """The kind of a declared set."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"

    @property
    def zh(self) -> str:
        """Chinese name: 上 碰 明槓 加槓 暗槓."""
        return {"chow": "上", "pung": "碰", "kong": "明槓", "added_kong": "加槓"}.get(
            self.value, "暗槓"
        )

    @property
    def is_kong(self) -> bool:
        """Any of the three kongs."""
        return self in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)


_SOURCE_ZH = {1: "上家", 2: "對家", 3: "下家"}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: ``kind``, its lowest tile ``first``, and ``source`` — who it was claimed from.

    ``source`` is the seat offset of the player whose discard was claimed, counted in play order
    from the melder: 1 = 上家 (the player before), 2 = 對家, 3 = 下家; ``None`` when unknown or for
    a concealed kong.

    >>> Meld.from_text("[123m]").tiles
    (Tile.M1, Tile.M2, Tile.M3)
    """

    kind: MeldKind
    first: Tile
    source: int | None = None

    def __post_init__(self) -> None:
        if self.first >= 34:
            raise InvalidHandError(f"a meld cannot be made of bonus tile {self.first.mpsz}")
        if self.kind is MeldKind.CHOW and (self.first >= 27 or self.first % 9 > 6):
            raise InvalidHandError(
                f"a chow must be three consecutive tiles of one number suit, not from {self.first.mpsz}"
            )
        if self.source is not None and self.source not in (1, 2, 3):
            raise InvalidHandError(
                f"meld source must be 1, 2 or 3 (上家/對家/下家), not {self.source}"
            )

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """All tiles of the meld (four for a kong)."""
        if self.kind is MeldKind.CHOW:
            return (self.first, Tile(self.first + 1), Tile(self.first + 2))
        return (self.first,) * (4 if self.kind.is_kong else 3)

    @property
    def is_chow(self) -> bool:
        """上."""
        return self.kind is MeldKind.CHOW

    @property
    def is_pung_or_kong(self) -> bool:
        """碰 or any 槓 (a kong counts as a pung for every pattern but kong patterns)."""
        return self.kind is not MeldKind.CHOW

    @property
    def is_kong(self) -> bool:
        """Any kong."""
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong (暗槓) is a concealed meld."""
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def text(self) -> str:
        """The meld's text form, e.g. ``[123m]``, ``[7777z+]``, ``(1111s)``, ``[555p:2]``."""
        body = format_tiles(self.tiles)
        if self.kind is MeldKind.CONCEALED_KONG:
            return f"({body})"
        plus = "+" if self.kind is MeldKind.ADDED_KONG else ""
        src = f":{self.source}" if self.source is not None else ""
        return f"[{body}{plus}{src}]"

    @classmethod
    def from_text(cls, text: str) -> Meld:
        """Parse one meld in text form.

        :raises InvalidHandError: when the text is not a chow, pung or kong.
        """
        s = text.strip()
        if len(s) < 2 or (s[0], s[-1]) not in (("[", "]"), ("(", ")")):
            raise InvalidHandError(f"a meld is written [tiles] or (tiles), got {text!r}")
        concealed = s[0] == "("
        body = s[1:-1].strip()
        source: int | None = None
        if ":" in body:
            body, _, src = body.rpartition(":")
            if src.strip() not in ("1", "2", "3"):
                raise InvalidHandError(
                    f"meld source in {text!r} must be :1, :2 or :3 (上家/對家/下家), got :{src}"
                )
            source = int(src)
        added = body.endswith("+")
        if added:
            body = body[:-1]
        try:
            tiles = sorted(parse_tiles(body))
        except TileNotationError as exc:
            raise InvalidHandError(f"bad tiles in meld {text!r}: {exc}") from exc
        return cls._from_tiles(tiles, concealed=concealed, added=added, source=source, text=text)

    @classmethod
    def _from_tiles(
        cls, tiles: list[Tile], *, concealed: bool, added: bool, source: int | None, text: str
    ) -> Meld:
        if any(t.is_bonus for t in tiles):
            raise InvalidHandError(f"bonus tiles cannot be part of meld {text!r}")
        n = len(tiles)
        same = n > 0 and all(t == tiles[0] for t in tiles)
        if concealed:
            if n != 4 or not same:
                raise InvalidHandError(f"a concealed kong needs four identical tiles: {text!r}")
            if source is not None or added:
                raise InvalidHandError(f"a concealed kong has no source and no '+': {text!r}")
            return cls(MeldKind.CONCEALED_KONG, tiles[0])
        if n == 4 and same:
            kind = MeldKind.ADDED_KONG if added else MeldKind.KONG
            return cls(kind, tiles[0], source)
        if added:
            raise InvalidHandError(
                f"only a kong of four identical tiles can be added ('+'): {text!r}"
            )
        if n == 3 and same:
            return cls(MeldKind.PUNG, tiles[0], source)
        consecutive = n == 3 and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        if consecutive and tiles[0] < 27 and tiles[0] // 9 == tiles[2] // 9:
            return cls(MeldKind.CHOW, tiles[0], source)
        if n == 3 and tiles[0].is_honour and not same:
            raise InvalidHandError(f"honours cannot form a chow: {text!r}")
        raise InvalidHandError(
            f"{text!r} is not a chow, pung or kong (3 consecutive or 3–4 identical tiles)"
        )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Meld.from_text({self.text!r})"
