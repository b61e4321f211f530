"""What the operators' metrics cost (docs/operations.md, *Metrics*): the tables' probe on the
hot path, per action, against no probe; and one scrape of ``/metrics`` at N live tables.

    .venv/bin/python bench/bench_metrics.py            # ~10 s
    .venv/bin/python bench/bench_metrics.py --tables 1000 --actions 200000

Per action a table makes three probe calls (the action with its latency, the commit, and for a
bot's move its think time); the figure is the time of those calls on the Prometheus counters
divided by the same calls on the parlor's null probe (the reference, measured in the same run).
The scrape builds N stand-in tables (the attributes the state collector reads: kind, status,
seats, connections, spectators) and times ``generate_latest`` over the app's registry.
"""

from __future__ import annotations

import argparse
import statistics
import time
from types import SimpleNamespace

from hkmahjong.parlor.probes import NULL_PROBE, TableProbe
from hkmahjong.server.metrics import ParlorMetrics


def per_action(probe: TableProbe, n: int) -> float:
    """Microseconds of one action's probe calls."""
    start = time.perf_counter()
    for i in range(n):
        probe.commit(0.0012, True)
        probe.action("auto" if i % 4 else "you", 0.0021)
        probe.thought("easy", 0.004)
    return (time.perf_counter() - start) / n * 1e6


def fake_app(tables: int) -> SimpleNamespace:
    seats = [
        SimpleNamespace(kind="human", conn=object()),
        SimpleNamespace(kind="bot", conn=None),
        SimpleNamespace(kind="bot", conn=None),
        SimpleNamespace(kind="human", conn=None),
    ]
    live = {
        f"t{i}": SimpleNamespace(
            config=SimpleNamespace(kind="online" if i % 3 else "practice"),
            status="playing" if i % 10 else "waiting",
            open=True,
            seats=seats,
            gallery=SimpleNamespace(count=i % 3),
        )
        for i in range(tables)
    }
    lobby = SimpleNamespace(tables=live, watchers=set(), store=None)
    return SimpleNamespace(state=SimpleNamespace(lobby=lobby, cluster=None, heap=None))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    counted = ParlorMetrics()
    null = [per_action(NULL_PROBE, args.actions) for _ in range(args.repeats)]
    real = [per_action(counted, args.actions) for _ in range(args.repeats)]
    n, r = statistics.median(null), statistics.median(real)
    print(f"probe per action: null {n:.2f} µs, prometheus {r:.2f} µs (ratio {r / n:.1f}x, "
          f"+{r - n:.2f} µs; median of {args.repeats} × {args.actions:,} actions)")  # fmt: skip
    app = fake_app(args.tables)
    scraped = ParlorMetrics(app)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        body = scraped.text()
        times.append((time.perf_counter() - start) * 1000)
    print(f"scrape at {args.tables:,} tables: {statistics.median(times):.2f} ms "
          f"(median of {args.repeats}), {len(body):,} bytes")  # fmt: skip


if __name__ == "__main__":
    main()
