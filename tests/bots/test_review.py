"""覆盤 review (issue 37): ``master``'s rollouts judge one player's decisions of a record.

The review reads each decision from the player's view only: shuffling what the seat could not
see (the other hands and the wall) leaves every figure unchanged. It is deterministic for its
seed and the same in worker processes; it flags an obviously bad decision (passing a limit-hand
win) and never calls a loss inside its noise an error.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from hkmahjong.bots import get_bot
from hkmahjong.bots.base import WIN_KINDS, BaseBot
from hkmahjong.bots.review import (
    VERDICTS,
    DecisionReview,
    ReviewConfig,
    ReviewError,
    Thresholds,
    Totals,
    deal_in_unit,
    decision_points,
    noise_gate,
    player_index,
    point_at,
    review_hand,
    review_match,
    review_point,
    verdict_of,
)
from hkmahjong.cli.main import main
from hkmahjong.engine import Action, PlayerView
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import run_match
from hkmahjong.engine.record import GameRecord, RecordError, replay_hand, seed_from_text
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

Script = Callable[[str, str], ModuleType]
PARLOR = get_preset("parlor")


class _PassesWins:
    """``strong``, except that it never takes a win (it plays its best other action)."""

    def __init__(self, bot: BaseBot) -> None:
        self.bot = bot

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        rest = [a for a in legal if a.kind not in WIN_KINDS]
        return self.bot.choose(view, rest or legal)


def _record(seed: str, *, pass_wins: bool = False, length: str = "one-hand") -> GameRecord:
    first = get_bot("strong", seed=0, ruleset=PARLOR)
    players = [_PassesWins(first) if pass_wins else first] + [
        get_bot("strong", seed=i, ruleset=PARLOR) for i in (1, 2, 3)
    ]
    return run_match(
        Match(("Ann", "Bo", "Cy", "Di"), MatchLength(length)),
        PARLOR,
        players,
        match_seed=seed_from_text(seed),
    )


@pytest.fixture(scope="module")
def short_hand() -> GameRecord:
    """A one-hand match of four ``strong`` (seed "rv1": East makes 5 decisions)."""
    return _record("rv1")


@pytest.fixture(scope="module")
def passed_win() -> GameRecord:
    """A one-hand match where East passes three wins on a discard worth a limit hand (144)."""
    return _record("pass3", pass_wins=True)


CHEAP = ReviewConfig(budget=2, extend=1)


def test_verdicts_follow_the_thresholds_and_never_call_noise_an_error() -> None:
    t = Thresholds()
    unit = deal_in_unit(PARLOR)
    assert unit == 12.0  # a minimum-fan deal-in in the parlor preset
    # clear losses, by size
    assert verdict_of(0.5, 0.1, unit, t, 100) == "good"  # below the inaccuracy threshold
    assert verdict_of(2.0, 0.1, unit, t, 100) == "inaccuracy"
    assert verdict_of(4.0, 0.1, unit, t, 100) == "mistake"
    assert verdict_of(10.0, 0.1, unit, t, 100) == "blunder"
    # the same losses inside their noise: good
    assert t.z == 3.0  # the default gate: 3 standard errors (docs/review.md, "Calibration")
    for loss in (2.0, 4.0, 10.0, 60.0):
        assert verdict_of(loss, loss / 2.9, unit, t, 1000) == "good"
        assert verdict_of(loss, loss / 2.5, unit, Thresholds(z=2.0), 1000) != "good"
        assert verdict_of(loss, loss / 2.1, unit, t, 8) == "good"  # few samples: t, not z
        assert verdict_of(loss, float("inf"), unit, t, 1) == "good"
    assert noise_gate(2.0, 8) == pytest.approx(2.0 * 2.365 / 1.959964, rel=1e-3)
    assert noise_gate(2.0, 1) == float("inf")
    assert noise_gate(2.0, 10_000) == pytest.approx(2.0, rel=1e-3)
    with pytest.raises(ValueError):
        Thresholds(inaccuracy=0.5, mistake=0.2)
    with pytest.raises(ValueError):
        ReviewConfig(budget=0)


def test_every_decision_of_the_seat_is_found_from_its_view(short_hand: GameRecord) -> None:
    """The decision points are exactly the seat's actions with a choice, in order; the review
    holds one entry per point, each with its candidates valued on the same samples."""
    seat, points, forced, result = decision_points(short_hand, 0, 0)
    assert seat is Wind.EAST and result == float(short_hand.hands[0].result.deltas[0])  # type: ignore[union-attr]
    mine = [i for i, a in enumerate(short_hand.hands[0].actions) if a.seat is Wind.EAST]
    assert len(points) + forced == len(mine)
    assert [p.index for p in points] == [i for i in mine if i in {p.index for p in points}]
    for p in points:
        assert p.view.seat is Wind.EAST and len(p.legal) >= 2 and p.played in p.legal
    hand = review_hand(short_hand, 0, 0, CHEAP)
    assert [d.index for d in hand.decisions] == [p.index for p in points]
    for d in hand.decisions:
        assert d.samples == 2 and d.verdict in VERDICTS
        assert d.candidates and all(c.action in points[0].legal or True for c in d.candidates)
        assert d.loss >= 0.0 and d.best in {c.action for c in d.candidates}
        played = next(c for c in d.candidates if c.action == d.played)
        assert played.diff == 0.0 and played.se == 0.0
        assert d.loss == max(c.diff for c in d.candidates) or d.loss == 0.0


def test_same_seed_same_review_and_the_same_in_worker_processes(short_hand: GameRecord) -> None:
    one = review_match(short_hand, 0, CHEAP)
    again = review_match(short_hand, 0, CHEAP)
    pooled = review_match(short_hand, 0, CHEAP, jobs=2)
    assert one.to_json() == again.to_json() == pooled.to_json()
    other = review_match(short_hand, 0, ReviewConfig(budget=2, extend=1, seed="other"))
    assert other.to_json()["seed"] == "other"
    # a decision and its settings travel to a process pool
    _, points, _, _ = decision_points(short_hand, 0, 0)
    copy = pickle.loads(pickle.dumps((points[0], PARLOR, CHEAP)))
    assert review_point(*copy) == review_point(points[0], PARLOR, CHEAP)


def test_hidden_tile_shuffle_leaves_the_review_unchanged(
    short_hand: GameRecord, script: Script
) -> None:
    """At every decision of the seat, the other hands and the wall shuffled (each seat keeps its
    count): the seat's view is the same, the deal is not, and the review is the same."""
    scramble = script("tests/engine/conftest.py", "engine_conftest_review").scramble_hidden
    rng = random.Random(37)
    hand = short_hand.hands[0]
    seat = Wind.EAST
    steps = replay_hand(short_hand, 0)
    step = next(steps)
    checked = 0
    for i, a in enumerate(hand.actions):
        if a.seat is seat:
            played = Action.from_text(a.action)
            point = point_at(step.state, seat, played, 0, i)
            if point is not None:
                first = review_point(point, PARLOR, CHEAP)
                for _ in range(2):
                    other = scramble(step.state, int(seat), rng)
                    assert other.view(seat) == point.view
                    assert [other.hand_of(w).concealed for w in Wind] != [
                        step.state.hand_of(w).concealed for w in Wind
                    ] or other.wall != step.state.wall
                    moved = point_at(other, seat, played, 0, i)
                    assert moved is not None and moved.legal == point.legal
                    assert review_point(moved, PARLOR, CHEAP) == first
                checked += 1
        step = next(steps)
    assert checked >= 4


def test_passing_a_limit_win_is_flagged(passed_win: GameRecord) -> None:
    """East passes a win on a discard worth 144 jade three times: each is a blunder with the
    win as the better action, and the totals show them."""
    _, points, _, _ = decision_points(passed_win, 0, 0)
    offered = [p for p in points if any(a.kind in WIN_KINDS for a in p.legal)]
    assert len(offered) == 3 and all(p.played.text == "pass" for p in offered)
    reviews = [review_point(p, PARLOR, ReviewConfig(budget=8)) for p in offered]
    for d in reviews:
        assert d.best.text == "win" and d.verdict == "blunder", d
        played, best = d.why  # the advisor's words: passing stays ready (聽牌), the win completes
        assert played.action == d.played and played.shanten_now == played.shanten == 0
        assert played.waits and best.action == d.best and best.shanten == -1
        assert d.loss > noise_gate(Thresholds().z, d.samples) * d.se
        assert d.loss >= Thresholds().blunder * d.unit
    totals = Totals.of(reviews)
    assert totals.verdicts["blunder"] == 3 and totals.accuracy == 0.0
    assert totals.loss == pytest.approx(sum(d.loss for d in reviews))


def test_totals_add_up_only_what_is_told_from_noise() -> None:
    a = Action.from_text("discard 1m")
    b = Action.from_text("discard 2m")

    def dec(loss: float, se: float, verdict: str, sug: float) -> DecisionReview:
        return DecisionReview(
            0, 0, Wind.EAST, 50, a, b, loss, se, 8, verdict, 12.0, (), b, sug, 1.0
        )

    t = Totals.of([dec(5.0, 4.0, "good", 5.0), dec(30.0, 3.0, "blunder", 30.0)])
    assert t.reviewed == 2 and t.accuracy == 0.5
    assert t.loss == 30.0 and t.loss_se == 3.0
    assert t.against_suggested == 35.0 and t.against_suggested_se == pytest.approx(2**0.5)


def test_players_are_named_by_seat_number_or_name(short_hand: GameRecord) -> None:
    assert player_index(short_hand, "E") == 0
    assert player_index(short_hand, "西") == 2
    assert player_index(short_hand, "P4") == 3
    assert player_index(short_hand, "2") == 1
    assert player_index(short_hand, "Cy") == 2
    with pytest.raises(ReviewError, match="expected E, S, W or N"):
        player_index(short_hand, "X")
    with pytest.raises(ReviewError, match="no hand 2"):
        decision_points(short_hand, 1, 0)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["review", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_and_table(
    short_hand: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    short_hand.save(path)
    code, out, _ = _cli([str(path), "--budget", "2", "--seat", "E", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["player"] == 0 and data["name"] == "Ann" and data["rules"] == "parlor"
    assert data["budget"] == 2 and data["unit"] == 12.0
    assert set(data["thresholds"]) == {"inaccuracy", "mistake", "blunder", "z"}
    for key in ("accuracy", "loss", "loss_se", "against_suggested", "verdicts", "reviewed"):
        assert key in data
    (hand,) = data["hands"]
    assert hand["seat"] == "E" and hand["reviewed"] == len(hand["decisions"])
    d = hand["decisions"][0]
    assert set(d) >= {"played", "best", "loss", "se", "samples", "verdict", "candidates"}
    assert {"action", "mean", "diff", "se", "rank"} <= set(d["candidates"][0])
    assert d["why"][0]["action"] == d["played"]
    assert {"shanten_now", "shanten", "waits", "route", "danger", "risk"} <= set(d["why"][0])
    # the same review as the library's
    assert data == json.loads(
        json.dumps(review_match(short_hand, 0, ReviewConfig(budget=2)).to_json())
    )
    code, out, _ = _cli([str(path), "--budget", "2", "--hand", "1"], capsys)
    assert code == 0
    assert "覆盤 review of P1 Ann" in out and "第1局 hand 1" in out and "accuracy" in out


def test_cli_bad_inputs(
    short_hand: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    short_hand.save(path)
    code, _, err = _cli([str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2 and "missing.jsonl" in err and "cannot read" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a record\n", encoding="utf-8")
    code, _, err = _cli([str(bad)], capsys)
    assert code == 2 and "bad.jsonl" in err and "line 1" in err
    code, _, err = _cli([str(path), "--seat", "Q"], capsys)
    assert code == 2 and "seat 'Q'" in err
    code, _, err = _cli([str(path), "--hand", "3"], capsys)
    assert code == 2 and "--hand 3: the record has hands 1 to 1" in err
    code, _, err = _cli([str(path), "--width", "1"], capsys)
    assert code == 2 and "--width" in err
    with pytest.raises(SystemExit):
        main(["review", str(path), "--budget", "0"])
    assert "--budget" in capsys.readouterr().err


def test_an_unfinished_hand_is_not_reviewed(short_hand: GameRecord) -> None:
    text = short_hand.dumps().splitlines()
    cut = [line for line in text if '"t":"end"' not in line and '"match_end"' not in line]
    partial = GameRecord.loads("\n".join(cut) + "\n", partial=True)
    with pytest.raises((ReviewError, RecordError), match=r"not ended|no finished hand"):
        review_match(partial, 0, CHEAP)
