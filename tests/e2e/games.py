"""Shared setup for the per-game end-to-end tests: a table of real users in
the harness's guild, created, joined and started through real dispatch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.e2e.harness import DiscordHarness, SentMessage
from tests.e2e.tables import BotMaker, button, embed_text

NAMES = ("ann", "bob", "cid", "dee", "eve", "fay", "gus")


@dataclass
class StartedTable:
    users: list[Any]
    message: SentMessage
    table_id: str


async def start_table(
    h: DiscordHarness, maker: BotMaker, game: str, players: int, options: dict[str, Any] | None = None
) -> StartedTable:
    users = [h.create_user(name) for name in NAMES[:players]]
    created = await h.slash(users[0], "table create", {"game": game, **(options or {})})
    message = created.message
    assert message is not None and not created.ephemeral
    for user in users[1:]:
        await h.click(user, message, button(message, "Join"))
    await h.click(users[0], message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    return StartedTable(users, message, table.id)


def public_texts(h: DiscordHarness) -> list[str]:
    """Every public message as it was sent and as each edit left it (the table
    message's history, the log thread, pings)."""
    texts = []
    for request in h.requests:
        if request.error is not None or request.is_dm or request.ephemeral:
            continue
        # An update (type 7) of an ephemeral panel carries no flag of its own: judge by its message.
        touched = h.messages.get(request.message_id or 0)
        if touched is not None and (touched.ephemeral or touched.dm_user_id is not None):
            continue
        body = request.json.get("data") if request.kind == "interaction_response" else request.json
        if isinstance(body, dict) and request.kind in (
            "interaction_response",
            "message_create",
            "message_edit",
        ):
            texts.append(_payload_text(body))
    return texts


def _payload_text(body: dict[str, Any]) -> str:
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        parts += [
            embed.get("title", ""),
            embed.get("description", ""),
            (embed.get("footer") or {}).get("text", ""),
        ]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(p for p in parts if p)


__all__ = ["StartedTable", "embed_text", "public_texts", "start_table"]
