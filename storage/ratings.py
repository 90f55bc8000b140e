"""Ratings in Redis, per server and game, with the results they were computed from.

One server's ratings of one game share the hash tag ``{ratings:GUILD:GAME}``:
``…:results`` holds every rated result by table id (the source of truth, from
which :meth:`RatingStore.replace` rebuilds everything), ``…:players`` the
current rating per user. A result and the ratings it moves are written in one
MULTI under WATCH, so a result is counted once even when a table's end is
reported twice or two tables end at the same moment. The server's list of rated
games (``gt:idx:rated-games:GUILD``) lives in another slot of a cluster: it is
written just before, outside the MULTI.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field
from redis.asyncio import Redis
from redis.exceptions import WatchError

from storage import keys

SCHEMA = 1


class PlayerRating(BaseModel):
    schema_version: int = SCHEMA
    user_id: int
    name: str = ""
    mu: float
    sigma: float
    games: int = 0


class RatedResult(BaseModel):
    """A finished table as the ratings see it: sides (one player, or a team's
    humans) and each side's rank, 0 best, equal ranks a tie."""

    schema_version: int = SCHEMA
    table_id: str
    guild_id: int
    game: str
    at: float
    sides: list[list[int]]
    ranks: list[int]
    names: dict[int, str] = Field(default_factory=dict)


def _tag(guild_id: int, game: str) -> str:
    return f"{keys.PREFIX}:{{ratings:{guild_id}:{game}}}"


def results_key(guild_id: int, game: str) -> str:
    return f"{_tag(guild_id, game)}:results"


def players_key(guild_id: int, game: str) -> str:
    return f"{_tag(guild_id, game)}:players"


def games_key(guild_id: int) -> str:
    return f"{keys.PREFIX}:idx:rated-games:{guild_id}"


Update = Callable[[dict[int, PlayerRating]], dict[int, PlayerRating]]


class RatingStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def add(self, result: RatedResult, update: Update) -> bool:
        """Store ``result`` and the ratings ``update`` computes from the current
        ones (given the players of the result); ``False`` if it was stored already."""
        results = results_key(result.guild_id, result.game)
        players = players_key(result.guild_id, result.game)
        users = [u for side in result.sides for u in side]
        # The server's list of rated games is in another slot, so outside the
        # MULTI; written first, no rated result is ever missing from it.
        await self.redis.sadd(games_key(result.guild_id), result.game)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(results, players)
                    if await pipe.hexists(results, result.table_id):
                        return False
                    current = await self._read(pipe, players, users)
                    changed = update(current)
                    pipe.multi()
                    pipe.hset(results, result.table_id, result.model_dump_json())
                    if changed:
                        pipe.hset(players, mapping={str(u): r.model_dump_json() for u, r in changed.items()})
                    await pipe.execute()
                    return True
                except WatchError:
                    continue

    @staticmethod
    async def _read(redis: Any, players: str, users: list[int]) -> dict[int, PlayerRating]:
        if not users:
            return {}
        raw = await redis.hmget(players, [str(u) for u in users])
        return {u: PlayerRating.model_validate_json(r) for u, r in zip(users, raw, strict=True) if r}

    async def get(self, guild_id: int, game: str, user_id: int) -> PlayerRating | None:
        raw = await self.redis.hget(players_key(guild_id, game), str(user_id))
        return None if raw is None else PlayerRating.model_validate_json(raw)

    async def all(self, guild_id: int, game: str) -> list[PlayerRating]:
        raw = await self.redis.hvals(players_key(guild_id, game))
        return [PlayerRating.model_validate_json(r) for r in raw]

    async def results(self, guild_id: int, game: str) -> list[RatedResult]:
        raw = await self.redis.hvals(results_key(guild_id, game))
        return sorted((RatedResult.model_validate_json(r) for r in raw), key=lambda r: (r.at, r.table_id))

    async def games(self, guild_id: int) -> list[str]:
        return sorted(_text(g) for g in await self.redis.smembers(games_key(guild_id)))

    async def rebuild(
        self, guild_id: int, game: str, compute: Callable[[list[RatedResult]], dict[int, PlayerRating]]
    ) -> int:
        """Replace the ratings by ``compute`` over every stored result, in order;
        a result stored meanwhile restarts the rebuild, so none is left out."""
        results, players = results_key(guild_id, game), players_key(guild_id, game)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(results, players)
                    raw = await pipe.hvals(results)
                    stored = sorted(
                        (RatedResult.model_validate_json(r) for r in raw), key=lambda r: (r.at, r.table_id)
                    )
                    ratings = compute(stored)
                    pipe.multi()
                    pipe.delete(players)
                    if ratings:
                        pipe.hset(players, mapping={str(u): r.model_dump_json() for u, r in ratings.items()})
                    await pipe.execute()
                    return len(stored)
                except WatchError:
                    continue


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
