"""Several bot processes on one Redis share the deadline index: each late
table is timed out by exactly one of them, and none does another's work."""

from __future__ import annotations

import asyncio
from collections import Counter

from redis.asyncio import Redis

from bot.service.tables import Outcome, Player, TableService
from storage.store import TableStore
from tests.support.clock import Clock
from tests.support.minigame import HIGH_CARD

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


class Worked(TableService):
    """A service that notes every table whose timeout it computed."""

    def __init__(self, redis: Redis, clock: Clock) -> None:
        super().__init__(TableStore(redis), clock=clock, turn_timeout=60, games={"high-card": HIGH_CARD})
        self.worked: list[str] = []

    async def expire_table(self, table_id: str, now: float) -> Outcome | None:
        self.worked.append(table_id)
        await asyncio.sleep(0)  # let the other process run in between
        return await super().expire_table(table_id, now)


async def test_two_processes_time_out_each_late_table_once(redis: Redis, redis_url: str) -> None:
    clock = Clock(1000.0)
    first = Worked(redis, clock)
    other_client = Redis.from_url(redis_url) if "+cluster" not in redis_url else redis
    second = Worked(other_client, clock)
    late = []
    for n in range(12):
        table = await first.create("high-card", ANN, channel_id=100 + n, guild_id=n, seed=n)
        await first.join(table.id, BOB)
        late.append((await first.start(table.id, ANN.user_id)).table.id)
    clock.now += 61

    told = await asyncio.gather(first.expire(), second.expire())

    timed_out = Counter(o.table.id for outcomes in told for o in outcomes)
    assert timed_out == Counter({table_id: 1 for table_id in late})
    assert not set(first.worked) & set(second.worked)  # nobody computed another's timeout
    assert sorted(first.worked + second.worked) == sorted(late)
    for table_id in late:
        kinds = [entry.kind for entry in await first.store.log(table_id)]
        assert kinds.count("timeout") == 1
    if other_client is not redis:
        await other_client.aclose()
