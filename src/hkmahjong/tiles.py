"""Tiles (牌): the 34 playing kinds and the 8 bonus tiles, their names, and the MPSZ notation.

MPSZ (docs/rules.md §1): digits followed by a suit letter — ``m`` 萬, ``p`` 筒, ``s`` 索, ``z`` honours
(``1z``–``7z`` = 東 南 西 北 白 發 中), ``f`` flowers (``1f``–``4f`` = 梅 蘭 菊 竹) and ``g`` seasons
(``1g``–``4g`` = 春 夏 秋 冬). Spaces are optional: ``"123m 456p 11z 1f"``.

>>> parse_tiles("19m 7z")
[Tile.M1, Tile.M9, Tile.RED]
>>> format_tiles([Tile.M1, Tile.M9, Tile.RED])
'19m7z'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum

from hkmahjong.errors import TileNotationError

__all__ = [
    "BONUS_KINDS",
    "DRAGONS",
    "HONOURS",
    "KINDS",
    "NUM_KINDS",
    "ORPHANS",
    "ORPHAN_INDICES",
    "TERMINALS",
    "WINDS",
    "Suit",
    "Tile",
    "Wind",
    "counts34",
    "format_counts",
    "format_tiles",
    "is_thirteen_orphans",
    "parse_tile",
    "parse_tiles",
    "thirteen_orphans_shanten",
    "tiles_from_counts",
]

NUM_KINDS = 34
"""Number of playing tile kinds (bonus tiles excluded); count vectors have this length."""


class Suit(Enum):
    """A tile's suit: the three number suits, honours, and the two bonus sets."""

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    HONOURS = "z"
    FLOWERS = "f"
    SEASONS = "g"

    @property
    def is_number(self) -> bool:
        """True for 萬, 筒 and 索."""
        return self in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)

    @property
    def zh(self) -> str:
        """Traditional Chinese name."""
        return _SUIT_ZH[self.value]

    @property
    def en(self) -> str:
        """English name."""
        return _SUIT_EN[self.value]


_SUIT_ZH = {"m": "萬", "p": "筒", "s": "索", "z": "字", "f": "花", "g": "季"}
_SUIT_ZH_HANS = {"m": "万", "p": "筒", "s": "索", "z": "字", "f": "花", "g": "季"}
_SUIT_EN = {
    "m": "characters",
    "p": "dots",
    "s": "bamboo",
    "z": "honours",
    "f": "flowers",
    "g": "seasons",
}
_SUIT_ORDER = "mpszfg"
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34, "g": 38}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "g": 4}


class Wind(IntEnum):
    """A wind (風): seat wind (門風) or prevailing wind (圈風); also the seat index 0–3."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    @property
    def letter(self) -> str:
        """One-letter form used in files: ``E``, ``S``, ``W``, ``N``."""
        return "ESWN"[self]

    @property
    def zh(self) -> str:
        """Chinese name (same in 繁 and 简)."""
        return "東南西北"[self]

    @property
    def tile(self) -> Tile:
        """The honour tile of this wind."""
        return Tile(27 + self)

    def next(self, steps: int = 1) -> Wind:
        """The wind ``steps`` seats later in play order (東 → 南 → 西 → 北 → 東)."""
        return Wind((self + steps) % 4)

    @classmethod
    def parse(cls, text: str) -> Wind:
        """Read ``E``/``S``/``W``/``N`` (any case), an English name, ``東``/``南``/``西``/``北`` or ``1z``–``4z``.

        :raises TileNotationError: when ``text`` names no wind.
        """
        key = text.strip()
        table = {
            "E": 0, "S": 1, "W": 2, "N": 3,
            "EAST": 0, "SOUTH": 1, "WEST": 2, "NORTH": 3,
            "東": 0, "南": 1, "西": 2, "北": 3, "东": 0,
            "1Z": 0, "2Z": 1, "3Z": 2, "4Z": 3,
        }  # fmt: skip
        try:
            return cls(table[key.upper()])
        except KeyError:
            raise TileNotationError(
                f"unknown wind {text!r}: expected E, S, W or N (or 東 南 西 北)"
            ) from None

    def __repr__(self) -> str:
        return f"Wind.{self.name}"


class Tile(IntEnum):
    """One tile kind: 0–33 are the playing kinds (萬 筒 索 then 東南西北白發中), 34–41 the bonus tiles.

    >>> Tile.from_text("5p").zh
    '五筒'
    >>> Tile.GREEN.mpsz
    '6z'
    """

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    PLUM = 34
    ORCHID = 35
    CHRYSANTHEMUM = 36
    BAMBOO = 37
    SPRING = 38
    SUMMER = 39
    AUTUMN = 40
    WINTER = 41

    @classmethod
    def from_text(cls, text: str) -> Tile:
        """Parse exactly one tile in MPSZ notation, e.g. ``"7z"``.

        :raises TileNotationError: when ``text`` is not exactly one tile.
        """
        return parse_tile(text)

    @property
    def suit(self) -> Suit:
        """The tile's suit."""
        return Suit(_SUIT_OF[self])

    @property
    def rank(self) -> int:
        """1–9 for number tiles, 1–7 for honours, 1–4 for bonus tiles (the MPSZ digit)."""
        return self - _SUIT_BASE[_SUIT_OF[self]] + 1

    @property
    def mpsz(self) -> str:
        """The tile in MPSZ notation, e.g. ``"5p"``."""
        return f"{self.rank}{_SUIT_OF[self]}"

    @property
    def is_number(self) -> bool:
        """萬, 筒 or 索."""
        return self < 27

    @property
    def is_honour(self) -> bool:
        """番子: a wind or a dragon."""
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        """東 南 西 北."""
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        """白 發 中."""
        return 31 <= self < 34

    @property
    def is_terminal(self) -> bool:
        """幺九: a 1 or 9 of a number suit."""
        return self < 27 and self % 9 in (0, 8)

    @property
    def is_orphan(self) -> bool:
        """A terminal or an honour (the 13 kinds of 十三幺)."""
        return self.is_terminal or self.is_honour

    @property
    def is_simple(self) -> bool:
        """A 2–8 of a number suit."""
        return self < 27 and self % 9 not in (0, 8)

    @property
    def is_bonus(self) -> bool:
        """A flower (花) or season (季)."""
        return self >= 34

    @property
    def is_flower(self) -> bool:
        """梅 蘭 菊 竹."""
        return 34 <= self < 38

    @property
    def is_season(self) -> bool:
        """春 夏 秋 冬."""
        return self >= 38

    @property
    def wind(self) -> Wind | None:
        """The wind of a wind tile, else ``None``."""
        return Wind(self - 27) if self.is_wind else None

    @property
    def zh(self) -> str:
        """Traditional Chinese name, e.g. ``五筒``, ``發``, ``梅``."""
        return _ZH_HANT[self]

    @property
    def zh_hans(self) -> str:
        """Simplified Chinese name, e.g. ``五万``, ``发``."""
        return _ZH_HANS[self]

    @property
    def en(self) -> str:
        """English name, e.g. ``5 dots``, ``green dragon``, ``plum``."""
        return _EN[self]

    @property
    def glyph(self) -> str:
        """Unicode mahjong tile glyph (U+1F000 block)."""
        return _GLYPH[self]

    def label(self, lang: str = "zh-Hant") -> str:
        """Short readable text label: ``5萬`` / ``5万`` / ``5m``; honours ``東`` / ``E``."""
        return _label(self, lang)

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __str__(self) -> str:
        return self.mpsz


_SUIT_OF: list[str] = [s for s in _SUIT_ORDER for _ in range(_SUIT_SIZE[s])]
_NUMERALS = "一二三四五六七八九"
_HONOURS_HANT = "東南西北白發中"
_HONOURS_HANS = "东南西北白发中"
_BONUS_ZH = "梅蘭菊竹春夏秋冬"
_BONUS_HANS = "梅兰菊竹春夏秋冬"
_HONOURS_EN = [
    "east wind",
    "south wind",
    "west wind",
    "north wind",
    "white dragon",
    "green dragon",
    "red dragon",
]
_BONUS_EN = [
    "plum",
    "orchid",
    "chrysanthemum",
    "bamboo",
    "spring",
    "summer",
    "autumn",
    "winter",
]


def _build_names() -> tuple[list[str], list[str], list[str], list[str]]:
    hant: list[str] = []
    hans: list[str] = []
    en: list[str] = []
    glyph: list[str] = []
    for suit, zh, zh_s, base_glyph in (
        ("m", "萬", "万", 0x1F007),
        ("p", "筒", "筒", 0x1F019),
        ("s", "索", "索", 0x1F010),
    ):
        for r in range(9):
            hant.append(_NUMERALS[r] + zh)
            hans.append(_NUMERALS[r] + zh_s)
            en.append(f"{r + 1} {_SUIT_EN[suit]}")
            glyph.append(chr(base_glyph + r))
    hant += list(_HONOURS_HANT)
    hans += list(_HONOURS_HANS)
    en += _HONOURS_EN
    glyph += [chr(c) for c in (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)]
    hant += list(_BONUS_ZH)
    hans += list(_BONUS_HANS)
    en += _BONUS_EN
    glyph += [chr(0x1F022 + i) for i in range(4)] + [chr(0x1F026 + i) for i in range(4)]
    return hant, hans, en, glyph


_ZH_HANT, _ZH_HANS, _EN, _GLYPH = _build_names()
_HONOUR_LETTERS = ["E", "S", "W", "N", "Wh", "G", "R"]


def _label(tile: Tile, lang: str) -> str:
    if lang == "en":
        return tile.mpsz if tile < 27 or tile >= 34 else _HONOUR_LETTERS[tile - 27]
    simplified = lang == "zh-Hans"
    if tile < 27:
        return f"{tile.rank}{(_SUIT_ZH_HANS if simplified else _SUIT_ZH)[_SUIT_OF[tile]]}"
    return (_ZH_HANS if simplified else _ZH_HANT)[tile]


KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
"""The 34 playing kinds in index order."""
BONUS_KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(34, 42))
"""The eight bonus tiles: 梅 蘭 菊 竹 春 夏 秋 冬."""
HONOURS: tuple[Tile, ...] = KINDS[27:]
WINDS: tuple[Tile, ...] = KINDS[27:31]
DRAGONS: tuple[Tile, ...] = KINDS[31:34]
TERMINALS: tuple[Tile, ...] = tuple(t for t in KINDS if t.is_terminal)
ORPHANS: tuple[Tile, ...] = TERMINALS + HONOURS
"""The 13 kinds of 十三幺."""
ORPHAN_INDICES: tuple[int, ...] = tuple(int(t) for t in ORPHANS)
"""The 13 kinds of 十三幺 as count-vector indices (the one home of this fact)."""


def parse_tiles(text: str) -> list[Tile]:
    """Parse MPSZ notation into tiles in written order; spaces are ignored.

    >>> parse_tiles("123m 1f")
    [Tile.M1, Tile.M2, Tile.M3, Tile.PLUM]

    :raises TileNotationError: naming the offending character and its position.
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
            continue
        suit = ch.lower()
        if suit not in _SUIT_BASE:
            raise TileNotationError(
                f"unknown suit {ch!r} (expected a digit or one of m p s z f g)", text, pos
            )
        if not pending:
            raise TileNotationError(f"suit letter {ch!r} has no digits before it", text, pos)
        size = _SUIT_SIZE[suit]
        for rank, rank_pos in pending:
            if not 1 <= rank <= size:
                raise TileNotationError(
                    f"rank {rank} is out of range 1-{size} for suit {suit!r}", text, rank_pos
                )
            tiles.append(Tile(_SUIT_BASE[suit] + rank - 1))
        pending.clear()
    if pending:
        raise TileNotationError("digits at the end have no suit letter", text, pending[0][1])
    return tiles


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile.

    :raises TileNotationError: when ``text`` holds no tile or more than one.
    """
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileNotationError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile | int], *, sort: bool = False) -> str:
    """Write tiles in compact MPSZ notation; runs of the same suit share one letter.

    >>> format_tiles([Tile.M1, Tile.M2, Tile.EAST, Tile.M3])
    '12m1z3m'
    >>> format_tiles([Tile.M1, Tile.M2, Tile.EAST, Tile.M3], sort=True)
    '123m1z'
    """
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    current = ""
    for t in seq:
        suit = _SUIT_OF[t]
        if current and suit != current:
            out.append(current)
        current = suit
        out.append(str(t - _SUIT_BASE[suit] + 1))
    if current:
        out.append(current)
    return "".join(out)


def counts34(tiles: Iterable[Tile | int]) -> list[int]:
    """The 34-length count vector of the playing tiles (bonus tiles are ignored)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            counts[t] += 1
    return counts


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """十三幺: a 34-count of 14 tiles, one of each of the 13 orphans plus one more of them.

    >>> is_thirteen_orphans(counts34(parse_tiles("19m19p19s12345677z")))
    True
    """
    if sum(counts) != 14:
        return False
    return (
        all(counts[i] >= 1 for i in ORPHAN_INDICES) and sum(counts[i] for i in ORPHAN_INDICES) == 14
    )


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """十三幺向聽: 13 minus the orphan kinds held, minus one more if one of them is paired.

    -1 is a complete 十三幺 (with 14 tiles), 0 is ready (一向聽 is 1), and so on.

    >>> thirteen_orphans_shanten(counts34(parse_tiles("19m19p19s1234567z")))
    0
    """
    kinds = 0
    pair = 0
    for i in ORPHAN_INDICES:
        n = counts[i]
        if n:
            kinds += 1
            if n >= 2:
                pair = 1
    return 13 - kinds - pair


def tiles_from_counts(counts: Sequence[int]) -> list[Tile]:
    """The sorted tiles of a count vector."""
    return [Tile(i) for i, n in enumerate(counts) for _ in range(n)]


def format_counts(counts: Sequence[int]) -> str:
    """MPSZ text of a count vector, e.g. ``[1, 1, 1, 0, …]`` → ``"123m"``."""
    return format_tiles(tiles_from_counts(counts))
