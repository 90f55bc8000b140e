"""The DM a player who asked for it (/settings: "a DM on my turn") gets when a
game starts waiting for them — never in their quiet hours, and never a secret:
only the table's name and a link to it."""

from __future__ import annotations

import discord

from storage.records import TableRecord
from storage.user_settings import UserSettingsStore

DMS_CLOSED = 50007


async def turn_dm(
    client: discord.Client,
    settings: UserSettingsStore,
    record: TableRecord,
    user_id: int,
    now: float,
    title: str = "",
) -> None:
    """``title``: the game's name as players know it ("Spheres of Life"), else its key."""
    mine = await settings.get(user_id)
    if mine.notify != "turn" or mine.quiet_start(now) is not None:
        return
    where = (
        f" https://discord.com/channels/{record.guild_id}/{record.channel_id}/{record.message_id}"
        if record.guild_id and record.channel_id and record.message_id
        else ""
    )
    try:
        dm = await client.create_dm(discord.Object(id=user_id))
        await dm.send(f"Your move at table {record.id} ({title or record.game}).{where}")
    except discord.Forbidden as refused:
        if refused.code != DMS_CLOSED:
            raise
        # DMs closed: the thread ping that goes with every turn already told them.
