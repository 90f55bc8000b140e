"""Slash commands for ratings: ``/rating``, ``/leaderboard``, ``/ratings-rebuild``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.ui.answer import guarded, reply
from bot.app.ui.embeds import fit
from bot.app.ui.flows import moderates
from bot.service.errors import TableError
from bot.service.policy import names
from bot.service.ratings import RatingService, Standing, ordinal
from engines.core import quote

if TYPE_CHECKING:
    from bot.app.hosting import TableHost

Interaction = discord.Interaction[Any]
BOARD_SIZE = 20


def rating_line(standing: Standing) -> str:
    r = standing.rating
    mark = " (provisional)" if standing.provisional else ""
    games = f"{r.games} game" + ("" if r.games == 1 else "s")
    return f"**{standing.rank}.** <@{r.user_id}> — {ordinal(r):.1f}{mark} · {games}"


class RatingCommands(commands.Cog):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot

    @property
    def ratings(self) -> RatingService:
        return self.bot.desk.results.ratings

    def _game(self, game: str) -> str:
        if game not in self.bot.service.games:
            raise TableError(f"There is no game called {quote(game)}. Try /games.")
        return game

    @app_commands.command(name="rating")
    @app_commands.guild_only()
    @app_commands.describe(
        member="Whose rating (leave empty for yours)", game="Which game (empty: every game)"
    )
    @names("here")
    async def rating(
        self, interaction: Interaction, member: discord.Member | None = None, game: str | None = None
    ) -> None:
        """Show a player's rating on this server: μ − 3σ, with games played."""

        async def show() -> None:
            user = member or interaction.user
            guild = interaction.guild_id or 0
            games = [self._game(game)] if game else await self.ratings.games(guild)
            lines = []
            for key in games:
                standing = await self.ratings.rating(guild, key, user.id)
                if standing is not None:
                    title = self.bot.service.engine(key).info.title
                    lines.append(
                        f"{title}: " + rating_line(standing).split(" — ", 1)[1] + f" · #{standing.rank}"
                    )
            text = "\n".join(lines) or "No rated games yet."
            await reply(
                interaction,
                fit(f"<@{user.id}> — {text}", 2000),
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(interaction, show())

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game")
    @names("here")
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        """Show this server's best rated players of a game."""

        async def show() -> None:
            key = self._game(game)
            board = await self.ratings.leaderboard(interaction.guild_id or 0, key)
            embed = discord.Embed(title=fit(f"{self.bot.service.engine(key).info.title} — leaderboard", 256))
            embed.description = fit(
                "\n".join(rating_line(s) for s in board[:BOARD_SIZE]) or "No rated games yet.", 4096
            )
            await reply(
                interaction, embed=embed, ephemeral=False, allowed_mentions=discord.AllowedMentions.none()
            )

        await guarded(interaction, show())

    @app_commands.command(name="ratings-rebuild")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (empty: every game)")
    @names("here")
    async def rebuild(self, interaction: Interaction, game: str | None = None) -> None:
        """(Manage Server) Recompute this server's ratings from the stored results."""

        async def rebuild() -> None:
            if not moderates(interaction, interaction.guild_id):
                raise TableError("Only members with Manage Server can rebuild ratings.")
            count = await self.ratings.rebuild(interaction.guild_id or 0, self._game(game) if game else None)
            await reply(interaction, f"Ratings rebuilt from {count} results.")

        await guarded(interaction, rebuild())
