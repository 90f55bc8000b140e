"""Damaged tables: a record that cannot be read is copied aside with the reason
(quarantined), taken out of every index it can still be traced to, and logged
once — so it never breaks a listing, a player's other tables or the deadline
sweep. The table itself stays where it is, so it can be named, inspected and
repaired, until it is abandoned: then an abandoned record is written over it
(:meth:`storage.store.TableStore.replace_damaged`) and the copy is kept."""

from __future__ import annotations

import logging
import time
from typing import Any

from redis.asyncio import Redis

from storage import keys, listing

log = logging.getLogger(__name__)
# The version a removal from a list carries when the table will not be listed again.
GONE = 10**12

# Copy the table's hash to its quarantine key once; 1 when this call did it.
_QUARANTINE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return -1 end
redis.call('HSET', KEYS[2], 'reason', ARGV[1], 'at', ARGV[2], unpack(fields))
return 1
"""


class DamagedTable(Exception):
    """A stored table that cannot be read. ``salvaged`` holds the ids still
    legible in it (host, channel, seats), for permissions and clean-up."""

    def __init__(self, table_id: str, reason: str, salvaged: dict[str, Any], *, held: bool = True) -> None:
        super().__init__(f"table {table_id} cannot be read: {reason}")
        self.table_id = table_id
        self.reason = reason
        self.salvaged = salvaged
        # False for a record of a newer release: left untouched, never retired here.
        self.held = held


class Quarantine:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._copy = redis.register_script(_QUARANTINE)
        self._enter = redis.register_script(listing.ENTER)

    async def hold(self, table_id: str, reason: str, salvaged: dict[str, Any]) -> DamagedTable:
        """Quarantine the table (once) and unhook it from its indexes; returns the error to raise."""
        fresh = await self._copy(
            keys=[keys.table(table_id), keys.quarantine(table_id)], args=[reason, repr(time.time())]
        )
        if fresh == 1:
            copy = keys.quarantine(table_id)
            log.error("table %s cannot be read (%s); copied to %s", table_id, reason, copy)
        now = time.time()
        gone = [listing.enter(scope, table_id, GONE, None, now) for scope in listing.traced_scopes(salvaged)]
        await listing.write(self.redis, self._enter, gone)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.deadlines(table_id), table_id)
        for channel in _channels(salvaged):
            pipe.sadd(keys.damaged(channel), table_id)
        await pipe.execute()
        return DamagedTable(table_id, reason, salvaged)

    async def in_channel(self, channel_id: int) -> list[str]:
        """Ids of this channel's quarantined tables that are still there, not abandoned."""
        found = []
        for raw in await self.redis.smembers(keys.damaged(channel_id)):
            table_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            if await self.redis.exists(keys.table(table_id)) and not await self.redis.hexists(
                keys.quarantine(table_id), "abandoned_at"
            ):
                found.append(table_id)
            else:
                await self.redis.srem(keys.damaged(channel_id), table_id)
        return sorted(found)

    async def abandoned(self, damaged: DamagedTable, by: int) -> None:
        """Note on the quarantined copy who abandoned the table, and stop listing it."""
        table_id = damaged.table_id
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.quarantine(table_id), "abandoned_at", repr(time.time()))
        pipe.hset(keys.quarantine(table_id), "abandoned_by", str(by))
        for channel in _channels(damaged.salvaged):
            pipe.srem(keys.damaged(channel), table_id)
        await pipe.execute()


def _channels(salvaged: dict[str, Any]) -> list[int]:
    return [salvaged[name] for name in ("channel_id", "thread_id") if name in salvaged]
