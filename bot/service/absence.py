"""Absent players, as rules on the table record (no storage, no Discord):
repeated timeouts hand a seat to a bot the player may take back, and a
vacation stretches a seat's clock until its player returns or acts.

The engine never sees who sits in a seat, so nothing here changes the game.
"""

from __future__ import annotations

from engines.core import Event, Seat, seat_ref
from storage.records import SeatRecord, TableRecord

BOT_SUFFIX = " (bot)"
RETURNED = "vacation-end"


def timed_out(record: TableRecord, seat: Seat, notices: dict[int, list[str]] | None = None) -> list[Event]:
    """Count a timeout; the table's limit of timeouts in a row hands the seat to a
    bot, and the player is told (in ``notices``, by user) how to come back."""
    clocks = record.clocks
    clocks.timeouts[seat] = clocks.timeouts.get(seat, 0) + 1
    occupant = record.seats[seat]
    if not clocks.hand_over_after or clocks.timeouts[seat] < clocks.hand_over_after or occupant.bot:
        return []
    clocks.timeouts.pop(seat)
    record.seats[seat] = SeatRecord(
        user_id=None, name=f"{occupant.name}{BOT_SUFFIX}", since=record.version, away=occupant.user_id
    )
    if notices is not None and occupant.user_id is not None:
        notices.setdefault(occupant.user_id, []).append(
            f"You ran out of time {clocks.hand_over_after} times in a row at table {record.id}, so a bot "
            f"plays your seat for now. Take it back whenever you like with `/clock back table:{record.id}`."
        )
    return [
        Event(
            text=f"{occupant.name} ran out of time {clocks.hand_over_after} times in a row; a bot plays "
            f"their seat until they come back with `/clock back table:{record.id}`."
        )
    ]


def acted(record: TableRecord, seat: Seat, now: float) -> list[Event]:
    """A player moved: their timeouts in a row start again from none, and their
    vacation at this table ends early."""
    record.clocks.timeouts.pop(seat, None)
    until = record.clocks.vacation.pop(seat, None)
    if until is None or until <= now:
        return []
    return [Event(text=f"{seat_ref(seat)} is back from vacation.", kind=RETURNED)]


def end_vacation(record: TableRecord, seat: Seat, now: float) -> list[Event]:
    """The player came back (they moved at another table): the rest of the
    vacation is taken off this table's clock too."""
    until = record.clocks.vacation.pop(seat, None)
    if until is None or until <= now:
        return []
    clocks = record.clocks
    if seat in clocks.due:
        clocks.due[seat] -= until - now
        clocks.started[seat] -= until - now
    return [Event(text=f"{seat_ref(seat)} is back from vacation.", kind=RETURNED)]


def come_back(record: TableRecord, user_id: int) -> Seat:
    """Give the seat a bot holds for ``user_id`` back to them; its number."""
    for seat, occupant in enumerate(record.seats):
        if occupant.bot and occupant.away == user_id:
            name = occupant.name.removesuffix(BOT_SUFFIX)
            record.seats[seat] = SeatRecord(user_id=user_id, name=name, since=record.version)
            return seat
    raise LookupError(user_id)


def vacation_note(record: TableRecord, seat: Seat, now: float) -> str:
    """What the table shows for a seat whose player is on vacation."""
    until = record.clocks.vacation.get(seat)
    return f" · 🏖️ on vacation until <t:{int(until)}:f>" if until is not None and until > now else ""
