"""The request to take back a move, as Discord shows it: a public message in
the table's channel with Accept and Decline for the other players."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.hosting import host_of
from bot.app.ui.answer import after_save, guarded, reply
from bot.app.ui.components import TABLE
from bot.app.ui.flows import actor
from bot.service.policy import names
from bot.service.undo import voters
from bot.service.undo_requests import ask_undo, vote_undo

Interaction = discord.Interaction[Any]


def vote_view(table_id: str, asked_at: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(table_id, asked_at, True))
    view.add_item(UndoButton(table_id, asked_at, False))
    return view


async def ask(interaction: Interaction, table: str | None) -> None:
    bot = host_of(interaction)

    async def asking() -> None:
        record = await bot.service.find(actor(interaction), interaction.channel_id, table)
        outcome = await ask_undo(bot.service, record.id, interaction.user.id)
        point = outcome.table.undo
        try:  # saved: a failure to answer is not a refusal, and the table is told all the same
            async with after_save():
                if point is None or point.asked_at is None:
                    await reply(interaction, f"Your last move at table {record.id} is taken back.")
                else:
                    others = " ".join(
                        f"<@{outcome.table.seats[s].user_id}>" for s in voters(outcome.table, point)
                    )
                    await reply(
                        interaction,
                        f"{interaction.user.mention} asks to take back their last move at table {record.id}. "
                        f"{others}: Accept or Decline — one Decline keeps the move, and so does silence "
                        f"until <t:{int(point.until or 0)}:R>.",
                        ephemeral=False,
                        view=vote_view(record.id, point.asked_at),
                        allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
                    )
        finally:
            await bot.announcer.deliver(outcome.table.id)

    await guarded(interaction, asking(), table)


async def answer(interaction: Interaction, table_id: str, asked_at: int, accept: bool) -> None:
    bot = host_of(interaction)

    async def answering() -> None:
        await bot.flows.table(interaction, table_id, to_change=True)  # vote_undo reads it afresh
        outcome = await vote_undo(bot.service, table_id, interaction.user.id, asked_at, accept)
        if not accept:
            text = "You declined: the move stands."
        elif outcome.table.undo is None:
            text = "Everyone accepted: the move is taken back."
        else:
            text = "You accepted; waiting for the others."
        try:  # saved: as when asking
            async with after_save():
                await reply(interaction, text)
        finally:
            await bot.announcer.deliver(outcome.table.id)

    await guarded(interaction, answering(), table_id)


@names("table")
class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:undo:" + TABLE + r":(?P<answer>yes|no)",
):
    def __init__(self, table_id: str, version: int, accept: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"gt:v1:undo:{table_id}:{version}:{'yes' if accept else 'no'}",
            )
        )
        self.table_id, self.version, self.accept = table_id, version, accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(match["table"], int(match["ver"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, self.table_id, self.version, self.accept)
