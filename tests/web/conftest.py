"""The web pages' fixtures: a :class:`~bot.web.site.Site` on a real Redis, every
installed game, a settable clock, and aiohttp's test client on the whole app."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis

from bot.service.ratings import RatingService
from bot.service.tables import TableService
from bot.tournaments.service import TournamentService
from bot.web.server import application
from bot.web.site import Site
from engines.registry import GAMES
from storage.ratings import RatingStore
from storage.store import TableStore
from storage.tournaments import TournamentStore
from tests.support.clock import Clock

HOME, OTHER = 7001, 7002


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def site_games() -> Mapping[str, Any]:
    """The games the site's tables may be of (every installed game); a module may override it."""
    return GAMES


@pytest.fixture
async def site(store: TableStore, redis: Redis, clock: Clock, site_games: Mapping[str, Any]) -> Site:
    service = TableService(store, clock=clock, turn_timeout=3600, games=site_games)
    ratings = RatingService(RatingStore(redis), clock)
    tournaments = TournamentService(TournamentStore(redis), service, ratings, clock=clock)
    return Site(service, tournaments, ratings, public_url="https://games.example.org")


async def open_pages(site: Site, *guild_ids: int) -> None:
    """Turn these servers' pages on, as ``/settings web on`` does."""
    for guild_id in guild_ids:
        settings = await site.settings.guild(guild_id)
        settings.web = True
        await site.settings.save_guild(settings)


@pytest.fixture
async def client(site: Site) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    await open_pages(site, HOME, OTHER)
    async with TestClient(TestServer(application(site))) as test_client:
        yield test_client
