"""Telling a table what happened: the public message edited in place, the
play-by-play in the table's thread, private news by DM, pings for whoever the
game now waits for.

Private events go only to their seats' DMs. When a DM is refused (50007: the
user's DMs are closed) the player is pinged in the thread with no secret
content and asked to press "My hand".
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.tables import Outcome, TableService
from bot.ui.embeds import fit
from storage.records import TableRecord

if TYPE_CHECKING:
    from bot.ui.flows import Flows

log = logging.getLogger(__name__)
DMS_CLOSED = 50007
LINES_LIMIT = 1900


class Announcer:
    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.flows: Flows | None = None

    async def table_changed(self, outcome: Outcome, actor: int | None) -> None:
        """Everything the rest of the table must learn from ``outcome``.
        Each part is tried on its own: one failed send must not stop the others."""
        record = outcome.table
        for step in (
            self.refresh(record),
            self._log(outcome),
            self._private(outcome, actor),
            self._ping(outcome, actor),
        ):
            try:
                await step
            except discord.HTTPException:
                log.warning("could not tell table %s", record.id, exc_info=True)

    def _channel(self, channel_id: int | None) -> discord.PartialMessageable | None:
        return self.client.get_partial_messageable(channel_id) if channel_id else None

    async def refresh(self, record: TableRecord) -> None:
        """Edit the public table message in place."""
        channel = self._channel(record.channel_id)
        if channel is None or record.message_id is None or self.flows is None:
            return
        message: dict[str, Any] = self.flows.table_message(record)
        if message["view"] is discord.utils.MISSING:
            message["view"] = None
        try:
            await channel.get_partial_message(record.message_id).edit(**message)
        except discord.NotFound:
            log.info("table %s: its message is gone", record.id)

    async def _log(self, outcome: Outcome) -> None:
        record = outcome.table
        channel = self._channel(record.thread_id)
        lines = [self.service.text(record, e.text) for e in outcome.public_events]
        if channel is None or not lines:
            return
        for chunk in _chunks(lines):
            await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())

    async def _private(self, outcome: Outcome, actor: int | None) -> None:
        record = outcome.table
        for seat, occupant in enumerate(record.seats):
            if occupant.user_id is None or occupant.user_id == actor:
                continue
            lines = [self.service.text(record, e.text) for e in outcome.private_events(seat)]
            if lines:
                await self._dm(record, occupant.user_id, lines)

    async def _dm(self, record: TableRecord, user_id: int, lines: list[str]) -> None:
        try:
            dm = await self.client.create_dm(discord.Object(id=user_id))
            for chunk in _chunks([f"**Table {record.id}** ({record.game}):", *lines]):
                await dm.send(chunk)
        except discord.Forbidden as refused:
            if refused.code != DMS_CLOSED:
                raise
            channel = self._channel(record.thread_id or record.channel_id)
            if channel is not None:
                await channel.send(
                    f"<@{user_id}>, I could not DM you (your DMs are closed). Something happened that "
                    "only you can see — press **My hand** on the table message.",
                    allowed_mentions=discord.AllowedMentions(users=True),
                )

    async def _ping(self, outcome: Outcome, actor: int | None) -> None:
        record = outcome.table
        users = [record.seats[s].user_id for s in outcome.newly_awaited if s < len(record.seats)]
        wanted = [u for u in dict.fromkeys(users) if u is not None and u != actor]
        channel = self._channel(record.thread_id or record.channel_id)
        if not wanted or channel is None:
            return
        mentions = " ".join(f"<@{u}>" for u in wanted)
        await channel.send(
            fit(f"{mentions} — your move at table {record.id}.", 2000),
            allowed_mentions=discord.AllowedMentions(users=True),
        )


def _chunks(lines: list[str]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, LINES_LIMIT)
        if current and len(current) + 1 + len(line) > LINES_LIMIT:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
