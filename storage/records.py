"""What a table is, as stored: seats, status, ids of its Discord messages, the
engine state (opaque JSON text) and the version that guards every write."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def active(self) -> bool:
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


class SeatRecord(BaseModel):
    """A seat: a person (``user_id``) or a bot (``user_id is None``)."""

    user_id: int | None
    name: str
    # The table version at which the seat was taken: a second click on the
    # same Add bot button finds the bot its first click seated.
    since: int = 0

    @property
    def bot(self) -> bool:
        return self.user_id is None


class TableRecord(BaseModel):
    id: str
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRecord] = Field(default_factory=list)
    status: TableStatus = TableStatus.LOBBY
    host_id: int
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    message_id: int | None = None
    version: int = 0
    created_at: float
    updated_at: float
    seed: int
    turn_timeout: float
    deadline: float | None = None
    # The version at which each seat last acted, so a double click on an old
    # button is recognised even when the same choice is legal again.
    acted_at: dict[int, int] = Field(default_factory=dict)
    state: str | None = Field(default=None, exclude=True)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]


class LogEntry(BaseModel):
    """One line of a table's append-only log: what was done and what it caused.
    Private events are kept (the log is the table's full record and allows
    replay) but only public ones are ever shown in a channel."""

    version: int
    at: float
    kind: str
    seat: int | None = None
    action: Any = None
    events: list[dict[str, Any]] = Field(default_factory=list)
