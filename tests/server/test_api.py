"""``POST /api/score`` and ``POST /api/shanten``: the batch JSON (docs/calculator.md, *Batches*) over HTTP, the same
answers as ``hkmj score --jsonl`` / ``hkmj shanten --jsonl``, clear errors, bounded input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hkmahjong.hand.batch import analyse_json
from hkmahjong.rules import get_preset
from hkmahjong.scoring.batch import CONTEXT_KEYS, BatchRules, score_request

EXAMPLE: dict[str, Any] = {
    "id": "case-7",
    "hand": {
        "concealed": "234m44466p",
        "melds": [
            {"type": "pung", "tiles": "111s", "exposed": True},
            {"type": "kong", "tiles": "7777z", "exposed": False},
        ],
        "winning_tile": "6p",
    },
    "context": {
        "self_drawn": False,
        "seat_wind": "S",
        "prevailing_wind": "E",
        "flowers": ["2f", "2g"],
        "special": ["last_tile"],
        "winner_seat": "S",
        "discarder_seat": "E",
    },
    "rules": "parlor",
}


def test_score_answers_the_batch_formats_example(client: TestClient) -> None:
    """docs/calculator.md's batch format example: 中 + 海底炮 + 正花 = 4 fan, E pays S 24 (parlor, seed 003)."""
    response = client.post("/api/score", json=EXAMPLE)
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == "case-7" and body["valid_win"] is True and body["total_fan"] == 4
    assert [item["zh"] for item in body["items"]] == ["中", "海底炮", "正花"]
    assert body["payment"]["settlement"] == {"S": 24, "E": -24, "W": 0, "N": 0}
    assert body == score_request(EXAMPLE, get_preset("parlor"), BatchRules())


LANDED = "preset = 'parlor'\n[payment]\nlanded = true\nlanded_half_discard = true\n"
ALL_CHOWS = {"concealed": "123m456p789s234m55s"}  # 平糊 門前清 無花 = 3 fan, share 4 (P)


def test_score_takes_the_calculators_liable_half_discard(client: TestClient) -> None:
    """docs/rules.md §10, C 落地 "亦需要包出銃者一半分數": the API knows every context key of the
    calculator (scoring.batch.CONTEXT_KEYS): N, liable, pays half of E's 12 on a discard."""
    ctx = {"winner_seat": "S", "discarder_seat": "E", "liable_seat": "N"}
    line = {
        "id": 1,
        "hand": ALL_CHOWS,
        "context": ctx | {"liable_half_discard": True},
        "rules": LANDED,
    }
    response = client.post("/api/score", json=line)
    assert response.status_code == 200, response.text
    assert response.json()["payment"]["settlement"] == {"E": -6, "S": 12, "W": 0, "N": -6}
    assert response.json() == score_request(line, get_preset("parlor"), BatchRules())
    whole = client.post("/api/score", json={**line, "context": ctx}).json()
    assert whole["payment"]["settlement"] == {"E": 0, "S": 12, "W": 0, "N": -12}
    drawn = {
        **line,
        "context": {"winner_seat": "S", "self_drawn": True, "liable_half_discard": True},
    }
    refused = client.post("/api/score", json=drawn)
    assert refused.status_code == 422 and "liable_half_discard" in refused.json()["error"]


def test_the_score_schema_has_every_context_key_of_the_calculator(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["paths"]["/api/score"]["post"]["requestBody"]
    context = schema["content"]["application/json"]["schema"]["properties"]["context"]
    props = next(c for c in context["anyOf"] if c.get("type") == "object")["properties"]
    assert set(props) == set(CONTEXT_KEYS)


def test_a_hand_that_is_not_a_win_is_still_200_with_its_reason(client: TestClient) -> None:
    body = client.post("/api/score", json={"hand": {"concealed": "123m456p789s1234z5z"}}).json()
    assert body["valid_win"] is False and body["reason"]
    bad = client.post("/api/score", json={"hand": {"concealed": "12x"}})
    assert bad.status_code == 200 and bad.json()["reason"] == "bad_notation"


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        (
            {"hand": {"concealed": "123m456p789s11z", "melds": [{"type": "trio"}]}},
            "hand.melds.0.type",
        ),
        ({**EXAMPLE, "rules": "/etc/passwd"}, "not a preset"),
        ({**EXAMPLE, "context": {"seat_wind": "X"}}, "seat_wind"),
        ({**EXAMPLE, "colour": "red"}, "colour: Extra inputs are not permitted"),
        ([1, 2], "body: Input should be"),
    ],
)
def test_malformed_requests_get_422_naming_the_field(
    client: TestClient, payload: object, needle: str
) -> None:
    response = client.post("/api/score", json=payload)
    assert response.status_code == 422
    assert needle in response.json()["error"]


def test_bodies_that_are_not_json_or_too_deep_or_too_big(client: TestClient) -> None:
    bad = client.post(
        "/api/score", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 422 and "not valid JSON" in bad.json()["error"]
    deep = client.post("/api/score", content=b"[" * 5000 + b"]" * 5000)
    assert deep.status_code == 422 and "nested" in deep.json()["error"]
    huge = client.post("/api/score", json={"hand": {"concealed": "1m" * 40_000}})
    assert huge.status_code == 413


def test_shanten_answers_as_the_batch_does(client: TestClient) -> None:
    line = {"id": "h1", "hand": "123m456p789s1234z"}
    response = client.post("/api/shanten", json=line)
    assert response.status_code == 200
    body = response.json()
    assert body == {"id": "h1", **analyse_json(line)}
    assert body["shanten"] == 2 and body["waits"] == []
    ready = client.post("/api/shanten", json={"hand": "123m456p789s1122z"}).json()
    assert ready["shanten"] == 0 and sorted(ready["waits"]) == ["1z", "2z"]


def test_shanten_seven_pairs_is_a_query_switch(client: TestClient) -> None:
    pairs = {"hand": "1122m3344p5566s7z"}
    assert client.post("/api/shanten", json=pairs).json()["shanten"] > 0
    body = client.post("/api/shanten?seven_pairs=true", json=pairs).json()
    assert body["shanten"] == 0 and body["seven_pairs"] == 0


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({"hand": "123m"}, "impossible hand"),
        ({"hand": 5}, "hand"),
        ({"hand": "123m456p789s1234z", "extra": 1}, "extra: Extra inputs"),
        ({"hand": "1m" * 100}, "hand: String should have at most 128"),
    ],
)
def test_shanten_errors(client: TestClient, payload: object, needle: str) -> None:
    response = client.post("/api/shanten", json=payload)
    assert response.status_code == 422
    assert needle in response.json()["error"]


def test_user_text_in_errors_is_json_never_html(client: TestClient) -> None:
    response = client.post("/api/score", json={"id": "<script>alert(1)</script>", "hand": 5})
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert json.loads(response.text)["id"] == "<script>alert(1)</script>"


def test_openapi_documents_both_operations(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/score", "/api/shanten"):
        op = paths[path]["post"]
        assert "requestBody" in op and {"200", "422"} <= set(op["responses"])
