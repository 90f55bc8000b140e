"""The table store against a real Redis server."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from storage import keys
from storage.connect import open_redis
from storage.listing import list_keys
from storage.records import LogEntry, SeatRecord, TableRecord, TableStatus
from storage.store import TableStore, VersionConflict


def make_record(table_id: str = "t1", **extra: object) -> TableRecord:
    fields: dict[str, object] = dict(
        id=table_id,
        game="high-card",
        host_id=1,
        seats=[SeatRecord(user_id=1, name="Ann")],
        channel_id=100,
        guild_id=10,
        created_at=1.0,
        updated_at=1.0,
        seed=7,
        turn_timeout=60.0,
    )
    fields.update(extra)
    return TableRecord.model_validate(fields)


async def test_create_then_get_round_trips_every_field(store: TableStore) -> None:
    record = make_record(state='{"n": 0}', thread_id=5, message_id=6, acted_at={0: 3})
    await store.create(record)
    loaded = await store.get("t1")
    assert loaded is not None
    assert loaded.model_dump() == record.model_dump()
    assert loaded.state == '{"n": 0}'
    assert [e.kind for e in await store.log("t1")] == ["create"]


async def test_table_keys_share_one_cluster_slot() -> None:
    assert keys.table("ab").startswith("gt:{table:ab}") and keys.log("ab").startswith("gt:{table:ab}")


async def test_creating_an_existing_id_is_refused(store: TableStore) -> None:
    await store.create(make_record())
    with pytest.raises(VersionConflict):
        await store.create(make_record())


async def test_save_bumps_version_and_appends_log(store: TableStore) -> None:
    record = await store.create(make_record())
    record.state = '{"n": 1}'
    saved = await store.save(record, [LogEntry(version=1, at=2.0, kind="act", seat=0)])
    assert saved.version == 1
    assert (await store.get("t1")).version == 1  # type: ignore[union-attr]
    assert [e.kind for e in await store.log("t1")] == ["create", "act"]


async def test_save_on_a_stale_version_changes_nothing(store: TableStore) -> None:
    record = await store.create(make_record())
    await store.save(record.model_copy(update={"state": "first"}))
    with pytest.raises(VersionConflict) as refused:
        await store.save(record.model_copy(update={"state": "second"}), [LogEntry(version=1, at=0, kind="x")])
    assert refused.value.current == 1
    stored = await store.get("t1")
    assert stored is not None and stored.state == "first"
    assert len(await store.log("t1")) == 1


async def test_save_of_a_missing_table_is_refused(store: TableStore) -> None:
    with pytest.raises(VersionConflict):
        await store.save(make_record("ghost"))


async def _increment(store: TableStore, retry: bool) -> bool:
    while True:
        record = await store.get("t1")
        assert record is not None
        count = json.loads(record.state or "0")
        await asyncio.sleep(0)  # let the other writers interleave between load and save
        record.state = json.dumps(count + 1)
        try:
            await store.save(record, [LogEntry(version=record.version + 1, at=0, kind="inc")])
            return True
        except VersionConflict:
            if not retry:
                return False


@pytest.mark.parametrize("retry", [True, False])
async def test_concurrent_writers_are_each_applied_once_or_rejected(store: TableStore, retry: bool) -> None:
    await store.create(make_record(state="0"))
    applied = await asyncio.gather(*(_increment(store, retry) for _ in range(60)))
    final = await store.get("t1")
    assert final is not None
    wins = sum(applied)
    assert json.loads(final.state or "0") == wins == final.version  # none lost, none doubled
    assert len(await store.log("t1")) == wins + 1
    if retry:
        assert wins == 60
    else:
        assert 1 <= wins < 60


async def test_indexes_find_active_tables_and_forget_finished_ones(store: TableStore) -> None:
    await store.create(make_record("a"))
    b = await store.create(make_record("b", seats=[SeatRecord(user_id=2, name="Bo")], host_id=2))
    assert [t.id for t in await store.in_channel(100)] == ["a", "b"]
    assert [t.id for t in await store.of_user(2)] == ["b"]
    assert [t.id for t in await store.in_guild(10)] == ["a", "b"]
    await store.save(b.model_copy(update={"status": TableStatus.FINISHED}))
    assert [t.id for t in await store.in_channel(100)] == ["a"]
    assert await store.of_user(2) == []


async def test_deadlines_come_due_in_time(store: TableStore) -> None:
    await store.create(make_record("a", deadline=50.0))
    await store.create(make_record("b", deadline=150.0))
    assert await store.due(100.0) == ["a"]
    assert sorted(await store.due(200.0)) == ["a", "b"]


async def test_indexes_can_be_rebuilt_from_the_tables(store: TableStore) -> None:
    await store.create(make_record("a", thread_id=555, deadline=5.0))
    await store.redis.delete(*list_keys("channel:100"), *list_keys("channel:555"), keys.deadlines("a"))
    assert await store.in_channel(555) == []
    assert await store.rebuild_indexes() == 1
    assert [t.id for t in await store.in_channel(555)] == ["a"]
    assert await store.due(10.0) == ["a"]


async def test_embedded_redis_keeps_tables_across_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the default DATA_DIR is relative: "data"
    async with open_redis(None, Path("data")) as client:
        await TableStore(client).create(make_record("kept"))
    async with open_redis(None, Path("data")) as client:
        record = await TableStore(client).get("kept")
    assert record is not None and record.id == "kept"
    assert (tmp_path / "data" / "redis" / "appendonlydir").is_dir()


async def test_without_redis_server_falls_back_loudly_to_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("storage.connect.shutil.which", lambda name: None)
    with caplog.at_level(logging.WARNING):
        async with open_redis(None, tmp_path) as client:
            store = TableStore(client)
            record = await store.create(make_record("mem"))
            await store.save(record)
            with pytest.raises(VersionConflict):
                await store.save(record)
    assert "WILL BE LOST" in caplog.text
