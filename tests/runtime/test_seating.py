"""Lobby buttons judged by the stage and version they were drawn at, hosting
passed on, seats removed by the host, and /play as safe as a button — on a real Redis."""

from __future__ import annotations

import asyncio

import pytest

from bot.app.cogs.play import move_named
from bot.app.ui.components import VERBS
from bot.app.ui.items import DYNAMIC_ITEMS
from bot.service.errors import NotHost, NotSeated, StaleClick, TableError, WrongStatus
from bot.service.seating import check_drawn, drawn_for, in_lobby, next_host, seat_named
from bot.service.tables import Player, TableService
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD
from tests.support.tally import TALLY

ANN, BOB, CID, DEE = Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cid"), Player(4, "Dee")
PAIRS = 200


@pytest.fixture
def service(store: TableStore) -> TableService:
    games = {"high-card": HIGH_CARD, "tally": TALLY}
    return TableService(store, clock=Clock(1000.0), turn_timeout=60, games=games)


async def lobby(service: TableService, *players: Player, game: str = "high-card") -> str:
    table = await service.create(game, players[0], channel_id=100, seed=3)
    for player in players[1:]:
        await service.join(table.id, player)
    return table.id


async def test_a_lobby_leave_button_clicked_after_the_start_does_not_resign(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB)
    drawn = in_lobby((await service.get(table_id)).version)
    started = (await service.start(table_id, ANN.user_id)).table
    with pytest.raises(WrongStatus, match="from the lobby; the game has started — use /table leave"):
        await service.leave(table_id, BOB.user_id, drawn)
    after = await service.get(table_id)
    assert after.version == started.version and after.seats[1].user_id == BOB.user_id
    resigned = await service.leave(table_id, BOB.user_id)  # the command carries no drawing: it resigns
    assert resigned.table.seats[1].bot


async def test_every_lobby_button_refuses_once_the_game_runs_or_ends(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB)
    drawn = in_lobby((await service.get(table_id)).version)
    await service.start(table_id, ANN.user_id, drawn)
    started = await service.get(table_id)
    for change in (
        service.join(table_id, CID, drawn),
        service.add_bot(table_id, ANN.user_id, drawn),
        service.start(table_id, ANN.user_id, drawn),
        service.remove_seat(table_id, ANN.user_id, 1, drawn),
    ):
        with pytest.raises(WrongStatus, match="button is from the lobby; the game has already started"):
            await change
    await service.abandon(table_id, ANN.user_id)
    with pytest.raises(WrongStatus, match="This table is over"):
        await service.leave(table_id, BOB.user_id, drawn)
    assert (await service.get(table_id)).version == started.version + 1


async def test_a_button_knows_its_stage_from_its_verb(service: TableService) -> None:
    record = await service.get(await lobby(service, ANN, BOB))
    check_drawn(record, drawn_for("join", 0), "join")
    with pytest.raises(WrongStatus, match="another stage"):
        check_drawn(record, drawn_for("act", 0), "act")
    record.status = TableStatus.FINISHED
    for verb in ("hand", "leave"):
        with pytest.raises(WrongStatus, match="This table is over"):
            check_drawn(record, drawn_for(verb, 0), verb)
    check_drawn(record, None, "leave")  # a command has no drawing: the change itself decides


async def test_older_lobby_buttons_still_join_and_leave(service: TableService) -> None:
    table_id = await lobby(service, ANN)
    old = in_lobby(0)
    await service.join(table_id, BOB, old)
    await service.join(table_id, CID, old)  # the message moved on meanwhile: joining is still right
    with pytest.raises(TableError, match="already at this table"):
        await service.join(table_id, CID, old)
    await service.leave(table_id, BOB.user_id, old)
    with pytest.raises(NotSeated):
        await service.leave(table_id, BOB.user_id, old)
    assert [s.name for s in (await service.get(table_id)).seats] == ["Ann", "Cid"]


async def test_a_double_click_on_add_bot_seats_one_bot(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB)
    drawn = in_lobby((await service.get(table_id)).version)
    clicks = await asyncio.gather(
        service.add_bot(table_id, ANN.user_id, drawn),
        service.add_bot(table_id, ANN.user_id, drawn),
        return_exceptions=True,
    )
    refused = [c for c in clicks if isinstance(c, TableError)]
    assert len(refused) == 1 and "A bot already took a seat from that button" in refused[0].message
    record = await service.get(table_id)
    assert [s.bot for s in record.seats] == [False, False, True]
    await service.add_bot(table_id, ANN.user_id, in_lobby(record.version))  # the redrawn button
    await service.add_bot(table_id, ANN.user_id)  # the command: one bot each time
    assert sum(s.bot for s in (await service.get(table_id)).seats) == 3


async def test_a_host_leaving_a_running_game_passes_hosting_on(service: TableService) -> None:
    table_id = await lobby(service, ANN)
    await service.add_bot(table_id, ANN.user_id)
    await service.join(table_id, BOB)
    await service.join(table_id, CID)
    await service.start(table_id, ANN.user_id)
    left = await service.leave(table_id, ANN.user_id)
    assert left.table.host_id == BOB.user_id  # the next person after the host's seat; the bot is skipped
    texts = [service.text(left.table, e.text) for e in left.public_events]
    assert texts[:2] == ["Ann leaves; a bot plays their seat from now on.", "Bob is now the host."]
    with pytest.raises(NotHost):
        await service.abandon(table_id, ANN.user_id)
    assert (await service.abandon(table_id, BOB.user_id)).table.status is TableStatus.ABANDONED


async def test_a_host_leaving_the_lobby_passes_to_the_next_seat_round(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB, CID, DEE)
    await service.leave(table_id, ANN.user_id)  # Bob hosts
    await service.leave(table_id, CID.user_id)
    outcome = await service.leave(table_id, BOB.user_id)  # Bob was at the first seat: Dee is next
    assert outcome.table.host_id == DEE.user_id
    assert [e.text for e in outcome.public_events] == ["Bob leaves the table.", "Dee is now the host."]
    assert (await service.leave(table_id, DEE.user_id)).table.status is TableStatus.ABANDONED


def test_next_host_goes_round_the_table_and_skips_bots() -> None:
    seats = [SeatRecord(user_id=u, name=n) for u, n in ((1, "A"), (None, "B"), (3, "C"))]
    record = TableRecord(
        id="t", game="g", host_id=3, seats=seats, created_at=0, updated_at=0, seed=0, turn_timeout=1
    )
    assert next_host(record, 2) == 1 and next_host(record, 0) == 3
    record.seats[2] = SeatRecord(user_id=None, name="C (bot)")
    assert next_host(record, 0) is None  # only moderators remain


async def test_the_host_removes_a_bot_and_a_player_before_the_start(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB)
    await service.add_bot(table_id, ANN.user_id)
    record = await service.get(table_id)
    with pytest.raises(NotHost, match="Only the table's host can remove a seat"):
        await service.remove_seat(table_id, BOB.user_id, 2, in_lobby(record.version))
    with pytest.raises(TableError, match="cannot remove yourself — use Leave"):
        await service.remove_seat(table_id, ANN.user_id, 0, in_lobby(record.version))
    with pytest.raises(TableError, match="no seat 4"):
        await service.remove_seat(table_id, ANN.user_id, 3, in_lobby(record.version))
    bot_gone = await service.remove_seat(table_id, ANN.user_id, 2, in_lobby(record.version))
    assert [e.text for e in bot_gone.public_events] == ["Bot 1 was removed from the table by the host."]
    with pytest.raises(StaleClick):  # the same list again: positions may have moved, nothing is removed
        await service.remove_seat(table_id, ANN.user_id, 1, in_lobby(record.version))
    assert (await service.get(table_id)).version == bot_gone.table.version
    assert BOB.user_id in [r.user_id for r in (await service.get(table_id)).seats]
    player_gone = await service.remove_seat(table_id, ANN.user_id, 1)  # the command, by seat number
    assert [s.name for s in player_gone.table.seats] == ["Ann"]
    await service.add_bot(table_id, ANN.user_id)
    await service.add_bot(table_id, ANN.user_id)
    await service.remove_seat(table_id, ANN.user_id, 1)
    renamed = await service.add_bot(table_id, ANN.user_id)  # names stay distinct after a removal
    assert [s.name for s in renamed.table.seats] == ["Ann", "Bot 2", "Bot 1"]
    await service.remove_seat(table_id, ANN.user_id, 2)
    await service.remove_seat(table_id, ANN.user_id, 1)
    assert await service.store.of_user(BOB.user_id) == []
    await service.join(table_id, BOB)
    await service.start(table_id, ANN.user_id)
    with pytest.raises(WrongStatus, match="before the game starts"):
        await service.remove_seat(table_id, ANN.user_id, 1)


async def test_a_kick_names_a_seat_by_listing_number_or_name(service: TableService) -> None:
    record = await service.get(await lobby(service, ANN, BOB))
    assert seat_named(record, "2@7") == (1, 7)
    assert seat_named(record, " 2 ") == (1, None)
    assert seat_named(record, "bob") == (1, None)
    with pytest.raises(TableError, match="No seat here is called 'Zed'"):
        seat_named(record, "Zed")
    with pytest.raises(TableError) as long_name:
        seat_named(record, "x" * 2500)
    assert len(long_name.value.message) < 120


async def _command(
    service: TableService, user: Player, typed: str, together: asyncio.Barrier | None = None
) -> bool:
    """What /play does: find the table, name the move, act. True if it counted.
    ``together``: the commands all read the table before any acts (sent at once)."""
    record = await service.find(user.user_id, 100)
    key, version = move_named(service, record, user.user_id, typed)
    if together is not None:
        await together.wait()
    try:
        await service.act(record.id, user.user_id, key, version)
    except StaleClick:
        return False
    return True


async def test_the_same_play_command_sent_twice_at_once_counts_once(service: TableService) -> None:
    table_id = await lobby(service, ANN, BOB, game="tally")
    await service.start(table_id, ANN.user_id)
    for pair in range(PAIRS):
        record = await service.get(table_id)
        typed = "tap" if pair % 2 else f"tap@{record.version}"  # typed, and picked from autocomplete
        # Both read the table before either acts, as two commands sent at once
        # do (otherwise the second may simply come after the first was saved).
        together = asyncio.Barrier(2)
        counted = await asyncio.gather(
            _command(service, ANN, typed, together), _command(service, ANN, typed, together)
        )
        assert sorted(counted) == [False, True], f"pair {pair} ({typed}): {counted}"
    record = await service.get(table_id)
    assert service.view(record, None).taps == [PAIRS, 0]  # type: ignore[attr-defined]
    assert await _command(service, ANN, "Tap")  # a second tap sent after the first still counts
    assert await _command(service, ANN, "tap")


def test_every_component_carries_the_stage_and_version_it_was_drawn_at() -> None:
    """A new button or select cannot forget its drawing: each template holds the
    version, and each table-message verb names the stage it is drawn at."""
    for item in DYNAMIC_ITEMS:
        assert "(?P<ver>" in item.__discord_ui_compiled_template__.pattern, item.__name__
    assert {drawn_for(verb, 7).stage for verb in VERBS} == {TableStatus.LOBBY, TableStatus.PLAYING}
