"""Server settings chosen through ``/settings``, kept per guild in Redis.

One JSON record per guild (``gt:{guild:ID}:settings``) with a schema version;
fields are added with defaults, so an older record loads as it is, and a
record that no longer validates falls back to the defaults with a log line
rather than breaking every command of its server. Settings of one user will
sit beside these under their own key (``gt:{user:ID}:settings``) the same way.
"""

from __future__ import annotations

import logging

from pydantic import BaseModel, ValidationError
from redis.asyncio import Redis

from storage import keys

log = logging.getLogger(__name__)
SCHEMA = 1


class GuildSettings(BaseModel):
    schema_version: int = SCHEMA
    guild_id: int
    # Members with this role may run tournaments, besides those with Manage Server.
    organiser_role_id: int | None = None
    # Whether this server's tables, tournaments and players have web pages (off until turned on).
    web: bool = False


def guild_settings_key(guild_id: int) -> str:
    return f"{keys.PREFIX}:{{guild:{guild_id}}}:settings"


class SettingsStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def guild(self, guild_id: int) -> GuildSettings:
        raw = await self.redis.get(guild_settings_key(guild_id))
        if raw is None:
            return GuildSettings(guild_id=guild_id)
        try:
            return GuildSettings.model_validate_json(raw)
        except ValidationError:
            log.error("guild %s: settings do not validate; using the defaults", guild_id, exc_info=True)
            return GuildSettings(guild_id=guild_id)

    async def save_guild(self, settings: GuildSettings) -> None:
        await self.redis.set(guild_settings_key(settings.guild_id), settings.model_dump_json())
