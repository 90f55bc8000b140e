"""What a table is, as stored: seats, status, ids of its Discord messages, the
engine state (opaque JSON text) and the version that guards every write.

Every record names the schema it was written in (``schema_version``). A record
is read through :func:`parse_record`, which migrates an older one step by step
to :data:`SCHEMA_VERSION`; the next save writes it back in the current schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, Field, ValidationError

# Schema 1: the records written before they carried a schema number; schema 2: before seats
# had their own clocks; schema 3: with the undo point's state inside the record (see UndoPoint.state);
# schema 4: before game states named the decks that ship with the games by reference; schema 5:
# before a rated table remembered who held each seat at its start (TableRecord.rated_players).
SCHEMA_VERSION = 6


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def active(self) -> bool:
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


BotLevel = Literal["easy", "normal", "hard"]


class SeatRecord(BaseModel):
    """A seat: a person (``user_id``) or a bot (``user_id is None``)."""

    user_id: int | None
    name: str
    # The table version at which the seat was taken: a second click on the
    # same Add bot button finds the bot its first click seated.
    since: int = 0
    # The player a bot holds this seat for, after their repeated timeouts: they may come back.
    away: int | None = None
    # How hard a bot in this seat plays (a person's seat keeps it for when a
    # bot takes it over).
    level: BotLevel = "normal"

    @property
    def bot(self) -> bool:
        return self.user_id is None


class InheritedClock(BaseModel):
    """The one deadline a table saved before seats had clocks was waiting on. Only
    the game knows which seats it waited for, so the table service hands this clock
    to them at the table's first change (see :func:`bot.service.clocks.inherit`)."""

    started: float
    due: float


class Clocks(BaseModel):
    """Each awaited seat's own clock (see :mod:`bot.service.clocks`): a response window
    waits for several seats, each with its own deadline and reminders."""

    started: dict[int, float] = Field(default_factory=dict)  # seat -> when its clock started
    due: dict[int, float] = Field(default_factory=dict)  # seat -> when its time runs out
    reminded: dict[int, int] = Field(default_factory=dict)  # seat -> reminders sent for this clock
    bank: dict[int, float] = Field(default_factory=dict)  # seat -> time bank left, in seconds
    bank_start: float = 0.0  # each seat's bank at the start (0: no bank)
    increment: float = 0.0  # added to the bank after each move
    paused_at: float | None = None
    timeouts: dict[int, int] = Field(default_factory=dict)  # seat -> timeouts in a row
    hand_over_after: int = 0  # timeouts in a row that hand a seat to a bot (0: never)
    vacation: dict[int, float] = Field(default_factory=dict)  # seat -> its player's vacation end
    # user id -> a player's settings (see storage.user_settings), copied here from theirs
    prefs: dict[int, dict[str, Any]] = Field(default_factory=dict)
    inherited: InheritedClock | None = None


class UndoPoint(BaseModel):
    """The table just before a move that may still be taken back (see :mod:`bot.service.undo`)."""

    seat: int
    version: int  # the version the move wrote
    # The engine state before the move. Stored beside the record, in the table's
    # ``undo`` field (see storage.store), not inside it: a copy of the whole state
    # in the record's JSON made every load and save of the table twice as long.
    state: str | None = Field(default=None, exclude=True)
    acted_at: dict[int, int] = Field(default_factory=dict)
    asked_at: int | None = None  # the version the request was made at, once asked
    until: float | None = None  # when an unanswered request lapses
    accepted: list[int] = Field(default_factory=list)  # seats that said yes


class RatedPlayer(BaseModel):
    """Who held a seat of a rated table when its game began: the seat's rating
    is theirs, whoever plays it later (a bot after they left, a substitute)."""

    user_id: int
    name: str


class TableRecord(BaseModel):
    schema_version: int = SCHEMA_VERSION
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
    # Whether the table's end moves ratings, and the tournament it is a round's table of.
    rated: bool = False
    tournament_id: str | None = None
    # At a rated table, seat -> its player at the start (see bot.service.ratings); a seat a bot
    # held then has none.
    rated_players: dict[int, RatedPlayer] = Field(default_factory=dict)
    clocks: Clocks = Field(default_factory=Clocks)
    undo: UndoPoint | None = None
    # seat -> the member the host offered it to, as a substitute
    offers: dict[int, int] = Field(default_factory=dict)
    # The game's public headline ("Round 3 · Ann to play"), kept for table lists.
    headline: str = ""
    state: str | None = Field(default=None, exclude=True)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def has_bots(self) -> bool:
        return any(seat.bot for seat in self.seats)


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


class RecordDamaged(Exception):
    """A stored record that cannot be read; ``reason`` says why in a few words."""

    def __init__(self, reason: str, *, newer: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        # Written by a newer release: not damaged, only unreadable here.
        self.newer = newer


def _numbered(data: dict[str, Any]) -> dict[str, Any]:
    """1 → 2: the record names its schema, so later changes can be migrated."""
    return {**data, "schema_version": 2}


def _seat_clocks(data: dict[str, Any]) -> dict[str, Any]:
    """2 → 3: each awaited seat has its own clock. A table in play keeps the deadline
    it was waiting on — its clock restarts for no one. The old release set that
    deadline at each change from the move's limit, so the clock started at the last
    change (``updated_at``), no earlier than a whole move's limit before it."""
    data = {**data, "schema_version": 3}
    due, limit, changed = data.get("deadline"), data.get("turn_timeout"), data.get("updated_at")
    if "clocks" in data or data.get("status") != TableStatus.PLAYING.value or not _number(due):
        return data
    started = due - limit if _number(limit) else due
    if _number(changed):
        started = min(max(started, changed), due)
    return {**data, "clocks": {"inherited": {"started": started, "due": due}}}


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _undo_apart(data: dict[str, Any]) -> dict[str, Any]:
    """3 → 4: an undo point's state moves out of the record; a schema-3 record
    still carries it here, and its next save stores it beside the record."""
    return {**data, "schema_version": 4}


def _shipped_decks(data: dict[str, Any]) -> dict[str, Any]:
    """4 → 5: a game state may name a deck that ships with its game by reference
    (see engines.card_data) instead of carrying its text. A schema-4 state still
    carries the text, which reads as before; the number tells an older release,
    which cannot read a reference, that the table is not its to read."""
    return {**data, "schema_version": 5}


def _rated_players(data: dict[str, Any]) -> dict[str, Any]:
    """5 → 6: a rated table remembers who held each seat at its start. One that
    started before knows only who holds them now, and whom a bot holds a seat
    for after their timeouts: those are taken as its starters."""
    data = {**data, "schema_version": 6}
    started = data.get("status") in (TableStatus.PLAYING.value, TableStatus.FINISHED.value)
    seats = data.get("seats")
    if not data.get("rated") or not started or "rated_players" in data or not isinstance(seats, list):
        return data
    players = {}
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        who = seat.get("user_id") if seat.get("user_id") is not None else seat.get("away")
        name = seat.get("name")
        if _number(who) and isinstance(name, str):
            players[str(index)] = {"user_id": who, "name": name.removesuffix(" (bot)")}
    return {**data, "rated_players": players}


# MIGRATIONS[n] turns a schema-n record (as JSON data) into a schema-(n + 1) one.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _numbered,
    2: _seat_clocks,
    3: _undo_apart,
    4: _shipped_decks,
    5: _rated_players,
}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring stored record data up to :data:`SCHEMA_VERSION`."""
    version = data.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordDamaged(f"its schema version {version!r} is not a schema")
    if version > SCHEMA_VERSION:
        raise RecordDamaged(f"it was written by a newer gametable (schema {version})", newer=True)
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data


def parse_record(meta: str | bytes) -> TableRecord:
    """A stored table record, migrated to the current schema; :class:`RecordDamaged` if unreadable."""
    # Nearly every record read was written in the current schema: pydantic reads
    # it straight from the JSON text, twice as fast as parsing then validating.
    # Anything else (an older schema, a damaged record) takes the careful way.
    try:
        current = TableRecord.model_validate_json(meta)
    except ValidationError:
        pass
    else:
        if "schema_version" in current.model_fields_set and current.schema_version == SCHEMA_VERSION:
            return current
    try:
        data = json.loads(meta)
    except (ValueError, RecursionError) as error:
        raise RecordDamaged(f"it is not valid JSON ({str(error)[:80]})") from None
    if not isinstance(data, dict):
        raise RecordDamaged("it is not a JSON object")
    try:
        return TableRecord.model_validate(migrate(data))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "record"
        raise RecordDamaged(f"{where}: {first['msg']}"[:160]) from None


def salvage(meta: str | bytes | None) -> dict[str, Any]:
    """What can still be read from a damaged record (the ids that indexes and
    permissions need), each field only when it has the right type."""
    try:
        data = json.loads(meta or b"")
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    found: dict[str, Any] = {}
    for name in ("host_id", "guild_id", "channel_id", "thread_id", "message_id"):
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            found[name] = value
    if isinstance(data.get("game"), str):
        found["game"] = data["game"][:64]
    seats = data.get("seats")
    if isinstance(seats, list):
        ids = [s.get("user_id") for s in seats if isinstance(s, dict)]
        found["user_ids"] = [i for i in ids if isinstance(i, int) and not isinstance(i, bool)]
    return found
