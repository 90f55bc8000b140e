"""The tournament message's Standings link: a link button to the tournament's
web page while the server has its pages on and the bot a public address, and
none otherwise; every message passes Discord's component limits (the harness
checks each one)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.web import links
from tests.e2e.harness import DiscordHarness, SentMessage
from tests.e2e.tables import BotMaker, button, labels
from tests.e2e.test_tournaments import current
from tests.support.minigame import HIGH_CARD

PUBLIC_URL = "https://games.example.org"


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


def link_buttons(message: SentMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("style") == 5]


async def pages(h: DiscordHarness, who: Any, on: bool) -> None:
    answer = await h.slash(who, "settings web", {"pages": "on" if on else "off"})
    assert answer.ephemeral and "web pages are " + ("on" if on else "off") in (answer.content or "")


async def open_cup(h: DiscordHarness, organiser: Any) -> SentMessage:
    created = await h.slash(
        organiser,
        "tournament create",
        {"name": "Cup", "game": "high-card", "format": "swiss", "table_size": 2},
    )
    assert created.message is not None
    return created.message


async def test_the_tournament_message_links_to_its_page_while_pages_are_on(
    h: DiscordHarness, maker: BotMaker
) -> None:
    maker.bot.flows.watch.public_url = PUBLIC_URL  # as PUBLIC_URL sets it
    organiser = h.create_user("org", manage_guild=True)
    await pages(h, organiser, on=True)
    message = await open_cup(h, organiser)
    tournament = await current(maker)
    [link] = link_buttons(message)
    assert link["label"] == "Standings" and "custom_id" not in link
    assert link["url"] == links.tournament(PUBLIC_URL, h.guild.id, tournament.id)
    assert labels(message) == ["Join", "Leave", "Standings"]
    players = [h.create_user(f"p{i}") for i in range(2)]
    for player in players:
        await h.click(player, message, button(message, "Join"))
    assert len(link_buttons(message)) == 1, "the link stays as the message is redrawn"
    await h.slash(organiser, "tournament start")
    assert labels(message) == ["Standings"], "registration closed: only the link is left"
    # Pages off: the next redraw drops the link at once (the setting is not cached past the command).
    await pages(h, organiser, on=False)
    await h.slash(organiser, "tournament add", {"member": h.create_user("late")})
    assert link_buttons(message) == [] and message.components == []


async def test_no_link_without_pages_or_without_a_public_address(h: DiscordHarness, maker: BotMaker) -> None:
    organiser = h.create_user("org", manage_guild=True)
    message = await open_cup(h, organiser)  # pages off (the default), an address set or not
    assert link_buttons(message) == [] and labels(message) == ["Join", "Leave"]
    await pages(h, organiser, on=True)
    assert maker.bot.flows.watch.public_url is None
    message = await open_cup(h, organiser)
    assert link_buttons(message) == [], "pages on, but nowhere to link to"
    maker.bot.flows.watch.public_url = PUBLIC_URL  # as PUBLIC_URL sets it
    message = await open_cup(h, organiser)
    assert len(link_buttons(message)) == 1
