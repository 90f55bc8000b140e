"""TableService on a real Redis, with the test-only High Card game."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.errors import NotHost, NotSeated, StaleClick, TableError, TableFull, WrongStatus
from bot.service.tables import RETRY_TIMEOUT_AFTER, Player, TableService
from storage import keys
from storage.records import TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD, HighCardState

ANN, BOB, CID = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid")


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def service(store: TableStore, clock: Clock) -> TableService:
    return TableService(store, clock=clock, turn_timeout=60, games={"high-card": HIGH_CARD})


async def seated(service: TableService, *players: Player, start: bool = True) -> str:
    table = await service.create("high-card", players[0], channel_id=100, guild_id=10, seed=3)
    for player in players[1:]:
        await service.join(table.id, player)
    if start:
        await service.start(table.id, players[0].user_id)
    return table.id


def turn_seat(service: TableService, table) -> int:  # type: ignore[no-untyped-def]
    return service.awaited(table)[0]


async def test_lobby_join_start_and_a_legal_play(service: TableService) -> None:
    table_id = await seated(service, ANN, BOB, CID)
    table = await service.get(table_id)
    assert table.status is TableStatus.PLAYING and [s.name for s in table.seats] == ["Ann", "Bob", "Cid"]
    assert service.awaited(table) == [0]
    hand = service.view(table, ANN.user_id).hand  # type: ignore[attr-defined]
    outcome = await service.act(table_id, ANN.user_id, f"play:{hand[0]}", version=table.version)
    assert outcome.table.version == table.version + 1
    assert service.text(outcome.table, outcome.public_events[0].text) == f"Ann plays {hand[0]}."
    assert service.awaited(outcome.table) == [1, 2]  # the cheer window is open to both others


async def test_bad_requests_are_refused_and_change_nothing(service: TableService) -> None:
    table = await service.create("high-card", ANN, channel_id=100)
    with pytest.raises(NotHost):
        await service.add_bot(table.id, BOB.user_id)
    await service.join(table.id, BOB)
    with pytest.raises(TableError, match="already at this table"):
        await service.join(table.id, BOB)
    with pytest.raises(NotHost):
        await service.start(table.id, BOB.user_id)
    with pytest.raises(TableError, match="not started"):
        service.view(await service.get(table.id), ANN.user_id)
    await service.start(table.id, ANN.user_id)
    before = await service.get(table.id)
    with pytest.raises(TableError, match="not your turn"):
        await service.act(table.id, BOB.user_id, "play:1")
    with pytest.raises(NotSeated):
        await service.act(table.id, CID.user_id, "play:1")
    with pytest.raises(TableError, match="not possible"):
        await service.act(table.id, ANN.user_id, "play:99")
    with pytest.raises(WrongStatus):
        await service.join(table.id, CID)
    after = await service.get(table.id)
    assert after.version == before.version and after.state == before.state


async def test_unknown_option_and_wrong_player_count_are_refused(service: TableService) -> None:
    with pytest.raises(TableError, match="rounds"):
        await service.create("high-card", ANN, options={"rounds": 9})
    with pytest.raises(TableError, match="Unknown variant"):
        await service.create("high-card", ANN, options={"preset": "nope"})
    table = await service.create("high-card", ANN, options={"preset": "quick"})
    assert table.options == {"rounds": 1}
    with pytest.raises(TableError, match="needs 2–6 players"):
        await service.start(table.id, ANN.user_id)


async def test_table_fills_up(service: TableService) -> None:
    table = await service.create("high-card", ANN)
    for _ in range(5):
        await service.add_bot(table.id, ANN.user_id)
    with pytest.raises(TableFull):
        await service.join(table.id, BOB)


async def test_stale_and_double_clicks_are_recognised(service: TableService) -> None:
    table_id = await seated(service, ANN, BOB, CID)
    table = await service.get(table_id)
    card = service.view(table, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    await service.act(table_id, ANN.user_id, f"play:{card}", version=table.version)
    with pytest.raises(StaleClick) as stale:  # the same old button, clicked again
        await service.act(table_id, ANN.user_id, f"play:{card}", version=table.version)
    assert stale.value.table.version == table.version + 1
    window = await service.get(table_id)
    await service.act(table_id, BOB.user_id, "pass", version=window.version)
    # Cid's window buttons were drawn before Bob answered: still valid, since Cid has not acted.
    outcome = await service.act(table_id, CID.user_id, "cheer", version=window.version)
    assert "Cid cheers." in [service.text(outcome.table, e.text) for e in outcome.events]
    with pytest.raises(StaleClick):
        await service.act(table_id, CID.user_id, "cheer", version=window.version)


async def test_simultaneous_answers_to_a_window_are_each_applied_once(service: TableService) -> None:
    players = [Player(i, f"P{i}") for i in range(1, 7)]
    table_id = await seated(service, *players)
    table = await service.get(table_id)
    card = service.view(table, 1).hand[0]  # type: ignore[attr-defined]
    opened = (await service.act(table_id, 1, f"play:{card}")).table
    answers = (service.act(table_id, p.user_id, "cheer", version=opened.version) for p in players[1:])
    await asyncio.gather(*answers)
    final = await service.get(table_id)
    assert service.view(final, None).cheers == [0, 1, 1, 1, 1, 1]  # type: ignore[attr-defined]
    assert final.version == opened.version + 5
    assert [e.kind for e in await service.store.log(table_id)].count("act") == 6


async def test_bots_play_their_seats_and_a_game_finishes(service: TableService) -> None:
    table = await service.create("high-card", ANN, seed=11)
    await service.add_bot(table.id, ANN.user_id)
    await service.add_bot(table.id, ANN.user_id)
    current = (await service.start(table.id, ANN.user_id)).table
    while current.status is TableStatus.PLAYING:
        choices = service.choices(current, ANN.user_id)
        assert service.awaited(current) == [0], "only the human is ever waited for"
        current = (await service.act(table.id, ANN.user_id, choices[-1].key, version=current.version)).table
    assert current.status is TableStatus.FINISHED and current.deadline is None
    assert service.result(current) is not None
    assert await service.store.in_channel(100) == []


async def test_timeouts_play_the_default_for_late_seats_only(service: TableService, clock: Clock) -> None:
    table_id = await seated(service, ANN, BOB, CID)
    table = await service.get(table_id)
    assert table.deadline == clock.now + 60
    assert await service.expire(clock.now + 59) == []
    card = service.view(table, ANN.user_id).hand[0]  # type: ignore[attr-defined]
    clock.now += 30
    await service.act(table_id, ANN.user_id, f"play:{card}")
    await service.act(table_id, BOB.user_id, "cheer")
    clock.now += 61
    [outcome] = await service.expire()
    texts = [service.text(outcome.table, e.text) for e in outcome.events]
    assert "Cid ran out of time; the table played for them." in texts
    assert not any(t.startswith("Bob ran out") for t in texts)
    assert service.awaited(outcome.table) == [1]


async def test_leaving_mid_game_hands_the_seat_to_a_bot(service: TableService) -> None:
    table_id = await seated(service, ANN, BOB)
    outcome = await service.leave(table_id, BOB.user_id)
    assert outcome.table.seats[1].bot and outcome.table.seats[1].name == "Bob (bot)"
    assert await service.store.of_user(BOB.user_id) == []


async def test_host_leaving_the_lobby_passes_the_host(service: TableService) -> None:
    table_id = await seated(service, ANN, BOB, start=False)
    outcome = await service.leave(table_id, ANN.user_id)
    assert outcome.table.host_id == BOB.user_id
    assert (await service.leave(table_id, BOB.user_id)).table.status is TableStatus.ABANDONED


async def test_abandon_needs_the_host_or_a_moderator(service: TableService) -> None:
    table_id = await seated(service, ANN, BOB)
    with pytest.raises(NotHost):
        await service.abandon(table_id, BOB.user_id)
    outcome = await service.abandon(table_id, CID.user_id, moderator=True)
    assert outcome.table.status is TableStatus.ABANDONED
    with pytest.raises(WrongStatus):
        await service.act(table_id, ANN.user_id, "pass")


async def test_find_picks_the_implied_table(service: TableService) -> None:
    first = await seated(service, ANN, BOB, start=False)
    assert (await service.find(ANN.user_id, 100)).id == first
    second = await service.create("high-card", ANN, channel_id=200)
    assert (await service.find(ANN.user_id, 200)).id == second.id
    with pytest.raises(TableError, match="several tables"):
        await service.find(ANN.user_id, 300)
    await service.attach(first, thread_id=999)
    assert (await service.find(ANN.user_id, 999)).id == first


async def test_one_broken_table_does_not_stop_other_timeouts(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = await seated(service, ANN, BOB, CID)  # three seats: this game's default move is broken below
    healthy = await seated(service, Player(4, "Dee"), Player(5, "Eve"))
    original = HIGH_CARD.default_action

    def default_action(state: HighCardState, seat: int) -> object:
        if state.players == 3:
            raise RuntimeError("a bug in one game")
        return original(state, seat)

    monkeypatch.setattr(HIGH_CARD, "default_action", default_action)
    clock.now += 61
    outcomes = await service.expire()
    assert [o.table.id for o in outcomes] == [healthy]
    # Tried again later, not at the head of the deadlines where it would hide the others.
    assert await service.store.redis.zscore(keys.deadlines(broken), broken) == clock.now + RETRY_TIMEOUT_AFTER


async def test_find_lobby_picks_the_one_open_table_here(service: TableService) -> None:
    with pytest.raises(TableError, match="no open table here to join"):
        await service.find_lobby(100)
    started = await seated(service, ANN, BOB)  # in play: not a lobby any more
    lobby = await service.create("high-card", CID, channel_id=100)
    assert (await service.find_lobby(100)).id == lobby.id
    await service.create("high-card", Player(4, "Dee"), channel_id=100)
    with pytest.raises(TableError, match="Several tables are open here"):
        await service.find_lobby(100)
    assert (await service.find_lobby(100, started)).id == started


async def test_a_move_takes_the_kept_state_yet_a_failed_move_leaves_no_trace(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A person's move at a table without bots takes the kept state rather than
    # reading the text again: what it changes must never show unless saved.
    table_id = await seated(service, ANN, BOB)
    table = await service.get(table_id)
    before = service.view(table, ANN.user_id)  # keeps the state of this version
    card = before.hand[0]  # type: ignore[attr-defined]
    real = HIGH_CARD.resolve

    def half_then_fail(state: HighCardState, seat: int, action: object) -> object:
        real(state, seat, action)  # type: ignore[arg-type]
        raise RuntimeError("failed half-way")

    monkeypatch.setattr(HIGH_CARD, "resolve", half_then_fail)
    with pytest.raises(RuntimeError):
        await service.act(table_id, ANN.user_id, f"play:{card}")
    monkeypatch.undo()
    assert service.view(table, ANN.user_id) == before
    assert service.view(await service.get(table_id), ANN.user_id) == before

    moved = await service.act(table_id, ANN.user_id, f"play:{card}")
    assert card not in service.view(moved.table, ANN.user_id).hand  # type: ignore[attr-defined]
    assert service.view(table, ANN.user_id) == before, "the version before the move reads as it was"
