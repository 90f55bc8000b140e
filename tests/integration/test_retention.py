"""Bounded storage: an untouched lobby expires, a table in play is kept, an
over one is archived (its log compressed, its indexes gone) and expires after
the operator's retention."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from bot.service.tables import Player, TableService
from storage import keys
from storage.listing import list_keys
from storage.retention import Retention, archive_key
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


def service_on(redis: Redis, retention: Retention) -> TableService:
    store = TableStore(redis, retention)
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})


async def test_an_untouched_lobby_expires_and_leaves_the_listings(redis: Redis) -> None:
    service = service_on(redis, Retention(idle_lobby=0.3))
    table = await service.create("high-card", ANN, channel_id=100)
    assert 0 < await redis.pttl(keys.table(table.id)) <= 300
    assert [t.id for t in await service.store.in_channel(100)] == [table.id]
    await asyncio.sleep(0.5)
    assert await service.store.get(table.id) is None
    assert await service.store.in_channel(100) == []
    assert await redis.zscore(list_keys("channel:100")[0], table.id) is None


async def test_a_table_in_play_is_kept_for_ever(redis: Redis) -> None:
    service = service_on(redis, Retention(idle_lobby=60))
    table = await service.create("high-card", ANN, channel_id=100)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    for key in (keys.table(table.id), keys.log(table.id)):
        assert await redis.pttl(key) == -1


async def test_an_abandoned_table_is_archived_and_expires_after_the_retention(redis: Redis) -> None:
    service = service_on(redis, Retention(finished=3600, idle_lobby=60))
    table = await service.create("high-card", ANN, channel_id=100)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    before = await service.store.log(table.id)
    outcome = await service.abandon(table.id, ANN.user_id)
    assert outcome.table.state is not None

    stored = await service.store.get(table.id)  # the state is compressed, and read back whole
    assert await redis.hget(keys.table(table.id), "state") is None
    assert stored is not None and stored.state == outcome.table.state

    assert await redis.llen(keys.log(table.id)) == 0  # the list is gone, compressed into the archive
    entries = await service.store.log(table.id)
    assert entries[: len(before)] == before and entries[-1].kind == "abandon"
    assert [e.kind for e in await service.store.log(table.id, -1)] == ["abandon"]
    assert [e.kind for e in await service.store.log(table.id, 0, 0)] == ["create"]
    for key in (keys.table(table.id), archive_key(table.id)):
        assert 3_500_000 < await redis.pttl(key) <= 3_600_000
    assert await redis.zscore(list_keys("channel:100")[0], table.id) is None
    assert await redis.zscore(keys.deadlines(table.id), table.id) is None
