"""The host's pause: a paused table's clocks stop (no reminder, no timeout, no
move) until the host resumes it, and the table says so publicly."""

from __future__ import annotations

from bot.service import clocks
from bot.service.errors import NotHost, WrongStatus
from bot.service.tables import Outcome, TableService, _Play
from engines.core import Event
from storage.records import TableStatus

PAUSED = "⏸️ The host paused the table: the clocks are stopped."
RESUMED = "▶️ The host resumed the table: the clocks run again."


async def set_paused(
    service: TableService, table_id: str, user_id: int, paused: bool, *, moderator: bool = False
) -> Outcome:
    def change(play: _Play) -> None:
        record = play.record
        if record.status is not TableStatus.PLAYING:
            raise WrongStatus("Only a table in play can be paused or resumed.")
        if record.host_id != user_id and not moderator:
            raise NotHost("Only the host or a moderator with Manage Server can pause or resume this table.")
        if paused:
            clocks.pause(record, service.clock())
        else:
            clocks.resume(record, service.clock())
        play.events.append(Event(text=PAUSED if paused else RESUMED))

    # The one way in to a table change, shared with TableService: load, check, save with compare-and-set.
    return await service._change(table_id, change, kind="pause" if paused else "resume", seat_of=user_id)
