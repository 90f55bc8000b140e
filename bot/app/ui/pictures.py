"""Pictures as Discord attachments shown inside their embeds.

The first page of a picture is the image of its message's embed
(``attachment://table.png``); each further page (a tall picture is cut to fit a
phone's inline preview) rides in an embed of its own below it, holding only that
image, so the pages read top to bottom at full width. An edit passes the new file
list, which replaces the old pictures (and an empty list removes them).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

TABLE_PICTURE = "table.png"
HAND_PICTURE = "hand.png"
ALT_TEXT = {
    TABLE_PICTURE: "A picture of the table; the text of this message says the same.",
    HAND_PICTURE: "A picture of your hand; the text of this message says the same.",
}


def page_name(filename: str, page: int) -> str:
    """``table.png`` for the first page, ``table-2.png`` for the second…"""
    stem, dot, ext = filename.rpartition(".")
    return filename if page == 1 else f"{stem}-{page}{dot}{ext}"


def attach(
    pngs: Sequence[bytes], filename: str, embed: discord.Embed
) -> tuple[list[discord.Embed], list[discord.File]]:
    """The embeds and files to send: ``embed`` showing the first page, an embed per
    further page; just ``embed`` and no file when there is no picture."""
    embeds, files = [embed], []
    for page, png in enumerate(pngs, start=1):
        name = page_name(filename, page)
        shown = embed if page == 1 else discord.Embed(colour=embed.colour)
        shown.set_image(url=f"attachment://{name}")
        if page > 1:
            embeds.append(shown)
        alt = ALT_TEXT.get(filename, "")
        if len(pngs) > 1 and alt:
            alt = f"{alt} Part {page} of {len(pngs)}."
        files.append(discord.File(io.BytesIO(png), filename=name, description=alt or None))
    return embeds, files
