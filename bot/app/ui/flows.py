"""What a click or a command does, for every game alike: call TableService,
answer the user (first, within Discord's 3 seconds), then tell the table.

:func:`~bot.app.ui.answer.guarded` is the one error handler: refusals become short
ephemeral answers; anything unexpected is logged with the table id and answered
politely. A failure before the save changed nothing; whatever follows a save is
wrapped in :func:`~bot.app.ui.answer.after_save`, so the player learns it counted.
The table is told from the outbox the save wrote (:meth:`Announcer.deliver`).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.app.ui.answer import MOVE_COUNTED, SORRY, acknowledge, after_save, guarded, reply, update
from bot.app.ui.components import SeatSelect
from bot.app.ui.embeds import fit, shown_name, table_embed, to_embed
from bot.app.ui.panels import act_panel, table_view
from bot.app.ui.pictures import HAND_PICTURE, TABLE_PICTURE, attach
from bot.app.ui.watch_links import WatchLinks
from bot.render.cardtext import choices_panel
from bot.render.menu import level, narrow
from bot.render.pictures.maker import TablePictures
from bot.service import policy
from bot.service.away import back_from_vacation
from bot.service.catch_up import since_last_move
from bot.service.errors import StaleClick, TableDamaged, TableError
from bot.service.policy import Actor
from bot.service.seating import Drawn, check_drawn, check_removal, drawn_for, in_lobby, seat_label
from bot.service.tables import Outcome, Player, TableService
from bot.service.user_prefs import own_prefs
from storage.preferences import SettingsStore
from storage.records import BotLevel, TableRecord, TableStatus


class Announcing(Protocol):
    """What the flows use of the announcer (:class:`bot.app.announce.Announcer`,
    which draws the table's post with these flows)."""

    async def deliver(self, table_id: str) -> None: ...


log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
__all__ = ["SORRY", "Flows", "actor", "guarded", "moderates", "player", "reply"]
# Lobby changes only the host (or a moderator) makes: judged in the table's own server.
POWERS = ("bot", "start", "kick", "abandon")


def member_player(member: discord.Member | discord.User) -> Player:
    """A member as a seat's player: the name as embeds and log lines may show it."""
    return Player(member.id, fit(shown_name(member.display_name), 40))


def player(interaction: Interaction) -> Player:
    return member_player(interaction.user)


def actor(interaction: Interaction) -> Actor:
    """Who asks and where from, as :mod:`bot.service.policy` judges it: the member data
    Discord sends with the interaction, for the server it comes from alone."""
    user = interaction.user
    if interaction.guild_id is None or not isinstance(user, discord.Member):
        return Actor(user.id)
    return Actor(
        user.id,
        interaction.guild_id,
        interaction.channel_id,
        member=True,
        # As the interaction's own member data says (not a cache of the server).
        manage_guild=interaction.permissions.manage_guild,
        role_ids=frozenset(r.id for r in getattr(user, "roles", [])),
    )


def moderates(interaction: Interaction, guild_id: int | None) -> bool:
    """Manage Server in ``guild_id`` (an object's own server), judged from this interaction."""
    return policy.moderates(actor(interaction), guild_id)


class Flows:
    def __init__(self, service: TableService, announcer: Announcing, watch: WatchLinks | None = None) -> None:
        self.service = service
        self.announcer = announcer
        self.watch = watch or WatchLinks(SettingsStore(service.store.redis), None)
        self.pictures = TablePictures(service.view)

    async def table(self, interaction: Interaction, table_id: str, *, to_change: bool = False) -> TableRecord:
        """The table a component or a command names, as this user may see it
        from here (:mod:`bot.service.policy`): another server's is answered as none.
        ``to_change``: only checked before a change that reads it again."""
        return await self.service.named(actor(interaction), table_id, to_change=to_change)

    async def powers_at_home(self, interaction: Interaction, table_id: str) -> bool:
        """Refuse a host's or a moderator's change asked from outside the table's
        server; whether the user moderates it (Manage Server there)."""
        who = actor(interaction)
        try:
            guild = (await self.table(interaction, table_id, to_change=True)).guild_id
        except TableDamaged as damaged:  # the server as its unreadable record still says
            guild = policy.salvaged_server(who, damaged.damage.salvaged)
        policy.powers_at_home(who, guild)
        return policy.moderates(who, guild)

    # ----- the act panel -----

    def panel(
        self, record: TableRecord, user_id: int, path: list[int] | None = None, note: str = ""
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The ephemeral act panel: my view and my legal choices as components."""
        return act_panel(self.service, record, user_id, path, note)

    async def _show_panel(
        self,
        interaction: Interaction,
        record: TableRecord,
        path: list[int] | None = None,
        note: str = "",
        edit: bool = False,
    ) -> None:
        embed, view = self.panel(record, interaction.user.id, path, note)
        embeds, files = attach(await self.pictures.hand(record, interaction.user.id), HAND_PICTURE, embed)
        if edit:
            await update(interaction, embeds=embeds, view=view, attachments=files)
        else:
            await reply(interaction, embeds=embeds, view=view, files=files)

    # ----- component callbacks -----

    async def table_button(self, interaction: Interaction, verb: str, table_id: str, version: int) -> None:
        await guarded(interaction, self._table_button(interaction, verb, table_id, version), table_id)

    async def _table_button(self, interaction: Interaction, verb: str, table_id: str, version: int) -> None:
        drawn = drawn_for(verb, version)
        if verb in ("hand", "act"):
            record = _in_play(await self.table(interaction, table_id), interaction.user.id)
            check_drawn(record, drawn, verb)
            await self.hand(interaction, record)
        elif verb == "kick":
            await self.removal_menu(interaction, table_id, drawn)
        else:
            if verb not in POWERS:  # a host's or moderator's change is checked by powers_at_home
                await self.table(interaction, table_id, to_change=True)
            await self.change_table(interaction, verb, table_id, drawn)

    async def change_table(
        self,
        interaction: Interaction,
        verb: str,
        table_id: str,
        drawn: Drawn | None = None,
        difficulty: BotLevel = "normal",
        expected: int | None = None,
    ) -> None:
        """A lobby change (join, leave, bot, start, abandon), from a button (which
        carries the stage and version it was drawn at) or a command (none).
        ``difficulty``: how well an added bot plays (the Add bot button: normal).
        ``expected``: the version a command saw (``/table addbot``), so two at once add one bot.
        The caller has found the table as the user may see it (:meth:`table`)."""
        moderator = await self.powers_at_home(interaction, table_id) if verb in POWERS else False
        outcome = await self.lobby(verb, table_id, interaction, drawn, difficulty, moderator, expected)
        await self._told(interaction, outcome, DONE[verb].format(id=table_id))

    async def _told(self, interaction: Interaction, outcome: Outcome, done: str, panel: bool = False) -> None:
        """Answer a saved change with ``done`` (on the clicked ``panel``, or as a new
        message), then tell the table — even if the answer failed."""
        try:
            async with after_save():
                if panel:
                    await update(interaction, content=done, view=None)
                else:
                    await reply(interaction, done)
        finally:
            await self.announcer.deliver(outcome.table.id)

    async def lobby(
        self,
        verb: str,
        table_id: str,
        interaction: Interaction,
        drawn: Drawn | None = None,
        difficulty: BotLevel = "normal",
        moderator: bool = False,
        expected: int | None = None,
    ) -> Outcome:
        user = interaction.user.id
        if verb == "join":
            prefs = await own_prefs(self.service, user)
            return await self.service.join(table_id, player(interaction), drawn, prefs)
        if verb == "leave":
            return await self.service.leave(table_id, user, drawn)
        if verb == "bot":
            return await self.service.add_bot(table_id, user, drawn, difficulty, expected)
        if verb == "start":
            return await self.service.start(table_id, user, drawn)
        return await self.service.abandon(table_id, user, moderator=moderator)

    # ----- removing a seat from the lobby (host only) -----

    async def removal_menu(
        self, interaction: Interaction, table_id: str, drawn: Drawn | None, note: str = "", edit: bool = False
    ) -> None:
        """The host's private list of the other lobby seats, to remove one."""
        record = await self.table(interaction, table_id)
        policy.powers_at_home(actor(interaction), record.guild_id)
        check_removal(record, interaction.user.id, drawn)
        options = [
            discord.SelectOption(label=fit(seat_label(record, i), 100), value=str(i))
            for i, seat in enumerate(record.seats)
            if seat.user_id != interaction.user.id
        ][:25]
        if not options:
            raise TableError("Nobody else is seated at this table.")
        view = discord.ui.View(timeout=None)
        view.add_item(SeatSelect(record.id, record.version, options))
        content = "\n".join(filter(None, [note, f"Remove a seat from table {record.id}:"]))
        if edit:
            await update(interaction, content=content, view=view)
        else:
            await reply(interaction, content, view=view)

    async def remove_pick(self, interaction: Interaction, table_id: str, version: int, seat: int) -> None:
        async def remove_pick() -> None:
            await self.powers_at_home(interaction, table_id)
            try:
                outcome = await self.service.remove_seat(
                    table_id, interaction.user.id, seat, in_lobby(version)
                )
            except StaleClick:
                note = "The table changed since this list was drawn — here it is again."
                await self.removal_menu(interaction, table_id, None, note, edit=True)
                return
            await self._told(interaction, outcome, fit(outcome.public_events[0].text, 2000), panel=True)

        await guarded(interaction, remove_pick(), table_id)

    async def remove(self, interaction: Interaction, table_id: str, seat: int, version: int | None) -> None:
        """``/table kick``: ``version`` is the lobby its autocomplete listed, if any."""
        await self.powers_at_home(interaction, table_id)
        try:
            outcome = await self.service.remove_seat(table_id, interaction.user.id, seat, in_lobby(version))
        except StaleClick:
            raise TableError("The table changed since that seat was listed — please pick it again.") from None
        await self._told(interaction, outcome, fit(outcome.public_events[0].text, 2000))

    async def play(self, interaction: Interaction, table_id: str, version: int | None, key: str) -> None:
        async def play() -> None:
            await self.table(interaction, table_id, to_change=True)
            await self._play(interaction, table_id, version, key)

        await guarded(interaction, play(), table_id)

    async def _play(self, interaction: Interaction, table_id: str, version: int | None, key: str) -> None:
        from_panel = interaction.type is discord.InteractionType.component
        try:
            outcome = await self.service.act(table_id, interaction.user.id, key, version)
        except StaleClick as stale:
            if from_panel and _moved_since(stale.table, interaction.user.id, version):
                await self._second_click(interaction)
                return
            note = stale.message if from_panel else COMMAND_STALE
            await self._show_panel(interaction, stale.table, note=note, edit=from_panel)
            return
        try:
            async with after_save(MOVE_COUNTED):
                await self._confirm(interaction, outcome, from_panel)
        finally:
            await self.announcer.deliver(outcome.table.id)
            await self._back_from_vacation(interaction.user.id, outcome)

    async def _back_from_vacation(self, user_id: int, outcome: Outcome) -> None:
        """After the answer: a move ends the player's vacation at every table."""
        try:
            for other in await back_from_vacation(self.service, user_id, outcome):
                await self.announcer.deliver(other.table.id)
        except Exception:
            log.warning("user %s is back, but not yet at every table", user_id, exc_info=True)

    async def _confirm(self, interaction: Interaction, outcome: Outcome, from_panel: bool) -> None:
        """Show the player what their move did (the panel, redrawn where it was)."""
        seat = outcome.seat
        private = outcome.private_events(seat) if seat is not None else []
        mine = [self.service.text(outcome.table, e.text) for e in private]
        done = [self.service.text(outcome.table, e.text) for e in outcome.public_events]
        note = fit("\n".join(mine + done[-3:]), 1500)
        if outcome.table.status is TableStatus.PLAYING:
            await self._show_panel(interaction, outcome.table, note=note, edit=from_panel)
        elif from_panel:
            last_word = fit(note or "Done.", 2000)
            await update(interaction, content=last_word, embed=None, view=None, attachments=[])
        else:
            await reply(interaction, fit(note or "Done.", 2000))

    async def _second_click(self, interaction: Interaction) -> None:
        """A click on a panel the player has moved on from (a double click): the
        panel keeps the confirmation of the click that counted."""
        await acknowledge(interaction)
        await reply(interaction, SECOND_CLICK)

    async def menu_pick(
        self, interaction: Interaction, table_id: str, version: int, path: list[int], picked: int
    ) -> None:
        await guarded(interaction, self._menu_pick(interaction, table_id, version, path, picked), table_id)

    async def _menu_pick(
        self, interaction: Interaction, table_id: str, version: int, path: list[int], picked: int
    ) -> None:
        record = _in_play(await self.table(interaction, table_id), interaction.user.id)
        if record.version != version:
            if _moved_since(record, interaction.user.id, version):
                await self._second_click(interaction)
                return
            # Menu paths are indexes into one version's choices: redraw from the top.
            await self._show_panel(interaction, record, note=StaleClick(record).message, edit=True)
            return
        if picked < 0:
            raise TableError("That is not an option on this menu.")
        options = level(self.service.choices(record, interaction.user.id), path)
        option = next((o for o in options if o.index == picked), None)
        if option is None:
            await self._show_panel(interaction, record, note="That option is gone.", edit=True)
        elif option.choice is not None:
            await self._play(interaction, table_id, version, option.choice.key)
        else:
            await self._show_panel(interaction, record, [*path, picked], edit=True)

    async def navigate(self, interaction: Interaction, table_id: str, version: int, path: list[int]) -> None:
        async def navigate() -> None:
            record = _in_play(await self.table(interaction, table_id), interaction.user.id)
            await self._show_panel(interaction, record, path if record.version == version else [], edit=True)

        await guarded(interaction, navigate(), table_id)

    async def card_text(self, interaction: Interaction, table_id: str, version: int, path: list[int]) -> None:
        """The whole text of the cards the panel's choices name, as a new private message."""

        async def card_text() -> None:
            record = _in_play(await self.table(interaction, table_id), interaction.user.id)
            # A path means something only at the version it was drawn at.
            here = path if record.version == version else []
            choices = narrow(self.service.choices(record, interaction.user.id), here)
            panel = choices_panel(choices)
            embed = to_embed(panel, lambda text: self.service.text(record, text), discord.Colour.dark_teal())
            await reply(interaction, embed=embed)

        await guarded(interaction, card_text(), table_id)

    # ----- used by slash commands -----

    async def hand(self, interaction: Interaction, record: TableRecord) -> None:
        """My view and my moves, for "My hand", "Act" and /hand alike, after what
        happened since my last move."""
        record = _in_play(record, interaction.user.id)
        news = await since_last_move(self.service, record, interaction.user.id)
        await self._show_panel(interaction, record, note=news)

    async def table_message(self, record: TableRecord) -> dict[str, Any]:
        view = table_view(record, await self.watch.table(record))
        return {"embed": table_embed(self.service, record), "view": view or discord.utils.MISSING}

    async def table_picture(
        self, record: TableRecord, embed: discord.Embed
    ) -> tuple[list[discord.Embed], list[discord.File]]:
        """The table's ``embed`` showing the public picture, an embed per further page of
        it, and their files (just ``embed`` and no file for a game without a picture)."""
        return attach(await self.pictures.table(record), TABLE_PICTURE, embed)


def _in_play(record: TableRecord, user_id: int) -> TableRecord:
    """The table, if it is in play and the user holds a seat at it; else say why not."""
    if record.status is TableStatus.FINISHED:
        raise TableError(f"The game at table {record.id} is over — the table message shows the result.")
    if record.status is TableStatus.ABANDONED:
        raise TableError(f"Table {record.id} was abandoned.")
    if record.seat_of(user_id) is None:
        raise TableError("You are not seated at this table.")
    if record.status is not TableStatus.PLAYING:
        raise TableError("This table has not started yet.")
    return record


def _moved_since(record: TableRecord, user_id: int, version: int | None) -> bool:
    """Whether the user's seat has moved since ``version`` (their click is a second one)."""
    seat = record.seat_of(user_id)
    return seat is not None and version is not None and record.acted_at.get(seat, -1) >= version


SECOND_CLICK = "You have already moved since this panel was drawn, so that click changed nothing."
COMMAND_STALE = "That move was already made, or the table moved on — here is where it stands now."
DONE = {
    "join": "You have joined table {id}.",
    "leave": "You have left table {id}.",
    "bot": "A bot takes a seat at table {id}.",
    "start": "Table {id} has started — press **My hand** or **Act** (or use /hand) to play.",
    "abandon": "Table {id} is abandoned.",
}
