"""The tables this process wrote last, as it wrote them.

A change to a table reads it, changes it and saves it with a compare-and-set on
its version. When this process made the table's last write, what the read would
return is already known: the fields it just wrote. A change then starts from
them and needs one round trip (the save) instead of two. Nothing is lost when
another process wrote meanwhile: the stored version is no longer the one the
change started from, so the save is refused, the entry is forgotten and the
change runs again on a fresh read.

Only tables in play or in their lobby are kept: a finished table's fields change
without a new version when its log is archived (see :mod:`storage.retention`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from cachetools import LRUCache

from storage.records import TableRecord

_K = TypeVar("_K")
_V = TypeVar("_V")

# Bounded twice over: at most 1,024 tables, and 32 MB of their text in all. A
# typical table is about 20 KB (the record, and the game state's JSON twice
# with an undo point), but a custom deck of 5,000 cards makes a state of half a
# megabyte, and a count alone would let such tables fill gigabytes. Fewer than
# a process's busy tables would hardly ever hit when they take turns (256 gave
# no gain at 500 tables moving in turn); a table out of it is simply read again.
RECENT_KEPT = 1024
RECENT_CHARACTERS = 32 * 1024 * 1024

# The hash's fields as TableStore.get reads them: version, meta, state,
# state_z (an archived state) and undo (the state before a move).
Fields = tuple[str, str, str, None, str | None]


class SizedCache(LRUCache[_K, _V]):
    """The entries used last, at most ``entries`` of them and ``characters`` of
    their text (``text(value)``) in all: each weighs its text, but never less
    than its share ``characters // entries``, so one bound gives both."""

    def __init__(self, entries: int, characters: int, text: Callable[[_V], int]) -> None:
        least = characters // entries
        super().__init__(characters, getsizeof=lambda value: max(least, text(value)))

    def keep(self, key: _K, value: _V) -> None:
        """Keep ``value`` under ``key``; one larger than the whole cache is not kept (nor an older one)."""
        self.pop(key, None)
        if self.getsizeof(value) <= self.maxsize:
            self[key] = value


def _text(fields: Fields) -> int:
    return len(fields[1]) + len(fields[2]) + len(fields[4] or "")


class RecentWrites:
    def __init__(self, kept: int = RECENT_KEPT, characters: int = RECENT_CHARACTERS) -> None:
        self._fields: SizedCache[str, Fields] = SizedCache(kept, characters, _text)

    def wrote(self, record: TableRecord, meta: str) -> None:
        """``record`` was just saved with ``meta`` as its record's JSON."""
        point = record.undo
        if not record.status.active or (point is not None and point.state is None):
            # A finished table is archived behind the version's back; an undo point whose
            # state stayed in Redis (kept from an earlier save) is not known here.
            self.forget(record.id)
            return
        before = point.state if point is not None else None
        self._fields.keep(record.id, (str(record.version), meta, record.state or "", None, before))

    def fields(self, table_id: str) -> Fields | None:
        """What a read of the table returned right after this process's last write of it."""
        return self._fields.get(table_id)

    def holds(self, table_id: str) -> bool:
        return table_id in self._fields

    def forget(self, table_id: str) -> None:
        self._fields.pop(table_id, None)
