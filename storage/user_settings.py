"""Each player's own settings, across every server (``gt:user:ID:settings``):
what to be told by DM, and quiet hours in their own time zone."""

from __future__ import annotations

from collections.abc import Callable
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
    # One more at every save, so the copies kept at tables tell the newest (see bot.service.user_prefs).
    revision: int = 0

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


# KEYS the settings; ARGV what they held when read ('' for none), and what to write.
_SWAP = """
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""
RETRIES = 20


class SettingsBusy(Exception):
    """The player's settings kept changing under every attempt to save them."""


class UserSettingsStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._swap = redis.register_script(_SWAP)

    async def update(self, user_id: int, change: Callable[[UserSettings], UserSettings]) -> UserSettings:
        """Save ``change`` of the stored settings with compare-and-set, re-run on
        the fresh settings when another save came first: of two saves at once,
        neither is lost. Returns the settings saved, their revision one more."""
        key = settings_key(user_id)
        for _ in range(RETRIES):
            raw = await self.redis.get(key)
            current = UserSettings.model_validate_json(raw) if raw else UserSettings()
            saved = change(current).model_copy(update={"revision": current.revision + 1})
            if await self._swap(keys=[key], args=[raw or "", saved.model_dump_json()]):
                return saved
        raise SettingsBusy(user_id)

    async def get(self, user_id: int) -> UserSettings:
        raw = await self.redis.get(settings_key(user_id))
        return UserSettings.model_validate_json(raw) if raw else UserSettings()
