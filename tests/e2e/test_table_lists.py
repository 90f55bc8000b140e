"""Through Discord: ``/tables`` and ``/table list`` a page at a time, with
Previous and Next answered for whoever presses them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.service.tables import Player
from tests.e2e.harness import DiscordHarness
from tests.e2e.records import SentMessage
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


def listed_ids(text: str) -> list[str]:
    return re.findall(r"`([a-z0-9]+)`", text)


def disabled(message: SentMessage, label: str) -> bool:
    return any(
        item.get("label") == label and bool(item.get("disabled"))
        for row in message.components
        for item in row.get("components", [])
    )


async def test_tables_pages_through_my_tables_for_the_one_who_presses(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    service = maker.bot.service
    made = []
    for n in range(23):
        clock.now += 60
        table = await service.create(
            "high-card", Player(ann.id, "ann"), channel_id=h.channel.id, guild_id=h.guild.id, seed=n
        )
        made.append(table.id)
    listed = await h.slash(ann, "tables")
    first = listed.message
    assert listed.ephemeral and first is not None
    text = embed_text(first)
    assert "Your tables — 23, your move at 0" in text and "Page 1 of 3" in text
    assert disabled(first, "Previous") and not disabled(first, "Next")
    seen = listed_ids(text)
    assert len(seen) == 10
    second = await h.click(ann, first, button(first, "Next"))
    assert second.message is not None and "Page 2 of 3" in embed_text(second.message)
    seen += listed_ids(embed_text(second.message))
    third = await h.click(ann, second.message, button(second.message, "Next"))
    assert third.message is not None and "Page 3 of 3" in embed_text(third.message)
    assert disabled(third.message, "Next") and not disabled(third.message, "Previous")
    seen += listed_ids(embed_text(third.message))
    assert sorted(seen) == sorted(made), "every table once, over three pages"
    back = await h.click(ann, third.message, button(third.message, "Previous"))
    assert back.message is not None and "Page 2 of 3" in embed_text(back.message)
    # The list is the presser's own: Bob sits at no table.
    theirs = await h.click(bob, back.message, button(back.message, "Next"))
    assert theirs.message is not None and "not at any table" in (theirs.message.content or "")
    assert not theirs.message.embeds and not theirs.message.components


async def test_tables_shows_my_moves_first(h: DiscordHarness, maker: BotMaker, clock: Clock) -> None:
    ann, bob = h.create_user("ann"), h.create_user("bob")
    service = maker.bot.service
    for n in range(12):
        host, guest = (ann, bob) if n % 2 else (bob, ann)  # the host moves first at High Card
        table = await service.create(
            "high-card", Player(host.id, host.name), channel_id=h.channel.id, guild_id=h.guild.id, seed=n
        )
        await service.join(table.id, Player(guest.id, guest.name))
        await service.start(table.id, host.id)
    records = await service.store.of_user(ann.id)
    mine = {r.id for r in records if service.awaited(r) == [r.seat_of(ann.id)]}
    assert 0 < len(mine) < 12
    listed = await h.slash(ann, "tables")
    assert listed.message is not None
    text = embed_text(listed.message)
    assert f"your move at {len(mine)}" in text
    first_page = listed_ids(text)
    assert len(first_page) == 10
    assert set(first_page[: len(mine)]) == mine, "your moves come first"


async def test_table_list_pages_through_the_channel_newest_first(
    h: DiscordHarness, maker: BotMaker, clock: Clock
) -> None:
    ann, cid = h.create_user("ann"), h.create_user("cid")
    service = maker.bot.service
    made = []
    for n in range(20):
        clock.now += 60
        table = await service.create(
            "high-card", Player(ann.id, "ann"), channel_id=h.channel.id, guild_id=h.guild.id, seed=n
        )
        made.append(table.id)
    listed = await h.slash(cid, "table list")
    first = listed.message
    assert first is not None and "Page 1 of 2" in (first.content or "")
    shown = re.findall(r"^([a-z0-9]+) — ", first.content or "", re.M)
    assert shown == made[::-1][:15], "the newest first"
    again = await h.click(ann, first, button(first, "Next"))  # anyone may press it
    assert again.message is not None
    rest = re.findall(r"^([a-z0-9]+) — ", again.message.content or "", re.M)
    assert rest == made[::-1][15:] and "Page 2 of 2" in (again.message.content or "")
    assert disabled(again.message, "Next")
    back = await h.click(cid, again.message, button(again.message, "Previous"))
    assert back.message is not None
    assert re.findall(r"^([a-z0-9]+) — ", back.message.content or "", re.M) == shown


async def test_a_page_past_the_end_shows_the_last_page(h: DiscordHarness, maker: BotMaker) -> None:
    ann = h.create_user("ann")
    service = maker.bot.service
    for n in range(12):
        await service.create(
            "high-card", Player(ann.id, "ann"), channel_id=h.channel.id, guild_id=h.guild.id, seed=n
        )
    first = (await h.slash(ann, "tables")).message
    assert first is not None
    for table in (await service.store.of_user(ann.id))[:5]:
        await service.leave(table.id, ann.id)
    later = await h.click(ann, first, button(first, "Next"))
    assert later.message is not None
    text = embed_text(later.message)
    assert "Your tables — 7" in text and len(listed_ids(text)) == 7
    assert not later.message.components, "one page: no buttons"
