"""The table lists (per user, channel and guild, :mod:`storage.listing`) and
the deadline index: what a save enters in them, and the lists' reads."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from storage import keys, listing
from storage.damage import GONE as _GONE
from storage.damage import DamagedTable
from storage.listing import Page
from storage.records import TableRecord, TableStatus
from storage.table_reads import TableReads, text_of

# List entries a lookup reads per round trip: Redis scans their lines for a
# match, so one round trip bounds its time (a person at more tables needs more).
LOOKUP_CHUNK = 500


class TableLists(TableReads):
    """The indexes a table is entered in, and reading the lists."""

    async def update_indexes(self, record: TableRecord) -> None:
        def deadline(pipe: Pipeline) -> None:
            queue_deadline(pipe, record)

        await listing.write(self.redis, self._enter, list_writes(record), deadline)

    async def _write_lists(self, writes: Sequence[listing.Write]) -> None:
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
        self,
        scope: str,
        *,
        channel: int | None = None,
        status: TableStatus | None = None,
        guild: int | None = None,
        want: int = 2,
    ) -> listing.Found:
        """Read a table list's lines in Redis for the first ``want`` entries
        whose table is at ``channel`` (or in that thread), has ``status`` or is
        in ``guild`` (any entry when none is given), and the list's first ``want`` entries: one
        round trip for up to :data:`LOOKUP_CHUNK` entries, however many match,
        and no table loaded. The lines are hints: :meth:`confirm` what is used."""
        needles = listing.needles(channel=channel, status=status, guild=guild)
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
        await self._relist(scope, sorted(text_of(t) for t in await self.redis.smembers(legacy)))
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
        writes: list[listing.Write] = []
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
        found = await self._checked(scope, [text_of(t) for t in listed], rewrite=False)
        return sorted(found, key=lambda r: r.created_at)

    async def in_channel(self, channel_id: int) -> list[TableRecord]:
        return await self._members(f"channel:{channel_id}")

    async def of_user(self, user_id: int) -> list[TableRecord]:
        return await self._members(f"user:{user_id}")

    async def in_guild(self, guild_id: int) -> list[TableRecord]:
        return await self._members(f"guild:{guild_id}")

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
            name = text_of(key)
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


def queue_deadline(pipe: Pipeline, record: TableRecord) -> None:
    """Queue the deadline index entry ``record`` calls for (the lists: :func:`_list_writes`)."""
    if (due := deadline_entry(record)) is None:
        pipe.zrem(keys.deadlines(record.id), record.id)
    else:
        pipe.zadd(keys.deadlines(record.id), {record.id: due})


def deadline_entry(record: TableRecord) -> float | None:
    """When the deadline index wakes the table: its deadline while it is active; never once over."""
    return record.deadline if record.status.active else None


def list_writes(record: TableRecord) -> list[listing.Write]:
    """The table's entry in each list it belongs in while active; out of them once over."""
    return listing.writes_of(record, time.time())
