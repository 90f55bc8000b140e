"""Slash commands. Thin: parse the interaction, call the flows/TableService,
render. The docstrings are the help users see in Discord."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, get_args

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cogs.options import (
    PACE_CHOICES,
    game_choices,
    parse_options,
    read_attached_deck,
    table_choices,
)
from bot.app.ui.answer import after_save, defer, public_message, suggestions
from bot.app.ui.embeds import fit, table_embed
from bot.app.ui.flows import Flows, actor, guarded, player, reply
from bot.app.ui.table_pages import show
from bot.service.clocks import PACES
from bot.service.errors import StaleClick, TableDamaged, TableError
from bot.service.policy import names
from bot.service.seating import seat_label, seat_named
from bot.service.tablelog import log_files
from bot.service.tables import TableService
from bot.service.user_prefs import own_prefs
from storage.records import BotLevel, TableRecord, TableStatus

if TYPE_CHECKING:
    from bot.app.hosting import TableHost

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
ADD_BOT_STALE = (
    "The table changed while you asked, so no bot was added — here is where it stands now; "
    "use /table addbot again if you still want one."
)
DIFFICULTIES: dict[str, BotLevel] = {name: name for name in get_args(BotLevel)}


class TableCommands(
    commands.GroupCog, group_name="table", group_description="Create, join and run game tables"
):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> TableService:
        return self.bot.service

    @property
    def flows(self) -> Flows:
        return self.bot.flows

    @app_commands.command(name="create")
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game to play",
        variant="A named variant of the game",
        options="Game options as key=value pairs, e.g. rounds=2",
        pace="How long each player may take per move",
        deck="A custom deck file (TOML)",
        rated="Whether the game moves the players' ratings on this server",
        bank_hours="A time bank per seat, in hours, for moves that take longer than the pace",
        increment_minutes="Minutes added to a seat's time bank after each of its moves",
        bot_after="Timeouts in a row after which a bot takes the seat over (0: never)",
    )
    @app_commands.choices(pace=PACE_CHOICES)
    @names("here")
    async def create(
        self,
        interaction: Interaction,
        game: str,
        variant: str | None = None,
        options: str | None = None,
        pace: str = "async",
        deck: discord.Attachment | None = None,
        rated: bool = False,
        bank_hours: app_commands.Range[int, 0, 720] = 0,
        increment_minutes: app_commands.Range[int, 0, 1440] = 0,
        bot_after: app_commands.Range[int, 0, 10] = 0,
    ) -> None:
        """Open a new table in this channel; you are its host."""
        bank = (bank_hours * 3600.0, increment_minutes * 60.0, bot_after)
        work = self._create(interaction, game, variant, options, pace, deck, rated, bank)
        await guarded(interaction, work, public=True)

    async def _create(
        self,
        interaction: Interaction,
        game: str,
        variant: str | None,
        options: str | None,
        pace: str,
        deck: discord.Attachment | None,
        rated: bool = False,
        bank: tuple[float, float, int] = (0.0, 0.0, 0),
    ) -> None:
        chosen = parse_options(options)
        if variant:
            chosen["preset"] = variant
        if deck is not None:
            if rated:
                raise TableError("A table with a custom deck cannot be rated.")
            chosen["deck"] = await read_attached_deck(deck)
        record = await self.service.create(
            game,
            player(interaction),
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            options=chosen,
            turn_timeout=PACES.get(pace, PACES["async"]),
            rated=rated,
            bank=bank[0],
            increment=bank[1],
            hand_over_after=bank[2],
            prefs=await own_prefs(self.service, interaction.user.id),
        )
        async with after_save(
            f"Table {record.id} is open, but I could not finish setting it up here — "
            "use /table status to see it."
        ):
            await self._show_new_table(interaction, record)

    async def _show_new_table(self, interaction: Interaction, record: TableRecord) -> None:
        """Post the table message, open its log thread and remember both."""
        message = await public_message(interaction, **await self.flows.table_message(record))
        thread_id = None
        try:
            thread = await message.create_thread(
                name=fit(f"{self.service.engine(record.game).info.title} · {record.id}", 100)
            )
            thread_id = thread.id
        except discord.HTTPException:
            log.info("table %s: no thread could be opened; playing without a log thread", record.id)
        await self.service.attach(record.id, message_id=message.id, thread_id=thread_id)

    @create.autocomplete("game")
    async def _game_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(self.service, current)

    @create.autocomplete("variant")
    async def _variant_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        engine = self.service.games.get(getattr(interaction.namespace, "game", "") or "")
        names = list(engine.info.presets) if engine else []
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]

    async def _table_change(
        self, interaction: Interaction, verb: str, table: str | None, difficulty: BotLevel = "normal"
    ) -> None:
        async def change() -> None:
            try:
                who = actor(interaction)
                if verb == "join":
                    record = await self.service.find_lobby(interaction.channel_id, table, actor=who)
                else:
                    record = await self.service.find(who, interaction.channel_id, table)
            except TableDamaged as damaged:
                if verb != "abandon":
                    raise
                # A table that cannot be read can still be ended (by its host or a moderator).
                await self.flows.change_table(interaction, verb, damaged.damage.table_id)
                return
            await self.flows.change_table(interaction, verb, record.id, difficulty=difficulty)

        await guarded(interaction, change(), table)

    @app_commands.command(name="join")
    @app_commands.describe(table="Which table (leave empty for this channel's table)")
    @names("table")
    async def join(self, interaction: Interaction, table: str | None = None) -> None:
        """Take a seat at a table that has not started."""
        await self._table_change(interaction, "join", table)

    @app_commands.command(name="leave")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def leave(self, interaction: Interaction, table: str | None = None) -> None:
        """Leave a table; in a running game a bot takes over your seat."""
        await self._table_change(interaction, "leave", table)

    @app_commands.command(name="addbot")
    @app_commands.describe(
        table="Which table (leave empty for your table here)",
        difficulty="How well the bot plays (default: normal)",
    )
    @app_commands.choices(
        difficulty=[
            app_commands.Choice(name="easy — a quick glance ahead", value="easy"),
            app_commands.Choice(name="normal — a solid opponent", value="normal"),
            app_commands.Choice(name="hard — thinks longer", value="hard"),
        ]
    )
    @names("table")
    async def addbot(
        self, interaction: Interaction, table: str | None = None, difficulty: str = "normal"
    ) -> None:
        """(Host) Seat a bot that plays to win, at the difficulty you choose."""
        level = DIFFICULTIES.get(difficulty, "normal")

        async def add_bot() -> None:
            record = await self.service.find(actor(interaction), interaction.channel_id, table)
            try:
                # The table as this command saw it: a second identical command sent
                # at the same time finds it changed rather than seating a second bot.
                await self.flows.change_table(
                    interaction, "bot", record.id, difficulty=level, expected=record.version
                )
            except StaleClick as stale:
                await reply(interaction, ADD_BOT_STALE, embed=table_embed(self.service, stale.table))

        await guarded(interaction, add_bot(), table)

    @app_commands.command(name="start")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def start(self, interaction: Interaction, table: str | None = None) -> None:
        """(Host) Start the game with the seated players."""
        await self._table_change(interaction, "start", table)

    @app_commands.command(name="kick")
    @app_commands.describe(
        seat="The seat to remove (start typing to see them)",
        table="Which table (leave empty for your table here)",
    )
    @names("table")
    async def kick(self, interaction: Interaction, seat: str, table: str | None = None) -> None:
        """(Host) Remove a bot or a player from a table that has not started."""

        async def kick() -> None:
            record = await self.service.find(actor(interaction), interaction.channel_id, table)
            index, version = seat_named(record, seat)
            await self.flows.remove(interaction, record.id, index, version)

        await guarded(interaction, kick(), table)

    @kick.autocomplete("seat")
    async def _seats(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggestions(self._seat_choices(interaction, current))

    async def _seat_choices(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The lobby's other seats; each value names the seat and the version it was listed at."""
        record = await self.service.find(
            actor(interaction), interaction.channel_id, getattr(interaction.namespace, "table", None)
        )
        if record.status is not TableStatus.LOBBY:
            return []
        return [
            app_commands.Choice(name=fit(seat_label(record, i), 100), value=f"{i + 1}@{record.version}")
            for i, occupant in enumerate(record.seats)
            if occupant.user_id != interaction.user.id and current.lower() in seat_label(record, i).lower()
        ][:25]

    @app_commands.command(name="abandon")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def abandon(self, interaction: Interaction, table: str | None = None) -> None:
        """(Host or Manage Server) End a table without a result."""
        await self._table_change(interaction, "abandon", table)

    @app_commands.command(name="status")
    @app_commands.describe(table="Which table (leave empty for your table here)")
    @names("table")
    async def status(self, interaction: Interaction, table: str | None = None) -> None:
        """Show a table's public state."""

        async def status() -> None:
            record = await self.service.find(actor(interaction), interaction.channel_id, table)
            embed = table_embed(self.service, record)
            embeds, files = await self.flows.table_picture(record, embed)
            await reply(interaction, embeds=embeds, files=files)

        await guarded(interaction, status(), table)

    @app_commands.command(name="list")
    @names("here")
    async def list_tables(self, interaction: Interaction) -> None:
        """List the open tables in this channel."""

        await guarded(interaction, show(interaction, "here"))

    @app_commands.command(name="log")
    @app_commands.describe(table="Which table (leave empty for your table here; a finished one by its id)")
    @names("table")
    async def log_command(self, interaction: Interaction, table: str | None = None) -> None:
        """A table's log as files: the public log, and yours for you alone; after the end, all of it."""

        async def send_log() -> None:
            record = await self.service.find(actor(interaction), interaction.channel_id, table)
            await defer(interaction)  # the files take a while: say so, unless guarded already did
            entries = await self.service.store.log(record.id)
            engine = self.service.engine(record.game)
            seat = record.seat_of(interaction.user.id)
            wanted = [log_files(record, engine, entries)]
            if record.status.active and seat is not None:
                wanted.append(log_files(record, engine, entries, seat))
            if not all(f.fits for f in wanted):
                raise TableError("This log is too large to attach as a file.")
            files = [
                discord.File(io.BytesIO(text.encode()), f"{f.name}.{ext}")
                for f in wanted
                for ext, text in (("jsonl", f.jsonl), ("txt", f.text))
            ]
            await reply(interaction, _log_note(record, len(entries), len(wanted) > 1), files=files)

        await guarded(interaction, send_log(), table)

    @join.autocomplete("table")
    @leave.autocomplete("table")
    @addbot.autocomplete("table")
    @start.autocomplete("table")
    @kick.autocomplete("table")
    @abandon.autocomplete("table")
    @status.autocomplete("table")
    @log_command.autocomplete("table")
    async def _table_ids(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await table_choices(self.service, interaction, current)


def _log_note(record: TableRecord, entries: int, mine: bool) -> str:
    if not record.status.active:
        return (
            f"The whole log of table {record.id} ({entries} entries), seed included: anyone can check "
            f"the game with `gametable replay log-{record.id}.jsonl`."
        )
    note = f"The public log of table {record.id} ({entries} entries); every log is public once the game ends."
    if mine:
        note += f" `log-{record.id}-mine` adds your own moves and what only you were told."
    return note
