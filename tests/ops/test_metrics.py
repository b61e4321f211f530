"""``/metrics`` (docs/operations.md, *Metrics*): off by default; on the main port behind a bearer
token and on a loopback metrics port; scraped while a table is played, its counters move."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from tests.ops.conftest import (
    Seat,
    guest_table,
    pg_databases,
    register,
    scrape,
    start_server,
)

from hkmahjong.server.app import create_app
from hkmahjong.server.metrics import MetricsConfig
from hkmahjong.server.settings import Settings

TOKEN = "metrics-token-0123456789"


def test_metrics_are_off_unless_asked_for(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", secret="s" * 32)
    app = create_app(settings, metrics=MetricsConfig())
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/metrics").status_code == 404
        assert (
            client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404
        )
        assert app.state.metrics is None  # nothing counted either: no cost on the hot path
        assert "/metrics" not in client.get("/openapi.json").text


def test_a_token_guards_metrics_on_the_main_port(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", secret="s" * 32)
    app = create_app(settings, metrics=MetricsConfig(token=TOKEN))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/metrics").status_code == 401
        wrong = client.get("/metrics", headers={"Authorization": "Bearer " + "x" * len(TOKEN)})
        assert wrong.status_code == 401 and "Bearer" in wrong.headers["www-authenticate"]
        client.get("/healthz")
        client.get("/no/such/page/12345")
        ok = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200
        text = ok.text
        assert 'hkmj_http_requests_total{method="GET",route="/healthz",status="200"} 1.0' in text
        # an unknown path is counted under one label, never under its own (bounded cardinality)
        assert 'route="<unmatched>",status="404"' in text and "12345" not in text
        assert "hkmj_tables" in text and "process_resident_memory_bytes" in text


def test_settings_refuse_a_short_token_and_a_bad_port() -> None:
    import pytest

    from hkmahjong.server.settings import SettingsError

    with pytest.raises(SettingsError, match="HKMJ_METRICS_TOKEN"):
        MetricsConfig.from_env(env={"HKMJ_METRICS_TOKEN": "short"})
    with pytest.raises(SettingsError, match="HKMJ_METRICS_PORT"):
        MetricsConfig.from_env(env={"HKMJ_METRICS_PORT": "http"})
    assert not MetricsConfig.from_env(env={}).enabled


def test_scraped_while_a_table_plays_the_counters_move(
    tmp_path: Path, seat_at: Callable[[str, str, str], Seat]
) -> None:
    served = start_server(
        tmp_path / "data", "--metrics-port", "0", env={"HKMJ_METRICS_TOKEN": TOKEN}
    )
    try:
        announced = served.line("metrics:")
        assert announced is not None and announced.startswith("metrics: http://127.0.0.1:")
        port_url = announced.split(" ", 1)[1]
        main_url = served.url + "/metrics"
        assert httpx.get(main_url, timeout=10).status_code == 401
        before = scrape(port_url)
        register(served.url, "metric ann").close()  # the starting grant: a ledger transaction
        http, cookie, table = guest_table(served.url)
        seat = seat_at(served.url, table, cookie)
        during: list[dict[str, float]] = []

        def look(acted: int) -> None:
            if acted == 3:
                during.append(scrape(port_url))

        seat.play(on_act=look)
        after = scrape(main_url, {"Authorization": f"Bearer {TOKEN}"})
        http.close()
    finally:
        code = served.stop()
    assert code == 0
    assert during, "the hand ended before the person's third action"
    mid = during[0]
    # live state, read at the scrape
    assert mid['hkmj_tables{kind="practice",status="playing"}'] == 1
    assert mid['hkmj_sockets{kind="seat"}'] == 1
    assert mid['hkmj_seated_players{kind="human"}'] == 1
    assert mid['hkmj_seated_players{kind="bot"}'] == 3
    # counted as they happen: the person's actions, the bots' (auto), their latency and commits
    you = after['hkmj_actions_total{by="you"}']
    assert you >= seat.acted >= 3
    assert mid['hkmj_actions_total{by="you"}'] >= 2
    assert after['hkmj_actions_total{by="auto"}'] > mid['hkmj_actions_total{by="auto"}'] > 0
    acted = sum(v for k, v in after.items() if k.startswith("hkmj_actions_total"))
    assert after["hkmj_action_broadcast_seconds_count"] == acted
    assert 0 < after["hkmj_action_broadcast_seconds_sum"] < acted * 1.0
    assert after['hkmj_action_broadcast_seconds_bucket{le="+Inf"}'] == acted
    assert after["hkmj_log_commit_seconds_count"] >= acted + 1  # each action, and each hand start
    assert after['hkmj_bot_think_seconds_count{level="easy"}'] > 0
    # the writer thread's group commits carry the appends; a hand's end goes with its results
    appends = after["hkmj_log_writer_appends_total"]
    assert 0 < appends < after["hkmj_log_commit_seconds_count"]
    assert 0 < after["hkmj_log_writer_batches_total"] <= appends
    assert after['hkmj_ledger_transactions_total{result="posted"}'] >= 1
    assert before.get('hkmj_ledger_transactions_total{result="posted"}', 0) == 0
    assert after["hkmj_heap_keeper_tick_seconds_count"] > 0
    posts = 'hkmj_http_requests_total{method="POST",route="/api/tables",status="200"}'
    assert after[posts] == 1
    assert after['hkmj_http_requests_total{method="POST",route="/register",status="303"}'] == 1


def test_a_cluster_process_reports_its_cluster_metrics(tmp_path: Path) -> None:
    """Several processes (docs/deploy.md): the cluster's own metrics, read from a real process
    joined to the local PostgreSQL and Redis."""
    from hkmahjong.server.cluster.node import ClusterConfig

    with pg_databases(1) as (url,):
        settings = Settings(data_dir=tmp_path / "data", db_url=url, secret="s" * 32)
        config = ClusterConfig(
            "redis://127.0.0.1:6379/0", f"hkmj-ops-{tmp_path.name}", 2.0, "ops-a"
        )
        app = create_app(settings, cluster=config, metrics=MetricsConfig(token=TOKEN))
        with TestClient(app, base_url="http://127.0.0.1") as client:
            token = client.get("/api/me").json()["csrf"]
            client.post("/guest", data={"csrf": token}, follow_redirects=False)
            token = client.get("/api/me").json()["csrf"]
            body = {"kind": "practice", "rules": {"preset": "ml"}, "length": "one-hand",
                    "bots": ["easy"] * 3}  # fmt: skip
            made = client.post("/api/tables", json=body, headers={"X-CSRF-Token": token})
            assert made.status_code == 200, made.text
            text = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    for name in (
        "hkmj_cluster_takeovers_total 0.0",
        "hkmj_cluster_tables_lost_total 0.0",
        "hkmj_cluster_live_tables 1.0",
        "hkmj_cluster_leader",
        "hkmj_cluster_relayed_frames_sent_total",
        'hkmj_sockets{kind="relayed_out"} 0.0',
    ):
        assert name in text, name


def test_the_metrics_port_answers_metrics_only() -> None:
    import asyncio

    from hkmahjong.server.metrics import MetricsPort, ParlorMetrics

    async def ask(port: int, request: bytes) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        await writer.drain()
        answer = await reader.read()
        writer.close()
        return answer

    async def main() -> None:
        counted = ParlorMetrics()
        counted.action("you", 0.003)
        listener = MetricsPort(counted, "127.0.0.1", 0)
        port = await listener.start()
        try:
            ok = await ask(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            assert ok.startswith(b"HTTP/1.0 200 OK") and b'hkmj_actions_total{by="you"} 1.0' in ok
            missing = await ask(port, b"GET /admin HTTP/1.1\r\n\r\n")
            assert missing.startswith(b"HTTP/1.0 404")
            junk = await ask(port, b"\x16\x03\x01 not http at all\r\n\r\n")
            assert junk.startswith(b"HTTP/1.0 404")
            head = await ask(port, b"HEAD /metrics HTTP/1.1\r\n\r\n")
            assert head.startswith(b"HTTP/1.0 200") and b"hkmj_actions" not in head
        finally:
            await listener.stop()

    asyncio.run(main())
