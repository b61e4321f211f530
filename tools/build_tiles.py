"""Draw the parlor's tile pictures (牌圖) and app icons into the web package data.

Writes ``src/hkmahjong/server/web/static/tiles/<mpsz>.svg`` for the 34 playing tiles and the eight
bonus tiles (``1f``–``4f`` 梅蘭菊竹, ``1g``–``4g`` 春夏秋冬) plus ``back.svg``, and the web app icons
``static/icons/icon-192.png`` / ``icon-512.png`` / ``icon.svg``. Everything is drawn from the code
below (no font is needed for the dots, bamboo and icons; characters and honours use the system's
CJK serif), so the output is byte-for-byte reproducible: ``tests/server/test_tiles.py`` regenerates
into a temporary directory and compares.

Usage: ``python tools/build_tiles.py [OUT_DIR]`` (default: the package's ``static`` directory).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

from hkmahjong.tiles import Tile

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "hkmahjong" / "server" / "web" / "static"

W, H = 48, 64
BLUE, GREEN, RED, INK = "#1f4e9c", "#16754a", "#c0262d", "#1b2440"
FONT = (
    "'Noto Serif CJK TC','Noto Serif CJK SC','Noto Sans CJK TC','Noto Sans CJK SC',"
    "'Source Han Serif TC','PingFang TC','Microsoft JhengHei','Songti TC',serif"
)
NUMERALS = "一二三四五六七八九"

Dot = tuple[float, float, float, str]


def _fmt(x: float) -> str:
    return f"{x:g}"


def _face(title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"'
        f' role="img" aria-label="{title}">\n'
        f"<title>{title}</title>\n"
        f'<rect x="1" y="2" width="{W - 2}" height="{H - 3}" rx="5" fill="#1d6b47"/>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 5}" rx="5" fill="#fdfaf1"'
        ' stroke="#b8ae96" stroke-width="1"/>\n'
        f"{body}</svg>\n"
    )


def _index(n: int, colour: str = INK) -> str:
    return (
        f'<text x="3.2" y="8.6" font-family="Arial,Helvetica,sans-serif" font-size="7"'
        f' font-weight="700" fill="{colour}">{n}</text>\n'
    )


def _text(x: float, y: float, size: float, colour: str, text: str, weight: str = "700") -> str:
    return (
        f'<text x="{_fmt(x)}" y="{_fmt(y)}" font-family="{FONT}" font-size="{_fmt(size)}"'
        f' font-weight="{weight}" fill="{colour}" text-anchor="middle"'
        f' dominant-baseline="central">{text}</text>\n'
    )


# -- 筒 dots ------------------------------------------------------------------------------------
_DOTS: dict[int, list[Dot]] = {
    1: [(24, 30, 15, GREEN)],
    2: [(24, 17, 9, GREEN), (24, 43, 9, BLUE)],
    3: [(13, 13, 7.5, BLUE), (24, 30, 7.5, RED), (35, 47, 7.5, GREEN)],
    4: [(14, 17, 8, BLUE), (34, 17, 8, GREEN), (14, 43, 8, GREEN), (34, 43, 8, BLUE)],
    5: [
        (13, 14, 7, BLUE),
        (35, 14, 7, GREEN),
        (24, 30, 7, RED),
        (13, 46, 7, GREEN),
        (35, 46, 7, BLUE),
    ],
    6: [(15, 12, 6.5, GREEN), (33, 12, 6.5, GREEN)]
    + [(x, y, 6.5, RED) for y in (31, 48) for x in (15, 33)],
    7: [(13.5, 11.5, 5.5, GREEN), (24, 16, 5.5, GREEN), (34.5, 20.5, 5.5, GREEN)]
    + [(x, y, 6, RED) for y in (35, 49) for x in (15, 33)],
    8: [(x, y, 5.5, BLUE) for y in (10, 23, 36, 49) for x in (15, 33)],
    9: [(x, y, 6, c) for y, c in ((14, BLUE), (30.5, RED), (47, GREEN)) for x in (12.5, 24, 35.5)],
}


def _dot(cx: float, cy: float, r: float, colour: str) -> str:
    c, y = _fmt(cx), _fmt(cy)
    out = f'<circle cx="{c}" cy="{y}" r="{_fmt(r)}" fill="{colour}"/>\n'
    out += f'<circle cx="{c}" cy="{y}" r="{_fmt(r * 0.68)}" fill="#fdfaf1"/>\n'
    out += f'<circle cx="{c}" cy="{y}" r="{_fmt(r * 0.42)}" fill="{colour}"/>\n'
    if r >= 12:
        for k in range(8):
            a = k * math.pi / 4
            px, py = cx + math.cos(a) * r * 0.84, cy + math.sin(a) * r * 0.84
            out += f'<circle cx="{px:.2f}" cy="{py:.2f}" r="1.3" fill="#fdfaf1"/>\n'
    return out


def dots(n: int) -> str:
    """The body of the ``n`` 筒 tile."""
    return "".join(_dot(*d) for d in _DOTS[n]) + (_index(n) if n > 1 else "")


# -- 索 bamboo ----------------------------------------------------------------------------------
def _stick(cx: float, top: float, height: float, colour: str) -> str:
    x = _fmt(cx - 2.6)
    out = (
        f'<rect x="{x}" y="{_fmt(top)}" width="5.2" height="{_fmt(height)}" rx="2.2"'
        f' fill="{colour}"/>\n'
    )
    mid = top + height / 2
    for y in (top + 1.6, mid, top + height - 1.6):
        out += (
            f'<line x1="{_fmt(cx - 2.6)}" y1="{_fmt(y)}" x2="{_fmt(cx + 2.6)}" y2="{_fmt(y)}"'
            ' stroke="#fdfaf1" stroke-width="1"/>\n'
        )
    return out


_STICKS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(24, 7, 20, GREEN), (24, 33, 20, BLUE)],
    3: [(24, 7, 20, GREEN), (15, 33, 20, BLUE), (33, 33, 20, BLUE)],
    4: [(15, 7, 20, BLUE), (33, 7, 20, GREEN), (15, 33, 20, GREEN), (33, 33, 20, BLUE)],
    5: [
        (12, 7, 20, GREEN),
        (36, 7, 20, BLUE),
        (24, 20, 20, RED),
        (12, 33, 20, BLUE),
        (36, 33, 20, GREEN),
    ],
    6: [(x, y, 20, GREEN if y < 20 else BLUE) for y in (7, 33) for x in (12, 24, 36)],
    7: [(24, 4, 14, RED)] + [(x, y, 16, GREEN) for y in (21, 39) for x in (12, 24, 36)],
    8: [
        (x, y, 19, GREEN if x in (10, 38) else BLUE)
        for y in (9.5, 34.5)
        for x in (10, 19.5, 28.5, 38)
    ],
    9: [(x, y, 14, RED if x == 24 else GREEN) for y in (5, 23, 41) for x in (12, 24, 36)],
}

_BIRD = (
    '<path d="M12 42 Q8 30 16 22 Q22 16 30 18 Q38 20 38 28 Q38 38 28 44 Z" fill="{g}"/>\n'
    '<path d="M28 44 L22 56 M28 44 L30 57 M28 44 L36 54" stroke="{r}" stroke-width="2.2"'
    ' stroke-linecap="round" fill="none"/>\n'
    '<circle cx="33" cy="16" r="6" fill="{r}"/>\n'
    '<path d="M38 15 L44 17 L38 19 Z" fill="#d89a1c"/>\n'
    '<circle cx="34.5" cy="14.5" r="1.3" fill="#fdfaf1"/>\n'
    '<path d="M15 34 Q22 28 30 32" stroke="#fdfaf1" stroke-width="1.4" fill="none"/>\n'
    '<path d="M14 28 Q8 20 12 10" stroke="{b}" stroke-width="2.4" fill="none"'
    ' stroke-linecap="round"/>\n'
)


def bamboo(n: int) -> str:
    """The body of the ``n`` 索 tile (一索 is the bird)."""
    if n == 1:
        return _BIRD.format(g=GREEN, r=RED, b=BLUE) + _index(1)
    return "".join(_stick(*s) for s in _STICKS[n]) + _index(n)


# -- 萬, honours and bonus tiles -----------------------------------------------------------------
def characters(n: int) -> str:
    """The body of the ``n`` 萬 tile: the numeral over a red 萬."""
    return _text(24, 19, 19, INK, NUMERALS[n - 1]) + _text(24, 44, 22, RED, "萬") + _index(n)


_HONOUR_COLOUR = {27: INK, 28: INK, 29: INK, 30: INK, 32: GREEN, 33: RED}


def honour(tile: Tile) -> str:
    """The body of a wind or dragon tile (白 is a blue frame)."""
    if tile is Tile.WHITE:
        return (
            '<rect x="9" y="9" width="30" height="42" rx="2" fill="none"'
            f' stroke="{BLUE}" stroke-width="3"/>\n'
            '<rect x="14" y="14" width="20" height="32" rx="1" fill="none"'
            f' stroke="{BLUE}" stroke-width="1.2"/>\n'
        )
    return _text(24, 30, 32, _HONOUR_COLOUR[int(tile)], tile.zh)


def bonus(tile: Tile) -> str:
    """The body of a flower (梅蘭菊竹, red) or season (春夏秋冬, blue) with its seat number."""
    n = (int(tile) - 34) % 4 + 1
    flower = int(tile) < 38
    colour = RED if flower else BLUE
    leaf = GREEN if flower else "#d89a1c"
    return (
        f'<circle cx="24" cy="26" r="13" fill="none" stroke="{leaf}" stroke-width="1.6"'
        ' stroke-dasharray="3 2"/>\n'
        + _text(24, 26, 19, colour, tile.zh)
        + _text(24, 50, 10, leaf, "花" if flower else "季", "400")
        + _index(n, colour)
    )


def tile_svg(tile: Tile) -> str:
    """The whole SVG picture of ``tile`` with its accessible name (Chinese and English)."""
    title = f"{tile.zh} {tile.en}"
    i = int(tile)
    if i < 9:
        body = characters(tile.rank)
    elif i < 18:
        body = dots(tile.rank)
    elif i < 27:
        body = bamboo(tile.rank)
    elif i < 34:
        body = honour(tile)
    else:
        body = bonus(tile)
    return _face(title, body)


def back_svg() -> str:
    """The back of a tile (牌背), for the other players' concealed tiles."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}"'
        ' role="img" aria-label="牌背 tile back">\n<title>牌背 tile back</title>\n'
        f'<rect x="1" y="2" width="{W - 2}" height="{H - 3}" rx="5" fill="#fdfaf1"/>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 5}" rx="5" fill="#1d6b47"'
        ' stroke="#124a30" stroke-width="1"/>\n'
        '<rect x="7" y="7" width="34" height="46" rx="3" fill="none" stroke="#2f8f62"'
        ' stroke-width="1.5"/>\n</svg>\n'
    )


# -- icons ----------------------------------------------------------------------------------------
def _png(size: int, pixel: Callable[[float, float], tuple[int, int, int, int]]) -> bytes:
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            rows.extend(pixel((x + 0.5) / size, (y + 0.5) / size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def _in_round_rect(
    x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float
) -> bool:
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _icon_pixel(x: float, y: float) -> tuple[int, int, int, int]:
    """The app icon: an ivory 一筒 tile on the table's green (maskable: the tile sits in the safe zone)."""
    d = ((x - 0.5) ** 2 + (y - 0.5) ** 2) ** 0.5
    if _in_round_rect(x, y, 0.27, 0.2, 0.73, 0.8, 0.06):
        if d < 0.07:
            return (192, 38, 45, 255)
        if d < 0.11:
            return (253, 250, 241, 255)
        if d < 0.17:
            return (22, 117, 74, 255)
        return (253, 250, 241, 255)
    if _in_round_rect(x, y, 0.27, 0.22, 0.73, 0.82, 0.06):
        return (18, 74, 48, 255)
    return (29, 107, 71, 255)


ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img"'
    ' aria-label="香港麻雀 HK mahjong">\n'
    '<rect width="100" height="100" fill="#1d6b47"/>\n'
    '<rect x="27" y="22" width="46" height="60" rx="6" fill="#124a30"/>\n'
    '<rect x="27" y="20" width="46" height="60" rx="6" fill="#fdfaf1"/>\n'
    '<circle cx="50" cy="50" r="17" fill="#16754a"/>\n'
    '<circle cx="50" cy="50" r="11" fill="#fdfaf1"/>\n'
    '<circle cx="50" cy="50" r="7" fill="#c0262d"/>\n</svg>\n'
)


def build(out: Path) -> list[Path]:
    """Write every tile picture and icon under ``out``; returns the paths written."""
    written: list[Path] = []
    tiles_dir, icons_dir = out / "tiles", out / "icons"
    tiles_dir.mkdir(parents=True, exist_ok=True)
    icons_dir.mkdir(parents=True, exist_ok=True)
    for tile in Tile:
        path = tiles_dir / f"{tile.mpsz}.svg"
        path.write_text(tile_svg(tile), encoding="utf-8")
        written.append(path)
    back = tiles_dir / "back.svg"
    back.write_text(back_svg(), encoding="utf-8")
    written.append(back)
    icon = icons_dir / "icon.svg"
    icon.write_text(ICON_SVG, encoding="utf-8")
    written.append(icon)
    for size in (192, 512):
        path = icons_dir / f"icon-{size}.png"
        path.write_bytes(_png(size, _icon_pixel))
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    """Command line: ``build_tiles.py [OUT_DIR]``."""
    out = Path(argv[0]) if argv else STATIC
    for path in build(out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
