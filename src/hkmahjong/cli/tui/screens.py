"""Pop-up screens of the parlor: help and hint (提示), end of hand (結算), end of match (終局)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hkmahjong.cli.tui.i18n import tr
from hkmahjong.cli.tui.model import HandEndInfo, HintInfo, MatchEndInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.widgets import format_score

__all__ = [
    "KEYS_HELP",
    "HandEndScreen",
    "HintScreen",
    "MatchEndScreen",
    "hand_end_text",
    "hint_text",
    "match_end_text",
]

KEYS_HELP = {
    "zh-Hant": "←→揀牌 Enter打 w糊 p碰 k槓 c上 x過 h提示 s儲存 q離開",
    "zh-Hans": "←→选牌 Enter打 w胡 p碰 k杠 c上 x过 h提示 s保存 q离开",
    "en": "←→ select Enter discard w win p pung k kong c chow x pass h hint s save q quit",
}


def hint_text(hint: HintInfo, renderer: TileRenderer) -> Text:
    """The hint as text: shanten, waits (unseen copies, fan), useful tiles, the bot's advice."""
    lang = renderer.lang
    text = Text()
    if hint.shanten < 0:
        status = tr(lang, "complete")
    elif hint.shanten == 0:
        status = tr(lang, "ready")
    else:
        status = str(hint.shanten)
    text.append(f"{tr(lang, 'shanten')}: ", style="bold")
    text.append(f"{status}\n")
    if hint.waits:
        text.append(f"{tr(lang, 'waits')}:\n", style="bold")
        for tile, left, on_discard, self_drawn in hint.waits:
            fans = []
            for key, fan in (("on_discard", on_discard), ("self_drawn", self_drawn)):
                value = tr(lang, "fan", n=fan) if fan is not None else tr(lang, "no_win")
                fans.append(f"{tr(lang, key)} {value}")
            text.append(
                f"  {renderer.bare(tile)}  {tr(lang, 'left', n=left)}  {' / '.join(fans)}\n"
            )
    if hint.useful:
        text.append(f"{tr(lang, 'useful')}: ", style="bold")
        text.append("  ".join(f"{renderer.bare(t)}×{n}" for t, n in hint.useful[:12]) + "\n")
    text.append(f"{tr(lang, 'advice')}: ", style="bold")
    text.append(f"{hint.suggestion}\n", style="bold green")
    if hint.explanation:
        text.append(hint.explanation + "\n", style="italic")
    text.append("\n" + KEYS_HELP.get(lang, KEYS_HELP["en"]) + "\n", style="dim")
    text.append(tr(lang, "close"), style="dim")
    return text


def hand_end_text(info: HandEndInfo, lang: str) -> Text:
    """End of hand (結算): every hand, the winner's fan items (中文 + English), payments, totals."""
    text = Text()
    text.append(info.title + "\n", style="bold yellow")
    for _wind, name, hand in info.hands:
        text.append(f"{name}: ", style="bold")
        text.append(hand + "\n")
    for score in info.scores:
        text.append(f"\n{score.name}: ", style="bold")
        text.append(score.shape + "\n", style="bold green")
        for zh, en, fan in score.items:
            text.append(f"  {zh} {en}  ")
            text.append(f"{fan}\n", style="bold")
        limit = f" ({tr(lang, 'limit')})" if score.limit else ""
        text.append(f"  = {tr(lang, 'fan', n=score.total)}{limit}\n", style="bold green")
    if info.payments:
        text.append(f"\n{tr(lang, 'payments')}: ", style="bold")
        text.append("  ".join(f"{name} {format_score(v)}" for name, v in info.payments) + "\n")
        for line in info.settlement:
            text.append(f"  {line}\n", style="dim")
    text.append(f"{tr(lang, 'totals')}: ", style="bold")
    text.append("  ".join(f"{name} {format_score(v)}" for name, v in info.totals) + "\n\n")
    key = "match_over" if info.match_over else "next_hand"
    text.append(tr(lang, key) if not info.match_over else f"{tr(lang, key)} — Enter", style="dim")
    return text


def match_end_text(info: MatchEndInfo, lang: str) -> Text:
    """End of match (終局): standings and the per-hand history."""
    text = Text()
    text.append(tr(lang, "match_over") + "\n\n", style="bold yellow")
    text.append(tr(lang, "standings") + "\n", style="bold")
    for place, (name, score) in enumerate(info.standings, start=1):
        text.append(f"  {place}. {name}  {format_score(score)}\n")
    text.append("\n" + tr(lang, "history") + "\n", style="bold")
    for line in info.history:
        text.append(f"  {line}\n")
    text.append("\n" + tr(lang, "save_record") + "\n", style="dim")
    text.append("q / Esc / Enter", style="dim")
    return text


class _TextScreen(ModalScreen[bool]):
    """A scrollable modal text box closed with Escape (result False) or Enter (result True)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close(False)", "close"),
        Binding("enter", "close(True)", "ok"),
        Binding("space", "close(True)", "ok", show=False),
    ]

    def __init__(self, body: Text, classes: str = "") -> None:
        super().__init__(classes=classes)
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="popup"):
            yield Static(self.body, id="popup-body")

    def action_close(self, ok: bool) -> None:
        """Close the pop-up."""
        self.dismiss(ok)


class HintScreen(_TextScreen):
    """提示: shanten, waits, fan on each wait, and the strong bot's suggestion."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_TextScreen.BINDINGS,
        Binding("h", "close(False)", "close", show=False),
    ]


class HandEndScreen(_TextScreen):
    """結算: the end of a hand; Enter goes on to the next hand, s saves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_TextScreen.BINDINGS,
        Binding("s", "app.save", "save", show=False),
        Binding("q", "app.quit_game", "quit", show=False),
    ]


class MatchEndScreen(_TextScreen):
    """終局: the end of the match; Enter or q leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_TextScreen.BINDINGS,
        Binding("q", "close(True)", "quit", show=False),
        Binding("s", "app.save", "save", show=False),
    ]
