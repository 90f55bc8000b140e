"""The table's log, read back from Redis: every change's own entry is there,
before the entries of the moves bots made in the same save."""

from __future__ import annotations

import pytest

from bot.service.tables import TableService
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, high_card_service


@pytest.fixture
def service(store: TableStore) -> TableService:
    return high_card_service(store, Clock(1000.0))


async def test_a_start_is_logged_before_the_bot_moves_it_set_off(service: TableService) -> None:
    table = await service.create("high-card", ANN, seed=5)
    await service.add_bot(table.id, ANN.user_id)
    await service.join(table.id, BOB)
    await service.leave(table.id, ANN.user_id)  # the bot now sits first, so it moves at the start
    started = await service.start(table.id, BOB.user_id)
    entries = [e for e in await service.store.log(table.id) if e.version == started.table.version]
    assert [e.kind for e in entries][:2] == ["start", "bot"]
    started_lines = [ev["text"] for ev in entries[0].events]
    assert started_lines[0] == "The game of High Card begins."
    assert all("seed" in line for line in started_lines[1:]), "only the shuffle's seal line may follow"
    assert not any("begins" in ev["text"] for e in entries[1:] for ev in e.events)


async def test_a_leave_mid_game_is_logged_before_the_bot_that_takes_the_seat(service: TableService) -> None:
    table = await service.create("high-card", ANN, seed=5)
    await service.join(table.id, BOB)
    await service.start(table.id, ANN.user_id)
    left = await service.leave(table.id, ANN.user_id)  # Ann's turn: her bot plays at once
    entries = [e for e in await service.store.log(table.id) if e.version == left.table.version]
    assert [e.kind for e in entries][:2] == ["leave", "bot"]
    assert entries[0].events[0]["text"] == "Ann leaves; a bot plays their seat from now on."
    kinds = [e.kind for e in await service.store.log(table.id)]
    assert kinds[:4] == ["create", "join", "start", "leave"]
