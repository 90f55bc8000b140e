"""One Discord seen by two bot processes. Each process runs its own offline harness, but in Discord
a process may edit a message or post in a thread that another process made (a sweeper or a drainer
tells any table, whatever guild it is in). Between steps the test hands each process what the other
made or changed: its threads and its guild messages (ids never clash: each process makes ids as
its own snowflake worker)."""

from __future__ import annotations

from typing import Any

from tests.e2e.entities import Channel
from tests.e2e.harness import DiscordHarness
from tests.e2e.records import SentMessage


class Mirror:
    def __init__(self, h: DiscordHarness) -> None:
        self.h = h
        self.known = set(h.channels)  # the shared world: every process has these
        self.since = len(h.requests)

    def export(self) -> dict[str, Any]:
        """The guild channels and guild messages this process made or changed since the last export."""
        h = self.h
        channels = [c for c in h.channels.values() if c.id not in self.known and c.guild is not None]
        self.known.update(c.id for c in channels)
        messages = [
            m.data
            for m in h.messages.values()
            if m.seq >= self.since and not m.ephemeral and self._in_guild(m.channel_id)
        ]
        self.since = len(h.requests)
        return {"channels": [_channel(c) for c in channels], "messages": messages}

    def adopt(self, shared: dict[str, Any]) -> None:
        """Take in what another process made: no gateway event, as Discord sends a guild's events
        only to the process that runs its shard."""
        h = self.h
        for item in shared["channels"]:
            if item["id"] in h.channels:
                continue
            guild = next(g for g in h.guilds if g.id == item["guild_id"])
            channel = Channel(
                item["id"], item["name"], item["type"], guild, item["parent_id"], item["owner_id"]
            )
            guild.channels.append(channel)
            h.channels[channel.id] = channel
            self.known.add(channel.id)
        for data in shared["messages"]:
            # seq -1: another process's doing, not to be handed back unless changed here.
            message = h.messages.setdefault(int(data["id"]), SentMessage({}, -1))
            message.data.clear()
            message.data.update(data)
            message.seq = -1

    def _in_guild(self, channel_id: int) -> bool:
        channel = self.h.channels.get(channel_id)
        return channel is not None and channel.guild is not None


def _channel(channel: Channel) -> dict[str, Any]:
    assert channel.guild is not None
    return {
        "id": channel.id,
        "name": channel.name,
        "type": channel.type,
        "guild_id": channel.guild.id,
        "parent_id": channel.parent_id,
        "owner_id": channel.owner_id,
    }
