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

from collections import OrderedDict

from storage.records import TableRecord

# Tables kept: about 20 KB each at most (the record, and the game state's JSON
# twice with an undo point), so 20 MB. Fewer than a process's busy tables would
# hardly ever hit when they take turns (256 gave no gain at 500 tables moving in
# turn); a table out of it is simply read again.
RECENT_KEPT = 1024

# The hash's fields as TableStore.get reads them: version, meta, state,
# state_z (an archived state) and undo (the state before a move).
Fields = tuple[str, str, str, None, str | None]


class RecentWrites:
    def __init__(self, kept: int = RECENT_KEPT) -> None:
        self.kept = kept
        self._fields: OrderedDict[str, Fields] = OrderedDict()

    def wrote(self, record: TableRecord, meta: str) -> None:
        """``record`` was just saved with ``meta`` as its record's JSON."""
        point = record.undo
        if not record.status.active or (point is not None and point.state is None):
            # A finished table is archived behind the version's back; an undo point whose
            # state stayed in Redis (kept from an earlier save) is not known here.
            self.forget(record.id)
            return
        before = point.state if point is not None else None
        self._fields[record.id] = (str(record.version), meta, record.state or "", None, before)
        self._fields.move_to_end(record.id)
        while len(self._fields) > self.kept:
            self._fields.popitem(last=False)

    def fields(self, table_id: str) -> Fields | None:
        """What a read of the table returned right after this process's last write of it."""
        found = self._fields.get(table_id)
        if found is not None:
            self._fields.move_to_end(table_id)
        return found

    def holds(self, table_id: str) -> bool:
        return table_id in self._fields

    def forget(self, table_id: str) -> None:
        self._fields.pop(table_id, None)
