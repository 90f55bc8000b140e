"""A schedule of tables by time, spread over buckets: the deadline index (each
table's next wake-up) and the outbox's (tables with news still to tell).

Each is :data:`storage.keys.BUCKETS` sorted sets with hash tags of their own
(``gt:idx:{due:07…}``), a table's entry in the bucket its id picks. A save
writes its entry in its own pipeline, a plain command on one key, so
no script ever spans two slots; on a cluster the buckets sit on every master
and the sweep's reads fan out to all of them at once.

Readers walk every bucket each round, a bounded batch from each, and take the
ids in turns, one bucket after another (:func:`interleave`), so no busy bucket
holds up another's tables. Several processes may read the same entries: the
work itself is shared by a lease per table, in the table's own slot.

Earlier versions kept each schedule in one key (``gt:idx:deadlines``,
``gt:idx:outbox``). That key is read as one more bucket, and whatever it holds
is moved into the buckets as it is read (:meth:`Schedule.adopt_legacy` empties
it at startup), so an upgrade loses no wake-up, even while processes of the
earlier version still write there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from redis.asyncio import Redis

from storage import keys

# KEYS[1] the earlier single key; ARGV member, score pairs. An entry is dropped
# only if still at the score it was moved with: one changed meanwhile is moved again.
_FORGET_MOVED = """
local dropped = 0
for i = 1, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[i + 1]) then
    redis.call('ZREM', KEYS[1], ARGV[i])
    dropped = dropped + 1
  end
end
return dropped
"""
ADOPT_BATCH = 1000


class Schedule:
    def __init__(self, redis: Redis, buckets: Sequence[str], legacy: str) -> None:
        self.redis = redis
        self.buckets = list(buckets)
        self.legacy = legacy
        self._forget_moved = redis.register_script(_FORGET_MOVED)

    def key(self, table_id: str) -> str:
        return self.buckets[keys.bucket(table_id)]

    async def set(self, table_id: str, at: float, *, nx: bool = False) -> None:
        """Put the table at ``at`` (with ``nx``, only if it is not scheduled yet)."""
        await self.redis.zadd(self.key(table_id), {table_id: at}, nx=nx)

    async def remove(self, table_id: str) -> None:
        await self.redis.zrem(self.key(table_id), table_id)

    async def at(self, table_id: str) -> float | None:
        score = await self.redis.zscore(self.key(table_id), table_id)
        return None if score is None else float(score)

    async def due(
        self, now: float, per_bucket: int, buckets: Collection[int] | None = None
    ) -> dict[int, list[str]]:
        """One round: the ids due by ``now`` in each bucket (every one unless
        ``buckets``), at most ``per_bucket`` from each, longest due first — all
        in one pipeline, split by node on a cluster. A round over every bucket
        reads the earlier single key alongside and moves its entries into their
        buckets (due ones are listed with their bucket's)."""
        chosen = sorted(range(len(self.buckets)) if buckets is None else buckets)
        pipe = self.redis.pipeline(transaction=False)
        for number in chosen:
            pipe.zrangebyscore(self.buckets[number], "-inf", now, start=0, num=per_bucket)
        if buckets is None:
            pipe.zrange(self.legacy, 0, per_bucket - 1, withscores=True)
        found = await pipe.execute()
        left_over = found.pop() if buckets is None else []
        due = {number: [_text(t) for t in ids] for number, ids in zip(chosen, found, strict=True)}
        if left_over:
            for table_id, at in await self._adopt(left_over):
                if at <= now and table_id not in (listed := due.setdefault(keys.bucket(table_id), [])):
                    listed.append(table_id)
        return due

    async def oldest(self) -> float | None:
        """The earliest time in the schedule, over every bucket."""
        pipe = self.redis.pipeline(transaction=False)
        for key in [*self.buckets, self.legacy]:
            pipe.zrange(key, 0, 0, withscores=True)
        firsts = [float(found[0][1]) for found in await pipe.execute() if found]
        return min(firsts, default=None)

    async def count_due(self, now: float) -> int:
        """How many entries are due by ``now``, over every bucket (a table still
        on its way out of the earlier single key may count twice for a moment)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in [*self.buckets, self.legacy]:
            pipe.zcount(key, "-inf", now)
        return sum(int(n) for n in await pipe.execute())

    async def adopt_legacy(self) -> int:
        """Move every entry of the earlier single key into its bucket; returns how many."""
        moved = 0
        while entries := await self.redis.zrange(self.legacy, 0, ADOPT_BATCH - 1, withscores=True):
            moved += len(await self._adopt(entries))
            if len(entries) < ADOPT_BATCH:
                break
        return moved

    async def _adopt(self, entries: Sequence[Any]) -> list[tuple[str, float]]:
        """Move ``entries`` of the earlier key into their buckets. Where a bucket
        already has the table the earlier time wins: waking a table early only
        costs a look, waking it late would cost a player's reminder."""
        moved = [(_text(member), float(at)) for member, at in entries]
        pipe = self.redis.pipeline(transaction=False)
        for table_id, at in moved:
            pipe.zadd(self.key(table_id), {table_id: at}, lt=True)
        await pipe.execute()
        pairs = [value for table_id, at in moved for value in (table_id, repr(at))]
        await self._forget_moved(keys=[self.legacy], args=pairs)
        return moved


def interleave(due: Mapping[int, Sequence[str]], first: int = 0) -> list[str]:
    """The ids of a round in turns: each bucket's first, then each one's second…,
    starting from bucket ``first`` (so processes starting apart meet later)."""
    order = sorted(due, key=lambda number: (number - first) % keys.BUCKETS)
    depth = max((len(ids) for ids in due.values()), default=0)
    return [due[number][rank] for rank in range(depth) for number in order if rank < len(due[number])]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
