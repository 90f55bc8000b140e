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
  interaction callbacks/followups) are replaced by ``_handle``, which records each request as a
  ``Request``, runs ``limits.check_payload`` on its JSON, applies injected faults and answers with
  plausible JSON (messages with fresh snowflakes, DM/thread channels, callback responses, ...);
* waiting: after feeding an event, ``settle()`` waits for every task started since (so real I/O,
  such as a Redis round trip, is waited for), then yields to the loop until no callback is runnable
  and no timer is due within ``settle_horizon`` (short sleeps are waited for, View timeouts are not).
  No fixed sleeps.

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
import copy
import fnmatch
import json
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from discord.shard import Shard
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.e2e import payloads as P
from tests.e2e.limits import check_payload
from tests.e2e.payloads import (
    LOADING,
    FakeResponse,
    Fault,
    InteractionRecord,
    RecordedFile,
    Request,
    SentMessage,
)

__all__ = ["DiscordHarness", "InteractionResult", "Request", "SentMessage"]
BotFactory = Callable[[], discord.Client]
_SELECTS = {3, 5, 6, 7, 8}


@dataclass(eq=False)
class InteractionResult:
    """What the bot did while processing one interaction."""

    harness: DiscordHarness
    record: InteractionRecord
    requests: list[Request]  # every request made until the bot went idle

    @property
    def response(self) -> Request | None:
        return next((r for r in self.requests if r.kind == "interaction_response"
                     and r.interaction_id == self.record.id and r.error is None), None)

    response_type = property(lambda self: self.record.responded_with)
    deferred = property(lambda self: self.record.responded_with in (5, 6))
    modal = property(lambda self: self.record.modal)
    choices = property(lambda self: self.record.choices)
    failed = property(lambda self: [r for r in self.requests if r.error is not None])

    @property
    def message(self) -> SentMessage | None:
        """The original response message (or, for update responses, the component's message)."""
        return self.harness.messages.get(self.record.original_id or 0)

    content = property(lambda self: self.message.content if self.message else None)
    ephemeral = property(lambda self: bool(self.message and self.message.ephemeral))

    @property
    def followups(self) -> list[SentMessage]:
        return [self.harness.messages[r.message_id] for r in self.requests
                if r.kind == "followup" and r.error is None and r.message_id is not None]

    @property
    def sent(self) -> list[SentMessage]:
        """Every message created while processing (response, followups, channel messages, DMs)."""
        ids = dict.fromkeys(r.message_id for r in self.requests if r.error is None and r.message_id
                            and r.kind in ("interaction_response", "followup", "message_create"))
        return [self.harness.messages[i] for i in ids if i is not None]


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


class DiscordHarness(P.World):
    """``async with DiscordHarness(make_bot) as h: await h.slash(alice, "table create", {...})``."""

    def __init__(self, factory: BotFactory, *, settle_timeout: float = 5.0, settle_horizon: float = 0.1,
                 error_loggers: tuple[str, ...] = ("discord",)) -> None:
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
        if self.bot is not None and not self.bot.is_closed():
            await self.bot.close()
        current = asyncio.current_task()
        leftovers = [t for t in self._tasks if not t.done() and t is not current]
        for task in leftovers:
            task.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)
        self._uninstall()
        if check:
            self._raise_problems()

    def _install(self, loop: asyncio.AbstractEventLoop) -> None:
        harness = self

        async def webhook_request(_adapter: Any, route: Any, session: Any = None, **kwargs: Any) -> Any:
            return await harness._handle("webhook", route, kwargs.get("payload"), kwargs.get("multipart"),
                                         kwargs.get("files"), kwargs.get("params"))

        previous_factory = loop.get_task_factory()

        def task_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
            if previous_factory is not None:
                task = previous_factory(loop, coro, **kw)
            else:
                task = asyncio.Task(coro, loop=loop, **kw)
            self._tasks.add(task)  # type: ignore[arg-type]
            return task  # type: ignore[return-value]

        self._saved = {"adapter": AsyncWebhookAdapter.request, "factory": previous_factory, "loop": loop,
                       "handler": loop.get_exception_handler()}
        AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign,assignment]
        loop.set_task_factory(task_factory)  # type: ignore[arg-type]
        loop.set_exception_handler(lambda _loop, ctx: self.errors.append(f"[asyncio] {ctx.get('message')}: "
                                                                         f"{ctx.get('exception')!r}"))
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
            working = [t for t in self._tasks if not t.done() and t is not me and t not in self._baseline
                       and not _is_view_timeout(t)]
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
        problems = [f"Discord limit violated: {v}" for v in self.violations]
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

    # ------------------------------------------------------------------ faults
    def fail(self, match: str | Callable[[Request], bool], *, status: int = 400, code: int = 0,
             message: str = "injected by test", times: int | None = None) -> Fault:
        """Make matching requests fail. ``match``: ``"POST /channels/*/messages"`` (fnmatch on the
        path), a request kind (``"dm_message"``, ``"followup"``, ...) or a predicate on ``Request``."""
        if isinstance(match, str):
            method, _, pattern = match.partition(" ")
            text = match
            if pattern:
                def pred(r: Request) -> bool:
                    return method in ("*", r.method) and fnmatch.fnmatch(r.path, pattern)
            else:
                def pred(r: Request) -> bool:
                    dm = text == "dm_message" and r.kind == "message_create" and r.dm_user_id is not None
                    return dm or r.kind == text
            match = pred
        fault = Fault(match, status, code, message, times)
        self.faults.append(fault)
        return fault

    def close_dms(self, user: P.User | P.Member) -> Fault:
        """The user's DMs are closed: sending them a message fails with 403 / 50007."""
        uid = user.id
        return self.fail(lambda r: r.kind == "message_create" and r.dm_user_id == uid, status=403, code=50007,
                         message="Cannot send messages to this user")

    # ------------------------------------------------------------------ recorder
    async def _http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        return await self._handle("http", route, kwargs.get("json"), form, files, kwargs.get("params"))

    async def _get_from_cdn(self, url: str) -> bytes:
        await asyncio.sleep(0)
        if url.split("?", 1)[0] not in self.cdn:
            raise discord.NotFound(FakeResponse(404), {"code": 0, "message": "404: Not Found"})
        return self.cdn[url.split("?", 1)[0]]

    async def _handle(self, via: str, route: Any, body: Any, form: Any, files: Any, params: Any) -> Any:
        await asyncio.sleep(0)  # a network round trip is a suspension point
        for part in form or ():
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        path = route.url.split("?", 1)[0][len(route.BASE):]
        req = Request(seq=len(self.requests), method=route.method, path=path, route=route.path,
                      json=copy.deepcopy(body), query=dict(params or {}), via=via,
                      files=[RecordedFile.of(f) for f in files or ()])
        self._classify(req)
        self.requests.append(req)
        if isinstance(body, dict | list):
            try:
                check_payload(body, kind=req.limits_kind)
                if req.kind == "thread_create" and isinstance(body, dict) and body.get("message"):
                    check_payload(body["message"], kind="message")
            except AssertionError as exc:
                self.violations.append(f"{req.method} {req.path}: {exc}")
                self._raise(req, 400, 50035, f"Invalid Form Body: {exc}")
        for fault in list(self.faults):
            if fault.match(req):
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                self._raise(req, fault.status, fault.code, fault.message)
        req.response = self._respond(req)
        return copy.deepcopy(req.response)

    @staticmethod
    def _raise(req: Request, status: int, code: int, message: str) -> None:
        req.error = (status, code)
        data = {"code": code, "message": message}
        exc = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
        raise exc(FakeResponse(status), data)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ acting as users
    async def slash(self, user: P.User | P.Member, command: str, options: dict[str, Any] | None = None, *,
                    channel: P.Channel | None = None, guild: P.Guild | None = None) -> InteractionResult:
        """Run ``/command`` (``"table create"``: subcommand path after the root) as ``user``."""
        await self.flush()
        channel, guild = self._where(user, channel, guild)
        root, *path = command.split()
        definition, scope = self._command_def(root, guild)
        wrap, leaf = P.nest_options(definition, path)
        resolved: dict[str, dict[str, Any]] = {}
        opts = P.build_options(leaf, dict(options or {}), guild, resolved, command=command)
        data: dict[str, Any] = {"id": str(self._command_id(root)), "name": root, "type": 1,
                                "options": wrap(opts)}
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return await self._interact(2, user, channel, data)

    async def autocomplete(self, user: P.User | P.Member, command: str, focused: str,
                           options: dict[str, Any] | None = None, *, channel: P.Channel | None = None,
                           guild: P.Guild | None = None) -> list[dict[str, Any]]:
        """Type into option ``focused`` (value ``options[focused]``, default ""); returns the choices sent."""
        await self.flush()
        channel, guild = self._where(user, channel, guild)
        root, *path = command.split()
        definition, scope = self._command_def(root, guild)
        wrap, leaf = P.nest_options(definition, path)
        opts = P.build_options(leaf, dict(options or {}), guild, {}, focused=focused, command=command)
        data: dict[str, Any] = {"id": str(self._command_id(root)), "name": root, "type": 1,
                                "options": wrap(opts)}
        if scope is not None:
            data["guild_id"] = str(scope)
        result = await self._interact(4, user, channel, data)
        assert result.choices is not None, f"/{command} {focused}: the bot sent no autocomplete result"
        return result.choices

    async def click(self, user: P.User | P.Member, target: SentMessage | int | str,
                    custom_id: str | None = None, *, channel: P.Channel | None = None) -> InteractionResult:
        """Click a button: ``click(u, message, "custom_id")`` or ``click(u, "custom_id")`` (latest message
        showing it; if none, a message from "before the restart" carrying only that button)."""
        await self.flush()
        message, comp = self._component(user, target, custom_id, {2}, channel)
        assert not comp.get("disabled"), f"button {comp['custom_id']!r} is disabled"
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._interact(3, user, self.channels[message.channel_id], data, message)

    async def select(self, user: P.User | P.Member, custom_id: str, values: list[Any], *,
                     message: SentMessage | int | None = None, channel: P.Channel | None = None
                     ) -> InteractionResult:
        """Pick ``values`` in a select menu (strings; users/roles/channels for entity selects)."""
        await self.flush()
        message_, comp = self._component(user, message or custom_id, custom_id, _SELECTS, channel, values)
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        assert low <= len(values) <= high, f"select {custom_id!r}: {len(values)} values not in {low}-{high}"
        resolved: dict[str, dict[str, Any]] = {}
        target = self.channels[message_.channel_id]
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            assert all(v in allowed for v in values), f"select {custom_id!r}: {values} not all in {allowed}"
            raw = [str(v) for v in values]
        else:
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
            raw = [P._typed(kind, v, target.guild, resolved, autocomplete=False) for v in values]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"], "values": raw}
        if resolved:
            data["resolved"] = resolved
        return await self._interact(3, user, target, data, message_)

    async def submit_modal(self, user: P.User | P.Member, custom_id: str, fields: dict[str, Any], *,
                           channel: P.Channel | None = None) -> InteractionResult:
        """Submit the modal ``custom_id`` last shown to ``user`` with ``fields`` {input custom_id: value}."""
        await self.flush()
        shown = next((r for r in reversed(self.interactions.values()) if r.modal
                      and r.modal.get("custom_id") == custom_id and r.user.id == user.id), None)
        components = P.modal_submission(shown.modal if shown else None, fields)
        data = {"custom_id": custom_id, "components": components}
        message = self.messages.get(shown.message_id or 0) if shown else None
        where = channel or (shown.channel if shown else self._where(user, None, None)[0])
        try:
            return await self._interact(5, user, where, data, message)
        except AssertionError as exc:
            if shown is None:
                raise AssertionError(f"{exc} (no modal {custom_id!r} was shown to this user)") from None
            raise

    def _where(self, user: P.User | P.Member, channel: P.Channel | None, guild: P.Guild | None
               ) -> tuple[P.Channel, P.Guild | None]:
        if channel is None:
            guild = guild or (user.guild if isinstance(user, P.Member) else self.guild)
            channel = guild.channels[0]
        return channel, channel.guild

    def _command_def(self, root: str, guild: P.Guild | None) -> tuple[dict[str, Any], int | None]:
        tree = self.bot.tree  # type: ignore[union-attr]
        command = tree.get_command(root, guild=discord.Object(guild.id)) if guild else None
        if command is not None:
            return command.to_dict(tree), guild.id  # type: ignore[union-attr]
        command = tree.get_command(root)
        assert command is not None, f"no slash command /{root} (global or in {guild and guild.name})"
        return command.to_dict(tree), None

    def _component(self, user: P.User | P.Member, target: SentMessage | int | str, custom_id: str | None,
                   types: set[int], channel: P.Channel | None, values: list[Any] = ()  # type: ignore[assignment]
                   ) -> tuple[SentMessage, dict[str, Any]]:
        if isinstance(target, str):
            custom_id = custom_id or target
            seen = [m for m in self._visible(user) if m.component(custom_id)]
            if not seen:  # a message from a previous bot process: synthesize it with just this component
                comp = ({"type": 2, "style": 1, "label": "?", "custom_id": custom_id} if 2 in types else
                        {"type": 3, "custom_id": custom_id, "max_values": len(values), "min_values": 0,
                         "options": [{"label": str(v), "value": str(v)} for v in values]})
                req = Request(len(self.requests), "GHOST", "", "", {}, {}, "test", [])
                where = channel or self._where(user, None, None)[0]
                body = {"components": [{"type": 1, "components": [comp]}]}
                seen = [self._new_message(req, where, body, None)]
            target = seen[-1]
        message = self.messages[target] if isinstance(target, int) else target
        assert not message.deleted, f"message {message.id} was deleted"
        assert custom_id is not None, "which component? pass custom_id"
        found = message.component(custom_id)
        assert found is not None, f"message {message.id}: no {custom_id!r}; has {message.custom_ids}"
        assert found["type"] in types, f"component {custom_id!r} has type {found['type']}, wanted {types}"
        return message, found

    async def _interact(self, kind: int, user: P.User | P.Member, channel: P.Channel, data: dict[str, Any],
                        message: SentMessage | None = None) -> InteractionResult:
        user = user.user if isinstance(user, P.Member) else user
        iid = self.ids.next()
        payload = self.interaction_payload(iid, kind, user, channel, data, message.data if message else None)
        rec = InteractionRecord(iid, payload["token"], kind, user, channel, payload,
                                message.id if message else None)
        self.interactions[iid] = rec
        start = len(self.requests)
        rec.created = asyncio.get_running_loop().time()
        await self.feed("INTERACTION_CREATE", payload)
        await self.settle()
        self._raise_problems()
        assert kind == 4 or rec.responded_with is not None, (
            f"the bot never responded to interaction {data.get('name') or data.get('custom_id')!r}: "
            "the user sees 'This interaction failed'")
        return InteractionResult(self, rec, self.requests[start:])

    # ------------------------------------------------------------------ what the bot did
    def _visible(self, user: P.User | P.Member | None = None) -> list[SentMessage]:
        live = sorted((m for m in self.messages.values() if not m.deleted), key=lambda m: m.seq)
        return [m for m in live if m.visible_to is None or (user is not None and m.visible_to == user.id)]

    def public_messages(self, channel: P.Channel | None = None) -> list[SentMessage]:
        """Live, non-ephemeral guild messages (optionally in one channel), oldest first by creation."""
        return sorted((m for m in self._visible() if m.dm_user_id is None and not m.ephemeral
                       and (channel is None or m.channel_id == channel.id)), key=lambda m: m.id)

    def ephemeral_messages(self, user: P.User | P.Member) -> list[SentMessage]:
        return sorted((m for m in self._visible(user) if m.ephemeral), key=lambda m: m.id)

    def dms(self, user: P.User | P.Member) -> list[SentMessage]:
        """Messages successfully delivered to the user's DMs."""
        return sorted((m for m in self._visible() if m.dm_user_id == user.id), key=lambda m: m.id)

    def last_message(self, channel: P.Channel | None = None, user: P.User | P.Member | None = None
                     ) -> SentMessage | None:
        """The most recently created or edited live message (ephemerals only if ``user`` sees them)."""
        found = [m for m in self._visible(user) if channel is None or m.channel_id == channel.id]
        return found[-1] if found else None

    def last_message_components(self, channel: P.Channel | None = None, user: P.User | P.Member | None = None
                                ) -> list[dict[str, Any]]:
        message = self.last_message(channel, user)
        return message.components if message else []

    def requests_of(self, *kinds: str) -> list[Request]:
        return [r for r in self.requests if r.kind in kinds]

    # ------------------------------------------------------------------ Discord's answers
    def _classify(self, req: Request) -> None:
        parts, tpl = req.path.strip("/").split("/"), req.route.strip("/").split("/")
        req.args = {t[1:-1]: p for t, p in zip(tpl, parts, strict=False) if t.startswith("{")}
        key, a = f"{req.method} {req.route}", req.args
        req.kind = P.ROUTE_KINDS.get(key, "other")
        if req.via == "webhook" and "webhook_token" in a:
            rec = next((r for r in self.interactions.values() if r.token == a["webhook_token"]), None)
            req.interaction_id = rec.id if rec else None
            req.channel_id = rec.channel.id if rec else None
        if "channel_id" in a:
            req.channel_id = int(a["channel_id"])
        channel = self.channels.get(req.channel_id or 0)
        if channel is not None and channel.recipient is not None:
            req.dm_user_id = channel.recipient.id
        if "message_id" in a and a["message_id"].isdigit():
            req.message_id = int(a["message_id"])

    def _respond(self, req: Request) -> Any:
        kind, body, a = req.kind, req.json if isinstance(req.json, dict) else {}, req.args
        rec = self.interactions.get(req.interaction_id or 0)
        if req.via == "webhook" and rec is None and kind != "other":
            self._raise(req, 404, 10062 if kind == "interaction_response" else 10015, "Unknown interaction")
        if kind == "interaction_response":
            return self._callback(req, rec, body)  # type: ignore[arg-type]
        if kind == "followup":
            if rec.responded_with is None:  # type: ignore[union-attr]
                self._raise(req, 404, 10015, "Unknown Webhook (followup before the initial response)")
            return self._new_message(req, rec.channel, body, rec).data  # type: ignore[union-attr]
        if kind.startswith(("original", "webhook_message", "message_")) and kind != "message_create":
            if kind.startswith("original"):
                req.message_id = rec.original_id  # type: ignore[union-attr]
            msg = self.messages.get(req.message_id or 0)
            if msg is None or msg.deleted:
                self._raise(req, 404, 10008, "Unknown Message")
            if kind.endswith("delete"):
                msg.deleted = True  # type: ignore[union-attr]
                return None
            if kind.endswith("edit"):
                P.apply_edit(msg.data, body)  # type: ignore[union-attr]
                msg.data["flags"] = msg.flags & ~LOADING  # type: ignore[union-attr]
                msg.seq = req.seq  # type: ignore[union-attr]
            return msg.data  # type: ignore[union-attr]
        if kind == "message_create":
            channel = self.channels.get(req.channel_id or 0)
            if channel is None:
                self._raise(req, 404, 10003, "Unknown Channel")
            return self._new_message(req, channel, body, None).data  # type: ignore[arg-type]
        if kind == "dm_channel":
            user = self.users.get(int(body["recipient_id"]))
            if user is None:
                self._raise(req, 404, 10013, "Unknown User")
            return self.dm_channel(user).payload()  # type: ignore[arg-type]
        if kind == "thread_create":
            parent = self.channels[int(a["channel_id"])]
            private = body.get("type", P.PUBLIC_THREAD if "message_id" in a else P.PRIVATE_THREAD) == 12
            thread = self.create_thread(parent, body.get("name", "thread"), private=private,
                                        thread_id=int(a["message_id"]) if "message_id" in a else None)
            task = asyncio.get_running_loop().create_task(self._deliver_pending())  # THREAD_CREATE follows
            self._background.add(task)
            task.add_done_callback(self._background.discard)
            return thread.payload()
        if kind == "commands":
            scope = int(a["guild_id"]) if "guild_id" in a else None
            stored = self.commands.setdefault(scope, [])
            if req.method == "GET":
                return stored
            new = [{**c, "id": str(self._command_id(c["name"])), "version": "1",
                    "application_id": str(self.application_id)} for c in (req.json if req.method == "PUT"
                                                                         else [req.json])]
            names = {c["name"] for c in new}
            stored[:] = new if req.method == "PUT" else [c for c in stored if c["name"] not in names] + new
            return stored if req.method == "PUT" else new[0]
        if kind == "me":
            return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        if kind == "app_info":
            return {"id": str(self.application_id), "name": self.bot_user.name, "icon": None,
                    "description": "", "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                    "flags": 0, "owner": self.owner.payload(), "team": None, "verify_key": "0" * 64,
                    "summary": ""}
        if kind == "channel_get":
            channel = self.channels.get(req.channel_id or 0)
            return channel.payload() if channel else self._raise(req, 404, 10003, "Unknown Channel")
        return None

    def _new_message(self, req: Request, channel: P.Channel, body: dict[str, Any],
                     rec: InteractionRecord | None, extra_flags: int = 0) -> SentMessage:
        mid = self.ids.next()
        meta = None if rec is None else {"id": str(rec.id), "type": rec.type, "user": rec.user.payload(),
                                         "authorizing_integration_owners": {}}
        data = P.message_payload(mid, channel, self.bot_user, {**body, "flags": int(body.get("flags") or 0)
                                                                | extra_flags},
                                 message_type=20 if rec and rec.type == 2 else 0, interaction=meta,
                                 webhook_id=self.application_id if rec else None, files=tuple(req.files))
        for attachment, file in zip(data["attachments"], req.files, strict=False):
            self.cdn[attachment["url"]] = file.data
        msg = SentMessage(data, req.seq, rec.id if rec else None, dm_user_id=req.dm_user_id)
        if msg.ephemeral and rec is not None:
            msg.visible_to = rec.user.id
        self.messages[mid] = msg
        req.message_id = mid
        return msg

    def _callback(self, req: Request, rec: InteractionRecord, body: dict[str, Any]) -> dict[str, Any]:
        if rec.responded_with is not None:
            self._raise(req, 400, 40060, "Interaction has already been acknowledged.")
        late = asyncio.get_running_loop().time() - rec.created
        if late > 3.0:
            self.violations.append(f"interaction {rec.id}: initial response after {late:.1f}s > 3s")
            self._raise(req, 404, 10062, "Unknown interaction")
        kind, data = body["type"], body.get("data") or {}
        rec.responded_with, message = kind, None
        if kind in (4, 5):
            message = self._new_message(req, rec.channel, data if kind == 4 else {"flags": data.get("flags")},
                                        rec, LOADING if kind == 5 else 0)
            rec.original_id = message.id
        elif kind in (6, 7) and rec.message_id is not None:
            rec.original_id = req.message_id = rec.message_id
            message = self.messages[rec.message_id]
            if kind == 7:
                P.apply_edit(message.data, data)
                message.seq = req.seq
        elif kind == 8:
            rec.choices = data.get("choices", [])
        elif kind == 9:
            rec.modal = data
        out: dict[str, Any] = {"interaction": {
            "id": str(rec.id), "type": rec.type, "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == 5, "response_message_ephemeral": bool(message and
                                                                                     message.ephemeral)}}
        out["resource"] = {"type": kind, **({"message": message.data} if message and kind != 6 else {})}
        return out

    def _command_id(self, name: str) -> int:
        return self._command_ids.setdefault(name, self.ids.next())

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
