"""How many round trips to Redis a move costs: the load (none when this
process wrote the table last), then the compare-and-set save with every index
write it implies (inside its script on one server, beside it on a cluster)."""

from __future__ import annotations

import os

import pytest

from bot.service import reading
from bot.service.tables import Outcome, Player, TableService
from storage import keys, listing
from storage.listing import list_keys
from storage.records import TableRecord, TableStatus
from storage.store import TableStore, VersionConflict
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


def cluster_mode() -> bool:
    return os.environ.get("GAMETABLE_TEST_CLUSTER") == "1"


def _service(store: TableStore, clock: Clock) -> TableService:
    return TableService(store, clock=clock, turn_timeout=60, games={"high-card": HIGH_CARD})


async def _started(store: TableStore, clock: Clock) -> tuple[TableService, TableRecord]:
    service = _service(store, clock)
    table = await service.create("high-card", ANN, channel_id=100, guild_id=10, seed=3)
    await service.join(table.id, BOB)
    table = (await service.start(table.id, ANN.user_id)).table
    await store.redis.zrem(keys.outbox_due(table.id), table.id)  # as if its news were told
    return service, table


def _counted_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game states loaded from their text from now on."""
    loads: list[str] = []
    load_state = HIGH_CARD.load_state
    monkeypatch.setattr(HIGH_CARD, "load_state", lambda data: loads.append(data) or load_state(data))
    return loads


async def _move(service: TableService, table: TableRecord) -> Outcome:
    player = (ANN, BOB)[service.awaited(table)[0]]
    key = service.choices(table, player.user_id)[0].key
    return await service.act(table.id, player.user_id, key, version=table.version)


async def test_a_move_is_one_round_trip_and_updates_every_index(
    store: TableStore, round_trips: list[int]
) -> None:
    clock = Clock(1000.0)
    service, table = await _started(store, clock)
    clock.now += 5

    round_trips[0] = 0
    outcome = await _move(service, table)

    if not cluster_mode():  # a cluster client sends to each node its share, side by side
        assert round_trips[0] == 1  # this process wrote the table last: the save alone
    saved = outcome.table
    assert saved.deadline == 1005.0 + 60
    assert await store.redis.zscore(keys.deadlines(table.id), table.id) == saved.deadline
    assert await store.redis.zscore(keys.outbox_due(table.id), table.id) == 0.0
    for scope in ("channel:100", "guild:10", f"user:{ANN.user_id}", f"user:{BOB.user_id}"):
        [entry] = (await store.page(scope, 0, 10)).entries
        assert entry.id == table.id and entry.version == saved.version


async def test_a_move_on_a_table_another_process_wrote_reads_it_first(
    store: TableStore, round_trips: list[int]
) -> None:
    clock = Clock(1000.0)
    _, table = await _started(store, clock)
    elsewhere = _service(TableStore(store.redis), clock)  # another process

    round_trips[0] = 0
    outcome = await _move(elsewhere, table)

    if not cluster_mode():
        assert round_trips[0] == 2  # the load, then the save
    assert outcome.table.version == table.version + 1


async def test_a_move_after_another_process_wrote_is_made_on_the_fresh_table(
    store: TableStore, round_trips: list[int]
) -> None:
    clock = Clock(1000.0)
    service, table = await _started(store, clock)
    other = _service(TableStore(store.redis), clock)
    moved = (await _move(other, table)).table  # this process's copy of the table is now old

    round_trips[0] = 0
    outcome = await _move(service, moved)

    if not cluster_mode():
        assert round_trips[0] == 2  # the old copy refuses the click as stale: read afresh, then save
    assert outcome.table.version == table.version + 2
    assert [e.version for e in await store.log(table.id)][-2:] == [table.version + 1, table.version + 2]


async def test_a_save_from_an_old_copy_is_refused_and_the_next_read_is_fresh(
    store: TableStore, round_trips: list[int]
) -> None:
    _, table = await _started(store, Clock(1000.0))
    elsewhere = TableStore(store.redis)
    newer = await elsewhere.save(table.model_copy(update={"deadline": 2000.0}))

    round_trips[0] = 0
    old = await store.get_to_change(table.id)  # as this process wrote it: no round trip
    assert old is not None and old.version == table.version
    with pytest.raises(VersionConflict):
        await store.save(old)
    fresh = await store.get_to_change(table.id)

    if not cluster_mode():
        assert round_trips[0] == 3  # the refused save, the check it was not a retry of ours, a read
    assert fresh is not None and fresh.version == newer.version and fresh.deadline == 2000.0


async def test_a_refused_save_puts_the_winners_index_entries_back(store: TableStore) -> None:
    clock = Clock(1000.0)
    service = TableService(store, clock=clock, turn_timeout=60, games={"high-card": HIGH_CARD})
    table = await service.create("high-card", ANN, channel_id=100, guild_id=10, seed=3)
    await service.join(table.id, BOB)
    table = (await service.start(table.id, ANN.user_id)).table
    stale = table.model_copy(update={"deadline": 99_999.0})
    winner = await store.save(table.model_copy(update={"deadline": 2000.0}))
    with pytest.raises(VersionConflict):
        await store.save(stale)  # refused (on a cluster its index writes, sent beside it, ran)
    assert await store.redis.zscore(keys.deadlines(table.id), table.id) == winner.deadline == 2000.0


async def test_listing_a_channel_is_two_round_trips_however_many_tables(
    store: TableStore, round_trips: list[int]
) -> None:
    service = TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})
    made = [(await service.create("high-card", ANN, channel_id=100, seed=n)).id for n in range(25)]
    finished = await store.get(made[0])
    assert finished is not None
    await store.save(finished.model_copy(update={"status": TableStatus.FINISHED}))
    await store.redis.zadd(list_keys("channel:100")[0], {made[0]: 0})  # a stale entry, dropped on the way
    await store.redis.script_load(listing.ENTER)  # as in a running process (a fresh server loads it once)

    round_trips[0] = 0
    listed = await store.in_channel(100)

    assert sorted(t.id for t in listed) == sorted(made[1:])
    if not cluster_mode():
        assert round_trips[0] == 3  # the index, every table at once, the stale entry's removal
    assert await store.redis.zscore(list_keys("channel:100")[0], made[0]) is None


async def test_a_page_of_a_table_list_is_one_round_trip_however_long_the_list(
    store: TableStore, round_trips: list[int]
) -> None:
    service = TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})
    for n in range(30):
        await service.create("high-card", ANN, channel_id=100, seed=n)
    await store.page("channel:100", 0, 1)  # the script is loaded once

    round_trips[0] = 0
    page = await store.page("channel:100", 10, 10)

    assert len(page.entries) == 10 and page.total == 30 and page.more
    if not cluster_mode():
        assert round_trips[0] == 1


async def test_busy_tables_moved_in_turn_are_neither_read_nor_loaded_again(
    store: TableStore, round_trips: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A process's busy tables take turns: each is found as this process saved it,
    # its record without a read and its game state without parsing it again.
    clock = Clock(1000.0)
    service = _service(store, clock)
    tables = []
    for n in range(100):
        table = await service.create("high-card", ANN, channel_id=100, guild_id=10, seed=n)
        await service.join(table.id, BOB)
        tables.append((await service.start(table.id, ANN.user_id)).table)
    loads = _counted_loads(monkeypatch)

    round_trips[0] = 0
    tables = [(await _move(service, table)).table for table in tables]

    assert loads == []
    if not cluster_mode():
        assert round_trips[0] == len(tables)


async def test_the_states_kept_are_bounded_in_size(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At most STATES_CHARACTERS of their JSON: a state larger than that (a huge
    # custom deck) is loaded each time, never kept; smaller ones push the oldest out.
    clock = Clock(1000.0)
    table = (await _started(store, clock))[1]
    size = len(table.state or "")
    monkeypatch.setattr(reading, "STATES_CHARACTERS", 2 * size)
    bounded = _service(store, clock)
    other = (await _started(store, clock))[1]
    loads = _counted_loads(monkeypatch)
    for record in (table, other, table, other):
        bounded.state(record)
    assert len(loads) == 2, "two states fit"
    third = (await _started(store, clock))[1]
    for record in (third, table, third):
        bounded.state(record)
    assert len(loads) == 4, "the third pushed the oldest out"
    monkeypatch.setattr(reading, "STATES_CHARACTERS", size - 1)
    tiny = _service(store, clock)
    tiny.state(table)
    tiny.state(table)
    assert len(loads) == 6, "larger than all it may keep: loaded each time"
