"""牌譜重播 (replays): a table's hands as frames to step through, and who may see them.

A table's log is its game record; a replay replays one hand of it through the engine
(:func:`~hkmahjong.engine.record.replay_hand`, every digest and the wall's commitment checked) and
takes, frame by frame, what the engine gives the chosen eye:

* a **seat** (東 南 西 北 of that hand): its :class:`~hkmahjong.engine.view.PlayerView` and the
  events as it saw them (``event.for_seat``). Frames end only where that seat could tell where
  the hand was — a turn has begun, the hand is over, or the seat itself must decide — so a
  window that opened for another seat (a pair, a ready hand) never shows. A hand being played
  is shown up to where the latest discard's turn began (one discard behind, as spectators are);
* **all hands open** (``seat`` None), once the hand is over: every step (each pass included),
  every event whole, and each seat's concealed tiles from that seat's own view.

Who may look (:func:`viewer_of`): the table's players always — every finished hand, and their own
seat's view of the hand being played; anyone else the finished hands of a table that is not
private, or of a private one by its invite. A hand being played is never shown to anyone but its
players, each their own seat. No rule of the game is here: views and events are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hkmahjong.engine.events import EventKind, Visibility
from hkmahjong.engine.record import (
    GameRecord,
    HandRecord,
    RecordError,
    hand_seed,
    replay_hand,
    rules_from_spec,
)
from hkmahjong.engine.view import Phase
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.policy import sees_table
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.parlor.wire import (
    JSON,
    event_json,
    public_view_json,
    tiles_json,
    view_json,
)
from hkmahjong.tiles import Wind

__all__ = ["ReplayError", "TableRecord", "hand_replay", "record_text", "viewer_of"]


class ReplayError(MahjongError):
    """A replay refused: ``code`` ``not_found``, ``forbidden``, ``not_over`` or ``bad_request``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class TableRecord:
    """A table as stored: its row, seats and log (the game record's lines)."""

    row: TableRow
    seats: Sequence[SeatRow]
    lines: Sequence[str]

    def record(self) -> GameRecord:
        """The game record (a match still being played gives a partial one).

        :raises ReplayError: ``not_found`` when no hand has started.
        """
        if len(self.lines) < 2:
            raise ReplayError("not_found", "no hand has started at this table yet")
        try:
            return GameRecord.loads(
                "\n".join(self.lines) + "\n", source=self.row.public_id, partial=True
            )
        except RecordError as exc:
            raise ReplayError("not_found", f"the table's record does not read: {exc}") from None


def viewer_of(
    row: TableRow, seats: Sequence[SeatRow], user_id: int | None, invite: str | None
) -> int | None:
    """The player number of ``user_id`` at this table, or None for anyone else allowed to look.

    :raises ReplayError: ``forbidden`` for a private table without its invite.
    """
    if user_id is not None:
        for seat in seats:
            if seat.user_id == user_id and seat.bot is None:
                return seat.player
    if not sees_table(row.private, seated=False, invite=invite, token=row.invite_token):
        raise ReplayError("forbidden", "this table is private: its players or its invite only")
    return None


def record_text(table: TableRecord, viewer: int | None) -> str:
    """牌譜 the record to download: every line up to the last hand that ended (a hand being
    played stays secret — its actions and seed — even to its players).

    :raises ReplayError: ``not_found`` when no hand has ended yet.
    """
    keep = 0
    for i, line in enumerate(table.lines):
        if '"t":"end"' in line or '"t":"match_end"' in line:
            keep = i + 1
    if keep == 0:
        raise ReplayError("not_found", "no hand has ended yet")
    return "".join(line + "\n" for line in table.lines[:keep])


def _seats_of(dealer: int) -> dict[str, int]:
    return {w.letter: (dealer + int(w)) % 4 for w in Wind}


def hand_replay(table: TableRecord, number: int, seat: str | None, viewer: int | None) -> JSON:
    """One hand of the table as frames for ``seat`` (``E``/``S``/``W``/``N``, ``open``: all hands
    open; None: the viewer's own seat if they played the hand, else open), for ``viewer`` (a
    player number, or None: someone else allowed to look).

    :raises ReplayError: ``not_found`` (no such hand), ``forbidden`` (a hand being played, for
        anyone but its players, or another seat's view of it), ``not_over`` (all hands open
        before the hand is over), ``bad_request`` (a seat that is not E S W N).
    """
    record = table.record()
    if not 0 <= number < len(record.hands):
        raise ReplayError(
            "not_found", f"no hand {number + 1}: {len(record.hands)} hand(s) have been played"
        )
    hand = record.hands[number]
    over = hand.result is not None
    seats = _seats_of(hand.dealer)
    mine = next((w for w, p in seats.items() if p == viewer), None) if viewer is not None else None
    if seat is None:
        seat = mine or "open"
    if seat != "open" and seat not in seats:
        raise ReplayError("bad_request", f"a seat is E, S, W, N or open, not {seat!r}")
    if seat == "open":
        seat = None
    if not over:
        if mine is None:
            raise ReplayError("forbidden", f"hand {number + 1} is being played: its players only")
        if seat != mine:
            raise ReplayError(
                "forbidden", f"hand {number + 1} is being played: your own seat ({mine}) only"
            )
    server_seed = None
    if not over and record.match_seed is None:
        server_seed = hand_seed(bytes.fromhex(table.row.match_seed), number)
    eye = None if seat is None else Wind.parse(seat)
    try:
        frames, deal, start = _frames(record, number, eye, server_seed)
    except RecordError as exc:
        raise ReplayError("not_found", f"the table's record does not replay: {exc}") from None
    names = {s.player: s.name or f"P{s.player + 1}" for s in table.seats}
    out: JSON = {
        "table": {
            "id": table.row.public_id,
            "kind": table.row.kind,
            "private": table.row.private,
            "status": table.row.status,
            "rules": {
                "name": record.rules.get("preset") or "house",
                "digest": record.rules.get("digest"),
            },
            "players": [names.get(p, f"P{p + 1}") for p in range(4)],
        },
        "you": viewer,
        "your_seat": mine,
        "hand": number,
        "hands": [_hand_summary(h) for h in record.hands],
        "over": over,
        "match_over": record.complete,
        "seat": seat,
        "seats": seats,
        "dealer": hand.dealer,
        "prevailing": hand.prevailing.letter,
        "start": start,
        "commitment": hand.commitment,
        "seed": None if hand.seed is None else hand.seed.hex(),
        "match_commitment": record.commitment,
        "match_seed": None if record.match_seed is None else record.match_seed.hex(),
        "deal": deal if over else None,
        "bonus_tiles": _bonus_tiles(record),
        "frames": frames,
    }
    return out


def _bonus_tiles(record: GameRecord) -> bool:
    """Whether the walls hold the eight bonus tiles (144 tiles) or not (136)."""
    try:
        return rules_from_spec(record.rules).bonus_tiles
    except RecordError:
        return True


def _hand_summary(hand: HandRecord) -> JSON:
    result = hand.result
    return {
        "hand": hand.number,
        "dealer": hand.dealer,
        "prevailing": hand.prevailing.letter,
        "over": result is not None,
        "winners": [] if result is None else [w.letter for w in result.winners],
        "drawn": False if result is None else result.drawn,
    }


def _frames(
    record: GameRecord, number: int, eye: Wind | None, seed: bytes | None
) -> tuple[list[JSON], dict[str, list[str]], str]:
    """The frames, every seat's deal (tiles as dealt) and the hand's opening line (dice, break).

    A frame's ``at`` counts the events everyone knows happened (all but the referee's), the same
    for every eye: the key to find the same moment in another seat's frames. Once the hand is
    over a frame also holds ``step``, the actions of the hand played before it (the review's
    decision ``index``, docs/review.md); a hand being played has none (how many actions were
    taken would tell who had a claim to pass)."""
    frames: list[JSON] = []
    events: list[JSON] = []
    acts: list[str] = []
    deal: dict[str, list[str]] = {}
    start = ""
    at = before_discard = 0
    over = record.hands[number].result is not None
    for n, step in enumerate(replay_hand(record, number, seed=seed)):
        state = step.state
        if step.action is None:
            for e in step.events:
                if e.kind is EventKind.DEAL and e.seat is not None:
                    deal[e.seat.letter] = tiles_json(e.tiles)
                elif e.kind is EventKind.HAND_START:
                    start = e.detail
        for e in step.events:
            if e.kind is EventKind.DISCARD:
                before_discard = at
            at += e.visibility is not Visibility.REFEREE
        if eye is None:
            view = public_view_json(state.public_view())
            view["hands"] = {w.letter: tiles_json(state.view(w).concealed) for w in Wind}
            drawn = state.view(state.public_view().current).last_drawn
            view["last_drawn"] = None if drawn is None else drawn.mpsz
            frames.append(
                {
                    "at": at,
                    "actor": None if step.seat is None else step.seat.letter,
                    "actions": [] if step.action is None else [step.action.text],
                    "events": [event_json(e) for e in step.events],
                    "view": view,
                }
            )
            if over:
                frames[-1]["step"] = n
            continue
        events += [event_json(shown) for e in step.events if (shown := e.for_seat(eye))]
        if step.seat == eye and step.action is not None:
            acts.append(step.action.text)
        seen = state.view(eye)
        if seen.phase in (Phase.TURN, Phase.OVER) or eye in seen.to_act:
            frames.append(
                {
                    "at": at,
                    "actor": None,
                    "actions": acts,
                    "events": events,
                    "view": view_json(seen),
                }
            )
            if over:
                frames[-1]["step"] = n
            events, acts = [], []
    if eye is not None and not over:
        # a hand being played: up to where the latest discard's turn began, as for spectators —
        # whether a window is open after it (a pair, a ready hand) must not show
        frames = [f for f in frames if f["at"] <= before_discard]
    return frames, deal, start
