"""A table whose game is no longer installed still ends: its host or a moderator
abandons it (nobody else), with its log line and its news, though the table
cannot be played or even loaded by the game's rules any more."""

from __future__ import annotations

import pytest

from bot.service.errors import NotHost, TableError, WrongStatus
from bot.service.tables import TableService
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, CID, high_card_service, high_card_table


def without_the_game(store: TableStore) -> TableService:
    """The same tables, served by an install that no longer has High Card."""
    return TableService(store, clock=Clock(2000.0), turn_timeout=60, games={})


@pytest.mark.parametrize("lobby", [False, True])
async def test_its_host_abandons_a_table_of_a_game_no_longer_installed(
    store: TableStore, lobby: bool
) -> None:
    table_id = await high_card_table(high_card_service(store, Clock(1000.0)), ANN, BOB, start=not lobby)
    service = without_the_game(store)
    with pytest.raises(TableError, match="no game called"):
        await service.leave(table_id, BOB.user_id)  # playing it needs the game
    with pytest.raises(NotHost):
        await service.abandon(table_id, BOB.user_id)
    waiting = await service.store.outbox.length(table_id)
    outcome = await service.abandon(table_id, ANN.user_id)
    assert outcome.table.status is TableStatus.ABANDONED and outcome.seat == 0
    stored = await service.get(table_id)
    assert stored.status is TableStatus.ABANDONED and stored.deadline is None and not stored.clocks.due
    last = (await service.store.log(table_id))[-1]
    assert (last.kind, last.events[0]["text"]) == ("abandon", "The table was abandoned.")
    assert await service.store.outbox.length(table_id) == waiting + 1, "the channel is told"
    with pytest.raises(WrongStatus):
        await service.abandon(table_id, ANN.user_id)


async def test_a_moderator_abandons_it_too(store: TableStore) -> None:
    table_id = await high_card_table(high_card_service(store, Clock(1000.0)), ANN, BOB)
    service = without_the_game(store)
    outcome = await service.abandon(table_id, CID.user_id, moderator=True)
    assert outcome.table.status is TableStatus.ABANDONED and outcome.seat is None
