"""Refusals a player can be told about. Each carries one short sentence; the
Discord error handler and the terminal table show it as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.records import TableRecord


class TableError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TableNotFound(TableError):
    pass


class NotSeated(TableError):
    pass


class NotHost(TableError):
    pass


class WrongStatus(TableError):
    pass


class TableFull(TableError):
    pass


class StaleClick(TableError):
    """The click was made on an older state; ``table`` is the fresh one."""

    def __init__(self, table: TableRecord) -> None:
        super().__init__("The table has moved on since that button was drawn — here is where it stands now.")
        self.table = table


class TableBusy(TableError):
    pass
