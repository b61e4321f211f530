"""The parlor's game (牌局): a :class:`Match` of engine hands, one human seat and three bots.

This is the only module of the parlor that talks to the engine. The match itself (hands, dealer
rotation, ledger, the record) is the engine's :class:`MatchRunner`; this module adds the bots, the
human's options, the screens' data, and the save file: the record plus a sealed key (``save.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from hkmahjong.cli.tui.controller import GameController
from hkmahjong.cli.tui.hint import hint_for
from hkmahjong.cli.tui.i18n import tr
from hkmahjong.cli.tui.model import (
    ClaimChoice,
    HandEndInfo,
    HintInfo,
    MatchEndInfo,
    Options,
    SeatInfo,
    TableInfo,
    WinScore,
)
from hkmahjong.cli.tui.render import TileRenderer
from hkmahjong.cli.tui.save import (
    SaveError,
    install_secret,
    key_path,
    line_chain,
    new_save_id,
    read_key,
    saved_point,
    write_save,
)
from hkmahjong.cli.tui.settlement import settlement_lines
from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.engine.events import HandOutcome
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import check_choice
from hkmahjong.engine.record import (
    GameRecord,
    commitment,
    new_match_seed,
    rules_from_spec,
    seed_from_text,
)
from hkmahjong.engine.runner import HandEnd, MatchRunner, StepResult
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.hand import Hand
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "BotLike",
    "ParlorGame",
    "SaveError",
    "action_label",
    "key_path",
    "length_from_option",
    "table_snapshot",
]

ADVISOR_LEVEL = "strong"
"""The strong bot whose suggestion the hint shows."""


class BotLike(Protocol):
    """Anything that picks an action from a view and the legal actions (an engine controller)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One of ``legal``."""
        ...


BotFactory = Callable[[str, int], BotLike]
"""Makes a bot from a level (``easy`` … ``expert``) and a seed."""


def length_from_option(text: str) -> MatchLength:
    """The match length of a ``--length`` option (``east``, ``four-winds``, ``8``, ``16``, ...;
    every alias is :class:`MatchLength`'s).

    :raises MahjongError: when ``text`` names no length.
    """
    return MatchLength.parse(text)


@dataclass
class _Logged:
    hand: int
    seat: Wind
    action: str


class ParlorGame(GameController):
    """A match for the parlor: the engine's :class:`MatchRunner` + bots, seen from human player 0.

    The runner keeps the match and its :class:`GameRecord` (牌譜) as it goes: every hand's
    commitment, each action with the digest of its events, and each finished hand's seed and
    result. ``save_id`` names this match's saves on this install (``save.py``).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        match: Match,
        match_seed: bytes,
        *,
        opponents: str = "normal",
        lang: str = "zh-Hant",
        bot_factory: BotFactory | None = None,
        advisor: Callable[[PlayerView, Sequence[Action]], tuple[Action, str]] | None = None,
        renderer: TileRenderer | None = None,
        walls: Callable[[int], list[Tile] | None] | None = None,
        save_id: str | None = None,
        start: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.walls = walls
        self._lock = threading.RLock()  # bots play in a worker thread; saving may come meanwhile
        self.match = match
        self.match_seed = match_seed
        self.opponents = opponents
        self.lang = lang
        self.renderer = renderer or TileRenderer(lang)
        if bot_factory is None:
            self.bots: dict[int, BotLike] = {
                p: _default_bot_factory(opponents, _bot_seed(match_seed, p), ruleset)
                for p in (1, 2, 3)
            }
        else:
            self.bots = {p: bot_factory(opponents, _bot_seed(match_seed, p)) for p in (1, 2, 3)}
        self.advisor = advisor or _default_advisor(match_seed, ruleset)
        self.runner = MatchRunner(match, ruleset, match_seed, walls=walls)
        self.save_id = save_id or new_save_id()
        self.log: list[_Logged] = []
        self.history: list[str] = []
        if start:
            self._start_hand()

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        *,
        length: str = "east",
        opponents: str = "normal",
        seed: str | None = None,
        lang: str = "zh-Hant",
        bot_factory: BotFactory | None = None,
        renderer: TileRenderer | None = None,
        walls: Callable[[int], list[Tile] | None] | None = None,
    ) -> ParlorGame:
        """A new match: the human is player 0 (the first dealer), bots of level ``opponents``.

        ``walls`` (tests, tutorials) gives a fixed wall for a hand number, or None to shuffle.

        :raises MahjongError: for an unknown length.
        """
        match_length = length_from_option(length)
        names = (tr(lang, "you"), *(_bot_name(lang, i) for i in (1, 2, 3)))
        start = match_length.start_balance
        match = Match(
            (names[0], names[1], names[2], names[3]), match_length, starting_balance=start
        )
        match_seed = seed_from_text(seed) if seed is not None else new_match_seed()
        return cls(
            ruleset,
            match,
            match_seed,
            opponents=opponents,
            lang=lang,
            bot_factory=bot_factory,
            renderer=renderer,
            walls=walls,
        )

    # --- hands ------------------------------------------------------------------------------
    @property
    def record(self) -> GameRecord:
        """The match's record (牌譜) so far, as the runner builds it."""
        return self.runner.record

    def _start_hand(self) -> None:
        self._on_step(self.runner, self.runner.start_hand())

    def _on_step(self, runner: MatchRunner, step: StepResult) -> None:
        """Follow a step of the runner (live, or replayed when resuming): log, seats, history."""
        self.runner, self.match = runner, runner.match
        if step.seat is None or step.action is None:
            self.hand_index = step.hand_number
            self.repeat = self.match.repeat
            self.seat_players = tuple(runner.player_at(seat) for seat in Wind)
            return
        self.log.append(_Logged(self.hand_index, step.seat, step.action.text))
        if step.hand_end is not None:
            self._hand_ended(step.hand_end)

    @property
    def human_seat(self) -> Wind:
        """The human's seat wind in the current hand."""
        return Wind(self.seat_players.index(0))

    def player_at(self, seat: Wind) -> int:
        """The player (0 = human) at ``seat`` in the current hand."""
        return self.seat_players[seat]

    def name_at(self, seat: Wind) -> str:
        """The name of the player at ``seat``."""
        return self.match.players[self.player_at(seat)]

    # --- controller interface ---------------------------------------------------------------
    def table(self) -> TableInfo:
        """The table from the human seat's view (every hand revealed once the hand is over)."""
        me = self.human_seat
        view = self.runner.view(me)
        table = table_snapshot(
            self.runner.view,
            me,
            names=[self.match.players[p] for p in self.seat_players],
            humans=[p == 0 for p in self.seat_players],
            scores=[
                self.match.balances[p] - self.match.starting_balance for p in self.seat_players
            ],
            hand_number=self.hand_index + 1,
            repeat=self.repeat,
            last_discard=self._last_discard(view),
            ruleset=self.ruleset.name,
            length=self.match.length.zh,
            reveal=self.runner.hand_over,
        )
        return replace(table, last_action=self._last_action(me))

    def _last_action(self, me: Wind) -> str:
        for entry in reversed(self.log):
            if entry.hand != self.hand_index or entry.seat == me:
                return ""
            action = Action.from_text(entry.action)
            if action.kind is not ActionKind.PASS:
                return f"{self.name_at(entry.seat)}: {action_label(action, self.renderer)}"
        return ""

    def _last_discard(self, view: PlayerView) -> tuple[Wind, int] | None:
        for entry in reversed(self.log):
            if entry.hand != self.hand_index:
                break
            if entry.action.startswith("discard"):
                seat = entry.seat
                if view.discards[seat]:
                    return (seat, len(view.discards[seat]) - 1)
                return None
        return None

    def options(self) -> Options:
        """The human's legal actions grouped for the keys and buttons."""
        if self.runner.hand_over:
            return Options(mode="match_over" if self.match_over() else "hand_over")
        if not self.human_to_act():
            return Options(mode="wait")
        me = self.human_seat
        legal = self.runner.legal(me)
        view = self.runner.view(me)
        discard: dict[Tile, object] = {}
        kongs: dict[Tile, object] = {}
        chows: list[ClaimChoice] = []
        win: object | None = None
        pung: object | None = None
        pass_: object | None = None
        for action in legal:
            kind = action.kind
            if kind is ActionKind.DISCARD and action.tile is not None:
                discard[action.tile] = action
            elif kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
                if action.tile is not None:
                    kongs[action.tile] = action
            elif kind is ActionKind.KONG and view.pending_tile is not None:
                kongs[view.pending_tile] = action
            elif kind in (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN):
                win = action if win is None else win
            elif kind is ActionKind.PUNG:
                pung = action
            elif kind is ActionKind.CHOW and action.tile is not None:
                chows.append(ClaimChoice(action.tile, action))
            elif kind is ActionKind.PASS:
                pass_ = action
        if view.phase is Phase.TURN:
            return Options(mode="turn", discard=discard, win=win, kongs=kongs)
        return Options(
            mode="claim",
            win=win,
            pung=pung,
            kongs=kongs,
            chows=tuple(chows),
            pass_=pass_,
            claim_tile=view.pending_tile,
            claim_from=view.pending_from,
            claim_kind="rob" if view.phase is Phase.ROB else "discard",
        )

    def human_to_act(self) -> bool:
        """The human must decide and no bot is still deciding in the same window."""
        to_act = self.runner.to_act
        me = self.human_seat
        return me in to_act and all(s == me for s in to_act)

    def apply(self, action: object) -> None:
        """Apply the human's action.

        :raises IllegalActionError: when it is not one of the human's legal actions now.
        """
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        with self._lock:
            if not self.human_to_act():
                raise IllegalActionError("it is not your turn to act")
            self._apply(self.human_seat, action)

    def _apply(self, seat: Wind, action: Action) -> None:
        self._on_step(self.runner, self.runner.apply(seat, action))

    def bot_step(self) -> bool:
        """The first bot still to act chooses and plays; True unless it passed unseen.

        :raises IllegalActionError: when the bot's choice is not legal (never replaced).
        """
        with self._lock:
            return self._bot_step()

    def _bot_step(self) -> bool:
        for seat in self.runner.to_act:
            player = self.player_at(seat)
            if player == 0:
                continue
            legal = self.runner.legal(seat)
            bot = self.bots[player]
            choice = check_choice(
                bot.choose(self.runner.view(seat), legal), legal, f"{bot!r} at {seat.letter}"
            )
            self._apply(seat, choice)
            return choice.kind is not ActionKind.PASS
        return False

    def hand_over(self) -> bool:
        """Whether the hand has ended."""
        return self.runner.hand_over

    def _hand_ended(self, end: HandEnd) -> None:
        entry = end.entry
        label = entry.label
        if self.lang != "zh-Hant":
            where = tr(self.lang, "round", w=self.renderer.wind(entry.prevailing))
            label = f"{where} {tr(self.lang, 'hand_no', n=entry.deal % 4 + 1)}"
            if entry.repeat:
                label += " " + tr(self.lang, "repeat", n=entry.repeat)
        self.history.append(self._history_line(label, end.outcome, entry.deltas))

    def _history_line(self, label: str, outcome: HandOutcome, deltas: Sequence[float]) -> str:
        if outcome.drawn or not outcome.wins:
            what = tr(self.lang, "draw_game")
        else:
            parts = []
            for win in outcome.wins:
                how = tr(self.lang, "self_draw") if win.self_drawn else tr(self.lang, "win")
                fan = tr(self.lang, "fan", n=win.result.total_fan)
                parts.append(f"{self.name_at(win.seat)} {how} {fan}")
            what = ", ".join(parts)
        money = " ".join(
            f"{name} {_signed(d)}" for name, d in zip(self.match.players, deltas, strict=True)
        )
        return f"{label}: {what} | {money}"

    def hand_end(self) -> HandEndInfo | None:
        """All hands revealed, the winner's fan items (zh + en), payments and running totals."""
        outcome = self.runner.outcome
        if outcome is None:
            return None
        r = self.renderer
        hands = []
        for seat in Wind:
            view = self.runner.view(seat)
            hand = Hand(view.concealed, view.melds[seat], view.bonus[seat])
            text = r.tiles(hand.concealed)
            for meld in hand.melds:
                text += "  " + r.meld(meld)
            if hand.bonus:
                text += "  " + " ".join(r.bare(t) for t in hand.bonus)
            hands.append((seat, f"{r.wind(seat)} {self.name_at(seat)}", text))
        scores: list[WinScore] = []
        winners: list[str] = []
        for win in outcome.wins:
            name = self.name_at(win.seat)
            how = tr(self.lang, "self_draw") if win.self_drawn else tr(self.lang, "win")
            src = ""
            if win.discarder is not None:
                src = f" ← {self.name_at(win.discarder)}"
            winners.append(f"{name} {how}{src}")
            shape = ""
            arrangement = win.result.arrangement
            if arrangement is not None:
                shape = "  ".join(
                    "".join(r.bare(t) for t in group.tiles) for group in arrangement.groups
                )
                tile = win.result.winning_tile
                if tile is not None:
                    shape += f"  ({tr(self.lang, 'win')} {r.bare(tile)})"
            items = []
            for item in win.result.items:
                zh = item.fan_id.zh_hans if self.lang == "zh-Hans" else item.zh
                count = f" ×{item.count}" if item.count > 1 else ""
                items.append((zh + count, item.en, item.fan))
            scores.append(
                WinScore(name, shape, tuple(items), win.result.total_fan, win.result.is_limit)
            )
        if outcome.drawn or not outcome.wins:
            title = tr(self.lang, "draw_game")
        else:
            title = "; ".join(winners)
        payments = tuple((self.name_at(seat), float(outcome.deltas[seat])) for seat in Wind)
        totals = tuple(
            (name, float(self.match.balances[p] - self.match.starting_balance))
            for p, name in enumerate(self.match.players)
        )
        return HandEndInfo(
            title=title,
            hands=tuple(hands),
            winners=tuple(winners),
            scores=tuple(scores),
            payments=payments,
            totals=totals,
            match_over=self.match.finished,
            settlement=settlement_lines(outcome, self.name_at, self.lang, self.ruleset),
        )

    def next_hand(self) -> None:
        """Deal the next hand (the finished one is already in the ledger and the record)."""
        if self.runner.can_start:
            self._start_hand()

    def match_over(self) -> bool:
        """Whether the match is over (the last hand recorded, the record's footer written)."""
        return self.runner.match_over

    def match_end(self) -> MatchEndInfo:
        """Standings (best first) and the per-hand history."""
        totals = self.match.totals()
        standings = sorted(totals.items(), key=lambda kv: -kv[1])
        return MatchEndInfo(
            standings=tuple((n, float(v)) for n, v in standings), history=tuple(self.history)
        )

    # --- help -------------------------------------------------------------------------------
    def hint(self) -> HintInfo:
        """提示: the advisor's choice and its reasons (shanten, waits and fan, danger)."""
        me = self.human_seat
        view = self.runner.view(me)
        return hint_for(view, self.runner.legal(me), self.ruleset, self.advisor)

    # --- save and resume --------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        """Write the record (牌譜, JSON Lines) to ``path`` and its sealed key to ``path.key``.

        The record holds each hand's commitment, never the seed of a hand in play; the key holds
        the match seed wrapped with this install's secret, the bot level and an HMAC chain over
        the record (``save.py``).

        :raises SaveError: when a file cannot be written.
        """
        with self._lock:
            lines = self.runner.lines
        return write_save(
            path,
            lines,
            save_id=self.save_id,
            match_seed=self.match_seed,
            opponents=self.opponents,
            lang=self.lang,
        )

    @classmethod
    def resume(
        cls,
        path: Path,
        *,
        lang: str | None = None,
        bot_factory: BotFactory | None = None,
        renderer: TileRenderer | None = None,
    ) -> ParlorGame:
        """The game saved at ``path`` (record + key file), replayed to where it was saved.

        Checks what ``hkmj replay --verify`` checks (the ruleset and its digest, the settings,
        every line's digest) plus the key's seal, the record's HMAC chain and this install's last
        saved point of the match, so an edited, truncated or older copy of a save is refused.

        :raises SaveError: naming the file and, for an edited record, its first changed line.
        """
        text = _read(path)
        try:  # the format, the ruleset and the settings: public, so their errors are told as is
            record = GameRecord.loads(text, source=str(path), partial=True)
            ruleset = rules_from_spec(record.rules, source=str(path))
            config = Match.from_config(record.match)
        except MahjongError as exc:
            raise SaveError(str(exc), kind="record", path=path) from None
        key = read_key(path)
        secret = install_secret()
        given = text.split("\n")
        if given and given[-1] == "":
            given.pop()
        sealed = key.lines == len(given) and hmac.compare_digest(
            line_chain(secret, key.save_id, given), key.chain
        )
        match_seed = key.match_seed(secret)
        if commitment(match_seed) != record.commitment:
            raise SaveError(
                f"{key_path(path)} is the key of another match than {path}",
                kind="wrong_key",
                path=key_path(path),
            )
        chosen = lang or key.lang
        game = cls(
            ruleset,
            config,
            match_seed,
            opponents=key.opponents,
            lang=chosen,
            bot_factory=bot_factory,
            renderer=renderer or TileRenderer(chosen),
            save_id=key.save_id,
            start=False,
        )
        try:
            MatchRunner.resume(
                given,
                match_seed,
                name=str(path),
                before_action=game._rechoose,
                on_step=game._on_step,
            )
        except MahjongError as exc:
            line = getattr(exc, "line", None)
            edited = not sealed and line is not None
            raise SaveError(
                _changed(path, exc, sealed),
                kind="changed" if edited else "record",
                path=path,
                line=line if edited else None,
            ) from None
        if not sealed:
            stop = "stops" if len(given) < key.lines else "goes on"
            raise SaveError(
                f"{path} was changed after it was saved: it {stop} at line {len(given)}, "
                f"saved with {key.lines} lines (undoing moves is refused)"
                if len(given) != key.lines
                else f"{path} was changed after it was saved (its seal does not match)",
                kind="changed",
                path=path,
            )
        point = saved_point(key.save_id)
        if point is None or (point.get("lines"), point.get("chain")) != (key.lines, key.chain):
            last = "" if point is None else f" (its last save has {point.get('lines')} lines)"
            raise SaveError(
                f"{path} is not this match's last save on this install{last}: "
                "an older copy of a save cannot be resumed",
                kind="older",
                path=path,
            )
        if game.runner.can_start:
            game._start_hand()
        return game

    def _rechoose(self, runner: MatchRunner, seat: Wind, action: Action) -> None:
        """While resuming: let the bot at ``seat`` make the same decision again, so its own state
        (a seeded RNG) goes on exactly as if the match had never stopped."""
        player = runner.player_at(seat)
        if player != 0 and seat in runner.to_act:
            self.bots[player].choose(runner.view(seat), runner.legal(seat))


def _changed(path: Path, exc: MahjongError, sealed: bool) -> str:
    """The refusal of a record that does not replay: the engine's words for a save that is as it
    was saved (another engine version), only the line for an edited one (the engine's message
    could tell what a hidden hand holds)."""
    line = getattr(exc, "line", None)
    if sealed or line is None:
        return str(exc)
    return f"{path} line {line}: changed after it was saved; this save cannot be resumed"


def table_snapshot(
    view_of: Callable[[Wind], PlayerView],
    me: Wind,
    *,
    names: Sequence[str],
    humans: Sequence[bool],
    scores: Sequence[float],
    hand_number: int,
    repeat: int,
    last_discard: tuple[Wind, int] | None,
    ruleset: str,
    length: str,
    reveal: bool,
) -> TableInfo:
    """枱面: the table as seat ``me`` sees it (``view_of(seat)`` gives a seat's view); ``reveal``
    shows every concealed hand (referee)."""
    view = view_of(me)
    over = view.phase is Phase.OVER
    seats: list[SeatInfo] = []
    for seat in Wind:
        concealed: tuple[Tile, ...] | None = None
        if seat == me:
            concealed = view.concealed
        elif reveal:
            concealed = view_of(seat).concealed
        seats.append(
            SeatInfo(
                wind=seat,
                name=names[seat],
                is_dealer=seat == Wind.EAST,
                is_human=humans[seat],
                score=scores[seat],
                melds=view.melds[seat],
                bonus=view.bonus[seat],
                discards=view.discards[seat],
                claimed=view.claimed[seat],
                concealed_count=view.concealed_counts[seat],
                concealed=concealed,
            )
        )
    drawn = view.last_drawn if view.phase is Phase.TURN and view.current == me else None
    return TableInfo(
        seats=tuple(seats),
        me=me,
        prevailing=view.prevailing_wind,
        hand_number=hand_number,
        dealer_repeat=repeat,
        wall_left=view.tiles_left,
        concealed=view.concealed,
        drawn=drawn if drawn in view.concealed else None,
        to_act=view.current if not over else None,
        last_discard=last_discard,
        ruleset=ruleset,
        length=length,
    )


_ACTION_WORDS = {
    ActionKind.DISCARD: "discard",
    ActionKind.WIN: "win",
    ActionKind.SELF_DRAW: "self_draw",
    ActionKind.BONUS_WIN: "win",
    ActionKind.PUNG: "pung",
    ActionKind.KONG: "kong",
    ActionKind.CONCEALED_KONG: "kong",
    ActionKind.ADDED_KONG: "kong",
    ActionKind.CHOW: "chow",
    ActionKind.PASS: "pass",
}


def action_label(action: Action, renderer: TileRenderer) -> str:
    """動作 in the screen language with tile labels, e.g. ``打 5萬``, ``上 3筒4筒5筒``."""
    if renderer.lang == "en":
        word = action.text.split()[0].replace("_", " ")
    elif action.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        word = action.kind.zh if renderer.lang == "zh-Hant" else action.kind.zh.replace("槓", "杠")
    else:
        word = tr(renderer.lang, _ACTION_WORDS.get(action.kind, "pass"))
    if action.tile is None:
        return word
    if action.kind is ActionKind.CHOW:
        return word + " " + "".join(renderer.bare(Tile(action.tile + k)) for k in range(3))
    return f"{word} {renderer.bare(action.tile)}"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(
            f"cannot read {path}: {exc.strerror}", kind="unreadable", path=path, errno=exc.errno
        ) from None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not UTF-8 text", path=path) from None


def _signed(value: float) -> str:
    number = int(value) if float(value).is_integer() else value
    return f"{number:+}" if number else "0"


def _bot_name(lang: str, index: int) -> str:
    base = {"zh-Hant": "電腦", "zh-Hans": "电脑"}.get(lang, "Bot ")
    return f"{base}{index}"


def _bot_seed(match_seed: bytes, player: int) -> int:
    digest = hashlib.sha256(b"hkmj/parlor-bot\x00" + match_seed + bytes([player])).digest()
    return int.from_bytes(digest[:8], "big")


def _default_bot_factory(level: str, seed: int, ruleset: Ruleset | None = None) -> BotLike:
    from hkmahjong.bots import get_bot

    return get_bot(level, seed, ruleset=ruleset)


def _default_advisor(
    match_seed: bytes, ruleset: Ruleset
) -> Callable[[PlayerView, Sequence[Action]], tuple[Action, str]]:
    bot_cache: list[BotLike] = []

    def advise(view: PlayerView, legal: Sequence[Action]) -> tuple[Action, str]:
        if not bot_cache:
            bot_cache.append(_default_bot_factory(ADVISOR_LEVEL, _bot_seed(match_seed, 9), ruleset))
        bot = bot_cache[0]
        decide = getattr(bot, "decide", None)
        if callable(decide):
            decision = decide(view, legal, explain=True)
            explanation = getattr(decision, "explanation", None)
            return decision.action, _explanation_text(explanation)
        return bot.choose(view, legal), ""

    return advise


def _explanation_text(explanation: object, top: int = 5) -> str:
    if explanation is None:
        return ""
    lines = str(getattr(explanation, "text", explanation)).splitlines()
    return "\n".join(lines[: top + 2])
