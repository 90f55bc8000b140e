"""Real games played to the end through the table service, for the pages of
finished tables: two people in a server, seeded random moves."""

from __future__ import annotations

import random

from bot.render import Panel, renderer_for
from bot.service.tables import Player, TableService
from storage.records import TableStatus

ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")
PEOPLE = (ANN, BOB, CID, Player(4, "Dee"), Player(5, "Eve"))
GAMES = ("spheres-of-life", "scales-of-influence", "time-masters", "phase", "once-upon-a-time-life")


async def start(
    service: TableService, game: str, guild_id: int, *, rated: bool = False, players: tuple[Player, ...] = ()
) -> str:
    """A table of ``players`` (else as few of :data:`PEOPLE` as the game takes, at least two) in
    ``guild_id``, started."""
    engine = service.engine(game)
    least, _ = engine.seat_range(engine.parse_options({}))
    players = players or PEOPLE[: max(2, least)]
    table = await service.create(game, players[0], guild_id=guild_id, channel_id=guild_id * 10, rated=rated)
    for player in players[1:]:
        await service.join(table.id, player)
    await service.start(table.id, players[0].user_id)
    return table.id


async def play(
    service: TableService,
    table_id: str,
    seed: int = 1,
    moves: int | None = None,
    seen: list[Panel] | None = None,
) -> int:
    """Random legal moves (``moves`` of them, or to the end); how many were made.
    ``seen`` gets the public table panel as a spectator saw it before the first
    move and after each one."""
    rng = random.Random(seed)
    made = 0
    while moves is None or made < moves:
        record = await service.get(table_id)
        if seen is not None:
            seen.append(renderer_for(record.game).table(service.view(record, None)))
        if record.status is not TableStatus.PLAYING:
            return made
        seat = rng.choice(service.awaited(record))
        user = record.seats[seat].user_id
        assert user is not None
        choice = rng.choice(service.choices(record, user))
        await service.act(table_id, user, choice.key, record.version)
        made += 1
        assert made < 5000, "the game did not end"
    return made


async def finished(
    service: TableService,
    game: str,
    guild_id: int,
    *,
    rated: bool = False,
    seed: int = 1,
    seen: list[Panel] | None = None,
    players: tuple[Player, ...] = (),
) -> str:
    """A table of ``game`` in ``guild_id`` played to its end."""
    table_id = await start(service, game, guild_id, rated=rated, players=players)
    await play(service, table_id, seed, seen=seen)
    return table_id
