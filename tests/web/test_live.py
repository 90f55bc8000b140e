"""The live hub: one fingerprint read and one rendering per change for every
watcher of a topic; a slow watcher gets the newest update only; failing or
stuck reads and renderings are logged and retried without stopping the
poller; the last watcher's leaving drops its topic; closing ends it all."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web import live
from bot.web.live import Hub, Updates

# Long enough that the poller never runs by itself unless a test wants it to.
IDLE = 3600.0
GUARD = 10.0  # seconds: only a guard against a hang, never a measured figure


class Table:
    """A fake watched object: a version, and a rendering of it that counts its calls."""

    def __init__(self) -> None:
        self.version = 0
        self.renders = 0
        self.read_faults = 0
        self.render_faults = 0

    async def fingerprint(self) -> Hashable:
        if self.read_faults:
            self.read_faults -= 1
            raise ConnectionError("redis went away")
        return self.version

    async def render(self) -> str:
        if self.render_faults:
            self.render_faults -= 1
            raise ValueError("cannot draw it")
        self.renders += 1
        return f"<p>version {self.version}</p>"


def drained(queue: Updates) -> list[str | None]:
    items = []
    while not queue.empty():
        items.append(queue.get_nowait())
    return items


async def test_every_watcher_gets_each_change_once_from_one_rendering() -> None:
    hub, table = Hub(IDLE), Table()
    queues = [hub.watch("t", table.fingerprint, table.render, 0) for _ in range(50)]
    await hub.poll_once()
    assert table.renders == 0 and all(q.empty() for q in queues)
    for version in (1, 2):
        table.version = version
        await hub.poll_once()
        await hub.poll_once()  # nothing new: nothing sent, nothing built
        assert table.renders == version
        assert [drained(q) for q in queues] == [[f"<p>version {version}</p>"]] * 50
    await hub.close()


async def test_a_topic_with_a_pace_is_sent_its_newest_state_once_the_pace_has_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(loop, "time", lambda: now[0])
    hub, table = Hub(IDLE), Table()
    queue = hub.watch("t", table.fingerprint, table.render, 0, every=1.0)
    table.version = 1
    await hub.poll_once()
    assert drained(queue) == ["<p>version 1</p>"]
    for version in (2, 3):  # two changes within the second: held back
        table.version = version
        now[0] += 0.3
        await hub.poll_once()
        assert drained(queue) == []
    now[0] += 0.5
    await hub.poll_once()
    assert drained(queue) == ["<p>version 3</p>"] and table.renders == 2
    await hub.close()


async def test_a_slow_watcher_gets_the_newest_only_and_holds_nobody_back() -> None:
    hub, table = Hub(IDLE), Table()
    slow = hub.watch("t", table.fingerprint, table.render, 0)
    quick = [hub.watch("t", table.fingerprint, table.render, 0) for _ in range(3)]
    for version in (1, 2, 3):
        table.version = version
        await hub.poll_once()
        assert [drained(q) for q in quick] == [[f"<p>version {version}</p>"]] * 3
    assert drained(slow) == ["<p>version 3</p>"]
    assert table.renders == 3
    await hub.close()


async def test_a_watcher_with_an_older_page_is_brought_up_to_date() -> None:
    hub, table = Hub(IDLE), Table()
    first = hub.watch("t", table.fingerprint, table.render, 0)
    table.version = 1
    await hub.poll_once()
    assert drained(first) == ["<p>version 1</p>"]
    late = hub.watch("t", table.fingerprint, table.render, 0)  # its page was built before the change
    current = hub.watch("t", table.fingerprint, table.render, 1)
    await hub.poll_once()
    assert drained(late) == ["<p>version 1</p>"]
    assert drained(current) == [] and drained(first) == []
    assert table.renders == 1  # the late one got the update already built
    await hub.close()


async def test_the_same_text_is_not_sent_twice() -> None:
    """A rendering may read a save newer than the fingerprint it was asked for:
    the next poll sees the new fingerprint, but the watchers already have its text."""
    hub, table = Hub(IDLE), Table()
    queue = hub.watch("t", table.fingerprint, table.render, 0)
    table.version = 1
    original = table.render

    async def racing() -> str:
        table.version = 2  # saved while the poll was between its read and its rendering
        return await original()

    hub.topics["t"].render = racing
    await hub.poll_once()
    assert drained(queue) == ["<p>version 2</p>"]
    hub.topics["t"].render = original
    await hub.poll_once()
    assert drained(queue) == []
    await hub.close()


async def test_a_failing_read_is_logged_and_retried_by_the_running_poller(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hub, table = Hub(0.01), Table()
    table.read_faults = 3
    table.version = 1
    with caplog.at_level(logging.DEBUG, logger="bot.web.live"):
        queue = hub.watch("t", table.fingerprint, table.render, 0)
        assert await asyncio.wait_for(queue.get(), GUARD) == "<p>version 1</p>"
    assert table.read_faults == 0
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    # One outage, one warning (the retries after it are quieter), then word that it recovered.
    assert [r.getMessage() for r in warnings] == ["web: could not read t for its watchers"]
    assert warnings[0].exc_info is not None
    assert any(r.getMessage() == "web: t's updates flow again" for r in caplog.records)
    assert hub._poller is not None and not hub._poller.done()
    await hub.close()


async def test_a_failing_rendering_is_retried_and_does_not_wedge_the_topic(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hub, table = Hub(0.01), Table()
    table.render_faults = 2
    queue = hub.watch("t", table.fingerprint, table.render, 0)
    table.version = 1
    assert await asyncio.wait_for(queue.get(), GUARD) == "<p>version 1</p>"
    assert "web: could not build t's update" in caplog.text
    table.version = 2
    assert await asyncio.wait_for(queue.get(), GUARD) == "<p>version 2</p>"
    await hub.close()


async def test_a_stuck_read_does_not_stall_the_other_topics(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "STEP_SECONDS", 0.05)
    hub, table = Hub(IDLE), Table()

    async def stuck() -> Hashable:
        await asyncio.Event().wait()
        return 0

    hub.watch("stuck", stuck, table.render, 0)
    queue = hub.watch("t", table.fingerprint, table.render, 0)
    table.version = 1
    await asyncio.wait_for(hub.poll_once(), GUARD)
    assert drained(queue) == ["<p>version 1</p>"]
    await hub.close()


async def test_the_poller_survives_a_defect_and_restarts_if_it_ever_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub, table = Hub(0.01), Table()
    real = hub.poll_once
    calls = 0

    async def flaky() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("a defect")
        await real()

    monkeypatch.setattr(hub, "poll_once", flaky)
    queue = hub.watch("t", table.fingerprint, table.render, 0)
    table.version = 1
    assert await asyncio.wait_for(queue.get(), GUARD) == "<p>version 1</p>"
    assert calls >= 2
    first = hub._poller
    assert first is not None
    first.cancel()  # however it stopped, the next watcher starts it again
    await asyncio.gather(first, return_exceptions=True)
    other = hub.watch("u", table.fingerprint, table.render, 0)
    assert hub._poller is not first and not hub._poller.done()
    table.version = 2
    assert await asyncio.wait_for(other.get(), GUARD) == "<p>version 2</p>"
    await hub.close()


async def test_the_last_watcher_leaving_drops_the_topic_and_the_poller_ends() -> None:
    hub, table = Hub(0.01), Table()
    one = hub.watch("t", table.fingerprint, table.render, 0)
    two = hub.watch("t", table.fingerprint, table.render, 0)
    hub.leave("t", one)
    assert list(hub.topics) == ["t"] and list(hub.topics["t"].watchers) == [two]
    hub.leave("t", two)
    hub.leave("t", two)  # twice, or for a topic already gone: nothing
    assert hub.topics == {}
    poller = hub._poller
    assert poller is not None
    await asyncio.wait_for(poller, GUARD)
    await hub.close()


async def test_closing_stops_the_poller_and_ends_every_watcher() -> None:
    hub, table = Hub(0.01), Table()
    queues = [hub.watch(key, table.fingerprint, table.render, 0) for key in ("t", "t", "u")]
    poller = hub._poller
    await hub.close()
    assert poller is not None and poller.done()
    assert [drained(q) for q in queues] == [[None]] * 3
    assert hub.topics == {}
    late = hub.watch("t", table.fingerprint, table.render, 0)
    assert drained(late) == [None] and hub._poller is poller  # no poller started after closing


def test_an_event_has_one_data_line_per_line() -> None:
    assert live.event("<p>a</p>\n<p>b</p>") == b"event: update\ndata: <p>a</p>\ndata: <p>b</p>\n\n"


async def test_the_event_stream_over_http_sends_updates_and_ends_when_the_hub_closes() -> None:
    hub, table = Hub(0.01), Table()

    async def events(request: web.Request) -> web.StreamResponse:
        return await live.stream(request, hub, "t", table.fingerprint, table.render, table.version)

    app = web.Application()
    app.router.add_get("/events", events)
    async with TestClient(TestServer(app)) as client:
        readers = [await client.get("/events") for _ in range(3)]
        for reader in readers:
            assert reader.headers["Content-Type"] == "text/event-stream"
            assert await asyncio.wait_for(reader.content.readline(), GUARD) == b"retry: 2000\n"
            assert await reader.content.readline() == b"\n"
        assert len(hub.topics["t"].watchers) == 3
        table.version = 1
        for reader in readers:
            got = [await asyncio.wait_for(reader.content.readline(), GUARD) for _ in range(3)]
            assert got == [b"event: update\n", b"data: <p>version 1</p>\n", b"\n"]
        await hub.close()
        for reader in readers:
            assert await asyncio.wait_for(reader.content.read(), GUARD) == b""
    assert table.renders == 1
