"""Spheres of Life through Discord: a full 3-player game driven by button clicks."""

from __future__ import annotations

import random

import pytest

from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, labels, play_to_the_end


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_full_three_player_game_by_clicks(h: DiscordHarness, maker: BotMaker, seed: int) -> None:
    table = await start_table(h, maker, "spheres-of-life", 3)
    moves = await play_to_the_end(h, maker.bot.service, table.table_id, table.users, table.message, seed)
    record = await maker.bot.service.get(table.table_id)
    assert record.status is TableStatus.FINISHED and moves > 20
    assert "Game over" in embed_text(table.message) and labels(table.message) == []
    # Every hand panel went to its owner only, as an ephemeral message.
    for message in h.messages.values():
        if "My hand" in embed_text(message):
            assert message.ephemeral and message.visible_to is not None
    assert not any("My hand\n" in text for text in public_texts(h))


async def test_each_player_sees_their_own_hand_privately(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "spheres-of-life", 3)
    service = maker.bot.service
    record = await service.get(table.table_id)
    rng = random.Random(7)  # random throws: identical ones would tie rock-paper-scissors forever
    while service.view(record, None).stage in ("heroes", "rps"):  # type: ignore[attr-defined]
        for seat in service.awaited(record):
            choice = rng.choice(service.choices(record, table.users[seat].id))
            await h.slash(table.users[seat], "play", {"action": choice.key})
        record = await service.get(table.table_id)
    for user in table.users:
        shown = await h.click(user, table.message, button(table.message, "My hand"))
        assert shown.message is not None and shown.ephemeral and shown.message.visible_to == user.id
        hand = service.view(record, user.id).hand  # type: ignore[attr-defined]
        assert hand, "three cards are dealt to each player"
        assert all(card.name in embed_text(shown.message) for card in hand)
    assert service.view(record, None).hand is None  # type: ignore[attr-defined]
