"""The tables' sockets as ``hkmj serve`` serves them: natively on the websocket protocol
(hkmahjong.server.wsframes), over a real TCP socket — the same checks and messages as the
in-process tests of test_table_ws.py, which run through ASGI."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bench.serving import start_serve
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from hkmahjong.server.wsframes import ParlorWebSocketProtocol


@contextlib.contextmanager
def _serve(data: Path) -> Iterator[str]:
    """``hkmj serve`` on ``data`` (a free loopback port): its URL; stopped by SIGINT at the end
    (the address read with a timeout, :mod:`bench.serving`)."""
    env = {
        "HKMJ_SECRET": "native-test-secret-0123456789",
        "HKMJ_TABLE_CLOCKS": json.dumps({"bot_ms": 0, "discard_delay_ms": 0}),
    }
    with start_serve(data, env=env, timeout=120) as served:
        yield served.url


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with _serve(tmp_path_factory.mktemp("native") / "data") as url:
        yield url


def guest_with_table(url: str) -> tuple[str, str]:
    """A new guest's session cookie and a practice table of theirs (one hand, three bots)."""
    with httpx.Client(base_url=url, timeout=60) as http:
        token = http.get("/api/me").json()["csrf"]
        r = http.post("/guest", data={"csrf": token})
        assert r.status_code in (200, 303), r.text
        token = http.get("/api/me").json()["csrf"]
        r = http.post(
            "/api/tables",
            json={
                "kind": "practice",
                "rules": {"preset": "ml"},
                "length": "one-hand",
                "bots": ["easy", "easy", "easy"],
            },
            headers={"X-CSRF-Token": token},
        )
        assert r.status_code == 200, r.text
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        return cookie, str(r.json()["id"])


def ws_url(url: str, path: str) -> str:
    return "ws" + url.removeprefix("http") + path


def read_until(ws: ClientConnection, kind: str, limit: int = 500) -> list[dict[str, Any]]:
    out = []
    for _ in range(limit):
        msg = json.loads(ws.recv(timeout=60))
        out.append(msg)
        if msg["t"] == kind:
            return out
    raise AssertionError(f"no {kind} in {out[-5:]}")


def close_code(ws: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed):
        while True:
            ws.recv(timeout=60)
    rcvd = ws.protocol.close_rcvd
    return None if rcvd is None else rcvd.code


def test_a_seat_plays_over_the_native_socket(served: str) -> None:
    cookie, table = guest_with_table(served)
    with connect(ws_url(served, f"/ws/table/{table}"), additional_headers={"Cookie": cookie}) as ws:
        ws.send('{"t":"hello","proto":1}')
        snap = read_until(ws, "snapshot")[-1]
        assert snap["table"]["you"] == 0
        prompt = read_until(ws, "prompt")[-1]
        act = {"t": "act", "action": prompt["legal"][0]["action"], "v": prompt["v"], "id": "n1"}
        ws.send(json.dumps(act))
        done = read_until(ws, "done")[-1]
        assert done["prompt"] == prompt["v"] and done["by"] == "you" and done["ref"] == "n1"
        # versions go up one by one: a reconnect can resync from any of them
        later = read_until(ws, "prompt")
        versions = [m["v"] for m in later if "v" in m]
        assert versions == list(range(done["v"] + 1, done["v"] + 1 + len(versions)))
        # too many messages at once: refused at the rate limit, to the sender only
        for _ in range(30):
            ws.send('{"t":"ping"}')
        kinds = [json.loads(ws.recv(timeout=60)) for _ in range(30)]
        assert any(m["t"] == "error" and m["code"] == "rate_limited" for m in kinds), kinds
    # the same seat again, resynced from a version it had (three before its last: the reconnect
    # ring keeps at least the last 16 messages; from version 0 a long run of bots' turns may
    # have gone past it, and a snapshot would come instead)
    last = max(m.get("v", 0) for m in [snap, prompt, done, *later, *kinds])
    since = max(0, last - 3)
    with connect(ws_url(served, f"/ws/table/{table}"), additional_headers={"Cookie": cookie}) as ws:
        ws.send(json.dumps({"t": "hello", "proto": 1, "since": since, "epoch": snap["epoch"]}))
        got = read_until(ws, "synced")
        assert [m["v"] for m in got[:-1]][:3] == [since + 1, since + 2, since + 3]


def test_refusals_and_spectators_over_the_native_socket(served: str) -> None:
    cookie, table = guest_with_table(served)
    path = ws_url(served, f"/ws/table/{table}")
    with connect(
        path, additional_headers={"Cookie": cookie, "Origin": "http://evil.example"}
    ) as ws:
        assert close_code(ws) == 4403
    with connect(ws_url(served, "/ws/table/nope")) as ws:
        assert close_code(ws) == 4404
    with connect(path) as ws:  # nobody's session: a spectator of a table that is not private
        ws.send('{"t":"hello","proto":1}')
        snap = read_until(ws, "snapshot")[-1]
        assert snap["table"]["you"] is None
        ws.send('{"t":"act","action":"pass","v":1}')
        assert read_until(ws, "error")[-1]["code"] == "not_seated"


def test_other_sockets_still_go_through_asgi() -> None:
    native = ParlorWebSocketProtocol.serving(_Only("/ws/table/"))
    assert native.native is not None and native.native.wants("/ws/table/abc?invite=x")
    assert not native.native.wants("/ws/lobby")


class _Only:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def wants(self, path: str) -> bool:
        return path.startswith(self.prefix)

    def open(self, frames: Any, request: Any) -> None:
        return None


async def _upgraded(
    factory: Callable[[], asyncio.Protocol], path: str
) -> tuple[asyncio.Server, asyncio.StreamWriter]:
    """A loopback server of ``factory``'s protocols and one client connection to it, upgraded to
    a websocket at ``path`` (the 101 read)."""
    server = await asyncio.get_running_loop().create_server(factory, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".encode()
        + b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    assert b"101" in await reader.readline()  # upgraded
    return server, writer


def test_an_upgraded_http_protocol_is_freed_without_the_garbage_collector() -> None:
    """``ParlorHttpProtocol``: once a connection is upgraded to a websocket, nothing holds its
    HTTP protocol in a cycle (uvicorn's parser and protocol hold each other until the
    connection is lost, which an upgraded HTTP protocol never hears): with the collector off,
    reference counting alone frees it (under the heap keeper a cycle would wait for a sweep)."""
    import gc
    import weakref

    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    from hkmahjong.server.wsframes import ParlorHttpProtocol

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await receive()

    async def run(cls: type[HttpToolsProtocol]) -> bool:
        config = Config(app, ws="websockets-sansio", http=cls, lifespan="off", log_level="error")
        config.load()
        state = ServerState()
        made: list[weakref.ref[HttpToolsProtocol]] = []

        def factory() -> HttpToolsProtocol:
            protocol = cls(config=config, server_state=state, app_state={})
            made.append(weakref.ref(protocol))
            return protocol

        server, writer = await _upgraded(factory, "/ws")
        await asyncio.sleep(0.1)
        freed = len(made) == 1 and made[0]() is None
        writer.close()
        server.close()
        for task in state.tasks:
            task.cancel()
        await asyncio.sleep(0.1)
        return freed

    gc.collect()
    gc.disable()
    try:
        assert asyncio.run(run(ParlorHttpProtocol))
        assert not asyncio.run(run(HttpToolsProtocol))  # uvicorn's own leaves the cycle
    finally:
        gc.enable()


def test_the_native_connection_reads_the_wire_as_websockets_requires(served: str) -> None:
    """After the handshake a table socket is a :class:`NativeConnection`: a message in
    fragments arrives whole, a ping is answered, text that is not UTF-8 closes with 1007, a
    frame over the size limit with 1009, and a close is answered."""
    from websockets.frames import Frame, Opcode

    cookie, table = guest_with_table(served)
    path = ws_url(served, f"/ws/table/{table}")
    headers = {"Cookie": cookie}
    with connect(path, additional_headers=headers) as ws:
        # a hello in three fragments
        ws.send(iter(['{"t":"hel', 'lo","pr', 'oto":1}']))
        assert read_until(ws, "snapshot")[-1]["table"]["you"] == 0
        pong = ws.ping(b"abcd")
        assert pong.wait(30)
    with connect(path, additional_headers=headers) as ws:  # before its hello: a quiet socket
        ws.close(1000, "bye")
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1000
    with connect(path, additional_headers=headers) as ws:
        with ws.protocol_mutex:
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe not utf-8"))
            ws.send_data()
        assert close_code(ws) == 1007
    with connect(path, additional_headers=headers, max_size=None) as ws:
        ws.send("x" * (64 * 1024 + 1))  # hkmj serve's ws_max_size is 64 KiB
        assert close_code(ws) == 1009


def test_the_server_closes_native_sockets_with_1012_when_it_stops(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """uvicorn's shutdown reaches a native connection (``NativeConnection.shutdown``)."""
    stop = contextlib.ExitStack()
    url = stop.enter_context(_serve(tmp_path_factory.mktemp("stops") / "data"))
    cookie, table = guest_with_table(url)
    with connect(ws_url(url, f"/ws/table/{table}"), additional_headers={"Cookie": cookie}) as ws:
        ws.send('{"t":"hello","proto":1}')
        read_until(ws, "snapshot")
        stop.close()  # SIGINT: the server stops
        assert close_code(ws) == 1012


@pytest.mark.parametrize("parlor_http", [True, False])
def test_a_native_socket_is_a_native_connection_to_its_end(parlor_http: bool) -> None:
    """Behind ``ParlorHttpProtocol`` a native socket's transport belongs to its
    ``NativeConnection`` (uvicorn hands the transport to its websocket protocol only after that
    protocol read the handshake: the successor must get it back), uvicorn's websocket protocol
    object is freed by reference counting, messages reach the handler, and the handler hears of
    the connection's end. Behind another HTTP protocol (uvicorn's own), which gives the transport
    back to uvicorn's websocket protocol object, that object passes everything on: the handler
    still hears the messages and the end."""
    import gc
    import weakref

    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    from hkmahjong.server.wsframes import NativeConnection, ParlorHttpProtocol

    heard: list[object] = []

    class Handler:
        def message(self, data: str | bytes) -> None:
            heard.append(data)

        def ended(self) -> None:
            heard.append("ended")

    class Endpoint(_Only):
        def open(self, frames: Any, request: Any) -> Any:
            heard.append(frames)
            return Handler()

    async def app(scope: Any, receive: Any, send: Any) -> None:  # never reached
        raise AssertionError(scope)

    async def run() -> tuple[bool, Any]:
        ws_class = ParlorWebSocketProtocol.serving(Endpoint("/ws/table/"))
        config = Config(app, ws=ws_class, http=ParlorHttpProtocol, lifespan="off")
        config.load()
        state = ServerState()
        made: list[weakref.ref[Any]] = []
        transports: list[Any] = []

        base: type[HttpToolsProtocol] = ParlorHttpProtocol if parlor_http else HttpToolsProtocol

        class Http(base):  # type: ignore[valid-type,misc]
            def connection_made(self, transport: Any) -> None:
                transports.append(transport)
                super().connection_made(transport)

        original = ws_class.__init__

        def tracked(self: Any, *args: Any, **kw: Any) -> None:
            original(self, *args, **kw)
            made.append(weakref.ref(self))

        ws_class.__init__ = tracked  # type: ignore[method-assign]

        server, writer = await _upgraded(
            lambda: Http(config=config, server_state=state, app_state={}), "/ws/table/abc"
        )
        await asyncio.sleep(0.1)
        protocol = transports[0].get_protocol()
        freed = len(made) == 1 and made[0]() is None
        parser = weakref.ref(protocol.conn.parser)  # a generator holding the protocol: a cycle
        if not parlor_http and not isinstance(protocol, NativeConnection):
            # uvicorn releases that set the websocket protocol as the transport's after its
            # handshake (undoing the hand-over) leave it there: it passes all on to its successor
            assert protocol.successor is not None
            protocol = protocol.successor
        writer.write(bytes([0x81, 0x82, 1, 2, 3, 4, ord("h") ^ 1, ord("i") ^ 2]))  # masked "hi"
        await asyncio.sleep(0.1)
        writer.close()
        await asyncio.sleep(0.2)
        server.close()
        gen = parser()  # closed: its frame, which held the protocol object, is gone
        assert gen is None or gen.gi_frame is None, "the ended connection's parser holds it"
        return freed, protocol

    gc.collect()
    gc.disable()
    try:
        freed, protocol = asyncio.run(run())
    finally:
        gc.enable()
    assert isinstance(protocol, NativeConnection)
    assert heard[0] is protocol  # the endpoint writes through it
    assert heard[1:] == ["hi", "ended"]
    assert freed or not parlor_http, "uvicorn's websocket protocol object outlived the handshake"
