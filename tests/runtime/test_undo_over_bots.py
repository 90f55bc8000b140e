"""Undo never takes a move back over a bot's: the sweeper's change (a reminder)
keeps a window open only while nothing moves in it. Two people and a bot at a
game where the bot may raise a toast at any time (an optional play): a person
moves, the sweeper reminds the next player and the bot toasts in that change,
and the move can no longer be taken back. Every such game's log replays."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import changes
from bot.service.errors import TableError
from bot.service.replay import replay
from bot.service.tablelog import log_files
from bot.service.tables import Player, TableService
from bot.service.undo_requests import ask_undo, vote_undo
from engines.core import Choice, Event, Prompt, Seat, seat_ref
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import Cheer, HighCard, HighCardState, Play

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")
HOUR = 3600.0


class ToastCard(HighCard):
    """High Card without response windows, where every seat not on turn may
    raise a toast at any time (a ``Cheer``): an optional play a bot may make."""

    def prompts(self, state: HighCardState) -> list[Prompt]:
        if self._over(state):
            return []
        seats = [s for s in range(state.players) if s != state.turn]
        toasts = [Prompt(seat=s, kind="anytime", text="Toast") for s in seats]
        return [Prompt(seat=state.turn, text="Play a card"), *toasts]

    def legal_actions(self, state: HighCardState, seat: Seat) -> list[Choice]:
        if self._over(state):
            return []
        if seat != state.turn:
            return [Choice(key="cheer", label="Toast", steps=["Toast"], action=Cheer())]
        return super().legal_actions(state, seat)

    def resolve(self, state: HighCardState, seat: Seat, action: Any) -> list[Event]:
        if isinstance(action, Play):
            events = super().resolve(state, seat, action)
            state.window = []
            return events
        state.cheers[seat] += 1
        return [Event(text=f"{seat_ref(seat)} raises a toast.")]


TOAST = ToastCard()
GAMES = {"toast-card": TOAST}


@pytest.fixture
def toasting(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the bot toasts when it next weighs its optional play (it does not at first)."""
    allowed = [False]
    toast = Choice(key="cheer", label="Toast", steps=["Toast"], action=Cheer())
    monkeypatch.setattr(changes, "bot_optional", lambda *args: toast if allowed[0] else None)
    return allowed


async def two_people_and_a_bot(store: TableStore, clock: Clock) -> tuple[TableService, str]:
    service = TableService(store, clock=clock, turn_timeout=2 * HOUR, games=GAMES, sleep=lambda _: None)
    table = await service.create("toast-card", ANN, seed=3)
    await service.join(table.id, BOB)
    await service.add_bot(table.id, ANN.user_id)
    await service.start(table.id, ANN.user_id)
    return service, table.id


async def ann_moves(service: TableService, table_id: str) -> None:
    record = await service.get(table_id)
    moved = (await service.act(table_id, ANN.user_id, service.choices(record, ANN.user_id)[0].key)).table
    assert moved.undo is not None and moved.undo.seat == 0, "the move may be taken back"


async def play_on_and_replay(service: TableService, table_id: str) -> None:
    record = await service.get(table_id)
    while record.status is TableStatus.PLAYING:
        user = record.seats[service.awaited(record)[0]].user_id
        assert user is not None
        record = (await service.act(table_id, user, service.choices(record, user)[0].key)).table
    entries = await service.store.log(table_id)
    assert any(e.kind == "bot" for e in entries)
    assert replay(log_files(record, TOAST, entries).jsonl, GAMES).moves > 0


async def test_a_reminder_in_which_the_bot_moved_closes_the_window(
    store: TableStore, toasting: list[bool]
) -> None:
    clock = Clock(1000.0)
    service, table_id = await two_people_and_a_bot(store, clock)
    await ann_moves(service, table_id)
    toasting[0] = True
    clock.now += HOUR + 1  # Bob's reminder is due: the sweeper wakes the table
    [swept] = await service.expire()
    assert any("raises a toast" in e.text for e in swept.events), "the bot moved in the sweeper's change"
    assert swept.table.undo is None
    with pytest.raises(TableError, match="cannot be taken back"):
        await ask_undo(service, table_id, ANN.user_id)
    await play_on_and_replay(service, table_id)


async def test_a_request_already_asked_is_refused_when_the_bot_moves(
    store: TableStore, toasting: list[bool]
) -> None:
    clock = Clock(1000.0)
    service, table_id = await two_people_and_a_bot(store, clock)
    await ann_moves(service, table_id)
    clock.now += HOUR - 600
    asked = (await ask_undo(service, table_id, ANN.user_id)).table
    assert asked.undo is not None and asked.undo.asked_at is not None
    toasting[0] = True
    clock.now += 601  # the reminder, before the request lapses
    [swept] = await service.expire()
    assert swept.table.undo is None
    assert "refused: the game has moved on" in " ".join(e.text for e in swept.events)
    with pytest.raises(TableError, match="no longer open"):
        await vote_undo(service, table_id, BOB.user_id, asked.undo.asked_at, True)
    await play_on_and_replay(service, table_id)


async def test_a_reminder_in_which_nothing_moved_keeps_the_window_and_the_undo_replays(
    store: TableStore, toasting: list[bool]
) -> None:
    clock = Clock(1000.0)
    service, table_id = await two_people_and_a_bot(store, clock)
    await ann_moves(service, table_id)
    clock.now += HOUR + 1
    [swept] = await service.expire()  # the bot weighs its toast, and keeps it
    assert swept.table.undo is not None
    asked = (await ask_undo(service, table_id, ANN.user_id)).table
    assert asked.undo is not None and asked.undo.asked_at is not None
    done = (await vote_undo(service, table_id, BOB.user_id, asked.undo.asked_at, True)).table
    assert [e.kind for e in await service.store.log(table_id)].count("undo") == 1
    assert done.undo is None
    toasting[0] = True
    await play_on_and_replay(service, table_id)
