"""The Watch link on the table message: there once a Manage Server member
turns the server's pages on (and the bot has a PUBLIC_URL), gone once they are
off; no one else may change it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from bot.app.ui.watch_links import WatchLinks
from bot.web import links
from storage.preferences import SettingsStore
from storage.records import TableRecord, TableStatus
from tests.e2e.harness import DiscordHarness, SentMessage
from tests.e2e.tables import BotMaker, button, open_table
from tests.support.clock import Clock
from tests.support.faults import inject
from tests.support.minigame import HIGH_CARD

PUBLIC = "https://games.example.org"


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": HIGH_CARD}


@pytest.fixture
async def maker(
    redis: Any, redis_url: str, games: Mapping[str, Any] | None, clock: Clock
) -> AsyncIterator[BotMaker]:
    made = BotMaker(redis_url, games, clock=clock, settings={"public_url": PUBLIC})
    yield made
    await made.close()


def link_buttons(message: SentMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("style") == 5]


async def test_pages_on_put_a_watch_link_on_the_table_message_and_off_take_it_away(
    h: DiscordHarness, maker: BotMaker
) -> None:
    moderator = h.create_user("mod", manage_guild=True)
    turned = await h.slash(moderator, "settings web", {"pages": "on"})
    assert turned.ephemeral and "tables get a Watch link" in (turned.content or "")
    users, message, table_id = await open_table(h, maker, players=2)
    watch = links.table(PUBLIC, h.guild.id, table_id)
    assert [(b["label"], b["url"]) for b in link_buttons(message)] == [("Watch", watch)]
    assert len(message.components) == 2, "the lobby's five buttons fill the first row"
    await h.slash(moderator, "settings web", {"pages": "off"})
    await h.click(users[0], message, button(message, "Start"))  # the message is drawn again
    assert link_buttons(message) == []
    await h.slash(moderator, "settings web", {"pages": "on"})
    await h.click(users[0], message, button(message, "My hand"))
    await maker.bot.announcer.refresh(await maker.bot.service.get(table_id))
    assert [b["url"] for b in link_buttons(message)] == [watch]


async def test_a_member_without_manage_server_cannot_turn_the_pages_on(
    h: DiscordHarness, maker: BotMaker
) -> None:
    member = h.create_user("pat")
    refused = await h.slash(member, "settings web", {"pages": "on"})
    assert refused.ephemeral
    assert refused.content == "Only members with Manage Server can change this server's settings."
    assert not (await SettingsStore(maker.bot.service.store.redis).guild(h.guild.id)).web
    _, message, _ = await open_table(h, maker, players=2)
    assert link_buttons(message) == []


async def test_no_public_address_no_watch_link(h: DiscordHarness, maker: BotMaker) -> None:
    maker.bot.flows.watch.public_url = None
    await h.slash(h.create_user("mod", manage_guild=True), "settings web", {"pages": "on"})
    _, message, _ = await open_table(h, maker, players=2)
    assert link_buttons(message) == []


async def test_the_setting_is_kept_a_short_while_and_never_links_a_table_outside_a_server(redis: Any) -> None:
    store = SettingsStore(redis)
    now = [0.0]
    watch = WatchLinks(store, PUBLIC, ttl=30, clock=lambda: now[0])
    record = TableRecord(
        id="abc", game="high-card", host_id=1, guild_id=5, created_at=0, updated_at=0, seed=1, turn_timeout=60
    )
    assert await watch.table(record) is None
    settings = await store.guild(5)
    settings.web = True
    await store.save_guild(settings)
    assert await watch.table(record) is None, "kept: another process's change is seen within the TTL"
    now[0] = 31.0
    assert await watch.table(record) == f"{PUBLIC}/g/5/t/abc"
    settings.web = False
    await store.save_guild(settings)
    watch.forget(5)  # as /settings web does in its own process
    assert await watch.table(record) is None
    settings.web = True
    await store.save_guild(settings)
    watch.forget(5)
    assert await watch.table(record.model_copy(update={"guild_id": None})) is None
    assert await watch.table(record.model_copy(update={"status": TableStatus.ABANDONED})) is None


async def test_a_public_address_too_long_for_a_link_button_gives_no_link(redis: Any) -> None:
    store = SettingsStore(redis)
    settings = await store.guild(5)
    settings.web = True
    await store.save_guild(settings)
    record = TableRecord(
        id="abc", game="high-card", host_id=1, guild_id=5, created_at=0, updated_at=0, seed=1, turn_timeout=60
    )
    assert await WatchLinks(store, PUBLIC).table(record) == f"{PUBLIC}/g/5/t/abc"
    long = "https://games.example.org/" + "x" * 500
    assert await WatchLinks(store, long).table(record) is None  # Discord refuses a url over 512
    assert await WatchLinks(store, long).tournament(5, "abc") is None


async def test_redis_away_when_a_message_is_drawn_gives_it_no_link_and_no_error(redis: Any) -> None:
    store = SettingsStore(redis)
    settings = await store.guild(5)
    settings.web = True
    await store.save_guild(settings)
    watch = WatchLinks(store, PUBLIC)
    record = TableRecord(
        id="abc", game="high-card", host_id=1, guild_id=5, created_at=0, updated_at=0, seed=1, turn_timeout=60
    )

    fault = inject(redis, "get")  # the settings read: a connection reset
    assert await watch.table(record) is None
    assert fault.hits == 1
    # Redis is back: the setting was not kept as off.
    assert await watch.table(record) == f"{PUBLIC}/g/5/t/abc"
