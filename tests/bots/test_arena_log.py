"""``hkmj arena --log``: every hand's record streamed as it is played (issue 16), and record streams
in ``hkmj replay``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkmahjong.bots.arena import ArenaConfig, RunningMean, hand_record, mean_ci, run_arena
from hkmahjong.cli.main import main
from hkmahjong.engine.record import GameRecord, RecordError, iter_records, read_records, verify
from hkmahjong.engine.state import HandState

from .test_arena import _strip


def _cfg(jobs: int = 1, duplicate: bool = True) -> ArenaConfig:
    # an hour's budget per decision: a loaded machine must not cut a decision short
    return ArenaConfig(
        bots=("fan", "random", "random", "efficient"),
        hands=3,
        seed="log",
        duplicate=duplicate,
        jobs=jobs,
        time_budget=3600.0,
    )


def _logged(cfg: ArenaConfig) -> tuple[str, dict[str, object]]:
    out = io.StringIO()
    result = run_arena(cfg, HandState.new, write=out.write)
    return out.getvalue(), result.summary()


def test_the_log_is_every_hand_record_in_order_and_changes_nothing_else() -> None:
    cfg = _cfg()
    text, summary = _logged(cfg)
    assert _strip(summary) == _strip(run_arena(cfg, HandState.new).summary())
    records = list(iter_records(io.StringIO(text)))
    assert len(records) == cfg.hands * cfg.rotations
    expected = [
        hand_record(cfg, HandState.new, wall, rot).dumps()
        for wall in range(cfg.hands)
        for rot in range(cfg.rotations)
    ]
    assert [r.dumps() for r in records] == expected
    assert text == "".join(expected)
    for record in records:
        assert verify(record).hands == 1


def test_the_log_is_the_same_with_two_jobs_and_without_duplicate_seating() -> None:
    one, _ = _logged(_cfg(jobs=1))
    two, _ = _logged(_cfg(jobs=2))
    assert one == two
    fixed, _ = _logged(_cfg(duplicate=False))
    assert len(list(iter_records(io.StringIO(fixed)))) == 3


def test_cli_arena_log_and_replay_verify_the_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "arena.jsonl"
    argv = ["arena", "--bots", "random,random,random,efficient", "--hands", "2"]
    assert main([*argv, "--duplicate", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", "--verify", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{log}: 8 records; OK: 8 hands, ")
    assert main(["replay", str(log), "--record", "8"]) == 0
    assert "random#0" in capsys.readouterr().out
    assert main(["replay", str(log)]) == 2
    assert "holds several records" in capsys.readouterr().err
    assert main(["replay", str(log), "--record", "9"]) == 2
    assert "--record 9: " in capsys.readouterr().err


def test_cli_arena_log_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--bots", "random,random,random,random", "--hands", "1", "--json"]
    assert main([*argv, "--quiet", "--log", "-"]) == 0
    captured = capsys.readouterr()
    (record,) = iter_records(io.StringIO(captured.out))
    assert verify(record).hands == 1
    assert json.loads(captured.err)["hands"] == 1  # the summary goes to standard error


def test_a_lone_record_is_a_stream_of_one(tmp_path: Path) -> None:
    record = hand_record(_cfg(), HandState.new, 0)
    path = tmp_path / "one.jsonl"
    record.save(path)
    (again,) = read_records(path)
    assert again.dumps() == GameRecord.load(path).dumps()


def test_stream_errors_name_the_record_and_its_line(tmp_path: Path) -> None:
    cfg = _cfg()
    lines = "".join(hand_record(cfg, HandState.new, w).dumps() for w in range(2)).splitlines()
    first = len(hand_record(cfg, HandState.new, 0).dumps().splitlines())
    lines[first + 2] = "{not json"
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = read_records(path)
    next(records)
    with pytest.raises(RecordError, match=rf"record 2 \(from line {first + 1}\) line 3: not JSON"):
        next(records)
    path.write_text("", encoding="utf-8")
    with pytest.raises(RecordError, match="empty record"):
        list(read_records(path))
    with pytest.raises(RecordError, match="cannot read"):
        list(read_records(tmp_path / "missing.jsonl"))


def test_a_run_without_per_set_points_summarises_alike() -> None:
    """hkmj arena keeps no per-set points (flat memory): running sums give the same summary."""
    cfg = _cfg(jobs=2)
    kept = run_arena(cfg, HandState.new)
    flat = run_arena(cfg, HandState.new, keep_sets=False)
    assert all(not v for v in flat.set_points.values())
    assert _strip(flat.summary()) == _strip(kept.summary())
    for name, values in kept.set_points.items():
        mean, half = mean_ci(values)
        assert flat.sets[name].ci() == pytest.approx((mean, half))


@given(st.lists(st.floats(-1e4, 1e4), max_size=40))
def test_running_mean_is_mean_ci(values: list[float]) -> None:
    running = RunningMean()
    for v in values:
        running.add(v)
    assert running.ci() == pytest.approx(mean_ci(values), rel=1e-9, abs=1e-9)
