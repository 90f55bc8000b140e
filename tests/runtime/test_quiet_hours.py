"""Quiet hours in the player's own time zone, with fixed clocks: a reminder due in
them comes just before they begin, or — when the clock itself started in them —
keeps its time (and is told without a sound); daylight saving time moves the
window with the wall clock."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.service import clocks
from bot.service.clocks import DAY, QUIET_MARGIN
from storage.records import SeatRecord, TableRecord
from storage.user_settings import UserSettings

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
ANN = 11


def at(zone: ZoneInfo, *when: int) -> float:
    return datetime(*when, tzinfo=zone).timestamp()  # type: ignore[misc]


def clock_from(start: float, length: float, settings: UserSettings) -> TableRecord:
    """A table waiting for ann's move since ``start``, with ``length`` to make it."""
    record = TableRecord(
        id="t",
        game="g",
        host_id=ANN,
        created_at=start,
        updated_at=start,
        seed=1,
        turn_timeout=length,
        seats=[SeatRecord(user_id=ANN, name="ann"), SeatRecord(user_id=12, name="bob")],
    )
    record.clocks.prefs[ANN] = settings.model_dump()
    clocks.settle(record, {0: length}, start)
    return record


def reminders(record: TableRecord) -> list[float | None]:
    """Each reminder's time, as the sweeper would send them one after the other."""
    times = []
    for sent in range(len(clocks.REMINDERS)):
        record.clocks.reminded[0] = sent
        times.append(clocks.reminder_at(record, 0))
    record.clocks.reminded[0] = 0
    return times


NIGHTS = UserSettings(zone="Europe/Paris", quiet_from=22, quiet_to=7)


def test_a_reminder_due_in_quiet_hours_comes_just_before_they_begin() -> None:
    start = at(PARIS, 2026, 6, 1, 12, 0)
    record = clock_from(start, DAY, NIGHTS)
    half, tenth = reminders(record)
    assert half == at(PARIS, 2026, 6, 1, 22, 0) - QUIET_MARGIN, "due at midnight: brought forward"
    assert tenth == start + 0.9 * DAY, "09:36 the next morning is not quiet: on time"
    assert record.deadline == half


def test_a_clock_started_in_quiet_hours_keeps_its_reminders_time() -> None:
    start = at(PARIS, 2026, 6, 1, 23, 0)
    record = clock_from(start, 2 * 3600.0, NIGHTS)
    # No moment between the start and the reminder is outside the quiet hours: the reminder
    # keeps its time, never later (after 07:00 the move would long be over).
    assert reminders(record) == [start + 3600.0, start + 1.8 * 3600.0]
    assert all(NIGHTS.quiet_start(t) is not None for t in reminders(record) if t is not None)


def test_a_clock_started_a_moment_before_quiet_hours_is_not_reminded_at_once() -> None:
    start = at(PARIS, 2026, 6, 1, 21, 59, 30)
    half, _ = reminders(clock_from(start, 4 * 3600.0, NIGHTS))
    assert half == start + 2 * 3600.0, "not at the clock's start, along with the turn's own ping"


def test_quiet_hours_follow_the_wall_clock_when_summer_time_begins() -> None:
    # Paris goes from 02:00 to 03:00 on 29 March 2026: the night 22:00-07:00 lasts 8 hours.
    began = at(PARIS, 2026, 3, 28, 22, 0)
    assert NIGHTS.quiet_start(at(PARIS, 2026, 3, 29, 6, 30)) == began
    assert NIGHTS.quiet_start(at(PARIS, 2026, 3, 29, 7, 0)) is None
    assert at(PARIS, 2026, 3, 29, 7, 0) - began == 8 * 3600
    # A day's clock from 15:00 on the 28th: its tenth (13:36 CEST on the 29th) is awake, its
    # half (02:00 UTC = 04:00 CEST, in the night) comes before 22:00 CET.
    start = at(PARIS, 2026, 3, 28, 15, 0)
    half, tenth = reminders(clock_from(start, DAY, NIGHTS))
    assert half == began - QUIET_MARGIN
    assert tenth == start + 0.9 * DAY


def test_quiet_hours_follow_the_wall_clock_when_summer_time_ends() -> None:
    # New York goes from 02:00 back to 01:00 on 1 November 2026: 00:00-02:00 lasts 3 hours.
    small_hours = UserSettings(zone="America/New_York", quiet_from=0, quiet_to=2)
    began = at(NEW_YORK, 2026, 11, 1, 0, 0)
    second_half_past_one = began + 2.5 * 3600  # 01:30 EST, the second time round
    assert small_hours.quiet_start(second_half_past_one) == began
    assert small_hours.quiet_start(began + 3 * 3600) is None, "02:00 EST: awake"
    start = began - 5 * 3600.0  # 19:00 EDT
    half, _ = reminders(clock_from(start, 2 * (second_half_past_one - start), small_hours))
    assert half == began - QUIET_MARGIN


def test_no_quiet_hours_no_move_and_no_reminder_for_a_player_who_wants_nothing() -> None:
    start = at(PARIS, 2026, 6, 1, 12, 0)
    assert reminders(clock_from(start, DAY, UserSettings())) == [start + 0.5 * DAY, start + 0.9 * DAY]
    record = clock_from(start, DAY, NIGHTS.model_copy(update={"notify": "nothing"}))
    record.clocks.reminded[0] = 0
    assert not clocks.remind(record, start + 0.95 * DAY), "counted, never told"
    assert record.clocks.reminded[0] == 2
