"""Through Discord: a custom deck file attached to /table create, and the
deadline sweeper playing for a seat whose time ran out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storage import keys
from tests.e2e.entities import User
from tests.e2e.games import public_texts
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, embed_text
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

SPHERES_DECK = Path(__file__).parents[2] / "engines" / "spheres_of_life" / "cards.toml"


async def test_a_table_plays_with_a_custom_deck_file(h: DiscordHarness, maker: BotMaker) -> None:
    ann = h.create_user("ann")
    text = SPHERES_DECK.read_text().replace('name = "Noble Rabbit"', 'name = "Noble Hare"')
    created = await h.slash(
        ann, "table create", {"game": "spheres-of-life", "deck": h.upload("mine.toml", text)}
    )
    assert created.message is not None and not created.ephemeral
    assert "deck=custom" in embed_text(created.message)
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    assert "Noble Hare" in str(table.options["deck"])


async def test_a_bad_deck_file_is_refused_in_one_sentence(h: DiscordHarness) -> None:
    ann = h.create_user("ann")
    broken = await h.slash(
        ann, "table create", {"game": "spheres-of-life", "deck": h.upload("x.toml", "name = ")}
    )
    assert broken.ephemeral and "not valid TOML" in (broken.content or "")
    wrong = await h.slash(
        ann, "table create", {"game": "spheres-of-life", "deck": h.upload("y.toml", "cards = 3")}
    )
    assert wrong.ephemeral and (wrong.content or "").startswith("Bad option")


async def _live_table(h: DiscordHarness) -> tuple[User, User]:
    """Ann and Bob start a live table of high card; Ann is to move."""
    ann, bob = h.create_user("ann"), h.create_user("bob")
    created = await h.slash(ann, "table create", {"game": "high-card", "pace": "live"})
    message = created.message
    assert message is not None
    await h.click(bob, message, button(message, "Join"))
    await h.click(ann, message, button(message, "Start"))
    return ann, bob


async def test_the_sweeper_plays_for_a_late_seat(redis: Any, redis_url: str, clock: Clock) -> None:
    maker = BotMaker(redis_url, games={"high-card": HIGH_CARD}, clock=clock)
    h = DiscordHarness(maker)
    await h.start()
    try:
        _, bob = await _live_table(h)
        clock.now += 299
        await maker.bot.sweep_once()
        assert not any("ran out of time" in t for t in public_texts(h))
        clock.now += 2  # past the five minutes of a live table
        await maker.bot.sweep_once()
        await h.settle()
        assert any("ann ran out of time; the table played for them." in t for t in public_texts(h))
        assert any(f"<@{bob.id}>" in t and "your move" in t for t in public_texts(h)), "bob is pinged next"
    finally:
        await h.close()
        await maker.close()


async def test_a_bot_upgraded_from_one_deadline_key_sweeps_what_it_holds(
    redis: Any, redis_url: str, clock: Clock
) -> None:
    maker = BotMaker(redis_url, games={"high-card": HIGH_CARD}, clock=clock)
    h = DiscordHarness(maker)
    await h.start()
    try:
        await _live_table(h)
        store = maker.bot.service.store
        [table] = await store.in_channel(h.channel.id)
        # Where an earlier version kept every table's deadline: one key.
        await redis.zrem(keys.deadlines(table.id), table.id)
        await redis.zadd(keys.LEGACY_DEADLINES, {table.id: table.deadline})
        await redis.zadd(keys.LEGACY_TOURNAMENTS_DUE, {"cup": 5.0})  # and the tournaments with work due
        await maker.bot.adopt_legacy_schedules()  # what the bot does as its sweeper starts
        assert not await redis.exists(keys.LEGACY_DEADLINES, keys.LEGACY_TOURNAMENTS_DUE)
        assert await maker.bot.desk.tournaments.store.due_index.at("cup") == 5.0
        assert await store.deadlines.at(table.id) == table.deadline
        clock.now += 301
        await maker.bot.sweep_once()
        await h.settle()
        assert any("ann ran out of time; the table played for them." in t for t in public_texts(h))
    finally:
        await h.close()
        await maker.close()
