"""Slash commands for this server's settings (``/settings …``): who may run
tournaments. The docstrings are the help users see in Discord."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.hosting import TableHost
from bot.app.ui.answer import guarded, reply
from bot.app.ui.flows import moderates
from bot.service.errors import TableError
from bot.service.policy import names
from storage.preferences import SettingsStore

Interaction = discord.Interaction[Any]


class SettingsCommands(
    commands.GroupCog, group_name="settings", group_description="Your settings and this server's"
):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="organiser-role")
    @app_commands.guild_only()
    @app_commands.describe(role="Members with this role may run tournaments (leave empty for none)")
    @names("here")
    async def organiser_role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        """(Manage Server) Name the role that may run tournaments besides Manage Server."""

        async def set_role() -> None:
            if not moderates(interaction, interaction.guild_id):
                raise TableError("Only members with Manage Server can change this server's settings.")
            store = SettingsStore(self.bot.service.store.redis)
            settings = await store.guild(interaction.guild_id or 0)
            settings.organiser_role_id = role.id if role else None
            await store.save_guild(settings)
            said = (
                f"Members with {role.mention} may now run tournaments."
                if role
                else "No organiser role is set."
            )
            await reply(interaction, said, allowed_mentions=discord.AllowedMentions.none())

        await guarded(interaction, set_role())

    @app_commands.command(name="web")
    @app_commands.guild_only()
    @app_commands.describe(pages="on: this server's tables, tournaments and players get web pages; off: none")
    @app_commands.choices(
        pages=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    @names("here")
    async def web(self, interaction: Interaction, pages: str) -> None:
        """(Manage Server) Turn this server's web pages on or off."""

        async def set_web() -> None:
            if not moderates(interaction, interaction.guild_id):
                raise TableError("Only members with Manage Server can change this server's settings.")
            store = SettingsStore(self.bot.service.store.redis)
            settings = await store.guild(interaction.guild_id or 0)
            settings.web = pages == "on"
            await store.save_guild(settings)
            self.bot.flows.watch.forget(settings.guild_id)
            if not settings.web:
                said = "This server's web pages are off: its links now answer “not found”."
            elif self.bot.settings.public_url is None:
                said = (
                    "This server's web pages are on. This bot has no public address (PUBLIC_URL) yet, "
                    "so tables show no Watch link until its operator sets one."
                )
            else:
                said = (
                    "This server's web pages are on: tables get a Watch link and tournaments a "
                    "Standings link. Pages show only what the table messages show."
                )
            await reply(interaction, said)

        await guarded(interaction, set_web())
