"""The ASGI side of ``hkmahjong.server.wsframes`` on uvicorn itself: a websocket that an ASGI app
accepted writes its frames through the ``hkmj.frames`` extension (:class:`FrameWriter`), which
reads and drives uvicorn's websocket protocol object directly (its handshake and close flags,
close timer and timeout, receive queue, paused reading). These are uvicorn internals, not its
API: this test fails on a uvicorn without them (0.52.0 has no ``disconnected``, ``close_timer``
or ``close_timeout``), and ``make min-versions`` runs it on the lowest versions pyproject.toml
admits. The native table sockets are tested in test_native_ws.py."""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hkmahjong.server.wsframes import EXTENSION, FrameWriter, ParlorWebSocketProtocol


def test_an_asgi_websocket_writes_and_closes_through_the_frame_writer() -> None:
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from hkmahjong.server.wsframes import ParlorHttpProtocol

    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        frames = scope["extensions"][EXTENSION]
        seen["writer"] = type(frames)
        seen["open_before"] = frames.open
        seen["wrote"] = frames.write(["one", "two " * 100, "three " * 20_000])  # 7-bit, 16, 64 bit
        seen["unsent"] = frames.unsent()
        seen["from_client"] = (await receive()).get("text")
        frames.close(4000, "done")
        seen["open_after"] = frames.open
        seen["wrote_after"] = frames.write(["too late"])
        seen["disconnect"] = (await receive())["type"]

    async def run() -> tuple[list[str], int | None]:
        config = Config(
            app, ws=ParlorWebSocketProtocol, http=ParlorHttpProtocol, lifespan="off",
            log_level="error",
        )  # fmt: skip
        config.load()
        state = ServerState()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: ParlorHttpProtocol(config=config, server_state=state, app_state={}),
            "127.0.0.1",
            0,
        )
        port = server.sockets[0].getsockname()[1]
        got: list[str] = []
        code: int | None = None
        try:
            async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
                for _ in range(3):
                    got.append(str(await asyncio.wait_for(ws.recv(), 30)))
                await ws.send("hello")
                try:
                    await asyncio.wait_for(ws.recv(), 30)
                except ConnectionClosed as exc:
                    code = None if exc.rcvd is None else exc.rcvd.code
        finally:
            server.close()
            for task in list(state.tasks):
                await asyncio.wait_for(task, 30)
        return got, code

    got, code = asyncio.run(run())
    assert got == ["one", "two " * 100, "three " * 20_000]
    assert code == 4000
    assert seen["writer"] is FrameWriter
    assert seen["open_before"] and seen["wrote"] and seen["unsent"] >= 0
    assert seen["from_client"] == "hello"
    assert not seen["open_after"] and not seen["wrote_after"]
    assert seen["disconnect"] == "websocket.disconnect"
