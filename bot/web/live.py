"""Live updates for every page that changes (a table, a tournament): one
hub per process, which reads a cheap fingerprint of each watched object (a
table's version) a few times a second and, when it moves, builds the page's
live part once and hands it to every watcher. A thousand watchers of one
table cost one read and one rendering per change, whichever process saved it.

Watchers get it as Server-Sent Events (``update`` events whose data is the
new HTML); a page without JavaScript simply does not update. Each update is
the whole live part, so a watcher that cannot keep up loses nothing by
getting the newest one only, and one that joins with an older page than the
hub's last update gets that update at the next poll."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from aiohttp import web

from bot.web.headers import SECURITY_HEADERS

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15.0
# A fingerprint read or a rendering that takes longer is given up (and tried
# again at the next poll), so one stuck read cannot stall every other topic.
STEP_SECONDS = 5.0
# A pending update is replaced by a newer one: it is the whole live part.
QUEUE_SIZE = 1
Fingerprint = Callable[[], Awaitable[Hashable]]
Render = Callable[[], Awaitable[str]]
# What a watcher's queue carries: an update, or None once the hub has closed.
Updates = asyncio.Queue[str | None]


class _Unread:
    """The fingerprint of a topic whose read failed this poll."""


UNREAD = _Unread()


@dataclass(eq=False)
class Watcher:
    queue: Updates
    # The fingerprint the watcher's page shows, and the update it was sent last.
    seen: Hashable
    shown: str | None = None


@dataclass
class Topic:
    fingerprint: Fingerprint
    render: Render
    # The fingerprint ``update`` was built at (``update`` None: nothing built yet).
    mark: Hashable
    update: str | None = None
    watchers: dict[Updates, Watcher] = field(default_factory=dict)
    # Set while its reads or renderings fail, so a long outage is logged once, not five times a second.
    failing: bool = False
    # The fewest seconds between two updates (a large page: a tournament's), and when the last was built.
    every: float = 0.0
    built_at: float = float("-inf")


def _push(queue: Updates, item: str | None) -> None:
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(item)


class Hub:
    def __init__(self, interval: float = POLL_SECONDS) -> None:
        self.interval = interval
        self.topics: dict[str, Topic] = {}
        self.closed = False
        self._poller: asyncio.Task[None] | None = None
        self._polling = asyncio.Lock()

    def watch(
        self, key: str, fingerprint: Fingerprint, render: Render, last: Hashable, every: float = 0.0
    ) -> Updates:
        """A queue of ``key``'s updates from now on (``last``: the fingerprint the
        watcher's page was built at, of the same type ``fingerprint`` returns).
        It yields None once the hub has closed.

        Every watcher of ``key`` shares the first one's ``fingerprint`` and
        ``render``: they must not depend on the watcher (nor on its request,
        which may be gone), and ``render`` builds the public page only. ``every``:
        the fewest seconds between two of its updates (the newest state is sent
        when they have passed), for a page too large to send at every poll."""
        queue: Updates = asyncio.Queue(QUEUE_SIZE)
        if self.closed:
            queue.put_nowait(None)
            return queue
        topic = self.topics.get(key)
        if topic is None:
            topic = self.topics[key] = Topic(fingerprint, render, last, every=every)
        topic.watchers[queue] = Watcher(queue, last)
        # Started on demand, and again if it ever stopped (it ends when nobody watches).
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll(), name="gametable-web-hub")
        return queue

    def leave(self, key: str, queue: Updates) -> None:
        topic = self.topics.get(key)
        if topic is None:
            return
        topic.watchers.pop(queue, None)
        if not topic.watchers:
            del self.topics[key]

    async def _poll(self) -> None:
        while self.topics and not self.closed:
            await asyncio.sleep(self.interval)
            try:
                await self.poll_once()
            except Exception:  # a defect here must not end every page's updates
                log.exception("web: the live poll failed")

    async def poll_once(self) -> None:
        """Read every topic's fingerprint once; hand a fresh update to every
        watcher whose page is behind it (built once per topic and change)."""
        async with self._polling:
            topics = list(self.topics.items())
            marks = await asyncio.gather(*(self._read(key, topic) for key, topic in topics))
            await asyncio.gather(
                *(self._refresh(key, topic, mark) for (key, topic), mark in zip(topics, marks, strict=True))
            )

    async def _read(self, key: str, topic: Topic) -> Hashable:
        try:
            async with asyncio.timeout(STEP_SECONDS):
                return await topic.fingerprint()
        except Exception:
            self._fault(topic, "web: could not read %s for its watchers", key)
            return UNREAD

    async def _refresh(self, key: str, topic: Topic, mark: Hashable) -> None:
        if mark is UNREAD:
            return
        behind = [watcher for watcher in topic.watchers.values() if watcher.seen != mark]
        if not behind:
            return
        if topic.update is None or topic.mark != mark:
            now = asyncio.get_running_loop().time()
            if now - topic.built_at < topic.every:
                return  # the next poll past ``every`` sends the newest state
            topic.built_at = now
            try:
                async with asyncio.timeout(STEP_SECONDS):
                    update = await topic.render()
            except Exception:
                self._fault(topic, "web: could not build %s's update", key)
                return
            topic.mark, topic.update = mark, update
        if topic.failing:
            topic.failing = False
            log.info("web: %s's updates flow again", key)
        for watcher in behind:
            watcher.seen = mark
            # The same text twice (a rendering that read a newer save than its mark) is sent once.
            if watcher.shown != topic.update:
                watcher.shown = topic.update
                _push(watcher.queue, topic.update)

    def _fault(self, topic: Topic, message: str, key: str) -> None:
        log.log(logging.DEBUG if topic.failing else logging.WARNING, message, key, exc_info=True)
        topic.failing = True

    async def close(self) -> None:
        """Stop polling and end every watcher's stream (a shutdown then need not
        wait for the event streams to time out)."""
        self.closed = True
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        for topic in self.topics.values():
            for queue in topic.watchers:
                _push(queue, None)
        self.topics.clear()


def event(data: str, name: str = "update") -> bytes:
    """One Server-Sent Event: every line of ``data`` a ``data:`` line."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {name}\n{lines}\n".encode()


# Every watcher of a change is sent the same text: encode it once, not once a watcher.
_encoded = functools.lru_cache(maxsize=64)(event)


async def stream(
    request: web.Request,
    hub: Hub,
    key: str,
    fingerprint: Fingerprint,
    render: Render,
    last: Hashable,
    every: float = 0.0,
) -> web.StreamResponse:
    """Serve ``key``'s updates as an event stream until the reader leaves or the hub closes."""
    queue = hub.watch(key, fingerprint, render, last, every)
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
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    update = await queue.get()
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            if update is None:
                break
            await response.write(_encoded(update))
    except ConnectionResetError:
        pass
    finally:
        hub.leave(key, queue)
    return response
