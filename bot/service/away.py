"""Services for players who are away (see :mod:`bot.service.absence` for the rules):
vacation at every table at once, coming back to a seat a bot kept, and a
substitute taking over a seat the host offers them."""

from __future__ import annotations

import logging

from bot.service import absence, clocks
from bot.service.errors import NotHost, StorageUnavailable, TableError, WrongStatus
from bot.service.tables import Outcome, TableService, _Play
from engines.core import Event, seat_ref
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.vacations import NoAllowance, VacationStore

log = logging.getLogger(__name__)


def _in_play(record: TableRecord) -> None:
    if record.status is not TableStatus.PLAYING:
        raise WrongStatus("This table is not in play.")


def _seat_in_play(record: TableRecord, user_id: int) -> int:
    _in_play(record)
    seat = record.seat_of(user_id)
    if seat is None:
        raise WrongStatus("Not seated here any more.")
    return seat


async def go_on_vacation(service: TableService, user_id: int, days: int) -> tuple[float, list[Outcome]]:
    """Stretch the user's clocks at every table in play until the vacation ends."""
    if not 1 <= days <= 30:
        raise TableError("A vacation lasts from 1 to 30 days.")
    now = service.clock()
    try:
        until = await VacationStore(service.store.redis).take(user_id, now, days)
    except NoAllowance as short:
        raise TableError(
            f"You have {short.left_days:.1f} days of vacation left in these 30 days (14 at most)."
        ) from None

    def away(play: _Play) -> None:
        record = play.record
        seat = _seat_in_play(record, user_id)
        c = record.clocks
        gap = until - max(now, c.vacation.get(seat, now))
        c.vacation[seat] = until
        if seat in c.due:
            c.due[seat] += gap
            c.started[seat] += gap
            if c.paused_at is None:
                record.deadline = clocks.wake_up(record)
        play.events.append(Event(text=f"{seat_ref(seat)} is on vacation until <t:{int(until)}:f>."))

    outcomes = []
    for record in await service.store.of_user(user_id):
        try:
            outcomes.append(await service._change(record.id, away, kind="vacation"))
        except TableError:
            continue  # a lobby, a finished or unreadable table: no clock to stretch
        except StorageUnavailable:
            # The days are taken: a table that could not be written must not turn the
            # answer into "not done" (asked again, the days would be charged twice).
            log.warning("table %s: user %s's vacation could not be written there", record.id, user_id)
    return until, outcomes


async def back_from_vacation(service: TableService, user_id: int, outcome: Outcome) -> list[Outcome]:
    """A move ended the player's vacation at its table: end it at every other
    table too (the days not taken stay in the allowance: only days gone count)."""
    if not any(e.kind == absence.RETURNED for e in outcome.events):
        return []
    now = service.clock()

    def back(play: _Play) -> None:
        record = play.record
        seat = _seat_in_play(record, user_id)
        play.events += absence.end_vacation(record, seat, now)
        if record.clocks.paused_at is None and record.clocks.due:
            record.deadline = clocks.wake_up(record)

    told = []
    for record in await service.store.of_user(user_id):
        if record.id != outcome.table.id and record.clocks.vacation:
            try:
                told.append(await service._change(record.id, back, kind="vacation"))
            except TableError:
                continue
            except StorageUnavailable:  # the move itself was saved: never report it as failed
                log.warning("table %s: user %s's vacation could not be ended there", record.id, user_id)
    return told


async def come_back(service: TableService, table_id: str, user_id: int) -> Outcome:
    def back(play: _Play) -> None:
        record = play.record
        _in_play(record)
        try:
            seat = absence.come_back(record, user_id)
        except LookupError:
            raise TableError("No seat at this table is kept for you.") from None
        play.events.append(Event(text=f"{seat_ref(seat)} is back and plays their seat again."))
        service._advance(play)  # their clock starts if the game waits for them

    return await service._change(table_id, back, kind="back", seat_of=user_id)


def _substitutable(record: TableRecord, seat: int) -> bool:
    """A seat a bot plays, or whose player let their time run out last time."""
    occupant = record.seats[seat]
    return occupant.bot or record.clocks.timeouts.get(seat, 0) > 0


async def offer_seat(
    service: TableService, table_id: str, user_id: int, seat: int, newcomer: int, *, moderator: bool
) -> Outcome:
    def offer(play: _Play) -> None:
        record = play.record
        _in_play(record)
        if record.host_id != user_id and not moderator:
            raise NotHost("Only the host or a moderator with Manage Server can offer a seat.")
        if not 0 <= seat < len(record.seats):
            raise TableError(f"There is no seat {seat + 1} at this table.")
        if not _substitutable(record, seat):
            raise TableError(
                "Only a seat a bot plays, or whose player has let their time run out, can be offered."
            )
        if record.seat_of(newcomer) is not None:
            raise TableError("They already sit at this table.")
        record.offers[seat] = newcomer
        play.events.append(Event(text=f"The host offers {seat_ref(seat)}'s seat to a substitute."))

    return await service._change(table_id, offer, kind="offer", seat_of=user_id)


async def take_seat(service: TableService, table_id: str, user_id: int, name: str) -> Outcome:
    left: list[int] = []

    def take(play: _Play) -> None:
        record = play.record
        _in_play(record)
        seats = [s for s, who in record.offers.items() if who == user_id]
        if not seats or record.seat_of(user_id) is not None:
            raise TableError("No seat at this table is offered to you.")
        seat = seats[0]
        before = record.seats[seat]
        record.offers.pop(seat)
        record.clocks.timeouts.pop(seat, None)
        left[:] = [before.user_id] if before.user_id is not None else []
        record.seats[seat] = SeatRecord(user_id=user_id, name=name, since=record.version)
        play.events.append(Event(text=f"{name} takes over {before.name}'s seat, with its hand and history."))
        leaver = before.user_id if before.user_id is not None else before.away
        if leaver is not None:
            play.notices.setdefault(leaver, []).append(
                f"{name} has taken over your seat at table {record.id}, with its hand and history; "
                "you no longer play there."
            )
        service._advance(play)

    outcome = await service._change(table_id, take, kind="substitute", seat_of=user_id)
    for gone in left:
        await service._forget(table_id, gone)  # after the save: a failure here must not undo the answer
    return outcome
