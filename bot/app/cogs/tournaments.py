"""Slash commands for tournaments (``/tournament …``). Thin: parse, check who
may, call the TournamentService and the desk. The docstrings are the help
users see in Discord."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cogs.options import PACE_CHOICES, game_choices, parse_options
from bot.app.cogs.tournament_options import parse_ranking, tournament_names
from bot.app.hosting import TableHost
from bot.app.ui.answer import after_save, guarded, public_message, reply
from bot.app.ui.embeds import shown_name
from bot.app.ui.flows import actor, member_player
from bot.app.ui.tournament_desk import TournamentDesk
from bot.app.ui.tournament_items import registration_message, standings_message
from bot.service import policy
from bot.service.clocks import PACES
from bot.service.errors import TableError
from bot.service.policy import names
from bot.tournaments.export import to_csv, to_json
from bot.tournaments.service import TournamentService
from storage.preferences import SettingsStore
from storage.tournaments import Format, Tournament

Interaction = discord.Interaction[Any]
NEXT_ROUND_LATE = "That was done, but the next round could not be posted yet — it will be shortly."
TOURNAMENT = "Which tournament (leave empty for the one running here)"


class TournamentCommands(
    commands.GroupCog, group_name="tournament", group_description="Run tournaments on gametable tables"
):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> TournamentService:
        return self.bot.desk.tournaments

    @property
    def desk(self) -> TournamentDesk:
        return self.bot.desk

    async def _organiser(self, interaction: Interaction, tournament: Tournament | None = None) -> None:
        """Refuse unless the user has Manage Server, the server's organiser role,
        or organises ``tournament`` — in the tournament's own server (see
        :func:`bot.service.policy.organises`)."""
        guild = tournament.guild_id if tournament is not None else interaction.guild_id
        settings = await SettingsStore(self.service.store.redis).guild(guild or 0)
        if policy.organises(actor(interaction), tournament, guild, settings.organiser_role_id):
            return
        raise TableError("Only organisers can do that: Manage Server, or the role named in /settings.")

    async def _find(
        self, interaction: Interaction, tournament: str | None, finished: bool = False
    ) -> Tournament:
        guild, channel, who = interaction.guild_id or 0, interaction.channel_id, actor(interaction)
        return await self.service.find(guild, channel, tournament, finished=finished, actor=who)

    @app_commands.command(name="create")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The tournament's name",
        game="The game played at every table",
        format="How rounds are seated",
        table_size="Players a table (2 for head to head)",
        rounds="Rounds (Swiss; default: enough for the field)",
        advance="Elimination: how many of each table go on",
        variant="A named variant of the game",
        options="Game options as key=value pairs",
        pace="How long each player may take per move",
        round_hours="Hours a round may take before organisers decide unfinished tables",
        cap="Most players who may register",
        rated="Whether the tables move players' ratings",
        check_in="Whether players must check in before the start",
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name="Swiss", value="swiss"),
            app_commands.Choice(name="Round robin", value="round-robin"),
            app_commands.Choice(name="Single elimination", value="elimination"),
            app_commands.Choice(name="Swiss, then a final table", value="swiss-final"),
        ],
        pace=PACE_CHOICES,
    )
    @names("here")
    async def create(
        self,
        interaction: Interaction,
        name: str,
        game: str,
        format: str,
        table_size: app_commands.Range[int, 2, 12] | None = None,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        advance: app_commands.Range[int, 1, 11] = 1,
        variant: str | None = None,
        options: str | None = None,
        pace: str = "async",
        round_hours: app_commands.Range[float, 0.05, 2000.0] | None = None,
        cap: app_commands.Range[int, 2, 1000] | None = None,
        rated: bool = False,
        check_in: bool = False,
    ) -> None:
        """Open a tournament in this channel, with a public registration message."""

        async def create() -> None:
            await self._organiser(interaction)
            chosen = parse_options(options)
            if variant:
                chosen["preset"] = variant
            shown = shown_name(name)  # it is shown in public messages
            tournament = await self.service.create(
                name=shown,
                game=game,
                organiser_id=interaction.user.id,
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                fmt=Format(format),
                table_size=table_size,
                rounds=rounds,
                advance=advance,
                options=chosen,
                turn_timeout=PACES.get(pace, PACES["async"]),
                round_time=round_hours * 3600 if round_hours else None,
                cap=cap,
                rated=rated,
                check_in=check_in,
            )
            async with after_save(
                f"Tournament {tournament.id} is open, but its message could not be posted."
            ):
                link = await self.bot.flows.watch.tournament(tournament.guild_id, tournament.id)
                message = await public_message(
                    interaction, **registration_message(tournament, self._title(game), link)
                )
                await self.service.attach(tournament.id, message_id=message.id)

        await guarded(interaction, create(), public=True)

    def _title(self, game: str) -> str:
        return self.service.tables.engine(game).info.title

    @create.autocomplete("game")
    async def _game_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(self.service.tables, current)

    @app_commands.command(name="start")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def start(self, interaction: Interaction, tournament: str | None = None) -> None:
        """(Organisers) Close registration, seat round 1 and start its tables."""

        async def start() -> None:
            found = await self._find(interaction, tournament)
            await self._organiser(interaction, found)
            started = await self.service.start(found.id)
            await reply(interaction, f"**{started.name}** has started: seating round 1.", ephemeral=False)
            async with after_save(
                "The tournament started, but I could not post everything yet — it carries on."
            ):
                channel = self.bot.get_partial_messageable(started.channel_id)
                board = await channel.send(**standings_message(started))
                started = await self.service.attach(started.id, standings_message_id=board.id)
                await self.desk.progress(started.id)

        await guarded(interaction, start())

    async def _moderate(self, interaction: Interaction, tournament: str | None, work: Any, said: str) -> None:
        async def moderate() -> None:
            found = await self._find(interaction, tournament)
            await self._organiser(interaction, found)
            changed = await work(found)
            await reply(interaction, said)
            await self.desk.refresh(changed)

        await guarded(interaction, moderate())

    @app_commands.command(name="add")
    @app_commands.guild_only()
    @app_commands.describe(member="Who to register", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def add(
        self, interaction: Interaction, member: discord.Member, tournament: str | None = None
    ) -> None:
        """(Organisers) Register a player, past the cap or after the start (from the next round)."""
        await self._moderate(
            interaction,
            tournament,
            lambda t: self.service.add(t.id, member_player(member)),
            f"{member.mention} is registered.",
        )

    @app_commands.command(name="drop")
    @app_commands.guild_only()
    @app_commands.describe(
        member="Who drops (organisers; leave empty to drop yourself)", tournament=TOURNAMENT
    )
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def drop(
        self, interaction: Interaction, member: discord.Member | None = None, tournament: str | None = None
    ) -> None:
        """Drop out of a tournament (or, as an organiser, drop a player); a bot finishes a running table."""
        if member is None or member.id == interaction.user.id:

            async def drop_self() -> None:
                found = await self._find(interaction, tournament)
                changed = await self.service.drop(found.id, interaction.user.id)
                await reply(interaction, "You have dropped out; a bot finishes any table you were at.")
                await self.desk.refresh(changed)

            await guarded(interaction, drop_self())
            return
        await self._moderate(
            interaction,
            tournament,
            lambda t: self.service.drop(t.id, member.id),
            f"{member.mention} is dropped.",
        )

    @app_commands.command(name="disqualify")
    @app_commands.guild_only()
    @app_commands.describe(member="Who is disqualified", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def disqualify(
        self, interaction: Interaction, member: discord.Member, tournament: str | None = None
    ) -> None:
        """(Organisers) Disqualify a player: out of the coming rounds and last in the standings."""
        await self._moderate(
            interaction,
            tournament,
            lambda t: self.service.drop(t.id, member.id, disqualify=True),
            f"{member.mention} is disqualified.",
        )

    @app_commands.command(name="replace")
    @app_commands.guild_only()
    @app_commands.describe(member="The player leaving", by="Who takes their place", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def replace(
        self,
        interaction: Interaction,
        member: discord.Member,
        by: discord.Member,
        tournament: str | None = None,
    ) -> None:
        """(Organisers) Let someone take over a player's entry, points and all."""
        await self._moderate(
            interaction,
            tournament,
            lambda t: self.service.replace(t.id, member.id, member_player(by)),
            f"{by.mention} takes over from {member.mention}.",
        )

    @app_commands.command(name="decide")
    @app_commands.guild_only()
    @app_commands.describe(how="What becomes of the round's unfinished tables", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @app_commands.choices(
        how=[
            app_commands.Choice(name="play them out to the end", value="play-out"),
            app_commands.Choice(name="score them as they stand: everyone level", value="tie"),
        ]
    )
    @names("tournament")
    async def decide(self, interaction: Interaction, how: str, tournament: str | None = None) -> None:
        """(Organisers) Close the current round by deciding its unfinished tables."""

        async def decide() -> None:
            found = await self._find(interaction, tournament)
            await self._organiser(interaction, found)
            await self.service.decide(found.id, how)
            await reply(interaction, "The round's unfinished tables are decided.")
            async with after_save(NEXT_ROUND_LATE):
                await self.desk.progress(found.id)

        await guarded(interaction, decide())

    @app_commands.command(name="award")
    @app_commands.guild_only()
    @app_commands.describe(
        table="The table's id", ranking="Mentions best first: @a > @b @c", tournament=TOURNAMENT
    )
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def award(
        self, interaction: Interaction, table: str, ranking: str, tournament: str | None = None
    ) -> None:
        """(Organisers) Give an unfinished table its ranking; the table ends."""

        async def award() -> None:
            found = await self._find(interaction, tournament)
            await self._organiser(interaction, found)
            await self.service.award(found.id, table.strip().lower(), parse_ranking(ranking))
            await reply(interaction, f"Table {table} is scored.")
            async with after_save(NEXT_ROUND_LATE):
                await self.desk.progress(found.id)

        await guarded(interaction, award())

    @app_commands.command(name="standings")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def standings(self, interaction: Interaction, tournament: str | None = None) -> None:
        """Show the standings (only to you)."""

        async def show() -> None:
            await reply(interaction, **standings_message(await self._find(interaction, tournament, True)))

        await guarded(interaction, show())

    @app_commands.command(name="export")
    @app_commands.guild_only()
    @app_commands.describe(kind="CSV for spreadsheets, JSON with every round", tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @app_commands.choices(
        kind=[app_commands.Choice(name="CSV", value="csv"), app_commands.Choice(name="JSON", value="json")]
    )
    @names("tournament")
    async def export(
        self, interaction: Interaction, kind: str = "csv", tournament: str | None = None
    ) -> None:
        """Download the standings as a file."""

        async def export() -> None:
            found = await self._find(interaction, tournament, True)
            text = to_csv(found) if kind == "csv" else to_json(found)
            file = discord.File(io.BytesIO(text.encode()), filename=f"tournament-{found.id}.{kind}")
            await reply(interaction, f"Standings of **{found.name}**.", file=file)

        await guarded(interaction, export())

    @app_commands.command(name="cancel")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT)
    @app_commands.autocomplete(tournament=tournament_names)
    @names("tournament")
    async def cancel(self, interaction: Interaction, tournament: str | None = None) -> None:
        """(Organisers) Cancel a tournament; its running tables play on unscored."""
        await self._moderate(interaction, tournament, lambda t: self.service.cancel(t.id), "Cancelled.")
