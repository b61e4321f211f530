"""The arena: duplicate seating, reproducible from the seed, the same with any job count."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from hkmahjong.bots.arena import (
    ArenaConfig,
    ArenaError,
    hand_record,
    hand_seed,
    mean_ci,
    run_arena,
    wall_match_seed,
)
from hkmahjong.cli.main import main
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.engine.record import hand_seed as record_hand_seed
from hkmahjong.engine.state import HandState


def _strip(summary: dict[str, object]) -> dict[str, object]:
    out = {k: v for k, v in summary.items() if "second" not in k}
    per = json.loads(json.dumps(out["per_bot"]))
    for b in per.values():
        for key in ("latency_median_ms", "latency_p99_ms"):
            b.pop(key)
    out["per_bot"] = per
    return out


def test_arena_is_reproducible_and_independent_of_jobs() -> None:
    """Same seed → same summary; 1 or 2 worker processes → same numbers."""
    # an hour's budget per decision: a loaded machine must not cut a decision short
    cfg = ArenaConfig(
        bots=("fan", "random", "random", "random"), hands=3, seed="t", jobs=1, time_budget=3600.0
    )
    one = run_arena(cfg, HandState.new).summary()
    two = run_arena(dataclasses.replace(cfg, jobs=2), HandState.new).summary()
    assert _strip(one) == _strip(two)
    assert one["hands"] == 12  # duplicate: each wall in 4 rotations
    per = one["per_bot"]
    assert per["fan"]["hands"] == 12 and per["random"]["hands"] == 36
    assert per["fan"]["under_minimum_win_attempts"] == 0
    assert per["random"]["under_minimum_win_attempts"] == 0


def test_duplicate_walls_are_shared_by_rotations_and_zero_sum() -> None:
    """Each hand-set's points over all seats sum to zero (payments are zero-sum)."""
    cfg = ArenaConfig(bots=("efficient", "random", "random", "random"), hands=2, seed="z")
    res = run_arena(cfg, HandState.new)
    for i in range(2):
        total = res.set_points["efficient"][i] + 3 * res.set_points["random"][i]
        assert math.isclose(total, 0.0, abs_tol=1e-9)
    assert hand_seed("z", 0) != hand_seed("z", 1)
    assert hand_seed("z", 0) == hand_seed("z", 0)


def test_an_arena_hand_is_a_verifiable_record() -> None:
    """Arena walls come from the record's seed derivation: each hand is a one-hand 牌譜."""
    cfg = ArenaConfig(bots=("efficient", "random", "fan", "random"), hands=2, seed="rec")
    assert hand_seed("rec", 1) == record_hand_seed(wall_match_seed("rec", 1), 0)
    for wall, rotation in ((0, 0), (1, 3)):
        record = GameRecord.loads(hand_record(cfg, HandState.new, wall, rotation).dumps())
        assert verify(record).hands == 1
        assert record.hands[0].seed == hand_seed("rec", wall)
        assert record.match["players"][rotation % 4] == "efficient#0"
        assert record.hands[0].actions


def test_mean_ci() -> None:
    """95% CI half-width by the normal approximation."""
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert math.isclose(half, 1.959964 * math.sqrt((5 / 3) / 4))
    assert mean_ci([5.0]) == (5.0, float("inf"))


def test_bad_configs_are_clear_errors() -> None:
    """A wrong line-up, hand count or job count says what is wrong."""
    with pytest.raises(ArenaError, match="exactly 4 bots"):
        ArenaConfig(bots=("fan", "fan"), hands=1)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="--hands"):
        ArenaConfig(bots=("fan",) * 4, hands=0)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="--jobs"):
        ArenaConfig(bots=("fan",) * 4, hands=1, jobs=0)  # type: ignore[arg-type]


def test_cli_arena_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``hkmj arena --json`` prints the summary; a bad --bots is exit status 2 with a message."""
    code = main(
        ["arena", "--bots", "random,random,random,efficient", "--hands", "1", "--json", "--quiet"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 1 and not data["duplicate"]
    assert set(data["per_bot"]) == {"random", "efficient"}
    assert main(["arena", "--bots", "fan,fan", "--hands", "1", "--quiet"]) == 2
    assert "four comma-separated" in capsys.readouterr().err
    assert main(["arena", "--bots", "fan,fan,fan,wizard", "--quiet"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err


def test_progress_into_a_file_is_one_line_per_tenth() -> None:
    """A redirected progress stream gets whole lines (no carriage returns), at most one a tenth
    of the run and always the last; a terminal gets one bar redrawn with ``\\r``."""
    import io

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    cfg = ArenaConfig(bots=("random", "random", "random", "random"), hands=20, seed="p")
    into_file = io.StringIO()
    run_arena(cfg, HandState.new, progress=into_file)
    lines = into_file.getvalue().splitlines()
    assert "\r" not in into_file.getvalue()
    assert 1 <= len(lines) <= 11
    assert lines[-1].startswith("[" + "#" * 30 + "] 20/20 hand-sets")
    tty = Tty()
    run_arena(cfg, HandState.new, progress=tty)
    assert tty.getvalue().count("\r") >= 1 and tty.getvalue().endswith("\n")
    assert tty.getvalue().count("\n") == 1
