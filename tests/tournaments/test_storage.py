"""Tournament records on a real Redis: compare-and-set, and a damaged record set aside."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from storage.store import VersionConflict
from storage.tournaments import Format, Tournament, TournamentStore, tournament_key


def make(tournament_id: str) -> Tournament:
    return Tournament(
        id=tournament_id,
        guild_id=9,
        channel_id=8,
        organiser_id=1,
        name="Cup",
        game="g",
        format=Format.SWISS,
        table_size=2,
        turn_timeout=60.0,
        created_at=float(len(tournament_id)),
    )


async def test_a_stale_save_is_refused_and_a_damaged_record_is_quarantined(redis: Redis) -> None:
    store = TournamentStore(redis)
    first = await store.create(make("aaa"))
    await store.create(make("bbbb"))
    with pytest.raises(VersionConflict):
        await store.create(make("aaa"))
    saved = await store.save(first)
    assert saved.version == 1
    with pytest.raises(VersionConflict):
        await store.save(first)  # written from version 0, but the store is at 1
    await redis.hset(tournament_key("aaa"), "data", '{"id": "aaa", "format": "chess boxing"}')
    assert [t.id for t in await store.in_guild(9)] == ["bbbb"], "the neighbour still lists"
    assert await redis.exists(f"{tournament_key('aaa')}:quarantined")
    assert await store.get("aaa") is None
