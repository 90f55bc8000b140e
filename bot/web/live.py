"""Live updates for every page that changes (a table, a tournament): one
hub per process, which reads a cheap fingerprint of each watched object (a
table's version) a few times a second and, when it moves, builds the page's
live part once and hands it to every watcher. A thousand watchers of one
table cost one read and one rendering per change, whichever process saved it.

Watchers get it as Server-Sent Events (``update`` events whose data is the
new HTML); a page without JavaScript simply does not update."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from aiohttp import web

from bot.web.headers import SECURITY_HEADERS

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15.0
# A watcher that cannot keep up gets the newest update only.
QUEUE_SIZE = 4
Fingerprint = Callable[[], Awaitable[Hashable]]
Render = Callable[[], Awaitable[str]]


@dataclass
class Topic:
    fingerprint: Fingerprint
    render: Render
    last: Hashable
    watchers: set[asyncio.Queue[str]] = field(default_factory=set)


class Hub:
    def __init__(self, interval: float = POLL_SECONDS) -> None:
        self.interval = interval
        self.topics: dict[str, Topic] = {}
        self._poller: asyncio.Task[None] | None = None

    def watch(self, key: str, fingerprint: Fingerprint, render: Render, last: Hashable) -> asyncio.Queue[str]:
        """A queue of ``key``'s updates from now on (``last``: the fingerprint the
        watcher's page was built at)."""
        topic = self.topics.get(key)
        if topic is None:
            topic = self.topics[key] = Topic(fingerprint, render, last)
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_SIZE)
        topic.watchers.add(queue)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll(), name="gametable-web-hub")
        return queue

    def leave(self, key: str, queue: asyncio.Queue[str]) -> None:
        topic = self.topics.get(key)
        if topic is None:
            return
        topic.watchers.discard(queue)
        if not topic.watchers:
            del self.topics[key]

    async def _poll(self) -> None:
        while self.topics:
            await asyncio.sleep(self.interval)
            await self.poll_once()

    async def poll_once(self) -> None:
        topics = list(self.topics.items())
        marks = await asyncio.gather(*(t.fingerprint() for _, t in topics), return_exceptions=True)
        for (key, topic), mark in zip(topics, marks, strict=True):
            if isinstance(mark, BaseException):
                log.warning("web: could not read %s for its watchers", key, exc_info=mark)
                continue
            if mark == topic.last:
                continue
            try:
                update = await topic.render()
            except Exception:
                log.warning("web: could not build %s's update", key, exc_info=True)
                continue
            topic.last = mark
            for queue in list(topic.watchers):
                if queue.full():
                    with contextlib.suppress(asyncio.QueueEmpty):
                        queue.get_nowait()
                queue.put_nowait(update)

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller


def event(data: str, name: str = "update") -> bytes:
    """One Server-Sent Event: every line of ``data`` a ``data:`` line."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {name}\n{lines}\n".encode()


async def stream(
    request: web.Request, hub: Hub, key: str, fingerprint: Fingerprint, render: Render, last: Hashable
) -> web.StreamResponse:
    """Serve ``key``'s updates as an event stream until the reader leaves."""
    queue = hub.watch(key, fingerprint, render, last)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    response.headers.update(SECURITY_HEADERS)
    try:
        await response.prepare(request)
        await response.write(b"retry: 2000\n\n")
        while True:
            try:
                update = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            await response.write(event(update))
    except ConnectionResetError:
        pass
    finally:
        hub.leave(key, queue)
    return response
