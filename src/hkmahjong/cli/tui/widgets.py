"""The parlor's widgets (枱面): status bar, seat panels with discards, the own hand, the action bar."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from hkmahjong.cli.tui.i18n import relation, tr
from hkmahjong.cli.tui.model import SeatInfo, TableInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.tiles import Tile

__all__ = ["HandView", "SeatPanel", "StatusBar", "format_score", "status_text"]


def format_score(value: float) -> str:
    """A jade amount with its sign, without a needless ``.0``."""
    number = int(value) if float(value).is_integer() else value
    return f"{number:+}"


def status_text(table: TableInfo, renderer: TileRenderer) -> str:
    """The one-line status (圈風, 局, 莊, 牌牆) of the table."""
    lang = renderer.lang
    dealer = next((s for s in table.seats if s.is_dealer), None)
    parts = [
        tr(lang, "round", w=renderer.wind(table.prevailing)),
        tr(lang, "hand_no", n=table.hand_number),
    ]
    if table.dealer_repeat:
        parts.append(tr(lang, "repeat", n=table.dealer_repeat))
    if dealer is not None:
        parts.append(f"{tr(lang, 'dealer')}: {dealer.name}")
    parts.append(tr(lang, "wall", n=table.wall_left))
    if table.ruleset:
        parts.append(table.ruleset)
    return "  ·  ".join(parts)


class StatusBar(Static):
    """The top line: prevailing wind, hand number, dealer, tiles left in the wall."""

    def show(self, table: TableInfo, renderer: TileRenderer) -> None:
        """Redraw for ``table``."""
        self.update(Text(status_text(table, renderer), style="bold"))


def seat_text(seat: SeatInfo, table: TableInfo, renderer: TileRenderer, width: int) -> Text:
    """One seat's panel as rich text: header (wind, name, dealer, score), sets, bonus, discards."""
    lang = renderer.lang
    offset = (seat.wind - table.me) % 4
    text = Text()
    turn = table.to_act == seat.wind
    text.append("▶ " if turn else "  ", style="bold yellow")
    text.append(renderer.wind(seat.wind), style="bold cyan")
    text.append(f" {relation(offset, lang)} ", style="cyan")
    text.append(seat.name, style="bold" if seat.is_human else "")
    if seat.is_dealer:
        text.append(f" [{tr(lang, 'dealer')}]", style="bold red")
    text.append(f" {format_score(seat.score)}", style="green" if seat.score >= 0 else "red")
    if not seat.is_human:
        text.append(f" {tr(lang, 'tiles', n=seat.concealed_count)}", style="dim")
    _append_sets(text, seat, renderer, width, indent=4)
    text.append("\n")
    if seat.concealed is not None and not seat.is_human:
        text.append("    ")
        text.append(renderer.tiles(seat.concealed), style="bold white on grey23")
        text.append("\n")
    step = renderer.width + 1
    per_line = max(1, (width - 4) // step)
    last = table.last_discard
    line_len = 0
    text.append("    ")
    for i, tile in enumerate(seat.discards):
        if line_len == per_line:
            text.append("\n    ")
            line_len = 0
        claimed = i < len(seat.claimed) and seat.claimed[i]
        style = "dim strike" if claimed else ""
        if last is not None and last == (seat.wind, i):
            style = "bold black on yellow"
        text.append(renderer.tile(tile), style=style)
        text.append(" ")
        line_len += 1
    return text


def set_parts(seat: SeatInfo, renderer: TileRenderer) -> list[list[tuple[str, str]]]:
    """A seat's declared sets and its bonus tiles as unbreakable parts of (text, style) pieces."""
    parts = [[(renderer.meld(meld), "bold magenta")] for meld in seat.melds]
    if seat.bonus:
        tiles = " ".join(renderer.bare(t) for t in seat.bonus)
        parts.append([(f"{tr(renderer.lang, 'bonus')}: ", "dim"), (tiles, "magenta")])
    return parts


def _append_sets(
    text: Text, seat: SeatInfo, renderer: TileRenderer, width: int, *, indent: int
) -> None:
    """Append the sets and bonus tiles after ``text``'s last line, two spaces apart; a part that
    would pass ``width`` starts a new line ``indent`` cells in (never at column 0 of a wrap)."""
    column = cell_len(text.plain.rsplit("\n", 1)[-1])
    for part in set_parts(seat, renderer):
        size = sum(cell_len(piece) for piece, _ in part)
        gap = 2 if column else 0
        if column and column + gap + size > width:
            text.append("\n" + " " * indent)
            column, gap = indent, 0
        text.append(" " * gap)
        for piece, style in part:
            text.append(piece, style=style)
        column += gap + size


class SeatPanel(Static):
    """One seat: wind, relation (上家/對家/下家), name, dealer mark, score, sets, discards in order."""

    def show(self, seat: SeatInfo, table: TableInfo, renderer: TileRenderer) -> None:
        """Redraw for ``seat``."""
        width = self.size.width or 80
        self.set_class(seat.wind == table.to_act, "to-act")
        self.update(seat_text(seat, table, renderer, width))


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    index: int


class HandView(Widget):
    """The own hand (手牌): sorted concealed tiles, the drawn tile apart, sets and bonus tiles below.

    Index ``i`` of :attr:`tiles` is what selection and clicks refer to; the drawn tile, when there
    is one, is the last index.
    """

    can_focus = True
    selected: reactive[int] = reactive(0)

    class TileClicked(Message):
        """A tile of the hand was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, renderer: TileRenderer, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.renderer = renderer
        self.tiles: list[Tile] = []
        self.drawn: Tile | None = None
        self.seat: SeatInfo | None = None
        self.allowed: set[Tile] | None = None
        self._spans: list[_Span] = []

    def show(self, table: TableInfo, seat: SeatInfo, renderer: TileRenderer) -> None:
        """Set the hand from ``table`` and keep the selection on the same tile where possible."""
        previous = self.current_tile()
        self.renderer = renderer
        self.tiles = list(table.concealed)
        self.drawn = table.drawn
        if self.drawn is not None:
            self.tiles.remove(self.drawn)
            self.tiles.sort()
            self.tiles.append(self.drawn)
        else:
            self.tiles.sort()
        self.seat = seat
        if self.drawn is not None:
            self.selected = len(self.tiles) - 1
        elif previous in self.tiles:
            self.selected = self.tiles.index(previous)
        else:
            self.selected = min(self.selected, max(0, len(self.tiles) - 1))
        self.refresh()

    def current_tile(self) -> Tile | None:
        """The selected tile, if any."""
        if 0 <= self.selected < len(self.tiles):
            return self.tiles[self.selected]
        return None

    def move(self, step: int) -> None:
        """Move the selection by ``step`` tiles, wrapping around."""
        if self.tiles:
            self.selected = (self.selected + step) % len(self.tiles)

    def select_tile(self, tile: Tile) -> bool:
        """Select a copy of ``tile`` (the drawn one last); False when the hand holds none."""
        for i in range(len(self.tiles) - 1, -1, -1):
            if self.tiles[i] == tile:
                self.selected = i
                return True
        return False

    def render(self) -> Text:
        """Draw the tiles with the selection highlighted, then the sets and bonus tiles."""
        text = Text()
        self._spans = []
        pos = 0
        r = self.renderer
        for i, tile in enumerate(self.tiles):
            if self.drawn is not None and i == len(self.tiles) - 1:
                text.append("   ")
                pos += 3
            label = r.tile(tile)
            if i == self.selected:
                style = "bold black on bright_yellow"
            elif self.allowed is not None and tile not in self.allowed:
                style = "dim on grey19"
            else:
                style = "bold white on grey23"
            text.append(label, style=style)
            width = cell_len(label)
            self._spans.append(_Span(pos, pos + width, i))
            pos += width
            text.append(" ")
            pos += 1
        text.append("\n")
        if self.seat is not None:
            _append_sets(text, self.seat, r, self.size.width or 80, indent=2)
        return text

    def index_at(self, x: int) -> int | None:
        """The tile index drawn at column ``x`` of the first line, if any."""
        for span in self._spans:
            if span.start <= x < span.end:
                return span.index
        return None

    def on_click(self, event: events.Click) -> None:
        """Select the clicked tile and tell the app (a click on the selected tile discards it)."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y != 0:
            return
        index = self.index_at(offset.x)
        if index is not None:
            self.post_message(self.TileClicked(index))
