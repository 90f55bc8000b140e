"""Phase through Discord: a full game driven by button clicks, with every private
line (a drawn card's inner side, the secret barracks pick) kept out of every
public message, and "My hand" showing both sides of my cards to me alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.phase import parse_deck
from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, labels, play_to_the_end

# Marks of the private lines (card text may say "you draw 2 cards" in public).
TWINS = Path(__file__).parents[1] / "engines" / "test_phase_twins.toml"
PRIVATE_LINES = ("(outward: ", "into your barracks.")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
async def test_a_full_game_by_clicks(h: DiscordHarness, maker: BotMaker, players: int, seed: int) -> None:
    # The short variant (3 influence of each kind per player, 20-card decks, 5 rounds)
    # keeps a whole game quick; full games are played by the engine's seeded playouts.
    table = await start_table(h, maker, "phase", players, {"variant": "short"})
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


async def test_my_hand_shows_both_sides_of_my_cards_to_me_alone(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "phase", 2)
    service = maker.bot.service
    record = await service.get(table.table_id)
    public = embed_text(table.message)
    assert "The Nexus: ☀ 20 good · ☾ 20 evil" in public
    for user in table.users:
        shown = await h.click(user, table.message, button(table.message, "My hand"))
        assert shown.message is not None and shown.ephemeral and shown.message.visible_to == user.id
        text = embed_text(shown.message)
        me = service.view(record, user.id)
        hand = me.seats[me.viewer].hand
        assert len(hand) == 3
        for card in hand:
            assert card.face.text in text and card.back is not None and card.back.text in text


async def test_a_custom_set_plays_and_a_bad_one_is_refused_in_one_sentence(
    h: DiscordHarness, maker: BotMaker
) -> None:
    good = TWINS.read_text()
    options = {"deck": h.upload("twins.toml", good), "variant": "short"}
    table = await start_table(h, maker, "phase", 2, options)
    assert "deck=custom" in embed_text(table.message)
    shown = embed_text(table.message)
    titles = {side.title for card in parse_deck(good).cards for side in card.sides}
    assert any(title in shown for title in titles) and "Gladiator" not in shown
    ann = h.create_user("ann")
    bad = good.replace(
        'alignment = "evil", cost = 2, attack = 3, defense = 2, flags = ["swift"]',
        'alignment = "good", cost = 2, attack = 3, defense = 2, flags = ["swift"]',
    )
    refused = await h.slash(ann, "table create", {"game": "phase", "deck": h.upload("bad.toml", bad)})
    answer = refused.content or ""
    assert refused.ephemeral and answer.startswith("Bad option") and "\n" not in answer
    assert "one good side and one evil side" in answer
