"""牌牆 The seeded wall: shuffle, dice, the wall break and the deal order (docs/rules.md §3).

Internal to the engine (bots may not import it); tests use :func:`stacked_wall`.

Geometry (docs/rules.md §3, P). The 144 tiles (136 without bonus tiles) are shuffled and built into four
walls of 18 stacks (17 without bonus tiles), two tiles a stack, one wall in front of each seat.
Drawing goes clockwise, against play order, so in draw order the walls come E, N, W, S, each from
its right end to its left end. The dealer rolls three dice; counting the dealer as 1,
counter-clockwise (play order), the total picks the wall; from that wall's right end the total
number of stacks is counted off and the wall breaks there. The head (normal draws) starts just
after the counted stacks; the tail (replacements) is the other side of the break. The engine keeps
the wall as one list in draw order: ``wall[0]`` is the first tile of the head, ``wall[-1]`` the
first replacement tile (a stack's top tile comes before its bottom tile on the head side).

Deal: 4-4-4 in turn order from the dealer, then the dealer's jump — the dealer takes the top
tiles of the next stack and of the one after (wall indices 48 and 52), South 49, West 50, North 51.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import TypeVar

from hkmahjong.errors import MahjongError
from hkmahjong.tiles import Tile, Wind, parse_tiles

__all__ = [
    "DEAL_POSITIONS",
    "WallError",
    "build_wall",
    "full_tile_set",
    "roll_dice",
    "shuffled_kinds",
    "shuffled_tiles",
    "stacked_wall",
]


_T = TypeVar("_T", Tile, int)


class WallError(MahjongError):
    """A wall that cannot exist: wrong size, a fifth copy, a stacked deal that does not fit."""


def _deal_positions() -> tuple[tuple[int, ...], ...]:
    pos: list[list[int]] = [[], [], [], []]
    for rnd in range(3):
        for seat in range(4):
            start = 16 * rnd + 4 * seat
            pos[seat].extend(range(start, start + 4))
    pos[0].extend((48, 52))
    pos[1].append(49)
    pos[2].append(50)
    pos[3].append(51)
    return tuple(tuple(p) for p in pos)


DEAL_POSITIONS: tuple[tuple[int, ...], ...] = _deal_positions()
"""Wall indices (draw order) dealt to each seat: 4-4-4 from the dealer, then the jump."""
DEAL_SIZE = 53
"""Tiles taken from the head by the deal."""


_PLAYING = tuple(Tile(k) for k in range(34) for _ in range(4))
_WITH_BONUS = _PLAYING + tuple(Tile(k) for k in range(34, 42))


def full_tile_set(*, bonus_tiles: bool = True) -> list[Tile]:
    """The 144 tiles (136 without flowers and seasons), sorted; a new list each call."""
    return list(_WITH_BONUS if bonus_tiles else _PLAYING)


_PLAYING_KINDS = tuple(int(t) for t in _PLAYING)
_WITH_BONUS_KINDS = tuple(int(t) for t in _WITH_BONUS)
_TILES = tuple(Tile(k) for k in range(42))


def shuffled_tiles(seed: bytes, *, bonus_tiles: bool = True) -> list[Tile]:
    """洗牌: the full tile set shuffled deterministically from ``seed`` (SHA-256 seeded).

    >>> shuffled_tiles(b"x") == shuffled_tiles(b"x")
    True
    """
    return [_TILES[k] for k in shuffled_kinds(seed, bonus_tiles=bonus_tiles)]


def shuffled_kinds(seed: bytes, *, bonus_tiles: bool = True) -> list[int]:
    """:func:`shuffled_tiles` as tile numbers (what the engine keeps): the same order.

    The shuffle is ``random.Random.shuffle``'s (Fisher-Yates from the last position, each index
    drawn by ``getrandbits`` with rejection, as ``_randbelow`` does) written out, so a wall costs
    no method call per tile; tests/engine/test_wall_actions_events.py checks it against
    ``Random.shuffle`` for many seeds.
    """
    rng = random.Random(hashlib.sha256(b"hkmahjong/wall\x00" + bytes(seed)).digest())
    x = list(_WITH_BONUS_KINDS if bonus_tiles else _PLAYING_KINDS)
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


def roll_dice(seed: bytes) -> tuple[int, int, int]:
    """擲骰: three dice, deterministic from ``seed``."""
    rng = random.Random(hashlib.sha256(b"hkmahjong/dice\x00" + bytes(seed)).digest())
    return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def build_wall(tiles: Sequence[_T], dice: tuple[int, int, int]) -> tuple[list[_T], str]:
    """砌牌 and 開牌: stack ``tiles`` into four walls, break at the dice; the wall in draw order.

    ``tiles`` are laid stack by stack (top, bottom) into the walls in draw order E, N, W, S, each
    from its right end. Returns the wall in draw order and a one-line description of the break.

    :raises WallError: when the tile count is not 144 or 136, or a die is not 1–6.
    """
    n = len(tiles)
    if n not in (144, 136):
        raise WallError(f"a wall holds 144 tiles (136 without bonus tiles), got {n}")
    if len(dice) != 3 or any(not 1 <= d <= 6 for d in dice):
        raise WallError(f"three dice of 1–6 are rolled, got {dice!r}")
    per_wall = n // 8  # stacks in one wall: 18 (or 17)
    stacks = n // 2
    total = sum(dice)
    wall_seat = Wind((total - 1) % 4)
    # In draw order the walls are E, N, W, S: seat s's wall starts at stack per_wall * ((4-s) % 4).
    start_stack = (per_wall * ((4 - wall_seat) % 4) + total) % stacks
    wall: list[_T] = []
    for k in range(stacks):
        s = (start_stack + k) % stacks
        wall.append(tiles[2 * s])
        wall.append(tiles[2 * s + 1])
    text = (
        f"dice {dice[0]}+{dice[1]}+{dice[2]}={total}: {wall_seat.zh} wall, "
        f"break {total} stacks from its right end"
    )
    return wall, text


def _as_tiles(spec: str | Sequence[Tile]) -> list[Tile]:
    return parse_tiles(spec) if isinstance(spec, str) else [Tile(t) for t in spec]


def stacked_wall(
    deals: Mapping[Wind, str | Sequence[Tile]] | None = None,
    draws: str | Sequence[Tile] = (),
    replacements: str | Sequence[Tile] = (),
    *,
    bonus_tiles: bool = True,
) -> list[Tile]:
    """A chosen wall in draw order for scenario tests: each seat's deal, head draws, tail tiles.

    ``deals`` maps a seat to its dealt tiles (14 for East, 13 for the others; a seat left out
    gets filler tiles), ``draws`` are the head draws after the deal in order, ``replacements``
    the tail tiles in the order they are taken (bonus and kong replacements). Every other tile
    fills the middle in a fixed order. Pass the result as ``HandState.new(..., wall=...)``.

    >>> w = stacked_wall({Wind.EAST: "123456789m12345p"}, draws="7z")
    >>> w[0], w[53], len(w)
    (Tile.M1, Tile.RED, 144)

    :raises WallError: when a deal has the wrong size or a tile is used more than it exists.
    """
    pool = full_tile_set(bonus_tiles=bonus_tiles)
    remaining = [0] * 42
    for t in pool:
        remaining[t] += 1
    n = len(pool)
    wall: list[Tile | None] = [None] * n

    def take(t: Tile, where: str) -> Tile:
        if remaining[t] <= 0:
            raise WallError(f"stacked wall uses {t.mpsz} more often than it exists ({where})")
        remaining[t] -= 1
        return t

    for seat, spec in (deals or {}).items():
        tiles = _as_tiles(spec)
        need = len(DEAL_POSITIONS[seat])
        if len(tiles) != need:
            raise WallError(f"seat {Wind(seat).letter} is dealt {need} tiles, got {len(tiles)}")
        for pos, t in zip(DEAL_POSITIONS[seat], tiles, strict=True):
            wall[pos] = take(t, f"deal of {Wind(seat).letter}")
    head = _as_tiles(draws)
    tail = _as_tiles(replacements)
    if DEAL_SIZE + len(head) + len(tail) > n:
        raise WallError(f"{len(head)} draws and {len(tail)} replacements do not fit in the wall")
    for i, t in enumerate(head):
        wall[DEAL_SIZE + i] = take(t, f"draw {i + 1}")
    for i, t in enumerate(tail):
        wall[n - 1 - i] = take(t, f"replacement {i + 1}")
    # Filler: playing tiles round-robin over kinds (no accidental quads), bonus tiles mid-wall.
    plain = [Tile(k) for c in range(4) for k in range(34) if remaining[k] > c]
    bonus = [Tile(k) for k in range(34, 42) if remaining[k]]
    free = [i for i, t in enumerate(wall) if t is None]
    middle = max(len(free) // 2, len(free) - len(bonus))
    middle = min(middle, len(free) // 2 + 1) if len(free) > len(bonus) else 0
    filler = plain[:middle] + bonus + plain[middle:]
    for i, t in zip(free, filler, strict=True):
        wall[i] = t
    return [t for t in wall if t is not None]
