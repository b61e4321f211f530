"""Timing probe: does the pace of a table tell a seat that a bot could claim (issue 29, defect 3)?

    .venv/bin/python bench/bench_timing_probe.py                      # delays 600 and 150 ms
    .venv/bin/python bench/bench_timing_probe.py --delays 600 --target 400 --tables 6
    .venv/bin/python bench/bench_timing_probe.py --src /tmp/old/src   # another version's server

A real ``hkmj serve`` (SQLite, a fresh data directory, fast test clocks but the discard delay under
test) runs ``--tables`` practice tables at once, each a scripted person (a guest) with three bots
(``--bots``, default ``normal``). The person answers every prompt at once — passes every window,
discards the tile it drew — and sends ``ready`` after each hand, so only the table's own pace is
measured. For every ``discard`` event the person receives it records the **delay to the next frame**
(the client's clock, at the moment each frame is read off the socket).

Afterwards the probe stops the server and labels each discard from the table's record in its
database: the log is replayed through the engine, and a discard is *positive* when a bot (another
seat) could claim it (a claim window opened for a seat other than the person's), *negative* when no
seat could (kongs, which may open a robbing window, are held the same way but too rare to count). Discards where the person itself could claim are left out (its own
prompt is its own information). It stops once both classes have ``--target`` discards (or at
``--budget`` seconds) and prints, per delay, the AUC of the delay as a classifier of the two classes
(0.5: it tells nothing; the issue's target is ≤ 0.6, and we also print max(AUC, 1 − AUC)), the
classes' medians and 95th percentiles, and the conditions (build, machine load).

Everything runs on loopback and is bounded by ``--budget`` seconds per delay.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import start_serve  # the bench folder is no package

ROOT = Path(__file__).resolve().parent.parent
SECRET = "probe-secret-" + "p" * 24


@dataclass
class Discard:
    """A discard as the person saw it: hand, its index among the hand's discards, the delay."""

    table: str
    hand: int
    index: int
    seat: str
    delay_ms: float


@dataclass
class Person:
    url: str
    table: str = ""
    http: httpx.AsyncClient | None = None
    discards: list[Discard] = field(default_factory=list)
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    tables: int = 0


def start_server(
    src: Path, data_dir: Path, clocks: dict[str, int]
) -> tuple[subprocess.Popen[str], str]:
    """``hkmj serve --port 0`` of the package at ``src`` (``bench.serving.start_serve``); the
    process and its URL, answering ``/healthz``."""
    env = {
        "PYTHONPATH": str(src),
        "HKMJ_SECRET": SECRET,
        "HKMJ_TABLE_CLOCKS": json.dumps(clocks),
    }
    served = start_serve(data_dir, env=env, cwd=src.parent, healthy=True, timeout=120)
    return served.proc, served.url


async def open_table(person: Person, length: str, bots: str) -> None:
    http = person.http = httpx.AsyncClient(base_url=person.url, timeout=30)
    token = (await http.get("/api/me")).json()["csrf"]
    r = await http.post("/guest", data={"csrf": token})
    assert r.status_code in (200, 303), r.text
    token = (await http.get("/api/me")).json()["csrf"]
    r = await http.post(
        "/api/tables",
        json={"kind": "practice", "length": length, "bots": [bots] * 3},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text
    person.table = r.json()["id"]
    person.tables += 1


def answer(prompt: dict[str, Any], drawn: str | None) -> str:
    """Pass every window; discard the drawn tile (else the last offered); never claim or win."""
    legal = prompt["legal"]
    kinds = {item["kind"]: item["action"] for item in legal}
    if "pass" in kinds:
        return kinds["pass"]
    discards = [item["action"] for item in legal if item["kind"] == "discard"]
    if drawn is not None and f"discard {drawn}" in discards:
        return f"discard {drawn}"
    return discards[-1]


async def play(person: Person, stop: asyncio.Event, length: str, bots: str) -> None:
    """Play (a new table after each match) until ``stop``."""
    while not stop.is_set():
        if await play_table(person, stop):
            await open_table(person, length, bots)


async def play_table(person: Person, stop: asyncio.Event) -> bool:
    """Play one table until ``stop`` or its match's end (True): record each discard's
    next-frame delay."""
    assert person.http is not None
    cookie = "; ".join(f"{k}={v}" for k, v in person.http.cookies.items())
    ws_url = person.url.replace("http", "ws", 1) + f"/ws/table/{person.table}"
    async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"t": "hello", "proto": 1}))
        hand, index = -1, 0
        pending: tuple[str, int, str, float] | None = None  # (table, index, seat, t0)
        drawn: str | None = None
        me: str | None = None
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            if pending is not None:
                person.discards.append(
                    Discard(person.table, hand, pending[1], pending[2], (now - pending[3]) * 1000)
                )
                pending = None
            msg = json.loads(text)
            t = msg["t"]
            if t == "hand":
                hand, index = msg["hand"], 0
                me = next(s for s, p in msg["seats"].items() if p == 0)
            elif t == "event":
                ev = msg["event"]
                if ev["kind"] == "discard":
                    pending = (person.table, index, ev["seat"], now)
                    index += 1
                elif ev["kind"] == "draw" and ev["seat"] == me and ev["tile"]:
                    drawn = ev["tile"]
            elif t == "hand_end":
                person.hands += 1
                await ws.send(json.dumps({"t": "ready"}))
            elif t == "error":
                person.errors.append(msg["code"])
            prompt = (
                msg if t == "prompt" else msg.get("prompt") if t in ("snapshot", "synced") else None
            )
            if prompt is not None:
                action = answer(prompt, drawn)
                await ws.send(json.dumps({"t": "act", "action": action, "v": prompt["v"]}))
            if t == "match_end":
                return True
    return False


def label(data_dir: Path, src: Path) -> dict[tuple[str, int, int], tuple[bool, bool]]:
    """(table, hand, discard index) → (a bot could claim it, the person could claim it), from
    each table's log replayed through the engine of ``src``."""
    code = r"""
import json, sqlite3, sys
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.events import EventKind
from hkmahjong.engine.view import Phase
db = sqlite3.connect(sys.argv[1])
out = []
for tid, public, seed in db.execute("SELECT id, public_id, match_seed FROM parlor_tables"):
    lines = [l for (l,) in db.execute("SELECT line FROM table_log WHERE table_id=? ORDER BY seq", (tid,))]
    if not lines:
        continue
    counts = {}
    def step(runner, st):
        kinds = [e.kind for e in st.events]
        if EventKind.DISCARD not in kinds:
            return
        h = runner.hand_number
        i = counts.get(h, 0)
        n_discards = kinds.count(EventKind.DISCARD)
        counts[h] = i + n_discards
        who = set(runner.to_act_players) if runner.in_hand and runner.phase in (Phase.CLAIM, Phase.ROB) else set()
        out.append([public, h, i + n_discards - 1, bool(who - {0}), 0 in who])
    try:
        MatchRunner.resume(lines, bytes.fromhex(seed), on_step=step)
    except Exception as exc:
        print("replay failed", public, exc, file=sys.stderr)
print(json.dumps(out))
"""
    db = next(data_dir.rglob("*.db"))
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src)}, check=True,
    )  # fmt: skip
    return {(p, h, i): (bot, me) for p, h, i, bot, me in json.loads(done.stdout)}


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a positive's delay > a negative's) + ½ P(equal): the Mann–Whitney AUC."""
    both = sorted([(x, 1) for x in pos] + [(x, 0) for x in neg])
    ranks: list[float] = [0.0] * len(both)
    i = 0
    while i < len(both):
        j = i
        while j + 1 < len(both) and both[j + 1][0] == both[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    r_pos = sum(r for r, (_, y) in zip(ranks, both, strict=True) if y == 1)
    n1, n0 = len(pos), len(neg)
    return (r_pos - n1 * (n1 + 1) / 2) / (n1 * n0)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def run_delay(args: argparse.Namespace, src: Path, delay: int) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="hkmj-probe-"))
    clocks = {"discard_delay_ms": delay, "bot_ms": args.bot_ms, "next_hand_ms": 300}
    load_before = os.getloadavg()
    proc, url = start_server(src, data_dir / "data", clocks)
    people = [Person(url) for _ in range(args.tables)]
    started = time.monotonic()
    try:
        for p in people:
            await open_table(p, args.length, args.bots)
        stop = asyncio.Event()
        players = [asyncio.create_task(play(p, stop, args.length, args.bots)) for p in people]
        while time.monotonic() - started < args.budget:  # label from the log now and then
            await asyncio.sleep(args.round)
            pos, neg = await asyncio.to_thread(lambda: _classes(people, label(data_dir, src)))
            print(f"  ... {delay} ms: {len(pos)} positive, {len(neg)} negative", flush=True)
            if min(len(pos), len(neg)) >= args.target:
                break
        stop.set()
        await asyncio.gather(*players)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        for p in people:
            if p.http is not None:
                await p.http.aclose()
    labels = label(data_dir, src)
    pos, neg = _classes(people, labels)
    shutil.rmtree(data_dir, ignore_errors=True)
    result = {
        "discard_delay_ms": delay,
        "positive (a bot could claim)": len(pos),
        "negative (nobody could)": len(neg),
        "auc": round(auc(pos, neg), 4) if pos and neg else None,
        "median_ms": [round(statistics.median(pos), 2), round(statistics.median(neg), 2)]
        if pos and neg
        else None,
        "p95_ms": [round(pct(pos, 0.95), 2), round(pct(neg, 0.95), 2)] if pos and neg else None,
        "errors": sorted({e for p in people for e in p.errors}),
        "tables_played": sum(p.tables for p in people),
        "seconds": round(time.monotonic() - started, 1),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
    }
    if result["auc"] is not None:
        result["separation"] = round(max(result["auc"], 1 - result["auc"]), 4)
    return result


def _classes(
    people: list[Person], labels: dict[tuple[str, int, int], tuple[bool, bool]]
) -> tuple[list[float], list[float]]:
    pos: list[float] = []
    neg: list[float] = []
    for p in people:
        for d in p.discards:
            got = labels.get((d.table, d.hand, d.index))
            if got is None:
                continue
            bot, mine = got
            if mine:
                continue
            (pos if bot else neg).append(d.delay_ms)
    return pos, neg


def build_of(src: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "import hkmahjong._build as b; print(b.build_info())"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src)},
    )  # fmt: skip
    return done.stdout.strip() or done.stderr.strip()[-200:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--delays", default="600,150", help="discard delays to probe, ms")
    ap.add_argument("--tables", type=int, default=6, help="practice tables played at once")
    ap.add_argument("--target", type=int, default=400, help="discards wanted in each class")
    ap.add_argument("--bots", default="normal", help="the bots' level")
    ap.add_argument("--bot-ms", type=int, default=50, help="the bots' pause on their turns")
    ap.add_argument("--length", default="16-hands")
    ap.add_argument("--round", type=float, default=30.0, help="seconds between labellings")
    ap.add_argument("--budget", type=float, default=900.0, help="seconds at most per delay")
    ap.add_argument("--src", default=str(ROOT / "src"), help="the package to serve")
    args = ap.parse_args()
    src = Path(args.src).resolve()
    print(json.dumps({
        "src": str(src),
        "build": build_of(src),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "tables": args.tables,
        "bots": args.bots,
        "bot_ms": args.bot_ms,
        "database": "sqlite",
    }))  # fmt: skip
    for delay in (int(d) for d in args.delays.split(",")):
        print(json.dumps(asyncio.run(run_delay(args, src, delay))), flush=True)


if __name__ == "__main__":
    main()
