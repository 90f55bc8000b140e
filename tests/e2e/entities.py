"""The things in the harness's fake Discord: users, guilds, roles, members, channels, threads, DM
channels and uploads, with deterministic snowflakes, and the payloads Discord describes them with
(GUILD_CREATE, channel and member objects, ...).
Shapes follow Discord's API documentation (ids as strings, ISO timestamps, permissions as strings).
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
_BASE_MS = 1767225600000 - DISCORD_EPOCH_MS  # 2026-01-01T00:00:00Z: deterministic ids and times

DEFAULT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    create_public_threads=True,
    create_private_threads=True,
)
BOT_PERMISSIONS = DEFAULT_PERMISSIONS | discord.Permissions(manage_threads=True, manage_messages=True)

TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12


class Snowflakes:
    """Deterministic snowflakes: each id is one millisecond after the previous one. ``worker`` goes
    in the worker bits, as Discord's own ids carry the worker that made them: two processes that
    share a world but make their own messages never make the same id (see ``fork``)."""

    def __init__(self, worker: int = 0, start: int = 1) -> None:
        assert 0 <= worker < 32, "Discord's snowflakes have five worker bits"
        self.worker = worker
        self._counter = itertools.count(start)
        self.last = start - 1

    def next(self) -> int:
        n = self.last = next(self._counter)
        return ((_BASE_MS + n) << 22) | (self.worker << 17) | (n & 0xFFF)

    def fork(self, worker: int) -> Snowflakes:
        """Go on from here as ``worker``: ids after the ones made so far, never another worker's."""
        return Snowflakes(worker, self.last + 1)


def iso_of(snowflake: int) -> str:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: discord.Permissions
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions.value),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> discord.Permissions:
        perms = discord.Permissions(self.guild.everyone.permissions.value)
        for role in self.roles:
            perms |= role.permissions
        if self.guild.owner_id == self.id or perms.administrator:
            return discord.Permissions.all()
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso_of(self.user.id),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions.value)
        return data


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    type: int = TEXT
    guild: Guild | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None  # DM channels only

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.pop("permission_overwrites")
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=1,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "locked": False,
                    "archive_timestamp": iso_of(self.id),
                    "invitable": True,
                },
            )
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def payload(self) -> dict[str, Any]:
        """A GUILD_CREATE payload with every member inlined (so discord.py never chunks)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [self.everyone.payload()] + [r.payload() for r in self.roles],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso_of(self.id),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Upload:
    """A file a user attaches to an ATTACHMENT option (make one with ``h.upload(name, data)``)."""

    id: int
    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.invalid/attachments/{self.id}/{self.filename}"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": True,
        }
