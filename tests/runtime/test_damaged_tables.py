"""A damaged table through TableService: its players and channel keep working,
every refusal says what is really wrong, and it can still be abandoned."""

from __future__ import annotations

import json

import pytest

from bot.service.errors import NotHost, TableDamaged
from bot.service.tables import TableService
from storage import keys
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, CID, high_card_service
from tests.support.service import high_card_table as table


@pytest.fixture
def service(store: TableStore) -> TableService:
    return high_card_service(store, Clock(1000.0))


async def damage(service: TableService, table_id: str, **change: object) -> None:
    """Drop or change fields of the stored record, as a bad write or an old release might."""
    redis = service.store.redis
    meta = json.loads(await redis.hget(keys.table(table_id), "meta"))
    for name, value in change.items():
        if value is None:
            meta.pop(name, None)
        else:
            meta[name] = value
    await redis.hset(keys.table(table_id), "meta", json.dumps(meta))
    # A write from elsewhere: this process's copy of the table is not the stored one now.
    service.store.recent.forget(table_id)


async def test_players_of_a_damaged_table_still_reach_their_other_tables(service: TableService) -> None:
    broken = await table(service, ANN, BOB)
    other = await table(service, BOB, CID, channel=200)
    lobby = await table(service, CID, channel=100, start=False)
    await damage(service, broken, seats=None, turn_timeout="soon")
    assert (await service.find(BOB.user_id, 100)).id == other, "/hand and /play find Bob's other table"
    assert (await service.find_lobby(100)).id == lobby, "/table join finds the lobby beside it"
    await service.join(lobby, ANN)
    with pytest.raises(TableDamaged, match=f"Table {broken} cannot be read"):
        await service.act(broken, ANN.user_id, "pass")


async def test_a_missing_field_is_reported_as_damage_not_as_a_busy_table(service: TableService) -> None:
    lobby = await table(service, ANN, start=False)
    await service.store.redis.hdel(keys.table(lobby), "version")
    with pytest.raises(TableDamaged, match="cannot be read"):
        await service.join(lobby, BOB)


async def test_a_game_state_that_cannot_be_read_quarantines_the_table(service: TableService) -> None:
    table_id = await table(service, ANN, BOB)
    await service.store.redis.hset(keys.table(table_id), "state", '{"players": "many"}')
    with pytest.raises(TableDamaged):
        await service.act(table_id, ANN.user_id, "pass")
    assert await service.store.redis.exists(keys.quarantine(table_id))
    assert await service.store.of_user(ANN.user_id) == []
    outcome = await service.abandon(table_id, ANN.user_id)  # its record still names the host
    assert outcome.table.status is TableStatus.ABANDONED and outcome.table.game == "high-card"


async def test_the_host_or_a_moderator_abandons_a_damaged_table(service: TableService) -> None:
    table_id = await table(service, ANN, BOB)
    await damage(service, table_id, created_at=None)
    with pytest.raises(NotHost, match="the host or a moderator"):
        await service.abandon(table_id, BOB.user_id)
    outcome = await service.abandon(table_id, ANN.user_id)
    assert outcome.table.status is TableStatus.ABANDONED and outcome.table.channel_id == 100
    assert [e.text for e in outcome.events] == ["The table could not be read and was abandoned."]
    stored = await service.get(table_id)  # readable again: an abandoned record with what could be read
    assert stored.status is TableStatus.ABANDONED and stored.host_id == ANN.user_id
    assert [e.kind for e in await service.store.log(table_id)][-1] == "abandon"
    kept = await service.store.redis.hgetall(keys.quarantine(table_id))
    assert kept[b"abandoned_by"] == str(ANN.user_id).encode() and b"created_at" not in kept[b"meta"]
    assert await service.store.quarantine.in_channel(100) == []


async def test_a_table_whose_host_cannot_be_read_is_abandoned_by_moderators_only(
    service: TableService,
) -> None:
    table_id = await table(service, ANN, BOB)
    await service.store.redis.hset(keys.table(table_id), "meta", "{garbage")
    service.store.recent.forget(table_id)
    with pytest.raises(NotHost, match="Only a moderator"):
        await service.abandon(table_id, ANN.user_id)
    outcome = await service.abandon(table_id, CID.user_id, moderator=True)
    assert outcome.table.status is TableStatus.ABANDONED
    assert (await service.get(table_id)).status is TableStatus.ABANDONED
