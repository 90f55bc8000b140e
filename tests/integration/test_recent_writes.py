"""A change starts from the table as this process last wrote it (storage.recent):
those fields must be exactly what a read of Redis returns at that moment, for
every kind of save (a lobby, moves with and without an undo point, a bot's
moves, the end of the game)."""

from __future__ import annotations

import random

from bot.service.tables import Player, TableService
from storage import keys
from storage.recent import RecentWrites
from storage.records import TableStatus
from storage.store import FIELDS, TableStore
from tests.support.clock import Clock

ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")


async def _stored_fields(store: TableStore, table_id: str) -> tuple[str | None, ...]:
    raw = await store.redis.hmget(keys.table(table_id), list(FIELDS))
    return tuple(None if value is None else value.decode() for value in raw)


async def _check(store: TableStore, table_id: str) -> bool:
    """Whether this process's copy (if it keeps one) is what Redis holds; True when it keeps one."""
    kept = store.recent.fields(table_id)
    if kept is None:
        return False
    assert kept == await _stored_fields(store, table_id)
    return True


async def test_the_kept_copy_is_what_redis_holds_after_every_save(store: TableStore) -> None:
    service = TableService(store, clock=Clock(1000.0), turn_timeout=600)
    table = await service.create("spheres-of-life", ANN, channel_id=100, seed=7)
    assert await _check(store, table.id)
    await service.join(table.id, BOB)
    await service.join(table.id, CID)
    assert await _check(store, table.id)
    record = (await service.start(table.id, ANN.user_id)).table
    rng = random.Random(3)
    kept = undone = 0
    for _ in range(400):
        if record.status is not TableStatus.PLAYING:
            break
        seat = rng.choice(service.awaited(record) or [p.seat for p in service.prompts(record)])
        player = (ANN, BOB, CID)[seat]
        choice = rng.choice(service.choices(record, player.user_id))
        record = (await service.act(record.id, player.user_id, choice.key)).table
        kept += await _check(store, record.id)
        undone += record.undo is not None
    assert kept > 50 and undone > 10, "moves with and without an undo point were checked"


async def test_a_finished_table_is_not_kept(store: TableStore) -> None:
    """Its log is archived behind the version's back, so it is always read."""
    service = TableService(store, clock=Clock(1000.0), turn_timeout=600)
    table = await service.create("spheres-of-life", ANN, channel_id=100, seed=7)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    outcome = await service.abandon(table.id, ANN.user_id)
    assert outcome.table.status is TableStatus.ABANDONED
    assert store.recent.fields(table.id) is None


async def test_the_copies_kept_are_bounded_in_number_and_in_size(store: TableStore) -> None:
    # A custom deck of 5,000 cards makes a state of half a megabyte: a bound on
    # the number of tables alone would let such tables fill gigabytes.
    service = TableService(store, clock=Clock(1000.0), turn_timeout=600)
    table = await service.create("spheres-of-life", ANN, channel_id=100, seed=7)
    recent = RecentWrites(kept=4, characters=40_000)  # each table weighs 10,000 at least

    def write(n: int, state_size: int) -> str:
        record = table.model_copy(update={"id": f"t{n}", "state": "s" * state_size})
        recent.wrote(record, record.model_dump_json())
        return record.id

    small = [write(n, 10) for n in range(10)]
    assert [recent.holds(t) for t in small] == [False] * 6 + [True] * 4, "the last four"
    large = [write(n, 14_000) for n in range(10, 13)]  # with its record, more than 14,000 each
    assert [recent.holds(t) for t in large] == [False, True, True], "two fit beside one small table"
    assert not any(recent.holds(t) for t in small), "the oldest went first"
    assert recent.holds(write(13, 10)) and all(recent.holds(t) for t in large[1:]), "and one small one beside"
    write(12, 50_000)
    assert not recent.holds("t12"), "larger than all it may keep: read each time, the older copy gone"
    assert recent.fields(large[1]) is not None
