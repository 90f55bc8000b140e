"""``/tables``: every table a player sits at, across servers and channels —
the tables waiting for their move first, then the rest by the time left.
Read through the per-user index (one set of table ids per user), never a scan."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import TableError
from bot.tables import TableService
from storage.records import TableRecord, TableStatus


@dataclass(frozen=True)
class MyTable:
    record: TableRecord
    title: str
    your_move: bool
    due: float | None  # when the player's (or else the table's) time runs out
    phase: str

    @property
    def link(self) -> str | None:
        r = self.record
        if r.guild_id is None or r.channel_id is None or r.message_id is None:
            return None
        return f"https://discord.com/channels/{r.guild_id}/{r.channel_id}/{r.message_id}"


async def my_tables(service: TableService, user_id: int) -> list[MyTable]:
    found = []
    for record in await service.store.of_user(user_id):
        seat = record.seat_of(user_id)
        try:
            awaited = service.awaited(record)
            phase = service.text(record, service.view(record, None).headline) if record.state else ""
        except TableError:
            continue  # a table that cannot be read is named by /table status, not here
        if record.status is TableStatus.LOBBY:
            phase = "waiting for players"
        elif record.clocks.paused_at is not None:
            phase = f"paused · {phase}" if phase else "paused"
        mine = seat is not None and seat in awaited
        due = record.clocks.due.get(seat) if mine and seat is not None else record.deadline
        title = service.engine(record.game).info.title
        found.append(MyTable(record, title, mine, due, phase))
    found.sort(key=lambda t: (not t.your_move, t.due if t.due is not None else float("inf")))
    return found
