"""重播 in the parlor's interface: step through a game record (牌譜) with every hand open.

``run_replay_app(path)`` is what ``hkmj replay FILE --tui`` calls. The record is replayed by the
engine (:func:`hkmahjong.engine.record.replay`, which checks every wall and event), and each step
becomes one frame of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from hkmahjong.cli.tui.game import action_label, table_snapshot
from hkmahjong.cli.tui.i18n import tr
from hkmahjong.cli.tui.model import TableInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.widgets import SeatPanel, StatusBar
from hkmahjong.engine import EventKind
from hkmahjong.engine.match import Match
from hkmahjong.engine.record import GameRecord, RecordError, ReplayStep, replay
from hkmahjong.errors import MahjongError
from hkmahjong.tiles import Wind

__all__ = ["Frame", "ReplayApp", "load_frames", "run_replay_app"]


@dataclass(frozen=True)
class Frame:
    """One step of a replay: the table after it and a caption saying what happened."""

    table: TableInfo
    caption: str
    hand: int


def load_frames(path: Path, renderer: TileRenderer, *, seat_of_player: int = 0) -> list[Frame]:
    """Every step of the record at ``path`` as frames, seen from player ``seat_of_player``.

    A record of a match in progress (saved by ``hkmj play``) shows its finished hands.

    :raises RecordError: when the record cannot be read or does not replay.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", source=str(path)) from None
    record = GameRecord.loads(text, source=str(path), partial=True)
    match = Match.from_config(record.match)
    frames: list[Frame] = []
    names = match.players
    repeat = 0
    for step in replay(record):
        hand = step.hand
        if step.action is None:
            repeat = match.repeat
        if step.action is not None and step.state.is_over and hand.result is not None:
            match.record(hand.result, allow_debt=True)
        seat_players = [(hand.dealer + int(seat)) % 4 for seat in Wind]
        me = Wind(seat_players.index(seat_of_player))
        balances = match.balances
        last = None
        for event in reversed(step.events):
            if event.kind is EventKind.DISCARD and event.seat is not None:
                last = (event.seat, len(step.state.view(me).discards[event.seat]) - 1)
                break
        table = table_snapshot(
            step.state.view,
            me,
            names=[names[p] for p in seat_players],
            humans=[False] * 4,
            scores=[balances[p] - match.starting_balance for p in seat_players],
            hand_number=hand.number + 1,
            repeat=repeat,
            last_discard=last,
            ruleset=str(record.rules.get("preset", "custom")),
            length=match.length.zh,
            reveal=True,
        )
        frames.append(Frame(table, _caption(step, names, seat_players, renderer), hand.number))
    return frames


def _caption(
    step: ReplayStep, names: tuple[str, ...], seat_players: list[int], r: TileRenderer
) -> str:
    if step.action is None or step.seat is None:
        dealer = names[step.hand.dealer]
        return f"{tr(r.lang, 'hand_no', n=step.hand.number + 1)} · {tr(r.lang, 'dealer')}: {dealer}"
    who = names[seat_players[step.seat]]
    words = action_label(step.action, r)
    events = []
    for e in step.events:
        if e.kind is EventKind.WIN and e.seat is not None:
            how = "win" if e.source is not None else "self_draw"
            events.append(f"{names[seat_players[e.seat]]} {tr(r.lang, how)}")
        elif e.kind is EventKind.EXHAUSTIVE_DRAW:
            events.append(tr(r.lang, "draw_game"))
    tail = f"  → {'; '.join(events)}" if events else ""
    return f"{r.wind(step.seat)} {who}: {words}{tail}"


class ReplayApp(App[int]):
    """重播: the table of each step; ←/→ step, PgUp/PgDn hand, Home/End, q quit."""

    CSS_PATH = "parlor.tcss"
    TITLE = "hkmj replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "next", show=False),
        Binding("left,b", "step(-1)", "back", show=False),
        Binding("pagedown", "hand(1)", "next hand", show=False),
        Binding("pageup", "hand(-1)", "previous hand", show=False),
        Binding("home", "jump(0)", "first", show=False),
        Binding("end", "jump(-1)", "last", show=False),
        Binding("q,escape", "quit", "quit", show=False),
    ]

    def __init__(self, frames: list[Frame], renderer: TileRenderer) -> None:
        super().__init__()
        if not frames:
            raise RecordError("the record holds no finished hand to replay")
        self.frames = frames
        self.renderer = renderer
        self.index = 0

    def compose(self) -> ComposeResult:
        """Status line, the four seats with their hands open, the caption and the keys."""
        yield StatusBar(id="status")
        with Vertical(id="table"):
            for offset in (1, 2, 3, 0):
                yield SeatPanel(id=f"seat-{offset}", classes="seat")
        yield Static("", id="message")
        yield Static(tr(self.renderer.lang, "replay_keys"), id="keys")

    def on_mount(self) -> None:
        """Show the first frame."""
        self.show()

    def show(self) -> None:
        """Draw the current frame."""
        frame = self.frames[self.index]
        table = frame.table
        self.query_one(StatusBar).show(table, self.renderer)
        for seat in table.seats:
            offset = (seat.wind - table.me) % 4
            self.query_one(f"#seat-{offset}", SeatPanel).show(seat, table, self.renderer)
        caption = Text(f"{self.index + 1}/{len(self.frames)}  ", style="dim")
        caption.append(frame.caption, style="bold")
        self.query_one("#message", Static).update(caption)

    def action_step(self, delta: int) -> None:
        """Move ``delta`` steps."""
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self.show()

    def action_hand(self, delta: int) -> None:
        """Go to the start of the next (or previous) hand."""
        current = self.frames[self.index].hand
        target = current + delta
        for i, frame in enumerate(self.frames):
            if frame.hand == target:
                self.index = i
                self.show()
                return

    def action_jump(self, where: int) -> None:
        """Go to the first or the last step."""
        self.index = 0 if where == 0 else len(self.frames) - 1
        self.show()


def run_replay_app(record_path: str | Path, *, lang: str = "zh-Hant", tiles: str = "auto") -> int:
    """Replay the record at ``record_path`` in the parlor's interface; returns the exit status.

    :raises MahjongError: when the record cannot be read or does not replay.
    """
    from hkmahjong.cli.tui.launch import tile_renderer

    renderer = tile_renderer(lang, tiles)
    frames = load_frames(Path(record_path), renderer)
    if not frames:
        raise MahjongError(f"{record_path}: no finished hand to replay yet")
    return int(ReplayApp(frames, renderer).run() or 0)
