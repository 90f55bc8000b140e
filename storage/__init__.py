"""Tables in Redis: records, compare-and-set saves, logs, indexes, deadlines.
Knows nothing of any game's rules."""

from storage.connect import open_redis
from storage.damage import DamagedTable
from storage.records import LogEntry, SeatRecord, TableRecord, TableStatus
from storage.store import TableStore, VersionConflict

__all__ = [
    "DamagedTable",
    "LogEntry",
    "SeatRecord",
    "TableRecord",
    "TableStatus",
    "TableStore",
    "VersionConflict",
    "open_redis",
]
