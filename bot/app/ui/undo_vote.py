"""The request to take back a move, as Discord shows it: a public message in
the table's channel with Accept and Decline for the other players."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.app.ui.answer import guarded, reply
from bot.app.ui.components import UndoButton
from bot.app.ui.flows import actor
from bot.service.undo import voters
from bot.service.undo_requests import ask_undo, vote_undo

if TYPE_CHECKING:
    from bot.app.application import GameTableBot

Interaction = discord.Interaction[Any]


def vote_view(table_id: str, asked_at: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(table_id, asked_at, True))
    view.add_item(UndoButton(table_id, asked_at, False))
    return view


async def ask(interaction: Interaction, table: str | None) -> None:
    bot: GameTableBot = interaction.client  # type: ignore[assignment]

    async def asking() -> None:
        record = await bot.service.find(actor(interaction), interaction.channel_id, table)
        outcome = await ask_undo(bot.service, record.id, interaction.user.id)
        point = outcome.table.undo
        if point is None or point.asked_at is None:
            await reply(interaction, f"Your last move at table {record.id} is taken back.")
        else:
            others = " ".join(f"<@{outcome.table.seats[s].user_id}>" for s in voters(outcome.table, point))
            await reply(
                interaction,
                f"{interaction.user.mention} asks to take back their last move at table {record.id}. "
                f"{others}: Accept or Decline — one Decline keeps the move, and so does silence "
                f"until <t:{int(point.until or 0)}:R>.",
                ephemeral=False,
                view=vote_view(record.id, point.asked_at),
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            )
        await bot.announcer.deliver(outcome.table.id)

    await guarded(interaction, asking(), table)


async def answer(interaction: Interaction, table_id: str, asked_at: int, accept: bool) -> None:
    bot: GameTableBot = interaction.client  # type: ignore[assignment]

    async def answering() -> None:
        await bot.flows.table(interaction, table_id)
        outcome = await vote_undo(bot.service, table_id, interaction.user.id, asked_at, accept)
        if not accept:
            text = "You declined: the move stands."
        elif outcome.table.undo is None:
            text = "Everyone accepted: the move is taken back."
        else:
            text = "You accepted; waiting for the others."
        await reply(interaction, text)
        await bot.announcer.deliver(outcome.table.id)

    await guarded(interaction, answering(), table_id)

