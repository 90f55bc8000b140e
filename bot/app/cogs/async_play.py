"""Playing across days: ``/tables`` (every table I sit at) and the host's
``/clock pause`` and ``/clock resume``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cogs.my_settings import attach_my_settings
from bot.app.cogs.options import table_choices
from bot.app.ui.flows import actor, guarded, moderates, player, reply
from bot.app.ui.table_pages import show
from bot.app.ui.undo_vote import ask
from bot.service import policy
from bot.service.away import come_back, go_on_vacation, offer_seat, take_seat
from bot.service.pausing import set_paused
from bot.service.policy import names
from bot.service.tables import Outcome
from engines.words import plural

if TYPE_CHECKING:
    from bot.app.hosting import TableHost

Interaction = discord.Interaction[Any]


class AsyncPlayCommands(commands.Cog):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        attach_my_settings(self.bot.tree)

    @app_commands.command(name="tables")
    @names("own")
    async def tables(self, interaction: Interaction) -> None:
        """Every table you sit at, in every server: your moves first, with the time left."""

        await guarded(interaction, show(interaction, "mine"))

    clock = app_commands.Group(name="clock", description="Stop and start a table's clocks", guild_only=True)

    @clock.command(name="pause")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def pause(self, interaction: Interaction, table: str | None = None) -> None:
        """Pause the table: its clocks stop, and no one moves until you resume it (host only)."""
        await guarded(interaction, self._set(interaction, table, True), table)

    @clock.command(name="resume")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def resume(self, interaction: Interaction, table: str | None = None) -> None:
        """Resume a paused table: its clocks run again from where they stopped (host only)."""
        await guarded(interaction, self._set(interaction, table, False), table)

    async def _set(self, interaction: Interaction, table: str | None, paused: bool) -> None:
        service = self.bot.service
        record = await service.find(actor(interaction), interaction.channel_id, table)
        policy.powers_at_home(actor(interaction), record.guild_id)
        outcome = await set_paused(
            service, record.id, interaction.user.id, paused, moderator=moderates(interaction, record.guild_id)
        )
        await self._told(
            interaction, outcome, f"Table {record.id} is {'paused' if paused else 'running again'}."
        )

    @clock.command(name="back")
    @app_commands.describe(table="The table where a bot kept your seat")
    @names("table")
    async def back(self, interaction: Interaction, table: str) -> None:
        """Take back the seat a bot played after your time ran out too often."""

        async def back() -> None:
            record = await self.bot.service.named(actor(interaction), table)
            outcome = await come_back(self.bot.service, record.id, interaction.user.id)
            await self._told(
                interaction, outcome, f"Welcome back to table {record.id}: your seat is yours again."
            )

        await guarded(interaction, back(), table)

    @app_commands.command(name="vacation")
    @app_commands.describe(days="How many days (up to 14 in any 30)")
    @names("own")
    async def vacation(self, interaction: Interaction, days: app_commands.Range[int, 1, 14]) -> None:
        """Stop your clocks at every table for a few days; your next move ends it at that table."""

        async def vacation() -> None:
            until, outcomes = await go_on_vacation(self.bot.service, interaction.user.id, days)
            await reply(
                interaction,
                f"Enjoy! Your clocks at {plural(len(outcomes), 'table')} wait until <t:{int(until)}:f>.",
            )
            for outcome in outcomes:
                await self.bot.announcer.deliver(outcome.table.id)

        await guarded(interaction, vacation())

    @app_commands.command(name="undo")
    @app_commands.guild_only()
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def undo(self, interaction: Interaction, table: str | None = None) -> None:
        """Ask to take back your last move (only if it drew no chance and showed no one anything)."""
        await ask(interaction, table)

    substitute = app_commands.Group(
        name="substitute", description="Hand a seat over to another member", guild_only=True
    )

    @substitute.command(name="offer")
    @app_commands.describe(
        seat="The seat's number",
        member="Who may take it over",
        table="Which table (leave empty for yours here)",
    )
    @names("table")
    async def offer(
        self, interaction: Interaction, seat: int, member: discord.Member, table: str | None = None
    ) -> None:
        """Offer a bot's or an absent player's seat to another member (host or moderator)."""

        async def offer() -> None:
            service = self.bot.service
            record = await service.find(actor(interaction), interaction.channel_id, table)
            policy.powers_at_home(actor(interaction), record.guild_id)
            moderator = moderates(interaction, record.guild_id)
            outcome = await offer_seat(
                service, record.id, interaction.user.id, seat - 1, member.id, moderator=moderator
            )
            text = (
                f"Seat {seat} is offered to {member.mention}: `/substitute take table:{record.id}` takes it."
            )
            await self._told(interaction, outcome, text)

        await guarded(interaction, offer(), table)

    @substitute.command(name="take")
    @app_commands.describe(table="The table whose seat was offered to you")
    @names("table")
    async def take(self, interaction: Interaction, table: str) -> None:
        """Take over the seat offered to you, with its hand and its history."""

        async def take() -> None:
            record = await self.bot.service.named(actor(interaction), table)
            outcome = await take_seat(
                self.bot.service, record.id, interaction.user.id, player(interaction).name
            )
            await self._told(
                interaction, outcome, f"The seat at table {record.id} is yours — /hand to see it."
            )

        await guarded(interaction, take(), table)

    async def _told(self, interaction: Interaction, outcome: Outcome, text: str) -> None:
        await reply(interaction, text)
        await self.bot.announcer.deliver(outcome.table.id)

    @pause.autocomplete("table")
    @resume.autocomplete("table")
    @offer.autocomplete("table")
    @undo.autocomplete("table")
    async def _tables(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await table_choices(self.bot.service, interaction, current)
