"""The public table as a panel: what the table message shows, built once for
every face that shows it (the Discord embed, the web's live table page), so
the two can never say different things. Seat references stay in place; each
face swaps in names its own way."""

from __future__ import annotations

from collections.abc import Callable

from bot.render import Panel, PanelField, renderer_for
from bot.service.absence import vacation_note
from bot.service.clocks import time_left
from bot.service.tables import TableService
from engines.core import Seat
from storage.records import SeatRecord, TableRecord, TableStatus


def seat_lines(service: TableService, record: TableRecord, who: Callable[[SeatRecord], str]) -> str:
    """A line per seat: whose move it is, their clock, crown and bot marks.
    ``who`` writes an occupant (a mention in Discord, a name on the web)."""
    waiting: set[Seat] = set()
    if record.status is TableStatus.PLAYING:
        waiting = set(service.awaited(record))
    lines = []
    for index, seat in enumerate(record.seats):
        marks = " 👑" if seat.user_id == record.host_id else ""
        marks += " 🤖" if seat.bot else ""
        pointer = "▶️" if index in waiting else "▫️"
        clock = time_left(record, index) if index in waiting else ""
        clock += vacation_note(record, index, service.clock())
        lines.append(f"{pointer} {index + 1}. {who(seat)}{marks}{clock}")
    return "\n".join(lines) or "—"


def table_panel(service: TableService, record: TableRecord, who: Callable[[SeatRecord], str]) -> Panel:
    """The public table message's panel, from ``view(state, None)`` only."""
    engine = service.engine(record.game)
    panel = Panel()
    if record.status is TableStatus.LOBBY:
        low, high = engine.seat_range(engine.parse_options(record.options))
        panel.description = (
            f"Waiting for players ({len(record.seats)}/{high}, at least {low}). {engine.info.summary}"
        )
    elif record.state is not None:
        view = service.view(record, None)
        result = service.result(record)
        renderer = renderer_for(record.game)
        panel = renderer.result(result, view) if result is not None else renderer.table(view)
    if record.status is TableStatus.FINISHED:
        panel.description = "\n".join(filter(None, ["🏁 **Game over.**", panel.description]))
    if record.status is TableStatus.PLAYING and record.clocks.paused_at is not None:
        panel.description = "\n".join(
            filter(None, ["⏸️ **Paused by the host** — the clocks are stopped.", panel.description])
        )
    if record.status is TableStatus.ABANDONED:
        panel.description = "This table was abandoned."
    panel.title = f"{engine.info.title} — table {record.id}"
    panel.fields.insert(0, PanelField(name="Seats", value=seat_lines(service, record, who), inline=False))
    defaults = engine.parse_options({}).model_dump(mode="json")
    chosen = {k: v for k, v in record.options.items() if v != defaults.get(k)}
    if "deck" in chosen:
        chosen["deck"] = "custom"
    options = ", ".join(f"{k}={v}" for k, v in chosen.items())
    # No internal version here: nothing a player types takes it, and "v148" reads as a release.
    panel.footer = f"Table {record.id}" + (f" · {options}" if options else "")
    panel.footer += " · rated" if record.rated else ""
    panel.footer += f" · Rules: /rules game:{record.game}"
    return panel
