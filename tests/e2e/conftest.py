"""Fixtures for the end-to-end tests: ``make_harness(factory)`` starts a harness and closes it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import pytest

from tests.e2e.harness import BotFactory, DiscordHarness
from tests.e2e.tables import BotMaker
from tests.support.clock import Clock


@pytest.fixture
async def make_harness() -> AsyncIterator[Callable[..., Awaitable[DiscordHarness]]]:
    """``h = await make_harness(lambda: MyBot(), **options)``; closed (and checked) at teardown."""
    started: list[DiscordHarness] = []

    async def make(factory: BotFactory, **options: Any) -> DiscordHarness:
        harness = DiscordHarness(factory, **options)
        started.append(harness)
        await harness.start()
        return harness

    yield make
    for harness in reversed(started):
        await harness.close()


@pytest.fixture
def games() -> Mapping[str, Any] | None:
    """The games the bot offers: ``None`` is the real registry; a module may override."""
    return None


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def maker(
    redis: Any, redis_url: str, games: Mapping[str, Any] | None, clock: Clock
) -> AsyncIterator[BotMaker]:
    """Makes the real gametable bot on the test Redis (a new one per restart)."""
    made = BotMaker(redis_url, games, clock=clock)
    yield made
    await made.close()


@pytest.fixture
async def h(maker: BotMaker) -> AsyncIterator[DiscordHarness]:
    """A harness running the real bot."""
    harness = DiscordHarness(maker, settle_timeout=20)
    await harness.start()
    yield harness
    await harness.close()
