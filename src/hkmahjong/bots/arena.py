"""競技場 arena: bots play the same walls in every seat (duplicate), in parallel, with statistics.

One *hand-set* is one wall (a seed-derived hand) played once per rotation of the line-up: with
``--duplicate`` the line-up is rotated through all four seats on the same wall, so luck of the
deal cancels out. Seats are the winds of one hand (East deals); each hand is independent, which is
exactly what a duplicate hand-set is. Every number is reproducible from the seed.

The engine's referee side (``HandState``) is passed in as ``new_hand`` by the caller (the CLI):
bots never import it (docs/dev/architecture.md layers).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from hkmahjong.bots.backend import Backend, BackendError, imap_indexed
from hkmahjong.bots.base import BaseBot
from hkmahjong.bots.registry import get_bot
from hkmahjong.engine import Action, ActionKind, HandOutcome, PlayerView
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.record import GameRecord, record_from_actions, seed_from_text
from hkmahjong.engine.record import hand_seed as record_hand_seed
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.tiles import Wind

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "BotStats",
    "HandLike",
    "RunningMean",
    "hand_record",
    "hand_seed",
    "mean_ci",
    "run_arena",
    "wall_match_seed",
]


class ArenaError(MahjongError):
    """An arena set-up that cannot run (bad line-up, hand count, job count)."""


class HandLike(Protocol):
    """What the arena needs from the engine's ``HandState``."""

    @property
    def is_over(self) -> bool: ...
    @property
    def to_act(self) -> tuple[Wind, ...]: ...
    @property
    def outcome(self) -> HandOutcome | None: ...
    def legal_actions(self, seat: Wind) -> list[Action]: ...
    def apply(self, seat: Wind, action: Action) -> Any: ...
    def view(self, seat: Wind) -> PlayerView: ...


NewHand = Callable[..., HandLike]

# Latency histogram: log-spaced buckets from 1 µs to ~100 s, 40 per decade.
_BUCKETS_PER_DECADE = 40
_NBUCKETS = 8 * _BUCKETS_PER_DECADE


def _bucket(seconds: float) -> int:
    us = max(seconds * 1e6, 1.0)
    return min(_NBUCKETS - 1, int(math.log10(us) * _BUCKETS_PER_DECADE))


def _bucket_value(i: int) -> float:
    return float(10 ** ((i + 0.5) / _BUCKETS_PER_DECADE) / 1e6)


@dataclass
class BotStats:
    """Mergeable totals for one bot name (over all the seats it held)."""

    hands: int = 0
    points: float = 0.0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    win_fan: int = 0
    liable: int = 0
    liable_paid: float = 0.0
    under_minimum: int = 0
    decisions: int = 0
    latency: list[int] = field(default_factory=lambda: [0] * _NBUCKETS)

    def merge(self, other: BotStats) -> None:
        """Add ``other``'s totals into this one."""
        for name in (
            "hands",
            "points",
            "wins",
            "self_draws",
            "deal_ins",
            "win_fan",
            "liable",
            "liable_paid",
            "under_minimum",
            "decisions",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latency = [a + b for a, b in zip(self.latency, other.latency, strict=True)]

    def latency_quantile(self, q: float) -> float:
        """Decision latency quantile ``q`` (0–1) in seconds (bucket resolution ≈ 6%)."""
        total = sum(self.latency)
        if not total:
            return 0.0
        target = q * total
        acc = 0
        for i, n in enumerate(self.latency):
            acc += n
            if acc >= target:
                return _bucket_value(i)
        return _bucket_value(_NBUCKETS - 1)


@dataclass(frozen=True)
class ArenaConfig:
    """An arena run: four bot names (seat order of rotation 0), hand-sets, ruleset, seed."""

    bots: tuple[str, str, str, str]
    hands: int
    ruleset: str = "parlor"
    seed: str = "0"
    duplicate: bool = True
    jobs: int = 1
    time_budget: float = 0.5
    backend: str = "local"
    """``local`` (this process, or ``jobs`` processes) or ``ray`` (:mod:`hkmahjong.bots.backend`)."""
    address: str | None = None
    """A Ray cluster's address (``auto``, ``HOST:PORT``); ``None``: a local Ray instance."""

    def __post_init__(self) -> None:
        if len(self.bots) != 4:
            raise ArenaError(f"the arena needs exactly 4 bots, got {len(self.bots)}: {self.bots}")
        if self.hands < 1:
            raise ArenaError(f"--hands must be at least 1, got {self.hands}")
        if self.jobs < 1:
            raise ArenaError(f"--jobs must be at least 1, got {self.jobs}")
        for name in self.bots:
            get_bot(name)
        try:
            self.where()
        except BackendError as exc:
            raise ArenaError(str(exc)) from None

    def where(self) -> Backend:
        """Where the hand-sets run."""
        return Backend(self.backend, self.jobs, self.address)

    @property
    def rotations(self) -> int:
        """Rotations per wall: 4 with duplicate seating, else 1."""
        return 4 if self.duplicate else 1


def wall_match_seed(seed: str, wall: int) -> bytes:
    """The match seed of wall ``wall`` of an arena run: each hand on it is a one-hand match."""
    return seed_from_text(f"arena:{seed}:{wall}")


def hand_seed(seed: str, wall: int) -> bytes:
    """The seed of wall number ``wall`` of an arena run (same for every rotation): the record's
    derivation (:func:`hkmahjong.engine.record.hand_seed`) of hand 0 from :func:`wall_match_seed`,
    so that every arena hand is a verifiable one-hand record (:func:`hand_record`)."""
    return record_hand_seed(wall_match_seed(seed, wall), 0)


@dataclass
class _Chunk:
    stats: dict[str, BotStats]
    set_points: dict[str, list[float]]
    """Per hand-set: each bot name's mean points per hand in that set."""
    hands: int
    seconds: float
    """CPU seconds the worker spent on this chunk."""
    records: list[str] = field(default_factory=list)
    """With a log: each hand's record (a one-hand match, JSON Lines), wall by wall, rotation by
    rotation — what :func:`hand_record` gives for it."""


def _play_hand(
    cfg: ArenaConfig,
    ruleset: Ruleset,
    new_hand: NewHand,
    wall: int,
    names: Sequence[str],
    stats: dict[str, BotStats],
    played: list[tuple[Wind, Action]] | None = None,
) -> HandOutcome:
    bots: list[BaseBot] = [
        get_bot(n, seed=f"{cfg.seed}:{wall}:{i}", ruleset=ruleset, time_budget=cfg.time_budget)
        for i, n in enumerate(names)
    ]
    state = new_hand(ruleset, seed=hand_seed(cfg.seed, wall), hand_number=0)
    steps = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        st = stats[names[seat]]
        if len(legal) == 1:
            action = legal[0]
        else:
            view = state.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].choose(view, legal)
            dt = time.perf_counter() - t0
            st.decisions += 1
            st.latency[_bucket(dt)] += 1
        if action.kind is ActionKind.FALSE_WIN:
            st.under_minimum += 1
        state.apply(seat, action)
        if played is not None:
            played.append((seat, action))
        steps += 1
        if steps > 5000:
            raise ArenaError(f"hand of wall {wall} with {names} did not end")
    out = state.outcome
    assert out is not None
    return out


def hand_record(cfg: ArenaConfig, new_hand: NewHand, wall: int, rotation: int = 0) -> GameRecord:
    """牌譜 of one arena hand (wall ``wall``, line-up rotation ``rotation``), played again.

    The hand is a one-hand match (一局) whose players are the bots by their place in
    ``cfg.bots`` (``fan#0``, ``random#1``, ...); ``hkmj replay --verify`` checks it.
    """
    ruleset = get_preset(cfg.ruleset)
    order = [(i - rotation) % 4 for i in range(4)]
    names = [cfg.bots[k] for k in order]
    stats = {n: BotStats() for n in set(cfg.bots)}
    played: list[tuple[Wind, Action]] = []
    _play_hand(cfg, ruleset, new_hand, wall, names, stats, played)
    return _record_of(cfg, ruleset, wall, rotation, played)


def _record_of(
    cfg: ArenaConfig,
    ruleset: Ruleset,
    wall: int,
    rotation: int,
    played: Sequence[tuple[Wind, Action]],
) -> GameRecord:
    order = [(i - rotation) % 4 for i in range(4)]
    p = tuple(f"{cfg.bots[k]}#{k}" for k in order)
    match = Match((p[0], p[1], p[2], p[3]), MatchLength.ONE_HAND)
    return record_from_actions(ruleset, match, wall_match_seed(cfg.seed, wall), [played])


def _play_set(
    cfg: ArenaConfig,
    ruleset: Ruleset,
    new_hand: NewHand,
    wall: int,
    records: list[str] | None = None,
) -> tuple[dict[str, BotStats], dict[str, float]]:
    stats: dict[str, BotStats] = {n: BotStats() for n in set(cfg.bots)}
    per_set: dict[str, list[float]] = {n: [] for n in set(cfg.bots)}
    for rot in range(cfg.rotations):
        names = [cfg.bots[(i - rot) % 4] for i in range(4)]
        played: list[tuple[Wind, Action]] | None = None if records is None else []
        out = _play_hand(cfg, ruleset, new_hand, wall, names, stats, played)
        if played is not None and records is not None:
            records.append(_record_of(cfg, ruleset, wall, rot, played).dumps())
        for seat in Wind:
            s = stats[names[seat]]
            s.hands += 1
            s.points += float(out.deltas[seat])
            per_set[names[seat]].append(float(out.deltas[seat]))
        for w in out.wins:
            s = stats[names[w.seat]]
            s.wins += 1
            s.win_fan += w.result.total_fan
            if w.result.total_fan < ruleset.min_fan or not w.result.valid_win:
                s.under_minimum += 1
            if w.discarder is None:
                s.self_draws += 1
            else:
                stats[names[w.discarder]].deal_ins += 1
            if w.liable is not None:
                ls = stats[names[w.liable]]
                ls.liable += 1
                ls.liable_paid += -float(out.deltas[w.liable])
        for seat in out.false_winners:
            stats[names[seat]].under_minimum += 1
    return stats, {n: sum(v) / len(v) for n, v in per_set.items()}


def _run_chunk(args: tuple[ArenaConfig, NewHand, range, bool]) -> _Chunk:
    cfg, new_hand, walls, log = args
    ruleset = get_preset(cfg.ruleset)
    t0 = time.process_time()
    stats: dict[str, BotStats] = {n: BotStats() for n in set(cfg.bots)}
    set_points: dict[str, list[float]] = {n: [] for n in set(cfg.bots)}
    records: list[str] | None = [] if log else None
    hands = 0
    for wall in walls:
        s, per = _play_set(cfg, ruleset, new_hand, wall, records)
        for n, v in s.items():
            stats[n].merge(v)
        for n, p in per.items():
            set_points[n].append(p)
        hands += cfg.rotations
    return _Chunk(stats, set_points, hands, time.process_time() - t0, records or [])


def mean_ci(values: Sequence[float], z: float = 1.959964) -> tuple[float, float]:
    """(mean, half-width of its 95% confidence interval) of ``values`` (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(var / n)


@dataclass
class RunningMean:
    """Mean and 95% CI of values seen one at a time (Welford), without keeping them."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, value: float) -> None:
        """Count ``value`` in."""
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def ci(self, z: float = 1.959964) -> tuple[float, float]:
        """(mean, half-width of its 95% confidence interval), as :func:`mean_ci` of the values."""
        if self.n == 0:
            return 0.0, 0.0
        if self.n < 2:
            return self.mean, float("inf")
        return self.mean, z * math.sqrt(self.m2 / (self.n - 1) / self.n)


@dataclass
class ArenaResult:
    """An arena's totals per bot name, per-hand-set points, hands played and time taken."""

    config: ArenaConfig
    stats: dict[str, BotStats]
    set_points: dict[str, list[float]]
    """Per hand-set, each bot name's mean points (empty lists unless ``run_arena(keep_sets=True)``,
    the default in code; ``hkmj arena`` keeps none, so a long run's memory stays flat)."""
    hands: int
    seconds: float
    cpu_seconds: float
    sets: dict[str, RunningMean] = field(default_factory=dict)
    """Per bot name, the running mean of its per-set points (what the CIs are computed from)."""
    margin: RunningMean = field(default_factory=RunningMean)
    """The running mean of the first name's per-set points minus the second's."""

    def summary(self) -> dict[str, Any]:
        """Every reported number as plain JSON data."""
        cfg = self.config
        out: dict[str, Any] = {
            "bots": list(cfg.bots),
            "ruleset": cfg.ruleset,
            "seed": cfg.seed,
            "duplicate": cfg.duplicate,
            "hand_sets": self.margin.n or next(iter(self.sets.values()), RunningMean()).n,
            "hands": self.hands,
            "seconds": round(self.seconds, 2),
            "hands_per_second": round(self.hands / self.seconds, 2) if self.seconds else None,
            "hands_per_cpu_second": round(self.hands / self.cpu_seconds, 2)
            if self.cpu_seconds
            else None,
            "per_bot": {},
        }
        names = list(dict.fromkeys(cfg.bots))
        for name in names:
            st = self.stats[name]
            mean, half = self.sets[name].ci()
            h = max(st.hands, 1)
            out["per_bot"][name] = {
                "seats": cfg.bots.count(name),
                "hands": st.hands,
                "points_per_hand": round(mean, 4),
                "points_ci95": round(half, 4),
                "win_rate": round(st.wins / h, 4),
                "self_draw_rate": round(st.self_draws / h, 4),
                "deal_in_rate": round(st.deal_ins / h, 4),
                "avg_winning_fan": round(st.win_fan / st.wins, 3) if st.wins else None,
                "liable_payments": st.liable,
                "liable_paid": st.liable_paid,
                "under_minimum_win_attempts": st.under_minimum,
                "decisions": st.decisions,
                "latency_median_ms": round(st.latency_quantile(0.5) * 1e3, 3),
                "latency_p99_ms": round(st.latency_quantile(0.99) * 1e3, 3),
            }
        if len(names) >= 2:
            a, b = names[0], names[1]
            mean, half = self.margin.ci()
            out["margin"] = {
                "challenger": a,
                "field": b,
                "points_per_hand": round(mean, 4),
                "ci95": round(half, 4),
                "significant": abs(mean) > half,
            }
        return out

    def text(self) -> str:
        """A readable table of :meth:`summary`."""
        s = self.summary()
        lines = [
            f"arena: {','.join(s['bots'])} under {s['ruleset']!r}, seed {s['seed']!r}, "
            f"{s['hand_sets']} hand-sets, {s['hands']} hands "
            f"({'duplicate' if s['duplicate'] else 'fixed seats'}), "
            f"{s['seconds']} s, {s['hands_per_second']} hands/s",
            f"{'bot':<12}{'pts/hand':>10}{'±95%':>8}{'win':>7}{'tsumo':>7}{'deal-in':>8}"
            f"{'fan':>6}{'liable':>7}{'<min':>5}{'lat p50':>9}{'p99 ms':>8}",
        ]
        for name, b in s["per_bot"].items():
            fan = b["avg_winning_fan"]
            lines.append(
                f"{name:<12}{b['points_per_hand']:>10.3f}{b['points_ci95']:>8.3f}"
                f"{b['win_rate']:>7.1%}{b['self_draw_rate']:>7.1%}{b['deal_in_rate']:>8.1%}"
                f"{(fan if fan is not None else 0):>6.2f}{b['liable_payments']:>7}"
                f"{b['under_minimum_win_attempts']:>5}{b['latency_median_ms']:>9.2f}"
                f"{b['latency_p99_ms']:>8.2f}"
            )
        if "margin" in s:
            m = s["margin"]
            verdict = "CI excludes 0" if m["significant"] else "CI includes 0"
            lines.append(
                f"margin {m['challenger']} - {m['field']}: {m['points_per_hand']:+.3f} "
                f"± {m['ci95']:.3f} points/hand ({verdict})"
            )
        return "\n".join(lines)


def _chunks(n: int, size: int) -> Iterator[range]:
    for start in range(0, n, size):
        yield range(start, min(n, start + size))


def run_arena(
    cfg: ArenaConfig,
    new_hand: NewHand,
    *,
    progress: TextIO | None = None,
    write: Callable[[str], object] | None = None,
    keep_sets: bool = True,
) -> ArenaResult:
    """Play ``cfg.hands`` hand-sets with ``new_hand`` (the engine's ``HandState.new``).

    Parallel over ``cfg.jobs`` processes, or Ray tasks with ``cfg.backend == "ray"`` (one task per
    chunk of hand-sets); a plain-text progress bar goes to ``progress``. The result does not
    depend on the backend nor on ``jobs`` (the chunks are merged in order).

    With ``write``, every hand's record — a one-hand match (JSON Lines), as :func:`hand_record`
    gives it — goes to ``write`` as soon as its chunk and every chunk before it are done, wall by
    wall and rotation by rotation: a record stream (``hkmj arena --log``, ``hkmj replay
    --verify``), the same for every backend and job count; no record is kept once written.
    ``keep_sets=False`` keeps no per-set points (``ArenaResult.set_points`` stays empty; the
    summary's CIs come from running sums): the memory of a long run stays flat.

    :raises ArenaError: when a hand does not end.
    """
    backend = cfg.where()
    t0 = time.perf_counter()
    size = max(1, min(50, cfg.hands // (backend.workers() * 8) or 1))
    tasks = [(cfg, new_hand, r, write is not None) for r in _chunks(cfg.hands, size)]
    waiting: dict[int, _Chunk] = {}
    merged = 0
    done = 0
    names = list(dict.fromkeys(cfg.bots))
    stats: dict[str, BotStats] = {n: BotStats() for n in names}
    set_points: dict[str, list[float]] = {n: [] for n in names}
    sets = {n: RunningMean() for n in names}
    margin = RunningMean()
    cpu = 0.0
    hands = 0

    def merge(c: _Chunk) -> None:
        nonlocal cpu, hands
        if write is not None:
            for text in c.records:
                write(text)
        for n, v in c.stats.items():
            stats[n].merge(v)
        for k in range(len(c.set_points[names[0]])):
            for n in names:
                sets[n].add(c.set_points[n][k])
            if len(names) >= 2:
                margin.add(c.set_points[names[0]][k] - c.set_points[names[1]][k])
        if keep_sets:
            for n, p in c.set_points.items():
                set_points[n].extend(p)
        cpu += c.seconds
        hands += c.hands

    # a terminal redraws one bar; a file or pipe gets a line at every tenth of the run
    tty = progress is not None and progress.isatty()
    tenths = 0

    def report() -> None:
        nonlocal tenths
        if progress is None:
            return
        width = 30
        frac = done / cfg.hands
        bar = "#" * int(frac * width)
        rate = done * cfg.rotations / max(time.perf_counter() - t0, 1e-9)
        line = f"[{bar:<{width}}] {done}/{cfg.hands} hand-sets, {rate:.1f} hands/s"
        if tty:
            progress.write(f"\r{line}")
        elif int(frac * 10) > tenths or done == cfg.hands:
            tenths = int(frac * 10)
            progress.write(f"{line}\n")
        else:
            return
        progress.flush()

    try:
        for i, chunk in imap_indexed(_run_chunk, tasks, backend):
            waiting[i] = chunk
            done += len(tasks[i][2])
            while merged in waiting:  # in chunk order: the same sums for any job count
                merge(waiting.pop(merged))
                merged += 1
            report()
    except BackendError as exc:
        raise ArenaError(str(exc)) from None
    if progress is not None and tty:
        progress.write("\n")
    result = ArenaResult(cfg, stats, set_points, hands, time.perf_counter() - t0, cpu)
    result.sets, result.margin = sets, margin
    return result
