"""戰績 on the parlor's database (SQLite and PostgreSQL): the rows a hand and a match leave, the
statistics as SQL aggregates equal to the domain's hand-computed tallies, each hand and rating
update kept once however often it is handed over, and a real table's hands kept with their log
lines (issue 18 "History and statistics", "a rating … updated after each online match")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select
from tests.parlor.tablekit import FAST, Client, settle
from tests.parlor.test_history import HANDS, rows

from hkmahjong.entry import main
from hkmahjong.parlor.clocks import FakeClock
from hkmahjong.parlor.history import (
    TableFacts,
    TableResults,
    fan_counts,
    match_tally,
    summarize_match,
    tally,
)
from hkmahjong.parlor.ledger import Transaction, grant
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.parlor.rating import Rating, rate
from hkmahjong.parlor.table import Table, TableConfig
from hkmahjong.rules import get_preset
from hkmahjong.server.admin import backfill_history
from hkmahjong.server.store import Store
from hkmahjong.server.store.history import SqlHistory, hands_kept, keep_results
from hkmahjong.server.store.ledger import SqlLedger
from hkmahjong.server.store.models import (
    HandDetail,
    HandFan,
    HandResultRow,
    MatchResultRow,
    RatingRow,
    User,
)
from hkmahjong.server.store.tables import SqlTableStore


def users(store: Store, *names: str) -> list[int]:
    with store.session() as s:
        made = [User(name=n, is_guest=False, is_admin=False, lang="en") for n in names]
        s.add_all(made)
        s.flush()
        return [u.id for u in made]


def table_row(store: Store, public_id: str = "t1", kind: str = "online") -> int:
    row = TableRow(0, public_id, kind, "playing", {}, "d1", "00" * 32)
    return asyncio.run(SqlTableStore(store).create(row, [SeatRow(p) for p in range(4)]))


def facts(ann: int, bo: int, kind: str = "online") -> TableFacts:
    return TableFacts(
        kind=kind,
        family="parlor",
        digest="d1",
        names=("ann", "bo", "easy-bot-3", "easy-bot-4"),
        user_ids=(ann, bo, None, None),
        bots=(None, None, "easy", "easy"),
        stake=500,
        fee=10,
    )


def keep(store: Store, table_id: int, results: TableResults) -> int:
    with store.session() as s:
        return keep_results(s, table_id, results)


def test_the_six_hands_aggregate_to_the_hand_computed_tallies(store: Store) -> None:
    ann, bo = users(store, "ann", "bo")
    t = table_row(store)
    match = summarize_match([336, -144, 24, -216], 6, stake=500, fee=10)
    results = TableResults(facts(ann, bo), tuple(HANDS), match)
    assert keep(store, t, results) == 6
    history = SqlHistory(store)
    assert history.tally(ann) == tally(rows(0))
    assert history.tally(bo) == tally(rows(1))
    assert dict(history.fan_counts(ann)) == fan_counts(rows(0))
    assert history.fan_counts(bo) == [("ALL_PUNGS", 1)]
    assert history.match_tally(ann) == match_tally([match.seats[0]])
    assert history.match_tally(bo).jade == -154
    assert history.tally(ann, digest="other").hands == 0
    assert history.tally(ann, kind="practice").hands == 0
    # Handed over again (a replayed log, a retried step): nothing is counted twice.
    assert keep(store, t, results) == 0
    assert history.tally(ann) == tally(rows(0))
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(HandResultRow)) == 24
        assert s.scalar(select(func.count()).select_from(MatchResultRow)) == 4
        assert s.scalar(select(func.count()).select_from(HandFan)) == 6
    page, total = history.hands(ann, offset=0, limit=4)
    assert total == 6 and [h.hand for h in page] == [5, 4, 3, 2]
    assert page[0].dealt_in and page[0].fed_to == (2,) and page[0].delta == -16
    assert page[3].won and page[3].fan == 13 and page[3].detail["names"][1] == "bo"
    rest, _ = history.hands(ann, offset=4, limit=4)
    assert [h.hand for h in rest] == [1, 0]


def test_a_finished_online_match_moves_the_ratings_once(store: Store) -> None:
    ann, bo = users(store, "ann", "bo")
    t = table_row(store)
    totals = [336, -144, 24, -216]
    results = TableResults(facts(ann, bo), (), summarize_match(totals, 6, stake=500, fee=10))
    keep(store, t, results)
    keep(store, t, results)
    new = rate([Rating()] * 4, totals)
    history = SqlHistory(store)
    [(family, mine, n)] = history.ratings(ann)
    assert family == "parlor" and n == 1
    assert mine.mu == pytest.approx(new[0].mu) and mine.sigma == pytest.approx(new[0].sigma)
    with store.session() as s:
        bot = s.get(RatingRow, ("bot:easy", "parlor"))
        assert bot is not None and bot.matches == 1  # two seats, one update: their mean
        assert bot.mu == pytest.approx((new[2].mu + new[3].mu) / 2)
    easy = Rating((new[2].mu + new[3].mu) / 2, (new[2].sigma + new[3].sigma) / 2)
    want = sorted(
        [("ann", new[0].ordinal), ("bo", new[1].ordinal), ("easy", easy.ordinal)],
        key=lambda x: -x[1],
    )
    board = history.leaderboard_rating("parlor")
    assert [(r.name, pytest.approx(r.value)) for r in board] == want
    jade = history.leaderboard_jade("parlor")
    assert [(r.name, r.value) for r in jade] == [("ann", 326), ("bo", -154)]
    lines, count = history.matches(ann)
    assert count == 1 and lines[0].place == 1 and lines[0].jade == 326
    assert lines[0].before == Rating() and lines[0].after is not None
    # A practice match is not rated.
    t2 = table_row(store, "t2", "practice")
    keep(
        store,
        t2,
        TableResults(facts(ann, bo, "practice"), (), summarize_match(totals, 6, kind="practice")),
    )
    assert history.ratings(ann)[0][2] == 1
    assert history.families() == ["parlor"]


def test_guests_are_not_on_the_leaderboards(store: Store) -> None:
    ann, guest = users(store, "ann", "guest-x")
    with store.session() as s:
        row = s.get(User, guest)
        assert row is not None
        row.is_guest = True
    t = table_row(store)
    keep(store, t, TableResults(facts(ann, guest), (), summarize_match([1, 9, -5, -5], 2)))
    history = SqlHistory(store)
    assert "guest-x" not in [r.name for r in history.leaderboard_rating("parlor")]
    assert [r.name for r in history.leaderboard_jade("parlor")] == ["ann"]


def test_a_matchs_ledger_lines_and_the_jade_series(store: Store) -> None:
    ann, bo = users(store, "ann", "bo")
    t1, t11 = table_row(store, "a"), table_row(store, "b")
    for _ in range(9):  # table ids 1 and 11 must not mix: hand:table:1: vs hand:table:11:
        t11 = table_row(store, f"x{_}")
    assert t11 >= 11
    ledger = SqlLedger(store)
    ledger.post_sync(grant(f"user:{ann}", 1000, "grant:start:ann"))
    ledger.post_sync(
        Transaction.of(
            f"buyin:table:{t1}",
            "buy_in",
            {
                f"user:{ann}": -110,
                "system:bots": -100,
                f"escrow:table:{t1}:p0": 100,
                f"escrow:table:{t1}:p1": 100,
                "system:fees": 10,
            },
            "in",
        )
    )
    ledger.post_sync(
        Transaction.of(
            f"hand:table:{t1}:0",
            "settle",
            {f"escrow:table:{t1}:p0": 24, f"escrow:table:{t1}:p1": -24},
            "h0",
        )
    )
    ledger.post_sync(
        Transaction.of(
            f"hand:table:{t11}:0",
            "settle",
            {f"escrow:table:{t11}:p0": 5, "system:bots": -5},
            "other",
        )
    )
    release = {
        f"escrow:table:{t1}:p0": -124,
        f"user:{ann}": 124,
        f"escrow:table:{t1}:p1": -76,
        "system:bots": 76,
    }
    ledger.post_sync(Transaction.of(f"release:table:{t1}", "release", release, "out"))
    history = SqlHistory(store)
    got = history.ledger_lines(t1)
    assert [x.key for x in got] == [
        f"buyin:table:{t1}",
        f"hand:table:{t1}:0",
        f"release:table:{t1}",
    ]
    assert (f"user:{ann}", -110) in got[0].rows
    series = history.jade_series(ann)
    # the buy-in draws no dip: the stake stays the player's until the release, which shows the
    # match's net with the fee (issue 30: the chart drew a buy-in as a loss and a recovery)
    assert series.balances == [1000, 1014]
    assert series.first_at is not None and series.last_at is not None
    assert series.first_at <= series.last_at
    assert history.jade_series(bo).balances == []


def test_a_table_keeps_its_hands_with_their_lines_and_after_a_restore(
    store: Store, tmp_path: Path
) -> None:
    """The real write path: an online table on the SQL store plays a one-hand match; the hand
    rows come with the end line, the match and its rating with the footer. Rows lost (as from a
    version before the history) are kept again from the log when the table is rebuilt; the rest
    is not kept twice."""
    [ann] = users(store, "ann")
    tables = SqlTableStore(store)

    async def play() -> Table:
        clock = FakeClock()
        config = TableConfig.of(
            "online", get_preset("parlor"), length="one-hand", clocks=FAST,
            bots=(None, "easy", "easy", "easy"),
        )  # fmt: skip
        table = await Table.create(tables, config, creator=(ann, "ann"), clock=clock)
        await table.start()
        c = Client(table, 0)
        c.connect()
        for _ in range(400):
            await settle(table, clock, 0.7)
            if table.status != "playing":
                break
            prompt = c.open_prompt()
            if prompt is not None:
                kinds = {i["kind"]: i["action"] for i in prompt["legal"]}
                pick = kinds.get("win") or kinds.get("pass")
                if pick is None:
                    pick = [i["action"] for i in prompt["legal"] if i["kind"] == "discard"][-1]
                c.send({"t": "act", "action": pick, "v": prompt["v"], "id": "x"})
        await table.stop()
        return table

    table = asyncio.run(play())
    assert table.status == "finished"
    history = SqlHistory(store)
    assert history.tally(ann).hands == 1 and hands_kept(store, table.id) == 1
    [line], _ = history.hands(ann)
    log = asyncio.run(tables.lines(table.id))
    assert '"t":"end"' in log[line.detail["end_seq"]]
    assert history.ratings(ann)[0][2] == 1
    with store.session() as s:
        s.execute(delete(HandFan))
        s.execute(delete(HandResultRow))
        s.execute(delete(HandDetail))
    row = asyncio.run(tables.get(table.id))
    assert row is not None
    asyncio.run(Table.restore(tables, row))
    assert history.tally(ann).hands == 1 and hands_kept(store, table.id) == 1
    assert history.ratings(ann)[0][2] == 1  # the match was kept: its rating is not moved again
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(MatchResultRow)) == 4


def test_a_history_failure_never_stops_the_log(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history is kept in a savepoint of the log's transaction: if keeping it fails half way,
    what it wrote is rolled back and the record lines are still committed (the game goes on)."""
    ann, bo = users(store, "ann", "bo")
    t = table_row(store)
    import hkmahjong.server.store.tables as tables_module

    def half_then_fail(*args: object, **kw: object) -> int:
        keep_results(*args, **kw)  # type: ignore[arg-type]
        raise RuntimeError("a bug in the history")

    monkeypatch.setattr(tables_module, "keep_results", half_then_fail)
    tables = SqlTableStore(store)
    asyncio.run(tables.append(t, 0, ["line 0"], TableResults(facts(ann, bo), tuple(HANDS))))
    assert asyncio.run(tables.lines(t)) == ["line 0"]
    assert hands_kept(store, t) == 0
    monkeypatch.undo()
    asyncio.run(tables.append(t, 1, ["line 1"], TableResults(facts(ann, bo), tuple(HANDS))))
    assert hands_kept(store, t) == 6


def _play_one_hand(store: Store, user: tuple[int, str]) -> Table:
    """An online one-hand match on the SQL store: the user and three easy bots, to its end."""
    tables = SqlTableStore(store)

    async def play() -> Table:
        clock = FakeClock()
        config = TableConfig.of(
            "online", get_preset("parlor"), length="one-hand", clocks=FAST,
            bots=(None, "easy", "easy", "easy"),
        )  # fmt: skip
        table = await Table.create(tables, config, creator=user, clock=clock)
        await table.start()
        c = Client(table, 0)
        c.connect()
        for _ in range(400):
            await settle(table, clock, 0.7)
            if table.status != "playing":
                break
            prompt = c.open_prompt()
            if prompt is not None:
                kinds = {i["kind"]: i["action"] for i in prompt["legal"]}
                pick = kinds.get("win") or kinds.get("pass")
                if pick is None:
                    pick = [i["action"] for i in prompt["legal"] if i["kind"] == "discard"][-1]
                c.send({"t": "act", "action": pick, "v": prompt["v"], "id": "x"})
        await table.stop()
        return table

    table = asyncio.run(play())
    assert table.status == "finished"
    return table


_HISTORY = (HandDetail, HandResultRow, HandFan, MatchResultRow, RatingRow)
_NOT_COMPARED = {"id", "at", "updated_at"}  # made when kept (a backfill keeps the log's time)


def _history_rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    out = {}
    with store.session() as s:
        for model in _HISTORY:
            cols = [c for c in model.__table__.columns if c.name not in _NOT_COMPARED]
            out[model.__tablename__] = sorted(
                (tuple(r) for r in s.execute(select(*cols)).all()), key=repr
            )
    return out


def test_admin_history_backfill_keeps_what_the_tables_left_once(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hkmj admin history backfill``: tables that ended before the history was kept get it from
    their logs — the same rows and ratings a live table leaves — and a second run changes
    nothing."""
    [ann] = users(store, "ann")
    first = _play_one_hand(store, (ann, "ann"))
    second = _play_one_hand(store, (ann, "ann"))
    kept = _history_rows(store)
    assert len(kept["match_results"]) == 8 and kept["ratings"]
    with store.session() as s:  # as before the history was kept
        for model in reversed(_HISTORY[:4]):
            s.execute(delete(model))
        s.execute(delete(RatingRow))
    assert SqlHistory(store).tally(ann).hands == 0
    done = backfill_history(store)
    assert (done.tables, done.rebuilt, done.hands, done.matches) == (2, 2, 2, 2)
    assert done.skipped == ()
    assert _history_rows(store) == kept  # the same hands, matches and ratings, in order
    assert hands_kept(store, first.id) == hands_kept(store, second.id) == 1
    again = backfill_history(store)
    assert (again.rebuilt, again.hands, again.matches) == (0, 0, 0)
    assert _history_rows(store) == kept
    url = store.engine.url.render_as_string(hide_password=False)
    assert main(["admin", "--db", url, "history", "backfill"]) == 0
    out = capsys.readouterr().out
    assert "0 hand(s) and 0 match(es) kept from 0 table(s) rebuilt of 2 over" in out
    assert _history_rows(store) == kept
