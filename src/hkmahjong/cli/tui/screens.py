"""Pop-up screens of the parlor: help and hint (提示), end of hand (結算), end of match (終局)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hkmahjong.bots.advice import DangerLevel, Goal, WaitFan
from hkmahjong.cli.tui.game import action_label
from hkmahjong.cli.tui.i18n import relation, tr
from hkmahjong.cli.tui.model import HandEndInfo, HintInfo, MatchEndInfo
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.widgets import format_score
from hkmahjong.engine import ActionKind
from hkmahjong.rules import FanId

__all__ = [
    "KEYS_HELP",
    "HandEndScreen",
    "HintScreen",
    "MatchEndScreen",
    "fan_name",
    "goal_text",
    "hand_end_text",
    "hint_text",
    "match_end_text",
    "wait_line",
]

KEYS_HELP = {
    "zh-Hant": "←→揀牌 Enter打 w糊 p碰 k槓 c上 x過 h提示 s儲存 q離開",
    "zh-Hans": "←→选牌 Enter打 w胡 p碰 k杠 c上 x过 h提示 s保存 q离开",
    "en": "←→ select Enter discard w win p pung k kong c chow x pass h hint s save q quit",
}


def hint_text(hint: HintInfo, renderer: TileRenderer, *, debug: bool = False) -> Text:
    """提示 as text in the screen's language: the suggestion and why (shanten, aim, waits with
    copies left and fan, useful tiles, danger); the bot's raw trace only with ``debug``."""
    lang = renderer.lang
    advice = hint.advice
    text = Text()
    text.append(f"{tr(lang, 'advice')}: ", style="bold")
    text.append(action_label(advice.action, renderer) + "\n", style="bold green")
    text.append(f"{tr(lang, 'shanten')}: ", style="bold")
    if advice.action.kind is not ActionKind.DISCARD and advice.shanten != advice.shanten_now:
        text.append(_shanten_word(advice.shanten_now, lang) + " → ")
    text.append(_shanten_word(advice.shanten, lang) + "\n")
    if advice.steps_given_up:
        key = "slower_safe" if advice.safer else "slower_value"
        text.append("  " + tr(lang, key, n=advice.steps_given_up) + "\n", style="italic")
    goal = advice.goal
    if goal is not None and advice.shanten > 0:
        text.append(f"{tr(lang, 'goal')}: ", style="bold")
        text.append(goal_text(goal, renderer) + "\n")
    if advice.waits:
        text.append(f"{tr(lang, 'waits')}:\n", style="bold")
        for wait in advice.waits:
            text.append("  " + wait_line(wait, renderer) + "\n")
    if advice.useful:
        text.append(f"{tr(lang, 'useful')}: ", style="bold")
        text.append("  ".join(f"{renderer.bare(t)}×{n}" for t, n in advice.useful[:12]) + "\n")
    danger = advice.danger
    if danger is not None:
        text.append(f"{tr(lang, 'danger')}: ", style="bold")
        level = tr(lang, f"danger_{int(danger.level)}")
        style = "bold red" if danger.level >= DangerLevel.MEDIUM else ""
        text.append(f"{renderer.bare(danger.tile)} {level}", style=style)
        notes = [tr(lang, "looks_ready", who=relation(w - advice.seat, lang)) for w in danger.ready]
        if danger.liability:
            notes.append(tr(lang, "liable"))
        if notes:
            text.append("  " + tr(lang, "list_sep").join(notes))
        text.append("\n")
    if debug and hint.trace:
        text.append(f"\n{tr(lang, 'debug_trace')}:\n", style="bold dim")
        text.append(hint.trace + "\n", style="dim")
    text.append("\n" + KEYS_HELP.get(lang, KEYS_HELP["en"]) + "\n", style="dim")
    text.append(tr(lang, "close"), style="dim")
    return text


def _shanten_word(shanten: int, lang: str) -> str:
    if shanten < 0:
        return tr(lang, "complete")
    if shanten == 0:
        return tr(lang, "ready")
    return str(shanten)


def wait_line(wait: WaitFan, renderer: TileRenderer) -> str:
    """One wait as the waits line shows it: tile, copies left, fan on a discard / self-drawn."""
    lang = renderer.lang
    fans = []
    for key, fan in (("on_discard", wait.on_discard), ("self_drawn", wait.self_drawn)):
        value = tr(lang, "fan", n=fan) if fan is not None else tr(lang, "no_win")
        fans.append(f"{tr(lang, key)} {value}")
    return f"{renderer.bare(wait.tile)}  {tr(lang, 'left', n=wait.left)}  {' / '.join(fans)}"


def goal_text(goal: Goal, renderer: TileRenderer) -> str:
    """The route aimed at, in the screen's language: patterns, distance and the fan it reaches."""
    lang = renderer.lang
    names = []
    for fan_id in goal.fans:
        name = fan_name(fan_id, lang)
        if fan_id in (FanId.HALF_FLUSH, FanId.FULL_FLUSH) and goal.suit is not None:
            name = tr(lang, "flush_of", name=name, suit=tr(lang, "suit_" + goal.suit.value))
        names.append(name)
    names += [tr(lang, "value_pung", t=renderer.bare(t)) for t in goal.value_tiles]
    what = " + ".join(names) if names else tr(lang, "any_hand")
    away = tr(lang, "goal_away", n=goal.distance)
    fan = tr(lang, "goal_fan", d=goal.fan_on_discard, s=goal.fan_self_drawn)
    return tr(lang, "list_sep").join((what, away, fan))


def fan_name(fan_id: FanId, lang: str) -> str:
    """A fan pattern's name in ``lang`` (繁體 / 简体 / English)."""
    if lang == "en":
        return fan_id.en
    return fan_id.zh_hans if lang == "zh-Hans" else fan_id.zh


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
            text.append(f"  {en if lang == 'en' else zh}  ")
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
