"""Each player's finished games per server (storage.played) on a real Redis
(and on a cluster with ``GAMETABLE_TEST_CLUSTER=1``): one entry per table
however often its end is told, the newest kept, nothing lost to races."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis
from redis.crc import key_slot

from storage.played import PlayedGame, PlayedGames, games_key, order_key

GUILD, USER = 5, 42


def line(table_id: str, at: float, place: int = 1) -> PlayedGame:
    return PlayedGame(table_id=table_id, game="g", at=at, name="Ann", place=place, places=2, others=["Bob"])


async def test_a_tables_end_told_twice_is_one_entry_with_its_first_end_time(redis: Redis) -> None:
    played = PlayedGames(redis)
    assert await played.record(GUILD, {USER: line("t1", 100.0)}) == 1
    # Told again after a later save of the finished table (its updated_at moved on).
    assert await played.record(GUILD, {USER: line("t1", 500.0, place=2)}) == 0
    assert await played.recent(GUILD, USER, 20) == [line("t1", 100.0)]
    assert await redis.zcard(order_key(GUILD, USER)) == 1 and await redis.hlen(games_key(GUILD, USER)) == 1


async def test_newest_first_and_only_the_newest_kept_with_their_lines(redis: Redis) -> None:
    played = PlayedGames(redis, kept=3)
    for number in range(6):
        await played.record(GUILD, {USER: line(f"t{number}", 100.0 + number)})
    assert [g.table_id for g in await played.recent(GUILD, USER, 20)] == ["t5", "t4", "t3"]
    assert [g.table_id for g in await played.recent(GUILD, USER, 2)] == ["t5", "t4"]
    # The trimmed tables' lines went with them: the hash never grows past the cap.
    assert sorted(await redis.hkeys(games_key(GUILD, USER))) == [b"t3", b"t4", b"t5"]
    # An old table told late is not let back in above the newest.
    await played.record(GUILD, {USER: line("late", 1.0)})
    assert [g.table_id for g in await played.recent(GUILD, USER, 20)] == ["t5", "t4", "t3"]
    assert await redis.hlen(games_key(GUILD, USER)) == 3


async def test_tables_ending_at_once_lose_nothing(redis: Redis) -> None:
    played = PlayedGames(redis, kept=10)
    await asyncio.gather(*(played.record(GUILD, {USER: line(f"t{n:02d}", 100.0 + n)}) for n in range(30)))
    newest = [g.table_id for g in await played.recent(GUILD, USER, 50)]
    assert newest == [f"t{n:02d}" for n in range(29, 19, -1)]
    assert await redis.hlen(games_key(GUILD, USER)) == 10


async def test_one_table_lists_each_player_in_their_own_server_and_slot(redis: Redis) -> None:
    played = PlayedGames(redis)
    await played.record(GUILD, {1: line("t1", 10.0), 2: line("t1", 10.0, place=2)})
    assert [g.place for g in await played.recent(GUILD, 1, 20)] == [1]
    assert [g.place for g in await played.recent(GUILD, 2, 20)] == [2]
    assert await played.recent(GUILD + 1, 1, 20) == [] and await played.recent(GUILD, 3, 20) == []
    # One player's two keys share a slot (one script writes both on a cluster).
    assert key_slot(order_key(GUILD, 1).encode()) == key_slot(games_key(GUILD, 1).encode())


async def test_an_unreadable_line_is_skipped(redis: Redis) -> None:
    played = PlayedGames(redis)
    await played.record(GUILD, {USER: line("t1", 10.0)})
    await played.record(GUILD, {USER: line("t2", 20.0)})
    await redis.hset(games_key(GUILD, USER), "t2", "{not json")
    assert [g.table_id for g in await played.recent(GUILD, USER, 20)] == ["t1"]
