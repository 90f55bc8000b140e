"""A prompt with its own time limit (a timed question) brings the table's
deadline forward, even at a table whose pace allows a day a move."""

from __future__ import annotations

from bot.service.tables import Player, TableService
from engines.once_upon_a_time_life import ENGINE
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")
DAY = 86_400.0


async def _to_a_question(service: TableService, table_id: str) -> None:
    """Play plain moves (roll, an Easy question, the first offer) until a question is open."""
    for _ in range(200):
        record = await service.get(table_id)
        state = service.state(record)
        if state.stage == "answer":  # type: ignore[attr-defined]
            return
        seat = service.awaited(record)[0]
        user = record.seats[seat].user_id
        assert user is not None
        keys = [c.key for c in ENGINE.legal_actions(state, seat)]  # type: ignore[arg-type]
        key = next((k for k in ("question:easy", "roll") if k in keys), keys[-1])
        await service.act(table_id, user, key)
    raise AssertionError("no question came up")


async def test_a_timed_question_runs_out_on_its_own_short_limit(store: TableStore) -> None:
    clock = Clock(1000.0)
    service = TableService(store, clock=clock, turn_timeout=DAY)
    table = await service.create(
        "once-upon-a-time-life", ANN, channel_id=5, options={"answer_seconds": 30}, seed=11
    )
    await service.join(table.id, BOB)
    started = await service.start(table.id, ANN.user_id)
    # An ordinary move has the table's pace.
    assert list(started.table.clocks.due.values()) == [clock.now + DAY]
    assert started.table.deadline == clock.now + DAY / 2, "the table wakes first for the half-time reminder"
    await _to_a_question(service, table.id)
    record = await service.get(table.id)
    assert record.deadline == clock.now + 30
    clock.now += 29
    assert await service.expire() == []
    clock.now += 2
    [outcome] = await service.expire()
    said = [service.text(outcome.table, e.text) for e in outcome.events]
    assert any("ran out of time" in t for t in said) and any("gives no answer" in t for t in said)
    assert outcome.table.status is TableStatus.PLAYING
    state = service.state(outcome.table)
    assert state.stage != "answer" or outcome.table.deadline == clock.now + 30  # type: ignore[attr-defined]
