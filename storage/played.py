"""Each player's finished games in one server, newest first, for their page.

A table's lists drop it once it is over, and the ratings keep only rated
games; this keeps every finished table of a server for each person who played
it: ``gt:played:{played:GUILD:USER}:order`` (table ids by end time) and
``…:games`` (each table's line: the game, when, the player's place, the other
seats' names), in one slot so that one script writes both and one reads them.

Writing is idempotent by table id: a table's end reported twice (a retry, two
processes) leaves one entry, with the end time first written. Only the newest
:data:`KEPT` are kept, trimmed in the same script, so two tables ending at once
can neither lose an entry nor leave a line without its place in the order. A
line outlives its table: retention deletes the table, not what was played."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from redis.asyncio import Redis

from storage import keys

SCHEMA = 1
KEPT = 50

# KEYS order, games; ARGV table id, end time, line, kept. 1: entered; 0: there already.
_RECORD = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local old = redis.call('ZRANGE', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
for _, id in ipairs(old) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
return 1
"""
# KEYS order, games; ARGV how many. The newest ids, and their lines.
_READ = """
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return {} end
return {ids, redis.call('HMGET', KEYS[2], unpack(ids))}
"""


class PlayedGame(BaseModel):
    """One finished table as one of its players' page lists it."""

    schema_version: int = SCHEMA
    table_id: str
    game: str
    at: float  # when it ended
    name: str  # the player's name at that table
    place: int | None  # 1 best (tied sides share it); None: the result does not place them
    places: int  # how many places the result gives out
    tied: bool = False
    others: list[str] = Field(default_factory=list)  # the other seats' names, in seat order
    rated: bool = False


def order_key(guild_id: int, user_id: int) -> str:
    return keys.played(guild_id, user_id, "order")


def games_key(guild_id: int, user_id: int) -> str:
    return keys.played(guild_id, user_id, "games")


class PlayedGames:
    def __init__(self, redis: Redis, kept: int = KEPT) -> None:
        self.redis = redis
        self.kept = kept
        self._record = redis.register_script(_RECORD)
        self._read = redis.register_script(_READ)

    async def record(self, guild_id: int, games: Mapping[int, PlayedGame]) -> int:
        """Enter each user's line of one finished table (user -> line); how many
        were new. One script per user, all sent at once (a cluster's pipelines
        refuse scripts, and each user's keys live in their own slot)."""
        entered = await asyncio.gather(
            *(
                self._record(
                    keys=[order_key(guild_id, user_id), games_key(guild_id, user_id)],
                    args=[game.table_id, repr(game.at), game.model_dump_json(), self.kept],
                )
                for user_id, game in games.items()
            )
        )
        return sum(int(e) for e in entered)

    async def recent(self, guild_id: int, user_id: int, count: int) -> list[PlayedGame]:
        """The user's newest ``count`` finished games in this server, newest first."""
        reply: Any = await self._read(
            keys=[order_key(guild_id, user_id), games_key(guild_id, user_id)], args=[count]
        )
        if not reply:
            return []
        found = []
        for raw_id, raw_line in zip(reply[0], reply[1], strict=True):
            game = _line(raw_line)
            if game is not None and game.table_id == _text(raw_id):
                found.append(game)
        return found

    async def lists(self, guild_id: int, user_id: int, table_id: str) -> bool:
        """Whether the table is on the user's list in this server."""
        return await self.redis.zscore(order_key(guild_id, user_id), table_id) is not None


def _line(raw: Any) -> PlayedGame | None:
    """A stored line; ``None`` when missing or unreadable (it is skipped, not fatal)."""
    if not raw:
        return None
    try:
        return PlayedGame.model_validate_json(raw)
    except ValidationError:
        return None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
