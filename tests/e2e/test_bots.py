"""Adding bots through Discord: /table addbot takes a difficulty, the lobby's
Add bot button seats a normal bot, and the bots play their turns."""

from __future__ import annotations

from storage.records import TableStatus
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text


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
    for _ in range(20):
        if service.awaited(record) == [0]:
            break
        # Bots whose thinking ran past one change's budget (a loaded machine)
        # hand over, due at once, and the sweeper plays on.
        assert record.deadline == service.clock(), "the bots left a move undone"
        await service.expire()
        record = await service.get(table.id)
    assert service.awaited(record) == [0]  # the bots played up to Ann's turn
    assert "ann" in embed_text(message)
