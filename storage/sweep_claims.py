"""The sweepers' claims on due tables: several processes share one deadline
index (:mod:`storage.schedule`), and each due table is worked on by one of them."""

from __future__ import annotations

import secrets

from storage import keys
from storage.schedule import interleave
from storage.table_reads import TableReads

SWEEP_LEASE_MS = 60_000


class SweepClaims(TableReads):
    """Due tables, and who is timing each one out."""

    async def due(self, now: float, per_bucket: int = 100) -> list[str]:
        """Ids of tables whose deadline passed: in each bucket of the deadline
        index the (at most ``per_bucket``) that passed longest ago, taken in
        turns (see :mod:`storage.schedule`). Whoever reads them must act on,
        reschedule or unschedule each one (see :meth:`reschedule`), or they
        would hide the tables behind them."""
        return interleave(await self.deadlines.due(now, per_bucket))

    async def claim_due(self, table_id: str, now: float, ms: int = SWEEP_LEASE_MS) -> str | None:
        """Take a due table for this process's sweeper (a token), or ``None``
        while another process's sweeper has it or it is no longer due (another
        sweeper saw to it since this one read the index): several processes
        share one deadline index, and each due table is worked on by one of them."""
        token = secrets.token_hex(8)
        if not await self.redis.set(sweep_key(table_id), token, nx=True, px=ms):
            return None
        due = await self.deadlines.at(table_id)
        if due is None or due > now:
            await self.release_due(table_id, token)
            return None
        return token

    async def release_due(self, table_id: str, token: str) -> None:
        await self._release(keys=[sweep_key(table_id)], args=[token])

    async def reschedule(self, table_id: str, at: float | None) -> None:
        """Set a table's place in the deadline index, or take it out (``at=None``)."""
        if at is None:
            await self.deadlines.remove(table_id)
        else:
            await self.deadlines.set(table_id, at)


def sweep_key(table_id: str) -> str:
    # Which process's sweeper is timing the table out (see TableStore.claim_due).
    return f"{keys.table(table_id)}:sweep"
