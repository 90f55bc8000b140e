"""Reading tables from Redis: one table, many at once, or as this process
wrote it last — the base every part of the table store builds on (see
:mod:`storage.store`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from storage import keys
from storage.damage import DamagedTable, Quarantine
from storage.outbox import Outbox
from storage.recent import RecentWrites
from storage.records import LogEntry, RecordDamaged, TableRecord, parse_record, salvage
from storage.retention import Archiver, Retention, unpack_state
from storage.schedule import Schedule

log = logging.getLogger("storage.store")
# What a lost connection or a late reply looks like: the command may or may not have run.
STORAGE_FAULTS = (RedisError, OSError, asyncio.TimeoutError)
# state_z: an archived table's state, compressed; undo: the state before a move
# that may still be taken back (the record's UndoPoint).
FIELDS = ("version", "meta", "state", "state_z", "undo")


class TableReads:
    """What every part of the store shares (set up by ``TableStore``), and its reads of tables."""

    redis: Redis
    retention: Retention
    archiver: Archiver
    # On a cluster the index writes go beside the save script, not inside it.
    _separate_indexes: bool
    _save: AsyncScript
    _release: AsyncScript
    _enter: AsyncScript
    _page: AsyncScript
    _find: AsyncScript
    outbox: Outbox
    deadlines: Schedule
    quarantine: Quarantine
    recent: RecentWrites

    async def get(self, table_id: str) -> TableRecord | None:
        """The table, or None when there is none; :class:`DamagedTable` (after
        quarantining it) when it is there but cannot be read."""
        fields = await self.redis.hmget(keys.table(table_id), list(FIELDS))
        return await self._parse(table_id, fields)

    async def get_to_change(self, table_id: str) -> TableRecord | None:
        """The table for a change that saves it with :meth:`save`: as this
        process wrote it last when it did (no round trip; the save's
        compare-and-set refuses it if anyone wrote since), else as :meth:`get`."""
        fields = self.recent.fields(table_id)
        if fields is None:
            return await self.get(table_id)
        return await self._parse(table_id, fields)

    async def _parse(self, table_id: str, fields: Sequence[Any]) -> TableRecord | None:
        """The table from its hash's ``FIELDS`` (see :meth:`get`)."""
        version, meta, state, packed, before = fields
        if meta is None and version is None and state is None:
            return None
        try:
            if meta is None:
                raise RecordDamaged("its record is missing")
            record = parse_record(meta)
            if text_of(version) != str(record.version):
                stored = text_of(version) or "none"
                raise RecordDamaged(f"its version field ({stored}) disagrees with its record")
        except RecordDamaged as damage:
            self.recent.forget(table_id)
            if damage.newer:
                raise DamagedTable(table_id, damage.reason, salvage(meta), held=False) from None
            raise await self.quarantine.hold(table_id, damage.reason, salvage(meta)) from None
        record.state = text_of(state) or (unpack_state(packed) if packed else None)
        if record.undo is not None and record.undo.state is None:
            if before is None:
                log.warning("an undo point without its state was dropped", extra={"table": table_id})
                record.undo = None
            else:
                record.undo.state = text_of(before)
        return record

    async def damaged(self, table_id: str, reason: str) -> DamagedTable:
        """Quarantine a table whose record reads but whose game state does not."""
        self.recent.forget(table_id)
        meta = await self.redis.hget(keys.table(table_id), "meta")
        return await self.quarantine.hold(table_id, reason, salvage(meta))

    async def log(self, table_id: str, start: int = 0, end: int = -1) -> list[LogEntry]:
        """Entries ``start``..``end`` (inclusive, negative from the end, as LRANGE)."""
        _, raw = await self.archiver.entries(table_id)
        stop = len(raw) if end == -1 else (end + 1 if end >= 0 else len(raw) + end + 1)
        return [LogEntry.model_validate_json(line) for line in raw[start:stop]]

    async def log_tail(self, table_id: str, count: int) -> tuple[int, list[LogEntry]]:
        """How many entries the log holds, and the last ``count`` of them (only those parsed)."""
        _, raw = await self.archiver.entries(table_id)
        return len(raw), [LogEntry.model_validate_json(line) for line in raw[max(0, len(raw) - count) :]]

    async def version(self, table_id: str) -> int | None:
        """The table's version alone (one field of its hash: what a live page
        watches), or None when there is no table or the field does not read."""
        return _version(await self.redis.hget(keys.table(table_id), "version"))

    async def versions(self, table_ids: Sequence[str]) -> dict[str, int | None]:
        """Each table's version (``None``: no such table), in one pipeline (split
        by node on a cluster): a cheap fingerprint of many tables at once."""
        if not table_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hget(keys.table(table_id), "version")
        found = await pipe.execute()
        return {t: _version(v) for t, v in zip(table_ids, found, strict=True)}

    async def glance(self, table_ids: Sequence[str]) -> dict[str, TableRecord | None]:
        """Many tables' records without their game state, in one pipeline: their
        status, seats and public headline, for a page that lists them. ``None``
        for one that is gone or unreadable (left to the next full read to quarantine)."""
        if not table_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hget(keys.table(table_id), "meta")
        found: dict[str, TableRecord | None] = {}
        for table_id, meta in zip(table_ids, await pipe.execute(), strict=True):
            try:
                found[table_id] = None if meta is None else parse_record(meta)
            except RecordDamaged:
                found[table_id] = None
        return found

    async def _load(self, table_ids: Sequence[str]) -> dict[str, TableRecord | None]:
        """Many tables at once, in one pipeline (split by node on a cluster):
        ``None`` for one that is gone or damaged (quarantined on the way); one
        written by a newer release is left out."""
        if not table_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hmget(keys.table(table_id), list(FIELDS))
        found: dict[str, TableRecord | None] = {}
        for table_id, fields in zip(table_ids, await pipe.execute(), strict=True):
            try:
                found[table_id] = await self._parse(table_id, fields)
            except DamagedTable as damaged:
                if damaged.held:
                    found[table_id] = None
        return found


def text_of(value: Any) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else str(value)


def _version(raw: Any) -> int | None:
    """A table hash's version field as read (``None``: no table, or it does not read)."""
    text = text_of(raw)
    return int(text) if text.isdigit() else None
