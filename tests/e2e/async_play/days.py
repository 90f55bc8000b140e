"""Playing a table across simulated days through Discord, for the tests of
asynchronous play: the clock moved on and the sweeper run, the reminders a user
was sent, a move of ann's, and tables in two servers."""

from __future__ import annotations

from typing import Any

from bot.service.clocks import DAY
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button
from tests.support.clock import Clock


def reminders(h: DiscordHarness, user: Any) -> list[str]:
    return [m.content for m in h.dms(user) if "⏰" in (m.content or "")]


async def sweep(h: DiscordHarness, maker: BotMaker, clock: Clock, days: float) -> None:
    clock.now += days * DAY
    await maker.bot.sweep_once()
    await maker.bot.drain_once()
    await h.settle()


async def sweep_to(h: DiscordHarness, maker: BotMaker, clock: Clock, at: float) -> None:
    await sweep(h, maker, clock, (at - clock.now) / DAY)


async def ann_plays(h: DiscordHarness, maker: BotMaker, table_id: str, ann: Any) -> int:
    record = await maker.bot.service.get(table_id)
    card = maker.bot.service.view(record, ann.id).hand[0]  # type: ignore[attr-defined]
    await h.slash(ann, "play", {"action": f"play:{card}"})
    return int(card)


async def tables_in_two_servers(
    h: DiscordHarness, maker: BotMaker, here: tuple[Any, Any], there: tuple[Any, Any], pace: str
) -> list[tuple[Any, Any]]:
    """A started High Card table in the harness's server and one in another, each
    ``(host, guest)``; returns each table's record and message."""
    other = h.create_guild("Other")
    for user in {*here, *there}:
        h.add_member(other, user)
    await h.settle()
    tables = []
    for (host, guest), guild in ((here, h.guild), (there, other)):
        created = await h.slash(host, "table create", {"game": "high-card", "pace": pace}, guild=guild)
        message = created.message
        assert message is not None
        await h.click(guest, message, button(message, "Join"), channel=guild.channels[0])
        await h.click(host, message, button(message, "Start"), channel=guild.channels[0])
        [record] = await maker.bot.service.store.in_guild(guild.id)
        tables.append((record, message))
    return tables
