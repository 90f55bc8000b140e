"""The fake Discord world of the e2e harness: the ``World`` factories (``create_user``,
``set_manage_guild``, ``upload``, ...) over the things in ``tests/e2e/entities.py``, and the raw
READY / INTERACTION_CREATE payloads Discord sends about it (member permissions, ``app_permissions``).
"""

from __future__ import annotations

import copy
from typing import Any

import discord

from tests.e2e.entities import (
    BOT_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    Channel,
    Guild,
    Member,
    Role,
    Snowflakes,
    Upload,
    User,
)


class World:
    """The guilds, channels and users the harness's Discord knows. Factories are synchronous; once a
    bot is running, the gateway events they imply (GUILD_MEMBER_ADD, ...) are delivered before the
    next interaction (or on ``await h.flush()``)."""

    def __init__(self) -> None:
        self.ids = Snowflakes()
        self.bot_user = User(self.ids.next(), "gametable", bot=True)
        self.application_id = self.bot_user.id  # as for every modern Discord application
        self.owner = User(self.ids.next(), "owner")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self.cdn: dict[str, bytes] = {}  # url -> bytes, served to Attachment.read()
        self.guild = self.create_guild("Test Guild")
        self.channel = self.guild.channels[0]

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        self._pending.append((event, data))

    def create_guild(self, name: str = "Another Guild") -> Guild:
        gid = self.ids.next()
        guild = Guild(gid, name, self.owner.id, Role(gid, "@everyone", DEFAULT_PERMISSIONS))
        guild.roles.append(Role(self.ids.next(), self.bot_user.name, BOT_PERMISSIONS, 1))
        for user in (self.bot_user, self.owner):
            guild.members[user.id] = Member(user, guild, guild.roles[:1] if user.bot else [])
        general = Channel(self.ids.next(), "general", TEXT, guild)
        guild.channels.append(general)
        self.channels[general.id] = general
        self.guilds.append(guild)
        self._emit("GUILD_CREATE", guild.payload())
        return guild

    def create_user(
        self, name: str, *, guild: Guild | None = None, join: bool = True, manage_guild: bool = False
    ) -> User:
        """A new user; unless ``join=False`` also a member of ``guild`` (default: ``h.guild``)."""
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        if join:
            self.add_member(guild or self.guild, user, manage_guild=manage_guild)
        return user

    def add_member(
        self, guild: Guild, user: User, *, manage_guild: bool = False, nick: str | None = None
    ) -> Member:
        member = Member(user, guild, nick=nick)
        guild.members[user.id] = member
        if manage_guild:
            member.roles.append(self._manager_role(guild))
        self._emit("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def member(self, who: User | Member, guild: Guild | None = None) -> Member:
        if isinstance(who, Member) and guild in (None, who.guild):
            return who
        guild = guild or self.guild
        assert who.id in guild.members, f"{who} is not a member of {guild.name}"
        return guild.members[who.id]

    def set_manage_guild(self, who: User | Member, value: bool = True, guild: Guild | None = None) -> Member:
        """Give (or take) the member a role with Manage Server."""
        member = self.member(who, guild)
        role = self._manager_role(member.guild)
        member.roles = [r for r in member.roles if r is not role] + ([role] if value else [])
        self._emit("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(member.guild.id)})
        return member

    def _manager_role(self, guild: Guild) -> Role:
        role = guild.role("Manager")
        if role is None:
            role = Role(self.ids.next(), "Manager", discord.Permissions(manage_guild=True), 2)
            guild.roles.append(role)
            self._emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def create_channel(self, name: str, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        channel = Channel(self.ids.next(), name, TEXT, guild)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._emit("CHANNEL_CREATE", channel.payload())
        return channel

    def create_thread(
        self,
        parent: Channel,
        name: str,
        *,
        private: bool = False,
        owner: User | None = None,
        thread_id: int | None = None,
    ) -> Channel:
        assert parent.guild is not None and not parent.is_thread, "threads live in guild text channels"
        thread = Channel(
            thread_id or self.ids.next(),
            name,
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            parent.guild,
            parent.id,
            (owner or self.bot_user).id,
        )
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self._emit("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def upload(
        self, filename: str, data: bytes | str, content_type: str = "text/plain; charset=utf-8"
    ) -> Upload:
        """A file for an ATTACHMENT option: ``h.slash(u, "x", {"deck": h.upload("d.toml", "...")})``."""
        raw = data.encode() if isinstance(data, str) else data
        upload = Upload(self.ids.next(), filename, raw, content_type)
        self.cdn[upload.url] = raw
        return upload

    def dm_channel(self, user: User) -> Channel:
        found = next((c for c in self.channels.values() if c.recipient is user), None)
        if found is None:
            found = Channel(self.ids.next(), "", DM, recipient=user)
            self.channels[found.id] = found
        return found

    def ready_payload(self, shard_id: int | None = None, shard_count: int | None = None) -> dict[str, Any]:
        """READY for one connection: with sharding only the guilds on that shard."""
        me = {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        guilds = [g for g in self.guilds if shard_id is None or (g.id >> 22) % (shard_count or 1) == shard_id]
        shard = {} if shard_id is None else {"shard": [shard_id, shard_count]}
        return {
            "v": 10,
            "user": me,
            **shard,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": "harness-session",
            "resume_gateway_url": "wss://gateway.invalid",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }

    def interaction_payload(
        self,
        iid: int,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload as Discord sends it (member with permissions, app_permissions)."""
        guild = channel.guild
        bot_perms = BOT_PERMISSIONS if guild is None else self.member(self.bot_user, guild).permissions
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "token": f"tok-{iid}",
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "app_permissions": str(bot_perms.value),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild else 1,
            "attachment_size_limit": 26214400,
        }
        if guild is not None:
            member = self.member(user, guild).payload(with_permissions=True)
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                member=member,
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
            )
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        return payload
