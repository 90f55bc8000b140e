"""What the tournament commands read from their options: a tournament's name
(with its autocomplete) and a ranking of mentions."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.app.hosting import host_of
from bot.app.ui.answer import suggestions
from bot.app.ui.embeds import fit
from bot.app.ui.flows import actor
from bot.service import policy
from bot.service.errors import TableError
from bot.tournaments.roster import LIVE

Interaction = discord.Interaction[Any]
# A mention, or the ">" between two places (outside any mention).
RANKING_TOKEN = re.compile(r"<@!?(?P<user>\d{1,20})>|>")


async def tournament_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: this server's tournaments, running ones first."""

    async def names() -> list[app_commands.Choice[str]]:
        bot = host_of(interaction)
        found = await bot.desk.tournaments.store.in_guild(interaction.guild_id or 0)
        found = [t for t in found if policy.sees_tournament(actor(interaction), t)]
        found.sort(key=lambda t: (t.phase not in LIVE, -t.created_at))
        return [
            app_commands.Choice(name=fit(f"{t.name} ({t.id}, {t.phase.value})", 100), value=t.id)
            for t in found
            if current.lower() in f"{t.id} {t.name.lower()}"
        ][:25]

    return await suggestions(names())


def parse_ranking(text: str) -> list[list[int]]:
    """``"@ann > @bob @cid"`` → ``[[ann], [bob, cid]]``: ``>`` separates places, others tie."""
    groups: list[list[int]] = [[]]
    for token in RANKING_TOKEN.finditer(text):
        if token["user"] is None:
            groups.append([])
        else:
            groups[-1].append(int(token["user"]))
    if not all(groups):
        raise TableError(
            "Write the ranking as mentions, best first, e.g. @ann > @bob @cid (bob and cid tie)."
        )
    return groups
