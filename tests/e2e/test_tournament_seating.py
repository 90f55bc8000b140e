"""Seating a round through Discord under races and refusals: two processes
seating the same round at once post every table once and announce the round
once; a refusal at one table delays the tournament, never unschedules it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.app.ui.tournament_desk import RETRY_AFTER, TournamentDesk
from bot.service.errors import TableError
from bot.service.ratings import RatingService
from bot.service.tables import TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.table_ends import Results
from storage.ratings import RatingStore
from storage.records import TableRecord, TableStatus
from storage.store import TableStore
from storage.tournaments import TournamentStore
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, embed_text
from tests.e2e.test_tournaments import current, open_tournament
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


def posted_tables(h: DiscordHarness, ids: list[str]) -> list[str]:
    messages = [m for m in h.public_messages() if "High Card — table" in embed_text(m)]
    return sorted(t for m in messages for t in ids if f"table {t}" in embed_text(m))


def seated_notices(h: DiscordHarness) -> list[str]:
    return [m.content or "" for m in h.public_messages() if "is seated" in (m.content or "")]


async def test_two_processes_seating_one_round_post_each_table_once(
    h: DiscordHarness, maker: BotMaker, redis_url: str, clock: Clock
) -> None:
    await open_tournament(h, 10, format="swiss", table_size=2, rounds=1)
    bot = maker.bot
    other = Redis.from_url(redis_url)  # the second process: its own connection and services
    maker.clients.append(other)
    tables = TableService(TableStore(other), turn_timeout=300, clock=clock, games={"high-card": HIGH_CARD})
    ratings = RatingService(RatingStore(other), clock)
    tournaments = TournamentService(TournamentStore(other), tables, ratings, clock=clock)
    second = TournamentDesk(bot, tournaments, Results(ratings, tournaments), bot.flows)
    cup = await current(maker)
    await bot.desk.tournaments.start(cup.id)
    await asyncio.gather(bot.desk.progress(cup.id), second.progress(cup.id))
    await h.settle()
    cup = await current(maker)
    assert cup.current is not None and cup.current.seated
    ids = [t.table_id for t in cup.current.tables if t.table_id is not None]
    assert len(ids) == 5 and posted_tables(h, ids) == sorted(ids), "every table is posted exactly once"
    assert len(seated_notices(h)) == 1, "the round is announced once"
    for table_id in ids:
        assert (await bot.service.get(table_id)).status is TableStatus.PLAYING


async def test_a_refusal_at_one_table_delays_the_tournament_but_never_stops_it(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    organiser, _, _ = await open_tournament(h, 6, format="swiss", table_size=2, rounds=1)
    bot = maker.bot
    real = bot.service.open_seated
    refused: list[str] = []

    async def refuse_one(table_id: str, *args: Any, **kwargs: Any) -> TableRecord:
        if len(refused) < 2 and (not refused or refused[0] == table_id):
            refused.append(table_id)
            raise TableError("This table has already started.")
        return await real(table_id, *args, **kwargs)

    bot.service.open_seated = refuse_one  # type: ignore[method-assign]
    await h.slash(organiser, "tournament start")  # the first refusal: the others are seated all the same
    cup = await current(maker)
    assert cup.current is not None and not cup.current.seated
    ids = [t.table_id for t in cup.current.tables if t.table_id is not None]
    assert posted_tables(h, ids) == sorted(set(ids) - {refused[0]})
    await bot.sweep_once()  # the tick meets the second refusal
    assert len(refused) == 2
    store = bot.desk.tournaments.store
    assert cup.id not in await store.due(clock.now), "it waits a little"
    assert cup.id in await store.due(clock.now + RETRY_AFTER), "and is still scheduled"
    clock.now += RETRY_AFTER + 1
    await bot.sweep_once()
    await h.settle()
    cup = await current(maker)
    assert cup.current is not None and cup.current.seated
    assert posted_tables(h, ids) == sorted(ids) and len(seated_notices(h)) == 1
