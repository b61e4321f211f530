"""The JSON examples of docs/protocol.md, generated from the code so the doc cannot drift.

    .venv/bin/python tools/protocol_doc.py            # rewrite the generated blocks of the doc
    .venv/bin/python tools/protocol_doc.py --check    # exit 1 and show a diff when one differs

Each block of the doc between ``<!-- gen:NAME -->`` and ``<!-- /gen -->`` is replaced by the
example NAME below, built with the parlor's own encoders (``parlor.wire``, ``parlor.protocol``)
from seeded hands of the real engine. tests/parlor/test_protocol_doc.py runs ``--check``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from hkmahjong.bots.advice import advise
from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.events import Event, EventKind
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer
from hkmahjong.engine.record import commitment, hand_seed, result_of, seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import Phase
from hkmahjong.hand import shanten
from hkmahjong.parlor import protocol as p
from hkmahjong.parlor import stakes, wire
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
RULES = get_preset("parlor")
_BLOCK = re.compile(r"(<!-- gen:([a-z_]+) -->\n)(.*?)(<!-- /gen -->)", re.S)


def _pretty(obj: Any, indent: int = 0) -> str:
    """One message, indented for reading where it is long (on the wire it is one compact line)."""
    flat = wire.dumps(obj)
    if len(flat) + indent <= 98 or not isinstance(obj, dict | list) or not obj:
        return flat
    pad = " " * (indent + 2)
    if isinstance(obj, dict):
        rows = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, indent + 2)}"
                for k, v in obj.items()]  # fmt: skip
        return "{\n" + ",\n".join(rows) + "\n" + " " * indent + "}"
    rows = [pad + _pretty(v, indent + 2) for v in obj]
    return "[\n" + ",\n".join(rows) + "\n" + " " * indent + "]"


def _compact(obj: Any) -> str:
    return wire.dumps(obj)


class _Played:
    """Seeded random hands of the parlor preset: the first event of each kind, a view, a win."""

    def __init__(self) -> None:
        self.events: dict[EventKind, tuple[Event, HandState]] = {}
        self.claim_prompt: tuple[HandState, Wind, list[Action]] | None = None
        self.turn_state: HandState | None = None
        self.win_state: HandState | None = None
        self.ready_turn: tuple[HandState, Wind] | None = None
        for n in range(400):
            self._play(n)
            if (
                len(self.events) >= 13
                and self.claim_prompt is not None
                and self.win_state is not None
                and self.ready_turn is not None
            ):
                break

    def _play(self, n: int) -> None:
        state = HandState.new(RULES, seed=hand_seed(seed_from_text("protocol-doc"), n))
        players = [RandomPlayer(f"doc-{n}-{s}", win_bias=1.0) for s in range(4)]
        for ev in state.initial_events:
            self.events.setdefault(ev.kind, (ev, state.clone()))
        if self.turn_state is None:
            self.turn_state = state.clone()
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if self.claim_prompt is None and any(a.kind is ActionKind.CHOW for a in legal):
                self.claim_prompt = (state.clone(), seat, legal)
            view = state.view(seat)
            if (
                self.ready_turn is None
                and view.phase is Phase.TURN
                and not view.melds[seat]
                and shanten(view.hand) == 0
            ):
                self.ready_turn = (state.clone(), seat)
            choice = players[seat].choose(state.view(seat), legal)
            for ev in state.apply(seat, choice):
                self.events.setdefault(ev.kind, (ev, state.clone()))
        outcome = state.outcome
        if (
            self.win_state is None
            and outcome is not None
            and outcome.wins
            and not outcome.wins[0].self_drawn
            and len(outcome.wins[0].result.items) >= 2
        ):
            self.win_state = state


_PLAYED = _Played()


def _table(status: str = "playing", you: int | None = 0) -> p.TableInfo:
    names = ("ann", "bo", "cy", None)
    players = tuple(
        p.PlayerInfo(
            player=i,
            name=names[i] if names[i] else "bot-4",
            kind="human" if names[i] else "bot",
            bot=None if names[i] else "strong",
            status="connected" if names[i] else "bot",
            seat=Wind(i).letter,
            jade=[0, 0, 0, 0][i],
            escrow=500,
        )
        for i in range(4)
    )
    return p.TableInfo(
        id="t7QkP2xv",
        kind="online",
        status=status,
        rules={
            "name": RULES.name,
            "digest": "697d0116987c4850",
            "preset": "parlor",
            "dead_wall": RULES.dead_wall,
        },
        length=MatchLength.ONLINE.value,
        stake=500,
        buy_in=520,
        fee=20,
        clocks={
            "turn_ms": 10000,
            "claim_ms": 6000,
            "bank_ms": 60000,
            "grace_ms": 15000,
            "discard_delay_ms": 600,
        },
        hints=False,
        private=False,
        players=players,
        you=you,
    )


def _turn_view() -> tuple[dict[str, Any], list[Action]]:
    state = _PLAYED.turn_state
    assert state is not None
    return wire.view_json(state.view(Wind.EAST)), state.legal_actions(Wind.EAST)


def ex_hello() -> str:
    return _compact({"t": "hello", "proto": 1, "epoch": "q8Yc1rB0", "since": 41})


def ex_hello_new() -> str:
    return _compact({"t": "hello", "proto": 1})


def ex_act() -> str:
    return _compact({"t": "act", "action": "discard 9s", "v": 42, "id": "c17"})


def ex_act_claim() -> str:
    return _compact({"t": "act", "action": "chow 345p", "v": 57, "id": "c18"})


def ex_small() -> str:
    return "\n".join(_compact({"t": t}) for t in ("sit_back", "hint", "ping"))


def ex_client_extras() -> str:
    frames = [
        {"t": "hint", "engine": "master"},
        {"t": "emote", "id": "gg"},
        {"t": "prefs", "auto_win": True, "auto_pass": "no_chow", "sort": "suit",
         "large_tiles": False, "colour_blind": False, "sound": True, "animations": True},
    ]  # fmt: skip
    for frame in frames:  # each one a valid message
        p.parse_client(_compact(frame))
    return "\n".join(_compact(f) for f in frames)


def ex_emote() -> str:
    return _compact(p.emote_msg(46, 2, "gg"))


def ex_snapshot() -> str:
    view, legal = _turn_view()
    clock = p.ClockInfo("turn", 10000, 60000)
    prompt = p.prompt_json(12, legal, clock)
    return _pretty(p.snapshot_msg(12, "q8Yc1rB0", _table().to_json(), view, prompt))


def ex_prompt_turn() -> str:
    _, legal = _turn_view()
    return _pretty(p.prompt_msg(12, legal, p.ClockInfo("turn", 10000, 60000)))


def ex_prompt_claim() -> str:
    assert _PLAYED.claim_prompt is not None
    _, _, legal = _PLAYED.claim_prompt
    return _pretty(p.prompt_msg(57, legal, p.ClockInfo("claim", 6000, 60000)))


def ex_events() -> str:
    """One ``event`` message per event kind a seat can receive, as seat E sees it."""
    lines: list[str] = []
    v = 20
    for kind in EventKind:
        if kind in (EventKind.DECISION, EventKind.FALSE_WIN):
            continue
        found = _PLAYED.events.get(kind)
        if found is None:
            continue
        ev = found[0]
        other = ev.for_seat(Wind.EAST if ev.seat is None else ev.seat.next())
        for shown in (ev, other) if other != ev else (ev,):
            assert shown is not None
            lines.append(_compact(p.event_msg(v, wire.event_json(shown))))
            v += 1
    return "\n".join(lines)


def ex_done() -> str:
    return "\n".join(
        [
            _compact(p.done_msg(58, 57, "pass", "you", "c18")),
            _compact(p.done_msg(43, 42, "discard 9s", "timeout", None)),
        ]
    )


def ex_clock() -> str:
    return _compact(p.clock_msg(44, "S", "turn", 10000, 54000))


def ex_hand() -> str:
    seed = hand_seed(seed_from_text("protocol-doc"), 0)
    return _pretty(p.hand_msg(1, 0, 0, "E", {"E": 0, "S": 1, "W": 2, "N": 3}, commitment(seed)))


def _standings(state: HandState) -> tuple[Match, list[dict[str, Any]]]:
    assert state.outcome is not None
    match = Match(("ann", "bo", "cy", "bot-4"), MatchLength.ONLINE)
    entry = match.record(result_of(state.outcome))
    rows = [
        {
            "player": i,
            "name": match.players[i],
            "delta": entry.deltas[i],
            "total": match.totals()[match.players[i]],
        }
        for i in range(4)
    ]
    return match, rows


def ex_hand_end() -> str:
    state = _PLAYED.win_state
    assert state is not None and state.outcome is not None
    _, rows = _standings(state)
    hands = {seat.letter: wire.tiles_json(state.hand_of(seat).concealed) for seat in Wind}
    msg = p.hand_end_msg(
        90, state.hand_number, wire.outcome_json(state.outcome), hands, state.seed.hex(), rows
    )
    return _pretty(msg)


def ex_view_turn() -> str:
    return _pretty(_turn_view()[0])


def ex_view_over() -> str:
    state = _PLAYED.win_state
    assert state is not None
    return _pretty(wire.view_json(state.view(Wind.SOUTH)))


def ex_match_end() -> str:
    totals = [180, -640, 500, -40]
    seats = ["N", "E", "S", "W"]  # the last hand's seat of players 0..3
    msg = p.match_end_msg(
        400,
        totals,
        stakes.settlement_json(500, totals, seats),
        seed_from_text("protocol-doc").hex(),
        "/api/tables/t7QkP2xv/record",
    )
    return _pretty(msg)


def ex_seat() -> str:
    return "\n".join(
        _compact(p.seat_msg(v, 2, status))
        for v, status in ((61, "away"), (75, "sat_out"), (80, "connected"))
    )


def ex_table() -> str:
    return _pretty(p.table_msg(3, _table(status="waiting").to_json()))


def ex_errors() -> str:
    out = []
    for frame in ('{"t":"act","action":"discard 9s","v":41,"id":"c16"}', "[1,2]", '{"t":"fly"}'):
        try:
            msg = p.parse_client(frame)
        except p.ProtocolError as exc:
            out.append(_compact(exc.to_json()))
        else:
            assert isinstance(msg, p.Act)
            out.append(_compact(p.error_msg(p.ErrorCode.STALE, "the open prompt is v=42", msg.id)))
    return "\n".join(out)


def ex_hint() -> str:
    """A hint at the turn where a discard makes the hand ready: the advice for the discard that
    leaves the most unseen winning tiles (given, so the example never depends on the bot's clock)."""
    assert _PLAYED.ready_turn is not None
    state, seat = _PLAYED.ready_turn
    view, legal = state.view(seat), state.legal_actions(seat)
    options = [advise(view, legal, RULES, action=a) for a in legal if a.kind is ActionKind.DISCARD]
    best = max((a for a in options if a.shanten == 0), key=lambda a: sum(w.left for w in a.waits))
    return _pretty(p.hint_msg(wire.advice_json(best)))


def ex_watch_snapshot() -> str:
    """A spectator's snapshot: ``you`` null, the engine's public view, no prompt."""
    state = _PLAYED.turn_state
    assert state is not None
    table = replace(_table(you=None), watchers=3).to_json()
    view = wire.public_view_json(state.public_view())
    return _pretty(p.snapshot_msg(30, "q8Yc1rB0", table, view, None))


def ex_watch_events() -> str:
    """A deal and a draw as a spectator gets them (every tile of a concealed hand hidden)."""
    lines = []
    for v, kind in enumerate((EventKind.DEAL, EventKind.DRAW), start=31):
        found = _PLAYED.events.get(kind)
        assert found is not None
        shown = found[0].public()
        assert shown is not None
        lines.append(_compact(p.event_msg(v, wire.event_json(shown))))
    return "\n".join(lines)


def ex_watchers() -> str:
    return _compact(p.watchers_msg(45, 3))


def ex_pong() -> str:
    return _compact(p.pong_msg())


def ex_lobby() -> str:
    summary = _table(status="waiting", you=None).to_json()
    del summary["you"]
    return _pretty(p.lobby_msg(7, [summary]))


def ex_lobby_diff() -> str:
    summary = _table(status="playing", you=None).to_json()
    del summary["you"]
    return _pretty(p.lobby_diff_msg(8, [summary], ["Qm3xT0aa"]))


def ex_your_table() -> str:
    return _compact(p.your_table_msg("t7QkP2xv", "playing"))


def ex_error_codes() -> str:
    rows = [f"| `{c.value}` | {_doc_of(c)} |" for c in p.ErrorCode]
    return "\n".join(["| code | meaning |", "|---|---|", *rows])


def _doc_of(code: p.ErrorCode) -> str:
    source = Path(p.__file__).read_text(encoding="utf-8")
    m = re.search(rf'{code.name} = "{code.value}"\n\s+"""(.*?)"""', source, re.S)
    return " ".join(m.group(1).replace("``", "`").split()) if m else ""


EXAMPLES: dict[str, Callable[[], str]] = {
    name[3:]: fn for name, fn in globals().items() if name.startswith("ex_") and callable(fn)
}


def render(text: str) -> str:
    """The doc with every generated block replaced by its example.

    :raises KeyError: when the doc names an example that does not exist.
    """

    def sub(m: re.Match[str]) -> str:
        body = EXAMPLES[m.group(2)]()
        fence = "" if m.group(2) == "error_codes" else "```json\n"
        end = "" if not fence else "```\n"
        return f"{m.group(1)}{fence}{body}\n{end}{m.group(4)}"

    return _BLOCK.sub(sub, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a diff")
    args = parser.parse_args(argv)
    old = DOC.read_text(encoding="utf-8")
    new = render(old)
    if args.check:
        if new != old:
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), "docs/protocol.md", "generated"
                )
            )
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
