"""Saving a table: one compare-and-set script that checks the version, writes
the table, its log entries, its outbox and a mark of the write (and, on one
Redis server, its index entries), so a write is applied exactly once or refused,
and a write whose reply was lost is told from one that never ran."""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import time
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any

from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from storage import keys, listing
from storage.damage import DamagedTable
from storage.outbox import Announcement, outbox_key
from storage.records import LogEntry, TableRecord
from storage.table_lists import TableLists, deadline_entry, list_writes, queue_deadline
from storage.table_reads import STORAGE_FAULTS, log, text_of

# The compare-and-set save itself. KEYS: table, log, outbox, write marks.
# ARGV: expected version, version, meta, state, write mark, news, lifetime (ms),
# what to do with the undo state and that state; then, from ``first`` to
# ``last``, the log entries.
SAVE_FUNCTION = """
local function save(first, last)
  local current = redis.call('HGET', KEYS[1], 'version')
  if ARGV[1] == 'new' then
    if current then return -1 end
  elseif current ~= ARGV[1] then
    if current then return tonumber(current) end
    return -2
  end
  -- Given up by its writer, who was told it did not count (see VOID).
  if redis.call('LPOS', KEYS[4], 'void:' .. ARGV[5]) then return -3 end
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
SAVE = SAVE_FUNCTION + "return save(10, #ARGV)"
# On a standalone Redis every key sits on the one server, so the save enters
# its table's indexes itself: one command, and a refused save writes none.
# KEYS: the four of the save, the deadline bucket, the outbox schedule bucket,
# then order, lines and marks of each list. ARGV: the save's nine, the number
# of log entries and the entries; the deadline ('' when none); the table id;
# '1' when the save brings news; then six arguments of each list entry.
SAVE_WITH_INDEXES = (
    SAVE_FUNCTION
    + listing.ENTER_FUNCTION
    + """
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
)
_SAVED = -100
# Settling a save whose reply was lost. KEYS: the write marks, the table;
# ARGV: the write's mark. 1: the write was applied. 0: it was not, and now never
# will be: a copy of it still on its way (queued behind a frozen server, or
# resent by the client) finds its mark void and changes nothing, so the answer
# "it did not count" stays true.
VOID = """
if redis.call('LPOS', KEYS[1], ARGV[1]) then return 1 end
redis.call('LPUSH', KEYS[1], 'void:' .. ARGV[1])
redis.call('LTRIM', KEYS[1], 0, 49)
if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('PEXPIRE', KEYS[1], 86400000) end
return 0
"""
# How long a save whose reply was lost is settled for (Redis restarting or
# frozen) before its writer is told its outcome is unknown.
SETTLE_WITHIN = 20.0


class _Nonces:
    """The marks that tell writes apart (see ``Saving._landed``): a random
    prefix per process, new in a forked child, then a count. A fresh random
    mark per write cost a read of the system's random source on every move."""

    def __init__(self) -> None:
        self._fresh()
        os.register_at_fork(after_in_child=self._fresh)

    def _fresh(self) -> None:
        self._prefix = secrets.token_hex(8)
        self._count = itertools.count()

    def __next__(self) -> str:
        return f"{self._prefix}.{next(self._count)}"


_NONCES = _Nonces()


class VersionConflict(Exception):
    """Someone else wrote the table first; reload and try again."""

    def __init__(self, table_id: str, current: int | None) -> None:
        super().__init__(f"table {table_id} is at version {current}")
        self.table_id = table_id
        self.current = current


class SaveUnknown(Exception):
    """A save's reply was lost and Redis stayed away for longer than
    ``settle_within``, so it could not be asked whether the save was applied:
    it may or may not have been."""


class Saving(TableLists):
    """Writing tables."""

    settle_within = SETTLE_WITHIN

    @cached_property
    def _void(self) -> AsyncScript:
        return self.redis.register_script(VOID)

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
        lost on the way back is settled by its write mark (see :meth:`_settle`):
        applied, it returns; not applied, the storage fault is raised and the
        save can never land later; Redis away too long, :class:`SaveUnknown`."""
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
        text = text_of(raw)
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
        nonce = next(_NONCES)
        try:
            await self._write(record, expected, entries, news, nonce)
        except VersionConflict:
            # A client-level retry of a write whose first reply was lost finds its own write.
            if not await self._landed(record, nonce):
                raise
        except STORAGE_FAULTS as fault:
            if not await self._settle(record, nonce, fault):
                if self._separate_indexes:
                    await self._repair_indexes(record.id)  # its index writes beside it may have run
                raise
            log.warning("the save's reply was lost, but the save was applied", extra={"table": record.id})
            # Whether the indexes in its pipeline were written is unknown: write them again.
            await self._after_write(record, news)

    async def _settle(self, record: TableRecord, nonce: str, fault: BaseException) -> bool:
        """Whether the write marked ``nonce``, whose reply was lost, was applied;
        if not, it never will be (see ``VOID``). Redis is asked again, with a
        growing pause, for :attr:`settle_within` seconds (a restart, a freeze);
        past that, :class:`SaveUnknown`."""
        give_up = time.monotonic() + self.settle_within
        pause = 0.05
        names = [writes_key(record.id), keys.table(record.id)]
        while True:
            try:
                return bool(await self._void(keys=names, args=[nonce]))
            except STORAGE_FAULTS:
                if time.monotonic() + pause > give_up:
                    raise SaveUnknown(record.id) from fault
            await asyncio.sleep(pause)
            pause = min(pause * 2, 1.0)

    async def _landed(self, record: TableRecord, nonce: str) -> bool:
        """Whether the write marked ``nonce`` was applied (the table keeps its last 50 marks)."""
        return await self.redis.lpos(writes_key(record.id), nonce) is not None

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
        # Whatever becomes of this write (refused, unknown, cancelled), the next
        # change reads the table afresh unless it is known to have landed.
        self.recent.forget(record.id)
        meta = record.model_dump_json()
        args = [expected, str(record.version), meta, record.state or "", nonce]
        args.append(news.model_dump_json() if news is not None else "")
        args.append(str(self.retention.lifetime_ms(record)))
        args += _undo_args(record)
        logged = [entry.model_dump_json() for entry in entries]
        names = [keys.table(record.id), keys.log(record.id), outbox_key(record.id), writes_key(record.id)]
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
        due = deadline_entry(record)
        args += ["" if due is None else repr(due), record.id, "" if news is None else "1"]
        for list_keys, list_args in list_writes(record):
            names += list_keys
            args += list_args
        try:
            # EVALSHA, not the Script object, whose every call would first ask
            # whether the script is loaded.
            outcome = await self.redis.evalsha(self._save.sha, len(names), *names, *args)
        except NoScriptError:
            # Redis restarted or failed over since the script was loaded: nothing ran.
            await self.redis.script_load(SAVE_WITH_INDEXES)
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
        queue_deadline(pipe, record)
        if news is not None:
            pipe.zadd(keys.outbox_due(record.id), {record.id: 0.0}, nx=True)
        saving = self._save(keys=names, args=args)  # loads the script itself when a node lacks it
        indexing = pipe.execute(raise_on_error=False)
        listing_ = [self._enter(keys=k, args=a) for k, a in list_writes(record)]
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

    async def _archive(self, record: TableRecord) -> None:
        """Compress a table's log once it is over (a hint of storage: failing is harmless)."""
        try:
            await self.archiver.archive(record)
        except STORAGE_FAULTS:
            log.warning("its log could not be archived", exc_info=True, extra={"table": record.id})


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


def writes_key(table_id: str) -> str:
    # The marks of the table's last writes, so a write whose reply was lost can be recognised.
    return f"{keys.table(table_id)}:writes"
