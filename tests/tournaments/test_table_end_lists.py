"""A table's end lists it on each of its players' pages (bot.tournaments.table_ends):
tables driven to their end through TableService on a real Redis."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bot.service.absence import BOT_SUFFIX
from bot.service.ratings import RatingService
from bot.service.tables import Player, TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.table_ends import Results
from storage.played import PlayedGame
from storage.ratings import RatingStore
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.store import TableStore
from storage.tournaments import TournamentStore
from tests.support.minigame import HIGH_CARD

GUILD = 5
ANN, BOB, CID = Player(101, "Ann"), Player(102, "Bob"), Player(103, "Cid")


@pytest.fixture
def results(redis: Redis) -> Results:
    tables = TableService(TableStore(redis), games={"high-card": HIGH_CARD})
    ratings = RatingService(RatingStore(redis), tables.clock)
    return Results(ratings, TournamentService(TournamentStore(redis), tables, ratings, clock=tables.clock))


def tables(results: Results) -> TableService:
    return results.tournaments.tables


async def ended(
    results: Results, *players: Player, bots: int = 0, guild_id: int | None = GUILD, rated: bool = False
) -> TableRecord:
    """A High Card table of ``players`` and ``bots`` played out to its end."""
    service = tables(results)
    table = await service.create("high-card", players[0], guild_id=guild_id, channel_id=6, rated=rated)
    for player in players[1:]:
        await service.join(table.id, player)
    for _ in range(bots):
        await service.add_bot(table.id, players[0].user_id)
    await service.start(table.id, players[0].user_id)
    record = (await service.play_out(table.id)).table
    assert record.status is TableStatus.FINISHED
    return record


async def listed(results: Results, user_id: int, guild_id: int = GUILD) -> list[PlayedGame]:
    return await results.played.recent(guild_id, user_id, 50)


def place_of(results: Results, record: TableRecord, seat: int) -> int:
    result = tables(results).result(record)
    assert result is not None
    return 1 + next(i for i, group in enumerate(result.ranking) if seat in group)


async def test_every_human_seat_is_listed_once_however_often_the_end_is_told(
    results: Results, redis: Redis
) -> None:
    record = await ended(results, ANN, BOB, bots=1)
    await results.table_ended(record)
    await results.table_ended(await tables(results).get(record.id))  # told again, as after a restart
    for seat, player in ((0, ANN), (1, BOB)):
        (line,) = await listed(results, player.user_id)
        assert line.table_id == record.id and line.game == "high-card" and not line.rated
        assert line.name == player.name and line.at == record.updated_at
        assert line.place == place_of(results, record, seat) and line.places == 3
        assert line.others == [s.name for i, s in enumerate(record.seats) if i != seat]
    # The bot's seat is nobody's: only the two people have lists.
    assert len([k async for k in redis.scan_iter(match="gt:played:*:order")]) == 2


async def test_a_seat_a_bot_holds_for_an_away_player_is_theirs(results: Results) -> None:
    record = await ended(results, ANN, BOB, CID)
    # Bob timed out into a bot for the rest of the game (see bot.service.absence).
    record.seats[1] = SeatRecord(user_id=None, name=f"Bob{BOT_SUFFIX}", away=BOB.user_id)
    await results.table_ended(record)
    (line,) = await listed(results, BOB.user_id)
    assert line.name == "Bob" and line.place == place_of(results, record, 1)
    assert line.others == ["Ann", "Cid"]
    (ann,) = await listed(results, ANN.user_id)
    assert ann.others == [f"Bob{BOT_SUFFIX}", "Cid"]


async def test_abandoned_and_direct_message_tables_are_not_listed(results: Results, redis: Redis) -> None:
    service = tables(results)
    lobby = await service.create("high-card", ANN, guild_id=GUILD, channel_id=6)
    await service.join(lobby.id, BOB)
    await service.start(lobby.id, ANN.user_id)
    abandoned = (await service.abandon(lobby.id, ANN.user_id)).table
    assert abandoned.status is TableStatus.ABANDONED
    assert await results.table_ended(abandoned) is None
    await results.table_ended(await ended(results, ANN, BOB, guild_id=None))
    assert [k async for k in redis.scan_iter(match="gt:played:*")] == []


async def test_a_rated_table_is_listed_and_rated(results: Results) -> None:
    record = await ended(results, ANN, BOB, rated=True)
    await results.table_ended(record)
    (line,) = await listed(results, ANN.user_id)
    assert line.rated and line.table_id == record.id
    (rated,) = await results.ratings.store.results(GUILD, "high-card")
    assert rated.table_id == record.id and rated.at == line.at
    assert await listed(results, ANN.user_id, guild_id=GUILD + 1) == []
