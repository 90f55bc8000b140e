"""The cheap reads the web pages' watchers make: many tables' versions, and many
tables' records without their game state, each in one pipeline; a tournament's
version alone."""

from __future__ import annotations

from redis.asyncio import Redis

from storage import keys
from storage.store import TableStore
from storage.tournaments import TournamentStore
from tests.integration.test_store import make_record
from tests.tournaments.test_storage import make


async def test_versions_and_glances_of_many_tables(store: TableStore, redis: Redis) -> None:
    await store.create(make_record("t1", state='{"secret": [1, 2, 3]}', headline="Round 1"))
    await store.create(make_record("t2"))
    await store.save(await store.get("t2") or make_record("t2"))
    assert await store.versions([]) == {}
    assert await store.versions(["t1", "t2", "gone"]) == {"t1": 0, "t2": 1, "gone": None}
    await redis.hset(keys.table("t3"), mapping={"version": "0", "meta": "{not json"})
    seen = await store.glance(["t1", "t2", "gone", "t3"])
    assert seen["gone"] is None and seen["t3"] is None, "gone or unreadable: nothing to show"
    first = seen["t1"]
    assert first is not None and first.headline == "Round 1" and first.state is None, "no game state read"
    assert seen["t2"] is not None and seen["t2"].version == 1


async def test_a_tournaments_version_alone(redis: Redis) -> None:
    store = TournamentStore(redis)
    assert await store.version("nope") is None
    saved = await store.save(await store.create(make("abc")))
    assert await store.version("abc") == saved.version == 1
