"""Seat clocks: each awaited seat's own time to move, its reminders, its time bank,
and the host's pause — kept in the table record (:class:`storage.records.Clocks`),
so they are saved with the table in one compare-and-set and a restart or a second
bot process neither loses nor doubles a reminder or a timeout.

A seat's clock starts when the game begins to wait for it and stops when it acts
or stops being awaited. Its time is the table's per-move limit plus what is left
of its time bank; time beyond the limit is taken from the bank, and each move
adds the increment back (Board Game Arena's reflexion time).

The table's ``deadline`` (its place in the sweeper's index) is its next wake-up:
the earliest reminder or timeout of any seat, or none while paused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.service.errors import TableError
from engines.core import Event, Seat, seat_ref
from storage.records import Clocks, TableRecord
from storage.user_settings import UserSettings

# Reminders go when this share of a seat's time is left: at half time, then a tenth.
REMINDERS = (0.5, 0.1)
# Shorter clocks (a live table, a timed question) get none: their players are at the table.
REMIND_FROM = 3600.0
# How long before a player's quiet hours a reminder brought forward is sent.
QUIET_MARGIN = 60.0
# Correspondence paces, "N days per move".
DAY = 24 * 3600.0
PACES: dict[str, float] = {
    "live": 300.0,
    "relaxed": 3600.0,
    "async": DAY,
    **{f"{n}d": n * DAY for n in (2, 3, 5, 7, 14)},
}


class Paused(TableError):
    """The host paused the table: no move and no timeout until it resumes."""


def configure(clocks: Clocks, bank: float, increment: float, hand_over_after: int = 0) -> None:
    """A new table's time bank (seconds per seat), increment per move, and how
    many timeouts in a row hand a seat to a bot."""
    clocks.bank_start = max(0.0, bank)
    clocks.increment = max(0.0, increment)
    clocks.hand_over_after = max(0, hand_over_after)


def settle(record: TableRecord, awaited: Mapping[Seat, float], now: float) -> None:
    """After a change: stop the clocks of seats that acted or are no longer
    awaited, start those of seats newly awaited (``awaited``: each seat's time
    for this move), and set the next wake-up."""
    clocks = record.clocks
    waiting = set(awaited)
    # _record marks a seat that moved in this change with the version being written over.
    moved = {seat for seat, version in record.acted_at.items() if version == record.version}
    for seat in list(clocks.due):
        if seat not in waiting or seat in moved:
            _stop(clocks, seat, now, record.turn_timeout)
    for seat in sorted(waiting):
        if seat not in clocks.due:
            clocks.started[seat] = now
            holiday = max(0.0, clocks.vacation.get(seat, now) - now)
            clocks.due[seat] = now + holiday + awaited[seat] + clocks.bank.get(seat, clocks.bank_start)
            clocks.reminded[seat] = 0
    record.deadline = wake_up(record)


def inherit(record: TableRecord, awaited: Iterable[Seat]) -> None:
    """A table saved before seats had clocks (see :mod:`storage.records`): the seats
    it was waiting for take over its one deadline, so none of them moves; a seat
    awaited later starts a clock of its own as usual."""
    old = record.clocks.inherited
    if old is None:
        return
    record.clocks.inherited = None
    for seat in awaited:
        if seat not in record.clocks.due and not record.seats[seat].bot:
            record.clocks.started[seat] = old.started
            record.clocks.due[seat] = old.due
            record.clocks.reminded[seat] = 0


def stop_all(record: TableRecord) -> None:
    """The game is over: no clock runs any more."""
    record.clocks.inherited = None
    record.clocks.started.clear()
    record.clocks.due.clear()
    record.clocks.reminded.clear()
    record.deadline = None


def _stop(clocks: Clocks, seat: Seat, now: float, limit: float) -> None:
    started = clocks.started.pop(seat, now)
    clocks.due.pop(seat, None)
    clocks.reminded.pop(seat, None)
    if clocks.bank_start or clocks.increment:
        over = max(0.0, now - started - limit)
        left = max(0.0, clocks.bank.get(seat, clocks.bank_start) - over)
        clocks.bank[seat] = left + clocks.increment


def reminder_at(record: TableRecord, seat: Seat) -> float | None:
    """When the seat's next reminder is due, or None when all were sent."""
    clocks = record.clocks
    sent = clocks.reminded.get(seat, 0)
    if seat not in clocks.due or sent >= len(REMINDERS):
        return None
    due = clocks.due[seat]
    started = clocks.started.get(seat, due)
    if due - started < REMIND_FROM:
        return None
    at = due - (due - started) * REMINDERS[sent]
    # In the player's quiet hours no DM goes: the reminder comes just before they begin, never
    # after. A clock that started in the same quiet hours has no earlier moment to use: its
    # reminder keeps its time and is told without a sound (see bot.app.announce), since after the
    # quiet hours could be too late.
    quiet = prefs(record, seat).quiet_start(at)
    return at if quiet is None or quiet - QUIET_MARGIN < started else quiet - QUIET_MARGIN


def prefs(record: TableRecord, seat: Seat) -> UserSettings:
    """The settings of the seat's player (kept by user, so seats moving in a lobby keep theirs)."""
    user_id = record.seats[seat].user_id if 0 <= seat < len(record.seats) else None
    kept = record.clocks.prefs.get(user_id) if user_id is not None else None
    # Most players never set any: they share the defaults, read on every move.
    return UserSettings.model_validate(kept) if kept else _DEFAULTS


_DEFAULTS = UserSettings()


def wake_up(record: TableRecord) -> float | None:
    """When the sweeper must next look at the table: its earliest reminder or timeout."""
    clocks = record.clocks
    if clocks.paused_at is not None:
        return None
    times = [t for seat in clocks.due for t in (reminder_at(record, seat), clocks.due[seat]) if t is not None]
    if record.undo is not None and record.undo.until is not None:
        times.append(record.undo.until)  # an unanswered request to take back a move lapses
    return min(times, default=None)


def late(record: TableRecord, seat: Seat, now: float) -> bool:
    """Whether the seat's time has run out (a table saved before seats had clocks
    falls back on its one deadline)."""
    due = record.clocks.due.get(seat, record.deadline)
    return due is not None and due <= now


def remind(record: TableRecord, now: float) -> list[Event]:
    """The reminders due now, each to its seat alone; marks them sent, so a
    deadline is never reminded twice (reminders passed together make one)."""
    clocks = record.clocks
    events = []
    for seat in sorted(clocks.due):
        at = reminder_at(record, seat)
        if at is None or at > now or clocks.due[seat] <= now:
            continue
        while (at := reminder_at(record, seat)) is not None and at <= now:
            clocks.reminded[seat] = clocks.reminded.get(seat, 0) + 1
        if prefs(record, seat).notify == "nothing":
            continue  # the player asked for no reminders
        due, left = int(clocks.due[seat]), REMINDERS[clocks.reminded[seat] - 1]
        share = "half" if left == 0.5 else f"{left:.0%}"
        text = f"⏰ {seat_ref(seat)}, your move: {share} of your time is left; it runs out <t:{due}:R>."
        events.append(Event(text=text, to=[seat], kind="reminder"))
    return events


def pause(record: TableRecord, now: float) -> None:
    if record.clocks.paused_at is not None:
        raise Paused("This table is already paused.")
    record.clocks.paused_at = now
    record.deadline = None


def resume(record: TableRecord, now: float) -> None:
    """Start the clocks again where they stopped: every deadline moves by the pause."""
    clocks = record.clocks
    if clocks.paused_at is None:
        raise Paused("This table is not paused.")
    gap = max(0.0, now - clocks.paused_at)
    clocks.paused_at = None
    for seat in clocks.due:
        clocks.due[seat] += gap
        clocks.started[seat] = clocks.started.get(seat, now) + gap
    record.deadline = wake_up(record)


def check_running(record: TableRecord) -> None:
    if record.clocks.paused_at is not None:
        raise Paused("The host paused this table; moves wait until it resumes.")


def time_left(record: TableRecord, seat: Seat) -> str:
    """The seat's time as the table shows it: a Discord timestamp, so every
    reader sees it in their own time zone."""
    inherited = record.clocks.inherited
    due = record.clocks.due.get(seat, inherited.due if inherited is not None else None)
    if due is None:
        return ""
    if record.clocks.paused_at is not None:
        return " · ⏸️ clock stopped"
    return f" · ⏳ <t:{int(due)}:R>"
