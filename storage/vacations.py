"""Each player's vacations, kept per user (``gt:user:ID:vacations``) so the
allowance — days of vacation per 30 days — holds across every server and table.
Written under WATCH, so two bot processes cannot both grant the last days."""

from __future__ import annotations

from pydantic import BaseModel, Field
from redis.asyncio import Redis
from redis.exceptions import WatchError

from storage import keys

DAY = 24 * 3600.0
WINDOW = 30 * DAY
ALLOWANCE_DAYS = 14


class Vacations(BaseModel):
    # [start, end] of each vacation taken in the last 30 days
    taken: list[tuple[float, float]] = Field(default_factory=list)

    def used(self, now: float) -> float:
        """Seconds of vacation taken in the 30 days before ``now``."""
        return sum(max(0.0, min(end, now) - max(start, now - WINDOW)) for start, end in self.taken)


class NoAllowance(Exception):
    def __init__(self, left_days: float) -> None:
        super().__init__(f"{left_days:.1f} days left")
        self.left_days = left_days


def vacations_key(user_id: int) -> str:
    return f"{keys.PREFIX}:user:{user_id}:vacations"


class VacationStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def get(self, user_id: int) -> Vacations:
        raw = await self.redis.get(vacations_key(user_id))
        return Vacations.model_validate_json(raw) if raw else Vacations()

    async def take(self, user_id: int, now: float, days: int) -> float:
        """Start a vacation of ``days`` (or lengthen the current one to that); its end.
        :class:`NoAllowance` when the last 30 days leave too few days."""
        key = vacations_key(user_id)
        while True:
            async with self.redis.pipeline() as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    held = Vacations.model_validate_json(raw) if raw else Vacations()
                    held.taken = [(s, min(e, now)) for s, e in held.taken if e > now - WINDOW]
                    left = ALLOWANCE_DAYS * DAY - held.used(now)
                    if days * DAY > left:
                        raise NoAllowance(left / DAY)
                    end = now + days * DAY
                    held.taken.append((now, end))
                    pipe.multi()
                    pipe.set(key, held.model_dump_json(), ex=int(WINDOW) + 60)
                    await pipe.execute()
                    return end
                except WatchError:
                    continue
