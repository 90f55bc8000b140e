"""Whole games played by wandering through the act panel as a restless player would — any button,
any menu option, Back and Refresh, My hand, /play suggestions — with names as long and as full of
markdown as Discord allows, at the largest tables. Every payload goes through the harness's copy of
Discord's rules, so whatever a game draws in any state is something Discord accepts.
Slow: run with ``pytest -m slow``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.registry import GAMES
from storage.records import TableStatus
from tests.e2e.harness import DiscordHarness, SentMessage
from tests.e2e.tables import BotMaker, button, labels, select_options

HOSTILE_NAME = "*_~|`>@" * 4 + "ab"  # 30 characters that markdown escaping doubles


def _tables() -> list[tuple[str, int, str | None]]:
    found: list[tuple[str, int, str | None]] = []
    for key, engine in sorted(GAMES.items()):
        found.append((key, engine.info.max_players, None))
        found += [(key, engine.info.min_players, preset) for preset in engine.info.presets]
    return found


async def _open(h: DiscordHarness, maker: BotMaker, game: str, players: int, preset: str | None) -> Any:
    users = [h.create_user(f"{i}{HOSTILE_NAME}") for i in range(players)]
    options = {"game": game, **({"variant": preset} if preset else {})}
    message = (await h.slash(users[0], "table create", options)).message
    assert message is not None
    for user in users[1:]:
        await h.click(user, message, button(message, "Join"))
    await h.click(users[0], message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    return users, message, table.id


async def _wander(
    h: DiscordHarness, user: Any, panel: SentMessage | None, rng: random.Random
) -> SentMessage | None:
    assert panel is not None
    buttons, options = labels(panel), select_options(panel)
    if options and (not buttons or rng.random() < 0.7):
        custom_id, value = options[rng.choice(sorted(options))]
        return (await h.select(user, custom_id, [value], message=panel)).message
    return (await h.click(user, panel, button(panel, rng.choice(buttons)))).message


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "preset"), _tables())
async def test_a_restless_game(
    h: DiscordHarness, maker: BotMaker, game: str, players: int, preset: str | None
) -> None:
    users, message, table_id = await _open(h, maker, game, players, preset)
    service, rng = maker.bot.service, random.Random(f"{game}{players}{preset}")
    for _ in range(5000):
        record = await service.get(table_id)
        if record.status is not TableStatus.PLAYING:
            return
        user = users[rng.choice(service.awaited(record))]
        if rng.random() < 0.2:
            await h.autocomplete(user, "play", "action", {"action": ""})
        panel = (await h.click(user, message, button(message, rng.choice(["Act", "My hand"])))).message
        for _ in range(12):
            panel = await _wander(h, user, panel, rng)
            if (await service.get(table_id)).version != record.version:
                break
    raise AssertionError(f"{game} did not end within 5000 moves")
