"""Saving a player's /settings: kept per user, and copied into every table they
sit at, so each table's clocks schedule their reminders by them."""

from __future__ import annotations

from typing import Any

from bot import clocks
from bot.errors import TableError
from bot.tables import TableService, _Play
from storage.user_settings import UserSettings, UserSettingsStore


async def own_prefs(service: TableService, user_id: int) -> dict[str, Any] | None:
    """The player's settings to copy into a table they sit down at (None: the defaults)."""
    mine = await UserSettingsStore(service.store.redis).get(user_id)
    return None if mine == UserSettings() else mine.model_dump()


async def save_settings(service: TableService, user_id: int, settings: UserSettings) -> int:
    """Store the settings; returns how many tables now follow them."""
    await UserSettingsStore(service.store.redis).set(user_id, settings)

    def follow(play: _Play) -> None:
        record = play.record
        if record.seat_of(user_id) is None:
            raise TableError("not seated")
        record.clocks.prefs[user_id] = settings.model_dump()
        if record.clocks.due and record.clocks.paused_at is None:
            record.deadline = clocks.wake_up(record)

    followed = 0
    for record in await service.store.of_user(user_id):
        try:
            await service._change(record.id, follow, kind="settings", log=False)
            followed += 1
        except TableError:
            continue  # over or unreadable meanwhile
    return followed
