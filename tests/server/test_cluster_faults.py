"""Faults injected into three real ``hkmj serve`` processes on the local PostgreSQL and Redis
(issue 36, docs/deploy.md *Faults*), beside test_cluster_procs.py's kills: bench/cluster_faults.py
runs every scenario once (a lease of 2 s) and each test here checks one of them.

- *lapse*: a process's heartbeat lapses (its node row expired for longer than a sweep, its tables'
  lease rows held so nobody takes them): the other processes' lobbies list its tables again
  within a lease of its coming back (before: another process deleted its listing in Redis and
  it stayed missing until it changed).
- *stuck* (the issue's reproduction): a lease row held ``FOR SHARE`` by another connection and
  its owner killed: the other processes never look dead, the owner's other tables are taken
  over within two leases, the held one within a lease of its release, each epoch steps once
  (before: every take-over waited on the row, the heartbeats with it; no process was alive and
  the epochs stepped two and three times).
- *paused*: an owner stopped inside a fenced write (its group commit waiting on a log line held
  by another transaction, its lease row locked ``FOR SHARE``), then killed: its stuck database
  session ends by itself, the table is taken over within two leases of the pause, the other
  processes stay alive, no reconnect during the take-over is told "no such table", and the
  table plays on to a verified record.
- every process then stops gracefully without a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

RUN = Path(__file__).resolve().parents[2] / "bench" / "cluster_faults.py"
LEASE = 2.0

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster_faults")]
"""One worker runs them all: the fixture (about 80 s of three processes and their faults) runs
once, not once on each worker that picks up one of its tests (``--dist loadgroup``)."""


@pytest.fixture(scope="module")
def faults(pg_url: str) -> dict[str, Any]:
    admin = pg_url.rsplit("/", 1)[0] + "/postgres"
    done = subprocess.run(
        [sys.executable, str(RUN), "--procs", "3", "--lease", str(LEASE), "--seed", "36",
         "--budget", "60", "--pg-admin", admin, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_heartbeat_lapse_hides_no_live_table_for_long(faults: dict[str, Any]) -> None:
    lapse = faults["scenarios"]["lapse"]
    assert lapse["problems"] == [], lapse
    assert lapse["hidden_during_lapse"], lapse  # the lapse was seen: the test tested something
    assert lapse["missing_after_lapse_s"] <= LEASE and lapse["listed_at_end"], lapse
    assert lapse["taken_over"] == 0, lapse


def test_a_stuck_lease_row_stalls_nothing_but_its_table(faults: dict[str, Any]) -> None:
    stuck = faults["scenarios"]["stuck"]
    assert stuck["problems"] == [], stuck
    assert stuck["survivors_lapsed"] == [] and stuck["survivors_running"], stuck
    assert stuck["others_s"] is not None and stuck["others_s"] <= 2 * LEASE, stuck
    assert not stuck["held_taken_while_locked"], stuck
    assert stuck["held_after_release_s"] is not None, stuck
    assert stuck["held_after_release_s"] <= LEASE, stuck
    assert stuck["epoch_steps"] == [1, 1, 1], stuck


def test_an_owner_paused_inside_a_fenced_write_is_taken_over(faults: dict[str, Any]) -> None:
    paused = faults["scenarios"]["paused"]
    assert paused["problems"] == [], paused
    assert paused["survivors_lapsed"] == [], paused
    assert paused["stuck_session_s"] is not None, paused
    assert paused["adopt_s"] is not None and paused["adopt_s"] <= 2 * LEASE, paused
    assert "4404" not in paused["probe"] and 4404 not in paused["client_close_codes"], paused
    assert paused["finished"] == paused["verified"] == 1, paused


def test_no_acknowledged_action_is_undone(faults: dict[str, Any]) -> None:
    paused = faults["scenarios"]["paused"]
    assert "done_before_commit" in paused, paused
    assert paused["undone"] == [], paused


def test_every_process_stops_cleanly(faults: dict[str, Any]) -> None:
    problems = [p for p in faults["problems"] if "stop" in p or "traceback" in p]
    assert problems == [], problems
    assert all(code in (0, -15) for code in faults["graceful_exits"]), faults
