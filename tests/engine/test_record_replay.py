"""GameRecord with the real engine: deterministic sims, exact replay, fair walls, tamper detection.

Issue 4 "Fair walls" / "GameRecord"; docs/dev/architecture.md practice 9 (determinism); docs/records.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hkmahjong.cli.main import main
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import (
    GameRecord,
    RecordError,
    commitment,
    hand_seed,
    replay,
    rules_from_spec,
    rules_spec,
    seed_from_text,
    verify,
)
from hkmahjong.rules import get_preset, preset_names


def simulate(
    seed: str = "t", hands: int = 3, preset: str = "parlor", bias: float = 0.5
) -> GameRecord:
    players = [RandomPlayer(f"{seed}/{i}", win_bias=bias) for i in range(4)]
    match = Match(length=MatchLength.OPEN, max_hands=hands)
    return run_match(match, get_preset(preset), players, match_seed=seed_from_text(seed))


@pytest.fixture(scope="module")
def text() -> str:
    return simulate("fixture", hands=3).dumps()


def test_simulation_from_a_seed_reproduces_exactly() -> None:
    """Simulations from a given seed reproduce exactly; another seed gives another game."""
    assert simulate("a").dumps() == simulate("a").dumps()
    assert simulate("a").dumps() != simulate("b").dumps()


@pytest.mark.parametrize("preset", preset_names())
def test_replay_reproduces_every_event(preset: str) -> None:
    """replay(record) reproduces every event exactly, for every preset."""
    rec = simulate(f"p-{preset}", hands=2, preset=preset)
    again = GameRecord.loads(rec.dumps())
    report = verify(again)
    assert report.hands == 2 and report.actions == sum(len(h.actions) for h in rec.hands)
    assert report.events > report.actions


def test_walls_come_from_committed_seeds(text: str) -> None:
    """Each hand's seed = hash(match seed, n); its SHA-256 was published before the hand."""
    rec = GameRecord.loads(text)
    assert rec.match_seed is not None and commitment(rec.match_seed) == rec.commitment
    for hand in rec.hands:
        assert hand.seed == hand_seed(rec.match_seed, hand.number)
        assert commitment(hand.seed) == hand.commitment


def test_rules_round_trip_through_the_record() -> None:
    """A record names a preset by name, a house-rule variant by TOML; both load back equal."""
    import dataclasses

    parlor = get_preset("parlor")
    assert rules_spec(parlor)["preset"] == "parlor"
    variant = dataclasses.replace(parlor, multiple_winners=True, dead_wall=14)
    spec = rules_spec(variant)
    assert "toml" in spec and rules_from_spec(spec) == variant
    with pytest.raises(RecordError, match="differs from the one recorded"):
        rules_from_spec({"preset": "parlor", "digest": spec["digest"]})


def lines_of(text: str) -> list[dict[str, object]]:
    return [json.loads(x) for x in text.splitlines()]


def rewrite(text: str, n: int, **change: object) -> str:
    rows = text.splitlines()
    obj = json.loads(rows[n - 1])
    obj.update(change)
    rows[n - 1] = json.dumps(obj, ensure_ascii=False)
    return "\n".join(rows) + "\n"


def first_act(text: str) -> int:
    return next(i for i, o in enumerate(lines_of(text), 1) if o["t"] == "act")


def test_tampered_action_names_its_line(text: str) -> None:
    """An action changed in the file: verify names that line (illegal, or its events differ)."""
    n = first_act(text) + 2
    obj = lines_of(text)[n - 1]
    other = "pass" if obj["action"] != "pass" else "discard 1m"
    with pytest.raises(RecordError, match=rf"line {n}: "):
        verify(GameRecord.loads(rewrite(text, n, action=other)))


def test_tampered_digest_names_its_line(text: str) -> None:
    """An event digest changed: the events no longer follow from the actions at that line."""
    n = first_act(text) + 1
    with pytest.raises(RecordError, match=rf"line {n}: hand 0: the events of .* differ"):
        verify(GameRecord.loads(rewrite(text, n, ev="0" * 16)))


def test_swapped_wall_seed_is_caught(text: str) -> None:
    """A revealed seed that does not match the published commitment is caught on its end line."""
    ends = [i for i, o in enumerate(lines_of(text), 1) if o["t"] == "end"]
    forged = rewrite(text, ends[1], seed=(b"\x00" * 32).hex())
    with pytest.raises(RecordError, match=rf"line {ends[1]}: hand 1: the revealed seed does not"):
        verify(GameRecord.loads(forged))


def test_tampered_hand_commitment_names_the_hand_line(text: str) -> None:
    """Fair walls (issue 4): a hand line whose published commitment was edited is named itself
    when its seed is the one derived from the (committed) match seed."""
    hands = [i for i, o in enumerate(lines_of(text), 1) if o["t"] == "hand"]
    forged = rewrite(text, hands[1], commitment="0" * 64)
    with pytest.raises(RecordError, match=rf"line {hands[1]}: hand 1: the commitment does not"):
        verify(GameRecord.loads(forged))


def test_recorded_result_must_follow(text: str) -> None:
    """A hand end whose payments were edited does not hold."""
    ends = [i for i, o in enumerate(lines_of(text), 1) if o["t"] == "end"]
    forged = rewrite(text, ends[0], result={"deltas": [9, -9, 0, 0], "winners": ["E"]})
    with pytest.raises(RecordError, match=rf"line {ends[0]}: hand 0: recorded result"):
        verify(GameRecord.loads(forged))


def test_truncated_and_foreign_records(text: str) -> None:
    """Truncated or from another engine version: a clear error naming the line."""
    rows = text.splitlines()
    with pytest.raises(RecordError, match=rf"line {len(rows)}: truncated"):
        GameRecord.loads("\n".join(rows[:-1]) + "\n")
    with pytest.raises(RecordError, match=r"line 1: recorded by engine version 9\.9"):
        GameRecord.loads(rewrite(text, 1, engine="9.9"))


def test_partial_record_replays_finished_hands(text: str) -> None:
    """A match in progress: finished hands replay; the open hand's wall is not revealed yet."""
    rows = text.splitlines()
    ends = [i for i, o in enumerate(lines_of(text), 1) if o["t"] == "end"]
    partial = GameRecord.loads("\n".join(rows[: ends[0] + 3]) + "\n", partial=True)
    steps = list(replay(partial))
    assert len(partial.hands) == 2 and partial.hands[1].seed is None
    assert steps[-1].hand.number == 0 and len(steps) == len(partial.hands[0].actions) + 1
    with pytest.raises(RecordError, match="truncated"):
        verify(partial)


def test_cli_sim_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hkmj sim writes a record that hkmj replay shows and --verify accepts."""
    log = tmp_path / "m.jsonl"
    assert main(["sim", "--hands", "2", "--seed", "9", "--log", str(log), "--quiet"]) == 0
    assert "2 hands (parlor, seed '9')" in capsys.readouterr().out
    assert main(["replay", "--verify", str(log)]) == 0
    assert "OK: 2 hands" in capsys.readouterr().out
    assert main(["replay", str(log), "--hand", "1", "--seat", "S"]) == 0
    out = capsys.readouterr().out
    assert "第1局" in out and "第2局" not in out and "S 南>" in out
    assert " deal (13 tiles)" in out  # others' deals redacted in South's view
    assert main(["replay", str(log), "--step"]) == 0  # stdin is not a terminal: no waiting
    assert "--- hand 2 over" in capsys.readouterr().out
    assert main(["replay", str(log), "--hand", "9"]) == 2
    assert "the record has hands 1 to 2" in capsys.readouterr().err
    log.write_text(log.read_text(encoding="utf-8").replace('"engine":"0.1.0"', '"engine":"0.0"'))
    assert main(["replay", "--verify", str(log)]) == 2
    assert "line 1: recorded by engine version 0.0" in capsys.readouterr().err


def test_cli_sim_plays_the_whole_length(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rules.md §2 match lengths: hkmj sim --length plays that length (--hands only caps it and
    the cap is reported); --length open plays exactly --hands hands (default 16)."""
    args = ["sim", "--seed", "L", "--quiet", "--rules", "ml", "--bots", "random-win"]
    assert main([*args, "--length", "8-hands"]) == 0
    assert "8 hands (ml" in capsys.readouterr().out
    assert main([*args, "--length", "east-round"]) == 0
    out = capsys.readouterr().out
    assert "note:" not in out and int(out.split()[0]) >= 4
    assert main([*args, "--length", "east-round", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 hands") and "note: stopped after 2 hands" in out
    assert main([*args]) == 0
    assert capsys.readouterr().out.startswith("16 hands")


def test_cli_sim_with_named_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hkmj sim --bots takes built-in players and bots of hkmahjong.bots by name."""
    log = tmp_path / "b.jsonl"
    args = ["sim", "--hands", "1", "--seed", "3", "--bots", "efficient,random,first,random-win"]
    assert main([*args, "--log", str(log), "--quiet"]) == 0
    assert verify(GameRecord.load(log)).hands == 1
    assert main(["sim", "--hands", "1", "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["sim", "--hands", "1", "--bots", "random,random"]) == 2
    assert "one name or four" in capsys.readouterr().err


def test_tampered_totals_and_match_seed(text: str) -> None:
    """The match_end line must hold too: totals from the replay, the seed from the commitment."""
    last = len(text.splitlines())
    with pytest.raises(RecordError, match=rf"line {last}: recorded totals \[5, -5, 0, 0\] differ"):
        verify(GameRecord.loads(rewrite(text, last, totals=[5, -5, 0, 0])))
    forged = rewrite(text, last, seed=(b"\x01" * 32).hex())
    with pytest.raises(RecordError, match=rf"line {last}: the match seed does not match"):
        verify(GameRecord.loads(forged))
