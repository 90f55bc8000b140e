"""Saving a player's /settings: kept per user, and copied into every table in
play they sit at, so each table's clocks schedule their reminders by them.

Two saves at once lose neither: the settings are saved with compare-and-set
(each change re-run on the newest settings), and every save numbers them one
more (``revision``), so a table keeps the copy of the newest revision whatever
order the copies reach it in. A table that is over is left as it is."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.service import clocks
from bot.service.errors import StorageUnavailable, TableBusy, TableError
from bot.service.tables import TableService, _Play
from storage.user_settings import SettingsBusy, UserSettings, UserSettingsStore

log = logging.getLogger(__name__)


class _Newer(TableError):
    """The table already follows these settings or newer ones."""


async def own_prefs(service: TableService, user_id: int) -> dict[str, Any] | None:
    """The player's settings to copy into a table they sit down at (None: the defaults)."""
    mine = await UserSettingsStore(service.store.redis).get(user_id)
    return None if mine.model_copy(update={"revision": 0}) == UserSettings() else mine.model_dump()


async def save_settings(service: TableService, user_id: int, settings: UserSettings) -> int:
    """Store the settings; returns how many tables now follow them."""
    return (await update_settings(service, user_id, lambda _: settings))[1]


async def update_settings(
    service: TableService, user_id: int, change: Callable[[UserSettings], UserSettings]
) -> tuple[UserSettings, int]:
    """Store ``change`` of the player's settings (a :class:`TableError` it raises
    refuses it and changes nothing); the settings saved and how many tables follow them."""
    try:
        settings = await UserSettingsStore(service.store.redis).update(user_id, change)
    except SettingsBusy:
        raise TableBusy("Your settings are changing very often right now; please try again.") from None

    def follow(play: _Play) -> None:
        record = play.record
        if not record.status.active or record.seat_of(user_id) is None:
            raise TableError("over, or no longer seated")
        kept = record.clocks.prefs.get(user_id) or {}
        if kept.get("revision", 0) >= settings.revision:
            raise _Newer("a newer save got here first")
        record.clocks.prefs[user_id] = settings.model_dump()
        if record.clocks.due and record.clocks.paused_at is None:
            record.deadline = clocks.wake_up(record)

    followed = 0
    for record in await service.store.of_user(user_id):
        try:
            await service._change(record.id, follow, kind="settings", log=False)
            followed += 1
        except _Newer:
            followed += 1
        except TableError:
            continue  # over or unreadable meanwhile
        except StorageUnavailable:
            # The settings are saved: one table's copy that could not be written is
            # no reason to answer "not done" (it is not counted as followed).
            log.warning("table %s: user %s's settings were not copied to it", record.id, user_id)
    return settings, followed
