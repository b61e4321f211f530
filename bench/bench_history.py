"""History pages benchmark: a player with 10,000 hands on SQLite, the history and statistics pages'
response times (issue 18 "Proof": < 200 ms p95 on SQLite).

    .venv/bin/python bench/bench_history.py                 # 10,000 hands, 200 requests a page
    .venv/bin/python bench/bench_history.py --hands 2000 --requests 50   # a quick look

The store is filled through the real write path: ``easy`` bots play real 16-hand matches on the
engine (``MatchRunner``), each hand is summarised as a table summarises it
(``parlor.history.summarize_hand_end``) and kept by the function the SQL table store calls in the
transaction of a hand's end line (``store.history.keep_results``); each match's table row is
created by ``SqlTableStore`` and its jade moves (buy-in, each hand's escrow move, the release) are
posted through the SQL ledger's ``post_in`` as a staked table posts them (here one transaction per
match, with its rows; live, one per hand). The real matches are replayed at new
tables (the bench player and a second registered player in turning seats, two bots) until the
player has the hands asked for: the same rows the live path writes, in bulk.

Then the app (``create_app`` on that store) answers, in process through its ASGI interface
(``TestClient``), ``--requests`` GETs of each page: the player's record (statistics, fan counts,
the jade chart, recent matches and hands), the hand list at pages spread over all of it, the match
list, the statistics API, the leaderboard and one match page. It prints p50 / p95 / max per page
with the conditions (CPU count, load average before and after: the machine may be shared, SQLite
version, database size and row counts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.parlor import stakes
from hkmahjong.parlor.history import (
    HandSummary,
    TableFacts,
    TableResults,
    summarize_hand_end,
    summarize_match,
)
from hkmahjong.parlor.ledger import Transaction
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.parlor.seats import make_bot
from hkmahjong.rules import get_preset
from hkmahjong.server.store import Store
from hkmahjong.server.store.history import keep_results
from hkmahjong.server.store.ledger import SqlLedger, post_in
from hkmahjong.server.store.tables import SqlTableStore
from hkmahjong.tiles import Wind

TARGET_P95_MS = 200.0
STAKE = 100
FEE = 5


def play_match(seed: int) -> tuple[list[HandSummary], list[int | float]]:
    """One real 16-hand match of four ``easy`` bots: each hand's summary and the final totals."""
    ruleset = get_preset("parlor")
    bots = [make_bot("easy", f"bench:{seed}:{p}", ruleset) for p in range(4)]
    match = Match(("A", "B", "C", "D"), MatchLength.SIXTEEN_HANDS)
    runner = MatchRunner(match, ruleset, f"bench-history-{seed}".encode())
    hands: list[HandSummary] = []
    seq = 0
    while not runner.match_over:
        seq += len(runner.start_hand().lines)
        while runner.in_hand:
            player = runner.to_act_players[0]
            view, legal = runner.view(player), runner.legal(player)
            step = runner.apply(player, bots[player].choose(view, legal))
            if step.hand_end is not None:
                players = [runner.player_at(w) for w in Wind]
                hands.append(summarize_hand_end(step.hand_end, players, end_seq=seq))
            seq += len(step.lines)
    start = match.starting_balance
    return hands, [b - start for b in match.balances]


def fill(store: Store, hands_wanted: int, real_matches: int, seed: int) -> dict[str, Any]:
    """Fill ``store`` so that user ``bench`` has ``hands_wanted`` hands; what was written."""
    from hkmahjong.server.store.models import User

    t0 = time.perf_counter()
    played = [play_match(seed + k) for k in range(real_matches)]
    t_play = time.perf_counter() - t0
    with store.session() as s:
        users = [
            User(name=n, is_guest=False, is_admin=False, lang="en") for n in ("bench", "rival")
        ]
        s.add_all(users)
        s.flush()
        me, rival = users[0].id, users[1].id
    ledger = SqlLedger(store)
    for uid in (me, rival):
        ledger.post_sync(Transaction.of(f"grant:start:user:{uid}", "grant", {f"user:{uid}": 1_000_000, "system:grants": -1_000_000}, "start"))  # fmt: skip
    tables = SqlTableStore(store)
    have = k = 0
    t1 = time.perf_counter()
    while have < hands_wanted:
        hands, totals = played[k % len(played)]
        hands = hands[: hands_wanted - have]
        seat = k % 4  # the bench player's player number turns; the rival sits opposite
        users_at: list[int | None] = [None] * 4
        users_at[seat], users_at[(seat + 2) % 4] = me, rival
        bots = tuple(None if u is not None else "easy" for u in users_at)
        names = tuple(
            "bench" if u == me else "rival" if u == rival else f"easy-bot-{p + 1}"
            for p, u in enumerate(users_at)
        )
        config = {"kind": "online", "rules": {"preset": "parlor", "digest": "bench"},
                  "length": "16-hands", "stake": STAKE, "fee": FEE}  # fmt: skip
        row = TableRow(0, f"bench{k}", "online", "finished", config, "bench", "00" * 32)
        seats = [SeatRow(p, users_at[p], names[p], bots[p], "bot" if bots[p] else "away") for p in range(4)]  # fmt: skip
        table_id = asyncio.run(tables.create(row, seats))
        owners = list(users_at)
        complete = len(hands) == len(played[k % len(played)][0])
        match = summarize_match(totals, len(hands), stake=STAKE, fee=FEE) if complete else None
        facts = TableFacts("online", "parlor", "bench", names, tuple(users_at), bots,  # type: ignore[arg-type]
                           length="16-hands", stake=STAKE, fee=FEE)  # fmt: skip
        txns = [Transaction.of(f"buyin:table:{table_id}", "buy_in", stakes.buy_ins(table_id, owners, STAKE, FEE), "入場 buy-in")]  # fmt: skip
        before: list[int | float] = [0, 0, 0, 0]
        for hand in hands:
            after = [b + s.delta for b, s in zip(before, hand.seats, strict=True)]
            move = stakes.hand_move(table_id, STAKE, before, after)
            if move:
                txns.append(Transaction.of(f"hand:table:{table_id}:{hand.number}", "settle", move, f"hand {hand.number}"))  # fmt: skip
            before = after
        if complete:
            release = stakes.release(table_id, STAKE, before, owners)
            txns.append(Transaction.of(f"release:table:{table_id}", "release", release, "散場 release"))  # fmt: skip
        with store.session() as session:  # one commit per match (live: one per hand)
            for txn in txns:
                post_in(session, txn)
            keep_results(session, table_id, TableResults(facts, tuple(hands), match))
        have += len(hands)
        k += 1
    return {
        "real_matches": real_matches,
        "real_hands": sum(len(h) for h, _ in played),
        "play_s": round(t_play, 1),
        "tables": k,
        "bench_hands": have,
        "write_s": round(time.perf_counter() - t1, 1),
    }


def measure(client: Any, paths: list[str], warmup: int = 3) -> dict[str, float]:
    """GET each path in turn (after ``warmup`` untimed GETs of the first): p50/p95/max in ms."""
    for _ in range(warmup):
        assert client.get(paths[0]).status_code == 200
    times = []
    for path in paths:
        t = time.perf_counter()
        r = client.get(path)
        times.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, (path, r.status_code)
    times.sort()
    return {
        "n": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 1),
        "max_ms": round(times[-1], 1),
    }


def rows(store: Store) -> dict[str, int]:
    from sqlalchemy import func, select

    from hkmahjong.server.store import models as m

    with store.session() as s:
        return {
            t.__tablename__: int(s.scalar(select(func.count()).select_from(t)) or 0)
            for t in (m.HandResultRow, m.HandFan, m.HandDetail, m.MatchResultRow, m.LedgerRow)
        }


def main(argv: list[str] | None = None) -> int:
    """Fill a store, time the pages, print the figures (``--json`` for one JSON object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--real-matches", type=int, default=8, help="distinct matches played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data-dir", help="keep the filled store here (a later run with it measures again)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

    from hkmahjong.server.app import create_app
    from hkmahjong.server.settings import Settings

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(args.data_dir) if args.data_dir else Path(tmp)
        settings = Settings(data_dir=data, secret="bench-secret-" + "x" * 20)
        reuse = (data / "parlor.db").exists()
        store = Store.open(settings.database_url)
        if reuse:  # filled by an earlier run with --data-dir: measure again
            with store.session() as s:
                from sqlalchemy import func, select

                from hkmahjong.server.store.models import HandResultRow, ParlorTable

                have = s.scalar(select(func.count()).select_from(HandResultRow).join(
                    ParlorTable, ParlorTable.id == HandResultRow.table_id).where(
                    HandResultRow.player >= 0, ParlorTable.public_id.like("bench%")))  # fmt: skip
                tables = s.scalar(select(func.count()).select_from(ParlorTable))
            filled = {"real_matches": 0, "real_hands": 0, "play_s": 0, "tables": int(tables or 0),
                      "bench_hands": int(have or 0) // 4, "write_s": 0}  # fmt: skip
        else:
            filled = fill(store, args.hands, args.real_matches, args.seed)
        db_file = data / "parlor.db"
        size = sum(p.stat().st_size for p in data.glob("parlor.db*"))
        app = create_app(settings, store=store)
        n = args.requests
        hand_pages = max(1, -(-args.hands // 50))
        match_pages = max(1, -(-int(filled["tables"]) // 20))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            results = {
                "player page /players/bench": measure(client, ["/players/bench"] * n),
                "player page, one ruleset": measure(
                    client, ["/players/bench?rules=bench&kind=online"] * n
                ),
                "hands /players/bench/hands?page=k": measure(
                    client,
                    [f"/players/bench/hands?page={1 + (i * 37) % hand_pages}" for i in range(n)],
                ),
                "matches /players/bench/matches?page=k": measure(
                    client,
                    [f"/players/bench/matches?page={1 + (i * 7) % match_pages}" for i in range(n)],
                ),
                "stats API /api/players/bench/stats": measure(
                    client, ["/api/players/bench/stats"] * n
                ),
                "leaderboard": measure(client, ["/leaderboard"] * n),
                "match page /matches/bench0": measure(client, ["/matches/bench0"] * n),
            }
        counts = rows(store)
        store.close()
    load_after = os.getloadavg()
    ok = all(
        results[k]["p95_ms"] < TARGET_P95_MS
        for k in ("player page /players/bench", "hands /players/bench/hands?page=k")
    )
    out = {
        "filled": filled,
        "rows": counts,
        "db_bytes": size,
        "db": str(db_file.name),
        "results": results,
        "target_p95_ms": TARGET_P95_MS,
        "meets_target": ok,
        "conditions": {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "cpus": os.cpu_count(),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in load_after],
            "client": "fastapi TestClient in process (ASGI), one request at a time",
        },
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0 if ok else 1
    f = filled
    print(f"filled: {f['bench_hands']} hands for 'bench' at {f['tables']} tables "
          f"({f['real_hands']} real hands of {f['real_matches']} matches played in {f['play_s']} s, "
          f"written in {f['write_s']} s); rows {counts}; database {size / 1e6:.1f} MB")  # fmt: skip
    c = out["conditions"]
    print(
        f"conditions: python {c['python']}, SQLite {c['sqlite']} (WAL), {c['cpus']} CPUs, "  # type: ignore[index]
        f"load average {c['load_before']} before, {c['load_after']} after; {c['client']}"
    )  # type: ignore[index]
    for name, r in results.items():
        print(f"  {name:42s} n={r['n']:4d}  p50 {r['p50_ms']:7.1f} ms  p95 {r['p95_ms']:7.1f} ms  max {r['max_ms']:7.1f} ms")  # fmt: skip
    print(f"target: history and statistics pages p95 < {TARGET_P95_MS:.0f} ms: "
          f"{'met' if ok else 'NOT met'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
