"""Seating a round is idempotent under concurrent seaters and kills: every
process's tick may see a round due at once, and any may die half-way. Two
processes on one Redis: one seater killed while showing a table, then two at
once; every table is made and started exactly once, the round is seated and
then completes."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter

from redis.asyncio import Redis

from bot.tournaments.service import TournamentService
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.tournaments import Format, Phase, Tournament
from tests.tournaments.test_service import finish_round, open_cup, register, services


async def test_concurrent_seaters_and_a_killed_one_seat_every_table_exactly_once(redis: Redis) -> None:
    first, second = services(redis), services(redis)
    cup = await open_cup(first, "high-card", fmt=Format.SWISS, table_size=2, rounds=1, name="Race")
    await register(first, cup, 12)
    cup = await first.start(cup.id)
    assert cup.current is not None and len(cup.current.tables) == 6

    hung: list[str] = []
    stuck = asyncio.Event()

    async def hang(record: TableRecord) -> None:
        hung.append(record.id)
        if len(hung) == 2:
            stuck.set()
            await asyncio.Event().wait()  # the process is killed here, while showing its second table

    killed = asyncio.create_task(first.seat_round(cup.id, hang))
    await stuck.wait()
    killed.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await killed

    shown: Counter[str] = Counter()

    async def show(record: TableRecord) -> None:
        shown[record.id] += 1
        await asyncio.sleep(0)

    seaters: list[TournamentService] = [first, second, second]
    done = await asyncio.gather(*(s.seat_round_once(cup.id, show) for s in seaters))
    assert sum(marked for _, marked in done) == 1, "one seater marks the round seated (and announces it)"
    cup = await first.get(cup.id)
    assert cup.current is not None and cup.current.seated and not cup.current.closed
    ids = [t.table_id for t in cup.current.tables]
    assert set(shown) == set(ids), "every table is shown"
    for seating in cup.current.tables:
        assert seating.table_id is not None
        record = await first.tables.get(seating.table_id)
        assert record.status is TableStatus.PLAYING
        assert [s.user_id for s in record.seats] == seating.players
        kinds = Counter(e.kind for e in await first.tables.store.log(seating.table_id))
        assert kinds["create"] == 1 and kinds["start"] == 1, "made and started exactly once"

    cup = await finish_round(first, cup)
    assert cup.rounds[0].closed
    assert (await first.advance(cup.id)).phase is Phase.FINISHED, "the round completes the tournament"


async def test_a_seater_that_finds_its_table_started_under_it_carries_on(redis: Redis) -> None:
    first, second = services(redis), services(redis)
    cup = await open_cup(first, "high-card", fmt=Format.SWISS, table_size=2, rounds=1, name="Pair")
    await register(first, cup, 8)
    cup = await first.start(cup.id)
    assert cup.current is not None
    organiser = cup.organiser_id
    # The race, made certain: each time the second seater reads a table still in its
    # lobby, the first seater starts it before the second one can.
    read = second.tables.get
    raced: list[str] = []

    async def read_then_lose_the_race(table_id: str, **options: bool) -> TableRecord:
        record = await read(table_id, **options)
        if record.status is TableStatus.LOBBY and table_id not in raced:
            raced.append(table_id)
            await first.tables.start(table_id, organiser)
        return record

    second.tables.get = read_then_lose_the_race  # type: ignore[method-assign]
    for seating in cup.current.tables:  # the first seater made every table, and died
        assert seating.table_id is not None
        await first.tables.store.create(_lobby_of(await first.get(cup.id), seating.table_id, seating.players))
    cup = await second.seat_round(cup.id)
    assert cup.current is not None and cup.current.seated and len(raced) == 4
    for seating in cup.current.tables:
        assert seating.table_id is not None
        assert (await first.tables.get(seating.table_id)).status is TableStatus.PLAYING
        kinds = Counter(e.kind for e in await first.tables.store.log(seating.table_id))
        assert kinds["start"] == 1


def _lobby_of(cup: Tournament, table_id: str, players: list[int]) -> TableRecord:
    """A round's table as a seater that died right after making it left it: in its lobby."""
    return TableRecord(
        id=table_id,
        game=cup.game,
        host_id=cup.organiser_id,
        guild_id=cup.guild_id,
        channel_id=cup.channel_id,
        seats=[SeatRecord(user_id=u, name=f"p{u}") for u in players],
        created_at=1.0,
        updated_at=1.0,
        seed=random.Random(f"{cup.seed}:{table_id}").getrandbits(48),
        turn_timeout=cup.turn_timeout,
        options=cup.options,
        tournament_id=cup.id,
    )
