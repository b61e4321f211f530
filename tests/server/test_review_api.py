"""覆盤 through the app (issue 37, web part): ``/api/review/{id}/{hand}`` reviews a finished hand
for one seat, in a worker process, for whoever may read the table's record — the same review as
``hkmj review``; never a hand being played; bad requests say what is wrong."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from tests.server.test_replay_watch import app_client, register, stored_table

from hkmahjong.bots.review import ReviewConfig, review_hand
from hkmahjong.server import replays as replays_module

__all__ = ["app_client"]  # the fixture, shared with the replay tests


def test_review_api_by_who_looks(app_client: TestClient) -> None:
    users = [register(app_client, f"rev{i}") for i in range(4)]
    public, record = stored_table(app_client, users)
    replays_module._reviews.clear()
    # player rev3 (logged in last) gets their own seat by default
    r = app_client.get(f"/api/review/{public}/0?budget=1")
    assert r.status_code == 200, r.text
    data = r.json()
    assert (
        data["player"] == 3
        and data["decisions"]
        and data["seat"] == "ESWN"[(3 - record.hands[0].dealer) % 4]
    )
    want = review_hand(record, 0, 3, ReviewConfig(budget=1)).to_json()
    # the CLI's review, from the worker process, and the settings it was made with
    assert data == {**json.loads(json.dumps(want)), "budget": 1, "z": 3.0}
    assert {"played", "best", "loss", "se", "verdict"} <= set(data["decisions"][0])
    # anyone may review any seat of a finished hand of a public table
    app_client.cookies.clear()
    west = app_client.get(f"/api/review/{public}/0?seat=W&budget=1").json()
    assert west["seat"] == "W"
    assert app_client.get(f"/api/review/{public}/0").status_code == 422  # whose? not said
    assert app_client.get(f"/api/review/{public}/0?seat=Q").status_code == 422
    assert app_client.get(f"/api/review/{public}/0?seat=E&budget=0").status_code == 422
    assert app_client.get(f"/api/review/{public}/0?seat=E&budget=99").status_code == 422
    assert app_client.get(f"/api/review/{public}/9?seat=E").status_code == 404
    assert app_client.get("/api/review/nope/0?seat=E").status_code == 404


def test_no_review_of_a_hand_being_played_or_of_a_private_table(app_client: TestClient) -> None:
    users = [register(app_client, f"cut{i}") for i in range(4)]
    replays_module._reviews.clear()
    public, _ = stored_table(app_client, users, cut=len(record_lines_to_second_hand()))
    # hand 0 ended, hand 1 is being played: hand 1 is not reviewed, even for its player
    r = app_client.get(f"/api/review/{public}/1?budget=1")
    assert r.status_code == 404 and "no finished hand 1" in r.text
    users = [register(app_client, f"hid{i}") for i in range(4)]
    table, _ = stored_table(app_client, users, private=True)
    register(app_client, "outsider")
    assert app_client.get(f"/api/review/{table}/0?seat=E&budget=1").status_code == 403


def record_lines_to_second_hand() -> list[str]:
    """The stored match's lines up to two actions into its second hand."""
    from hkmahjong.engine.match import Match, MatchLength
    from hkmahjong.engine.players import RandomPlayer, run_match
    from hkmahjong.engine.record import seed_from_text
    from hkmahjong.rules import get_preset

    players = [RandomPlayer(f"sr/{i}", win_bias=0.5) for i in range(4)]
    record = run_match(Match(length=MatchLength.OPEN, max_hands=2), get_preset("parlor"),
                       players, match_seed=seed_from_text("server-replays"))  # fmt: skip
    lines = record.dumps().splitlines()
    second = next(i for i, line in enumerate(lines) if '"t":"hand","hand":1' in line)
    return lines[: second + 3]
