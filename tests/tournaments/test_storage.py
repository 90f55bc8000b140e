"""Tournament records on a real Redis (and a cluster with
GAMETABLE_TEST_CLUSTER=1): compare-and-set, a damaged record set aside, and
the schedule of tournaments with work due, spread over buckets."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from storage import keys
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


async def test_work_due_is_spread_over_the_buckets_and_read_from_all(redis: Redis) -> None:
    store = TournamentStore(redis)
    ids = [f"cup{n}" for n in range(40)]
    for number, tournament_id in enumerate(ids):
        await store.schedule(tournament_id, float(number))
    for number, tournament_id in enumerate(ids):
        bucket = keys.TOURNAMENT_BUCKETS[keys.bucket(tournament_id)]
        assert await redis.zscore(bucket, tournament_id) == float(number)
    assert len({keys.bucket(t) for t in ids}) > 8
    assert not await redis.exists(keys.LEGACY_TOURNAMENTS_DUE)
    assert sorted(await store.due(19.0)) == sorted(ids[:20])
    assert len(await store.due(100.0, limit=7)) == 7
    await store.unschedule("cup3")
    await store.schedule("cup4", 500.0)
    assert sorted(await store.due(19.0)) == sorted(set(ids[:20]) - {"cup3", "cup4"})
    if isinstance(redis, RedisCluster):
        holding = {redis.get_node_from_key(keys.TOURNAMENT_BUCKETS[keys.bucket(t)]).name for t in ids}
        assert len(holding) == len(redis.get_primaries()) > 1, "every master holds some of them"


async def test_work_an_earlier_version_scheduled_in_its_single_key_is_still_found(redis: Redis) -> None:
    store = TournamentStore(redis)
    await redis.zadd(keys.LEGACY_TOURNAMENTS_DUE, {"old": 5.0, "later": 50.0, "gone": 6.0})
    await store.schedule("new", 7.0)
    await store.unschedule("gone")  # unscheduled since: it leaves the earlier key too
    assert sorted(await store.due(10.0)) == ["new", "old"]
    assert not await redis.exists(keys.LEGACY_TOURNAMENTS_DUE), "read, and moved into the buckets"
    assert await redis.zscore(keys.TOURNAMENT_BUCKETS[keys.bucket("later")], "later") == 50.0
    await redis.zadd(keys.LEGACY_TOURNAMENTS_DUE, {"straggler": 1.0})  # an earlier-version process, meanwhile
    assert await store.due_index.adopt_legacy() == 1
    assert sorted(await store.due(60.0)) == ["later", "new", "old", "straggler"]
