"""Offline end-to-end harness: real discord.py dispatch, recorded HTTP.

Choice: our own small harness, not ``simcord`` (3.2.1, evaluated). simcord is capable, but it
(1) wraps the event loop itself (``create_task``/``call_soon``/``call_later``/executors, virtual
time) - invasive for a bot that talks to Redis; (2) only accepts interactions its in-memory
backend built, so feeding our own raw payloads means using its non-public ``Backend``;
(3) does not capture uploaded files and feeds ``ConnectionState.parsers`` directly. Here:

* inbound: every event is a raw gateway frame ``{"op": 0, "t": ..., "s": ..., "d": payload}``
  (JSON text) given to discord.py's own ``DiscordWebSocket.received_message`` - READY, GUILD_CREATE,
  INTERACTION_CREATE - so CommandTree, ViewStore, DynamicItem and Modal dispatch run for real;
* outbound: ``HTTPClient.request`` (per bot instance) and ``AsyncWebhookAdapter.request`` (class,
  interaction callbacks/followups) are replaced by ``_handle`` (``responses.py``), which records each
  request as a ``Request``, runs ``limits.check_payload`` on its JSON and files, enforces the
  interaction lifecycle (one initial response within 3 seconds, followups and edits after it, a token
  good for 15 minutes), applies injected faults and answers with plausible JSON (messages with fresh
  snowflakes, DM/thread channels, callback responses, ...). A request Discord would refuse gets
  Discord's error (the bot sees what it would see) and is recorded in ``violations``, which fail the
  interaction (or ``close``) unless the test takes them with ``take_problems``;
* waiting: after feeding an event, ``settle()`` waits for every task started since (so real I/O,
  such as a Redis round trip, is waited for), then yields to the loop until no callback is runnable
  and no timer is due within ``settle_horizon`` (short sleeps are waited for, View timeouts are not).
  No fixed sleeps.

Layout: ``DiscordHarness`` (here: lifecycle, gateway, waiting) builds on ``UserActions``
(``actions.py``: acting as users, what the bot did), ``DiscordAnswers`` (``responses.py``: faults,
recorder, Discord's answers) and ``World`` (``world.py``: the factories over ``entities.py``); the
records (``Request``, ``SentMessage``, ``InteractionResult``, ...) live in ``records.py``, option and
modal payloads in ``options.py``; ``payloads.py`` re-exports the data side as ``P``.

Usage::

    async with DiscordHarness(lambda: GametableBot(settings)) as h:
        alice = h.create_user("alice", manage_guild=True)
        result = await h.slash(alice, "table create", {"game": "highcard"})
        assert result.content.startswith("Table") and not result.ephemeral
        await h.click(alice, result.message, result.message.custom_ids[0])
        h.close_dms(alice)                      # DMs now fail with 403 / 50007
        await h.restart()                       # fresh bot objects, same Discord; old buttons still work
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Callable
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from discord.shard import Shard
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.e2e.actions import UserActions
from tests.e2e.limits import check_payload
from tests.e2e.records import Fault, InteractionRecord, InteractionResult, Request, SentMessage

__all__ = ["DiscordHarness", "InteractionResult", "Request", "SentMessage"]

# Seconds a closing bot and its cancelled tasks get to finish (they take milliseconds).
CLOSE_WITHIN = 20.0


def where(task: asyncio.Task[Any]) -> str:
    """A task and the chain of awaits it is suspended in, outermost first."""
    places: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(places) < 40:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is not None:
            file = frame.f_code.co_filename.rsplit("/", 1)[-1]
            places.append(f"{frame.f_code.co_name} ({file}:{frame.f_lineno})")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return f"{task.get_name()}: " + " > ".join(places or [repr(awaited)])


BotFactory = Callable[[], discord.Client]


def _is_view_timeout(task: asyncio.Task[Any]) -> bool:
    """A View's timeout timer: long-lived by design, never part of an interaction's work."""
    return "timeout_task" in getattr(task.get_coro(), "__qualname__", "")


class _FakeSocket:
    """Stands in for the aiohttp websocket: records what the bot sends to the gateway."""

    def __init__(self, sink: list[dict[str, Any]]) -> None:
        self.sink, self.closed, self.close_code = sink, False, 1000

    async def send_str(self, data: str) -> None:
        self.sink.append(json.loads(data))

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed, self.close_code = True, code
        return True


class _ErrorLog(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.sink.append(f"[{record.name}] {text}")


class DiscordHarness(UserActions):
    """``async with DiscordHarness(make_bot) as h: await h.slash(alice, "table create", {...})``."""

    def __init__(
        self,
        factory: BotFactory,
        *,
        settle_timeout: float = 5.0,
        settle_horizon: float = 0.1,
        error_loggers: tuple[str, ...] = ("discord",),
    ) -> None:
        super().__init__()
        self.factory = factory
        self.settle_timeout, self.settle_horizon = settle_timeout, settle_horizon
        self.bot: discord.Client | None = None
        self.requests: list[Request] = []
        self.messages: dict[int, SentMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.gateway_sent: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.errors: list[str] = []
        self.faults: list[Fault] = []
        self._seq = 0
        self._tasks: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        # Tasks alive once the bot has logged in (its background loops): never waited for.
        self._baseline: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self._error_loggers = error_loggers
        self._log_handler = _ErrorLog(self.errors)
        self._saved: dict[str, Any] = {}
        self._command_ids: dict[str, int] = {}
        self._background: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> DiscordHarness:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, *_: Any) -> None:
        await self.close(check=exc_type is None)

    async def start(self, bot: discord.Client | None = None) -> discord.Client:
        """Install the fakes (once), log a bot in, run ``setup_hook`` and bring it to READY."""
        loop = asyncio.get_running_loop()
        if not self._saved:
            self._install(loop)
        self.bot = bot = bot if bot is not None else self.factory()
        bot.http.request = self._http_request  # type: ignore[method-assign]
        bot.http.get_from_cdn = self._get_from_cdn  # type: ignore[method-assign]
        await bot.login("harness-token")  # real login(): GET /users/@me, app info, setup_hook
        self._baseline = weakref.WeakSet(t for t in self._tasks if not t.done())
        state = bot._connection
        state.guild_ready_timeout = 0.01  # discord.py waits this long after the last GUILD_CREATE
        if isinstance(bot, discord.AutoShardedClient):  # one fake connection per shard of this process
            bot.shard_count = state.shard_count = bot.shard_count or 1
            bot.shard_ids = list(bot.shard_ids or range(bot.shard_count))
            state.shard_ids = bot.shard_ids  # type: ignore[attr-defined]
            bot._reconnect = True  # what connect() sets before launching shards
            shards, queue = bot._AutoShardedClient__shards, bot._AutoShardedClient__queue  # type: ignore
            for sid in bot.shard_ids:
                shards[sid] = Shard(self._socket(bot, sid, bot.shard_count), bot, queue.put_nowait)
        else:
            bot.ws = self._socket(bot, None, None)
        self._check_registrations()
        for sid in getattr(bot, "shard_ids", None) or [None]:
            await self.feed("READY", self.ready_payload(sid, bot.shard_count))
        for guild in self.guilds:
            await self.feed("GUILD_CREATE", guild.payload())
        self._pending.clear()
        await self.settle()
        assert bot.is_ready(), "bot did not become ready"
        self._raise_problems()
        return bot

    def _socket(self, bot: discord.Client, shard_id: int | None, count: int | None) -> DiscordWebSocket:
        """A real ``DiscordWebSocket`` (what ``from_client`` builds) over a fake socket."""
        ws = DiscordWebSocket(_FakeSocket(self.gateway_sent), loop=bot.loop)  # type: ignore[arg-type]
        state = bot._connection
        ws.token, ws._connection, ws._discord_parsers = bot.http.token, state, state.parsers
        ws._dispatch, ws.call_hooks = bot.dispatch, state.call_hooks
        ws.shard_id, ws.shard_count, ws._max_heartbeat_timeout = shard_id, count, state.heartbeat_timeout
        ws._rate_limiter.shard_id = shard_id
        return ws

    def _ws_for(self, event: str, data: dict[str, Any]) -> DiscordWebSocket | None:
        """The connection Discord would use: guild events go to shard ``(guild_id >> 22) % shard_count``."""
        bot = self.bot
        assert bot is not None, "no running bot"
        if not isinstance(bot, discord.AutoShardedClient):
            return bot.ws
        if event == "READY":
            sid = data["shard"][0]
        else:
            gid = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else None)
            sid = (int(gid) >> 22) % (bot.shard_count or 1) if gid else 0
        shard = bot._AutoShardedClient__shards.get(sid)  # type: ignore[attr-defined]
        return shard.ws if shard is not None else None  # another process's shard: not delivered here

    async def restart(self, bot: discord.Client | None = None) -> discord.Client:
        """Close the current bot and start a fresh instance (new process objects, same Discord)."""
        if self.bot is not None:
            await self.bot.close()
            await self.settle()
        return await self.start(bot)

    async def close(self, *, check: bool = True) -> None:
        stuck: list[str] = []
        if self.bot is not None and not self.bot.is_closed():
            try:
                async with asyncio.timeout(CLOSE_WITHIN):
                    await self.bot.close()
            except TimeoutError:
                stuck.append("the bot's close() did not return")
        current = asyncio.current_task()
        leftovers = [t for t in self._tasks if not t.done() and t is not current]
        for task in leftovers:
            task.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=CLOSE_WITHIN)
        # A task that outlives its cancellation would hang a bot's shutdown: name it and where it waits.
        stuck += [where(task) for task in leftovers if not task.done()]
        self._uninstall()
        if stuck:
            raise AssertionError("still running after close:\n" + "\n".join(stuck))
        if check:
            self._raise_problems()

    def _install(self, loop: asyncio.AbstractEventLoop) -> None:
        harness = self

        async def webhook_request(_adapter: Any, route: Any, session: Any = None, **kwargs: Any) -> Any:
            return await harness._handle(
                "webhook",
                route,
                kwargs.get("payload"),
                kwargs.get("multipart"),
                kwargs.get("files"),
                kwargs.get("params"),
            )

        previous_factory = loop.get_task_factory()

        def task_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
            if previous_factory is not None:
                task = previous_factory(loop, coro, **kw)
            else:
                task = asyncio.Task(coro, loop=loop, **kw)
            self._tasks.add(task)  # type: ignore[arg-type]
            return task  # type: ignore[return-value]

        self._saved = {
            "adapter": AsyncWebhookAdapter.request,
            "factory": previous_factory,
            "loop": loop,
            "handler": loop.get_exception_handler(),
        }
        AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign,assignment]
        loop.set_task_factory(task_factory)  # type: ignore[arg-type]
        loop.set_exception_handler(
            lambda _loop, ctx: self.errors.append(f"[asyncio] {ctx.get('message')}: {ctx.get('exception')!r}")
        )
        for name in self._error_loggers:
            logging.getLogger(name).addHandler(self._log_handler)

    def _uninstall(self) -> None:
        if not self._saved:
            return
        AsyncWebhookAdapter.request = self._saved["adapter"]  # type: ignore[method-assign]
        self._saved["loop"].set_task_factory(self._saved["factory"])
        self._saved["loop"].set_exception_handler(self._saved["handler"])
        for name in self._error_loggers:
            logging.getLogger(name).removeHandler(self._log_handler)
        self._saved = {}

    # ------------------------------------------------------------------ gateway & waiting
    async def feed(self, event: str, data: dict[str, Any]) -> None:
        """Deliver one raw gateway DISPATCH frame through ``DiscordWebSocket.received_message``."""
        ws = self._ws_for(event, data)
        assert self.bot is not None
        if ws is None:
            return
        if not self.bot.intents.members:  # what Discord sends without the privileged members intent
            if event.startswith("GUILD_MEMBER"):
                return
            if event == "GUILD_CREATE":
                me = str(self.bot_user.id)
                data = {**data, "members": [m for m in data["members"] if m["user"]["id"] == me]}
        # Whatever runs already (the test itself, background loops) is not this event's work.
        self._baseline.update(t for t in self._tasks if not t.done())
        self._seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        await ws.received_message(frame)

    async def flush(self) -> None:
        """Deliver gateway events queued by the world factories since the last interaction."""
        await self._deliver_pending()
        await self.settle()

    async def _deliver_pending(self) -> None:
        while self._pending:
            event, data = self._pending.pop(0)
            await self.feed(event, data)

    async def settle(self) -> None:
        """Return once every task started since login has finished (so real I/O, such as
        a Redis round trip, is waited for) and the loop is idle: nothing runnable and no
        timer due within ``settle_horizon``. Call it from the test only (two concurrent
        settles would keep each other busy)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle_timeout
        me = asyncio.current_task()
        while True:
            await asyncio.sleep(0)
            if loop.time() > deadline:
                busy = [repr(t.get_coro()) for t in self._tasks if not t.done()]
                raise AssertionError(f"bot still busy after {self.settle_timeout}s; pending tasks: {busy}")
            working = [
                t
                for t in self._tasks
                if not t.done() and t is not me and t not in self._baseline and not _is_view_timeout(t)
            ]
            if working:
                await asyncio.wait(working, timeout=max(0.0, deadline - loop.time()))
                continue
            if any(not h.cancelled() for h in loop._ready):  # type: ignore[attr-defined]
                continue
            timers = [h.when() for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
            due = min(timers, default=None)
            if due is None or due - loop.time() > self.settle_horizon:
                return
            await asyncio.sleep(max(0.0, due - loop.time()))

    def _raise_problems(self) -> None:
        problems = [f"Discord refused: {v}" for v in self.violations]
        problems += [f"bot raised: {e}" for e in self.errors]
        self.violations.clear()
        self.errors.clear()
        if problems:
            raise AssertionError("\n".join(problems))

    def take_problems(self) -> list[str]:
        """Return and clear recorded violations/errors (for tests that expect them)."""
        out = self.violations + self.errors
        self.violations.clear()
        self.errors.clear()
        return out

    def _check_registrations(self) -> None:
        """Every app command the tree would sync is checked against the registration limits."""
        tree = getattr(self.bot, "tree", None)
        if tree is None:
            return
        scopes = [None, *(discord.Object(g.id) for g in self.guilds)]
        for scope in scopes:
            payload = [c.to_dict(tree) for c in tree.get_commands(guild=scope)]
            try:
                check_payload(payload, kind="commands")
            except AssertionError as exc:
                where = "global" if scope is None else f"guild {scope.id}"
                self.violations.append(f"command registration ({where}): {exc}")
