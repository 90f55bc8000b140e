"""The table lists, a page at a time: ``/tables`` (the caller's own tables, in
every server) and ``/table list`` (this channel's). A page is one read of the
store's list (:mod:`storage.listing`); Previous and Next carry the rank the
page starts at, so they work after a restart and for whoever presses them:
each press shows the presser's own list, or the list of the channel pressed in."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.hosting import host_of
from bot.app.ui.answer import guarded, reply, update
from bot.app.ui.embeds import fit
from bot.service.my_tables import PAGE_SIZE as MINE_SIZE
from bot.service.my_tables import MyTable, last_page, my_tables, title_of
from bot.service.policy import names
from bot.service.tables import TableService
from engines.words import plural
from storage.listing import Entry, Page

Interaction = discord.Interaction[Any]
HERE_SIZE = 15  # short lines: well inside a message's 2000 characters
NOT_SEATED = "You are not at any table. Create one with /table create."
NONE_HERE = "No open tables here. Start one with /table create."


def table_line(table: MyTable) -> str:
    entry = table.entry
    parts = [f"**{table.title}** `{entry.id}`", "🟢 **your move**" if table.your_move else "waiting"]
    if table.due is not None and not entry.paused:
        parts.append(f"⏳ <t:{int(table.due)}:R>")
    if table.phase:
        parts.append(fit(table.phase, 60))
    if table.link:
        parts.append(f"[jump]({table.link})")
    return " · ".join(parts)


def here_line(service: TableService, entry: Entry) -> str:
    seats = plural(entry.seats, "seat")
    return f"{entry.id} — {title_of(service, entry.game)}, {entry.status.value}, {seats}"


def page_buttons(kind: str, page: Page, size: int) -> discord.ui.View | None:
    """Previous and Next, when the list is longer than a page."""
    if page.start == 0 and not page.more:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, max(0, page.start - size), "prev", disabled=page.start == 0))
    view.add_item(PageButton(kind, page.start + size, "next", disabled=not page.more))
    return view


def page_note(page: Page, size: int) -> str:
    pages = max(1, -(-page.total // size))
    return f"Page {page.start // size + 1} of {pages}" if pages > 1 else ""


async def mine(service: TableService, user_id: int, start: int) -> dict[str, Any]:
    """The message of a page of the user's tables (an embed, or a sentence when there are none)."""
    found = await my_tables(service, user_id, start)
    page = found.page
    if not found.tables:
        return {"content": NOT_SEATED, "embed": None, "view": None}
    embed = discord.Embed(
        title=f"Your tables — {page.total}, your move at {page.your_moves}",
        description=fit("\n".join(table_line(t) for t in found.tables), 4096),
        colour=discord.Colour.green(),
    )
    if note := page_note(page, MINE_SIZE):
        embed.set_footer(text=note)
    return {"content": None, "embed": embed, "view": page_buttons("mine", page, MINE_SIZE)}


async def here(service: TableService, channel_id: int, start: int) -> dict[str, Any]:
    """The message of a page of the channel's open tables, and those that cannot be read."""
    scope = f"channel:{channel_id}"
    page = await service.store.page(scope, start, HERE_SIZE)
    if not page.entries and start > 0 and page.total:
        page = await service.store.page(scope, last_page(page.total, HERE_SIZE), HERE_SIZE)
    lines = [here_line(service, e) for e in page.entries] or [NONE_HERE]
    if page.start == 0:
        damaged = await service.store.quarantine.in_channel(channel_id)
        if damaged:
            lines.append(unreadable(damaged))
    if note := page_note(page, HERE_SIZE):
        lines.append(f"*{note}*")
    view = page_buttons("here", page, HERE_SIZE)
    return {"content": fit("\n".join(lines), 2000), "embed": None, "view": view}


def unreadable(table_ids: list[str]) -> str:
    if len(table_ids) == 1:
        return (
            f"⚠️ 1 table here ({table_ids[0]}) could not be read; "
            "its host or a moderator can end it with /table abandon."
        )
    named = ", ".join(table_ids[:10])
    return (
        f"⚠️ {plural(len(table_ids), 'table')} here ({named}) could not be read; "
        "their hosts or a moderator can end them with /table abandon table:<id>."
    )


async def show(interaction: Interaction, kind: str, start: int = 0) -> None:
    """Answer ``/tables`` or ``/table list`` with their first page."""
    message = await _page(interaction, kind, start)
    await reply(interaction, **{k: v for k, v in message.items() if v is not None})


async def turn_page(interaction: Interaction, kind: str, start: int) -> None:
    """Previous or Next: the page redrawn in place."""

    async def turn() -> None:
        await update(interaction, **await _page(interaction, kind, start))

    await guarded(interaction, turn())


async def _page(interaction: Interaction, kind: str, start: int) -> dict[str, Any]:
    bot = host_of(interaction)
    if kind == "mine":
        return await mine(bot.service, interaction.user.id, start)
    return await here(bot.service, interaction.channel_id or 0, start)


@names("here")
class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:list:(?P<kind>mine|here):(?P<start>\d{1,7}):(?P<step>prev|next)",
):
    """Previous or Next on a table list: the page from rank ``start``, for
    whoever presses it (``mine``: their own tables; ``here``: the channel's)."""

    def __init__(self, kind: str, start: int, step: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="Previous" if step == "prev" else "Next",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gt:v1:list:{kind}:{start}:{step}",
                disabled=disabled,
            )
        )
        self.kind, self.start = kind, start

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(match["kind"], int(match["start"]), match["step"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await turn_page(interaction, self.kind, self.start)
