"""The Ray backend: arena hand-sets and sim matches as Ray tasks give the local backend's results.

One private local Ray instance for the module (Ray takes seconds to start); the tests share one
xdist worker (``xdist_group``, with ``--dist loadgroup`` in ``make test``). Skipped without the
``ray`` extra.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hkmahjong.bots.arena import ArenaConfig, run_arena
from hkmahjong.bots.backend import Backend, imap_indexed, ray_init, ray_shutdown
from hkmahjong.cli.cmd_sim import log_paths
from hkmahjong.cli.main import main
from hkmahjong.engine.state import HandState
from hkmahjong.env.rollout import RolloutConfig, selfplay_episodes

pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[Backend]:
    """A private local Ray instance with 2 CPUs for this module's tests."""
    backend = Backend("ray", jobs=2)
    ray_init(backend)
    yield backend
    ray_shutdown()


def _strip(summary: dict[str, object]) -> dict[str, object]:
    """The summary without its times (seconds, rates, decision latencies)."""
    out = {k: v for k, v in summary.items() if "second" not in k}
    per = json.loads(json.dumps(out["per_bot"]))
    for b in per.values():
        for key in ("latency_median_ms", "latency_p99_ms"):
            b.pop(key)
    out["per_bot"] = per
    return out


def _cube(x: int) -> int:
    return x**3


def test_ray_tasks_yield_every_index_once(ray_backend: Backend) -> None:
    got = dict(imap_indexed(_cube, list(range(9)), ray_backend))
    assert got == {i: i**3 for i in range(9)}


def test_arena_on_ray_is_the_local_arena(ray_backend: Backend) -> None:
    """Same seed → the same summary (every number but the times) as --jobs 1 and --jobs 2."""
    cfg = ArenaConfig(
        bots=("fan", "random", "efficient", "random"), hands=5, seed="ray", time_budget=3600.0
    )
    one = _strip(run_arena(cfg, HandState.new).summary())
    two = _strip(run_arena(dataclasses.replace(cfg, jobs=2), HandState.new).summary())
    on_ray = run_arena(dataclasses.replace(cfg, backend="ray", jobs=2), HandState.new)
    assert _strip(on_ray.summary()) == one == two
    assert on_ray.hands == 20


def test_cli_arena_and_sim_with_backend_ray(
    ray_backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`hkmj arena --backend ray --json` prints --jobs 1's summary; `hkmj sim --matches 3
    --backend ray` writes --jobs 1's and --jobs 2's record files, line for line."""
    arena = ["arena", "--bots", "efficient,random,random,random", "--hands", "3", "--seed", "c"]
    summaries = []
    for extra in (["--jobs", "1"], ["--backend", "ray"]):
        assert main([*arena, "--duplicate", "--json", "--quiet", *extra]) == 0
        summaries.append(_strip(json.loads(capsys.readouterr().out)))
    assert summaries[0] == summaries[1]
    assert summaries[0]["hands"] == 12
    sim = ["sim", "--hands", "3", "--seed", "r", "--matches", "3", "--bots", "random,efficient"]
    sim[-1] += ",random,random"
    logs = {}
    for name, extra in (("j1", ["--jobs", "1"]), ("j2", ["--jobs", "2"]), ("ray", ["--backend", "ray"])):  # fmt: skip
        log = tmp_path / name / "m.jsonl"
        log.parent.mkdir()
        assert main([*sim, "--log", str(log), *extra]) == 0
        out = capsys.readouterr().out
        assert "9 hands" in out.splitlines()[-1]
        logs[name] = [Path(p).read_text(encoding="utf-8") for p in log_paths(str(log), 3)]
    assert logs["ray"] == logs["j1"] == logs["j2"]
    assert len(set(logs["ray"])) == 3


def test_selfplay_episodes_on_ray_are_the_local_episodes(ray_backend: Backend) -> None:
    """The env's vectorised self-play: the same episodes, decision for decision, on Ray."""
    cfg = RolloutConfig(bots=("efficient", "random", "efficient", "random"))
    seeds = [5, 6, 7, 8, 9]
    local = selfplay_episodes(seeds, cfg)
    on_ray = selfplay_episodes(seeds, cfg, backend=ray_backend, chunk=2)
    assert [e.seed for e in on_ray] == seeds
    assert all(a.same_as(b) for a, b in zip(local, on_ray, strict=True))
    assert sum(len(e.actions) for e in on_ray) > 0
