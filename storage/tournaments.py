"""Tournaments as stored: the registration, every round's seating (stored
before any of its tables is created, so a restart resumes it), each table's
result, and the version that guards every write.

A tournament is one hash ``gt:{tour:ID}`` (``version``, ``data``) written by
compare-and-set, like a table. Indexes (a server's tournaments, the running
ones with work due) live in their own keys and are hints; a record that no
longer validates is moved aside (quarantined) with a log line, never allowed to
break a listing of its neighbours.

The running ones with work due are a schedule spread over buckets like the
tables' deadlines (:mod:`storage.schedule`), so every process's sweep of them
is shared among a cluster's masters; the single key earlier versions kept
(:data:`storage.keys.LEGACY_TOURNAMENTS_DUE`) is read alongside and emptied
into the buckets.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from redis.asyncio import Redis

from storage import keys
from storage.schedule import Schedule, interleave
from storage.store import VersionConflict

log = logging.getLogger(__name__)
SCHEMA = 1

_SAVE = """
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == 'new' then
  if current then return -1 end
elseif current ~= ARGV[1] then
  return tonumber(current or '-2')
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3])
return -100
"""


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    ELIMINATION = "elimination"
    SWISS_FINAL = "swiss-final"


class Phase(StrEnum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntrantStatus(StrEnum):
    ACTIVE = "active"
    DROPPED = "dropped"
    DISQUALIFIED = "disqualified"


class Entrant(BaseModel):
    user_id: int
    name: str
    status: EntrantStatus = EntrantStatus.ACTIVE
    checked_in: bool = False
    rating: float = 0.0  # the seed, from the server's ratings at the start


class TableScore(BaseModel):
    """A table's outcome in user ids: ranking groups best first, tournament
    points, game scores, and how it was decided (played, awarded, standing)."""

    ranking: list[list[int]]
    points: dict[int, float]
    scores: dict[int, float] = Field(default_factory=dict)
    decided: str = "played"


class TableSeat(BaseModel):
    index: int
    players: list[int]
    table_id: str | None = None
    score: TableScore | None = None


class Round(BaseModel):
    number: int
    tables: list[TableSeat]
    byes: list[int] = Field(default_factory=list)
    bye_points: float = 0.0
    final: bool = False
    seated: bool = False  # every table created and started
    deadline: float | None = None
    deadline_told: bool = False
    closed: bool = False

    @property
    def open_tables(self) -> list[TableSeat]:
        return [t for t in self.tables if t.score is None]


class Tournament(BaseModel):
    schema_version: int = SCHEMA
    id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    format: Format
    table_size: int
    advance: int = 1
    rounds_planned: int = 0
    turn_timeout: float
    round_time: float | None = None
    cap: int | None = None
    rated: bool = False
    check_in: bool = False
    scoring: str = "share"
    seed: int = 0
    phase: Phase = Phase.REGISTRATION
    entrants: list[Entrant] = Field(default_factory=list)
    rounds: list[Round] = Field(default_factory=list)
    message_id: int | None = None
    standings_message_id: int | None = None
    created_at: float
    version: int = 0

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if e.status is EntrantStatus.ACTIVE]

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


def tournament_key(tournament_id: str) -> str:
    return f"{keys.PREFIX}:{{tour:{tournament_id}}}"


def guild_key(guild_id: int) -> str:
    return f"{keys.PREFIX}:idx:tournaments:{guild_id}"


class TournamentStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._save = redis.register_script(_SAVE)
        self.due_index = Schedule(redis, keys.TOURNAMENT_BUCKETS, keys.LEGACY_TOURNAMENTS_DUE)

    async def get(self, tournament_id: str) -> Tournament | None:
        key = tournament_key(tournament_id)
        raw = await self.redis.hget(key, "data")
        if raw is None:
            return None
        try:
            return Tournament.model_validate_json(raw)
        except ValidationError:
            log.error("tournament %s does not validate; quarantined", tournament_id, exc_info=True)
            await self.redis.rename(key, f"{key}:quarantined")
            return None

    async def version(self, tournament_id: str) -> int | None:
        """The stored version alone (``None``: no such tournament), for watchers."""
        raw = await self.redis.hget(tournament_key(tournament_id), "version")
        return int(raw) if raw is not None and _text(raw).isdigit() else None

    async def create(self, tournament: Tournament) -> Tournament:
        tournament.version = 0
        await self._write(tournament, "new")
        await self.redis.sadd(guild_key(tournament.guild_id), tournament.id)
        return tournament

    async def save(self, tournament: Tournament) -> Tournament:
        """Write if the stored version is still ``tournament.version``; else :class:`VersionConflict`."""
        saved = tournament.model_copy(update={"version": tournament.version + 1})
        await self._write(saved, str(tournament.version))
        return saved

    async def _write(self, tournament: Tournament, expected: str) -> None:
        args = [expected, str(tournament.version), tournament.model_dump_json()]
        outcome = await self._save(keys=[tournament_key(tournament.id)], args=args)
        if outcome != -100:
            raise VersionConflict(tournament.id, None if outcome < 0 else int(outcome))

    async def in_guild(self, guild_id: int) -> list[Tournament]:
        found = []
        for raw in sorted(_text(t) for t in await self.redis.smembers(guild_key(guild_id))):
            tournament = await self.get(raw)
            if tournament is not None:
                found.append(tournament)
        return sorted(found, key=lambda t: t.created_at)

    async def schedule(self, tournament_id: str, at: float) -> None:
        """Mark work due for a tournament (a round to seat or close, a deadline)."""
        await self._set(tournament_id, at)

    async def unschedule(self, tournament_id: str) -> None:
        await self._set(tournament_id, None)

    async def _set(self, tournament_id: str, at: float | None) -> None:
        """Its entry in its bucket, and none left in the earlier single key: moved
        into the bucket later, that one would undo this (the earlier time wins)."""
        pipe = self.redis.pipeline(transaction=False)
        if at is None:
            pipe.zrem(self.due_index.key(tournament_id), tournament_id)
        else:
            pipe.zadd(self.due_index.key(tournament_id), {tournament_id: at})
        pipe.zrem(keys.LEGACY_TOURNAMENTS_DUE, tournament_id)
        await pipe.execute()

    async def due(self, now: float, limit: int = 50) -> list[str]:
        """Ids of tournaments with work due by ``now``, at most ``limit``: every
        bucket read in one pipeline (split by node on a cluster), the earlier
        single key with them, and the ids taken from the buckets in turns."""
        return interleave(await self.due_index.due(now, limit))[:limit]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
