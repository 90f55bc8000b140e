"""Each player's own settings, across every server (``gt:user:ID:settings``):
what to be told by DM, and quiet hours in their own time zone."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel
from redis.asyncio import Redis

from storage import keys

Notify = Literal["turn", "reminders", "nothing"]


class UserSettings(BaseModel):
    notify: Notify = "reminders"  # turn: a DM each time the game waits for me, and the reminders
    zone: str = "UTC"
    quiet_from: int | None = None  # an hour, 0-23, in ``zone``
    quiet_to: int | None = None

    def quiet_start(self, at: float) -> float | None:
        """When the quiet window around ``at`` began, or None when ``at`` is not in one."""
        if self.quiet_from is None or self.quiet_to is None or self.quiet_from == self.quiet_to:
            return None
        local = datetime.fromtimestamp(at, zone(self.zone))
        start = local.replace(hour=self.quiet_from, minute=0, second=0, microsecond=0)
        if start > local:
            start -= timedelta(days=1)
        length = (self.quiet_to - self.quiet_from) % 24
        return start.timestamp() if local < start + timedelta(hours=length) else None


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def known_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def settings_key(user_id: int) -> str:
    return f"{keys.PREFIX}:user:{user_id}:settings"


class UserSettingsStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def get(self, user_id: int) -> UserSettings:
        raw = await self.redis.get(settings_key(user_id))
        return UserSettings.model_validate_json(raw) if raw else UserSettings()

    async def set(self, user_id: int, settings: UserSettings) -> None:
        await self.redis.set(settings_key(user_id), settings.model_dump_json())
