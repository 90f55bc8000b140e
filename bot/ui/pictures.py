"""Pictures as Discord attachments shown inside their embed.

The embed points at its file (``attachment://table.png``); an edit passes the
new file list, which replaces the old picture (and an empty list removes it).
"""

from __future__ import annotations

import io

import discord

TABLE_PICTURE = "table.png"
HAND_PICTURE = "hand.png"
ALT_TEXT = {
    TABLE_PICTURE: "A picture of the table; the text of this message says the same.",
    HAND_PICTURE: "A picture of your hand; the text of this message says the same.",
}


def attach(png: bytes | None, filename: str, embed: discord.Embed) -> list[discord.File]:
    """The files to send with ``embed``: the picture, shown as the embed's image, or none."""
    if png is None:
        return []
    embed.set_image(url=f"attachment://{filename}")
    return [discord.File(io.BytesIO(png), filename=filename, description=ALT_TEXT.get(filename))]
