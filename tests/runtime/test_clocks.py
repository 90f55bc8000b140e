"""Seat clocks against one Redis shared by two bot processes: each reminder and
each timeout happens once, whichever sweeper gets there; the time bank."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.clocks import DAY
from bot.service.tables import TableService
from storage.connect import connect
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.service import ANN, BOB, high_card_service
from tests.support.service import high_card_table as started


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


def daily(store: TableStore, clock: Clock) -> TableService:
    """High Card at a day a move: long enough for reminders (shorter clocks get none)."""
    return TableService(store, clock=clock, turn_timeout=DAY, games={"high-card": HIGH_CARD})


async def told(service: TableService, table_id: str, word: str) -> int:
    """How many announcements waiting in the outbox carry ``word``, publicly or privately."""
    count = 0
    for news in await service.store.outbox.pending(table_id):
        told = [*news.private.values(), *news.reminders.values()]
        lines = news.public + [line for lines in told for line in lines]
        count += sum(word in line for line in lines)
    return count


async def test_two_sweepers_on_one_redis_double_no_reminder_and_no_timeout(
    store: TableStore, redis_url: str, clock: Clock
) -> None:
    other = connect(redis_url)  # a plain URL or the test cluster's
    try:
        first = daily(store, clock)
        second = daily(TableStore(other), clock)
        tables = [await started(first, ANN, BOB, channel=100 + i) for i in range(5)]
        for step in (0.52, 0.42, 0.08, 0.52):  # half time, a tenth left, the timeout, the next half time
            clock.now += step * DAY
            await asyncio.gather(first.expire(), second.expire(), first.expire())
        for table_id in tables:
            assert await told(first, table_id, "⏰") == 3, "two reminders for ann, one for the next clock"
            assert await told(first, table_id, "ran out of time") == 1
            log = await first.store.log(table_id)
            assert len([e for e in log if e.kind == "timeout" and e.seat is not None]) == 1
    finally:
        await other.aclose()


async def test_the_time_bank_pays_for_a_long_move_and_the_increment_refills_it(
    store: TableStore, clock: Clock
) -> None:
    service = high_card_service(store, clock)
    record = await service.create("high-card", ANN, channel_id=100, seed=3, bank=100.0, increment=10.0)
    await service.join(record.id, BOB)
    table = (await service.start(record.id, ANN.user_id)).table
    assert table.clocks.due[0] == clock.now + 60 + 100
    clock.now += 90  # 30 seconds beyond the minute a move: taken from the bank
    card = service.view(table, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    table = (await service.act(record.id, ANN.user_id, f"play:{card}")).table
    assert table.clocks.bank[0] == 100 - 30 + 10
    assert 0 not in table.clocks.due
    assert table.clocks.due[1] == clock.now + 60 + 100, "bob's clock, with bob's whole bank"


def test_quiet_hours_across_midnight_in_the_players_own_zone() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from storage.user_settings import UserSettings

    paris = UserSettings(zone="Europe/Paris", quiet_from=22, quiet_to=7)
    late = datetime(2026, 6, 1, 23, 30, tzinfo=ZoneInfo("Europe/Paris")).timestamp()
    early = datetime(2026, 6, 2, 6, 59, tzinfo=ZoneInfo("Europe/Paris")).timestamp()
    awake = datetime(2026, 6, 2, 7, 0, tzinfo=ZoneInfo("Europe/Paris")).timestamp()
    began = datetime(2026, 6, 1, 22, 0, tzinfo=ZoneInfo("Europe/Paris")).timestamp()
    assert paris.quiet_start(late) == began and paris.quiet_start(early) == began
    assert paris.quiet_start(awake) is None
    assert UserSettings().quiet_start(late) is None


async def test_a_player_who_wants_nothing_gets_no_reminder(store: TableStore, clock: Clock) -> None:
    service = daily(store, clock)
    table_id = await started(service, ANN, BOB)
    record = await service.get(table_id)
    record.clocks.prefs[ANN.user_id] = {"notify": "nothing"}
    await store.save(record)
    clock.now += 0.52 * DAY
    outcomes = await service.expire()
    assert not any(e.kind == "reminder" for o in outcomes for e in o.events)
    assert (await service.get(table_id)).clocks.reminded[0] == 1, "counted as sent, so never sent later"


async def test_a_live_clock_gets_no_reminder(store: TableStore, clock: Clock) -> None:
    service = high_card_service(store, clock)  # a minute a move: the players are at the table
    table_id = await started(service, ANN, BOB)
    assert (await service.get(table_id)).deadline == clock.now + 60
    clock.now += 59
    assert await service.expire() == []
