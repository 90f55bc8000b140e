"""Finding the table a command means (``TableService.find``, ``find_lobby``)
by the table lists' lines: one read of the lines, whatever their number, and
only the table chosen loaded; a line its table disagrees with is put right and
the choice made again. On a real Redis (and a cluster with GAMETABLE_TEST_CLUSTER=1)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import pytest

from bot.service.errors import TableError, TableNotFound
from bot.service.tables import Player, TableService
from storage import keys, listing
from storage.listing import list_keys
from storage.records import TableRecord, TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")
MANY = 200


@pytest.fixture
def service(store: TableStore) -> TableService:
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games={"high-card": HIGH_CARD})


@pytest.fixture
def loaded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The ids of the table records read from Redis."""
    seen: list[str] = []
    real = TableStore._parse

    async def counted(self: TableStore, table_id: str, fields: Sequence[Any]) -> TableRecord | None:
        seen.append(table_id)
        return await real(self, table_id, fields)

    monkeypatch.setattr(TableStore, "_parse", counted)
    yield seen


def standalone() -> bool:
    # A cluster client sends each node its share side by side: more writes, one round trip of time.
    return os.environ.get("GAMETABLE_TEST_CLUSTER") != "1"


async def tables_of(service: TableService, player: Player, channels: Iterable[int]) -> list[str]:
    return [(await service.create("high-card", player, channel_id=c, guild_id=10)).id for c in channels]


async def test_find_at_two_hundred_tables_loads_only_the_one_it_returns(
    service: TableService, loaded: list[str], round_trips: list[int]
) -> None:
    mine = await tables_of(service, ANN, range(1000, 1000 + MANY))
    await service.find(ANN.user_id, 1000)  # Redis learns the lookup script
    loaded.clear()
    round_trips[0] = 0

    found = await service.find(ANN.user_id, 1150)

    assert found.id == mine[150]
    assert loaded == [mine[150]]
    if standalone():
        assert round_trips[0] == 2  # the user's list lines, then the table


async def test_find_refuses_several_tables_after_reading_two(
    service: TableService, loaded: list[str]
) -> None:
    await tables_of(service, ANN, range(1000, 1000 + MANY))
    loaded.clear()
    with pytest.raises(TableError, match="several tables"):
        await service.find(ANN.user_id, 5)  # none here, many elsewhere
    assert len(loaded) == 2
    await tables_of(service, ANN, range(7, 9))
    await service.create("high-card", ANN, channel_id=7)
    loaded.clear()
    with pytest.raises(TableError, match="several tables"):
        await service.find(ANN.user_id, 7)  # two here
    assert len(loaded) == 2


async def test_find_falls_back_to_the_channels_one_table(service: TableService, loaded: list[str]) -> None:
    theirs = await tables_of(service, BOB, range(100, 101))
    await tables_of(service, CID, range(1000, 1000 + MANY))
    loaded.clear()
    assert (await service.find(ANN.user_id, 100)).id == theirs[0]
    assert loaded == theirs
    with pytest.raises(TableNotFound):
        await service.find(ANN.user_id, 5)
    await tables_of(service, CID, range(100, 101))
    with pytest.raises(TableNotFound):
        await service.find(ANN.user_id, 100)  # two tables here, none Ann's


async def test_find_lobby_among_two_hundred_tables_in_play_loads_only_the_lobby(
    service: TableService, loaded: list[str]
) -> None:
    for table_id in await tables_of(service, ANN, [100] * MANY):
        await service.join(table_id, BOB)
        await service.start(table_id, ANN.user_id)
    lobby = await service.create("high-card", CID, channel_id=100)
    loaded.clear()
    assert (await service.find_lobby(100)).id == lobby.id
    assert loaded == [lobby.id]


async def test_a_line_of_a_table_gone_is_dropped_and_the_choice_made_again(
    service: TableService, store: TableStore
) -> None:
    gone, other = await tables_of(service, ANN, range(100, 102))
    await store.redis.delete(keys.table(gone))  # its lines stay behind, saying it is in channel 100
    assert (await service.find(ANN.user_id, 100)).id == other  # Ann's one table anywhere
    assert [e.id for e in (await store.page(f"user:{ANN.user_id}", 0, 5)).entries] == [other]


async def test_a_stale_lobby_line_is_written_again_and_the_real_lobby_found(
    service: TableService, store: TableStore
) -> None:
    started = (await service.create("high-card", ANN, channel_id=100)).id
    await service.join(started, BOB)
    lobby_line = await store.redis.hget(list_keys("channel:100")[1], started)
    record = (await service.start(started, ANN.user_id)).table
    # As if the start's list write were lost: the channel's line still says lobby, at the table's version.
    assert lobby_line is not None
    _, _, line = (lobby_line.decode() if isinstance(lobby_line, bytes) else str(lobby_line)).partition("|")
    await store.redis.hset(list_keys("channel:100")[1], started, f"{record.version}|{line}")
    with pytest.raises(TableNotFound):
        await service.find_lobby(100)
    [entry] = (await store.page("channel:100", 0, 5)).entries
    assert entry.status is TableStatus.PLAYING, "the line was written again from the table"

    await store.redis.hset(list_keys("channel:100")[1], started, f"{record.version}|{line}")
    lobby = await service.create("high-card", CID, channel_id=100)
    assert (await service.find_lobby(100)).id == lobby.id


async def test_a_line_that_cannot_be_put_right_sends_find_to_the_tables(
    service: TableService, store: TableStore
) -> None:
    here, elsewhere = await tables_of(service, ANN, range(100, 102))
    # A line from a "newer" version saying the table elsewhere is here: no write of it can replace it.
    entry = listing.entry_of(await service.get(elsewhere), f"user:{ANN.user_id}")
    entry.channel_id = 100
    await store.redis.hset(list_keys(f"user:{ANN.user_id}")[1], elsewhere, f"999|{entry.model_dump_json()}")
    assert (await service.find(ANN.user_id, 100)).id == here


async def test_find_reads_an_earlier_versions_set(service: TableService, store: TableStore) -> None:
    [table_id] = await tables_of(service, ANN, range(100, 101))
    await store.redis.delete(*list_keys(f"user:{ANN.user_id}"))
    await store.redis.sadd(keys.user(ANN.user_id), table_id)
    assert (await service.find(ANN.user_id, 555)).id == table_id
    assert not await store.redis.exists(keys.user(ANN.user_id))


async def test_a_headline_quoting_a_field_matches_nothing(store: TableStore) -> None:
    found = await store.lookup("channel:100", status=TableStatus.LOBBY)
    assert found.total == 0 and not found.matches
    record = TableRecord.model_validate(
        dict(
            id="t", game="high-card", host_id=1, status=TableStatus.PLAYING, seats=[], channel_id=100,
            created_at=1.0, updated_at=1.0, seed=7, turn_timeout=60.0,
            headline='"status":"lobby", "channel_id":7, "thread_id":7,',
        )
    )  # fmt: skip
    await store.create(record)
    found = await store.lookup("channel:100", status=TableStatus.LOBBY)
    assert found.total == 1 and not found.matches and [e.id for e in found.first] == ["t"]
    assert not (await store.lookup("channel:100", channel=7)).matches
    assert [e.id for e in (await store.lookup("channel:100", channel=100)).matches] == ["t"]


async def test_every_table_of_a_user_loads_in_one_pipeline(
    service: TableService, store: TableStore, loaded: list[str], round_trips: list[int]
) -> None:
    """What vacations and /settings me read (they change every table): the
    list's ids, then every table in one pipeline, however many there are."""
    mine = await tables_of(service, ANN, range(1000, 1000 + MANY))
    loaded.clear()
    round_trips[0] = 0
    assert sorted(t.id for t in await store.of_user(ANN.user_id)) == sorted(mine)
    assert sorted(loaded) == sorted(mine)
    if standalone():
        assert round_trips[0] == 2
