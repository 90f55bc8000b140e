"""The terminal's own tables: planning the seats of a new one, listing the
unfinished ones kept between games, abandoning one, and writing a table's log
to files.

Terminal tables are those of the pseudo-user :data:`TERMINAL_HOST`, found
through the store's index of each user's tables; Discord user ids are
snowflakes far above the terminal's small seat numbers, so the two never mix.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.service.errors import TableError
from bot.service.tablelog import log_files
from bot.service.tables import TableService
from engines.core import Engine, IllegalAction
from storage.records import TableRecord, TableStatus

TERMINAL_HOST = 1  # the user id of "Player 1"; "Player n" is user n


@dataclass(frozen=True)
class Seating:
    seats: int
    bots: int

    @property
    def humans(self) -> int:
        return self.seats - self.bots


def plan_seating(
    engine: Engine[Any, Any], options: Mapping[str, Any], seats: int | None, bots: int
) -> Seating:
    """Check the seat counts against the game before any table is created."""
    try:
        parsed = engine.parse_options(options)
    except IllegalAction as refusal:
        raise TableError(refusal.reason) from None
    low, high = engine.seat_range(parsed)
    if bots < 0:
        raise TableError("--bots cannot be negative.")
    total = seats if seats is not None else max(low, bots + 1)
    if not low <= total <= high:
        raise TableError(
            f"{engine.info.title} seats {low}–{high} players, so --seats {total} is not possible."
        )
    if bots >= total:
        raise TableError(f"Leave at least one seat for a person: --bots must be below {total} seats.")
    return Seating(seats=total, bots=bots)


def local_table(record: TableRecord) -> bool:
    """A table this terminal opened (not one of a Discord channel)."""
    return record.host_id == TERMINAL_HOST and record.channel_id is None and record.guild_id is None


async def terminal_record(service: TableService, table_id: str) -> TableRecord:
    """The terminal table ``table_id``, or a refusal that says why not."""
    record = await service.get(table_id.strip().lower())
    if not local_table(record):
        raise TableError(f"Table {record.id} is played on Discord, not at this terminal.")
    return record


async def unfinished(service: TableService) -> list[TableRecord]:
    return [
        r for r in await service.store.of_user(TERMINAL_HOST)
        if local_table(r) and r.status is TableStatus.PLAYING
    ]  # fmt: skip


async def listing(service: TableService, kept_in: str) -> list[str]:
    """The unfinished tables of this terminal, oldest first, and where they live."""
    found = await unfinished(service)
    lines = [f"Terminal tables are kept in {kept_in}."]
    if not found:
        return [*lines, "No unfinished tables here. Start one with: gametable play <game>"]
    for record in found:
        engine = service.games.get(record.game)
        title = engine.info.title if engine is not None else record.game
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.updated_at))
        names = ", ".join(seat.name for seat in record.seats)
        lines.append(f"{record.id}  {title} — {names} — last move {when}")
    return [
        *lines,
        "Resume one with: gametable play --resume <id>; give one up with: gametable play --abandon <id>",
    ]


async def abandon(service: TableService, table_id: str) -> str:
    """Give up an unfinished terminal table; what to tell the player."""
    record = await terminal_record(service, table_id)
    if not record.status.active:
        raise TableError(f"Table {record.id} is {record.status.value} already.")
    await service.abandon(record.id, record.host_id)
    return f"Table {record.id} is abandoned; its log stays readable: gametable log {record.id}"


async def write_log(service: TableService, table_id: str, folder: Path) -> tuple[TableRecord, list[Path]]:
    """The table's log files, as ``/table log`` gives them: JSON lines (for
    ``gametable replay``) and text. While the game is on, the public log only —
    the files may be read by anyone at the keyboard; once it is over, all of it."""
    record = await terminal_record(service, table_id)
    engine = service.engine(record.game)
    files = log_files(record, engine, await service.store.log(record.id))
    written = []
    for ext, text in (("jsonl", files.jsonl), ("txt", files.text)):
        path = folder / f"{files.name}.{ext}"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return record, written
