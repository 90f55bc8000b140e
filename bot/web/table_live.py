"""A table's page, as its live part: exactly what the public table message
shows — the public panel (:func:`~bot.service.table_panel.table_panel`, from
``view(state, None)``), its picture, and the public play-by-play (the log's
events told to no one in particular, never an action). The page holds this
part once; every update of its event stream is this part again."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup

from bot.service.errors import TableError
from bot.service.table_panel import table_panel
from bot.service.tablelog import shown
from bot.web import links
from bot.web.cards import named
from bot.web.markup import time_html, to_html, web_name
from bot.web.pictures import size
from bot.web.site import NotFound, Site
from engines.core import Seat, seat_ref
from storage.records import LogEntry, SeatRecord, TableRecord, TableStatus

# The play-by-play shows the newest entries, newest last; the replay has them all once the game is over.
LOG_SHOWN = 50
# Table ids are short lowercase letters and digits (a tournament's add "r1t2").
TABLE_ID = re.compile(r"[a-z0-9]{1,64}")


@dataclass(frozen=True)
class Field:
    name: Markup
    value: Markup
    inline: bool


@dataclass(frozen=True)
class Line:
    when: Markup
    text: Markup


def names(record: TableRecord) -> Callable[[Seat], str]:
    """A seat's name on the web: its display name as plain text (escaped later)."""

    def name(seat: Seat) -> str:
        return web_name(record.seats[seat].name) if 0 <= seat < len(record.seats) else f"Seat {seat + 1}"

    return name


def seat_refs(record: TableRecord) -> Callable[[SeatRecord], str]:
    """Occupants as seat references, so names are swapped in after the markdown
    (a name is never read as markdown)."""
    index = {id(seat): number for number, seat in enumerate(record.seats)}
    return lambda seat: seat_ref(index[id(seat)])


async def table_of(site: Site, guild_id: int, table_id: str) -> TableRecord:
    """The table the address names, if it belongs to ``guild_id``; else :class:`NotFound`
    (a DM table, another server's, an unknown or malformed id, a damaged one alike)."""
    if not TABLE_ID.fullmatch(table_id):
        raise NotFound
    try:
        record = await site.service.get(table_id)
    except TableError:
        raise NotFound from None
    if record.guild_id is None or record.guild_id != guild_id:
        raise NotFound
    return record


def title(site: Site, record: TableRecord) -> str:
    try:
        return site.service.engine(record.game).info.title + f" — table {record.id}"
    except TableError:
        raise NotFound from None


def alt_text(record: TableRecord) -> str:
    shown_now = f": {record.headline}" if record.headline else ""
    return f"A picture of the table{shown_now}. The panel beside it says the same in words."


def play_by_play(record: TableRecord, entries: list[LogEntry]) -> list[Line]:
    """The public events of ``entries``, an item per entry that has any (even
    after the end: the whole log is the replay's to show)."""
    name = names(record)
    lines = []
    for entry in entries:
        events = shown(entry, None, everything=False)["events"]
        texts = [str(e.get("text", "")) for e in events if e.get("text")]
        if texts:
            lines.append(Line(time_html(int(entry.at), "f"), to_html("\n".join(texts), name)))
    return lines


async def live_html(site: Site, record: TableRecord) -> Markup:
    """The page's live part for ``record`` as it is."""
    service, name = site.service, names(record)
    try:
        panel = table_panel(service, record, seat_refs(record))
        png = await site.pictures.table(service, record)
    except TableError:  # its game state does not read, or its game is gone
        raise NotFound from None
    engine = service.engine(record.game)
    shown_texts = [panel.description, *(f"{f.name}\n{f.value}" for f in panel.fields)]
    cards = named(engine.cards(engine.parse_options(record.options)), shown_texts)
    total, entries = await service.store.log_tail(record.id, LOG_SHOWN)
    assert record.guild_id is not None
    page = links.table("", record.guild_id, record.id)
    width, height = size(png) if png else (0, 0)
    html = site.templates.get_template("table_live.html").render(
        description=to_html(panel.description, name),
        fields=[Field(to_html(f.name, name), to_html(f.value, name), f.inline) for f in panel.fields],
        footer=to_html(panel.footer, name),
        picture=f"{page}/picture.png?v={record.version}" if png else "",
        width=width,
        height=height,
        alt=alt_text(record),
        replay=links.replay("", record.guild_id, record.id) if record.status is TableStatus.FINISHED else "",
        log=play_by_play(record, entries),
        earlier=total - len(entries),
        cards=[(card, to_html(card.text, name)) for card in cards],
    )
    return Markup(html)  # the template escaped every value
