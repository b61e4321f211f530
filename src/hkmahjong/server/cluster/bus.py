"""匯流 the processes' messages over Redis pub/sub (redis-py's asyncio client).

Each process listens on its own channel ``PREFIX:node:OWNER`` and on ``PREFIX:lobby``. Its lobby
listing is the key ``PREFIX:listing:OWNER``, rewritten on a timer and expiring unless rewritten
(a process that died leaves nothing behind; none removes another's); ``PREFIX:listers`` names
the processes that wrote one. What one
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
        self.listers = f"{prefix}:listers"
        self._pending: dict[str, list[Message]] = {}
        self._out: asyncio.Queue[dict[str, list[Message]] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._written: str | None = None
        self.handle: Callable[[Message], None] = lambda message: None
        self.on_lobby: Callable[[str], None] = lambda owner: None
        self.sent = 0

    def channel(self, owner: str) -> str:
        """The channel of the process ``owner``."""
        return f"{self.prefix}:node:{owner}"

    async def start(self) -> None:
        """Subscribe and start the reader and the sender."""
        pubsub = self._pubsub = self.redis.pubsub()
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
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)

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

    def listing_key(self, owner: str) -> str:
        """The key of the process ``owner``'s lobby listing."""
        return f"{self.prefix}:listing:{owner}"

    async def publish_listing(self, listing: list[dict[str, Any]], ttl: float) -> bool:
        """Write this process's lobby listing to Redis, to expire after ``ttl`` seconds unless
        written again; tell every process when it differs from what Redis held (it changed, or
        had expired). Whether it did."""
        data = json.dumps(listing, sort_keys=True)
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self.listing_key(self.owner), data, px=max(1, int(ttl * 1000)), get=True)
        pipe.sadd(self.listers, self.owner)
        old, _ = await pipe.execute()
        changed = old is None or _text(old) != data
        if changed:
            await self.redis.publish(self.lobby_channel, self.owner)
        return changed

    async def listings(self) -> dict[str, list[dict[str, Any]]]:
        """Every process's lobby listing that has not expired (the names of those that have
        are let go)."""
        owners = sorted(_text(o) for o in await self.redis.smembers(self.listers))
        if not owners:
            return {}
        values = await self.redis.mget([self.listing_key(o) for o in owners])
        found: dict[str, list[dict[str, Any]]] = {}
        for owner, value in zip(owners, values, strict=True):
            if value is None:  # expired: drop the name, unless written again meanwhile
                await self.redis.eval(_FORGET_EXPIRED, 2, self.listing_key(owner), self.listers,
                                      owner)  # fmt: skip
            else:
                found[owner] = json.loads(value)
        return found

    async def forget_listing(self, owner: str) -> None:
        """Remove this process's listing (it stops) and tell every process."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self.listing_key(owner))
        pipe.srem(self.listers, owner)
        await pipe.execute()
        await self.redis.publish(self.lobby_channel, owner)


_FORGET_EXPIRED = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.call('SREM', KEYS[2], ARGV[1])
end
return 0
"""
"""Let go of a process's name when its listing has expired — atomically, so a listing written
again in between keeps it."""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
