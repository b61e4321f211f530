"""Benchmark of hkmahjong.scoring.score_hand against the `mahjong` library's HandCalculator.

Builds a seeded corpus of valid wins of every kind (chow and pung hands, flushes, honours, declared
and concealed melds and kongs, 十三幺, 九蓮寶燈, bonus tiles, self-draws, last tile, kong
replacements, known and unknown winning tiles) and scores it under the parlor preset; in the same
run it scores the `mahjong` library's own riichi hands (random complete closed hands, tsumo and
ron) with ``HandCalculator.estimate_hand_value`` as the reference, and prints both rates and the
ratio.

Rates are hands per second of this process's CPU time (``time.process_time``), so other jobs on
a shared machine do not skew the ratio. Two hkmahjong figures are printed: *cold* (the decomposition cache cleared before the pass, so
every count vector is decomposed once) and *warm* (a second pass over the same corpus). The target
of the issue — at least 20,000 hands/s in pure Python and faster than the reference — is judged
on the cold figure.

Usage: ``python bench/bench_scoring.py [--full] [--n N] [--seed S]`` (the reference needs
``pip install mahjong``).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable

from hkmahjong.hand import Hand, Meld, MeldKind
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.scoring.decompose import _suit_sets, _suit_with_pair, concealed_decompositions
from hkmahjong.scoring.patterns import _tile_summary
from hkmahjong.tiles import ORPHANS, Tile, Wind

TARGET = 20_000


def _random_sets(rng: random.Random, used: list[int], n: int, style: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    suit = rng.randrange(3)
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 200:
            raise ValueError("retry")
        p_chow = {"chows": 0.9, "pungs": 0.05, "flush": 0.5, "honours": 0.0}.get(style, 0.55)
        if style == "honours":
            t = 27 + rng.randrange(7) if rng.random() < 0.8 else suit * 9 + rng.randrange(9)
            kind, first = "pung", t
        elif rng.random() < p_chow:
            s = suit if style == "flush" else rng.randrange(3)
            kind, first = "chow", s * 9 + rng.randrange(7)
        else:
            s = suit if style == "flush" else rng.randrange(4)
            t = s * 9 + rng.randrange(9) if s < 3 else 27 + rng.randrange(7)
            kind, first = "pung", t
        tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
        if all(used[t] + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                used[t] += 1
            out.append((kind, first))
    return out


def random_win(rng: random.Random) -> tuple[Hand, WinContext]:
    """One valid win of a random kind (a complete hand and a context that fits it)."""
    while True:
        try:
            return _random_win(rng)
        except ValueError:
            continue


def _random_win(rng: random.Random) -> tuple[Hand, WinContext]:
    r = rng.random()
    bonus = tuple(Tile(t) for t in rng.sample(range(34, 42), rng.choice([0, 0, 1, 2, 3])))
    seat = Wind(rng.randrange(4))
    base = WinContext(seat_wind=seat, prevailing_wind=Wind(rng.randrange(4)))
    if r < 0.02:
        extra = rng.choice(ORPHANS)
        hand = Hand((*ORPHANS, extra), (), bonus)
        return hand, dataclasses.replace(base, self_drawn=rng.random() < 0.5)
    if r < 0.04:
        s = rng.randrange(3) * 9
        tiles = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, s + rng.randrange(9)]
        return Hand(tuple(Tile(t) for t in tiles), (), bonus), base
    style = rng.choice(["mixed", "mixed", "chows", "pungs", "flush", "honours"])
    used = [0] * 34
    pair = rng.randrange(34)
    used[pair] = 2
    sets = _random_sets(rng, used, 4, style)
    n_declared = rng.choice([0, 0, 1, 1, 2, 3, 4])
    concealed: list[int] = [pair, pair]
    melds: list[Meld] = []
    kongs = 0
    for i, (kind, first) in enumerate(sets):
        if i < n_declared:
            if kind == "pung" and used[first] < 4 and rng.random() < 0.3:
                used[first] += 1
                mk = rng.choice([MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG])
                melds.append(Meld(mk, Tile(first)))
                kongs += 1
            else:
                mk = MeldKind.CHOW if kind == "chow" else MeldKind.PUNG
                melds.append(Meld(mk, Tile(first)))
        else:
            concealed += [first, first + 1, first + 2] if kind == "chow" else [first] * 3
    hand = Hand(tuple(Tile(t) for t in concealed), tuple(melds), bonus)
    self_drawn = rng.random() < 0.4
    winning = rng.choice(concealed) if rng.random() < 0.7 else None
    ctx = dataclasses.replace(
        base,
        self_drawn=self_drawn,
        winning_tile=None if winning is None else Tile(winning),
        last_tile=rng.random() < 0.05,
        kong_replacement=self_drawn and kongs > 0 and rng.random() < 0.5,
        bonus_replacement=self_drawn and bool(bonus) and rng.random() < 0.1,
        robbing_kong=not self_drawn and rng.random() < 0.03,
    )
    return hand, ctx


def corpus(n: int, seed: int) -> list[tuple[Hand, WinContext]]:
    """A seeded corpus of ``n`` valid wins."""
    rng = random.Random(seed)
    return [random_win(rng) for _ in range(n)]


def riichi_corpus(n: int, seed: int) -> list[tuple[list[int], int, bool]]:
    """``n`` complete closed riichi hands in 136-tile form with a winning tile and tsumo flag."""
    rng = random.Random(seed)
    out: list[tuple[list[int], int, bool]] = []
    while len(out) < n:
        used = [0] * 34
        pair = rng.randrange(34)
        used[pair] = 2
        try:
            sets = _random_sets(rng, used, 4, "mixed")
        except ValueError:
            continue
        kinds = [pair, pair]
        for kind, first in sets:
            kinds += [first, first + 1, first + 2] if kind == "chow" else [first] * 3
        seen = [0] * 34
        tiles136 = []
        for k in kinds:
            tiles136.append(k * 4 + seen[k])
            seen[k] += 1
        out.append((tiles136, rng.choice(tiles136), rng.random() < 0.4))
    return out


def _rate(fn: Callable[[], int], n: int) -> float:
    """Hands per second of CPU time of this process (robust on a shared, loaded machine)."""
    start = time.process_time()
    done = fn()
    elapsed = time.process_time() - start
    assert done == n
    return n / elapsed


def _clear_caches() -> None:
    _suit_sets.cache_clear()
    _suit_with_pair.cache_clear()
    concealed_decompositions.cache_clear()
    _tile_summary.cache_clear()


def main() -> None:
    """Run the benchmark and print the figures and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="hands per corpus (default 4000)")
    ap.add_argument("--full", action="store_true", help="40,000 hands per corpus, 5 rounds")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; best of each")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    n = 40_000 if args.full else args.n
    rounds = 5 if args.full else args.rounds
    rules = get_preset("parlor")
    hands = corpus(n, args.seed)

    def ours() -> int:
        valid = 0
        for hand, ctx in hands:
            r = score_hand(hand, ctx, rules)
            valid += r.reason in (None, "below_minimum_fan")
        return valid

    kinds = {
        "self-drawn": sum(c.self_drawn for _, c in hands),
        "declared melds": sum(bool(h.melds) for h, _ in hands),
        "kongs": sum(h.kong_count > 0 for h, _ in hands),
        "bonus tiles": sum(bool(h.bonus) for h, _ in hands),
        "winning tile unknown": sum(c.winning_tile is None for _, c in hands),
    }
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        HandCalculator = None
    ref_n = max(200, n // 4)
    riichi = riichi_corpus(ref_n, args.seed)
    ref: Callable[[], int] | None = None
    if HandCalculator is not None:
        calc = HandCalculator()
        configs = {True: HandConfig(is_tsumo=True), False: HandConfig(is_tsumo=False)}

        def ref_run() -> int:
            for tiles, win, tsumo in riichi:
                calc.estimate_hand_value(tiles, win, config=configs[tsumo])
            return len(riichi)

        ref = ref_run
    cold = warm = ref_rate = 0.0
    for _ in range(rounds):
        _clear_caches()
        cold = max(cold, _rate(ours, n))
        warm = max(warm, _rate(ours, n))
        if ref is not None:
            ref_rate = max(ref_rate, _rate(ref, ref_n))
    print(f"hkmahjong score_hand (parlor), {n} valid wins, seed {args.seed}, best of {rounds}")
    print("  corpus: " + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    print(f"  cold caches: {cold:,.0f} hands/s")
    print(f"  warm caches: {warm:,.0f} hands/s")
    if ref is None:
        print("reference: `mahjong` is not installed (pip install mahjong); no ratio")
        return
    print(f"reference mahjong HandCalculator.estimate_hand_value, {ref_n} riichi wins")
    print(f"  {ref_rate:,.0f} hands/s")
    print(f"ratio hkmahjong(cold) / reference: {cold / ref_rate:.2f}x")
    verdict = "met" if cold >= TARGET and cold > ref_rate else "NOT met"
    print(f"target >= {TARGET:,} hands/s and faster than the reference: {verdict}")


if __name__ == "__main__":
    main()
