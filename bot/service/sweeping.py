"""The deadline sweeper: reminders, timeouts of late seats, and bot chains that
a change left to go on."""

from __future__ import annotations

import logging
import secrets

from bot.service import absence, clocks, undo
from bot.service.changes import Changes, Outcome, _Play
from bot.service.errors import TableDamaged, TableNotFound, WrongStatus
from engines.core import Event, seat_ref
from storage import keys
from storage.records import TableStatus
from storage.schedule import interleave

# One logger name for the whole table service, whichever part of it logs.
log = logging.getLogger("bot.service.tables")
# How long the sweeper leaves a table whose timeout failed before trying again,
# so a broken table can never hold the ones behind it.
RETRY_TIMEOUT_AFTER = 300.0
SWEEP_BATCH = 16  # due tables read from each bucket of the deadline index in one round


class Sweeping(Changes):
    """Time running out at tables, found through the deadline index."""

    async def expire(self, now: float | None = None) -> list[Outcome]:
        """Play the default action for every seat whose time has run out."""
        now = self.clock() if now is None else now
        outcomes: list[Outcome] = []
        seen: set[str] = set()
        # Each round reads a batch from every bucket still able to hold due
        # entries and takes them in turns, from a bucket picked at random so
        # that processes sweeping together start apart. Every due entry read is
        # acted on, rescheduled or removed, so the next read of its bucket
        # reaches the entries behind it: none can starve the others.
        first = secrets.randbelow(keys.BUCKETS)
        buckets: set[int] | None = None  # the first round reads them all
        while buckets is None or buckets:
            found = await self.store.deadlines.due(now, SWEEP_BATCH, buckets)
            fresh = {number: [t for t in ids if t not in seen] for number, ids in found.items()}
            # A bucket whose batch was full and brought news may hold more; one
            # all seen before is left to the process that holds those tables.
            buckets = {number for number, ids in found.items() if len(ids) >= SWEEP_BATCH and fresh[number]}
            for table_id in interleave(fresh, first):
                seen.add(table_id)
                if (token := await self.store.claim_due(table_id, now)) is None:
                    continue  # another process's sweeper has it, or saw to it
                try:
                    if (outcome := await self.expire_table(table_id, now)) is not None:
                        outcomes.append(outcome)
                finally:
                    await self.store.release_due(table_id, token)
        return outcomes

    async def expire_table(self, table_id: str, now: float) -> Outcome | None:
        """Time out one table's late seats; None when there was nothing to do
        (its deadline entry is then moved to the table's real deadline, or removed)."""
        try:
            # "clock": the sweeper's own entry (reminders, a paused bot chain going
            # on); each seat it times out gets its own "timeout" entry with the move.
            return await self._change(table_id, lambda p: self._time_out(p, now), kind="clock")
        except _NotDue as early:
            await self.store.reschedule(table_id, early.deadline)  # a stale index entry
        except (TableNotFound, TableDamaged, WrongStatus):
            await self.store.reschedule(table_id, None)  # gone, quarantined or over: nothing to time out
        except Exception:
            # One broken table must not hold up every other table's timeouts.
            log.exception("timeout failed table=%s", table_id)
            await self.store.reschedule(table_id, now + RETRY_TIMEOUT_AFTER)
        return None

    def _time_out(self, play: _Play, now: float) -> None:
        record = play.record
        if record.status is not TableStatus.PLAYING:
            raise WrongStatus("This table is not in play.")
        if record.deadline is None or record.deadline > now or record.clocks.paused_at is not None:
            raise _NotDue(record.deadline)
        engine = play.engine
        play.events += clocks.remind(record, now)
        for prompt in [p for p in engine.prompts(play.state) if p.awaited]:
            seat = prompt.seat
            if record.seats[seat].bot or all(p.seat != seat for p in engine.prompts(play.state)):
                continue
            if not clocks.late(record, seat, now):
                continue
            action = engine.default_action(play.state, seat)
            transition = engine.apply(play.state, seat, action, in_place=True)
            notice = Event(text=f"{seat_ref(seat)} ran out of time; the table played for them.")
            self._record(play, seat, action, transition.state, [notice, *transition.events], kind="timeout")
            play.events += absence.timed_out(record, seat, play.notices)
            play.events += undo.forget(record, "a timeout", now)
        self._advance(play)


class _NotDue(Exception):
    """The deadline index ran ahead of the table: its real deadline is ``deadline``."""

    def __init__(self, deadline: float | None) -> None:
        super().__init__(f"due at {deadline}")
        self.deadline = deadline
