"""匯流 the processes' messages over Redis pub/sub (redis-py's asyncio client).

Each process listens on its own channel ``PREFIX:node:OWNER`` and on ``PREFIX:lobby``. What one
process sends another while the event loop runs one pass of its callbacks goes out as one
message (a JSON list) per destination, in order: one sender task publishes the batches one
after another, in one pipeline per pass. Pub/sub delivers at most once; a message lost with a
dropped connection is a frame a client misses until it reconnects, which resynchronises it
(docs/protocol.md, *Versions and reconnecting*).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis

__all__ = ["Bus"]

log = logging.getLogger(__name__)

Message = dict[str, Any]


class Bus:
    """This process's end of the bus: :meth:`send` to another process, :meth:`lobby_changed`
    to all; ``handle(message)`` hears what the others send here."""

    def __init__(self, url: str, prefix: str, owner: str) -> None:
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self.prefix = prefix
        self.owner = owner
        self.inbox = f"{prefix}:node:{owner}"
        self.lobby_channel = f"{prefix}:lobby"
        self.lobby_hash = f"{prefix}:lobbies"
        self._pending: dict[str, list[Message]] = {}
        self._out: asyncio.Queue[dict[str, list[Message]] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.handle: Callable[[Message], None] = lambda message: None
        self.on_lobby: Callable[[str], None] = lambda owner: None
        self.sent = 0

    def channel(self, owner: str) -> str:
        """The channel of the process ``owner``."""
        return f"{self.prefix}:node:{owner}"

    async def start(self) -> None:
        """Subscribe and start the reader and the sender."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.inbox, self.lobby_channel)
        self._tasks = [
            asyncio.create_task(self._read(pubsub), name="cluster-bus-read"),
            asyncio.create_task(self._send(), name="cluster-bus-send"),
        ]

    async def stop(self) -> None:
        """Send what is queued, stop, close the connections."""
        self._flush()
        self._out.put_nowait(None)
        reader, sender = self._tasks or (None, None)
        if sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def send(self, owner: str, message: Message) -> None:
        """Queue ``message`` for the process ``owner`` (sent at the end of this loop pass)."""
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        self._pending.setdefault(owner, []).append(message)

    def _flush(self) -> None:
        if self._pending:
            batch, self._pending = self._pending, {}
            self._out.put_nowait(batch)

    async def _send(self) -> None:
        while True:
            batch = await self._out.get()
            if batch is None:
                return
            batches = [batch]
            while not self._out.empty():  # everything queued meanwhile, in one round trip
                more = self._out.get_nowait()
                if more is None:
                    self._out.put_nowait(None)
                    break
                batches.append(more)
            try:
                pipe = self.redis.pipeline(transaction=False)
                for b in batches:
                    for owner, messages in b.items():
                        pipe.publish(self.channel(owner), json.dumps(messages))
                await pipe.execute()
                self.sent += sum(len(b) for b in batches)
            except Exception:  # Redis away: these frames are lost, clients resync on reconnect
                log.exception("cluster bus: publishing failed")

    async def _read(self, pubsub: Any) -> None:
        while True:
            try:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster bus: reading failed; again in 1 s")
                await asyncio.sleep(1)
                continue
            if msg is None:
                continue
            channel = _text(msg["channel"])
            data = msg["data"]
            try:
                if channel == self.lobby_channel:
                    self.on_lobby(_text(data))
                    continue
                for message in json.loads(data):
                    self.handle(message)
            except Exception:
                log.exception("cluster bus: a message failed")

    async def publish_listing(self, listing: list[dict[str, Any]]) -> None:
        """Keep this process's lobby listing in Redis and tell every process it changed."""
        await self.redis.hset(self.lobby_hash, self.owner, json.dumps(listing))
        await self.redis.publish(self.lobby_channel, self.owner)

    async def listings(self) -> dict[str, list[dict[str, Any]]]:
        """Every process's lobby listing."""
        raw = await self.redis.hgetall(self.lobby_hash)
        return {_text(k): json.loads(v) for k, v in raw.items()}

    async def forget_listing(self, owner: str) -> None:
        """Remove a process's listing (it stopped, or is no longer alive)."""
        await self.redis.hdel(self.lobby_hash, owner)
        await self.redis.publish(self.lobby_channel, owner)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
