"""The tournament desk: the Discord side of running a tournament — the
registration and standings messages kept current, each round's tables posted
in the tournament's channel with a log thread and a ping, progress shown for
big rounds, and the round deadline told to the organiser.

Everything it does is driven by what is stored: a round's tables are made by
:meth:`TournamentService.seat_round` (idempotent), a table is posted only while
its record has no message (by one process at a time), and the background tick
(:meth:`tick`) resumes any round left half-seated by a restart; a refusal at one
table delays the tournament, never stops it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.app.announce import mentioning
from bot.app.ui.answer import after_save, guarded, reply
from bot.app.ui.embeds import fit
from bot.app.ui.flows import Flows, actor, player
from bot.app.ui.tournament_items import registration_message, standings_message
from bot.service.errors import TableError
from bot.service.tables import TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.standings import standings
from bot.tournaments.table_ends import Results
from engines.words import plural
from storage.post_claims import PostClaims
from storage.records import TableRecord
from storage.tournaments import Phase, Tournament

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
# A progress line every this many tables of a round (each edit is a request too).
PROGRESS_EVERY = 8
# How long a tournament whose progress was refused waits before the tick tries it again.
RETRY_AFTER = 60.0
# A registration change was saved, but its answer could not be shown.
REGISTRATION_COUNTED = (
    "That was done, but I could not show it here — the tournament message shows where it stands."
)


class TournamentDesk:
    def __init__(
        self, client: discord.Client, tournaments: TournamentService, results: Results, flows: Flows
    ) -> None:
        self.client = client
        self.tournaments = tournaments
        self.results = results
        self.flows = flows
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def tables(self) -> TableService:
        return self.tournaments.tables

    def title(self, tournament: Tournament) -> str:
        return self.tables.engine(tournament.game).info.title

    # ----- messages -----

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def refresh(self, tournament: Tournament) -> None:
        """Edit the registration and standings messages to the tournament as it is now."""
        channel = self._channel(tournament.channel_id)
        if tournament.message_id is not None:
            link = await self.flows.watch.tournament(tournament.guild_id, tournament.id)
            message = registration_message(tournament, self.title(tournament), link)
            await _edit(channel, tournament.message_id, **message)
        if tournament.standings_message_id is not None:
            await _edit(channel, tournament.standings_message_id, **standings_message(tournament))

    async def registration_button(self, interaction: Interaction, verb: str, tournament_id: str) -> None:
        async def press() -> None:
            who = player(interaction)
            service = self.tournaments
            await service.named(actor(interaction), tournament_id)  # only this server's, for its members
            if verb == "join":
                tournament, said = await service.join(tournament_id, who), "You are registered."
            elif verb == "leave":
                tournament, said = await service.leave(tournament_id, who.user_id), "You have left."
            else:
                tournament, said = await service.check_in(tournament_id, who.user_id), "You are checked in."
            async with after_save(REGISTRATION_COUNTED):  # saved: a failure from here on is no refusal
                await reply(interaction, said)
                await self.refresh(tournament)

        await guarded(interaction, press(), tournament_id)

    # ----- rounds -----

    async def run_round(self, tournament_id: str) -> Tournament:
        """Seat the current round (resuming one half-made), posting each new table;
        a progress message tells the channel how far a big round has got."""
        tournament = await self.tournaments.get(tournament_id)
        current = tournament.current
        if tournament.phase is not Phase.RUNNING or current is None or current.seated:
            return tournament
        channel = self._channel(tournament.channel_id)
        total = len(current.tables)
        progress: list[discord.Message] = []
        done = 0

        async def posted(record: TableRecord) -> None:
            nonlocal done
            await self.post_table(record, current.number)
            done += 1
            if total > PROGRESS_EVERY and (done % PROGRESS_EVERY == 0 or done == total):
                text = f"Seating round {current.number}: {done}/{plural(total, 'table')} ready."
                if progress:
                    await progress[0].edit(content=text)
                else:
                    progress.append(await channel.send(text))

        byes = "".join(f" <@{u}>" for u in current.byes)
        tournament, marked = await self.tournaments.seat_round_once(tournament_id, posted)
        if not marked:
            return tournament  # another seater finished the round first, and announces it
        note = f" Byes:{byes}." if byes else ""
        seated = tournament.current
        if seated is not None and seated.deadline is not None:
            note += f" The round ends <t:{int(seated.deadline)}:R>."
        await channel.send(
            fit(
                f"**{tournament.name}** — round {current.number} is seated ({plural(total, 'table')})."
                + note,
                2000,
            ),
            allowed_mentions=mentioning(current.byes),
        )
        await self.refresh(tournament)
        return tournament

    async def post_table(self, record: TableRecord, number: int) -> None:
        """Post a round's table as an ordinary table (message + log thread), once,
        whichever of the seaters running at once gets to it first."""
        if record.message_id is not None or record.channel_id is None:
            return
        claims = PostClaims(self.tables.store.redis)
        token = await claims.claim(record.id)
        if token is None:
            return  # another seater is posting it
        try:
            record = await self.tables.get(record.id)
            if record.message_id is None:
                await self._post_table(record, number)
        finally:
            await claims.release(record.id, token)

    async def _post_table(self, record: TableRecord, number: int) -> None:
        assert record.channel_id is not None
        channel_id = record.channel_id
        channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TableError("Tournament tables need a text channel for their threads.")
        message = await channel.send(**await self.flows.table_message(record))
        thread_id = None
        try:
            thread = await message.create_thread(name=fit(f"Round {number} · {record.id}", 100))
            thread_id = thread.id
            mentions = " ".join(f"<@{u}>" for u in record.user_ids)
            await thread.send(
                fit(f"{mentions} — your round {number} table is ready.", 2000),
                allowed_mentions=mentioning(record.user_ids),
            )
        except discord.HTTPException:
            log.info("table %s: no thread could be opened", record.id)
        await self.tables.attach(record.id, message_id=message.id, thread_id=thread_id)
        # The start's news (whose move it is) waits in the table's outbox: tell it now it has a thread.
        await self.flows.announcer.deliver(record.id)

    async def table_ended(self, record: TableRecord) -> None:
        """The outbox step for a finished table (see :meth:`Results.concerns`)."""
        tournament = await self.results.table_ended(record)
        if tournament is None:
            return
        await self.refresh(tournament)
        current = tournament.current
        if current is not None and current.closed:
            self._spawn(self.progress(tournament.id))  # also due in Redis, should this process die

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def progress(self, tournament_id: str) -> Tournament:
        """Do whatever the tournament waits for: finish seating a round, plan and
        seat the next once one has closed, tell the organiser a deadline passed."""
        tournament = await self.run_round(tournament_id)
        current = tournament.current
        if tournament.phase is Phase.RUNNING and current is not None and current.closed:
            tournament = await self.tournaments.advance(tournament_id)
            if tournament.phase is Phase.FINISHED:
                await self.finished(tournament)
                return tournament
            tournament = await self.run_round(tournament_id)
        passed = await self.tournaments.deadline_passed(tournament_id)
        if passed is not None and passed.current is not None:
            count = len(passed.current.open_tables)
            await self._channel(passed.channel_id).send(
                f"<@{passed.organiser_id}> — round {passed.current.number} of **{passed.name}** has reached "
                f"its deadline with {plural(count, 'table')} unfinished. "
                "Decide them with /tournament decide.",
                allowed_mentions=mentioning([passed.organiser_id]),
            )
        await self._reschedule(await self.tournaments.get(tournament_id))
        return tournament

    async def _reschedule(self, tournament: Tournament) -> None:
        current = tournament.current
        store = self.tournaments.store
        if tournament.phase is not Phase.RUNNING or current is None:
            await store.unschedule(tournament.id)
        elif current.deadline is not None and not current.deadline_told and not current.closed:
            await store.schedule(tournament.id, current.deadline)
        else:
            await store.unschedule(tournament.id)

    async def finished(self, tournament: Tournament) -> None:
        await self.refresh(tournament)
        podium = standings(tournament)[:3]
        named = ", ".join(f"{line.place}. <@{line.user_id}>" for line in podium)
        await self._channel(tournament.channel_id).send(
            fit(f"🏆 **{tournament.name}** is over. {named}", 2000),
            allowed_mentions=mentioning([line.user_id for line in podium]),
        )

    async def tick(self) -> None:
        """One pass over the tournaments with work due (the background sweeper's)."""
        for tournament_id in await self.tournaments.store.due(self.tournaments.clock()):
            try:
                await self.progress(tournament_id)
            except TableError as refusal:
                # A refusal at one table (or one step) is no reason to stop the tournament:
                # it is tried again a little later. Only a tournament that is gone stops.
                store = self.tournaments.store
                if await store.get(tournament_id) is None:
                    await store.unschedule(tournament_id)
                    continue
                log.warning("tournament %s: %s; will retry", tournament_id, refusal.message)
                await store.schedule(tournament_id, self.tournaments.clock() + RETRY_AFTER)
            except Exception:
                log.exception("tournament %s: could not make progress; will retry", tournament_id)

    async def wait(self) -> None:
        """Let work started from an outbox step finish (tests; shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


async def _edit(channel: discord.PartialMessageable, message_id: int, **message: Any) -> None:
    """Redraw a tournament message. Never raises: it is called after a saved change,
    which must not be reported as failed, and the next change redraws it anyway."""
    try:
        await channel.get_partial_message(message_id).edit(**message)
    except discord.NotFound:
        log.info("message %s is gone", message_id)
    except discord.HTTPException:
        log.warning("message %s could not be redrawn", message_id, exc_info=True)
