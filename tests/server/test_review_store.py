"""覆盤 totals kept and charted (issue 37, "in the player's record page, accuracy over time"): a
review computed through ``/api/review`` leaves its totals in ``reviews`` (a user's hand the
history kept; never a bot's, never a hand it did not keep; a larger budget replaces a smaller);
the record page charts them without running a review; the replay's frames carry the decision's
``step`` once the hand is over; ``HKMJ_REVIEW_BUDGET`` sets the page's budget."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from tests.server.test_replay_watch import app_client, register, stored_table
from tests.server.test_review_api import record_lines_to_second_hand

from hkmahjong.bots.review import decision_points
from hkmahjong.parlor.environ import EnvNumberError
from hkmahjong.parlor.ports import SeatRow, TableRow
from hkmahjong.server import replays as replays_module
from hkmahjong.server.store import Store
from hkmahjong.server.store.models import HandResultRow, ParlorTable, ReviewRow, User
from hkmahjong.server.store.reviews import ReviewTotals, accuracy_series, keep_review
from hkmahjong.server.store.tables import SqlTableStore

__all__ = ["app_client"]

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _user(store: Store, name: str) -> int:
    with store.session() as s:
        u = User(name=name, is_guest=False, is_admin=False, lang="en")
        s.add(u)
        s.flush()
        return u.id


def _table(store: Store, public_id: str) -> int:
    row = TableRow(0, public_id, "online", "finished", {}, "d1", "00" * 32)
    return asyncio.run(SqlTableStore(store).create(row, [SeatRow(p) for p in range(4)]))


def _kept(store: Store, table_id: int, hand: int, owners: list[int | None], at: datetime) -> None:
    """The history's rows of one hand (what ``keep_results`` writes), for ``owners`` by player."""
    with store.session() as s:
        for p, user_id in enumerate(owners):
            s.add(
                HandResultRow(
                    table_id=table_id, hand=hand, player=p, user_id=user_id,
                    bot_level=None if user_id else "easy", kind="online", family="parlor",
                    digest="d1", seat="ESWN"[p], dealer=p == 0, won=False, self_drawn=False,
                    fed_by=None, dealt_in=False, fed_to="", false_win=False, drawn=True,
                    fan=None, is_limit=False, delta=0.0, liability_paid=0, at=at,
                )
            )  # fmt: skip


def test_totals_kept_for_a_users_hand_and_the_larger_budget_wins(store: Store) -> None:
    ann = _user(store, "ann")
    t = _table(store, "rs1")
    _kept(store, t, 0, [ann, None, None, None], T0 + timedelta(minutes=5))
    _kept(store, t, 1, [ann, None, None, None], T0)
    assert keep_review(store, t, 0, 0, ReviewTotals(2, 20, 15, 6.5, 2.0))
    assert not keep_review(store, t, 0, 1, ReviewTotals(2, 20, 20, 0.0, 0.0))  # a bot's seat
    assert not keep_review(store, t, 7, 0, ReviewTotals(2, 20, 20, 0.0, 0.0))  # not in history
    assert not keep_review(store, t, 1, 0, ReviewTotals(2, 0, 0, 0.0, None))  # nothing judged
    assert not keep_review(store, t, 0, 0, ReviewTotals(1, 20, 20, 0.0, 0.0))  # a smaller budget
    assert keep_review(store, t, 0, 0, ReviewTotals(6, 22, 11, 9.0, None))  # a larger one
    assert keep_review(store, t, 1, 0, ReviewTotals(6, 10, 9, 1.5, 1.0))
    with store.session() as s:
        rows = s.scalars(select(ReviewRow)).all()
        assert [(r.hand, r.player, r.budget, r.good, r.reviewed) for r in rows] == [
            (0, 0, 6, 11, 22),
            (1, 0, 6, 9, 10),
        ]
    series = accuracy_series(store, ann)
    # in the order the hands were played (hand 1's row is older), with its accuracy
    assert [(p.hand, p.accuracy, p.played_at) for p in series] == [
        (1, 0.9, T0),
        (0, 0.5, T0 + timedelta(minutes=5)),
    ]
    assert accuracy_series(store, ann, limit=1)[0].hand == 0  # the latest
    assert accuracy_series(store, ann + 99) == []


def test_totals_of_the_review_json() -> None:
    got = ReviewTotals.of_json(
        {"reviewed": 12, "verdicts": {"good": 9, "mistake": 3}, "loss": 7.25, "loss_se": None}, 6
    )
    assert got == ReviewTotals(6, 12, 9, 7.25, None)
    assert ReviewTotals.of_json({}, 1) == ReviewTotals(1, 0, 0, 0.0, None)


def _history_of_hand_0(client: TestClient, public_id: str, users: list[int]) -> None:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        table_id = s.scalars(select(ParlorTable.id).where(ParlorTable.public_id == public_id)).one()
    owners: list[int | None] = list(users)
    _kept(store, table_id, 0, owners, T0)


def test_a_review_leaves_its_totals_and_the_record_page_charts_them(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [register(app_client, f"acc{i}") for i in range(4)]
    public, record = stored_table(app_client, users)
    _history_of_hand_0(app_client, public, users)
    replays_module._reviews.clear()
    page = app_client.get("/players/acc3?lang=en").text
    none, chart = 'data-testid="accuracy-none"', 'data-testid="accuracy-chart"'
    assert none in page and chart not in page
    # the page's review (no budget asked): HKMJ_REVIEW_BUDGET's
    monkeypatch.setenv("HKMJ_REVIEW_BUDGET", "1")
    data = app_client.get(f"/api/review/{public}/0").json()
    assert data["budget"] == 1 and data["player"] == 3 and data["reviewed"] > 0
    page = app_client.get("/players/acc3?lang=en").text
    assert chart in page and none not in page
    good = data["verdicts"]["good"]
    share = f"{good / data['reviewed'] * 100:.1f}%"
    assert f"{good} of {data['reviewed']} decisions judged good ({share})" in page
    # another player's record has no review of theirs; a cached answer writes nothing again
    assert none in app_client.get("/players/acc0?lang=en").text
    store: Store = app_client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        s.execute(ReviewRow.__table__.delete())
    app_client.get(f"/api/review/{public}/0")
    assert none in app_client.get("/players/acc3?lang=en").text
    # the frames of the reviewed seat hold each decision's step: the seat to act there
    seat, points, _, _ = decision_points(record, 0, 3)
    frames = app_client.get(f"/api/replay/{public}/0?seat={seat.letter}").json()["frames"]
    by_step = {f["step"]: f for f in frames}
    for p in points:
        assert p.index in by_step and by_step[p.index]["view"]["seat"] == seat.letter
    assert [d["index"] for d in data["decisions"]] == [p.index for p in points]
    opened = app_client.get(f"/api/replay/{public}/0?seat=open").json()["frames"]
    assert [f["step"] for f in opened] == list(range(len(record.hands[0].actions) + 1))


def test_a_hand_being_played_has_no_steps(app_client: TestClient) -> None:
    """How many actions were taken would tell who had a claim to pass: no ``step`` then."""
    users = [register(app_client, f"stp{i}") for i in range(4)]
    lines = record_lines_to_second_hand()
    public, _ = stored_table(app_client, users, cut=len(lines) + 6)
    live = app_client.get(f"/api/replay/{public}/1").json()
    assert not live["over"] and live["frames"]
    assert all("step" not in f for f in live["frames"])
    assert all("step" in f for f in app_client.get(f"/api/replay/{public}/0").json()["frames"])


def test_a_bad_review_budget_setting_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HKMJ_REVIEW_BUDGET", "99")
    with pytest.raises(EnvNumberError, match="HKMJ_REVIEW_BUDGET"):
        replays_module.review_budget()
    monkeypatch.delenv("HKMJ_REVIEW_BUDGET")
    assert replays_module.review_budget() == replays_module.REVIEW_BUDGET


def test_a_review_is_answered_when_its_totals_cannot_be_kept(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [register(app_client, f"nok{i}") for i in range(4)]
    public, _ = stored_table(app_client, users)
    replays_module._reviews.clear()

    def broken(*_: object) -> bool:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(replays_module, "keep_review", broken)
    r = app_client.get(f"/api/review/{public}/0?budget=1")
    assert r.status_code == 200 and r.json()["decisions"]
