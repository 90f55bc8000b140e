"""A table saved before seats had their own clocks (schema 2: one deadline for the
table) keeps that deadline after the upgrade: the seats it was waiting for take it
over at its first change, and only seats awaited later start a clock of their own."""

from __future__ import annotations

import json

import pytest

from bot.service import clocks
from bot.service.clocks import DAY
from bot.service.tables import TableService
from bot.service.user_prefs import save_settings
from storage import keys
from storage.records import SCHEMA_VERSION, migrate, parse_record
from storage.store import TableStore
from storage.user_settings import UserSettings
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.service import ANN, BOB
from tests.support.service import high_card_table as started


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


def daily(store: TableStore, clock: Clock) -> TableService:
    return TableService(store, clock=clock, turn_timeout=DAY, games={"high-card": HIGH_CARD})


async def as_saved_before_seat_clocks(store: TableStore, table_id: str) -> float:
    """Rewrite a started table's record as the release before seat clocks wrote it:
    schema 2, no clocks, the table's one deadline. Returns that deadline."""
    meta = json.loads(await store.redis.hget(keys.table(table_id), "meta"))
    deadline = meta["clocks"]["due"]["0"]
    del meta["clocks"]
    meta.update(schema_version=2, deadline=deadline)
    await store.redis.hset(keys.table(table_id), "meta", json.dumps(meta))
    return float(deadline)


def test_the_migration_carries_the_tables_deadline_over_and_only_for_a_table_in_play() -> None:
    old = {
        "schema_version": 2,
        "status": "playing",
        "deadline": 5000.0,
        "turn_timeout": 3600.0,
        "updated_at": 1500.0,
    }
    assert migrate(old)["clocks"] == {"inherited": {"started": 1500.0, "due": 5000.0}}
    assert migrate({**old, "updated_at": 4999.5})["clocks"]["inherited"]["started"] == 4999.5
    assert migrate({**old, "updated_at": 100.0})["clocks"]["inherited"]["started"] == 5000.0 - 3600.0
    assert "clocks" not in migrate({**old, "status": "lobby"})
    assert "clocks" not in migrate({**old, "deadline": None})
    assert migrate({**old, "clocks": {}})["clocks"] == {}, "a record that has clocks keeps them"
    assert migrate(old)["schema_version"] == SCHEMA_VERSION == 6


async def test_no_deadline_moves_at_the_first_change_after_the_upgrade(
    store: TableStore, clock: Clock
) -> None:
    service = daily(store, clock)
    table_id = await started(service, ANN, BOB)  # ann's move, a day for it
    deadline = await as_saved_before_seat_clocks(store, table_id)
    loaded = await service.get(table_id)
    assert loaded.clocks.due == {} and loaded.clocks.inherited is not None
    assert f"<t:{int(deadline)}:R>" in clocks.time_left(loaded, 0), "the table shows the old deadline"

    clock.now += 0.3 * DAY
    await save_settings(service, BOB.user_id, UserSettings(notify="turn"))  # a change, not a move
    record = await service.get(table_id)
    assert record.clocks.due == {0: deadline}, "ann's clock is the table's old deadline"
    assert record.clocks.inherited is None and record.schema_version == SCHEMA_VERSION
    assert parse_record(await store.redis.hget(keys.table(table_id), "meta")).clocks.due == {0: deadline}

    card = service.view(record, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    moved = (await service.act(table_id, ANN.user_id, f"play:{card}")).table
    assert moved.clocks.due == {1: clock.now + DAY}, "bob, awaited after the upgrade, has his own day"


async def test_the_sweeper_times_out_the_old_deadline_and_not_before(store: TableStore, clock: Clock) -> None:
    service = daily(store, clock)
    table_id = await started(service, ANN, BOB)
    deadline = await as_saved_before_seat_clocks(store, table_id)
    await store.reschedule(table_id, deadline)  # the index as the old release left it
    clock.now = deadline - 1
    assert await service.expire() == []
    assert (await service.get(table_id)).clocks.inherited is not None, "nothing changed yet"
    clock.now = deadline
    [outcome] = await service.expire()
    assert any("ran out of time" in e.text for e in outcome.events)
    assert not any(e.kind == "reminder" for e in outcome.events), "no reminder once the time is up"
    assert outcome.table.clocks.due == {1: deadline + DAY}
