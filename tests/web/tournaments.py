"""Tournaments driven through the service for the page tests (and the browser's):
opened in a server, entered, rounds seated, tables played out to their end
and counted, as the bot's outbox counts them."""

from __future__ import annotations

from typing import Any

from bot.service.tables import Player
from bot.tournaments.table_ends import Results
from bot.web.site import Site
from engines.registry import GAMES
from storage.records import TableStatus
from storage.tournaments import Format, Phase, Tournament
from tests.support.minigame import HIGH_CARD
from tests.web.conftest import HOME

GAMES_HERE: dict[str, Any] = {**GAMES, "high-card": HIGH_CARD}
# Ids far from any number a page shows (places, points, table numbers), so a printed one is seen.
FIRST_USER = 4_242_000


def players(count: int) -> list[Player]:
    return [Player(FIRST_USER + i, f"Player {chr(65 + i % 26)}{i // 26 or ''}") for i in range(count)]


async def open_cup(
    site: Site, fmt: Format, entrants: int, *, guild_id: int = HOME, table_size: int = 2, **options: Any
) -> Tournament:
    t = await site.tournaments.create(
        name="Spring Cup",
        game="high-card",
        organiser_id=1,
        guild_id=guild_id,
        channel_id=6,
        fmt=fmt,
        table_size=table_size,
        **options,
    )
    for player in players(entrants):
        await site.tournaments.join(t.id, player)
    return await site.tournaments.get(t.id)


async def start(site: Site, tournament_id: str) -> Tournament:
    await site.tournaments.start(tournament_id)
    return await site.tournaments.seat_round(tournament_id)


async def finish_table(site: Site, table_id: str) -> Tournament:
    """Play a table out to its end (unless it ended already) and count it for its tournament."""
    record = await site.service.get(table_id)
    if record.status is TableStatus.PLAYING:
        record = (await site.service.play_out(table_id)).table
    assert site.ratings is not None
    counted = await Results(site.ratings, site.tournaments).table_ended(record)
    assert counted is not None, "a tournament table's end is counted"
    return counted


async def finish_round(site: Site, t: Tournament) -> Tournament:
    assert t.current is not None
    for table in t.current.open_tables:
        assert table.table_id is not None
        t = await finish_table(site, table.table_id)
    return t


async def next_round(site: Site, t: Tournament) -> Tournament:
    t = await site.tournaments.advance(t.id)
    if t.phase is Phase.RUNNING:
        t = await site.tournaments.seat_round(t.id)
    return t


async def play_to_the_end(site: Site, t: Tournament) -> Tournament:
    while t.phase is Phase.RUNNING:
        t = await next_round(site, await finish_round(site, t))
    return t
