"""What several slash commands share: the autocompletes of a game or a table,
the pace choices, the ``key=value`` options and the deck file a table is
created with."""

from __future__ import annotations

import asyncio
import tomllib
from typing import Any

import discord
from discord import app_commands

from bot.app.ui.answer import suggestions
from bot.app.ui.embeds import fit
from bot.app.ui.flows import actor
from bot.app.ui.table_pages import here_line
from bot.service import policy
from bot.service.errors import TableError
from bot.service.tables import TableService
from engines.core import quote

Interaction = discord.Interaction[Any]
DECK_BYTES = 256 * 1024
CHOICES = 25  # Discord's most autocomplete choices
PACE_CHOICES = [
    app_commands.Choice(name="live — 5 minutes a move", value="live"),
    app_commands.Choice(name="relaxed — 1 hour a move", value="relaxed"),
    app_commands.Choice(name="async — 1 day a move", value="async"),
    *(app_commands.Choice(name=f"correspondence — {n} days a move", value=f"{n}d") for n in (2, 3, 5, 7, 14)),
]


def game_choices(service: TableService, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the games whose key or title contains ``current``, with their player counts."""
    return [
        app_commands.Choice(
            name=fit(f"{e.info.title} ({e.info.min_players}–{e.info.max_players})", 100), value=key
        )
        for key, e in service.games.items()
        if current.lower() in (key + e.info.title.lower())
    ][:25]


def parse_options(text: str | None) -> dict[str, Any]:
    """``"rounds=2 pace=true"`` → ``{"rounds": 2, "pace": True}`` (TOML values, bare words as text)."""
    options: dict[str, Any] = {}
    for pair in (text or "").replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise TableError(f"Options are written key=value, e.g. rounds=2 — not {quote(pair)}.")
        try:
            options[key] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            options[key] = value
        except RecursionError:
            raise TableError(f"The value of option {quote(key)} is nested too deeply.") from None
    return options


async def table_choices(
    service: TableService, interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The user's tables, then this channel's, for a ``table`` option."""
    return await suggestions(_table_choices(service, interaction, current))


async def _table_choices(
    service: TableService, interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    # A page of each list: the choices are bounded however many tables there are.
    mine = await service.store.page(f"user:{interaction.user.id}", 0, CHOICES)
    here = await service.store.page(f"channel:{interaction.channel_id or 0}", 0, CHOICES)
    entries = list({e.id: e for e in [*mine.entries, *here.entries]}.values())
    # Never another server's tables (in a DM: the user's own, every server's).
    shown = policy.listed_here(actor(interaction), [e.guild_id for e in entries])
    entries = [e for e, ok in zip(entries, shown, strict=True) if ok]
    lines = [(here_line(service, e), e.id) for e in entries]
    return [
        app_commands.Choice(name=fit(line, 100), value=table_id)
        for line, table_id in lines
        if current.lower() in line.lower()
    ][:CHOICES]


async def read_attached_deck(deck: discord.Attachment) -> dict[str, Any]:
    """An attached deck file's TOML, refused when it is too large to read."""
    if deck.size > DECK_BYTES:
        raise TableError("That deck file is too large (256 KB at most).")
    return await read_deck(await deck.read())


async def read_deck(data: bytes) -> dict[str, Any]:
    """A deck file's TOML, read in a worker thread: a large file would hold up every other table."""
    try:
        return await asyncio.to_thread(lambda: tomllib.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise TableError(f"That deck file is not valid TOML ({quote(error, 120)[1:-1]}).") from None
    except RecursionError:
        raise TableError("That deck file is nested too deeply.") from None
