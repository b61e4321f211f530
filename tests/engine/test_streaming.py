"""Simulations stream their record (issue 16: ``hkmj sim`` kept the whole record in memory, ~28 KB
per hand, even without ``--log``).

``run_match(write=..., keep=False)`` hands each record line to ``write`` as it is emitted and keeps
nothing of a finished hand; the streamed lines are exactly the record kept in memory before, and
they verify. Memory itself is measured by ``bench/bench_sim_memory.py`` (no timed or sized tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hkmahjong.cli.cmd_sim import make_controllers
from hkmahjong.cli.main import main
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, seed_from_text, verify
from hkmahjong.rules import get_preset, preset_names


def _match(hands: int) -> Match:
    return Match(length=MatchLength.OPEN, max_hands=hands)


@pytest.mark.parametrize("preset", preset_names())
def test_streamed_lines_are_the_kept_record(preset: str) -> None:
    """Same seed, same players: the streamed lines equal ``dumps()`` of the record kept whole,
    and with ``keep=False`` only the last hand and the last ledger entry stay in memory."""
    rules = get_preset(preset)
    seed = seed_from_text(f"stream/{preset}")

    def players() -> list[RandomPlayer]:
        return [RandomPlayer(f"stream/{preset}/{i}", win_bias=0.9) for i in range(4)]

    kept = run_match(_match(6), rules, players(), match_seed=seed)
    lines: list[str] = []
    match = _match(6)
    light = run_match(match, rules, players(), match_seed=seed, write=lines.append, keep=False)
    assert "".join(lines) == kept.dumps()
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert len(light.hands) == 1 and light.hands[0].number == 5
    assert len(match.ledger) == 1 and match.hand_number == 6
    assert verify(GameRecord.loads("".join(lines))).hands == 6


def test_written_as_it_goes() -> None:
    """Each hand's lines are out before the next hand starts (a crash loses at most one hand)."""
    written: list[str] = []
    seen: list[int] = []

    def on_hand(hand: object, match: Match) -> None:
        seen.append(sum(1 for line in written if '"t":"end"' in line))

    players = [RandomPlayer(f"go/{i}") for i in range(4)]
    run_match(
        _match(4),
        get_preset("parlor"),
        players,
        match_seed=b"go",
        on_hand=on_hand,
        write=written.append,
        keep=False,
    )
    assert seen == [1, 2, 3, 4]


def test_sim_log_is_todays_record_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hkmj sim --log FILE`` writes exactly the record ``run_match`` keeps in memory (the
    record of before streaming), ``replay --verify`` accepts it, and ``--log -`` puts the record
    alone on standard output (the readable lines go to standard error)."""
    bots, seed, hands = "random,random-win,first,random", "sim-stream", 5
    rules = get_preset("qingzhang")
    expected = run_match(
        _match(hands),
        rules,
        make_controllers(bots, seed, rules),
        match_seed=seed_from_text(seed),
    ).dumps()
    log = tmp_path / "s.jsonl"
    args = ["sim", "--hands", str(hands), "--seed", seed, "--bots", bots, "--rules", "qingzhang"]
    assert main([*args, "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert log.read_text(encoding="utf-8") == expected
    assert out.splitlines()[0].startswith("hand  where") and "total" in out
    assert main(["replay", "--verify", str(log)]) == 0
    assert "OK: 5 hands" in capsys.readouterr().out
    assert main([*args, "--log", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out == expected
    assert "5 hands (qingzhang" in captured.err


def test_sim_refuses_an_unwritable_log_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log is opened before the first hand: a bad path fails at once, naming it."""
    bad = tmp_path / "no-such-dir" / "s.jsonl"
    assert main(["sim", "--hands", "1000000", "--log", str(bad)]) == 2
    assert f"cannot write the record to {bad}" in capsys.readouterr().err
