"""Two `/settings me` at once lose neither: the stored settings keep both
changes, and every table the player sits at ends with the newest copy, however
the two saves' copies interleave (two processes on one Redis)."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis

from bot.service.tables import TableService
from bot.service.user_prefs import save_settings, update_settings
from storage.records import TableRecord
from storage.store import TableStore
from storage.user_settings import UserSettings, UserSettingsStore
from tests.support.clock import Clock
from tests.support.service import ANN, BOB, high_card_service, high_card_table


async def tables_of_ann(service: TableService, count: int) -> list[str]:
    return [await high_card_table(service, ANN, BOB) for _ in range(count)]


async def test_a_slow_save_never_puts_older_settings_over_a_newer_one(redis: Redis) -> None:
    first, second = (high_card_service(TableStore(redis), Clock(1000.0)) for _ in range(2))
    ids = await tables_of_ann(first, 20)
    # The first process saves, then stalls before copying into the tables; the
    # second saves after it and copies everywhere; then the first goes on.
    saved, go_on = asyncio.Event(), asyncio.Event()
    real_of_user = first.store.of_user

    async def stalled(user_id: int) -> list[TableRecord]:
        found = await real_of_user(user_id)
        saved.set()
        await go_on.wait()
        return found

    first.store.of_user = stalled  # type: ignore[method-assign]
    older = asyncio.create_task(save_settings(first, ANN.user_id, UserSettings(notify="turn")))
    await saved.wait()
    assert await save_settings(second, ANN.user_id, UserSettings(notify="nothing")) == 20
    go_on.set()
    assert await older == 20, "its tables follow the settings, the newer ones"
    stored = await UserSettingsStore(redis).get(ANN.user_id)
    assert stored.notify == "nothing"
    for table_id in ids:
        kept = (await first.get(table_id)).clocks.prefs[ANN.user_id]
        assert kept == stored.model_dump()


async def test_two_changes_at_once_both_stay(redis: Redis) -> None:
    first, second = (high_card_service(TableStore(redis), Clock(1000.0)) for _ in range(2))
    ids = await tables_of_ann(first, 10)

    def notify(mine: UserSettings) -> UserSettings:
        return mine.model_copy(update={"notify": "turn"})

    def quiet(mine: UserSettings) -> UserSettings:
        return mine.model_copy(update={"zone": "Europe/Paris", "quiet_from": 22, "quiet_to": 7})

    results: list[Any] = await asyncio.gather(
        update_settings(first, ANN.user_id, notify), update_settings(second, ANN.user_id, quiet)
    )
    assert sorted(saved.revision for saved, _ in results) == [1, 2]
    stored = await UserSettingsStore(redis).get(ANN.user_id)
    assert (stored.notify, stored.zone, stored.quiet_from, stored.quiet_to) == ("turn", "Europe/Paris", 22, 7)
    for table_id in ids:
        assert (await first.get(table_id)).clocks.prefs[ANN.user_id] == stored.model_dump()


async def test_a_table_storage_could_not_write_leaves_the_saved_settings_told_as_saved(redis: Redis) -> None:
    # The settings are saved before they are copied into the tables: a table whose
    # copy cannot be written is skipped, never the whole change answered as failed.
    from bot.service.errors import StorageUnavailable

    service = high_card_service(TableStore(redis), Clock(1000.0))
    ids = await tables_of_ann(service, 3)
    real_change = service._change

    async def failing_once(table_id: str, *args: Any, **kwargs: Any) -> Any:
        if table_id == ids[0]:
            raise StorageUnavailable()
        return await real_change(table_id, *args, **kwargs)

    service._change = failing_once  # type: ignore[method-assign]
    assert await save_settings(service, ANN.user_id, UserSettings(notify="nothing")) == 2
    assert (await UserSettingsStore(redis).get(ANN.user_id)).notify == "nothing"
