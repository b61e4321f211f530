"""聯賽 properties over random leagues, sign-ups, results (by hand, when a round's time is up, and
with tables closed on their own and played again) and cancellation points (issue 18,
"Property tests"; seed 002 《取消》): jade is conserved, nobody is paid twice, and the split matches
the rule — 滾回 refunds fee and stake, 滾出 refunds fees and splits the pool 50% equally and 50% by
table points floored at 0 (remainders by rank), a free league pays no pool, a finished league
pays the published distribution."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hkmahjong.parlor.league import (
    LEAGUES,
    T0,
    League,
    LeagueConfig,
    LeagueDesk,
    LeagueError,
    MemoryLeagueStore,
    Step,
    cancel,
    escrow_of,
    join,
    leave,
    link_table,
    pool_of,
    prize_amounts,
    record_result,
    replay_match,
    rollout_amounts,
    round_deadline,
    standings,
    start,
    time_up,
)
from hkmahjong.parlor.ledger import (
    FEES,
    GRANTS,
    InsufficientJadeError,
    MemoryLedger,
    grant,
    user_account,
)
from hkmahjong.rules import get_preset

PARLOR = get_preset("parlor")
CLOSES = T0 + timedelta(hours=1)
DISTRIBUTIONS = [(100,), (50, 30, 20), (60, 40), (40, 25, 15, 10, 10), (34, 33, 33)]


@dataclass
class World:
    """A ledger, a desk, and what every user started with."""

    ledger: MemoryLedger = field(default_factory=MemoryLedger)
    start: dict[int, int] = field(default_factory=dict)

    def fund(self, user: int, jade: int) -> None:
        self.start[user] = jade
        if jade:
            self.ledger.post_sync(grant(user_account(user), jade, f"grant:{user}"))

    def users(self) -> dict[int, int]:
        return {u: self.ledger.balance_sync(user_account(u)) for u in self.start}


configs = st.builds(
    lambda fee, stake, guarantee, prizes, rounds, fill, fee_to_pool: LeagueConfig.of(
        "Prop",
        PARLOR,
        signup_opens=T0,
        signup_closes=CLOSES,
        entry_fee=fee,
        stake=stake,
        guarantee=guarantee,
        prizes=prizes,
        rounds=rounds,
        fill=fill,
        fee_to_pool=fee_to_pool,
        min_players=4 if fill == "byes" else 2,
        max_players=11,
    ),
    st.sampled_from([0, 0, 1, 7, 25]),
    st.sampled_from([0, 0, 1, 33, 100]),
    st.sampled_from([0, 0, 5, 101, 1000]),
    st.sampled_from(DISTRIBUTIONS),
    st.integers(1, 3),
    st.sampled_from(["bots", "byes"]),
    st.sampled_from([0, 0, 0, 33, 100]),
)


def check_books(world: World, league: League) -> None:
    """Conservation: users + pool + escrow, with the house's two flows (guarantee in, fees out),
    equal what the users started with; the league's accounts hold exactly what its state says."""
    led = world.ledger
    pool, escrow = led.balance_sync(pool_of(league.id)), led.balance_sync(escrow_of(league.id))
    house = led.balance_sync(FEES) + led.balance_sync(LEAGUES)
    assert sum(world.users().values()) + pool + escrow + house == sum(world.start.values())
    assert led.balance_sync(GRANTS) == -sum(world.start.values())
    if league.over:
        assert pool == 0 and escrow == 0
    else:
        assert pool == league.pool
        assert escrow == league.config.entry_fee * len(league.active)
    for u, have in world.users().items():
        assert have >= 0, u


def repeat_is_harmless(world: World, step: Step, rerun: Callable[[League], Step]) -> None:
    """Nobody is paid twice: posting a step's transactions again changes nothing, and running the
    step again on the league it produced is a no-op or refused."""
    snapshot = world.users()
    assert all(not world.ledger.post_sync(t) for t in step.txns)
    try:
        again = rerun(step.league)
    except LeagueError:
        pass
    else:
        assert again.txns == () and again.league == step.league
    assert world.users() == snapshot


def commit(world: World, store: MemoryLeagueStore, before: League, step: Step) -> League:
    store.commit(before, step.league, step.txns)
    stored = store.get(before.id)
    assert stored is not None
    return stored


def largest_remainder_ok(total: int, weights: list[int], shares: list[int]) -> None:
    """Shares of ``total`` in proportion to ``weights`` (ranked) by the largest-remainder method:
    each is its exact share floored, plus 1 for those with the largest fractional parts (ties to
    the better rank); together exactly ``total`` (issue 31 item 6)."""
    assert sum(shares) == total
    whole = sum(weights)
    floors = [int(Fraction(total * w, whole)) for w in weights]
    extra = [s - f for s, f in zip(shares, floors, strict=True)]
    assert set(extra) <= {0, 1}
    fractions = [Fraction(total * w, whole) - f for w, f in zip(weights, floors, strict=True)]
    order = sorted(range(len(weights)), key=lambda i: (-fractions[i], i))
    ones = sum(extra)
    assert sorted(i for i in range(len(extra)) if extra[i]) == sorted(order[:ones])


def exact_split_ok(total: int, weights: list[int], shares: list[int]) -> None:
    """Shares of ``total`` in proportion to ``weights`` (ranked): each is its exact share floored,
    plus 1 for a prefix of the ranking (the remainder by rank); together exactly ``total``."""
    assert sum(shares) == total
    whole = sum(weights)
    floors = [int(Fraction(total * w, whole)) for w in weights]
    extra = [s - f for s, f in zip(shares, floors, strict=True)]
    assert set(extra) <= {0, 1}
    ones = sum(extra)
    assert extra == [1] * ones + [0] * (len(extra) - ones)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, data=st.data())
def test_random_leagues_conserve_jade_pay_once_and_split_by_the_rule(
    config: LeagueConfig, data: st.DataObject
) -> None:
    world = World()
    n_users = data.draw(st.integers(1, 12), label="users")
    for u in range(1, n_users + 1):
        world.fund(u, data.draw(st.sampled_from([0, 50, 150, 1000, 1000]), label=f"jade {u}"))
    store = MemoryLeagueStore(world.ledger)
    desk = LeagueDesk(store, clock=lambda: T0)
    league = desk.create(config, seed=data.draw(st.text("abc", min_size=1, max_size=4)))
    check_books(world, league)
    entry = config.entry_fee + config.stake

    # sign-up: joins and leaves in a random order; a join without the jade is refused
    for _ in range(data.draw(st.integers(1, 30), label="sign-up moves")):
        if not n_users:
            break
        user = data.draw(st.integers(1, n_users))
        before = league
        if league.entrant(user) is None:
            try:
                step = join(league, user, f"P{user}", now=T0)
            except LeagueError as exc:
                assert exc.code == "full"
                continue
            if step.txns and world.ledger.balance_sync(user_account(user)) < entry:
                with pytest.raises(LeagueError, match="you have") as caught:
                    desk.join(league.id, user, f"P{user}")
                assert caught.value.code == "balance"
                with pytest.raises(InsufficientJadeError):  # the store refuses it too, whole
                    store.commit(league, step.league, step.txns)
                assert store.get(league.id) == league
                continue
            league = commit(world, store, before, step)
            repeat_is_harmless(world, step, lambda lg, u=user: join(lg, u, f"P{u}", now=T0))
        elif data.draw(st.sampled_from([False, False, True]), label="leave"):
            step = leave(league, user, now=T0)
            league = commit(world, store, before, step)
            repeat_is_harmless(world, step, lambda lg, u=user: leave(lg, u, now=T0))
        else:
            continue
        check_books(world, league)
    registered = {e.user_id for e in league.active}
    paid_in = {u: world.users()[u] for u in world.start}

    cancel_at = data.draw(st.integers(-1, config.rounds * 3), label="cancel point")
    if cancel_at == -1 or len(registered) < config.min_players:
        before = league
        step = cancel(league, "test: before the start", now=T0)
        league = commit(world, store, before, step)
        repeat_is_harmless(world, step, lambda lg: cancel(lg, "again", now=T0))
        check_books(world, league)
        # 滾回: every registered player's fee and stake refunded — everyone is back where they began
        assert league.status == "rolled_back"
        event(f"rolled back with {len(registered)} entrants")
        assert world.users() == world.start
        assert world.ledger.balance_sync(FEES) == world.ledger.balance_sync(LEAGUES) == 0
        return

    before = league
    step = start(league, now=CLOSES)
    league = commit(world, store, before, step)
    repeat_is_harmless(world, step, lambda lg: start(lg, now=CLOSES))
    check_books(world, league)
    results = 0
    while league.status == "running" and results != cancel_at:
        rnd = league.current_round
        assert rnd is not None
        match = next(m for m in rnd.matches if not m.over)
        move = data.draw(st.sampled_from(["result", "result", "replay", "time_up"]), label="move")
        before = league
        if move == "replay":  # the match's table closed on its own: played again (or void)
            table_id = f"r{rnd.number}t{match.table}a{match.attempt}"
            linked = link_table(league, rnd.number, match.table, table_id)
            step = replay_match(linked, rnd.number, match.table, table_id, "closed", now=CLOSES)
            league = commit(world, store, before, step)
            repeat_is_harmless(
                world,
                step,
                lambda lg, r=rnd.number, t=match.table, i=table_id: replay_match(
                    lg, r, t, i, "again", now=CLOSES
                ),
            )
            check_books(world, league)
            continue
        if move == "time_up":  # the round's time is up: unfinished matches end as they stand
            due = round_deadline(league)
            assert due is not None
            standing = {
                m.table: data.draw(st.lists(st.integers(-300, 300), min_size=4, max_size=4))
                for m in rnd.matches
                if not m.over and data.draw(st.booleans(), label="has totals")
            }
            step = time_up(league, standing, now=due)
            league = commit(world, store, before, step)
            repeat_is_harmless(world, step, lambda lg, d=due, s=standing: time_up(lg, s, now=d))
            check_books(world, league)
            results += 1
            continue
        points = data.draw(st.lists(st.integers(-300, 300), min_size=4, max_size=4))
        step = record_result(league, rnd.number, match.table, points, now=CLOSES)
        league = commit(world, store, before, step)
        repeat_is_harmless(
            world,
            step,
            lambda lg, r=rnd.number, t=match.table, p=points: record_result(
                lg, r, t, p, now=CLOSES
            ),
        )
        check_books(world, league)
        results += 1

    pool = league.pool
    share = league.fee_share
    ranked = standings(league)
    event(f"{'finished' if league.over else 'rolled out'}, free={config.free}")
    if league.status == "finished":
        # the published distribution over the places there are entrants for
        got = [world.users()[s.user_id] - paid_in[s.user_id] for s in ranked]
        places = min(len(config.prizes), len(ranked))
        exact_split_ok(pool + share, list(config.prizes[:places]), got[:places])
        assert all(g == 0 for g in got[places:])
        assert world.ledger.balance_sync(FEES) == config.entry_fee * len(registered) - share
        assert share == config.entry_fee * len(registered) * config.fee_to_pool // 100
        assert prize_amounts(pool + share, config.prizes, [s.user_id for s in ranked]) == dict(
            zip([s.user_id for s in ranked], got, strict=True)
        )
        return

    before = league
    step = cancel(league, "test: after the start", now=CLOSES)
    league = commit(world, store, before, step)
    repeat_is_harmless(world, step, lambda lg: cancel(lg, "again", now=CLOSES))
    check_books(world, league)
    assert league.status == "rolled_out"
    assert world.ledger.balance_sync(FEES) == 0  # 滾出: every fee refunded
    got = {s.user_id: world.users()[s.user_id] - paid_in[s.user_id] for s in ranked}
    if config.free:
        # a free league cancelled pays no pool
        assert all(g == 0 for g in got.values())
        assert world.ledger.balance_sync(LEAGUES) == 0
        return
    fee = config.entry_fee
    split = rollout_amounts(pool, [(s.user_id, s.points) for s in ranked])
    assert {u: fee + sum(split[u]) for u in got} == got
    n = len(ranked)
    exact_split_ok(pool // 2, [1] * n, [split[s.user_id][0] for s in ranked])
    weights = [max(0, s.points) for s in ranked]
    by_points = [split[s.user_id][1] for s in ranked]
    largest_remainder_ok(pool - pool // 2, weights if any(weights) else [1] * n, by_points)


@given(
    pool=st.integers(0, 10**6),
    points=st.lists(st.integers(-(10**4), 10**4), min_size=1, max_size=40),
)
def test_rollout_split_halves(pool: int, points: list[int]) -> None:
    ranked = sorted(enumerate(points), key=lambda up: -up[1])
    split = rollout_amounts(pool, ranked)
    equal = [split[u][0] for u, _ in ranked]
    by_points = [split[u][1] for u, _ in ranked]
    exact_split_ok(pool // 2, [1] * len(ranked), equal)
    weights = [max(0, p) for _, p in ranked]
    largest_remainder_ok(
        pool - pool // 2, weights if any(weights) else [1] * len(ranked), by_points
    )
    assert all(b == 0 for b, w in zip(by_points, weights, strict=True) if w == 0 and any(weights))


@given(n=st.integers(2, 40), fill=st.sampled_from(["bots", "byes"]), seed=st.text(min_size=1))
def test_every_entrant_sits_once_or_has_a_bye(n: int, fill: str, seed: str) -> None:
    if fill == "byes" and n < 4:
        n = 4
    cfg = LeagueConfig.of(
        "S", PARLOR, signup_opens=T0, signup_closes=CLOSES, fill=fill, min_players=2 if fill ==
        "bots" else 4, max_players=64
    )  # fmt: skip
    league = League(1, cfg, seed[:128])
    for u in range(n):
        league = join(league, u, f"P{u}", now=T0).league
    league = start(league, now=CLOSES).league
    rnd = league.current_round
    assert rnd is not None
    seated = Counter(s for m in rnd.matches for s in m.seats if s is not None)
    assert all(v == 1 for v in seated.values())
    assert set(seated) | set(rnd.byes) == set(range(n)) and not set(seated) & set(rnd.byes)
    assert len(rnd.byes) == (n % 4 if fill == "byes" else 0)
    people = [sum(s is not None for s in m.seats) for m in rnd.matches]
    assert max(people) - min(people) <= 1 and min(people) >= (4 if fill == "byes" else 1)
