"""Menus two levels deep in the real games: a move made in two steps through the act panel, and the
panel's Back and Refresh buttons, each accepted by (the harness's strict copy of) Discord."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.render.menu import level
from storage.records import TableStatus
from tests.e2e.games import StartedTable, start_table
from tests.e2e.harness import DiscordHarness, InteractionResult, SentMessage
from tests.e2e.options import walk_components
from tests.e2e.tables import BotMaker, button, labels

GAMES = {"spheres-of-life": 3, "scales-of-influence": 4, "time-masters": 3}


async def _until_a_deep_choice(
    h: DiscordHarness, maker: BotMaker, table: StartedTable
) -> tuple[Any, list[int]]:
    """Play random moves until an awaited player has a move two or more menu levels deep; returns
    that player and the move's path through the menus (option indexes, as the selects' values)."""
    service = maker.bot.service
    rng = random.Random(11)
    for _ in range(500):
        record = await service.get(table.table_id)
        assert record.status is TableStatus.PLAYING, "the game ended before any two-step move"
        for seat in service.awaited(record):
            user = table.users[seat]
            paths = _paths(service.choices(record, user.id))
            deep = [path for path in paths if len(path) >= 2]
            if deep:
                return user, rng.choice(deep)
        seat = rng.choice(service.awaited(record))
        choice = rng.choice(service.choices(record, table.users[seat].id))
        await h.slash(table.users[seat], "play", {"action": choice.key})
    raise AssertionError("no two-step move came up in 500 moves")


def _paths(choices: list[Any], path: list[int] | None = None) -> list[list[int]]:
    """Every path through the menus that ends in a move."""
    found = []
    for option in level(choices, path or []):
        here = [*(path or []), option.index]
        found += [here] if option.choice is not None else _paths(choices, here)
    return found


def _menu(panel: SentMessage | None) -> dict[str, tuple[str, str]]:
    """The panel's select options: value (the option's index at this level) -> (custom_id, label)."""
    assert panel is not None
    return {
        str(o["value"]): (str(item["custom_id"]), str(o["label"]))
        for item in walk_components(panel.components)
        for o in item.get("options", [])
    }


async def _pick(h: DiscordHarness, user: Any, panel: SentMessage | None, index: int) -> InteractionResult:
    custom_id, _label = _menu(panel)[str(index)]
    result = await h.select(user, custom_id, [str(index)], message=panel)
    assert not result.failed
    return result


@pytest.mark.parametrize("game", GAMES)
async def test_a_two_step_menu_move(h: DiscordHarness, maker: BotMaker, game: str) -> None:
    table = await start_table(h, maker, game, GAMES[game])
    user, path = await _until_a_deep_choice(h, maker, table)
    before = (await maker.bot.service.get(table.table_id)).version
    panel = (await h.click(user, table.message, button(table.message, "Act"))).message
    for index in path:
        moved = await _pick(h, user, panel, index)
        panel = moved.message
    assert moved.response_type == 7
    assert (await maker.bot.service.get(table.table_id)).version > before, "the two-step move was made"


@pytest.mark.parametrize("game", GAMES)
async def test_back_and_refresh_at_the_second_level(h: DiscordHarness, maker: BotMaker, game: str) -> None:
    table = await start_table(h, maker, game, GAMES[game])
    user, path = await _until_a_deep_choice(h, maker, table)
    panel = (await h.click(user, table.message, button(table.message, "Act"))).message
    top = _menu(panel)  # the panel is updated in place: keep what its first level offered
    panel = (await _pick(h, user, panel, path[0])).message
    assert panel is not None and {"Refresh", "Back"} <= set(labels(panel))
    assert _menu(panel) != top and str(path[1]) in _menu(panel)
    panel = (await h.click(user, panel, button(panel, "Back"))).message
    assert _menu(panel) == top, "Back returns to the first level"
    panel = (await _pick(h, user, panel, path[0])).message
    assert panel is not None
    panel = (await h.click(user, panel, button(panel, "Refresh"))).message
    assert _menu(panel) == top, "Refresh redraws from the top"


async def test_a_refresh_button_from_before_the_mode_part_still_works(
    h: DiscordHarness, maker: BotMaker
) -> None:
    table = await start_table(h, maker, "spheres-of-life", 3)
    record = await maker.bot.service.get(table.table_id)
    user = table.users[maker.bot.service.awaited(record)[0]]
    old = await h.click(user, f"gt:v1:nav:{table.table_id}:{record.version}:")  # an older panel's Refresh
    assert old.response_type == 7 and old.message is not None and "Refresh" in labels(old.message)
