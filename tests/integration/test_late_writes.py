"""A finished table's log survives every write that comes after its end: the
message and thread that show it, a player's settings copied in, a tournament
round whose seating is resumed and posts it again. Each such save archives the
log again, and the archive only ever grows; `/table log`'s data still replays."""

from __future__ import annotations

import asyncio
import contextlib

from redis.asyncio import Redis

from bot.service.replay import replay
from bot.service.tablelog import log_files
from bot.service.tables import Player, TableService
from bot.service.user_prefs import save_settings
from bot.tournaments.service import TournamentService
from storage import keys
from storage.records import LogEntry, TableRecord, TableStatus
from storage.retention import archive_key
from storage.store import TableStore
from storage.tournaments import Format, TournamentStore
from storage.user_settings import UserSettings
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.service import ANN, BOB, high_card_service, high_card_table

GAMES = {"high-card": HIGH_CARD}


async def play_to_the_end(service: TableService, table_id: str) -> TableRecord:
    record = await service.get(table_id)
    while record.status is TableStatus.PLAYING:
        seat = service.awaited(record)[0]
        user = record.seats[seat].user_id
        assert user is not None
        record = (await service.act(table_id, user, service.choices(record, user)[0].key)).table
    assert record.status is TableStatus.FINISHED
    return record


async def replays(service: TableService, table_id: str) -> list[LogEntry]:
    """The log as `/table log` sends it, checked by `gametable replay`'s code."""
    record = await service.get(table_id)
    entries = await service.store.log(table_id)
    checked = replay(log_files(record, HIGH_CARD, entries).jsonl, GAMES)
    assert checked.moves == sum(e.kind in ("act", "bot", "timeout") for e in entries)
    return entries


async def test_every_late_write_on_a_finished_table_keeps_its_log(redis: Redis) -> None:
    service = high_card_service(TableStore(redis), Clock(1000.0))
    table_id = await high_card_table(service, ANN, BOB)
    await play_to_the_end(service, table_id)
    logged = await replays(service, table_id)
    assert await redis.llen(keys.log(table_id)) == 0, "archived at the end"

    await service.attach(table_id, message_id=1)
    await service.attach(table_id, thread_id=2)
    await save_settings(service, ANN.user_id, UserSettings(notify="turn"))
    await service.attach(table_id, message_id=3)

    assert await replays(service, table_id) == logged
    assert await redis.llen(keys.log(table_id)) == 0 and await redis.exists(archive_key(table_id))
    record = await service.get(table_id)
    assert record.message_id == 3 and record.thread_id == 2
    assert ANN.user_id not in record.clocks.prefs, "settings are copied into tables in play, not over ones"


async def test_a_resumed_seating_that_posts_a_finished_table_again_keeps_its_log(redis: Redis) -> None:
    tables = TableService(TableStore(redis), games=GAMES)
    tournaments = TournamentService(TournamentStore(redis), tables)
    cup = await tournaments.create(
        name="Cup",
        game="high-card",
        organiser_id=1,
        guild_id=5,
        channel_id=6,
        fmt=Format.SWISS,
        table_size=2,
        rounds=1,
    )
    for user in (101, 102):
        await tournaments.join(cup.id, Player(user, f"p{user}"))
    cup = await tournaments.start(cup.id)
    assert cup.current is not None
    [seating] = cup.current.tables
    assert seating.table_id is not None

    async def crash(record: TableRecord) -> None:
        raise ConnectionError("the process died before posting the table")

    with contextlib.suppress(ConnectionError):
        await tournaments.seat_round(cup.id, crash)
    await play_to_the_end(tables, seating.table_id)  # played before it was ever posted
    logged = await replays(tables, seating.table_id)

    async def post(record: TableRecord) -> None:
        if record.message_id is None:
            await tables.attach(record.id, message_id=77, thread_id=78)

    cup = await tournaments.seat_round(cup.id, post)  # the tick resumes the seating
    assert cup.current is not None and cup.current.seated
    assert await replays(tables, seating.table_id) == logged
    assert (await tables.get(seating.table_id)).message_id == 77


async def test_thirty_tables_ending_while_late_writes_arrive_keep_every_log(redis: Redis) -> None:
    service = high_card_service(TableStore(redis), Clock(1000.0))
    ids = [await high_card_table(service, ANN, BOB) for _ in range(30)]

    async def end_and_show(table_id: str) -> None:
        async def show() -> None:
            for message in range(1, 4):
                await service.attach(table_id, message_id=message)
                await asyncio.sleep(0)

        await asyncio.gather(play_to_the_end(service, table_id), show())
        await service.attach(table_id, message_id=9)

    await asyncio.gather(*(end_and_show(t) for t in ids), save_settings(service, BOB.user_id, UserSettings()))
    for table_id in ids:
        entries = await replays(service, table_id)
        assert [e.kind for e in entries][:3] == ["create", "join", "start"] and entries[-1].kind == "end"
