"""The parlor server benchmark (bench/bench_server.py) still runs: a smoke test, never timed.

Two tables of four scripted websocket clients for a few seconds, then two flat-out tables with
bots, on a real ``hkmj serve``: the run must finish, print its figures, and have seen actions
committed (issue 14, *Proof*: the benchmark; its figures live in docs/server.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_server.py"

pytestmark = pytest.mark.slow


def test_bench_server_runs_two_tables_and_flat_out() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--steps", "2", "--seconds", "4", "--warmup", "1",
         "--think", "0.2", "--flat-tables", "2", "--flat-seconds", "4", "--budget", "300",
         "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    out = done.stdout
    assert "conditions: " in out and "largest N with action-to-broadcast p99" in out, out
    assert "flat-out: " in out, out
    result = json.loads(out.strip().splitlines()[-1])
    (row,) = result["curve"]["rows"]
    assert row["tables"] == 2
    assert row["clients_down"] == 0, row
    assert row["actions_per_s"] > 0, row
    assert result["flat_out"]["actions_per_s"] > 0, result["flat_out"]


def test_bench_server_procs_refuses_without_postgresql() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--procs", "2", "--steps", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "--procs 2 needs --db postgresql://" in done.stderr, done.stderr


def test_bench_server_two_processes_on_postgresql(pg_url: str) -> None:
    """``--procs 2`` (issue 19): two cluster processes on one PostgreSQL and the local Redis,
    two tables made round-robin, each table's sockets at its owner (nothing relayed)."""
    admin = pg_url.rsplit("/", 1)[0] + "/postgres"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--procs", "2", "--db", admin, "--steps", "2",
         "--seconds", "3", "--warmup", "1", "--think", "0.2", "--flat-seconds", "0",
         "--budget", "120", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    out = done.stdout
    assert "2 server processes" in out and "on 2 processes" in out, out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["conditions"]["procs"] == 2
    (row,) = result["curve"]["rows"]
    assert row["tables"] == 2
    assert row["tables_per_process"] == [1, 1], row  # one table owned by each process
    assert row["relayed_seats"] == 0, row  # every socket at its table's owner
    assert row["clients_down"] == 0, row
    assert row["actions_per_s"] > 0, row
