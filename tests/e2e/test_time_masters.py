"""Time Masters through Discord: full games driven by button clicks, with every
private line (draws, spells laid on timers, a sphere's hidden card) kept out of
every public message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, labels, play_to_the_end

PRIVATE_LINES = ("You draw", "You lay", "You delay", "The hidden card is")
CARDS = Path(__file__).parents[2] / "engines" / "time_masters" / "cards.toml"


def small_deck() -> str:
    """The built-in cards with one copy of each sphere card: a short game."""
    text = CARDS.read_text()
    return re.sub(r"(level = [1-5]\n(?:[a-z]+ = .*\n)*?)copies = \d+", r"\1copies = 1", text)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
async def test_a_full_game_by_clicks(h: DiscordHarness, maker: BotMaker, players: int, seed: int) -> None:
    # A custom deck file with one copy of each sphere card keeps a whole game short
    # (the built-in set's full games are played by the engine's seeded playouts).
    deck = h.upload("short.toml", small_deck())
    table = await start_table(h, maker, "time-masters", players, {"deck": deck})
    assert "deck=custom" in embed_text(table.message)
    service = maker.bot.service
    moves = await play_to_the_end(h, service, table.table_id, table.users, table.message, seed)
    record = await service.get(table.table_id)
    assert record.status is TableStatus.FINISHED and moves > 20
    assert "Game over" in embed_text(table.message) and labels(table.message) == []
    for text in public_texts(h):
        assert not any(line in text for line in PRIVATE_LINES), f"a private line went public:\n{text}"
    for message in h.messages.values():
        if "My hand" in embed_text(message):
            assert message.ephemeral and message.visible_to is not None


async def test_my_hand_shows_each_card_with_its_text_to_me_alone(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "time-masters", 2)
    service = maker.bot.service
    record = await service.get(table.table_id)
    public = embed_text(table.message)
    assert "Sphere 1:" in public and "Kè 4/4" in public
    for user in table.users:
        shown = await h.click(user, table.message, button(table.message, "My hand"))
        assert shown.message is not None and shown.ephemeral and shown.message.visible_to == user.id
        text = embed_text(shown.message)
        hand = service.view(record, user.id).hand  # type: ignore[attr-defined]
        assert len(hand) == 5
        assert all(card.name in text and card.text in text for card in hand)


async def test_a_table_that_could_never_end_is_refused_at_create_in_one_sentence(
    h: DiscordHarness, maker: BotMaker
) -> None:
    # RULES.md decision 17: a Kè limit below the dearest spell would lock the game for ever.
    ann = h.create_user("ann")
    low = await h.slash(ann, "table create", {"game": "time-masters", "options": "ke=1"})
    said = low.content or ""
    assert low.ephemeral and "Epiphany costs 4 Kè" in said and "Set ke to at least 4" in said
    assert "\n" not in said
    blaze = small_deck().replace("cost = 1\ncopies = 5", "cost = 5\ncopies = 5", 1)
    assert blaze != small_deck()
    dear = await h.slash(ann, "table create", {"game": "time-masters", "deck": h.upload("dear.toml", blaze)})
    refused = dear.content or ""
    assert dear.ephemeral and "Spark costs 5 Kè but a player can never hold more than 4" in refused
    assert await maker.bot.service.store.in_channel(h.channel.id) == []
