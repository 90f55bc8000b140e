"""How long tables are kept, and the archive form of a finished one.

Every save sets the lifetime of the table's keys in the same script: a lobby
lives ``idle_lobby`` after its last change (nobody started it: it goes), a
table in play lives for ever, a finished or abandoned one lives ``finished``
more (the operator's retention) and then goes with its log. An index entry
left behind by an expired table is dropped by the next reader that finds the
table gone, like any stale hint.

Once a table is over its log is archived: the entries are compressed into one
string (``gt:{table:ID}:archive``, in the table's slot) and the list is deleted,
in one script that first checks the table has not been written since. The
record keeps the result (its final state and the log's last entry).

A finished table is still written now and then (the message that shows it, a
player's settings copied in), and every such save archives again. So archiving
adds to the archive, never replaces it: the archive and the list are read
together in one script, their entries joined, and the join written back only
if the table is still at the version read. Archiving twice, or two processes
archiving at once, writes the same join; no entry is ever dropped.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from redis.asyncio import Redis

from storage import keys
from storage.records import TableRecord, TableStatus

DAY = 24 * 3600.0

# KEYS table, log, archive: the version, the archive and the list, read at one instant.
_READ = """
return {redis.call('HGET', KEYS[1], 'version'), redis.call('GET', KEYS[3]),
        redis.call('LRANGE', KEYS[2], 0, -1)}
"""
# KEYS table, log, archive; ARGV version, compressed log, lifetime ms, compressed state.
_ARCHIVE = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[2])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'state_z', ARGV[4])
  redis.call('HDEL', KEYS[1], 'state')
end
return 1
"""


@dataclass(frozen=True)
class Retention:
    """Seconds a finished or abandoned table is kept, and an untouched lobby."""

    finished: float = 30 * DAY
    idle_lobby: float = 7 * DAY

    def lifetime_ms(self, record: TableRecord) -> int:
        """How long the table's keys live from this save on; 0: for ever."""
        if record.status is TableStatus.LOBBY:
            return max(1, int(self.idle_lobby * 1000))
        if record.status is TableStatus.PLAYING:
            return 0
        return max(1, int(self.finished * 1000))


def archive_key(table_id: str) -> str:
    return f"{keys.table(table_id)}:archive"


def _raw(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def pack(lines: list[bytes]) -> bytes:
    return zlib.compress(b"\n".join(lines), 6)


def unpack(blob: bytes) -> list[bytes]:
    text = zlib.decompress(blob)
    return text.split(b"\n") if text else []


class Archiver:
    def __init__(self, redis: Redis, retention: Retention) -> None:
        self.redis = redis
        self.retention = retention
        self._archive = redis.register_script(_ARCHIVE)
        self._read = redis.register_script(_READ)

    async def entries(self, table_id: str) -> tuple[str | None, list[bytes]]:
        """The table's version and every line of its log, archived and listed,
        read at one instant (an archive running meanwhile cannot hide a line)."""
        names = [keys.table(table_id), keys.log(table_id), archive_key(table_id)]
        version, archived, listed = await self._read(keys=names)
        lines = unpack(_raw(archived)) if archived else []
        return (None if version is None else _raw(version).decode()), lines + [_raw(line) for line in listed]

    async def archive(self, record: TableRecord) -> bool:
        """Compress an over table's log, adding what was logged since the last
        archive to it; ``False`` if the table changed meanwhile."""
        version, lines = await self.entries(record.id)
        if version != str(record.version):
            return False
        names = [keys.table(record.id), keys.log(record.id), archive_key(record.id)]
        state = zlib.compress(record.state.encode(), 6) if record.state else ""
        args: list[bytes | str | int] = [
            str(record.version),
            pack(lines),
            self.retention.lifetime_ms(record),
            state,
        ]
        return bool(await self._archive(keys=names, args=args))


def unpack_state(blob: bytes | str) -> str:
    return zlib.decompress(_raw(blob)).decode()
