"""Fixtures for the end-to-end tests: ``make_harness(factory)`` starts a harness and closes it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from tests.e2e.harness import BotFactory, DiscordHarness


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
