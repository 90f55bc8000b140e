""" "What happened since your last move": the start of a player's private view,
so someone back after two days catches up in one look. Public events and the
seat's own private ones, read from the tail of the table's log."""

from __future__ import annotations

from bot.service.tables import TableService
from engines.core import Event
from engines.words import plural
from storage.records import TableRecord

LOOKBACK = 60  # log entries read: the catch-up is a glance, not the log
LINES = 8


async def since_last_move(service: TableService, record: TableRecord, user_id: int) -> str:
    seat = record.seat_of(user_id)
    if seat is None or seat not in record.acted_at:
        return ""
    moved = record.acted_at[seat] + 1  # the version the seat's last move wrote
    lines = []
    for entry in await service.store.log(record.id, -LOOKBACK, -1):
        if entry.version <= moved:
            continue
        for raw in entry.events:
            event = Event.model_validate(raw)
            if event.kind != "reminder" and (event.to is None or seat in event.to):
                lines.append(service.text(record, event.text))
    if not lines:
        return ""
    shown = lines[-LINES:]
    more = f"…and {plural(len(lines) - LINES, 'earlier line')} (/table log)\n" if len(lines) > LINES else ""
    return "**Since your last move:**\n" + more + "\n".join(f"• {line}" for line in shown)
