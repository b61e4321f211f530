"""搶槓 robbing a kong on the table page, in a real Chromium.

A live table's wall comes from its secret match seed, so no test can steer a real table to a
robbing window. Here the page is the real one (served by ``hkmj serve``) and its websocket is
answered by the test with the protocol's own messages, built by the parlor's encoders
(``parlor.protocol``, ``parlor.wire``) from an engine hand on a stacked wall: docs/rules.md §6, East
adds a kong to its pung of 5p while South waits on 5p (the scenario of
tests/engine/test_scenarios.py ``test_robbing_an_added_kong``). The page must say that the kong
can be robbed (not "claim the discard"), offer only 食糊 and 過, and show the win with 搶槓 in its
breakdown — from live events, and again from a snapshot after a reload.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hkmahjong.engine import Action, Phase
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.parlor import protocol as proto
from hkmahjong.parlor import wire
from hkmahjong.rules import FanId
from hkmahjong.rules.presets import get_preset
from hkmahjong.server.i18n import tr
from hkmahjong.tiles import Wind

from .conftest import shot
from .play import check_phone_layout, check_script, start_practice

pytestmark = pytest.mark.browser

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")
NAMES = ("Ann", "Bo", "Cy", "Di")
"""Player i sits at seat Wind(i); the browser is Bo, South."""
ME = S


def _play(st: HandState, seat: Wind, text: str) -> list[Any]:
    return list(st.apply(seat, Action.from_text(text)))


def _discard(st: HandState, seat: Wind, tile: str) -> None:
    _play(st, seat, f"discard {tile}")
    while st.phase in (Phase.CLAIM, Phase.ROB):
        for other in st.to_act:
            _play(st, other, "pass")


def rob_hand() -> tuple[HandState, list[Any], HandState, list[Any], HandState]:
    """The hand before East's added kong, its events, the robbing window, the win's events and
    the hand over (South robs the kong)."""
    deals = {
        E: "55p3m6m9m1s4s7s5z5z6p6p2p2p",
        S: "46p123p789p111z22z",
        W: "147m258s369s3z4z6z7z",
        N: "5p258m147s3z4z6z7z5z9m",
    }
    wall = stacked_wall(deals, draws="9s8s1m2m4m7m5p", bonus_tiles=PARLOR.bonus_tiles)
    st = HandState.new(PARLOR, seed=b"scenario", wall=wall)
    _discard(st, E, "3m")
    _discard(st, S, "9s")
    _discard(st, W, "8s")
    _play(st, N, "discard 5p")
    _play(st, S, "pass")  # South could win on 5p here; it waits for the kong
    _play(st, E, "pung")
    for seat, tile in ((E, "2p"), (S, "2m"), (W, "4m"), (N, "7m")):
        _discard(st, seat, tile)
    before = st.clone()
    kong = _play(st, E, "added_kong 5p")
    assert st.phase is Phase.ROB and st.to_act == (ME,)
    window = st.clone()
    win = _play(st, ME, "win")
    assert st.outcome is not None and st.outcome.wins[0].context.robbing_kong
    return before, kong, window, win, st


def table_json() -> dict[str, Any]:
    players = tuple(
        proto.PlayerInfo(i, NAMES[i], "human", None, "connected", Wind(i).letter, 0)
        for i in range(4)
    )
    info = proto.TableInfo(
        id="rob-kong", kind="online", status="playing",
        rules={"name": PARLOR.name, "digest": "scenario", "preset": "parlor", "dead_wall": 0},
        length="one-hand", stake=None, buy_in=None, clocks={}, hints=False, private=False,
        players=players, you=int(ME),
    )  # fmt: skip
    return info.to_json()


class ScriptedTable:
    """Answers the page's table socket: live events up to the robbing window on the first
    connection, a snapshot of the window on the next ones; a win ends the hand."""

    def __init__(self) -> None:
        self.before, self.kong, self.window, self.win, self.over = rob_hand()
        self.connections = 0
        self.v = 0

    def msg(self, build: Any) -> str:
        self.v += 1
        return json.dumps(build(self.v))

    def route(self, ws: Any) -> None:
        self.connections += 1
        first = self.connections == 1
        clock = proto.ClockInfo("claim", 6000, 60000)
        legal = self.window.legal_actions(ME)

        def on_message(text: str | bytes) -> None:
            msg = json.loads(text)
            if msg["t"] == "hello":
                self.v = 10 if first else 30
                table = table_json()
                if first:
                    view = wire.view_json(self.before.view(ME))
                    ws.send(json.dumps(proto.snapshot_msg(self.v, "live", table, view, None)))
                    for ev in self.kong:
                        shown = ev.for_seat(ME)
                        if shown is not None:
                            data = wire.event_json(shown)
                            ws.send(self.msg(lambda v, d=data: proto.event_msg(v, d)))
                    ws.send(self.msg(lambda v: proto.prompt_msg(v, legal, clock)))
                else:
                    view = wire.view_json(self.window.view(ME))
                    prompt = proto.prompt_json(self.v, legal, clock)
                    ws.send(json.dumps(proto.snapshot_msg(self.v, "again", table, view, prompt)))
            elif msg["t"] == "act" and msg["action"] == "win":
                ws.send(self.msg(lambda v: proto.done_msg(v, msg["v"], "win", "you", msg["id"])))
                for ev in self.win:
                    shown = ev.for_seat(ME)
                    if shown is not None:
                        data = wire.event_json(shown)
                        ws.send(self.msg(lambda v, d=data: proto.event_msg(v, d)))
                outcome = self.over.outcome
                assert outcome is not None
                hands = {w.letter: wire.tiles_json(self.over.hand_of(w).concealed) for w in Wind}
                rows = [
                    {"player": i, "name": NAMES[i], "delta": outcome.deltas[i],
                     "total": outcome.deltas[i]}
                    for i in range(4)
                ]  # fmt: skip
                result = wire.outcome_json(outcome)
                ws.send(self.msg(lambda v: proto.hand_end_msg(v, 0, result, hands, "", rows)))

        ws.on_message(on_message)


@pytest.mark.parametrize(("lang", "phone"), [("zh-Hant", False), ("en", True)])
def test_the_robbing_window_says_rob_the_kong_and_the_win_shows_robbing(
    new_page: Any, lang: str, phone: bool
) -> None:
    page = new_page(lang=lang, phone=phone)
    # a table that exists (the page of an unknown table is a 404 page), whose socket the
    # script then answers in place of the server
    url = start_practice(page)
    script = ScriptedTable()
    page.route_web_socket("**/ws/table/**", script.route)
    page.goto(url)
    prompt = page.locator("[data-testid=prompt-text]")
    prompt.wait_for()
    expected = tr(lang, "t_rob_on", who="Ann")
    assert prompt.inner_text() == expected
    kinds = page.locator("#controls button[data-kind]")
    assert sorted(kinds.evaluate_all("(bs) => bs.map((b) => b.dataset.kind)")) == ["pass", "win"]
    assert page.locator("[data-testid=melds-3] .meld[data-kind=added_kong]").count() == 1
    check_script(page, lang)
    if phone:
        check_phone_layout(page)
    suffix = "phone" if phone else "desktop"
    shot(page, f"rob-kong-prompt-{lang}-{suffix}")

    page.reload()  # the page rebuilt from a snapshot of the window says the same
    prompt.wait_for()
    assert prompt.inner_text() == expected
    assert script.connections == 2

    page.locator("#controls button[data-kind=win]").click()
    breakdown = page.locator("[data-testid=breakdown]")
    breakdown.wait_for()
    robbing = FanId.ROBBING_KONG.en if lang == "en" else FanId.ROBBING_KONG.zh
    assert robbing in breakdown.inner_text()
    assert tr(lang, "t_robbing_of", who="Ann") in page.locator("[data-testid=win] h3").inner_text()
    check_script(page, lang)
    shot(page, f"rob-kong-win-{lang}-{suffix}", full_page=True)
