"""Golden playthroughs (牌局實錄): text transcripts of whole hands and matches, diffed by a test.

    .venv/bin/python tools/golden.py            # regenerate tests/engine/golden/*.txt
    .venv/bin/python tools/golden.py --check    # exit 1 and show a diff when one differs

One transcript per preset (a seeded random hand) and per tricky transition (stacked walls from
``engine.wall.stacked_wall`` and a short script of the key actions; every other decision is the
quiet default: pass in a window, discard the tile just drawn on a turn). A transcript shows every
event, each decision with its legal actions, the outcome with the fan items and payments, and
for matches the ledger. Review a diff before regenerating: a change is either a fix or a bug.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.events import Event, HandOutcome
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import run_match
from hkmahjong.engine.record import hand_seed, seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import Phase, PlayerView
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.hand import shanten_counts
from hkmahjong.rules import Ruleset, get_preset, preset_names
from hkmahjong.tiles import Wind, counts34

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "engine" / "golden"
E, S, W, N = Wind


def _rules(preset: str, **changes: Any) -> Ruleset:
    base = get_preset(preset)
    return dataclasses.replace(base, **changes) if changes else base


def _rules_line(ruleset: Ruleset, preset: str, changes: Mapping[str, Any]) -> str:
    extra = ", ".join(f"{k}={v!r}" for k, v in changes.items())
    return f"# rules: {preset}" + (f" with {extra}" if extra else "")


def _legal_text(legal: Sequence[Action]) -> str:
    discards = [a.tile.mpsz for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    others = [a.text for a in legal if a.kind is not ActionKind.DISCARD]
    parts = ([f"discard {' '.join(discards)}"] if discards else []) + others
    return " | ".join(parts)


def _outcome_lines(outcome: HandOutcome) -> list[str]:
    lines = []
    if outcome.drawn:
        lines.append("流局 exhaustive draw")
    for w in outcome.wins:
        how = "自摸 self-drawn" if w.discarder is None else f"off {w.discarder.letter}"
        r = w.result
        lines.append(f"糊 {w.seat.letter} wins {how}: {w.hand.text}")
        items = ", ".join(
            f"{i.fan_id.zh} {i.fan}" + (f"x{i.count}" if i.count != 1 else "") for i in r.items
        )
        lim = " (limit)" if r.is_limit else ""
        lines.append(f"   {r.total_fan} fan{lim}: {items}")
        if w.liable is not None:
            lines.append(f"   包牌 liable: {w.liable.letter}")
    for s in outcome.false_winners:
        lines.append(f"詐糊 false win by {s.letter}")
    deltas = "  ".join(f"{s.letter} {d:+}" for s, d in zip(Wind, outcome.deltas, strict=True))
    lines.append(f"payments: {deltas}")
    lines.extend(f"   {line}" for line in outcome.lines)
    return lines


def _events(events: Sequence[Event]) -> list[str]:
    return [f"    {e.text}" + ("  [referee]" if e.visibility == 2 else "") for e in events]


Policy = Callable[[HandState, Wind, list[Action]], Action]

_WINS = (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN)


class GreedyPlayer:
    """A plain shanten-greedy player (not a bot): wins when it can, passes claims, and
    discards the first tile that keeps the hand closest to ready. Makes matches move on."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Win if legal; in a window pass; on a turn the discard with the lowest shanten."""
        for a in legal:
            if a.kind in _WINS:
                return a
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        if not discards:
            return (
                Action.plain(ActionKind.PASS)
                if Action.plain(ActionKind.PASS) in legal
                else legal[0]
            )
        counts = counts34(view.concealed)
        melds = len(view.melds[view.seat])
        best, best_s = discards[0], 99
        for a in discards:
            assert a.tile is not None
            counts[a.tile] -= 1
            sh = shanten_counts(counts, melds)
            counts[a.tile] += 1
            if sh < best_s:
                best, best_s = a, sh
        return best


def quiet_policy(state: HandState, seat: Wind, legal: list[Action]) -> Action:
    """Pass in a window; on a turn discard the tile just drawn (else the first discard)."""
    if state.phase is not Phase.TURN:
        return Action.plain(ActionKind.PASS)
    drawn = state.view(seat).last_drawn
    if drawn is not None and Action.discard(drawn) in legal:
        return Action.discard(drawn)
    return next(a for a in legal if a.kind is ActionKind.DISCARD)


def play_transcript(
    state: HandState, script: Sequence[tuple[Wind, str]], *, fallback: Policy = quiet_policy
) -> list[str]:
    """Play a hand: the next scripted action when its seat is asked and it is legal, else default.

    :raises RuntimeError: when the hand ends before the script is used up.
    """
    out = ["-- deal", *_events(state.initial_events)]
    queue = [(seat, Action.from_text(text)) for seat, text in script]
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if queue and queue[0][0] == seat and queue[0][1] in legal:
            action = queue.pop(0)[1]
            mark = "*"
        else:
            action = fallback(state, seat, legal)
            mark = " "
        out.append(f"{mark} {seat.letter} [{state.phase.value}] legal: {_legal_text(legal)}")
        out.append(f"  {seat.letter} > {action.text}")
        out.extend(_events(state.apply(seat, action)))
        steps += 1
        if steps > 2000:
            raise RuntimeError("the hand did not end")
    if queue:
        left = ", ".join(f"{s.letter} {a.text}" for s, a in queue)
        raise RuntimeError(f"the hand ended before the script was used up: {left}")
    assert state.outcome is not None
    return [*out, "-- outcome", *_outcome_lines(state.outcome)]


@dataclass
class Scenario:
    """One stacked-wall hand: the rule it shows, the wall, and the key actions."""

    name: str
    title: str
    preset: str = "parlor"
    changes: dict[str, Any] = field(default_factory=dict)
    deals: dict[Wind, str] = field(default_factory=dict)
    draws: str = ""
    replacements: str = ""
    script: list[tuple[Wind, str]] = field(default_factory=list)

    def render(self) -> str:
        """The transcript text."""
        ruleset = _rules(self.preset, **self.changes)
        wall = stacked_wall(
            self.deals, self.draws, self.replacements, bonus_tiles=ruleset.bonus_tiles
        )
        state = HandState.new(ruleset, seed=b"golden", wall=wall)
        head = [f"# {self.title}", _rules_line(ruleset, self.preset, self.changes)]
        for seat, tiles in self.deals.items():
            head.append(f"# deal {seat.letter}: {tiles}")
        head.append(f"# draws: {self.draws or '-'}; tail: {self.replacements or '-'}")
        return "\n".join([*head, *play_transcript(state, self.script)]) + "\n"


SCENARIOS: list[Scenario] = [
    Scenario(
        "rob_kong",
        "搶槓 robbing an added kong — docs/rules.md §6 (P, W2): W robs S's 加槓 of 3s; S pays as discarder",
        deals={
            E: "3s 111p 456p 789m 246m 1z",
            S: "33s 9p 147m 258p 69s 5z 6z",
            W: "24s 666s 88s 111z 77z 9m",
            N: "19m 19p 19s 234z 55z 6z 5p",
        },
        draws="8s 2p 3p 3s",
        script=[
            (E, "discard 3s"),
            (S, "pung"),
            (S, "discard 9p"),
            (W, "discard 9m"),
            (S, "added_kong 3s"),
            (W, "win"),
        ],
    ),
    Scenario(
        "head_bump",
        "截糊 head bump — docs/rules.md §6 (P): S and W both win on E's 5z; only S (first after E) wins",
        deals={
            E: "9s 1p 4p 7p 2s 3s 6s 8m 2m 3m 6m 3z 4z 6z",
            S: "111m 999m 222p 88p 55z",
            W: "123s 456s 789s 111z 5z",
            N: "19m 19p 1s 7s 22z 44z 66z 2p",
        },
        draws="7m 3p 4s 5z",
        script=[(E, "discard 9s"), (S, "win"), (W, "win")],
    ),
    Scenario(
        "multiple_winners",
        "一炮多響 — docs/rules.md §6 switch (W1/W2): the same wall; S and W both win on E's 5z",
        changes={"multiple_winners": True},
        deals={
            E: "9s 1p 4p 7p 2s 3s 6s 8m 2m 3m 6m 3z 4z 6z",
            S: "111m 999m 222p 88p 55z",
            W: "123s 456s 789s 111z 5z",
            N: "19m 19p 1s 7s 22z 44z 66z 2p",
        },
        draws="7m 3p 4s 5z",
        script=[(E, "discard 9s"), (S, "win"), (W, "win")],
    ),
    Scenario(
        "double_kong",
        "槓上槓 consecutive kong replacements — docs/rules.md §8: S kongs 1m then 2m, wins on the second",
        deals={
            E: "3m 4m 6m 7m 1p 2p 3p 4p 6p 7p 1s 2s 3s 4s",
            S: "1111m 2222m 555p 9p 7z",
            W: "5m 8m 5s 6s 7s 8s 9s 1z 2z 3z 4z 6z 8p",
            N: "5m 8m 5s 6s 7s 8s 9s 1z 2z 3z 4z 6z 8p",
        },
        draws="9p",
        replacements="7z 9p",
        script=[
            (E, "discard 1s"),
            (S, "concealed_kong 1m"),
            (S, "concealed_kong 2m"),
            (S, "self_draw"),
        ],
    ),
    Scenario(
        "kong_no_replacement",
        "流局 kong with no replacement left — docs/rules.md §12: N kongs on the last tile; hand drawn",
        changes={"bonus_tiles": False},
        deals={N: "777z 1m 4m 7m 2p 5p 8p 3s 6s 9s 1z"},
        replacements="7z",
        script=[(N, "concealed_kong 7z")],
    ),
    Scenario(
        "bonus_at_deal",
        "補花 bonus replacement at the deal (a chain: 1f → 3f → 4f) and in play; S wins 花上自摸 on its "
        "second turn — docs/rules.md §3.4, §4, §8",
        deals={
            E: "1f 2g 1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 2z",
            S: "4g 111p 222s 333m 55z 6z",
            W: "5m 8m 5s 6s 7s 8s 9s 3z 4z 6z 8p 7p 9p",
            N: "5m 8m 5s 6s 7s 1s 9m 3z 4z 7z 8p 6p 9p",
        },
        draws="9m 1s 2s 3s 3g",
        replacements="3f 6m 6z 4f 7m 6z",
        script=[(E, "discard 2z"), (S, "self_draw")],
    ),
    Scenario(
        "eight_bonus",
        "八仙過海 all eight bonus tiles — docs/rules.md §8 (P): S draws the 8th on its second turn and wins "
        "at once, paid as a self-draw",
        deals={
            E: "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 2z 2z 3z",
            S: "1f 2f 3f 4f 1g 2g 3g 5m 6m 7m 8p 8p 9p",
            W: "5m 8m 5s 6s 7s 8s 9s 3z 4z 6z 8p 7p 9p",
            N: "5m 8m 5s 6s 7s 1s 9m 3z 4z 7z 1p 6p 9m",
        },
        draws="9m 1s 2s 6m 4g",
        replacements="2s 3s 4s 2p 3p 4p 4m 5z",
        script=[(E, "discard 3z"), (S, "bonus_win")],
    ),
    Scenario(
        "heavenly",
        "天糊 heavenly hand — docs/rules.md §7: the dealer's first 14 tiles are complete",
        deals={E: "123m 456m 789m 123p 55z"},
        script=[(E, "self_draw")],
    ),
    Scenario(
        "earthly",
        "地糊 earthly hand — docs/rules.md §7: S wins on the dealer's first discard, before any claim",
        deals={
            E: "9s 1p 4p 7p 2s 3s 6s 8m 2m 3m 6m 3z 4z 6z",
            S: "123m 456m 789m 99p 8s 7s",
        },
        script=[(E, "discard 9s"), (S, "win")],
    ),
    Scenario(
        "liability_big_dragons",
        "包牌 大三元 — docs/rules.md §10 (P): E feeds W's third dragon set; W self-draws; E pays all",
        deals={
            E: "5z 1p 4p 7p 2s 3s 6s 8m 9m 8p 9p 2z 3z 4z",
            S: "1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z",
            W: "55z 66z 77z 123m 99p 1s 9s",
        },
        draws="6z 5s 7z 5s 6s 8s 4m",
        script=[
            (E, "discard 5z"),
            (W, "pung"),
            (W, "discard 1s"),
            (W, "pung"),
            (W, "discard 9s"),
            (W, "pung"),
            (W, "discard 1m"),
            (W, "self_draw"),
        ],
    ),
    Scenario(
        "liability_big_winds",
        "包牌 大四喜 — docs/rules.md §10 (P): E feeds W's fourth wind set; W self-draws; E pays all",
        deals={
            E: "1z 1p 4p 7p 2s 3s 6s 8m 9m 8p 9p 5z 6z 7z",
            S: "1m 4m 7m 2p 5p 8p 3s 6s 9s 5z 6z 7z 5m",
            W: "11z 22z 33z 44z 123m 1s 9s",
        },
        draws="2z 5s 3z 5s 4z 6s 8s 7s 3m",
        script=[
            (E, "discard 1z"),
            (W, "pung"),
            (W, "discard 1s"),
            (W, "pung"),
            (W, "discard 9s"),
            (W, "pung"),
            (W, "discard 1m"),
            (W, "pung"),
            (W, "discard 2m"),
            (W, "self_draw"),
        ],
    ),
    Scenario(
        "liability_four_kongs",
        "包牌 十八羅漢 — docs/rules.md §10 (P): W has three kongs; E discards the tile W kongs for the "
        "fourth; W wins on the replacement; E pays all",
        deals={
            E: "1p 4p 7p 2s 6s 8m 9m 8p 9p 6z 7z 1z 2z 3z",
            W: "1111m 2222p 3333s 4z",
        },
        draws="6m 5z 7m 5z",
        replacements="5z 5z 9m 4z",
        script=[
            (E, "discard 1z"),
            (W, "concealed_kong 1m"),
            (W, "concealed_kong 2p"),
            (W, "concealed_kong 3s"),
            (W, "discard 9m"),
            (W, "kong"),
            (W, "self_draw"),
        ],
    ),
    Scenario(
        "liability_twelve_tiles",
        "包十二張 fourth exposed set — docs/rules.md §10 (W1/W2 full gun, on in qingzhang): E feeds W's "
        "fourth exposed set; W later self-draws; E pays all",
        preset="qingzhang",
        deals={
            E: "1m 4p 7p 2s 3s 6s 8m 9m 8p 1z 2z 3z 4z 5z",
            W: "11m 99p 33s 77z 6z 1s 9s 2m 5m",
        },
        draws="9p 3s 8s 7z 5p 5s 2s 6z",
        script=[
            (E, "discard 1m"),
            (W, "pung"),
            (W, "discard 1s"),
            (W, "pung"),
            (W, "discard 9s"),
            (W, "pung"),
            (W, "discard 2m"),
            (W, "pung"),
            (W, "discard 5m"),
            (W, "self_draw"),
        ],
    ),
]


def preset_transcript(preset: str) -> str:
    """The first seeded hand (hand numbers 0, 1, ...) that greedy players win, under ``preset``."""
    ruleset = get_preset(preset)
    player = GreedyPlayer()

    def greedy(st: HandState, seat: Wind, legal: list[Action]) -> Action:
        return player.choose(st.view(seat), legal)

    match_seed = seed_from_text(f"golden-{preset}")
    for n in range(200):
        trial = HandState.new(ruleset, seed=hand_seed(match_seed, n), hand_number=n)
        probe = trial.clone()
        while not probe.is_over:
            seat = probe.to_act[0]
            probe.apply(seat, greedy(probe, seat, probe.legal_actions(seat)))
        if probe.outcome is not None and probe.outcome.wins:
            break
    head = [f"# preset {preset}: the first seeded hand that shanten-greedy players win"]
    head.append(f"# match seed text: 'golden-{preset}', hand {n}")
    return "\n".join([*head, *play_transcript(trial, [], fallback=greedy)]) + "\n"


def _uncapped(hand: Any, ruleset: Ruleset) -> tuple[int | float, ...]:
    """The engine's own settlement of a recorded hand (before a bankruptcy cap), by seat."""
    state = HandState.new(
        ruleset, seed=hand.seed, prevailing_wind=hand.prevailing, hand_number=hand.number
    )
    for a in hand.actions:
        state.apply(a.seat, a.action)
    assert state.outcome is not None
    return tuple(state.outcome.deltas)


def match_transcript(
    title: str, match: Match, ruleset: Ruleset, seed: str, changes: Mapping[str, Any]
) -> str:
    """A whole match of greedy players: per hand who deals, the seats, the result; the ledger."""
    players = [GreedyPlayer() for _ in range(4)]
    lines = [f"# {title}", _rules_line(ruleset, ruleset.name, changes), f"# seed: {seed!r}"]

    def on_hand(hand: Any, m: Match) -> None:
        e = m.ledger[-1]
        seats = " ".join(f"{p}={Wind((i - e.dealer) % 4).letter}" for i, p in enumerate(m.players))
        r = e.result
        what = "drawn" if r.drawn else "won by " + ",".join(w.letter for w in r.winners)
        nxt = "stays (連莊)" if r.dealer_stays else "passes"
        lines.append(f"hand {e.hand_number + 1:>3} {e.label:<10} {seats}  {what}; deal {nxt}")
        deltas = " ".join(f"{p}{d:+}" for p, d in zip(m.players, e.deltas, strict=True))
        bal = " ".join(f"{b}" for b in e.balances)
        lines.append(f"          deltas {deltas}  balances {bal}")
        full = _uncapped(hand, ruleset)
        if full != tuple(r.deltas):
            owed = " ".join(f"{p}{full[(i - e.dealer) % 4]:+}" for i, p in enumerate(m.players))
            lines.append(f"          capped: the hand's own settlement was {owed}")

    run_match(match, ruleset, players, match_seed=seed_from_text(seed), on_hand=on_hand)
    lines.append(
        f"-- finished after {match.hand_number} hands; prevailing now {match.prevailing.zh}"
    )
    lines.append(match.standings())
    return "\n".join(lines) + "\n"


def all_transcripts() -> dict[str, str]:
    """Every golden file name → its text."""
    out = {f"preset_{p}.txt": preset_transcript(p) for p in preset_names()}
    for sc in SCENARIOS:
        out[f"{sc.name}.txt"] = sc.render()
    fast = {"min_fan": 0}
    out["match_east_round.txt"] = match_transcript(
        "dealer rotation across a wind round — docs/rules.md §2: 連莊 on a dealer win or draw, "
        "else the deal passes; 東風 → 南風 after four passes",
        Match(("A", "B", "C", "D"), MatchLength.EAST_ROUND, max_hands=200),
        _rules("parlor", **fast),
        "golden-east",
        fast,
    )
    out["match_four_rounds.txt"] = match_transcript(
        "four wind rounds (四圈) — docs/rules.md §2: the prevailing wind advances 東 → 南 → 西 → 北 each "
        "time the deal has passed all four players; the match ends after sixteen passes",
        Match(("A", "B", "C", "D"), MatchLength.FOUR_ROUNDS, max_hands=400),
        _rules("parlor", **fast),
        "golden-four",
        fast,
    )
    out["match_bankruptcy.txt"] = match_transcript(
        "bankruptcy (打到破產) — docs/rules.md §2, §9: play until someone is broke; a payer pays at most "
        "what it holds",
        Match(("A", "B", "C", "D"), MatchLength.BANKRUPTCY, starting_balance=5, max_hands=400),
        _rules("parlor", **fast),
        "golden-bankrupt",
        fast,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """Regenerate the golden files, or ``--check`` them."""
    ap = argparse.ArgumentParser(description="Regenerate or check golden playthroughs.")
    ap.add_argument("--check", action="store_true", help="diff instead of writing")
    ap.add_argument("--only", default=None, help="only this file name (e.g. rob_kong.txt)")
    args = ap.parse_args(argv)
    bad = 0
    for name, text in all_transcripts().items():
        if args.only and name != args.only:
            continue
        path = GOLDEN_DIR / name
        if args.check:
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            if old != text:
                bad += 1
                sys.stdout.writelines(
                    difflib.unified_diff(
                        old.splitlines(True), text.splitlines(True), f"a/{name}", f"b/{name}"
                    )
                )
        else:
            GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
