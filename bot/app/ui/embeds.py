"""Panels and tables as Discord embeds, always within Discord's limits.

Every string passes through :func:`fit` (names swapped in, then cut to the
limit), and :func:`to_embed` keeps the whole embed under 6000 characters by
dropping the last fields first — a long game never turns into a failed send.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.render import Panel, PanelField, renderer_for
from bot.render.base import DESCRIPTION_MAX, FIELD_MAX, FOOTER_MAX, MAX_FIELDS, NAME_MAX, TITLE_MAX, fit
from bot.service.absence import vacation_note
from bot.service.clocks import time_left
from bot.service.tables import TableService
from engines.core import Seat
from storage.records import TableRecord, TableStatus

COLOURS = {
    TableStatus.LOBBY: discord.Colour.blurple(),
    TableStatus.PLAYING: discord.Colour.green(),
    TableStatus.FINISHED: discord.Colour.gold(),
    TableStatus.ABANDONED: discord.Colour.dark_grey(),
}
EMBED_TOTAL = 6000


def shown_name(text: str) -> str:
    """A name as public messages and log lines show it: no mass mentions, no markdown tricks."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def to_embed(panel: Panel, name: Callable[[str], str], colour: discord.Colour | None = None) -> discord.Embed:
    """``name`` turns engine text (with ``<seat:N>``) into display text."""
    embed = discord.Embed(
        title=fit(name(panel.title), TITLE_MAX) or None,
        description=fit(name(panel.description), DESCRIPTION_MAX) or None,
        colour=colour,
    )
    for item in panel.fields[:MAX_FIELDS]:
        embed.add_field(
            name=fit(name(item.name), NAME_MAX) or "—",
            value=fit(name(item.value), FIELD_MAX) or "—",
            inline=item.inline,
        )
    if panel.footer:
        embed.set_footer(text=fit(name(panel.footer), FOOTER_MAX))
    while len(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > EMBED_TOTAL and embed.description:
        embed.description = fit(
            embed.description, max(1, len(embed.description) - (len(embed) - EMBED_TOTAL))
        )
    return embed


def seat_lines(service: TableService, record: TableRecord) -> str:
    waiting: set[Seat] = set()
    if record.status is TableStatus.PLAYING:
        waiting = set(service.awaited(record))
    lines = []
    for index, seat in enumerate(record.seats):
        marks = " 👑" if seat.user_id == record.host_id else ""
        marks += " 🤖" if seat.bot else ""
        pointer = "▶️" if index in waiting else "▫️"
        who = f"<@{seat.user_id}>" if seat.user_id is not None else seat.name
        clock = time_left(record, index) if index in waiting else ""
        clock += vacation_note(record, index, service.clock())
        lines.append(f"{pointer} {index + 1}. {who}{marks}{clock}")
    return "\n".join(lines) or "—"


def table_embed(service: TableService, record: TableRecord) -> discord.Embed:
    """The public table message."""
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
    panel.fields.insert(0, PanelField(name="Seats", value=seat_lines(service, record), inline=False))
    defaults = engine.parse_options({}).model_dump(mode="json")
    chosen = {k: v for k, v in record.options.items() if v != defaults.get(k)}
    if "deck" in chosen:
        chosen["deck"] = "custom"
    options = ", ".join(f"{k}={v}" for k, v in chosen.items())
    # No internal version here: nothing a player types takes it, and "v148" reads as a release.
    panel.footer = f"Table {record.id}" + (f" · {options}" if options else "")
    panel.footer += " · rated" if record.rated else ""
    panel.footer += f" · Rules: /rules game:{record.game}"
    return to_embed(panel, lambda text: service.text(record, text), COLOURS[record.status])


def hand_embed(service: TableService, record: TableRecord, user_id: int, note: str = "") -> discord.Embed:
    """A seat's private view, for an ephemeral reply only."""
    view = service.view(record, user_id)
    panel = renderer_for(record.game).hand(view)
    prompts = [p.text for p in service.prompts(record) if p.seat == record.seat_of(user_id) and p.awaited]
    if prompts:
        panel.description = "\n".join(filter(None, [f"**Your move:** {prompts[0]}", panel.description]))
    if note:
        panel.description = "\n".join(filter(None, [note, panel.description]))
    panel.footer = f"Table {record.id} · only you can see this"
    return to_embed(panel, lambda text: service.text(record, text), discord.Colour.dark_teal())
