"""Build the real gametable bot for end-to-end tests: every bot instance gets
its own Redis client, store and service — new process objects on the same
Redis, as after a restart."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from redis.asyncio import Redis

from bot.app.application import GameTableBot
from bot.ops.settings import Settings
from bot.service.tables import TableService
from engines.core import Engine
from storage.store import TableStore
from tests.e2e.harness import CLOSE_WITHIN, DiscordHarness, InteractionResult, SentMessage, where


class BotMaker:
    def __init__(
        self,
        redis_url: str,
        games: Mapping[str, Engine[Any, Any]] | None = None,
        clock: Callable[[], float] = time.time,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        """``settings``: the bot's settings besides the test defaults (``public_url``…)."""
        self.redis_url = redis_url
        self.games = games
        self.clock = clock
        self.settings = dict(settings or {})
        self.clients: list[Redis] = []
        self.bots: list[GameTableBot] = []

    def __call__(self) -> GameTableBot:
        client = Redis.from_url(self.redis_url)
        self.clients.append(client)
        options: dict[str, Any] = {"games": self.games} if self.games is not None else {}
        service = TableService(TableStore(client), turn_timeout=300, clock=self.clock, **options)
        settings = Settings(**{"sweep_interval": 3600, "outbox_interval": 3600, **self.settings})
        bot = GameTableBot(service, settings)
        self.bots.append(bot)
        return bot

    @property
    def bot(self) -> GameTableBot:
        return self.bots[-1]

    async def close(self) -> None:
        for client in self.clients:
            try:
                async with asyncio.timeout(CLOSE_WITHIN):
                    await client.aclose()
            except TimeoutError:
                others = [where(t) for t in asyncio.all_tasks() if t is not asyncio.current_task()]
                raise AssertionError("a Redis client did not close; running:\n" + "\n".join(others)) from None


def button(message: SentMessage, label: str) -> str:
    """The custom_id of the button labelled ``label`` on ``message``."""
    for row in message.components:
        for item in row.get("components", []):
            if item.get("label") == label:
                return str(item["custom_id"])
    labels = [i.get("label") for r in message.components for i in r.get("components", [])]
    raise AssertionError(f"no button {label!r} on the message; there are {labels}")


def labels(message: SentMessage) -> list[str]:
    return [
        str(i.get("label")) for r in message.components for i in r.get("components", []) if i.get("label")
    ]


def embed_text(message: SentMessage) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [
            embed.get("title", ""),
            embed.get("description", ""),
            embed.get("footer", {}).get("text", ""),
        ]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(p for p in parts if p)


def select_options(message: SentMessage) -> dict[str, tuple[str, str]]:
    """Option label → (select custom_id, value) across every select on ``message``."""
    found = {}
    for row in message.components:
        for item in row.get("components", []):
            for option in item.get("options", []):
                found[str(option["label"])] = (str(item["custom_id"]), str(option["value"]))
    return found


async def choose(h: DiscordHarness, user: Any, panel: SentMessage, *path: str) -> InteractionResult:
    """Walk the act panel as a user would: click the button or pick the select
    option with each label in turn. Returns the last interaction."""
    result: InteractionResult | None = None
    for label in path:
        if label in labels(panel):
            result = await h.click(user, panel, button(panel, label))
        else:
            options = select_options(panel)
            assert label in options, f"no option {label!r}; the panel offers {labels(panel) + list(options)}"
            custom_id, value = options[label]
            result = await h.select(user, custom_id, [value], message=panel)
        assert result.message is not None
        panel = result.message
    assert result is not None
    return result


async def open_table(
    h: DiscordHarness, maker: BotMaker, players: int = 3, game: str = "high-card"
) -> tuple[list[Any], Any, str]:
    """A lobby of ``players`` (ann hosts, the others join by the Join button): users, message, table id."""
    users = [h.create_user(name) for name in ("ann", "bob", "cid", "dee")[:players]]
    created = await h.slash(users[0], "table create", {"game": game})
    message = created.message
    assert message is not None and not created.ephemeral
    for user in users[1:]:
        joined = await h.click(user, message, button(message, "Join"))
        assert joined.ephemeral and "joined" in (joined.content or "")
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    return users, message, table.id


NAVIGATION = {"Refresh", "Back", "Card text"}


async def act_by_clicks(
    h: DiscordHarness, service: Any, table_id: str, user: Any, message: SentMessage, rng: random.Random
) -> None:
    """One move for ``user``: press Act on the table message, then pick random
    options through the panel's buttons and selects until the table moves on."""
    version = (await service.get(table_id)).version
    panel = (await h.click(user, message, button(message, "Act"))).message
    for _ in range(10):
        assert panel is not None and panel.ephemeral
        buttons = [label for label in labels(panel) if label not in NAVIGATION]
        options = select_options(panel)
        assert buttons or options, f"an awaited seat was offered nothing: {embed_text(panel)}"
        if buttons:
            result = await h.click(user, panel, button(panel, rng.choice(buttons)))
        else:
            custom_id, value = options[rng.choice(sorted(options))]
            result = await h.select(user, custom_id, [value], message=panel)
        assert not result.failed, [r.error for r in result.failed]
        if (await service.get(table_id)).version != version:
            return
        panel = result.message
    raise AssertionError("ten steps through the act panel made no move")


async def play_to_the_end(
    h: DiscordHarness,
    service: Any,
    table_id: str,
    users: list[Any],
    message: SentMessage,
    seed: int,
    max_moves: int = 5000,
) -> int:
    """Drive a started table to its end by clicks; returns the number of moves."""
    rng = random.Random(seed)
    for moves in range(max_moves):
        record = await service.get(table_id)
        if record.status.value != "playing":
            return moves
        seat = rng.choice(service.awaited(record))
        await act_by_clicks(h, service, table_id, users[seat], message, rng)
    raise AssertionError(f"the game did not end within {max_moves} moves")
