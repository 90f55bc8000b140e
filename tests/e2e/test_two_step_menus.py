"""Menus two levels deep in the real games: a move made in two steps through the act panel, and the
panel's Back and Refresh buttons, each accepted by (the harness's strict copy of) Discord."""

from __future__ import annotations

import random
from typing import Any

import pytest

from storage.records import TableStatus
from tests.e2e.games import StartedTable, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, choose, labels, select_options

GAMES = {"spheres-of-life": 3, "scales-of-influence": 4}


async def _until_a_deep_choice(
    h: DiscordHarness, maker: BotMaker, table: StartedTable
) -> tuple[Any, list[str]]:
    """Play random moves until an awaited player has a move of two or more menu steps; returns
    that player and the step labels as the panel shows them."""
    service = maker.bot.service
    rng = random.Random(11)
    for _ in range(500):
        record = await service.get(table.table_id)
        assert record.status is TableStatus.PLAYING, "the game ended before any two-step move"
        for seat in service.awaited(record):
            user = table.users[seat]
            deep = [c for c in service.choices(record, user.id) if len(c.steps) >= 2]
            if deep:
                return user, [service.text(record, step) for step in rng.choice(deep).steps]
        seat = rng.choice(service.awaited(record))
        choice = rng.choice(service.choices(record, table.users[seat].id))
        await h.slash(table.users[seat], "play", {"action": choice.key})
    raise AssertionError("no two-step move came up in 500 moves")


@pytest.mark.parametrize("game", GAMES)
async def test_a_two_step_menu_move(h: DiscordHarness, maker: BotMaker, game: str) -> None:
    table = await start_table(h, maker, game, GAMES[game])
    user, steps = await _until_a_deep_choice(h, maker, table)
    before = (await maker.bot.service.get(table.table_id)).version
    panel = (await h.click(user, table.message, button(table.message, "Act"))).message
    assert panel is not None
    moved = await choose(h, user, panel, *steps)
    assert moved.response_type == 7 and not moved.failed
    assert (await maker.bot.service.get(table.table_id)).version > before, "the two-step move was made"


@pytest.mark.parametrize("game", GAMES)
async def test_back_and_refresh_at_the_second_level(h: DiscordHarness, maker: BotMaker, game: str) -> None:
    table = await start_table(h, maker, game, GAMES[game])
    user, steps = await _until_a_deep_choice(h, maker, table)
    top = (await h.click(user, table.message, button(table.message, "Act"))).message
    assert top is not None
    second = (await choose(h, user, top, steps[0])).message
    assert second is not None and {"Refresh", "Back"} <= set(labels(second))
    assert steps[1] in select_options(second)
    back = (await h.click(user, second, button(second, "Back"))).message
    assert back is not None and steps[0] in select_options(back), "Back returns to the first level"
    second = (await choose(h, user, back, steps[0])).message
    assert second is not None
    refreshed = (await h.click(user, second, button(second, "Refresh"))).message
    assert refreshed is not None and steps[0] in select_options(refreshed), "Refresh redraws from the top"


async def test_a_refresh_button_from_before_the_mode_part_still_works(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "spheres-of-life", 3)
    record = await maker.bot.service.get(table.table_id)
    user = table.users[maker.bot.service.awaited(record)[0]]
    old = await h.click(user, f"gt:v1:nav:{table.table_id}:{record.version}:")  # an older panel's Refresh
    assert old.response_type == 7 and old.message is not None and "Refresh" in labels(old.message)
