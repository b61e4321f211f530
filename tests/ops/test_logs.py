"""Structured logs (docs/operations.md, *Logs*): a whole hand played at debug level logs JSON
lines that name the table and the request, and never a tile any seat held concealed, a session
cookie, a CSRF token or the match seed."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path

from tests.ops.conftest import Seat, guest_table, start_server

from hkmahjong.engine.record import iter_records, replay
from hkmahjong.parlor.probes import current_player, current_table
from hkmahjong.server.logs import QUIET, HumanFormatter, JsonFormatter, configure, scrub
from hkmahjong.tiles import Wind

TILES = re.compile(r"(?<![A-Za-z0-9])([1-9]+)([mpszf])(?![A-Za-z0-9])")


def _concealed_tiles(record_text: str) -> set[str]:
    """Every tile any seat held concealed at any step of the record (from a replay)."""
    held: set[str] = set()
    for record in iter_records(record_text.splitlines()):
        for step in replay(record):
            for wind in Wind:
                held.update(str(t) for t in step.state.hand_of(wind).concealed)
    return held


def test_a_played_hand_logs_json_with_no_hidden_tile_and_no_secret(
    tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    served = start_server(
        tmp_path / "data", "--log-format", "json", env={"HKMJ_LOG_LEVEL": "debug"}
    )
    try:
        http, cookie, table = guest_table(served.url)
        csrf = http.get("/api/me").json()["csrf"]
        echoed = http.get("/healthz", headers={"X-Request-ID": "ops-probe-1"})
        assert echoed.headers["x-request-id"] == "ops-probe-1"
        made = http.get("/healthz", headers={"X-Request-ID": "bad id with spaces"})
        assert re.fullmatch(r"[0-9a-f]{16}", made.headers["x-request-id"])
        seat = seat_at(served.url, table, cookie)
        seat.play(until="match_end")
        record = http.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        http.close()
    finally:
        assert served.stop() == 0
    lines = served.stderr.read_text(encoding="utf-8").splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert len(entries) > 20
    for e in entries:
        assert {"ts", "level", "logger", "event", "msg"} <= set(e), e
    assert any(e["level"] == "debug" for e in entries)  # the level took effect
    mine = [e for e in entries if e.get("table") == table]
    assert any("hand 0 started" in e["msg"] for e in mine), mine
    assert any("match finished" in e["msg"] for e in mine)
    access = [e for e in entries if e["logger"] == "hkmahjong.access"]
    assert any(e.get("request_id") == "ops-probe-1" and e["route"] == "/healthz" for e in access)
    assert any(e["route"] == "/api/tables" and e["status"] == 200 for e in access)
    held = _concealed_tiles(record.text)
    assert len(held) > 20
    text = "\n".join(lines)
    session = cookie.split("hkmj_session=", 1)[1].split(";")[0]
    seed = json.loads(record.text.splitlines()[-1])["seed"]
    for secret in (session, csrf, seed, "ops-test-secret"):
        assert secret not in text
    for line in lines:
        shown = {d + suit for digits, suit in TILES.findall(line) for d in digits}
        assert not shown & held, line
        assert "Tile." not in line, line


def test_formats_and_scrubbing() -> None:
    record = logging.LogRecord(
        "hkmahjong.test", logging.WARNING, __file__, 1,
        "login for %s with cookie hkmj_session=%s", ("ann", "abc123secret"), None,
    )  # fmt: skip
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "login for ann with cookie hkmj_session=***"
    assert line["event"] == "login for %s with cookie hkmj_session=***"
    assert line["level"] == "warning" and line["ts"].endswith("Z")
    assert "abc123secret" not in HumanFormatter().format(record)
    table, player = current_table.set("tQk7P2xv"), current_player.set(12)
    try:  # inside a table's actor, handling a person's message
        inside = json.loads(JsonFormatter().format(record))
    finally:
        current_table.reset(table)
        current_player.reset(player)
    assert inside["table"] == "tQk7P2xv" and inside["player"] == 12
    assert "table" not in line and "player" not in line
    assert scrub("Authorization: Bearer abc.def") == "Authorization: Bearer ***"
    assert scrub('{"password": "hunter22"}') == '{"password": "***"}'
    stream = io.StringIO()
    names = ["", *QUIET, "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"]
    saved = {
        n: (lg.level, list(lg.handlers), lg.propagate)
        for n, lg in ((n, logging.getLogger(n)) for n in names)
    }
    configure("info", "auto", stream)  # not a terminal: JSON
    try:
        logging.getLogger("hkmahjong.test").info("hello %d", 1)
        logging.getLogger("websockets.server").debug('> TEXT \'{"concealed": ["5m"]}\'')
        assert json.loads(stream.getvalue())["msg"] == "hello 1"
        assert logging.getLogger("websockets").getEffectiveLevel() >= logging.INFO
    finally:  # the logging of this test process as it was
        for name, (level, handlers, propagate) in saved.items():
            logger = logging.getLogger(name)
            logger.setLevel(level)
            logger.handlers[:] = handlers
            logger.propagate = propagate
