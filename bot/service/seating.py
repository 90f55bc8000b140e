"""Who sits where before and after the start: which lobby button still holds,
who hosts once the host has gone, and how a seat is named in ``/table kick``.
Platform-neutral (no discord import); :class:`bot.service.tables.TableService` applies
these rules inside its one change path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service.errors import NotHost, TableError, WrongStatus
from engines.core import Event, Seat, quote
from storage.records import RatedPlayer, TableRecord, TableStatus


@dataclass(frozen=True)
class Drawn:
    """The stage and version a button was drawn at. A click is judged against
    the table it was drawn for: a lobby button pressed once the game runs must
    not act on the game (Leave would resign the player)."""

    stage: TableStatus
    version: int


def in_lobby(version: int | None) -> Drawn | None:
    """A lobby button's drawing; ``None`` (a command) carries no drawing."""
    return None if version is None else Drawn(TableStatus.LOBBY, version)


# The table message shows one set of buttons per stage, so a button's verb says
# the stage it was drawn at.
_STAGE_OF_VERB = {
    **dict.fromkeys(("join", "leave", "bot", "start", "kick"), TableStatus.LOBBY),
    **dict.fromkeys(("hand", "act"), TableStatus.PLAYING),
}


def drawn_for(verb: str, version: int) -> Drawn:
    """The drawing of a table-message button with this verb."""
    return Drawn(_STAGE_OF_VERB[verb], version)


_MOVED_ON = {
    "leave": "This button is from the lobby; the game has started — use /table leave to resign.",
}


def check_drawn(record: TableRecord, drawn: Drawn | None, verb: str) -> None:
    """Refuse a click drawn for another stage of the table."""
    if drawn is None or record.status is drawn.stage:
        return
    if not record.status.active:
        raise WrongStatus("This table is over.")
    if drawn.stage is TableStatus.LOBBY:
        raise WrongStatus(_MOVED_ON.get(verb, "This button is from the lobby; the game has already started."))
    raise WrongStatus("This button is from another stage of the table.")


def check_one_bot(record: TableRecord, drawn: Drawn | None) -> None:
    """One Add bot button seats one bot: a double click (or a second click on
    the same drawing) finds the bot the first click seated."""
    if drawn is not None and any(s.bot and s.since >= drawn.version for s in record.seats):
        raise TableError("A bot already took a seat from that button — press Add bot again for another.")


def next_host(record: TableRecord, seat: Seat) -> int | None:
    """The first person seated after ``seat`` in seat order, going round the table."""
    count = len(record.seats)
    for step in range(1, count):
        user_id = record.seats[(seat + step) % count].user_id
        if user_id is not None:
            return user_id
    return None


def pass_hosting(record: TableRecord, seat: Seat) -> list[Event]:
    """The host leaves ``seat``: hosting passes to the next person at the table.
    Call before the seat is emptied. With nobody left, only moderators remain
    (and the table, having no players, is abandoned by the caller)."""
    if record.seats[seat].user_id != record.host_id:
        return []
    successor = next_host(record, seat)
    if successor is None:
        return []
    record.host_id = successor
    name = next(s.name for s in record.seats if s.user_id == successor)
    return [Event(text=f"{name} is now the host.")]


def check_removal(record: TableRecord, user_id: int, drawn: Drawn | None) -> None:
    """May ``user_id`` remove seats from this table now?"""
    check_drawn(record, drawn, "kick")
    if not record.status.active:
        raise WrongStatus("This table is over.")
    if record.status is not TableStatus.LOBBY:
        raise WrongStatus("Seats can only be removed before the game starts.")
    if record.host_id != user_id:
        raise NotHost("Only the table's host can remove a seat.")


def check_seat(record: TableRecord, user_id: int, seat: Seat) -> None:
    """May the host remove ``seat``?"""
    if not 0 <= seat < len(record.seats):
        raise TableError(f"There is no seat {seat + 1} at this table.")
    if record.seats[seat].user_id == user_id:
        raise TableError("You cannot remove yourself — use Leave.")


_SEAT_AT = re.compile(r"\s*(\d{1,3})\s*(?:@(\d{1,9}))?\s*")


def seat_named(record: TableRecord, text: str) -> tuple[Seat, int | None]:
    """The seat ``/table kick`` means, and the table version it was chosen at:
    ``"3@17"`` (autocomplete: seat 3 as listed at version 17), ``"3"`` or a name."""
    number = _SEAT_AT.fullmatch(text)
    if number:
        version = int(number[2]) if number[2] else None
        return int(number[1]) - 1, version
    wanted = text.strip().casefold()
    found = [i for i, s in enumerate(record.seats) if s.name.casefold() == wanted]
    if len(found) != 1:
        raise TableError(f"No seat here is called {quote(text)} — pick one from the list or give its number.")
    return found[0], None


def seat_label(record: TableRecord, seat: Seat) -> str:
    occupant = record.seats[seat]
    return f"{seat + 1}. {occupant.name}" + (" 🤖" if occupant.bot else "")


def remember_rated_players(record: TableRecord) -> None:
    """At a rated table's start: who holds each seat. The seat's rating is theirs
    to the end, whoever plays it later (see :mod:`bot.service.ratings`)."""
    if record.rated:
        record.rated_players = {
            seat: RatedPlayer(user_id=occupant.user_id, name=occupant.name)
            for seat, occupant in enumerate(record.seats)
            if occupant.user_id is not None
        }
