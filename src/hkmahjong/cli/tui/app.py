"""The terminal parlor (麻雀館): a Textual app where one human plays a match against three bots."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, Static

from hkmahjong.cli.tui.controller import GameController
from hkmahjong.cli.tui.i18n import os_error_text, tr
from hkmahjong.cli.tui.launch import default_save_path
from hkmahjong.cli.tui.model import Options, TableInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.screens import (
    KEYS_HELP,
    HandEndScreen,
    HintScreen,
    MatchEndScreen,
    hand_end_text,
    hint_text,
    match_end_text,
)
from hkmahjong.cli.tui.widgets import HandView, SeatPanel, StatusBar
from hkmahjong.errors import MahjongError
from hkmahjong.tiles import Tile

__all__ = ["ParlorApp"]

_BUTTONS = ("discard", "win", "pung", "kong", "chow", "pass", "hint")


class ParlorApp(App[int]):
    """香港麻雀: the table, the own hand, claim prompts, hints, hand and match results."""

    CSS_PATH = "parlor.tcss"
    TITLE = "hkmj play"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("enter", "discard", "discard", show=False),
        Binding("space", "discard", "discard", show=False),
        Binding("w", "win", "win"),
        Binding("p", "pung", "pung"),
        Binding("k", "kong", "kong"),
        Binding("c", "chow", "chow"),
        Binding("x", "pass", "pass"),
        Binding("h", "hint", "hint"),
        Binding("s", "save", "save"),
        Binding("q", "quit_game", "quit"),
        Binding("1", "choose(0)", show=False),
        Binding("2", "choose(1)", show=False),
        Binding("3", "choose(2)", show=False),
    ]

    def __init__(
        self,
        controller: GameController,
        *,
        renderer: TileRenderer | None = None,
        bot_delay: float = 0.3,
        claim_timer: float | None = None,
        save_path: Path | None = None,
        debug_hints: bool = False,
    ) -> None:
        super().__init__()
        self.debug_hints = debug_hints
        self.controller = controller
        self.renderer = renderer or TileRenderer()
        self.bot_delay = bot_delay
        self.claim_timer = claim_timer
        self.save_path = save_path or default_save_path()
        self.options = Options()
        self.table: TableInfo | None = None
        self.countdown: float | None = None
        self.choosing_chow = False
        self.quit_armed = False
        self.last_message = ""
        self._advancing = False

    # --- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """Status line, the three other seats in play order, own discards, own hand, actions."""
        yield StatusBar(id="status")
        with Vertical(id="table"):
            for offset in (1, 2, 3):
                yield SeatPanel(id=f"seat-{offset}", classes="seat")
            yield Static("", id="spacer")
            yield SeatPanel(id="seat-0", classes="seat")
        yield HandView(self.renderer, id="hand")
        with Horizontal(id="actions"):
            for name in _BUTTONS:
                label = tr(self.renderer.lang, name)
                yield Button(label, id=f"btn-{name}", compact=True)
            for i in range(3):
                yield Button("", id=f"btn-chow{i}", compact=True, classes="chow-choice")
            yield Static("", id="countdown")
        yield Static("", id="message")
        yield Static(KEYS_HELP.get(self.renderer.lang, KEYS_HELP["en"]), id="keys")

    def on_mount(self) -> None:
        """Draw the first state and let the bots play until it is the human's turn."""
        for button in self._table_screen.query(Button):
            button.can_focus = False  # Enter and space always mean "discard", never "press"
        self._table_screen.query_one(HandView).focus()
        self.refresh_table()
        self.set_interval(0.25, self._tick)
        self.kick()

    # --- drawing ---------------------------------------------------------------------------
    @property
    def _table_screen(self) -> Screen[object]:
        """The table's screen (the first): its widgets stay reachable while a pop-up is open."""
        return self.screen_stack[0]

    def refresh_table(self) -> None:
        """Redraw everything from the controller's current snapshot."""
        table = self.controller.table()
        self.table = table
        self.options = self.controller.options()
        r = self.renderer
        self._table_screen.query_one(StatusBar).show(table, r)
        for seat in table.seats:
            offset = (seat.wind - table.me) % 4
            self._table_screen.query_one(f"#seat-{offset}", SeatPanel).show(seat, table, r)
        hand = self._table_screen.query_one(HandView)
        hand.allowed = set(self.options.discard) if self.options.mode == "turn" else None
        hand.show(table, table.seats[table.me], r)
        self._show_buttons()
        self._show_prompt()

    def _show_buttons(self) -> None:
        opts = self.options
        visible = {
            "discard": opts.mode == "turn" and bool(opts.discard),
            "win": opts.win is not None,
            "pung": opts.pung is not None,
            "kong": bool(opts.kongs),
            "chow": bool(opts.chows),
            "pass": opts.pass_ is not None,
            "hint": opts.mode in ("turn", "claim"),
        }
        if opts.win is not None:
            key = "self_draw" if opts.mode == "turn" else "win"
            self._table_screen.query_one("#btn-win", Button).label = tr(self.renderer.lang, key)
        for name, show in visible.items():
            self._table_screen.query_one(f"#btn-{name}", Button).display = (
                show and not self.choosing_chow
            )
        for i in range(3):
            button = self._table_screen.query_one(f"#btn-chow{i}", Button)
            if self.choosing_chow and i < len(opts.chows):
                first = opts.chows[i].first
                button.label = f"{i + 1}:" + "".join(
                    self.renderer.bare(Tile(first + k)) for k in range(3)
                )
                button.display = True
            else:
                button.display = False

    def _show_prompt(self) -> None:
        opts = self.options
        lang = self.renderer.lang
        if self.choosing_chow:
            prompt = tr(lang, "choose_chow")
        elif opts.mode == "turn":
            prompt = tr(lang, "your_turn")
        elif opts.mode == "claim" and opts.claim_tile is not None:
            who = self._name_of(opts.claim_from)
            key = "rob_on" if opts.claim_kind == "rob" else "claim_on"
            prompt = tr(lang, key, who=who, tile=self.renderer.bare(opts.claim_tile))
        elif opts.mode == "wait":
            prompt = tr(lang, "waiting")
        else:
            prompt = ""
        last = self.table.last_action if self.table is not None else ""
        if (
            last
            and opts.mode in ("turn", "wait")
            and not self.choosing_chow
            and not self.last_message
        ):
            prompt = f"{last}  ·  {prompt}"
        if self.last_message:
            prompt = f"{self.last_message}  {prompt}"
        self._table_screen.query_one("#message", Static).update(prompt)

    def _name_of(self, wind: object) -> str:
        if self.table is None or wind is None:
            return "?"
        for seat in self.table.seats:
            if seat.wind == wind:
                return seat.name
        return "?"

    def say(self, message: str) -> None:
        """Show a short message on the message line (kept until the next action)."""
        self.last_message = message
        self._show_prompt()

    # --- flow ------------------------------------------------------------------------------
    def kick(self) -> None:
        """Let the bots play (in a worker) until the human must act or the hand ends."""
        if not self._advancing:
            self._advancing = True
            self.run_worker(self._advance(), exclusive=True, group="bots")

    async def _advance(self) -> None:
        try:
            while True:
                if self.controller.hand_over():
                    self.refresh_table()
                    self._end_of_hand()
                    return
                if self.controller.human_to_act():
                    self.refresh_table()
                    self._start_countdown()
                    return
                seen = await asyncio.to_thread(self.controller.bot_step)
                if seen:
                    self.refresh_table()
                    if self.bot_delay:
                        await asyncio.sleep(self.bot_delay)
        except Exception as exc:  # an engine or bot bug must not take the terminal down
            self.log.error(f"bot step failed: {exc!r}")
            self.say(tr(self.renderer.lang, "internal_error"))
        finally:
            self._advancing = False

    def _start_countdown(self) -> None:
        if self.options.mode == "claim" and self.claim_timer:
            self.countdown = float(self.claim_timer)
        else:
            self.countdown = None
        self._draw_countdown()

    def _draw_countdown(self) -> None:
        try:  # the table's own screen: a pop-up may be on top; the app may be closing
            widget = self.screen_stack[0].query_one("#countdown", Static)
        except (NoMatches, IndexError):
            return
        if self.countdown is None:
            widget.update("")
        else:
            seconds = max(0, int(self.countdown + 0.999))
            widget.update(f"⏱ {tr(self.renderer.lang, 'seconds', n=seconds)}")

    def _tick(self) -> None:
        if self.countdown is None:
            return
        self.countdown -= 0.25
        self._draw_countdown()
        if self.countdown <= 0:
            self.countdown = None
            self.choosing_chow = False
            if isinstance(self.screen, HintScreen):
                self.pop_screen()
            self._act(self.options.pass_)

    def _act(self, action: object | None) -> bool:
        """Apply the human's ``action``; an illegal one only shows a short message."""
        if len(self.screen_stack) > 1:
            return False  # a pop-up is open: its own keys apply
        if action is None or self._advancing or not self.controller.human_to_act():
            self.say(tr(self.renderer.lang, "illegal", what=self._illegal_reason()))
            return False
        try:
            self.controller.apply(action)
        except MahjongError as exc:
            self.log.warning(f"refused: {exc}")
            self.say(tr(self.renderer.lang, "illegal", what=tr(self.renderer.lang, "not_now")))
            return False
        except Exception as exc:  # a bug below must not take the terminal down
            self.log.error(f"apply failed: {exc!r}")
            self.say(tr(self.renderer.lang, "internal_error"))
            return False
        self.countdown = None
        self.choosing_chow = False
        self.quit_armed = False
        self.last_message = ""
        self._draw_countdown()
        self.refresh_table()
        self.kick()
        return True

    def _illegal_reason(self) -> str:
        lang = self.renderer.lang
        if self.options.mode == "wait" or self._advancing:
            return tr(lang, "waiting")
        return tr(lang, "not_now")

    def _end_of_hand(self) -> None:
        info = self.controller.hand_end()
        if info is None:
            return
        screen = HandEndScreen(hand_end_text(info, self.renderer.lang))
        self.push_screen(screen, self._after_hand)

    def _after_hand(self, _ok: bool | None) -> None:
        if self.controller.match_over():
            info = self.controller.match_end()
            self.push_screen(
                MatchEndScreen(match_end_text(info, self.renderer.lang)),
                lambda _ok: self.exit(0),
            )
            return
        self.controller.next_hand()
        self.refresh_table()
        self.kick()

    # --- actions (keys and buttons) --------------------------------------------------------
    def action_move(self, step: int) -> None:
        """Move the selection in the hand."""
        if len(self.screen_stack) == 1:
            self._table_screen.query_one(HandView).move(step)

    def action_discard(self) -> None:
        """打: discard the selected tile (or pick the highlighted chow when choosing one)."""
        if self.choosing_chow:
            self.action_choose(0)
            return
        tile = self._table_screen.query_one(HandView).current_tile()
        if self.options.mode != "turn" or tile is None:
            self._act(None)
            return
        action = self.options.discard.get(tile)
        if action is None:
            lang = self.renderer.lang
            self.say(tr(lang, "illegal", what=f"{self.renderer.bare(tile)}"))
            return
        self._act(action)

    def action_win(self) -> None:
        """糊 / 自摸: declare a win."""
        self._act(self.options.win)

    def action_pung(self) -> None:
        """碰: claim the discard for a pung."""
        self._act(self.options.pung)

    def action_kong(self) -> None:
        """槓: claim a kong, or declare a concealed / added kong of the selected tile."""
        kongs = self.options.kongs
        if not kongs:
            self._act(None)
            return
        if len(kongs) == 1:
            self._act(next(iter(kongs.values())))
            return
        tile = self._table_screen.query_one(HandView).current_tile()
        if tile is not None and tile in kongs:
            self._act(kongs[tile])
            return
        names = " ".join(self.renderer.bare(t) for t in kongs)
        self.say(tr(self.renderer.lang, "illegal", what=f"← → {names}"))

    def action_chow(self) -> None:
        """上: claim the discard for a chow; with several ways, offer the choice."""
        chows = self.options.chows
        if not chows or len(self.screen_stack) > 1:
            self._act(None)
            return
        if len(chows) == 1:
            self._act(chows[0].action)
            return
        self.choosing_chow = True
        self._show_buttons()
        self._show_prompt()

    def action_choose(self, index: int) -> None:
        """Pick chow ``index`` (keys 1–3) while choosing a chow."""
        if not self.choosing_chow or len(self.screen_stack) > 1:
            return
        chows = self.options.chows
        if 0 <= index < len(chows):
            self._act(chows[index].action)

    def action_pass(self) -> None:
        """過: let the discard go."""
        if self.choosing_chow:
            self.choosing_chow = False
            self._show_buttons()
            self._show_prompt()
            return
        self._act(self.options.pass_)

    def action_hint(self) -> None:
        """提示: shanten, waits and the strong bot's suggestion, in a pop-up."""
        if len(self.screen_stack) > 1:
            return
        if self.options.mode not in ("turn", "claim"):
            self.say(tr(self.renderer.lang, "illegal", what=tr(self.renderer.lang, "waiting")))
            return
        lang = self.renderer.lang
        try:
            hint = self.controller.hint()
        except MahjongError:
            self.say(tr(lang, "illegal", what=tr(lang, "waiting")))
            return
        self.push_screen(HintScreen(hint_text(hint, self.renderer, debug=self.debug_hints)))

    def action_save(self) -> None:
        """Save the match record (its seed, settings and every action) to the save file."""
        lang = self.renderer.lang
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            path = self.controller.save(self.save_path)
        except (OSError, MahjongError) as exc:
            why = os_error_text(lang, exc) if isinstance(exc, OSError) else str(exc)
            failed = tr(lang, "save_failed", path=str(self.save_path), why=why)
            self.say(failed)
            if len(self.screen_stack) > 1:
                self.notify(failed, severity="error")
            return
        message = tr(lang, "saved", path=str(path))
        self.say(message)
        if len(self.screen_stack) > 1:
            self.notify(message)  # the message line is behind the pop-up

    def action_quit_game(self) -> None:
        """Quit after a second q."""
        if self.quit_armed:
            self.exit(0)
            return
        self.quit_armed = True
        self.say(tr(self.renderer.lang, "quit_confirm"))
        if len(self.screen_stack) > 1:
            self.notify(tr(self.renderer.lang, "quit_confirm"))

    @on(HandView.TileClicked)
    def _tile_clicked(self, event: HandView.TileClicked) -> None:
        hand = self._table_screen.query_one(HandView)
        if hand.selected == event.index:
            self.action_discard()
        else:
            hand.selected = event.index

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("btn-")
        if name.startswith("chow") and name[4:].isdigit():
            self.action_choose(int(name[4:]))
        elif name in _BUTTONS:
            getattr(self, f"action_{name}")()
