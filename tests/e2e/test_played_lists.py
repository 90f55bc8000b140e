"""A table's end, told from its outbox through Discord, lists it on each of its
players' pages in that server — an unrated table too — once, however often
its news is delivered; an abandoned table is not listed."""

from __future__ import annotations

from typing import Any

import pytest

from storage.played import PlayedGames
from storage.records import TableStatus
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, play_to_the_end
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


async def started(h: DiscordHarness, maker: BotMaker) -> tuple[Any, list[Any], str]:
    """Ann's unrated table with Bob, started in the harness's channel."""
    ann, bob = h.create_user("ann"), h.create_user("bob")
    created = await h.slash(ann, "table create", {"game": "high-card"})
    message = created.message
    assert message is not None, created.content
    await h.click(bob, message, button(message, "Join"))
    await h.click(ann, message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    return message, [ann, bob], table.id


async def test_an_unrated_tables_end_lists_it_for_both_players(h: DiscordHarness, maker: BotMaker) -> None:
    message, users, table_id = await started(h, maker)
    service = maker.bot.service
    await play_to_the_end(h, service, table_id, users, message, seed=4)
    await maker.bot.announcer.deliver(table_id)
    await h.settle()
    record = await service.get(table_id)
    assert record.status is TableStatus.FINISHED and not record.rated and record.guild_id is not None
    played = PlayedGames(service.store.redis)
    for user in users:
        [line] = await played.recent(record.guild_id, user.id, 50)
        assert line.table_id == table_id and line.name == user.name and not line.rated


async def test_an_abandoned_table_is_not_listed(h: DiscordHarness, maker: BotMaker) -> None:
    _, users, table_id = await started(h, maker)
    service = maker.bot.service
    await service.abandon(table_id, users[0].id)
    await maker.bot.announcer.deliver(table_id)
    await h.settle()
    assert (await service.get(table_id)).status is TableStatus.ABANDONED
    assert [k async for k in service.store.redis.scan_iter(match="gt:played:*")] == []
