"""Several ``hkmj serve`` processes on one PostgreSQL and one Redis (issue 19, docs/deploy.md),
end to end: bench/cluster_run.py starts three processes, opens three online tables (stake 100, two
people and two bots) and a league of one round for four people through requests sent to processes at random, and plays them to the end
with scripted websocket clients that connect (and reconnect after every close) to a process at
random — so seats are served through other processes, HTTP joins are forwarded to the table's
owner, every process's lobby lists every table, two people asking two processes for a quick match
meet at one table, a league round is played by the leader process (and taken over with it) — while two processes are killed with SIGKILL
and one is stopped with SIGTERM (a graceful stop: its tables handed over at once) at seeded random
moments, each replaced. A spectator per table watches through processes at random too; no client
may be shown the tile of a draw that is not its own (a spectator: of any draw).

Every table must end, every game record must pass the engine's verify, the ledger must balance
(every transaction sums to zero, every escrow is empty) and every player's jade must be exactly
the grant plus what the final totals give them: no action lost, none applied twice, no jade paid
twice. Each run has its own database and Redis key prefix. Needs the local PostgreSQL
(tools/ensure_postgres.sh) and Redis (tools/ensure_redis.sh).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[2] / "bench" / "cluster_run.py"

pytestmark = pytest.mark.slow


def test_tables_survive_processes_killed_mid_match(pg_url: str) -> None:
    admin = pg_url.rsplit("/", 1)[0] + "/postgres"
    done = subprocess.run(
        [sys.executable, str(RUN), "--procs", "3", "--tables", "3", "--league", "--kills", "2",
         "--stops", "1", "--spectators", "1", "--kill-after", "1", "4", "--seed", "19",
         "--budget", "90",  # 32-41 s at load 5, up to 66 s at load 11-17 (shared machine)
         "--pg-admin", admin,
         "--json"],
        capture_output=True,
        text=True,
        timeout=240,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["problems"] == [], result
    assert result["finished"] == result["verified"] == 4, result
    assert sorted(t["how"] for t in result["takeovers"]) == ["kill", "kill", "stop"], result
    assert 0 <= result["lobby_s"] < 5, result  # every process lists every process's tables
    assert result["spectator_events"] > 0, result  # and no draw's tile shown to anyone else
    assert result["quick_paired"], result  # quick match pairs people at different processes
    assert result["hands"] == 16, result  # four hands a table, none lost, none twice
    assert result["league"] == "finished", result
    assert all(code in (0, -15) for code in result["graceful_exits"]), result
    assert done.returncode == 0
