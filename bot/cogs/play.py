"""Playing commands: /hand, /play and /games."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tables import table_choices
from bot.render.menu import whole_move
from bot.ui.embeds import fit
from bot.ui.flows import guarded, reply

if TYPE_CHECKING:
    from bot.app import GameTableBot

Interaction = discord.Interaction[Any]


class PlayCommands(commands.Cog):
    def __init__(self, bot: GameTableBot) -> None:
        self.bot = bot

    @app_commands.command(name="hand")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    async def hand(self, interaction: Interaction, table: str | None = None) -> None:
        """See your private hand and your moves (only you can see it)."""

        async def hand() -> None:
            record = await self.bot.service.find(interaction.user.id, interaction.channel_id, table)
            await self.bot.flows.hand(interaction, record)

        await guarded(interaction, hand(), table)

    @app_commands.command(name="play")
    @app_commands.describe(
        action="Your move (start typing to see the legal ones)",
        table="Which table (leave empty for your table here)",
    )
    async def play(self, interaction: Interaction, action: str, table: str | None = None) -> None:
        """Make a move by name."""

        async def play() -> None:
            record = await self.bot.service.find(interaction.user.id, interaction.channel_id, table)
            choices = self.bot.service.choices(record, interaction.user.id)
            typed = action.strip().lower()
            named = [
                c
                for c in choices
                if typed in (self.bot.service.text(record, text).lower() for text in (c.label, whole_move(c)))
            ]
            key = named[0].key if named else action.strip()
            await self.bot.flows.play(interaction, record.id, None, key)

        await guarded(interaction, play(), table)

    @play.autocomplete("action")
    async def _actions(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        try:
            record = await service.find(
                interaction.user.id, interaction.channel_id, getattr(interaction.namespace, "table", None)
            )
            choices = service.choices(record, interaction.user.id)
        except Exception:
            return []
        found = []
        for choice in choices:
            label = fit(service.text(record, whole_move(choice)), 100)
            if current.lower() in label.lower():
                found.append(app_commands.Choice(name=label, value=choice.key))
        return found[:25]

    @hand.autocomplete("table")
    @play.autocomplete("table")
    async def _tables(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await table_choices(self.bot.service, interaction, current)

    @app_commands.command(name="games")
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
