"""The table store: tables in Redis, each write a compare-and-set on ``version``.

A table is one hash ``gt:{table:ID}`` with the fields ``version``, ``meta``
(the record without the engine state), ``state`` (the engine's JSON) and, while
a move may be taken back, ``undo`` (the state before it). A save
is one Lua script that checks the version, writes the hash, appends the log
entries and the change's announcement (its outbox, :mod:`storage.outbox`) and
keeps a mark of the write — one round trip, atomic, so a write is either applied
exactly once or refused, the log never disagrees with the table, and a saved
change is always announced. The mark tells a write whose reply was lost (a reset
or a timeout after it ran, or a client's retry of it) from one that never ran.

Indexes (the table lists per user, channel and guild, :mod:`storage.listing`;
deadlines; the outbox's schedule) are written by the same script on one Redis
server, and only when the save is applied. In a Redis Cluster they live in other
slots, so there they are written beside the script, sent at the same time: a
save is one round trip either way. The deadline and outbox schedules are spread
over buckets (:mod:`storage.schedule`) so that a cluster shares their traffic
among its masters. They are hints: commands re-check each table they use, a
refused save on a cluster puts back the winner's entries (see
:meth:`TableStore._repair_indexes`), and :meth:`TableStore.rebuild_indexes`
recreates them from the tables.
"""

from __future__ import annotations

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from storage import keys, listing
from storage.damage import DamagedTable, Quarantine
from storage.outbox import RELEASE, Outbox, outbox_key
from storage.recent import RecentWrites
from storage.retention import Archiver, Retention, archive_key
from storage.saving import SAVE, SAVE_WITH_INDEXES, SaveUnknown, Saving, VersionConflict, writes_key
from storage.schedule import Schedule
from storage.sweep_claims import SweepClaims, sweep_key
from storage.table_reads import FIELDS, STORAGE_FAULTS

__all__ = ["FIELDS", "STORAGE_FAULTS", "SaveUnknown", "TableStore", "VersionConflict"]


class TableStore(Saving, SweepClaims):
    """Tables in Redis: reading (:mod:`storage.table_reads`), saving
    (:mod:`storage.saving`), the lists and deadline index
    (:mod:`storage.table_lists`), the sweepers' claims (:mod:`storage.sweep_claims`)."""

    def __init__(self, redis: Redis, retention: Retention | None = None) -> None:
        self.redis = redis
        self.retention = retention or Retention()
        self.archiver = Archiver(redis, self.retention)
        # The script a save runs: on a cluster the bare save, its index writes
        # beside it; on one server the save with its index writes inside.
        self._separate_indexes = isinstance(redis, RedisCluster)
        self._save = redis.register_script(SAVE if self._separate_indexes else SAVE_WITH_INDEXES)
        self._release = redis.register_script(RELEASE)
        self._enter = redis.register_script(listing.ENTER)
        self._page = redis.register_script(listing.PAGE)
        self._find = redis.register_script(listing.FIND)
        self.outbox = Outbox(redis)
        self.deadlines = Schedule(redis, keys.DEADLINE_BUCKETS, keys.LEGACY_DEADLINES)
        self.quarantine = Quarantine(redis)
        self.recent = RecentWrites()

    async def delete(self, table_id: str) -> None:
        self.recent.forget(table_id)
        try:
            record = await self.get(table_id)
        except DamagedTable:
            record = None
        await self.redis.delete(
            keys.table(table_id),
            keys.log(table_id),
            outbox_key(table_id),
            writes_key(table_id),
            archive_key(table_id),
            sweep_key(table_id),
        )
        if record is not None:
            await self._drop_from_indexes(record)
