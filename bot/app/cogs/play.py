"""Playing commands: /hand, /play and /games."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cogs.options import table_choices
from bot.app.ui.answer import suggestions
from bot.app.ui.embeds import fit
from bot.app.ui.flows import actor, guarded, reply
from bot.render.menu import whole_move
from bot.service.policy import names
from bot.service.tables import TableService
from storage.records import TableRecord

if TYPE_CHECKING:
    from bot.app.hosting import TableHost

Interaction = discord.Interaction[Any]
_SEEN_AT = re.compile(r"(?P<key>[A-Za-z0-9_.:+\-]{1,48})@(?P<version>\d{1,9})")


def move_named(service: TableService, record: TableRecord, user_id: int, action: str) -> tuple[str, int]:
    """The choice key a ``/play`` means and the table version it was chosen at,
    so that the same command sent twice is judged like a double click: the
    second finds the seat has acted since. An autocompleted value carries the
    version its list was drawn at (``"key@17"``); a typed move or label is
    judged against the table this command found."""
    seen = _SEEN_AT.fullmatch(action.strip())
    if seen:
        return seen["key"], int(seen["version"])
    typed = action.strip().lower()
    named = [
        c
        for c in service.choices(record, user_id)
        if typed in (service.text(record, text).lower() for text in (c.label, whole_move(c)))
    ]
    return (named[0].key if named else action.strip()), record.version


class PlayCommands(commands.Cog):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot
        # Per (user, table): the oldest table version a /play of theirs still
        # unanswered was judged against, and how many are unanswered.
        self._unanswered: dict[tuple[int, str], list[int]] = {}

    @app_commands.command(name="hand")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def hand(self, interaction: Interaction, table: str | None = None) -> None:
        """See your private hand and your moves (only you can see it)."""

        async def hand() -> None:
            record = await self.bot.service.find(actor(interaction), interaction.channel_id, table)
            await self.bot.flows.hand(interaction, record)

        await guarded(interaction, hand(), table)

    @app_commands.command(name="play")
    @app_commands.describe(
        action="Your move (start typing to see the legal ones)",
        table="Which table (leave empty for your table here)",
    )
    @names("table")
    async def play(self, interaction: Interaction, action: str, table: str | None = None) -> None:
        """Make a move by name."""

        async def play() -> None:
            record = await self.bot.service.find(actor(interaction), interaction.channel_id, table)
            key, version = move_named(self.bot.service, record, interaction.user.id, action)
            # The same command sent twice is one move: a /play that arrives while
            # another of the same player's at this table is unanswered is judged
            # against the table that one found, so it finds the seat has acted
            # since, however quickly the first was saved.
            mine = (interaction.user.id, record.id)
            pending = self._unanswered.setdefault(mine, [version, 0])
            pending[1] += 1
            try:
                await self.bot.flows.play(interaction, record.id, min(version, pending[0]), key)
            finally:
                pending[1] -= 1
                if not pending[1]:
                    del self._unanswered[mine]

        await guarded(interaction, play(), table)

    @play.autocomplete("action")
    async def _actions(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggestions(self._moves(interaction, current))

    async def _moves(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        record = await service.find(
            actor(interaction), interaction.channel_id, getattr(interaction.namespace, "table", None)
        )
        choices = service.choices(record, interaction.user.id)
        found = []
        for choice in choices:
            label = service.text(record, whole_move(choice))
            if current.lower() in label.lower():
                # The card's text after the move, as far as Discord's 100 characters allow.
                shown = f"{label} — {service.text(record, choice.detail)}" if choice.detail else label
                value = f"{choice.key}@{record.version}"
                found.append(app_commands.Choice(name=fit(shown, 100), value=value))
        return found[:25]

    @hand.autocomplete("table")
    @play.autocomplete("table")
    async def _tables(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await table_choices(self.bot.service, interaction, current)

    @app_commands.command(name="games")
    @names("public")
    async def games(self, interaction: Interaction) -> None:
        """What can be played here, with a short summary of each game."""
        embed = discord.Embed(
            title="Games",
            colour=discord.Colour.blurple(),
            description="Start one with `/table create game:<name>`.",
        )
        for key, engine in list(self.bot.service.games.items())[:25]:
            info = engine.info
            variants = f"\nVariants: {', '.join(info.presets)}" if info.presets else ""
            text = f"{info.summary}\n{info.min_players}–{info.max_players} players · `{key}`{variants}"
            embed.add_field(name=fit(info.title, 256), value=fit(text, 1024), inline=False)
        await guarded(interaction, reply(interaction, embed=embed))
