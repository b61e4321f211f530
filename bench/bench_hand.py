"""Benchmark of hkmahjong.hand: shanten and win detection against `mahjong` and `kago-utils`.

Builds seeded corpora (random 13/14-tile hands, near-complete hands, hands with declared melds),
then measures, in one run and on the same corpus, hands per second for shanten and for win
detection of hkmahjong and of the reference libraries, and prints every figure and the ratios.
It also cross-checks hkmahjong's regular shanten against `mahjong` on every hand (with ``--full``
at least 100,000 hands) and prints the agreement, the package import time and the table memory.

Targets (the issue): shanten >= 10x `mahjong` and >= `kago-utils` on every corpus; win detection
>= 5x `mahjong` on near-complete hands. Issue 16: win detection >= 5x `mahjong` on near-complete
hands and >= 1x on random ones, shanten >= 2x the code before its rework ("before": the copies in
bench/hand_before.py, timed in the same run).

Usage: ``python bench/bench_hand.py [--full] [--n N] [--seed S] [--repeat R]``
(the bench-only dependencies: ``pip install mahjong kago-utils``).
"""

from __future__ import annotations

import argparse
import gc
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

from hkmahjong.hand import is_complete_counts, shanten_counts

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hand_before  # the code before issue 16's rework, timed in the same run

Counts = list[int]
WALL = [t for t in range(34) for _ in range(4)]


def _counts(tiles: Sequence[int]) -> Counts:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _random_set(rng: random.Random, used: Counts) -> list[int] | None:
    for _ in range(20):
        if rng.random() < 0.6:
            suit = rng.randrange(3)
            first = suit * 9 + rng.randrange(7)
            tiles = [first, first + 1, first + 2]
        else:
            t = rng.randrange(34)
            tiles = [t, t, t]
        if all(used[t] + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                used[t] += 1
            return tiles
    return None


def complete_hand(rng: random.Random, sets: int = 4) -> list[int]:
    """A random complete concealed part of ``sets`` sets and a pair (no count above 4)."""
    while True:
        used = [0] * 34
        pair = rng.randrange(34)
        used[pair] = 2
        tiles = [pair, pair]
        for _ in range(sets):
            s = _random_set(rng, used)
            if s is None:
                break
            tiles += s
        else:
            return tiles


def _replace(rng: random.Random, tiles: list[int], k: int) -> list[int]:
    out = list(tiles)
    for _ in range(k):
        out.pop(rng.randrange(len(out)))
        c = _counts(out)
        out.append(rng.choice([t for t in range(34) if c[t] < 4]))
    return out


def build_corpora(n: int, seed: int) -> dict[str, list[tuple[Counts, int]]]:
    """Seeded corpora: name -> [(concealed counts, number of declared melds)]."""
    rng = random.Random(seed)
    corpora: dict[str, list[tuple[Counts, int]]] = {
        "random13": [(_counts(rng.sample(WALL, 13)), 0) for _ in range(n)],
        "random14": [(_counts(rng.sample(WALL, 14)), 0) for _ in range(n)],
    }
    near13 = []
    near14 = []
    for _ in range(n):
        tiles = complete_hand(rng)
        near14.append((_counts(_replace(rng, tiles, rng.choice((0, 1, 1, 2)))), 0))
        tiles.pop(rng.randrange(14))
        near13.append((_counts(_replace(rng, tiles, rng.choice((0, 0, 1)))), 0))
    corpora["near13"] = near13
    corpora["near14"] = near14
    melds = []
    for i in range(n):
        k = 1 + i % 4
        size = (13 if i % 2 else 14) - 3 * k
        if i % 3:
            tiles = rng.sample(WALL, size)
        else:
            tiles = complete_hand(rng, 4 - k)
            if size % 3 == 1:
                tiles.pop(rng.randrange(len(tiles)))
            tiles = _replace(rng, tiles, rng.choice((0, 1)))
        melds.append((_counts(tiles), k))
    corpora["melds"] = melds
    return corpora


CHUNK = 500


def rates(
    fns: dict[str, Callable[[int, int], object]], count: int, repeat: int
) -> dict[str, float]:
    """Items per second of each function ``fn(lo, hi)`` over items ``0..count``.

    Time is this process's CPU time (``time.process_time``), so other jobs on a shared machine
    do not count against whichever library happened to run during them. The corpus is cut into
    chunks of 500; every chunk is timed ``repeat`` times per function, the functions interleaved
    in a rotating order, each timed run right after an untimed one on the same chunk (so no
    library is timed with the caches full of another library's data), and the best time of each
    chunk is kept.
    """
    total = dict.fromkeys(fns, 0.0)
    gc.collect()
    gc.disable()  # as timeit does: a collection would be charged to whoever runs at that moment
    try:
        _chunks(fns, count, repeat, total)
    finally:
        gc.enable()
    return {name: count / t for name, t in total.items()}


def _chunks(
    fns: dict[str, Callable[[int, int], object]], count: int, repeat: int, total: dict[str, float]
) -> None:
    for lo in range(0, count, CHUNK):
        hi = min(count, lo + CHUNK)
        best = dict.fromkeys(fns, float("inf"))
        names = list(fns)
        for r in range(repeat):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                fns[name](lo, hi)  # warm-up: the run just before filled the caches with its data
                t0 = time.process_time()
                fns[name](lo, hi)
                best[name] = min(best[name], time.process_time() - t0)
        for name in fns:
            total[name] += best[name]


def import_time() -> float:
    """Seconds to import hkmahjong in a fresh interpreter, less the interpreter's own start-up."""

    def run(code: str) -> float:
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            best = min(best, time.perf_counter() - t0)
        return best

    return run("import hkmahjong, hkmahjong.hand") - run("pass")


def table_memory() -> tuple[float, int]:
    """(seconds to load the tables, bytes allocated while loading them)."""
    from hkmahjong.hand import _fast

    _fast._TABLES = None
    t0 = time.perf_counter()
    _fast.tables()
    seconds = time.perf_counter() - t0
    _fast._TABLES = None
    tracemalloc.start()
    _fast.tables()
    current = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return seconds, current


def exhaustive_oracle() -> int:
    """Compare the per-suit tables with the brute-force oracle on every vector (minutes)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hand"))
    import oracle  # type: ignore[import-not-found]

    from hkmahjong.hand import _fast

    t = _fast.tables()
    bad = 0
    checked = 0
    t0 = time.perf_counter()
    for size, chows, table in ((7, False, t.honour), (9, True, t.number)):
        for c in oracle.all_vectors(size, 14):
            key = 0
            for n in c:
                key = key * 5 + n
            if t.profiles[table[key]] != oracle.oracle_profile(c, chows):
                bad += 1
                print("  MISMATCH", c)
            checked += 1
            if checked % 50_000 == 0:
                print(f"  {checked:,} vectors, {time.perf_counter() - t0:.0f} s", flush=True)
    print(
        f"exhaustive oracle, profiles: {checked:,} single-suit vectors (0-14 tiles), {bad} mismatches"
    )
    from test_exhaustive import fast_arrangements  # type: ignore[import-not-found]

    arranged = bad_arr = 0
    for c in oracle.all_vectors(9, 14):
        if sum(c) % 3 != 1:
            arranged += 1
            if fast_arrangements(c) != oracle.oracle_arrangements(c):
                bad_arr += 1
                print("  ARRANGEMENTS DIFFER", c)
    print(
        f"exhaustive oracle, arrangements: {arranged:,} number-suit vectors, {bad_arr} mismatches"
    )
    return 0 if bad == 0 and bad_arr == 0 else 1


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="125,000 hands (cross-check included)")
    ap.add_argument("--n", type=int, default=None, help="hands per corpus")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--exhaustive", action="store_true", help="only: every single-suit vector vs the oracle"
    )
    args = ap.parse_args(argv)
    if args.exhaustive:
        return exhaustive_oracle()
    n = args.n or (25_000 if args.full else 4_000)

    try:
        from kago_utils.hai import Hai34Counter
        from kago_utils.shanten import Shanten as KagoShanten
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        print("needs the bench dependencies: pip install mahjong kago-utils", file=sys.stderr)
        return 2

    corpora = build_corpora(n, args.seed)
    total = sum(len(c) for c in corpora.values())
    print(
        f"hkmahjong.hand benchmark: {len(corpora)} corpora x {n:,} hands, seed {args.seed}, "
        f"CPU time, best of {args.repeat} interleaved runs per chunk of {CHUNK}"
    )
    load_s, mem = table_memory()
    print(
        f"package import: {import_time() * 1000:.1f} ms (target < 200 ms); tables: loaded on "
        f"first use in {load_s * 1000:.1f} ms, {mem / 1e6:.2f} MB (target < 50 MB)"
    )

    mj = Shanten()
    agari = Agari()
    KagoShanten.load_patterns()
    agree = 0
    disagree: list[str] = []
    for corpus in corpora.values():
        for c, k in corpus:
            ours = shanten_counts(c, k, thirteen_orphans=False)
            theirs = mj.calculate_shanten_for_regular_hand(c)
            if ours == theirs:
                agree += 1
            elif len(disagree) < 10:
                disagree.append(f"{c} melds={k}: hkmahjong {ours}, mahjong {theirs}")
    print(f"cross-check vs mahjong (regular shanten): {agree:,}/{total:,} hands agree")
    for line in disagree:
        print("  DISAGREE", line)

    print("\nshanten, hands per second (reg = regular shape as in the references; all = + 十三幺;")
    print(" 'before' = the same call at 1fa8147, bench/hand_before.py)")
    print(
        f"{'corpus':10s} {'hkmj reg':>10s} {'hkmj all':>10s} {'before reg':>10s} "
        f"{'before all':>10s} {'mahjong':>9s} {'kago':>9s} "
        f"{'x mahjong':>9s} {'x kago':>7s} {'x before reg/all':>16s}"
    )
    worst_mj = worst_kago = float("inf")
    for name, corpus in corpora.items():
        kago_in = [(Hai34Counter(c), k) for c, k in corpus]

        def ours(lo: int, hi: int, corpus: list[tuple[Counts, int]] = corpus) -> None:
            for c, k in corpus[lo:hi]:
                shanten_counts(c, k, thirteen_orphans=False)

        def ours_all(lo: int, hi: int, corpus: list[tuple[Counts, int]] = corpus) -> None:
            for c, k in corpus[lo:hi]:
                shanten_counts(c, k)

        def before(lo: int, hi: int, corpus: list[tuple[Counts, int]] = corpus) -> None:
            for c, k in corpus[lo:hi]:
                hand_before.shanten_counts(c, k, thirteen_orphans=False)

        def before_all(lo: int, hi: int, corpus: list[tuple[Counts, int]] = corpus) -> None:
            for c, k in corpus[lo:hi]:
                hand_before.shanten_counts(c, k)

        def theirs(lo: int, hi: int, corpus: list[tuple[Counts, int]] = corpus) -> None:
            for c, _ in corpus[lo:hi]:
                mj.calculate_shanten_for_regular_hand(c)

        def kago(lo: int, hi: int, kago_in: list[tuple[object, int]] = kago_in) -> None:
            for h, k in kago_in[lo:hi]:
                KagoShanten.calculate_shanten_for_regular(h, k)

        fns = {
            "ours": ours,
            "all": ours_all,
            "before": before,
            "before_all": before_all,
            "mj": theirs,
            "kago": kago,
        }
        r = rates(fns, len(corpus), args.repeat)
        extra = name == "melds"
        if not extra:
            worst_mj = min(worst_mj, r["ours"] / r["mj"])
            worst_kago = min(worst_kago, r["ours"] / r["kago"])
        print(
            f"{name:10s} {r['ours']:10,.0f} {r['all']:10,.0f} {r['before']:10,.0f} "
            f"{r['before_all']:10,.0f} {r['mj']:9,.0f} {r['kago']:9,.0f} "
            f"{r['ours'] / r['mj']:8.1f}x {r['ours'] / r['kago']:6.2f}x "
            f"{r['ours'] / r['before']:8.2f}x /{r['all'] / r['before_all']:5.2f}x"
            + ("  (extra corpus: 1-4 melds, 1-11 concealed tiles)" if extra else "")
        )
    print(
        f"worst ratio on the issue's corpora (random, near-complete): {worst_mj:.1f}x mahjong "
        f"(target 10x), {worst_kago:.2f}x kago-utils (target 1x)"
    )

    print("\nwin detection (with 七對子, as mahjong's Agari), hands per second")
    print("(kago-utils has no win check: its calculate_shanten(...) == -1 stands in; 'before' is")
    print(" the same call at 1fa8147, bench/hand_before.py)")
    print(
        f"{'corpus':22s} {'hkmahjong':>10s} {'before':>9s} {'mahjong':>9s} {'kago':>9s} "
        f"{'x mahjong':>9s} {'x before':>8s} {'x kago':>7s}"
    )
    near = [c for c, _ in corpora["near14"]]
    complete = [c for c in near if is_complete_counts(c, seven_pairs=True)]
    groups = {
        "near14 (all)": near,
        f"near14 complete ({len(complete)})": complete,
        "near14 not complete": [c for c in near if not is_complete_counts(c, seven_pairs=True)],
        "random14": [c for c, _ in corpora["random14"]],
    }
    for label, hands in groups.items():

        def win_ours(lo: int, hi: int, hands: list[Counts] = hands) -> None:
            for c in hands[lo:hi]:
                is_complete_counts(c, 0, seven_pairs=True)

        def win_theirs(lo: int, hi: int, hands: list[Counts] = hands) -> None:
            for c in hands[lo:hi]:
                agari.is_agari(c)

        kago_hands = [Hai34Counter(c) for c in hands]

        def win_kago(lo: int, hi: int, kago_hands: list[object] = kago_hands) -> None:
            for h in kago_hands[lo:hi]:
                KagoShanten.calculate_shanten(h, 0) == -1  # noqa: B015

        def win_before(lo: int, hi: int, hands: list[Counts] = hands) -> None:
            for c in hands[lo:hi]:
                hand_before.is_complete_counts(c, 0, seven_pairs=True)

        fns = {"ours": win_ours, "before": win_before, "mj": win_theirs, "kago": win_kago}
        r = rates(fns, len(hands), args.repeat)
        print(
            f"{label:22s} {r['ours']:10,.0f} {r['before']:9,.0f} {r['mj']:9,.0f} {r['kago']:9,.0f} "
            f"{r['ours'] / r['mj']:8.2f}x {r['ours'] / r['before']:7.2f}x "
            f"{r['ours'] / r['kago']:6.1f}x"
        )
    print("targets (issue 16): win detection >= 5x mahjong on near-complete hands, >= 1x on random")
    return 0


if __name__ == "__main__":
    sys.exit(main())
