"""The outbox: what a saved change must still tell the table, kept in Redis until it is told.

A save writes its announcement into the table's own outbox list
(``gt:{table:ID}:outbox``) inside the same compare-and-set script as the table
itself, so "saved" implies "will be announced", and a crash or a lost reply
right after the save loses nothing. A schedule spread over buckets
(``gt:idx:{outbox:07…}``, see :mod:`storage.schedule`) says which tables have
news and when to try them next. Like every index it is a hint in slots of its
own: a crash between the save and the index leaves the news in the table's
list, where :meth:`Outbox.rescan` finds it again.

Delivery is at most one drainer per table at a time, across processes: a drainer
takes the table's lease (``SET NX PX``), tells the news in order and writes each
step's progress back under the lease, so a drainer that dies half-way leaves the
rest to the next one and nothing already told is told again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from storage import keys
from storage.schedule import Schedule, interleave

LEASE_MS = 60_000
PER_BUCKET = 8  # tables read from each bucket in one pass of the drainer

# Progress is written only by the lease holder: KEYS lease, outbox; ARGV token, json, lease ms.
_RECORD = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('LSET', KEYS[2], 0, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
_POP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('LPOP', KEYS[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
# Any lease held with a token: KEYS lease; ARGV token.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


def outbox_key(table_id: str) -> str:
    return f"{keys.table(table_id)}:outbox"


def lease_key(table_id: str) -> str:
    return f"{keys.table(table_id)}:outbox:lease"


class Announcement(BaseModel):
    """What one saved change must tell the table. Texts are final (names already
    in); ``done`` and ``attempts`` are the delivery's progress, per step."""

    table_id: str
    version: int
    actor: int | None = None  # answered directly: no DM and no ping for them
    public: list[str] = Field(default_factory=list)  # the play-by-play, for the table's thread
    private: dict[int, list[str]] = Field(default_factory=dict)  # user id -> lines only they may read
    ping: list[int] = Field(default_factory=list)  # users the game now waits for
    # user id -> their clock reminders: secret-free, so they may go to the thread instead of a DM
    reminders: dict[int, list[str]] = Field(default_factory=dict)
    done: list[str] = Field(default_factory=list)
    attempts: dict[str, int] = Field(default_factory=dict)


@dataclass(frozen=True)
class Lease:
    table_id: str
    token: str


class Outbox:
    def __init__(self, redis: Redis, *, lease_ms: int = LEASE_MS) -> None:
        self.redis = redis
        self.lease_ms = lease_ms
        self._record = redis.register_script(_RECORD)
        self._pop = redis.register_script(_POP)
        self._release = redis.register_script(RELEASE)
        self.index = Schedule(redis, keys.OUTBOX_BUCKETS, keys.LEGACY_OUTBOX)

    async def schedule(self, table_id: str, at: float = 0.0) -> None:
        """Mark a table as having news (due now unless already scheduled)."""
        await self.index.set(table_id, at, nx=True)

    async def due(self, now: float, per_bucket: int = PER_BUCKET, first: int = 0) -> list[str]:
        """Tables with news due: at most ``per_bucket`` from each bucket, in turns from bucket ``first``."""
        return interleave(await self.index.due(now, per_bucket), first)

    async def claim(self, table_id: str) -> Lease | None:
        """The table's lease, or ``None`` while another drainer holds it."""
        token = secrets.token_hex(8)
        taken = await self.redis.set(lease_key(table_id), token, nx=True, px=self.lease_ms)
        return Lease(table_id, token) if taken else None

    async def head(self, lease: Lease) -> Announcement | None:
        raw = await self.redis.lindex(outbox_key(lease.table_id), 0)
        return None if raw is None else Announcement.model_validate_json(raw)

    async def record(self, lease: Lease, news: Announcement) -> bool:
        """Write the head's progress; ``False`` if the lease was lost meanwhile."""
        args: list[str | int] = [lease.token, news.model_dump_json(), self.lease_ms]
        return bool(await self._record(keys=self._keys(lease), args=args))

    async def pop(self, lease: Lease) -> bool:
        """Drop the head, fully told; ``False`` if the lease was lost meanwhile."""
        return bool(await self._pop(keys=self._keys(lease), args=[lease.token, self.lease_ms]))

    async def release(self, lease: Lease, retry_at: float | None = None) -> None:
        """Give the table back: to be tried again at ``retry_at``, or done with
        (unless news arrived meanwhile, which stays due at once)."""
        if retry_at is not None:
            await self.index.set(lease.table_id, retry_at)
        else:
            # Remove first, then look: a save that lands in between is seen here.
            await self.index.remove(lease.table_id)
            if await self.length(lease.table_id):
                await self.schedule(lease.table_id)
        await self._release(keys=[lease_key(lease.table_id)], args=[lease.token])

    async def length(self, table_id: str) -> int:
        return int(await self.redis.llen(outbox_key(table_id)))

    async def pending(self, table_id: str) -> list[Announcement]:
        raw = await self.redis.lrange(outbox_key(table_id), 0, -1)
        return [Announcement.model_validate_json(line) for line in raw]

    async def rescan(self) -> int:
        """Index every table whose outbox holds news; returns how many were found."""
        found = 0
        async for key in self.redis.scan_iter(match=outbox_key("*")):
            name = _text(key)
            if await self.redis.llen(name):
                await self.schedule(name[len(keys.PREFIX) + 8 : -len("}:outbox")])
                found += 1
        return found

    @staticmethod
    def _keys(lease: Lease) -> list[str]:
        return [lease_key(lease.table_id), outbox_key(lease.table_id)]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
