"""Panels and tables as Discord embeds, always within Discord's limits.

Every string passes through :func:`fit` (names swapped in, then cut to the
limit), and :func:`to_embed` keeps the whole embed under 6000 characters by
dropping the last fields first — a long game never turns into a failed send.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.render import Panel, renderer_for
from bot.render.base import DESCRIPTION_MAX, FIELD_MAX, FOOTER_MAX, MAX_FIELDS, NAME_MAX, TITLE_MAX, fit
from bot.service.table_panel import table_panel
from bot.service.tables import TableService
from storage.records import SeatRecord, TableRecord, TableStatus

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


def mention(seat: SeatRecord) -> str:
    return f"<@{seat.user_id}>" if seat.user_id is not None else seat.name


def table_embed(service: TableService, record: TableRecord) -> discord.Embed:
    """The public table message."""
    panel = table_panel(service, record, mention)
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
