"""Real tables for the page tests: a game opened in a server, seated and
started through the service, and moved on by random legal moves."""

from __future__ import annotations

import random

from bot.service.tables import Player, TableService
from engines.registry import GAMES
from storage.records import TableRecord, TableStatus
from tests.web.conftest import HOME

PEOPLE = [Player(100 + n, name) for n, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"])]


async def started(
    service: TableService, game: str, players: int = 0, guild_id: int | None = HOME, seed: int = 1
) -> TableRecord:
    """A table of ``game`` with ``players`` people (the game's fewest by default), started."""
    count = players or GAMES[game].info.min_players
    record = await service.create(game, PEOPLE[0], guild_id=guild_id, channel_id=55, seed=seed)
    for person in PEOPLE[1:count]:
        await service.join(record.id, person)
    return (await service.start(record.id, PEOPLE[0].user_id)).table


async def step(service: TableService, table_id: str, rng: random.Random) -> TableRecord:
    """One random legal move (not an idle one while another is open) by a seat the game waits for."""
    record = await service.get(table_id)
    seats = sorted({p.seat for p in service.prompts(record)})
    movers = [(s, service.choices(record, record.seats[s].user_id or 0)) for s in seats]
    movers = [(s, c) for s, c in movers if c and record.seats[s].user_id is not None]
    seat, choices = rng.choice(movers)
    choice = rng.choice([c for c in choices if not c.idle] or choices)
    user_id = record.seats[seat].user_id
    assert user_id is not None
    return (await service.act(table_id, user_id, choice.key, record.version)).table


async def play(service: TableService, table_id: str, moves: int, rng: random.Random) -> TableRecord:
    """Up to ``moves`` random moves (fewer if the game ends)."""
    record = await service.get(table_id)
    for _ in range(moves):
        if record.status is not TableStatus.PLAYING:
            break
        record = await step(service, table_id, rng)
    return record


async def finished(service: TableService, table_id: str, rng: random.Random, most: int = 3000) -> TableRecord:
    record = await play(service, table_id, most, rng)
    assert record.status is TableStatus.FINISHED, "the game did not end"
    return record
