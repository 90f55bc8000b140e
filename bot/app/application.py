"""The Discord application: the bot object, its start-up and shut-down, the
deadline sweeper, the outbox drainer, and the last-resort answers (slash
command errors, components no item answers).

Nothing about a table is kept in this process: every click loads the table
from Redis, so several bot processes (each owning some shards) can share one
Redis, and a restarted bot carries on where the old one stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable
from typing import Any

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot.app.announce import Announcer
from bot.app.cogs.async_play import AsyncPlayCommands
from bot.app.cogs.play import PlayCommands
from bot.app.cogs.ratings import RatingCommands
from bot.app.cogs.reading import ReadingCommands
from bot.app.cogs.server_settings import SettingsCommands
from bot.app.cogs.tables import TableCommands
from bot.app.cogs.tournaments import TournamentCommands
from bot.app.ui.answer import safe_reply
from bot.app.ui.flows import SORRY, Flows
from bot.app.ui.items import DYNAMIC_ITEMS, OTHER_ITEMS, is_ours
from bot.app.ui.tournament_desk import TournamentDesk
from bot.app.ui.tournament_items import TournamentButton
from bot.app.ui.watch_links import WatchLinks
from bot.ops.settings import Settings
from bot.service.ratings import RatingService
from bot.service.tables import TableService
from bot.tournaments.service import TournamentService
from bot.tournaments.table_ends import Results
from storage.preferences import SettingsStore
from storage.ratings import RatingStore
from storage.tournaments import TournamentStore

log = logging.getLogger(__name__)
OLD_COMPONENT = "This button is from an old version of the table — use /table status to see it now."
RESCAN_EVERY = 300.0
# Seconds a closing bot waits for a sweep or an outbox drain under way to end.
STOP_WITHIN = 5.0


class GameTableMixin:
    """Shared by the single-process and the sharded bot."""

    service: TableService
    flows: Flows
    announcer: Announcer
    desk: TournamentDesk
    settings: Settings
    ratings: RatingService
    tournaments: TournamentService
    sync_commands: bool
    _sweeper: asyncio.Task[None] | None
    _drainer: asyncio.Task[None] | None

    def _wire(self, service: TableService, settings: Settings, sync_commands: bool) -> None:
        self.service = service
        self.settings = settings
        self.sync_commands = sync_commands
        self.announcer = Announcer(self, service)  # type: ignore[arg-type]
        watch = WatchLinks(SettingsStore(service.store.redis), settings.public_url)
        self.flows = Flows(service, self.announcer, watch)
        self.announcer.flows = self.flows
        redis = service.store.redis
        ratings = RatingService(RatingStore(redis), service.clock)
        tournaments = TournamentService(TournamentStore(redis), service, ratings, clock=service.clock)
        results = Results(ratings, tournaments)
        self.ratings, self.tournaments = ratings, tournaments
        self.desk = TournamentDesk(self, tournaments, results, self.flows)  # type: ignore[arg-type]
        self.announcer.on_end = self.desk.table_ended
        self._sweeper = None
        self._drainer = None

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.add_cog(TableCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(PlayCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(ReadingCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(TournamentCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(SettingsCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(RatingCommands(self))  # type: ignore[arg-type]
        await bot.add_cog(AsyncPlayCommands(self))  # type: ignore[arg-type]
        bot.add_dynamic_items(*DYNAMIC_ITEMS, *OTHER_ITEMS, TournamentButton)
        bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        if self.sync_commands:
            await self._sync(bot)
        self._sweeper = asyncio.create_task(self._sweep(), name="gametable-deadline-sweeper")
        self._sweeper.add_done_callback(_log_crash)
        self._drainer = asyncio.create_task(self._drain(), name="gametable-outbox-drainer")
        self._drainer.add_done_callback(_log_crash)

    async def _sync(self, bot: commands.Bot) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            await bot.tree.sync(guild=guild)
        else:
            await bot.tree.sync()

    async def _sweep(self) -> None:
        """Play the default move for seats whose time ran out; driven by the
        deadlines stored in Redis, so a restart loses nothing."""
        due = asyncio.Event()
        self.service.on_due = due.set
        await self.adopt_legacy_schedules()
        while True:
            # Every sweep_interval, or at once when a save left a table due now
            # (a long chain of bot moves goes on without waiting a round).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.sweep_interval):
                    await due.wait()
            due.clear()
            await self.sweep_once()
            stop_if_cancelled()

    async def adopt_legacy_schedules(self) -> None:
        """Move what the single-key schedules of earlier versions still hold
        into their buckets. Only a head start: every sweep and drain reads that
        key alongside the buckets until it is empty."""
        try:
            moved = await self.service.store.deadlines.adopt_legacy()
            moved += await self.announcer.outbox.index.adopt_legacy()
            moved += await self.desk.tournaments.store.due_index.adopt_legacy()
        except Exception:
            log.exception("the earlier schedules were not moved now; the sweeps move them as they go")
            return
        if moved:
            log.info("moved %d schedule entries of an earlier version into buckets", moved)

    async def sweep_once(self) -> None:
        try:
            for outcome in await self.service.expire():
                await self.announcer.deliver(outcome.table.id)
        except Exception:
            log.exception("deadline sweep failed; will retry")
        # Rounds to seat or resume, closed rounds to follow, round deadlines: all stored in Redis.
        await self.desk.tick()

    async def _drain(self) -> None:
        """Tell tables what could not be told at once (Discord or Redis failing, a
        restart in between); driven by the outboxes in Redis, so nothing is lost."""
        rescanned = -RESCAN_EVERY
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.settings.outbox_interval)
            if loop.time() - rescanned >= RESCAN_EVERY:
                rescanned = loop.time()
                await self.drain_once(rescan=True)
            else:
                await self.drain_once()
            stop_if_cancelled()

    async def drain_once(self, *, rescan: bool = False) -> None:
        try:
            if rescan:
                await self.announcer.outbox.rescan()
            await self.announcer.deliver_due()
        except Exception:
            log.exception("outbox drain failed; will retry")

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the components no item will: a custom_id from an old format or a forged one."""
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        if not _item_will_answer(interaction):
            await safe_reply(interaction, OLD_COMPONENT)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            message = "Tables live in server channels — use this command in a server."
        elif isinstance(error, app_commands.CheckFailure):
            message = "You cannot use this command here."
        else:
            log.error("slash command failed", exc_info=error)
            message = SORRY
        await safe_reply(interaction, message)

    async def close(self) -> None:
        running = [task for task in (self._sweeper, self._drainer) if task is not None and not task.done()]
        for task in running:
            task.cancel()
        if running:
            # A sweep or drain under way ends first (its table saved or not, never half-told).
            await asyncio.wait(running, timeout=STOP_WITHIN)
        await super().close()  # type: ignore[misc]


def stop_if_cancelled() -> None:
    """End a background loop whose task was asked to stop. On Python 3.11 a
    cancellation that arrives just as an awaited command completes can be lost
    inside ``asyncio.wait_for`` (used by redis-py), which returns the result
    instead of raising; the task still counts the request, so the loop ends at
    its next round rather than sleeping on for ever."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _item_will_answer(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py hands this interaction to one of our items: the custom_id
    matches a template and is on the message clicked (as discord.py checks)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if interaction.type is not discord.InteractionType.component or not _ours(custom_id):
        return False
    rows = interaction.message.components if interaction.message is not None else []
    return any(
        getattr(item, "custom_id", None) == custom_id and item.type.value == data.get("component_type")
        for row in rows
        for item in getattr(row, "children", [row])
    )


def _ours(custom_id: str) -> bool:
    tournament = TournamentButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    return is_ours(custom_id) or tournament.fullmatch(custom_id) is not None


def _log_crash(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task %s died", task.get_name(), exc_info=task.exception())


class GameTableBot(GameTableMixin, commands.Bot):
    def __init__(
        self, service: TableService, settings: Settings, *, sync_commands: bool = True, **options: Any
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self._wire(service, settings, sync_commands)


class ShardedGameTableBot(GameTableMixin, commands.AutoShardedBot):
    def __init__(
        self, service: TableService, settings: Settings, *, sync_commands: bool = True, **options: Any
    ) -> None:
        if settings.shard_ids is not None:  # None would mean "all shards", which is the default anyway
            options["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            shard_count=settings.shard_count,
            **options,
        )
        self._wire(service, settings, sync_commands)


def build_bot(
    service: TableService, settings: Settings, **options: Any
) -> GameTableBot | ShardedGameTableBot:
    """The bot for these settings: with SHARD_COUNT or SHARD_IDS, one that runs just those shards."""
    sharded = settings.shard_ids is not None or settings.shard_count is not None
    bot_class = ShardedGameTableBot if sharded else GameTableBot
    return bot_class(service, settings, **options)


async def run_bot(settings: Settings) -> None:
    """Run until stopped (SIGINT/SIGTERM close the gateway and Redis cleanly)."""
    from storage.connect import open_redis
    from storage.retention import DAY, Retention
    from storage.store import TableStore

    if settings.discord_token is None:
        raise SystemExit("DISCORD_TOKEN is not set.")
    async with open_redis(settings.redis_url, settings.data_dir) as redis:
        days = settings.retention_days, settings.lobby_idle_days
        retention = Retention(finished=days[0] * DAY, idle_lobby=days[1] * DAY)
        service = TableService(TableStore(redis, retention), turn_timeout=settings.turn_timeout)
        bot = build_bot(service, settings)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda: asyncio.create_task(bot.close()))
        runners: list[web.AppRunner] = []
        try:
            await _serve_http(settings, service, bot, runners)
            async with bot:
                await bot.start(settings.discord_token.get_secret_value())
        finally:
            for runner in runners:
                await runner.cleanup()


async def _serve_http(
    settings: Settings,
    service: TableService,
    bot: GameTableBot | ShardedGameTableBot,
    runners: list[web.AppRunner],
) -> None:
    """Start /metrics and /healthz (METRICS_PORT) and the web pages (WEB_PORT),
    adding each to ``runners``; a port that cannot be served stops the bot with
    one sentence."""
    if settings.metrics_port is not None:
        from bot.ops import health, metrics

        metrics.watch_rate_limits()
        connected = lambda: bot.is_ready() and not bot.is_closed()  # noqa: E731
        where = settings.metrics_host, settings.metrics_port
        runners.append(await _bound("/metrics", where, health.serve(service.store, connected, *where)))
    if settings.web_port is not None:
        from bot.web.server import serve
        from bot.web.site import Site

        site = Site(service, bot.tournaments, bot.ratings, public_url=settings.public_url or "")
        where = settings.web_host, settings.web_port
        runners.append(await _bound("the web pages", where, serve(site, *where)))


async def _bound(what: str, where: tuple[str, int], serving: Awaitable[web.AppRunner]) -> web.AppRunner:
    try:
        return await serving
    except OSError as error:  # the port taken, or an address this host does not have
        said = error.strerror or str(error)
        raise SystemExit(f"Cannot serve {what} on {where[0]}:{where[1]}: {said}.") from None
