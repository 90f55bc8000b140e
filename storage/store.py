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

import asyncio
import logging
import secrets
import time
from collections.abc import Iterable, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError

from storage import keys, listing
from storage.damage import GONE as _GONE
from storage.damage import DamagedTable, Quarantine
from storage.listing import Page
from storage.outbox import RELEASE, Announcement, Outbox, outbox_key
from storage.recent import RecentWrites
from storage.records import LogEntry, RecordDamaged, TableRecord, TableStatus, parse_record, salvage
from storage.retention import Archiver, Retention, archive_key, unpack, unpack_state
from storage.schedule import Schedule, interleave

log = logging.getLogger(__name__)
# What a lost connection or a late reply looks like: the command may or may not have run.
STORAGE_FAULTS = (RedisError, OSError, asyncio.TimeoutError)

# The compare-and-set save itself. KEYS: table, log, outbox, write marks.
# ARGV: expected version, version, meta, state, write mark, news, lifetime (ms),
# what to do with the undo state and that state; then, from ``first`` to
# ``last``, the log entries.
_SAVE_FUNCTION = """
local function save(first, last)
  local current = redis.call('HGET', KEYS[1], 'version')
  if ARGV[1] == 'new' then
    if current then return -1 end
  elseif current ~= ARGV[1] then
    if current then return tonumber(current) end
    return -2
  end
  if ARGV[8] == 'copy' then
    local before = redis.call('HGET', KEYS[1], 'state')
    if before then redis.call('HSET', KEYS[1], 'undo', before) else redis.call('HDEL', KEYS[1], 'undo') end
  elseif ARGV[8] == 'set' then
    redis.call('HSET', KEYS[1], 'undo', ARGV[9])
  elseif ARGV[8] == 'drop' then
    redis.call('HDEL', KEYS[1], 'undo')
  end
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'meta', ARGV[3], 'state', ARGV[4])
  redis.call('LPUSH', KEYS[4], ARGV[5])
  redis.call('LTRIM', KEYS[4], 0, 49)
  if ARGV[6] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[6]) end
  for i = first, last do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  for i = 1, 4 do
    if ARGV[7] == '0' then redis.call('PERSIST', KEYS[i]) else redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
  end
  return -100
end
"""
_SAVE = _SAVE_FUNCTION + "return save(10, #ARGV)"
# On a standalone Redis every key sits on the one server, so the save enters
# its table's indexes itself: one command, and a refused save writes none.
# KEYS: the four of the save, the deadline bucket, the outbox schedule bucket,
# then order, lines and marks of each list. ARGV: the save's nine, the number
# of log entries and the entries; the deadline ('' when none); the table id;
# '1' when the save brings news; then six arguments of each list entry.
_SAVE_WITH_INDEXES = _SAVE_FUNCTION + listing.ENTER_FUNCTION + """
local last = 10 + tonumber(ARGV[10])
local outcome = save(11, last)
if outcome ~= -100 then return outcome end
local id = ARGV[last + 2]
if ARGV[last + 1] == '' then
  redis.call('ZREM', KEYS[5], id)
else
  redis.call('ZADD', KEYS[5], ARGV[last + 1], id)
end
if ARGV[last + 3] == '1' then redis.call('ZADD', KEYS[6], 'NX', 0, id) end
local a = last + 4
for k = 7, #KEYS, 3 do
  enter(KEYS[k], KEYS[k + 1], KEYS[k + 2],
        ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5])
  a = a + 6
end
return -100
"""
_SAVED = -100
# state_z: an archived table's state, compressed; undo: the state before a move
# that may still be taken back (the record's UndoPoint).
_FIELDS = ("version", "meta", "state", "state_z", "undo")
SWEEP_LEASE_MS = 60_000
# List entries a lookup reads per round trip: Redis scans their lines for a
# match, so one round trip bounds its time (a person at more tables needs more).
LOOKUP_CHUNK = 500
_ListWrite = listing.Write


class VersionConflict(Exception):
    """Someone else wrote the table first; reload and try again."""

    def __init__(self, table_id: str, current: int | None) -> None:
        super().__init__(f"table {table_id} is at version {current}")
        self.table_id = table_id
        self.current = current


class SaveUnknown(Exception):
    """A save's reply was lost and the table could not be read back: it may or
    may not have been applied."""


class TableStore:
    def __init__(self, redis: Redis, retention: Retention | None = None) -> None:
        self.redis = redis
        self.retention = retention or Retention()
        self.archiver = Archiver(redis, self.retention)
        # The script a save runs: on a cluster the bare save, its index writes
        # beside it; on one server the save with its index writes inside.
        self._separate_indexes = isinstance(redis, RedisCluster)
        self._save = redis.register_script(_SAVE if self._separate_indexes else _SAVE_WITH_INDEXES)
        self._release = redis.register_script(RELEASE)
        self._enter = redis.register_script(listing.ENTER)
        self._page = redis.register_script(listing.PAGE)
        self._find = redis.register_script(listing.FIND)
        self.outbox = Outbox(redis)
        self.deadlines = Schedule(redis, keys.DEADLINE_BUCKETS, keys.LEGACY_DEADLINES)
        self.quarantine = Quarantine(redis)
        self.recent = RecentWrites()

    # ----- tables -----

    async def get(self, table_id: str) -> TableRecord | None:
        """The table, or None when there is none; :class:`DamagedTable` (after
        quarantining it) when it is there but cannot be read."""
        fields = await self.redis.hmget(keys.table(table_id), list(_FIELDS))
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
        """The table from its hash's ``_FIELDS`` (see :meth:`get`)."""
        version, meta, state, packed, before = fields
        if meta is None and version is None and state is None:
            return None
        try:
            if meta is None:
                raise RecordDamaged("its record is missing")
            record = parse_record(meta)
            if _text(version) != str(record.version):
                stored = _text(version) or "none"
                raise RecordDamaged(f"its version field ({stored}) disagrees with its record")
        except RecordDamaged as damage:
            self.recent.forget(table_id)
            if damage.newer:
                raise DamagedTable(table_id, damage.reason, salvage(meta), held=False) from None
            raise await self.quarantine.hold(table_id, damage.reason, salvage(meta)) from None
        record.state = _text(state) or (unpack_state(packed) if packed else None)
        if record.undo is not None and record.undo.state is None:
            if before is None:
                log.warning("an undo point without its state was dropped", extra={"table": table_id})
                record.undo = None
            else:
                record.undo.state = _text(before)
        return record

    async def damaged(self, table_id: str, reason: str) -> DamagedTable:
        """Quarantine a table whose record reads but whose game state does not."""
        self.recent.forget(table_id)
        meta = await self.redis.hget(keys.table(table_id), "meta")
        return await self.quarantine.hold(table_id, reason, salvage(meta))

    async def create(self, record: TableRecord) -> TableRecord:
        """Store a new table at version 0; ``VersionConflict`` if the id is taken."""
        record.version = 0
        entries = [LogEntry(version=0, at=record.created_at, kind="create")]
        await self._landed_write(record, "new", entries, None)
        return record

    async def save(
        self, record: TableRecord, entries: Sequence[LogEntry] = (), news: Announcement | None = None
    ) -> TableRecord:
        """Write ``record`` if the stored version is still ``record.version``;
        the stored (and returned) record then carries ``version + 1``. ``news``
        goes into the table's outbox in the same atomic write.

        Once the write is applied this returns, whatever fails after it (the
        indexes are hints): a saved change is never reported as failed. A reply
        lost on the way back is settled by reading the table back; if that is
        impossible too, :class:`SaveUnknown`."""
        expected = record.version
        saved = record.model_copy(update={"version": expected + 1})
        await self._landed_write(saved, str(expected), entries, news)
        if not saved.status.active:
            await self._archive(saved)
        return saved

    async def damaged_version(self, table_id: str) -> tuple[str, int]:
        """What a damaged table's version field holds, as the compare-and-set
        expects it, and the version to write over it from (-1: none readable)."""
        raw = await self.redis.hget(keys.table(table_id), "version")
        if raw is None:
            return "new", -1
        text = _text(raw)
        return text, int(text) if text.isdigit() else -1

    async def replace_damaged(
        self, record: TableRecord, expected: str, entries: Sequence[LogEntry], news: Announcement | None
    ) -> TableRecord:
        """Write ``record`` over a damaged table whose version field holds
        ``expected`` (see :meth:`damaged_version`); its quarantined copy keeps
        what was there. ``VersionConflict`` if the table changed meanwhile."""
        saved = record.model_copy(update={"version": record.version + 1})
        await self._landed_write(saved, expected, entries, news)
        return saved

    async def _landed_write(
        self, record: TableRecord, expected: str, entries: Sequence[LogEntry], news: Announcement | None
    ) -> None:
        try:
            await self._marked_write(record, expected, entries, news)
        except BaseException:
            # Refused, unknown or cancelled: the next change reads the table afresh.
            self.recent.forget(record.id)
            raise

    async def _marked_write(
        self, record: TableRecord, expected: str, entries: Sequence[LogEntry], news: Announcement | None
    ) -> None:
        nonce = secrets.token_hex(8)
        try:
            await self._write(record, expected, entries, news, nonce)
        except VersionConflict:
            # A client-level retry of a write whose first reply was lost finds its own write.
            if not await self._landed(record, nonce):
                raise
        except STORAGE_FAULTS as fault:
            try:
                landed = await self._landed(record, nonce)
            except STORAGE_FAULTS:
                raise SaveUnknown(record.id) from fault
            if not landed:
                raise
            log.warning("the save's reply was lost, but the save was applied", extra={"table": record.id})
            # Whether the indexes in its pipeline were written is unknown: write them again.
            await self._after_write(record, news)

    async def _landed(self, record: TableRecord, nonce: str) -> bool:
        """Whether the write marked ``nonce`` was applied (the table keeps its last 50 marks)."""
        return await self.redis.lpos(_writes_key(record.id), nonce) is not None

    async def _after_write(self, record: TableRecord, news: Announcement | None) -> None:
        try:
            await self.update_indexes(record)
            if news is not None:
                await self.outbox.schedule(record.id)
        except STORAGE_FAULTS:
            # The table and its news are safe; indexes are rebuilt and outboxes rescanned.
            log.warning("saved, but its indexes were not updated", exc_info=True, extra={"table": record.id})

    async def _write(
        self,
        record: TableRecord,
        expected: str,
        entries: Iterable[LogEntry],
        news: Announcement | None,
        nonce: str,
    ) -> None:
        meta = record.model_dump_json()
        args = [expected, str(record.version), meta, record.state or "", nonce]
        args.append(news.model_dump_json() if news is not None else "")
        args.append(str(self.retention.lifetime_ms(record)))
        args += _undo_args(record)
        logged = [entry.model_dump_json() for entry in entries]
        names = [keys.table(record.id), keys.log(record.id), outbox_key(record.id), _writes_key(record.id)]
        if not self._separate_indexes:
            await self._write_with_indexes(record, news, names, [*args, str(len(logged)), *logged])
            self.recent.wrote(record, meta)
            return
        replies = await self._send_write_to_cluster(record, news, names, args + logged)
        outcome = replies[0]
        if isinstance(outcome, Exception):
            raise outcome
        if outcome != _SAVED:
            await self._repair_indexes(record.id)
            raise VersionConflict(record.id, None if outcome < 0 else int(outcome))
        self.recent.wrote(record, meta)
        if any(isinstance(reply, NoScriptError) for reply in replies[1:]):
            await self._after_write(record, news)  # the list script was not loaded: nothing of it ran
        elif any(isinstance(reply, Exception) for reply in replies[1:]):
            log.warning("saved, but some index writes failed: %s", replies[1:], extra={"table": record.id})

    async def _write_with_indexes(
        self, record: TableRecord, news: Announcement | None, names: list[str], args: list[str]
    ) -> None:
        """The save and every index write it implies, in one script on one
        server: one command, and a refused save changes no index."""
        names += [keys.deadlines(record.id), keys.outbox_due(record.id)]
        due = _deadline_entry(record)
        args += ["" if due is None else repr(due), record.id, "" if news is None else "1"]
        for list_keys, list_args in _list_writes(record):
            names += list_keys
            args += list_args
        try:
            # EVALSHA, not the Script object, whose every call would first ask
            # whether the script is loaded.
            outcome = await self.redis.evalsha(self._save.sha, len(names), *names, *args)
        except NoScriptError:
            # Redis restarted or failed over since the script was loaded: nothing ran.
            await self.redis.script_load(_SAVE_WITH_INDEXES)
            outcome = await self.redis.evalsha(self._save.sha, len(names), *names, *args)
        if outcome != _SAVED:
            raise VersionConflict(record.id, None if outcome < 0 else int(outcome))

    async def _send_write_to_cluster(
        self, record: TableRecord, news: Announcement | None, names: list[str], args: list[str]
    ) -> list[Any]:
        """The save script and the index writes it implies, side by side: a
        cluster keeps them in other slots, and its client refuses scripts in
        pipelines (one round trip of time all the same)."""
        pipe = self.redis.pipeline(transaction=False)
        _queue_index_writes(pipe, record)
        if news is not None:
            pipe.zadd(keys.outbox_due(record.id), {record.id: 0.0}, nx=True)
        saving = self._save(keys=names, args=args)  # loads the script itself when a node lacks it
        indexing = pipe.execute(raise_on_error=False)
        listing_ = [self._enter(keys=k, args=a) for k, a in _list_writes(record)]
        outcome, indexed, *listed = await asyncio.gather(saving, indexing, *listing_, return_exceptions=True)
        if isinstance(indexed, BaseException):
            indexed = [indexed]
        return [outcome, *indexed, *listed]

    async def _repair_indexes(self, table_id: str) -> None:
        """After a refused save: its pipelined index writes ran anyway and may
        have overwritten the winner's (a deadline, a removal), so write the
        stored table's again. Only refused saves pay for this."""
        try:
            current = await self.get(table_id)
        except DamagedTable:
            return
        except STORAGE_FAULTS:
            log.warning("indexes not repaired after a refused save", exc_info=True, extra={"table": table_id})
            return
        if current is not None:
            await self._after_write(current, None)

    async def log(self, table_id: str, start: int = 0, end: int = -1) -> list[LogEntry]:
        """Entries ``start``..``end`` (inclusive, negative from the end, as LRANGE)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(archive_key(table_id))
        pipe.lrange(keys.log(table_id), 0, -1)
        archived, listed = await pipe.execute()
        raw = (unpack(archived) if archived else []) + list(listed)
        stop = len(raw) if end == -1 else (end + 1 if end >= 0 else len(raw) + end + 1)
        return [LogEntry.model_validate_json(line) for line in raw[start:stop]]

    async def _archive(self, record: TableRecord) -> None:
        """Compress a table's log once it is over (a hint of storage: failing is harmless)."""
        try:
            await self.archiver.archive(record)
        except STORAGE_FAULTS:
            log.warning("its log could not be archived", exc_info=True, extra={"table": record.id})

    async def delete(self, table_id: str) -> None:
        self.recent.forget(table_id)
        try:
            record = await self.get(table_id)
        except DamagedTable:
            record = None
        await self.redis.delete(
            keys.table(table_id), keys.log(table_id), outbox_key(table_id), _writes_key(table_id),
            archive_key(table_id), _sweep_key(table_id),
        )
        if record is not None:
            await self._drop_from_indexes(record)

    # ----- indexes -----

    async def update_indexes(self, record: TableRecord) -> None:
        def deadline(pipe: Pipeline) -> None:
            _queue_index_writes(pipe, record)

        await listing.write(self.redis, self._enter, _list_writes(record), deadline)

    async def _write_lists(self, writes: Sequence[_ListWrite]) -> None:
        await listing.write(self.redis, self._enter, writes)

    async def _drop_from_indexes(self, record: TableRecord) -> None:
        gone = [listing.enter(scope, record.id, _GONE, None, time.time()) for scope in listing.scopes(record)]
        due = keys.deadlines(record.id)
        await listing.write(self.redis, self._enter, gone, lambda pipe: pipe.zrem(due, record.id))

    async def forget_user(self, table_id: str, user_id: int) -> None:
        """Take a table out of the list of a user who no longer sits at it."""
        try:
            record = await self.get(table_id)
        except DamagedTable:
            record = None
        if record is not None and record.status.active and user_id in record.user_ids:
            return  # back at the table since
        await self._unlist(f"user:{user_id}", table_id, record.version if record is not None else _GONE)

    async def _unlist(self, scope: str, table_id: str, version: int) -> None:
        await self._write_lists([listing.enter(scope, table_id, version, None, time.time())])

    async def page(self, scope: str, start: int, size: int) -> Page:
        """Entries ``start``..``start + size - 1`` of a table list (``user:ID``,
        ``channel:ID`` or ``guild:ID``; see :mod:`storage.listing`): one round
        trip, whatever the list's length. Entries are hints: a command re-reads
        the table it uses."""
        start = max(0, start)
        reply, legacy = await self._read_page(scope, start, size)
        if legacy:
            await self._migrate(scope)
            reply, _ = await self._read_page(scope, start, size)
        page, broken = listing.parse_page(reply, start)
        if broken:
            # Lines that cannot be read: write them again from their tables.
            await self._relist(scope, broken)
            reply, _ = await self._read_page(scope, start, size)
            page, _ = listing.parse_page(reply, start)
        return page

    async def _read_page(self, scope: str, start: int, size: int) -> tuple[list[Any], bool]:
        """A page's reply, and whether the list's set from an earlier version is still there."""
        args = [str(start), str(start + max(1, size) - 1), listing.moves_below(scope)]
        return await self._read_list(self._page, listing.PAGE, scope, args)

    async def _read_list(
        self, script: AsyncScript, source: str, scope: str, args: Sequence[str]
    ) -> tuple[list[Any], bool]:
        """A list script's reply, and whether the list's set from an earlier
        version is still there: one round trip (side by side on a cluster)."""
        names = listing.list_keys(scope)[:2]
        legacy = listing.legacy_key(scope)
        if isinstance(self.redis, RedisCluster):
            reply, found = await asyncio.gather(script(keys=names, args=args), self.redis.exists(legacy))
            return list(reply), bool(found)
        for attempt in (1, 2):
            pipe = self.redis.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(names), *names, *args)
            pipe.exists(legacy)
            reply, found = await pipe.execute(raise_on_error=False)
            if isinstance(reply, NoScriptError) and attempt == 1:
                await self.redis.script_load(source)
                continue
            if isinstance(reply, Exception):
                raise reply
            break
        return list(reply), bool(found)

    async def lookup(
        self, scope: str, *, channel: int | None = None, status: TableStatus | None = None, want: int = 2
    ) -> listing.Found:
        """Read a table list's lines in Redis for the first ``want`` entries
        whose table is at ``channel`` (or in that thread) or has ``status`` (any
        entry when neither is given), and the list's first ``want`` entries: one
        round trip for up to :data:`LOOKUP_CHUNK` entries, however many match,
        and no table loaded. The lines are hints: :meth:`confirm` what is used."""
        needles = listing.needles(channel=channel, status=status)
        found = await self._lookup_chunk(scope, 0, want, needles)
        start = LOOKUP_CHUNK
        while len(found.matches) < want and start < found.total:
            more = await self._lookup_chunk(scope, start, want - len(found.matches), needles)
            found = listing.Found(more.total, [*found.matches, *more.matches], found.first, [])
            start += LOOKUP_CHUNK
        return found

    async def _lookup_chunk(self, scope: str, start: int, want: int, needles: Sequence[str]) -> listing.Found:
        args = [str(start), str(start + LOOKUP_CHUNK - 1), str(want), *needles]
        reply, legacy = await self._read_list(self._find, listing.FIND, scope, args)
        if legacy:
            await self._migrate(scope)
            reply, _ = await self._read_list(self._find, listing.FIND, scope, args)
        found = listing.parse_found(reply)
        if found.broken:
            # Lines that cannot be read: write them again from their tables.
            await self._relist(scope, found.broken)
            reply, _ = await self._read_list(self._find, listing.FIND, scope, args)
            found = listing.parse_found(reply)
        return found

    async def confirm(
        self,
        scope: str,
        entries: Sequence[listing.Entry],
        *,
        channel: int | None = None,
        status: TableStatus | None = None,
    ) -> list[TableRecord] | None:
        """The tables of ``entries`` (list lines of ``scope``), read again in one
        round trip, if each still belongs in the list and is at ``channel`` and
        has ``status`` as its line said; else ``None``, after the lines of those
        that disagree are written again from their tables (or taken out), so the
        caller falls back to reading the records themselves."""
        table_ids = [entry.id for entry in entries]
        records = await self._load(table_ids)

        def agrees(record: TableRecord | None) -> bool:
            return (
                record is not None and record.status.active and scope in listing.scopes(record)
                and (channel is None or channel in (record.channel_id, record.thread_id))
                and (status is None or record.status is status)
            )  # fmt: skip

        if all(agrees(records.get(table_id)) for table_id in table_ids):
            return [record for table_id in table_ids if (record := records[table_id]) is not None]
        stale = [table_id for table_id in table_ids if not agrees(records.get(table_id))]
        await self._checked(scope, stale, rewrite=True, records=records)
        return None

    async def _migrate(self, scope: str) -> None:
        """Turn an earlier version's set of table ids into the list, then drop the set."""
        legacy = listing.legacy_key(scope)
        await self._relist(scope, sorted(_text(t) for t in await self.redis.smembers(legacy)))
        await self.redis.delete(legacy)

    async def _relist(self, scope: str, table_ids: Sequence[str]) -> None:
        """Write the entries of ``table_ids`` in a list again from the tables themselves."""
        await self._checked(scope, table_ids, rewrite=True)

    async def _checked(
        self,
        scope: str,
        table_ids: Sequence[str],
        *,
        rewrite: bool,
        records: dict[str, TableRecord | None] | None = None,
    ) -> list[TableRecord]:
        """The tables named that belong in the list. Those that do not (gone,
        over, damaged, left) are taken out of it; with ``rewrite`` the others'
        entries are written again from the tables too. ``records``: the tables
        as just loaded (see :meth:`_load`), rather than loading them."""
        if records is None:
            records = await self._load(table_ids)
        now = time.time()
        writes: list[_ListWrite] = []
        found: list[TableRecord] = []
        for table_id in table_ids:
            if table_id not in records:
                continue  # written by a newer release: neither shown nor dropped
            record = records[table_id]
            belongs = record is not None and record.status.active and scope in listing.scopes(record)
            if record is not None and belongs:
                found.append(record)
                if not rewrite:
                    continue
            entry = listing.entry_of(record, scope) if record is not None and belongs else None
            version = record.version if record is not None else _GONE
            writes.append(listing.enter(scope, table_id, version, entry, now))
        await self._write_lists(writes)
        return found

    async def _load(self, table_ids: Sequence[str]) -> dict[str, TableRecord | None]:
        """Many tables at once, in one pipeline (split by node on a cluster):
        ``None`` for one that is gone or damaged (quarantined on the way); one
        written by a newer release is left out."""
        if not table_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hmget(keys.table(table_id), list(_FIELDS))
        found: dict[str, TableRecord | None] = {}
        for table_id, fields in zip(table_ids, await pipe.execute(), strict=True):
            try:
                found[table_id] = await self._parse(table_id, fields)
            except DamagedTable as damaged:
                if damaged.held:
                    found[table_id] = None
        return found

    async def _members(self, scope: str) -> list[TableRecord]:
        """Every active table of a list, read from the tables themselves (for
        commands that need the records; a listing shows :meth:`page`); entries
        for tables that are gone, over or damaged are taken out on the way."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(listing.list_keys(scope)[0], 0, -1)
        pipe.exists(listing.legacy_key(scope))
        listed, legacy = await pipe.execute()
        if legacy:
            await self._migrate(scope)
            listed = await self.redis.zrange(listing.list_keys(scope)[0], 0, -1)
        found = await self._checked(scope, [_text(t) for t in listed], rewrite=False)
        return sorted(found, key=lambda r: r.created_at)

    async def in_channel(self, channel_id: int) -> list[TableRecord]:
        return await self._members(f"channel:{channel_id}")

    async def of_user(self, user_id: int) -> list[TableRecord]:
        return await self._members(f"user:{user_id}")

    async def in_guild(self, guild_id: int) -> list[TableRecord]:
        return await self._members(f"guild:{guild_id}")

    async def due(self, now: float, per_bucket: int = 100) -> list[str]:
        """Ids of tables whose deadline passed: in each bucket of the deadline
        index the (at most ``per_bucket``) that passed longest ago, taken in
        turns (see :mod:`storage.schedule`). Whoever reads them must act on,
        reschedule or unschedule each one (see :meth:`reschedule`), or they
        would hide the tables behind them."""
        return interleave(await self.deadlines.due(now, per_bucket))

    async def claim_due(self, table_id: str, now: float, ms: int = SWEEP_LEASE_MS) -> str | None:
        """Take a due table for this process's sweeper (a token), or ``None``
        while another process's sweeper has it or it is no longer due (another
        sweeper saw to it since this one read the index): several processes
        share one deadline index, and each due table is worked on by one of them."""
        token = secrets.token_hex(8)
        if not await self.redis.set(_sweep_key(table_id), token, nx=True, px=ms):
            return None
        due = await self.deadlines.at(table_id)
        if due is None or due > now:
            await self.release_due(table_id, token)
            return None
        return token

    async def release_due(self, table_id: str, token: str) -> None:
        await self._release(keys=[_sweep_key(table_id)], args=[token])

    async def reschedule(self, table_id: str, at: float | None) -> None:
        """Set a table's place in the deadline index, or take it out (``at=None``)."""
        if at is None:
            await self.deadlines.remove(table_id)
        else:
            await self.deadlines.set(table_id, at)

    async def rebuild_indexes(self) -> int:
        """Recreate the table lists and the deadline index from the tables
        themselves; returns tables seen. The sets of table ids that earlier
        versions kept go too. Only what is rebuilt here is cleared: the outbox's
        schedule, quarantine sets, tournament and rating indexes are not derived
        from the tables and stay as they are."""
        earlier_sets = (f"{keys.PREFIX}:idx:{kind}:*" for kind in ("user", "channel", "guild"))
        rebuilt = [f"{keys.PREFIX}:list:*", *earlier_sets]
        for pattern in rebuilt:
            async for key in self.redis.scan_iter(match=pattern):
                await self.redis.delete(key)
        await self.redis.delete(keys.LEGACY_DEADLINES)
        for bucket in keys.DEADLINE_BUCKETS:
            await self.redis.delete(bucket)
        count = 0
        async for key in self.redis.scan_iter(match=keys.TABLE_PATTERN):
            name = _text(key)
            if not name.endswith("}"):  # a table's log or quarantined copy
                continue
            try:
                record = await self.get(name[len(keys.PREFIX) + 8 : -1])
            except DamagedTable:
                continue
            if record is not None:
                await self.update_indexes(record)
                count += 1
        return count


def _undo_args(record: TableRecord) -> list[str]:
    """What the save does with the table's ``undo`` field. A move that may be
    taken back (its undo point is new in this very save) keeps the state it was
    made on: the stored one, which the compare-and-set proves is the one the
    move was loaded with, so it is copied inside Redis and never sent again."""
    point = record.undo
    if point is None:
        return ["drop", ""]
    if point.version == record.version:
        return ["copy", ""]
    if point.state is None:
        return ["keep", ""]
    return ["set", point.state]  # kept from before; a schema-3 record brings it in its JSON


def _sweep_key(table_id: str) -> str:
    # Which process's sweeper is timing the table out (see TableStore.claim_due).
    return f"{keys.table(table_id)}:sweep"


def _writes_key(table_id: str) -> str:
    # The marks of the table's last writes, so a write whose reply was lost can be recognised.
    return f"{keys.table(table_id)}:writes"


def _queue_index_writes(pipe: Pipeline, record: TableRecord) -> None:
    """Queue the deadline index entry ``record`` calls for (the lists: :func:`_list_writes`)."""
    if (due := _deadline_entry(record)) is None:
        pipe.zrem(keys.deadlines(record.id), record.id)
    else:
        pipe.zadd(keys.deadlines(record.id), {record.id: due})


def _deadline_entry(record: TableRecord) -> float | None:
    """When the deadline index wakes the table: its deadline while it is active; never once over."""
    return record.deadline if record.status.active else None


def _list_writes(record: TableRecord) -> list[_ListWrite]:
    """The table's entry in each list it belongs in while active; out of them once over."""
    return listing.writes_of(record, time.time())


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else str(value)
