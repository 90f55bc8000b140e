"""Refusals a player can be told about. Each carries one short sentence; the
Discord error handler and the terminal table show it as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.damage import DamagedTable
    from storage.records import TableRecord


class ServiceError(Exception):
    """Every error the table service raises: a refusal (:class:`TableError`),
    or storage that could not be used (:class:`StorageUnavailable`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TableError(ServiceError):
    """A refusal: the change was judged and refused, nothing changed."""


class TableNotFound(TableError):
    pass


class UnknownGame(TableError):
    """A game this install does not have (a table of a game since removed, or a typo)."""


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


class TableDamaged(TableError):
    """The stored table cannot be read; it has been set aside (quarantined)."""

    def __init__(self, damage: DamagedTable) -> None:
        super().__init__(
            f"Table {damage.table_id} cannot be read, so it cannot be played; "
            "its host or a moderator can end it with /table abandon."
            if damage.held
            else f"Table {damage.table_id} was saved by a newer gametable; this bot cannot open it."
        )
        self.damage = damage


class StorageUnavailable(ServiceError):
    """The table's storage did not answer, so what was asked was not done (not
    a refusal: asked again once storage is back, it may well be done)."""

    def __init__(
        self,
        message: str = "The table's storage is not answering right now, so that was not done; "
        "please try again shortly.",
    ) -> None:
        super().__init__(message)


class OutcomeUnknown(StorageUnavailable):
    """A change was sent, and storage stayed away too long to tell whether it was saved."""

    def __init__(self) -> None:
        super().__init__(
            "The table's storage stopped answering during that change, so it cannot be told yet whether "
            "it counted; look at the table again in a moment."
        )
