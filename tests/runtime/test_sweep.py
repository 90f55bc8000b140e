"""The deadline sweeper against index entries it cannot act on: tables that are
gone, over or damaged, or entries left behind by a crash between a save and its
index update. Each is cleaned or rescheduled, and none can starve a due table."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.service.tables import SWEEP_BATCH, Player, TableService
from storage import keys
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, CID, high_card_service
from tests.support.service import high_card_table as started


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def service(store: TableStore, clock: Clock) -> TableService:
    return high_card_service(store, clock)


async def deadlines(service: TableService) -> dict[str, float]:
    """The deadline index, over all its buckets."""
    found = {}
    for key in keys.DEADLINE_BUCKETS:
        raw = await service.store.redis.zrange(key, 0, -1, withscores=True)
        found.update({member.decode(): score for member, score in raw})
    return found


async def schedule(service: TableService, entries: dict[str, float]) -> None:
    for table_id, at in entries.items():
        await service.store.reschedule(table_id, at)


async def test_a_due_table_times_out_behind_800_entries_it_cannot_act_on(
    service: TableService, clock: Clock
) -> None:
    # Tables deleted long ago: about 50 in each bucket, several batches' worth.
    await schedule(service, {f"gone{i}": float(i) for i in range(800)})
    assert min(Counter(keys.bucket(f"gone{i}") for i in range(800)).values()) > 2 * SWEEP_BATCH
    due = await started(service, ANN, BOB)
    clock.now += 61
    [outcome] = await service.expire()
    assert outcome.table.id == due
    assert await deadlines(service) == {due: clock.now + 60}, "the stale entries are cleaned"


async def test_finished_abandoned_and_damaged_tables_leave_the_deadline_index(
    service: TableService, clock: Clock
) -> None:
    redis = service.store.redis
    abandoned = await started(service, ANN, BOB)
    await service.abandon(abandoned, ANN.user_id)
    finished = await service.create("high-card", CID, seed=11)
    await service.add_bot(finished.id, CID.user_id)
    current = (await service.start(finished.id, CID.user_id)).table
    while current.status.active:
        key = service.choices(current, CID.user_id)[0].key
        current = (await service.act(finished.id, CID.user_id, key)).table
    assert current.status.value == "finished"
    damaged = await started(service, Player(4, "Dee"), Player(5, "Eve"))
    await redis.hset(keys.table(damaged), "meta", '{"id": "' + damaged + '"}')
    service.store.recent.forget(damaged)  # as a write from elsewhere: not this process's copy now
    # A crash between each save and its index update left the old entries behind.
    await schedule(service, {abandoned: 1.0, finished.id: 2.0, damaged: 3.0})
    clock.now += 10
    assert await service.expire() == []
    assert await deadlines(service) == {}


async def test_an_entry_older_than_the_tables_deadline_is_moved_to_it(
    service: TableService, clock: Clock
) -> None:
    table_id = await started(service, ANN, BOB)
    await schedule(service, {table_id: 5.0})
    assert await service.expire() == []
    assert await deadlines(service) == {table_id: clock.now + 60}
