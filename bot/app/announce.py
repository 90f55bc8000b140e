"""Telling a table what happened: the public message edited in place, the
play-by-play in the table's thread, private news by DM, pings for whoever the
game now waits for.

Nothing here is told from memory: every saved change left an announcement in
the table's outbox (:mod:`storage.outbox`), and :meth:`Announcer.deliver`
tells it from there — right after the player's answer, and again by the
background drainer for whatever could not be told then (Discord or Redis
failing, the bot restarting). Each step (the message, each thread post, each
recipient's DM, the ping) is tried, recorded and retried on its own, so one
failure never silences another; a step that keeps failing is given up after
:data:`MAX_ATTEMPTS` with a log line.

Private events go only to their seats' DMs. When a DM is refused (50007: the
user's DMs are closed) the player is pinged in the thread with no secret
content and asked to press "My hand".
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.app.turn_notice import turn_dm
from bot.app.ui.embeds import fit, to_embed
from bot.render.recap import recap_panel
from bot.service.tables import TableService
from bot.tournaments.table_ends import Results
from storage import keys
from storage.outbox import Announcement, Lease, Outbox
from storage.records import TableRecord, TableStatus
from storage.store import STORAGE_FAULTS
from storage.user_settings import UserSettingsStore

if TYPE_CHECKING:
    from bot.app.ui.flows import Flows

log = logging.getLogger(__name__)
DMS_CLOSED = 50007
LINES_LIMIT = 1900
MAX_ATTEMPTS = 8
FIRST_RETRY = 5.0
LAST_RETRY = 600.0
Step = Callable[[], Awaitable[None]]


class LeaseLost(Exception):
    """Another drainer took the table over (ours ran out): stop telling it."""


class Announcer:
    def __init__(self, client: discord.Client, service: TableService, outbox: Outbox | None = None) -> None:
        self.client = client
        self.service = service
        self.outbox = outbox or service.store.outbox
        self.flows: Flows | None = None
        # Lists, rates and scores a finished table (idempotent by table id); set by the app.
        self.on_end: Callable[[TableRecord], Awaitable[None]] | None = None

    # ----- draining the outbox -----

    async def deliver(self, table_id: str) -> None:
        """Tell ``table_id`` everything waiting in its outbox, in order. Never
        raises: what cannot be told now stays in the outbox for the drainer."""
        try:
            await self._drain(table_id)
        except Exception:
            log.warning("table %s: announcements wait for the next drain", table_id, exc_info=True)

    async def deliver_due(self) -> None:
        """One pass of the background drainer over every table with news due."""
        # From a bucket picked at random, so drainers in several processes start apart.
        for table_id in await self.outbox.due(self.service.clock(), first=secrets.randbelow(keys.BUCKETS)):
            await self.deliver(table_id)

    async def _drain(self, table_id: str) -> None:
        lease = await self.outbox.claim(table_id)
        if lease is None:
            return  # another drainer is telling this table right now
        retry_at = None
        try:
            while (news := await self.outbox.head(lease)) is not None:
                if not await self._tell(lease, news):
                    retry_at = self.service.clock() + _backoff(news)
                    break
                if not await self.outbox.pop(lease):
                    raise LeaseLost(table_id)
        except Exception:
            retry_at = self.service.clock() + FIRST_RETRY
            raise
        finally:
            await self.outbox.release(lease, retry_at)

    async def _tell(self, lease: Lease, news: Announcement) -> bool:
        """Every step of ``news`` not yet done; ``False`` if one must be retried later."""
        try:
            record = await self.service.store.get(news.table_id)
        except STORAGE_FAULTS:
            raise
        except Exception:
            # A record that cannot be read cannot be told about; retrying would only
            # keep it in every pass of the drainer.
            log.warning(
                "table %s: unreadable, its news v%s is dropped", news.table_id, news.version, exc_info=True
            )
            return True
        if record is None:
            return True  # the table is gone: there is no one left to tell
        # The table message always shows the table as it is now, so only the last
        # news waiting redraws it: after an outage, one edit rather than one per change.
        last = await self.outbox.length(news.table_id) <= 1
        complete = True
        for name, step in self._steps(record, news, last):
            if name in news.done:
                continue
            try:
                await step()
            except Exception as error:
                attempts = news.attempts[name] = news.attempts.get(name, 0) + 1
                if not _lasting(error) and attempts < MAX_ATTEMPTS:
                    log.info(
                        "table %s v%s: %s failed (try %d); will retry",
                        record.id,
                        news.version,
                        name,
                        attempts,
                        exc_info=True,
                    )
                    complete = False
                    await self._record(lease, news)
                    continue
                log.warning(
                    "table %s v%s: gave up on %s after %d tries",
                    record.id,
                    news.version,
                    name,
                    attempts,
                    exc_info=True,
                )
            news.done.append(name)
            await self._record(lease, news)
        return complete

    async def _record(self, lease: Lease, news: Announcement) -> None:
        if not await self.outbox.record(lease, news):
            raise LeaseLost(lease.table_id)

    def _steps(self, record: TableRecord, news: Announcement, last: bool) -> list[tuple[str, Step]]:
        steps: list[tuple[str, Step]] = [("refresh", lambda: self.refresh(record))] if last else []
        thread = self._channel(record.thread_id)
        if thread is not None:
            for index, chunk in enumerate(_chunks(news.public)):
                steps.append((f"log:{index}", _send(thread, chunk)))
        for user_id, lines in news.private.items():
            steps.append((f"dm:{user_id}", partial(self._dm, record, user_id, lines)))
        settings, now = UserSettingsStore(self.service.store.redis), self.service.clock()
        for user_id, lines in news.reminders.items():
            steps.append((f"remind:{user_id}", partial(self._remind, record, user_id, lines, settings, now)))
        if news.ping:
            # Players in their quiet hours are mentioned apart, without a sound: two steps, so a
            # retry of one never repeats the other.
            steps.append(("ping", partial(self._ping, record, news.ping, settings, now, False)))
            steps.append(("ping:quiet", partial(self._ping, record, news.ping, settings, now, True)))
        for user_id in news.ping:
            notice = partial(turn_dm, self.client, settings, record, user_id, now, self._title(record))
            steps.append((f"turn:{user_id}", notice))
        if record.status is TableStatus.FINISHED and news.version == record.version:
            # The change that ended the game is a finished table's last one.
            steps.append(("recap", lambda: self._recap(record)))
        if self.on_end is not None and Results.concerns(record):
            on_end = self.on_end
            steps.append(("result", lambda: on_end(record)))
        return steps

    # ----- the steps -----

    def _title(self, record: TableRecord) -> str:
        """The game's title for a DM ("Spheres of Life", not its key "spheres-of-life")."""
        engine = self.service.games.get(record.game)
        return engine.info.title if engine is not None else record.game

    def _channel(self, channel_id: int | None) -> discord.PartialMessageable | None:
        return self.client.get_partial_messageable(channel_id) if channel_id else None

    async def refresh(self, record: TableRecord) -> None:
        """Edit the public table message in place, to the table as it is now."""
        channel = self._channel(record.channel_id)
        if channel is None or record.message_id is None or self.flows is None:
            return
        message: dict[str, Any] = await self.flows.table_message(record)
        if message["view"] is discord.utils.MISSING:
            message["view"] = None
        # Always given, so a picture from an earlier version never lingers (an empty list removes it).
        pictures = await self.flows.table_picture(record, message.pop("embed"))
        message["embeds"], message["attachments"] = pictures
        try:
            await channel.get_partial_message(record.message_id).edit(**message)
        except discord.NotFound:
            log.info("table %s: its message is gone", record.id)

    async def _dm(
        self, record: TableRecord, user_id: int, lines: list[str], *, closed_notice: bool = True
    ) -> None:
        """Private lines by DM; when the player's DMs are closed, a secret-free
        thread ping sends them to **My hand** (or, without ``closed_notice``, the
        refusal is the caller's to handle)."""
        try:
            dm = await self.client.create_dm(discord.Object(id=user_id))
            for chunk in _chunks([f"**Table {record.id}** ({self._title(record)}):", *lines]):
                await dm.send(chunk)
        except discord.Forbidden as refused:
            if refused.code != DMS_CLOSED or not closed_notice:
                raise
            channel = self._channel(record.thread_id or record.channel_id)
            if channel is not None:
                await channel.send(
                    f"<@{user_id}>, I could not DM you (your DMs are closed). Something happened at table "
                    f"{record.id} that only you can see — press **My hand** on its table message.",
                    allowed_mentions=mentioning([user_id]),
                )

    async def _remind(
        self, record: TableRecord, user_id: int, lines: list[str], settings: UserSettingsStore, now: float
    ) -> None:
        """A clock reminder: by DM, or in the table's thread — without a sound in the
        player's quiet hours, or aloud when their DMs are closed. It tells only the
        seat's time, which the table message shows everyone, so the thread may carry it."""
        if (await settings.get(user_id)).quiet_start(now) is None:
            try:
                await self._dm(record, user_id, lines, closed_notice=False)
                return
            except discord.Forbidden as refused:
                if refused.code != DMS_CLOSED:
                    raise
            silent = False
        else:
            silent = True
        channel = self._channel(record.thread_id or record.channel_id)
        if channel is not None:
            await channel.send(
                fit(f"<@{user_id}> " + " ".join(lines), 2000),
                allowed_mentions=mentioning([user_id]),
                silent=silent,
            )

    async def _ping(
        self, record: TableRecord, users: list[int], settings: UserSettingsStore, now: float, silent: bool
    ) -> None:
        """Mention those the game now waits for who are in their quiet hours
        (``silent``: the message makes no sound), or those who are not."""
        channel = self._channel(record.thread_id or record.channel_id)
        if channel is None:
            return
        group = [u for u in users if ((await settings.get(u)).quiet_start(now) is not None) is silent]
        if group:
            await channel.send(
                fit(f"{' '.join(f'<@{u}>' for u in group)} — your move at table {record.id}.", 2000),
                allowed_mentions=mentioning(group),
                silent=silent,
            )

    async def _recap(self, record: TableRecord) -> None:
        """The recap of a finished game, in the table's thread."""
        channel = self._channel(record.thread_id or record.channel_id)
        engine = self.service.engine(record.game)
        state = self.service.state(record)
        result = engine.result(state)
        if channel is None or result is None:
            return
        entries = await self.service.store.log(record.id)
        panel = recap_panel(engine.info.title, record, result, engine.recap(state), entries)
        panel.footer = f"The whole log, seed included: /table log table:{record.id}"
        embed = to_embed(panel, lambda text: self.service.text(record, text), discord.Colour.gold())
        await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())


def mentioning(users: list[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly these users: AllowedMentions(users=True) alone
    would also let @everyone and roles through, should a name or text ever carry one."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=u) for u in users]
    )


def _send(channel: discord.PartialMessageable, text: str) -> Step:
    async def send() -> None:
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())

    return send


def _lasting(error: Exception) -> bool:
    """A refusal that retrying cannot change (a 4xx other than rate limiting)."""
    return isinstance(error, discord.HTTPException) and 400 <= error.status < 500 and error.status != 429


def _backoff(news: Announcement) -> float:
    tries = max(news.attempts.values(), default=1)
    return float(min(LAST_RETRY, FIRST_RETRY * 2 ** (tries - 1)))


def _chunks(lines: list[str]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, LINES_LIMIT)
        if current and len(current) + 1 + len(line) > LINES_LIMIT:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
