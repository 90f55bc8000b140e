"""A damaged table in a channel, through discord.py's real dispatch: the
listing names it once it is found, its neighbour keeps working, and its host abandons it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from storage import keys
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


async def test_a_damaged_table_is_listed_as_unreadable_and_can_be_abandoned(
    h: DiscordHarness, maker: BotMaker
) -> None:
    ann, bob, cid = (h.create_user(name) for name in ("ann", "bob", "cid"))
    first = (await h.slash(ann, "table create", {"game": "high-card"})).message
    second = (await h.slash(bob, "table create", {"game": "high-card"})).message
    assert first is not None and second is not None
    store = maker.bot.service.store
    broken, healthy = sorted(await store.in_channel(h.channel.id), key=lambda t: t.host_id != ann.id)
    meta = json.loads(await store.redis.hget(keys.table(broken.id), "meta"))
    del meta["created_at"], meta["seats"]  # a bad write lost two fields
    await store.redis.hset(keys.table(broken.id), "meta", json.dumps(meta))
    # The list shows what its entries say (hints); the first command to read the table finds the damage.
    assert broken.id in ((await h.slash(cid, "table list")).content or "")
    status = await h.slash(cid, "table status", {"table": broken.id})
    assert "cannot be read" in (status.content or "")
    listed = await h.slash(cid, "table list")
    assert healthy.id in (listed.content or "")
    assert f"1 table here ({broken.id}) could not be read" in (listed.content or "")
    assert f"{broken.id} —" not in (listed.content or ""), "and it is no longer listed as a table"
    joined = await h.click(cid, second, button(second, "Join"))
    assert "joined" in (joined.content or "")
    refused = await h.slash(bob, "table abandon", {"table": broken.id})
    assert refused.ephemeral and "host or a moderator" in (refused.content or "")
    done = await h.slash(ann, "table abandon", {"table": broken.id})
    assert done.content == f"Table {broken.id} is abandoned."
    assert "This table was abandoned." in embed_text(first), "its table message is told"
    logged = [m.content or "" for m in h.public_messages() if m.channel_id != h.channel.id]
    assert any("The table could not be read and was abandoned." in line for line in logged), "and its thread"
    assert "could not be read" not in ((await h.slash(cid, "table list")).content or "")


async def test_the_one_table_here_damaged_is_named_by_hand_and_abandoned_without_naming_it(
    h: DiscordHarness, maker: BotMaker
) -> None:
    ann = h.create_user("ann")
    await h.slash(ann, "table create", {"game": "high-card"})
    store = maker.bot.service.store
    [table] = await store.in_channel(h.channel.id)
    damaged = json.dumps({"host_id": ann.id, "channel_id": h.channel.id})
    await store.redis.hset(keys.table(table.id), "meta", damaged)
    await store.in_channel(h.channel.id)  # the listing finds it damaged and sets it aside
    hand = await h.slash(ann, "hand")
    assert hand.ephemeral and hand.content == (
        f"Table {table.id} cannot be read, so it cannot be played; "
        "its host or a moderator can end it with /table abandon."
    )
    done = await h.slash(ann, "table abandon")
    assert done.content == f"Table {table.id} is abandoned."
