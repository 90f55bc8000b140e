"""Stored records: schema versions, migrations, and damaged records quarantined
without breaking their neighbours — on a real Redis."""

from __future__ import annotations

import json
import logging

import pytest

from engines.card_data import decks_in_full
from engines.spheres_of_life import ENGINE as SPHERES
from engines.spheres_of_life.cards import builtin_deck as spheres_deck
from storage import keys
from storage.damage import DamagedTable
from storage.listing import list_keys
from storage.records import SCHEMA_VERSION, SeatRecord, TableRecord, migrate
from storage.store import TableStore


def make_record(table_id: str = "t1", **extra: object) -> TableRecord:
    fields: dict[str, object] = dict(
        id=table_id,
        game="high-card",
        host_id=1,
        seats=[SeatRecord(user_id=1, name="Ann"), SeatRecord(user_id=2, name="Bob")],
        channel_id=100,
        guild_id=10,
        created_at=1.0,
        updated_at=1.0,
        seed=7,
        turn_timeout=60.0,
    )
    fields.update(extra)
    return TableRecord.model_validate(fields)


async def test_a_record_from_before_schema_numbers_is_migrated_and_saved_in_the_current_one(
    store: TableStore,
) -> None:
    await store.create(make_record())
    meta = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    del meta["schema_version"]  # as every record was written before schema 2
    await store.redis.hset(keys.table("t1"), "meta", json.dumps(meta))
    record = await store.get("t1")
    assert record is not None and record.schema_version == SCHEMA_VERSION == 6
    await store.save(record)
    assert json.loads(await store.redis.hget(keys.table("t1"), "meta"))["schema_version"] == 6


async def test_a_schema_3_undo_point_keeps_its_state_which_its_next_save_stores_beside_the_record(
    store: TableStore,
) -> None:
    await store.create(make_record())
    meta = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    meta |= {"schema_version": 3, "undo": {"seat": 0, "version": 0, "state": '{"before": 1}'}}
    await store.redis.hset(keys.table("t1"), "meta", json.dumps(meta))
    record = await store.get("t1")
    assert record is not None and record.undo is not None and record.undo.state == '{"before": 1}'
    await store.save(record)
    stored = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    assert stored["schema_version"] == 6 and "state" not in stored["undo"]
    assert await store.redis.hget(keys.table("t1"), "undo") == b'{"before": 1}'
    again = await store.get("t1")
    assert again is not None and again.undo is not None and again.undo.state == '{"before": 1}'


async def test_a_schema_4_table_whose_state_carries_its_deck_plays_on_and_is_saved_by_reference(
    store: TableStore,
) -> None:
    # Schema 5: game states may name a shipped deck by reference; a schema-4
    # record's state carries the deck's text, which still reads.
    state = SPHERES.setup(2, SPHERES.parse_options({}), seed=4)
    with decks_in_full():
        carried = SPHERES.dump_state(state)
    await store.create(make_record(game="spheres-of-life", status="playing", state=carried))
    meta = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    await store.redis.hset(keys.table("t1"), "meta", json.dumps({**meta, "schema_version": 4}))
    record = await store.get("t1")
    assert record is not None and record.schema_version == 6 and record.state == carried
    loaded = SPHERES.load_state(record.state)
    assert loaded == state and loaded.deck_spec is spheres_deck()
    record.state = SPHERES.dump_state(loaded)
    await store.save(record)
    stored = await store.redis.hmget(keys.table("t1"), ["meta", "state"])
    assert json.loads(stored[0])["schema_version"] == 6
    assert json.loads(stored[1])["deck_spec"].startswith("@") and len(stored[1]) * 4 < len(carried)


async def test_a_schema_5_rated_table_in_play_takes_its_players_now_as_its_rated_players(
    store: TableStore,
) -> None:
    # Schema 6: a rated table remembers who held each seat at its start; one that
    # started before knows only who holds the seats now, and whom a bot holds one for.
    seats = [
        SeatRecord(user_id=1, name="Ann"),
        SeatRecord(user_id=None, name="Bob (bot)", away=2),
        SeatRecord(user_id=None, name="Bot 1"),
    ]
    await store.create(make_record(status="playing", rated=True, seats=seats))
    await store.create(make_record("t2", rated=True))  # a lobby: its players are taken at its start
    for table_id in ("t1", "t2"):
        meta = json.loads(await store.redis.hget(keys.table(table_id), "meta"))
        del meta["rated_players"]
        await store.redis.hset(keys.table(table_id), "meta", json.dumps({**meta, "schema_version": 5}))
    record, lobby = await store.get("t1"), await store.get("t2")
    assert record is not None and record.schema_version == 6
    assert {s: (p.user_id, p.name) for s, p in record.rated_players.items()} == {0: (1, "Ann"), 1: (2, "Bob")}
    assert lobby is not None and lobby.rated_players == {}
    await store.save(record)
    stored = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    assert stored["schema_version"] == 6 and stored["rated_players"]["0"] == {"user_id": 1, "name": "Ann"}


def test_migrations_run_in_order_up_to_the_current_schema() -> None:
    assert migrate({"id": "x"}) == {"id": "x", "schema_version": SCHEMA_VERSION}
    assert migrate({"id": "x", "schema_version": SCHEMA_VERSION})["schema_version"] == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("meta", "reason"),
    [
        ("{not json", "not valid JSON"),
        ('["a list"]', "not a JSON object"),
        (
            '{"id": "t1", "game": "high-card", "host_id": 1, "seats": [{"user_id": 2, "name": "Bob"}],'
            ' "channel_id": 100, "version": 0}',
            "created_at",
        ),
        ('{"schema_version": "two"}', "not a schema"),
    ],
)
async def test_a_damaged_record_is_quarantined_once_and_its_neighbours_keep_working(
    store: TableStore, caplog: pytest.LogCaptureFixture, meta: str, reason: str
) -> None:
    await store.create(make_record("t1"))
    await store.create(make_record("t2"))
    await store.redis.hset(keys.table("t1"), "meta", meta)
    await store.deadlines.set("t1", 1.0)
    with caplog.at_level(logging.ERROR, logger="storage.damage"):
        for _ in range(2):
            with pytest.raises(DamagedTable) as damaged:
                await store.get("t1")
            assert reason in damaged.value.reason
    assert len(caplog.records) == 1, "logged once"
    copy = await store.redis.hgetall(keys.quarantine("t1"))
    assert copy[b"meta"] == meta.encode() and reason in copy[b"reason"].decode()
    assert [r.id for r in await store.in_channel(100)] == ["t2"]
    assert [r.id for r in await store.of_user(2)] == ["t2"]
    assert [r.id for r in await store.in_guild(10)] == ["t2"]
    assert await store.redis.zscore(list_keys("channel:100")[0], "t1") is None, "the index entry is cleaned"
    assert await store.redis.zscore(keys.deadlines("t1"), "t1") is None
    assert await store.quarantine.in_channel(100) == (["t1"] if "channel_id" in meta else [])
    assert await store.rebuild_indexes() == 1


async def test_a_version_field_that_disagrees_with_the_record_is_damage_not_a_conflict(
    store: TableStore,
) -> None:
    await store.create(make_record())
    await store.redis.hdel(keys.table("t1"), "version")
    with pytest.raises(DamagedTable, match="version field"):
        await store.get("t1")


async def test_a_record_of_a_newer_release_is_left_alone(store: TableStore) -> None:
    await store.create(make_record())
    meta = json.loads(await store.redis.hget(keys.table("t1"), "meta"))
    await store.redis.hset(keys.table("t1"), "meta", json.dumps({**meta, "schema_version": 99}))
    with pytest.raises(DamagedTable, match="newer") as damaged:
        await store.get("t1")
    assert not damaged.value.held
    assert not await store.redis.exists(keys.quarantine("t1"))
    assert await store.redis.zscore(list_keys("channel:100")[0], "t1") is not None
