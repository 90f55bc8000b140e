"""Adding bots through Discord: /table addbot takes a difficulty, the lobby's
Add bot button seats a normal bot, the bots play their turns, and a bot makes
an optional play out of its turn when it pays."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re

import pytest

from bot.service import changes
from bot.service.tables import TableService
from engines.ai import LEVELS
from engines.registry import GAMES
from storage.records import TableRecord, TableStatus
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.e2e.test_reading import files_of
from tests.engines.test_spheres_of_life_helpers import fresh, give, to_dream


async def seat_zeros_turn(service: TableService, table_id: str, *, sweep: bool) -> TableRecord:
    """The table once it waits for seat 0 alone. Bots whose thinking runs past
    one change's budget hand over, due at once, and the sweeper plays on:
    woken by the save, and with ``sweep`` also called from here."""
    record = await service.get(table_id)
    while service.awaited(record) != [0]:
        if sweep:
            assert record.deadline is not None and record.deadline <= service.clock(), "a bot left undone"
            await service.expire()
        await asyncio.sleep(0.05)
        record = await service.get(table_id)
    return record


async def test_addbot_with_a_difficulty_and_the_button_default(h: DiscordHarness, maker: BotMaker) -> None:
    ann = h.create_user("ann")
    created = await h.slash(ann, "table create", {"game": "time-masters"})
    message = created.message
    assert message is not None
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    answer = await h.slash(ann, "table addbot", {"difficulty": "hard"})
    assert answer.content == f"A bot takes a seat at table {table.id}."
    clicked = await h.click(ann, message, button(message, "Add bot"))
    assert clicked.content == f"A bot takes a seat at table {table.id}."
    record = await maker.bot.service.get(table.id)
    seats = [(s.name, s.bot, s.level) for s in record.seats[1:]]
    assert seats == [("Bot 1", True, "hard"), ("Bot 2", True, "normal")]
    await h.click(ann, message, button(message, "Start"))
    service = maker.bot.service
    record = await service.get(table.id)
    assert record.status is TableStatus.PLAYING
    # The bots played up to Ann's turn (the sweeper goes on for them, woken by the save or called here).
    record = await asyncio.wait_for(seat_zeros_turn(service, table.id, sweep=True), 120)
    assert "ann" in embed_text(message)


async def test_a_long_chain_of_bot_moves_goes_on_at_once_not_at_the_next_sweep(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One bot move per change: every other move is left to the sweeper, whose
    # round here is an hour. The save that leaves the table due wakes it.
    monkeypatch.setattr(changes, "BOT_SECONDS", 0.0)
    ann = h.create_user("ann")
    created = await h.slash(ann, "table create", {"game": "time-masters"})
    message = created.message
    assert message is not None
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    for _ in range(2):
        await h.slash(ann, "table addbot", {"difficulty": "easy"})
    await h.click(ann, message, button(message, "Start"))
    service = maker.bot.service
    bot_turns = 0
    for _ in range(40):
        # The bots' turns, one woken change at a time: nothing here calls the sweeper.
        record = await asyncio.wait_for(seat_zeros_turn(service, table.id, sweep=False), 120)
        log = await service.store.log(table.id)
        bot_turns = len({e.version for e in log if e.kind == "bot"})
        if bot_turns >= 6:
            break
        # Ann's last choice; in a random deal it need not end her turn at once.
        choice = service.choices(record, ann.id)[-1]
        await service.act(table.id, ann.id, choice.key, record.version)
    assert bot_turns >= 6, "the bots' moves went on without the sweeper's round"


async def test_a_bot_makes_an_optional_play_out_of_turn_and_the_log_shows_it(
    h: DiscordHarness, maker: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No clock in the search: its iterations alone decide, on a loaded machine too.
    for name, level in list(LEVELS.items()):
        monkeypatch.setitem(LEVELS, name, dataclasses.replace(level, budget_ms=math.inf))
    ann = h.create_user("ann")
    created = await h.slash(ann, "table create", {"game": "spheres-of-life"})
    assert created.message is not None
    await h.slash(ann, "table addbot", {"difficulty": "normal"})
    await h.click(ann, created.message, button(created.message, "Start"))
    service = maker.bot.service
    [table] = await service.store.in_channel(h.channel.id)
    # Ann's Dream Action is due; the bot holds Mirror Lake (swap hands) and
    # nothing but Corrupted animals: swapping is its clear best play.
    state = to_dream(fresh(2))
    give(state, 0, "noble-rabbit", "noble-rabbit", "noble-rabbit", "noble-owl", "noble-fox")
    give(state, 1, "mirror-lake", "corrupted-snake", "corrupted-snake", "corrupted-snake", "corrupted-rat")
    record = await service.get(table.id)
    await service.store.save(record.model_copy(update={"state": GAMES["spheres-of-life"].dump_state(state)}))

    # Banking a set keeps Ann's turn: the bot, waited for by nobody, weighs its play.
    await h.slash(ann, "play", {"action": "bank:noble-rabbit"})
    log = files_of(await h.slash(ann, "table log", {"table": table.id}))[f"log-{table.id}.txt"].decode()
    assert re.search(r"Bot 1 plays .*Mirror Lake on ann", log), log
    played = {"type": "play", "card": state.hands[1][0], "target": 0}
    entries = await service.store.log(table.id)
    assert any(e.kind == "bot" and e.seat == 1 and e.action == played for e in entries)
