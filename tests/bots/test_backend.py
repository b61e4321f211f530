"""The local backend of :mod:`hkmahjong.bots.backend` and what happens without Ray installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hkmahjong.bots.arena import ArenaConfig, ArenaError, run_arena
from hkmahjong.bots.backend import Backend, BackendError, imap_indexed
from hkmahjong.cli.cmd_sim import log_paths, match_seed_text
from hkmahjong.cli.main import main
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.engine.state import HandState


def _square(x: int) -> int:
    return x * x


def test_local_backend_yields_every_index_once() -> None:
    """In process or over two processes: each item's result under its own index."""
    items = list(range(7))
    for jobs in (1, 2):
        got = dict(imap_indexed(_square, items, Backend(jobs=jobs)))
        assert got == {i: i * i for i in items}


def test_bad_backend_settings_say_what_is_wrong() -> None:
    with pytest.raises(BackendError, match="unknown backend 'dask'"):
        Backend("dask")
    with pytest.raises(BackendError, match="needs --backend ray"):
        Backend("local", address="auto")
    with pytest.raises(ArenaError, match="unknown backend"):
        ArenaConfig(bots=("fan",) * 4, hands=1, backend="spark")  # type: ignore[arg-type]


def test_ray_backend_without_ray_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without Ray installed, --backend ray is an error naming the ray extra (exit status 2)."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    cfg = ArenaConfig(bots=("random",) * 4, hands=1, backend="ray")  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match=r"hkmahjong\[ray\]"):
        run_arena(cfg, HandState.new)
    assert main(["arena", "--bots", "random,random,random,random", "--hands", "1",
                 "--backend", "ray", "--quiet"]) == 2  # fmt: skip
    assert "hkmahjong[ray]" in capsys.readouterr().err
    assert main(["sim", "--hands", "1", "--matches", "2", "--backend", "ray", "--quiet"]) == 2
    assert "the ray extra" in capsys.readouterr().err


def test_sim_matches_are_the_same_with_any_job_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--matches 3: the same records and output in 1 or 2 processes; match 1 is --seed's match."""
    outs = []
    for jobs in ("1", "2"):
        log = tmp_path / f"j{jobs}" / "m.jsonl"
        log.parent.mkdir()
        args = ["sim", "--hands", "2", "--seed", "s", "--matches", "3", "--jobs", jobs]
        assert main([*args, "--bots", "random,efficient,random,random", "--log", str(log)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0].splitlines()[:-1] == outs[1].splitlines()[:-1]  # (the last line has times)
    assert "match 3/3 (seed 's#3')" in outs[0]
    texts = []
    for k, (a, b) in enumerate(
        zip(
            log_paths(str(tmp_path / "j1" / "m.jsonl"), 3),
            log_paths(str(tmp_path / "j2" / "m.jsonl"), 3),
            strict=True,
        )
    ):
        assert Path(a).name == f"m-{k + 1}.jsonl"
        text = Path(a).read_text(encoding="utf-8")
        assert text == Path(b).read_text(encoding="utf-8")
        assert verify(GameRecord.loads(text)).hands == 2
        texts.append(text)
    assert len(set(texts)) == 3
    single = tmp_path / "one.jsonl"
    args = ["sim", "--hands", "2", "--seed", "s", "--bots", "random,efficient,random,random"]
    assert main([*args, "--log", str(single), "--quiet"]) == 0
    assert single.read_text(encoding="utf-8") == texts[0]
    assert match_seed_text("s", 0) == "s" and match_seed_text("s", 2) == "s#3"
