"""Bots at a table, through TableService on a real Redis: the difficulty is kept
on the seat, bot moves come from the search and replay the same way, and a
table of searching bots does not stall the event loop."""

from __future__ import annotations

import asyncio
import dataclasses
import math

import pytest

from bot import tables
from bot.tables import Player, TableService
from engines.ai import LEVELS
from engines.registry import GAMES
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock

ANN = Player(1, "Ann")


@pytest.fixture
def service(store: TableStore) -> TableService:
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games=GAMES)


async def bot_table(service: TableService, levels: list[str], seed: int) -> str:
    table = await service.create("time-masters", ANN, channel_id=100, guild_id=10, seed=seed)
    for level in levels:
        await service.add_bot(table.id, ANN.user_id, level=level)  # type: ignore[arg-type]
    return table.id


async def test_the_difficulty_is_kept_on_the_seat_and_told(service: TableService) -> None:
    table_id = await bot_table(service, [], 1)
    outcome = await service.add_bot(table_id, ANN.user_id, level="hard")
    assert [(s.name, s.level) for s in outcome.table.seats[1:]] == [("Bot 1", "hard")]
    assert service.text(outcome.table, outcome.public_events[0].text) == "Bot 1 (hard bot) takes a seat."
    plain = await service.add_bot(table_id, ANN.user_id)
    assert plain.table.seats[2].level == "normal"


async def bot_moves(service: TableService, table_id: str) -> list[object]:
    return [e.action for e in await service.store.log(table_id) if e.kind == "bot"]


async def test_bots_play_their_turns_and_replay_the_same_way(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the clock out of the way (a loaded machine may cut a search short),
    # the table's seed and version alone decide every bot move.
    for name, level in list(LEVELS.items()):
        monkeypatch.setitem(LEVELS, name, dataclasses.replace(level, budget_ms=math.inf))
    # Seed 4: a bot moves first, so starting the table plays its whole turn.
    first = await bot_table(service, ["normal", "easy"], 4)
    second = await bot_table(service, ["normal", "easy"], 4)
    for table_id in (first, second):
        outcome = await service.start(table_id, ANN.user_id)
        assert outcome.table.status is TableStatus.PLAYING
        assert service.awaited(outcome.table) == [0]  # back to Ann
    moves = await bot_moves(service, first)
    assert len(moves) >= 3 and moves == await bot_moves(service, second)


async def test_a_table_of_searching_bots_leaves_the_event_loop_free(service: TableService) -> None:
    table_id = await bot_table(service, ["hard", "hard", "hard"], 4)
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    ticking = asyncio.create_task(ticker())
    await service.start(table_id, ANN.user_id)
    done.set()
    await ticking
    assert len(await bot_moves(service, table_id)) >= 3
    # Several hard searches ran while the start was saved; had they run on the
    # loop, the ticker would have stood still for all of them.
    assert ticks >= 10


async def test_a_long_chain_of_bot_moves_goes_on_from_the_sweeper(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "BOT_SECONDS", 0.0)  # each change: one bot move, then hand over
    table_id = await bot_table(service, ["easy", "easy"], 4)
    started = await service.start(table_id, ANN.user_id)
    assert len(await bot_moves(service, table_id)) == 1
    assert started.table.deadline == service.clock()  # due now: the sweeper goes on at once
    await service.expire()
    assert len(await bot_moves(service, table_id)) == 2
