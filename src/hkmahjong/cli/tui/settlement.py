"""找數 lines of the end-of-hand screen: who paid whom and why, in the screen's language.

Built from the hand's outcome as data (each win's winner, discarder, 包牌 seat, 出槓 feeder, fan
and the table's gun scheme), never from the payments layer's English sentences; the amounts
each seat paid are the screen's payments line (the outcome's deltas).
"""

from __future__ import annotations

from collections.abc import Callable

from hkmahjong.cli.tui.i18n import tr
from hkmahjong.engine.events import HandOutcome, WinRecord
from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import GunScheme
from hkmahjong.tiles import Wind

__all__ = ["settlement_lines"]


def settlement_lines(
    outcome: HandOutcome, name_at: Callable[[Wind], str], lang: str, ruleset: Ruleset
) -> tuple[str, ...]:
    """One line per win and per false win (詐糊) saying who pays whom and why."""
    lines = [_win_line(win, name_at, lang, ruleset) for win in outcome.wins]
    lines += [tr(lang, "pay_false_win", who=name_at(seat)) for seat in outcome.false_winners]
    return tuple(lines)


def _win_line(win: WinRecord, name_at: Callable[[Wind], str], lang: str, ruleset: Ruleset) -> str:
    fan = tr(lang, "fan", n=win.result.total_fan)
    winner = name_at(win.seat)
    if win.discarder is None:
        line = tr(lang, "pay_self_drawn", winner=winner, fan=fan)
        if win.kong_discarder is not None:
            line += tr(lang, "list_sep") + tr(
                lang, "pay_kong_feeder", who=name_at(win.kong_discarder)
            )
    else:
        key = "pay_robbed" if win.context.robbing_kong else "pay_discard"
        line = tr(lang, key, payer=name_at(win.discarder), winner=winner, fan=fan)
        payment = ruleset.payment
        if payment.gun is GunScheme.FULL_GUN:
            line += tr(lang, "pay_full_gun", n=payment.discarder_shares)
        else:
            line += tr(lang, "pay_half_gun")
    if win.liable is not None:
        line += tr(lang, "list_sep") + tr(lang, "pay_liable", who=name_at(win.liable))
    return line
