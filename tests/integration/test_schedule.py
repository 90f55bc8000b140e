"""The deadline and outbox schedules, spread over hash-tagged buckets: where the
buckets sit, how a round walks them, how the single keys of earlier versions are
emptied into them, and (on a cluster) that they land on several masters."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from bot.service.tables import SWEEP_BATCH, Outcome, TableService
from storage import keys
from storage.schedule import ADOPT_BATCH, interleave
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, high_card_service, high_card_table


def ids_in(bucket: int, count: int, prefix: str = "gone") -> list[str]:
    """``count`` table ids that fall in ``bucket``."""
    found: list[str] = []
    number = 0
    while len(found) < count:
        if keys.bucket(candidate := f"{prefix}{number}") == bucket:
            found.append(candidate)
        number += 1
    return found


def test_the_buckets_sit_evenly_spaced_over_the_slots() -> None:
    width = REDIS_CLUSTER_HASH_SLOTS // keys.BUCKETS
    for buckets in (keys.DEADLINE_BUCKETS, keys.OUTBOX_BUCKETS, keys.TOURNAMENT_BUCKETS):
        assert len(set(buckets)) == keys.BUCKETS
        assert [key_slot(name.encode()) // width for name in buckets] == list(range(keys.BUCKETS))
        # The split `redis-cli --cluster create` makes for three masters: five or six buckets each.
        masters = Counter(min(2, key_slot(name.encode()) * 3 // REDIS_CLUSTER_HASH_SLOTS) for name in buckets)
        assert sorted(masters.values()) == [5, 5, 6]
    tables = Counter(keys.bucket(f"t{n:06x}") for n in range(16_000))
    assert len(tables) == keys.BUCKETS and min(tables.values()) > 900


async def test_a_save_writes_the_tables_entries_in_its_own_bucket(store: TableStore) -> None:
    service = high_card_service(store, Clock(1000.0))
    tables = [await high_card_table(service, ANN, BOB, channel=100 + n) for n in range(12)]
    for table_id in tables:
        record = await store.get(table_id)
        assert record is not None and record.deadline == 1060.0
        assert await store.redis.zscore(keys.deadlines(table_id), table_id) == 1060.0
        assert await store.redis.zscore(keys.outbox_due(table_id), table_id) is not None
    assert len({keys.bucket(t) for t in tables}) > 1
    assert not await store.redis.exists(keys.LEGACY_DEADLINES, keys.LEGACY_OUTBOX)


async def test_a_round_takes_a_bounded_batch_from_every_bucket_in_turns(store: TableStore) -> None:
    for bucket in range(keys.BUCKETS):
        for n, table_id in enumerate(ids_in(bucket, 10)):
            await store.reschedule(table_id, float(n))
    found = await store.deadlines.due(5.0, per_bucket=4)
    assert sorted(found) == list(range(keys.BUCKETS))
    assert all(len(ids) == 4 for ids in found.values())
    assert all([keys.bucket(t) for t in ids] == [b] * 4 for b, ids in found.items())
    turns = [keys.bucket(t) for t in interleave(found, first=5)]
    assert turns[:20] == [*range(5, 16), *range(5), *range(5, 9)]
    assert set(await store.deadlines.due(5.0, per_bucket=4, buckets=[3])) == {3}


class Watched(TableService):
    """Notes every table id the sweeper takes up, in order."""

    def __init__(self, store: TableStore, clock: Clock) -> None:
        super().__init__(store, clock=clock, turn_timeout=60, games=high_card_service(store, clock).games)
        self.taken: list[str] = []

    async def expire_table(self, table_id: str, now: float) -> Outcome | None:
        self.taken.append(table_id)
        return await super().expire_table(table_id, now)


async def test_a_busy_bucket_does_not_hold_up_a_late_table_in_another(store: TableStore) -> None:
    clock = Clock(1000.0)
    service = Watched(store, clock)
    late = await high_card_table(service, ANN, BOB)
    busy = (keys.bucket(late) + 1) % keys.BUCKETS
    stale = ids_in(busy, 5 * SWEEP_BATCH)  # entries of tables deleted long ago, all due before it
    for n, table_id in enumerate(stale):
        await store.reschedule(table_id, float(n))
    clock.now += 61

    [outcome] = await service.expire()

    assert outcome.table.id == late
    assert late in service.taken[: keys.BUCKETS], "taken in the first turn, not behind the busy bucket"
    assert sorted(service.taken) == sorted([late, *stale]), "every stale entry is met, once"
    assert await store.due(clock.now) == []


async def test_several_sweepers_share_every_bucket_with_no_double_work(
    store: TableStore, redis_url: str
) -> None:
    clock = Clock(1000.0)
    other = TableStore(Redis.from_url(redis_url)) if "+cluster" not in redis_url else store
    sweepers = [Watched(store, clock), Watched(other, clock), Watched(store, clock)]
    late = [await high_card_table(sweepers[0], ANN, BOB, channel=100 + n) for n in range(24)]
    clock.now += 61
    try:
        told = await asyncio.gather(*(s.expire() for s in sweepers))
    finally:
        if other is not store:
            await other.redis.aclose()
    assert Counter(o.table.id for outcomes in told for o in outcomes) == Counter(late)
    assert len({keys.bucket(t) for t in late}) > 4


async def test_an_earlier_versions_deadlines_are_swept_and_moved_into_the_buckets(store: TableStore) -> None:
    clock = Clock(1000.0)
    service = high_card_service(store, clock)
    late = await high_card_table(service, ANN, BOB, channel=100)
    later = await high_card_table(service, ANN, BOB, channel=101)
    await store.save((await store.get(later)).model_copy(update={"deadline": 5000.0}))  # type: ignore[union-attr]
    # As an earlier version left them: every entry in the one key.
    for table_id in (late, later):
        at = await store.deadlines.at(table_id)
        await store.deadlines.remove(table_id)
        await store.redis.zadd(keys.LEGACY_DEADLINES, {table_id: at})  # type: ignore[dict-item]
    await store.redis.zadd(keys.LEGACY_DEADLINES, {"gone": 3.0})
    clock.now += 61

    [outcome] = await service.expire()

    assert outcome.table.id == late
    assert not await store.redis.exists(keys.LEGACY_DEADLINES)
    assert await store.deadlines.at(later) == 5000.0, "the table not due yet waits in its bucket"
    assert await store.deadlines.at(late) == clock.now + 60
    assert await store.deadlines.at("gone") is None, "read, found gone, removed"


async def test_startup_empties_a_large_earlier_key_and_the_earlier_time_wins(store: TableStore) -> None:
    entries = {f"old{n}": float(n) for n in range(ADOPT_BATCH * 2 + 500)}
    await store.redis.zadd(keys.LEGACY_DEADLINES, entries)
    await store.reschedule("old7", 50.0)  # a newer process wrote a later time for it meanwhile
    await store.reschedule("old9", 2.0)  # and an earlier one for this one

    assert await store.deadlines.adopt_legacy() == len(entries)

    assert not await store.redis.exists(keys.LEGACY_DEADLINES)
    assert await store.deadlines.at("old7") == 7.0
    assert await store.deadlines.at("old9") == 2.0
    assert await store.deadlines.at("old2499") == 2499.0
    counts = [await store.redis.zcard(key) for key in keys.DEADLINE_BUCKETS]
    assert sum(counts) == len(entries) and min(counts) > 0
    assert await store.deadlines.adopt_legacy() == 0


async def test_an_earlier_entry_changed_while_it_was_moved_stays_to_be_moved_again(store: TableStore) -> None:
    await store.redis.zadd(keys.LEGACY_DEADLINES, {"t1": 10.0})
    moving = await store.redis.zrange(keys.LEGACY_DEADLINES, 0, -1, withscores=True)
    await store.redis.zadd(keys.LEGACY_DEADLINES, {"t1": 4.0})  # an earlier-version process, meanwhile
    await store.deadlines._adopt(moving)
    assert await store.redis.zscore(keys.LEGACY_DEADLINES, "t1") == 4.0
    assert await store.deadlines.adopt_legacy() == 1
    assert await store.deadlines.at("t1") == 4.0


async def test_on_a_cluster_the_schedules_land_on_several_masters(store: TableStore) -> None:
    client = store.redis
    if not isinstance(client, RedisCluster):
        pytest.skip("runs with GAMETABLE_TEST_CLUSTER=1")
    masters = {node.name for node in client.get_primaries()}
    for buckets in (keys.DEADLINE_BUCKETS, keys.OUTBOX_BUCKETS, keys.TOURNAMENT_BUCKETS):
        owners = Counter(client.get_node_from_key(name).name for name in buckets)
        assert set(owners) == masters and len(masters) > 1 and min(owners.values()) >= 5
    service = high_card_service(store, Clock(1000.0))
    tables = [await high_card_table(service, ANN, BOB, channel=100 + n) for n in range(12)]
    holding = {client.get_node_from_key(keys.deadlines(t)).name for t in tables}
    assert len(holding) > 1, "the tables' deadlines sit on more than one master"
    assert sorted(await store.due(2000.0)) == sorted(tables)
