"""Scales of Influence through Discord: a full 4-player game driven by button
clicks, in which no public message names a player's alignment before the end."""

from __future__ import annotations

import re

import pytest

from bot.render.scales_of_influence import ALIGNMENT
from storage.records import TableStatus
from tests.e2e.games import public_texts, start_table
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text, labels, play_to_the_end

ALIGNMENT_WORD = {"shadow": "Shadow", "light": "Light", "harmony": "Harmony"}


def reveals(text: str, name: str, alignment: str) -> bool:
    """Does ``text`` show ``name``'s alignment? Alignments are presented as a badge
    (``🌑 Shadow``) beside a name, or to their owner as "You are **…**". Public lines
    may well name a player and a side of the Scale ("moves 2 Energy from Light to
    Shadow"): that is a public play, not an alignment."""
    badge = ALIGNMENT[alignment]
    beside_name = any(re.search(rf"\b{name}\b", line) and badge in line for line in text.splitlines())
    return beside_name or "You are **" in text or "Alignments revealed" in text


@pytest.mark.parametrize("seed", [3, 4])
async def test_a_full_four_player_game_keeps_alignments_secret(
    h: DiscordHarness, maker: BotMaker, seed: int
) -> None:
    table = await start_table(h, maker, "scales-of-influence", 4)
    service = maker.bot.service
    state = service.state(await service.get(table.table_id))
    alignments = list(state.alignments)  # type: ignore[attr-defined]
    names = [u.name for u in table.users]

    await play_to_the_end(h, service, table.table_id, table.users, table.message, seed)
    record = await service.get(table.table_id)
    assert record.status is TableStatus.FINISHED
    assert "Game over" in embed_text(table.message) and labels(table.message) == []

    texts = public_texts(h)
    final = next(i for i, t in enumerate(texts) if "Alignments revealed" in t)
    for text in texts[:final]:
        for name, alignment in zip(names, alignments, strict=True):
            assert not reveals(text, name, alignment), f"{name}'s alignment leaked before the end:\n{text}"
    assert all(f"{name} — " in texts[final] for name in names), "the end screen reveals every alignment"


async def test_each_player_learns_only_their_own_alignment(h: DiscordHarness, maker: BotMaker) -> None:
    table = await start_table(h, maker, "scales-of-influence", 4)
    service = maker.bot.service
    state = service.state(await service.get(table.table_id))
    alignments = list(state.alignments)  # type: ignore[attr-defined]
    for user, alignment in zip(table.users, alignments, strict=True):
        shown = await h.click(user, table.message, button(table.message, "My hand"))
        assert shown.message is not None and shown.ephemeral and shown.message.visible_to == user.id
        text = embed_text(shown.message)
        assert f"You are **{ALIGNMENT_WORD[alignment]}" in text or ALIGNMENT_WORD[alignment] in text
        others = {a for a in alignments if a != alignment}
        assert not any(f"You are **{ALIGNMENT_WORD[a]}" in text for a in others)
