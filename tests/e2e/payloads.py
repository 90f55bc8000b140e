"""The Discord side of the e2e harness, as data.

* the world: users, guilds, roles, members, channels, threads, DM channels with deterministic
  snowflakes, and the ``World`` factories (``create_user``, ``set_manage_guild``, ``upload``, ...);
* the raw payloads Discord sends about it: READY, GUILD_CREATE, INTERACTION_CREATE (typed and
  nested options, ``resolved``, member permissions, ``app_permissions``), modal submissions;
* the objects Discord answers with (message, channel) and ``ROUTE_KINDS`` naming API routes;
* the records of what the bot sent: ``Request``, ``RecordedFile``, ``SentMessage``, ...
Shapes follow Discord's API documentation (ids as strings, ISO timestamps, permissions as strings).
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
_BASE_MS = 1767225600000 - DISCORD_EPOCH_MS  # 2026-01-01T00:00:00Z: deterministic ids and times

DEFAULT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, read_message_history=True,
    embed_links=True, attach_files=True, add_reactions=True, use_external_emojis=True,
    use_application_commands=True, create_public_threads=True, create_private_threads=True,
)
BOT_PERMISSIONS = DEFAULT_PERMISSIONS | discord.Permissions(manage_threads=True, manage_messages=True)

TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12


class Snowflakes:
    """Deterministic snowflakes: each id is one millisecond after the previous one."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        n = next(self._counter)
        return ((_BASE_MS + n) << 22) | (n & 0xFFF)


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
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0}


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: discord.Permissions
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions.value),
                "position": self.position, "color": 0, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0, "icon": None, "unicode_emoji": None}


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
            "roles": [str(r.id) for r in self.roles], "nick": self.nick, "avatar": None, "banner": None,
            "joined_at": iso_of(self.user.id), "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
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
            return {"id": str(self.id), "type": DM, "recipients": [self.recipient.payload()],
                    "last_message_id": None, "flags": 0}
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild.id), "name": self.name,
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id":
            None if self.parent_id is None else str(self.parent_id), "topic": None,
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
        }
        if self.is_thread:
            data.pop("permission_overwrites")
            data.update(owner_id=str(self.owner_id), message_count=0, member_count=1, total_message_sent=0,
                        thread_metadata={"archived": False, "auto_archive_duration": 1440, "locked": False,
                                         "archive_timestamp": iso_of(self.id), "invitable": True})
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
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "banner": None, "description": None, "owner_id": str(self.owner_id), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
            "premium_subscription_count": 0, "preferred_locale": "en-US", "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "public_updates_channel_id": None,
            "vanity_url_code": None, "application_id": None, "features": [], "emojis": [], "stickers": [],
            "roles": [self.everyone.payload()] + [r.payload() for r in self.roles],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread],
            "members": [m.payload() for m in self.members.values()], "member_count": len(self.members),
            "large": False, "unavailable": False, "joined_at": iso_of(self.id), "voice_states": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
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
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": self.url,
                "proxy_url": self.url, "content_type": self.content_type, "ephemeral": True}


def check_name(name: str) -> bool:
    """Discord's slash command / option name rule ``^[-_'\\p{L}\\p{N}]{1,32}$``, lowercase."""
    return (
        1 <= len(name) <= 32
        and all(ch in "-_'" or unicodedata.category(ch)[0] in "LN" for ch in name)
        and name == name.lower()
    )


def message_payload(
    msg_id: int, channel: Channel, author: User, body: dict[str, Any], *, message_type: int = 0,
    interaction: dict[str, Any] | None = None, webhook_id: int | None = None, files: tuple[Any, ...] = (),
) -> dict[str, Any]:
    """The message object Discord returns for a create (also used as the stored message)."""
    data: dict[str, Any] = {
        "id": str(msg_id), "channel_id": str(channel.id), "type": message_type, "author": author.payload(),
        "content": body.get("content") or "", "timestamp": iso_of(msg_id), "edited_timestamp": None,
        "tts": bool(body.get("tts")), "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": [
            {"id": str(msg_id + i + 1), "filename": f.filename, "size": len(f.data), "url":
             f"https://cdn.invalid/{msg_id}/{f.filename}", "proxy_url": f"https://cdn.invalid/{f.filename}"}
            for i, f in enumerate(files)
        ],
        "embeds": body.get("embeds") or [], "components": body.get("components") or [],
        "pinned": False, "flags": int(body.get("flags") or 0),
    }
    if channel.guild is not None:
        data["guild_id"] = str(channel.guild.id)
    if interaction is not None:
        data["interaction_metadata"] = interaction
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
        data["application_id"] = str(webhook_id)
    return data


def apply_edit(message: dict[str, Any], body: dict[str, Any]) -> None:
    """Merge an edit payload into a stored message object, as Discord does."""
    defaults: dict[str, Any] = {"content": "", "embeds": [], "components": [], "attachments": []}
    for key in ("content", "embeds", "components", "flags", "attachments"):
        if key in body:
            value = body[key]
            message[key] = defaults.get(key, 0) if value is None else value
    message["edited_timestamp"] = message["timestamp"]


def resolved_channel(channel: Channel, perms: discord.Permissions) -> dict[str, Any]:
    data = {"id": str(channel.id), "name": channel.name, "type": channel.type,
            "permissions": str(perms.value), "parent_id": None if channel.parent_id is None else
            str(channel.parent_id)}
    if channel.is_thread:
        data["thread_metadata"] = channel.payload()["thread_metadata"]
    return data


def build_options(
    definitions: list[dict[str, Any]], values: dict[str, Any], guild: Guild | None,
    resolved: dict[str, dict[str, Any]], *, focused: str | None = None, command: str = "",
) -> list[dict[str, Any]]:
    """Typed option list for the leaf command, filling ``resolved`` like Discord does."""
    by_name = {d["name"]: d for d in definitions}
    unknown = set(values) - set(by_name)
    assert not unknown, f"/{command}: unknown option(s) {sorted(unknown)}; known: {sorted(by_name)}"
    if focused is None:
        missing = [d["name"] for d in definitions if d.get("required") and d["name"] not in values]
        assert not missing, f"/{command}: required option(s) missing: {missing}"
    else:
        assert focused in by_name, f"/{command}: cannot focus unknown option {focused!r}"
        values = {**values, focused: values.get(focused, "")}
    out = []
    for name, value in values.items():
        kind = by_name[name]["type"]
        typed = _typed(kind, value, guild, resolved, autocomplete=focused is not None)
        option: dict[str, Any] = {"name": name, "type": kind, "value": typed}
        choices = by_name[name].get("choices")
        if choices and focused is None:
            allowed = [c["value"] for c in choices]
            assert option["value"] in allowed, f"/{command}: {name}={value!r} is not one of {allowed}"
        if name == focused:
            option["focused"] = True
        out.append(option)
    return out


def _typed(kind: int, value: Any, guild: Guild | None, resolved: dict[str, dict[str, Any]],
           *, autocomplete: bool) -> Any:
    if kind == 3 or (autocomplete and isinstance(value, str)):
        return str(value)
    if kind == 4:
        return int(value)
    if kind == 10:
        return float(value)
    if kind == 5:
        return bool(value)
    if kind in (6, 9) and isinstance(value, User | Member):
        user = value.user if isinstance(value, Member) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = guild.members.get(user.id) if guild is not None else None
        if member is not None:
            resolved.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, with_permissions=True)
        return str(user.id)
    if kind in (8, 9) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == 11 and isinstance(value, Upload):
        resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == 7 and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = resolved_channel(value, DEFAULT_PERMISSIONS)
        return str(value.id)
    raise AssertionError(f"cannot build an option of type {kind} from {value!r}")


Options = list[dict[str, Any]]


def nest_options(command_def: dict[str, Any], path: list[str]
                 ) -> tuple[Callable[[Options], Options], Options]:
    """Walk ``path`` (subcommand group / subcommand names) down the registration payload.

    Returns ``(wrap, leaf_definitions)`` where ``wrap(leaf_options)`` builds the nested option
    list Discord sends: ``[{"type": 2, "name": group, "options": [{"type": 1, ...}]}]``.
    """
    chain: list[dict[str, Any]] = []
    node = command_def
    for part in path:
        subs = {o["name"]: o for o in node.get("options", []) if o["type"] in (1, 2)}
        assert part in subs, f"/{command_def['name']}: no subcommand {part!r}; have {sorted(subs)}"
        node = subs[part]
        chain.append(node)
    assert not any(o["type"] in (1, 2) for o in node.get("options", [])), (
        f"/{command_def['name']} {' '.join(path)}: not a leaf command; pick a subcommand")

    def wrap(leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
        options = leaf
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        return options

    return wrap, list(node.get("options", []))


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in a tree (rows, v2 sections/containers, labels) in order."""
    out: list[dict[str, Any]] = []
    for comp in components or []:
        out.append(comp)
        out.extend(walk_components(comp.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(walk_components([comp[key]]))
    return out


def modal_submission(modal: dict[str, Any] | None, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``data.components`` of a MODAL_SUBMIT, mirroring the layout of the modal that was shown."""
    if modal is None:  # a modal from another process: plain action rows
        return [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": str(v)}]}
                for k, v in fields.items()]
    inputs = {c["custom_id"]: c for c in walk_components(modal["components"]) if c.get("custom_id")}
    unknown = set(fields) - set(inputs)
    assert not unknown, f"modal {modal['custom_id']!r}: no field(s) {sorted(unknown)}; has {sorted(inputs)}"

    def answer(comp: dict[str, Any]) -> dict[str, Any]:
        cid = comp["custom_id"]
        if comp["type"] == 4:
            value = str(fields.get(cid, comp.get("value") or ""))
            limit = min(4000, comp.get("max_length") or 4000)
            assert len(value) <= limit, f"modal field {cid!r}: {len(value)} chars > max {limit}"
            assert not (comp.get("required", True) and not value), f"modal field {cid!r} is required"
            return {"type": 4, "custom_id": cid, "value": value}
        values = fields.get(cid, [])
        return {"type": comp["type"], "custom_id": cid, "values": [str(v) for v in values]}

    out = []
    for top in modal["components"]:
        if top["type"] == 1:
            out.append({"type": 1, "components": [answer(c) for c in top["components"]]})
        elif top["type"] == 18:
            out.append({"type": 18, "component": answer(top["component"])})
    return out


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

    def create_user(self, name: str, *, guild: Guild | None = None, join: bool = True,
                    manage_guild: bool = False) -> User:
        """A new user; unless ``join=False`` also a member of ``guild`` (default: ``h.guild``)."""
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        if join:
            self.add_member(guild or self.guild, user, manage_guild=manage_guild)
        return user

    def add_member(self, guild: Guild, user: User, *, manage_guild: bool = False,
                   nick: str | None = None) -> Member:
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

    def create_thread(self, parent: Channel, name: str, *, private: bool = False,
                      owner: User | None = None, thread_id: int | None = None) -> Channel:
        assert parent.guild is not None and not parent.is_thread, "threads live in guild text channels"
        thread = Channel(thread_id or self.ids.next(), name, PRIVATE_THREAD if private else PUBLIC_THREAD,
                         parent.guild, parent.id, (owner or self.bot_user).id)
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self._emit("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def upload(self, filename: str, data: bytes | str, content_type: str = "text/plain; charset=utf-8"
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
        return {"v": 10, "user": me, **shard,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": "harness-session", "resume_gateway_url": "wss://gateway.invalid",
                "application": {"id": str(self.application_id), "flags": 0}, "private_channels": [],
                "relationships": [], "presences": [], "user_settings": {}, "geo_ordered_rtc_regions": []}

    def interaction_payload(self, iid: int, kind: int, user: User, channel: Channel, data: dict[str, Any],
                            message: dict[str, Any] | None = None) -> dict[str, Any]:
        """An INTERACTION_CREATE payload as Discord sends it (member with permissions, app_permissions)."""
        guild = channel.guild
        bot_perms = BOT_PERMISSIONS if guild is None else self.member(self.bot_user, guild).permissions
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": kind, "token": f"tok-{iid}",
            "version": 1, "data": data, "channel_id": str(channel.id), "channel": channel.payload(),
            "app_permissions": str(bot_perms.value), "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild else 1, "attachment_size_limit": 26214400}
        if guild is not None:
            member = self.member(user, guild).payload(with_permissions=True)
            payload.update(guild_id=str(guild.id), guild_locale="en-US", member=member,
                           guild={"id": str(guild.id), "locale": "en-US", "features": []})
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        return payload


# ---------------------------------------------------------------------- records of what the bot sent
EPHEMERAL, LOADING = 1 << 6, 1 << 7


@dataclass(eq=False)
class RecordedFile:
    filename: str
    data: bytes
    description: str | None = None

    @classmethod
    def of(cls, file: discord.File) -> RecordedFile:
        pos = file.fp.tell()
        data = file.fp.read()
        file.fp.seek(pos)
        return cls(file.filename or "", data, file.description)


@dataclass(eq=False)
class Request:
    """One outgoing request. ``kind``: interaction_response, followup, original_edit/_get/_delete,
    webhook_message_edit/_get/_delete, message_create/edit/get/delete, dm_channel, thread_create,
    commands, me, app_info, channel_get, other."""

    seq: int
    method: str
    path: str  # "/channels/123/messages"
    route: str  # "/channels/{channel_id}/messages"
    json: Any
    query: dict[str, Any]
    via: str  # "http" (HTTPClient) or "webhook" (AsyncWebhookAdapter)
    files: list[RecordedFile]
    kind: str = "other"
    args: dict[str, str] = field(default_factory=dict)  # path parameters
    interaction_id: int | None = None
    channel_id: int | None = None
    dm_user_id: int | None = None
    message_id: int | None = None
    response: Any = None
    error: tuple[int, int] | None = None  # (status, Discord error code) when it failed

    @property
    def response_type(self) -> int | None:
        return self.json.get("type") if self.kind == "interaction_response" else None

    @property
    def flags(self) -> int:
        body = (self.json or {}).get("data") if self.kind == "interaction_response" else self.json
        return int((body or {}).get("flags") or 0) if isinstance(body, dict) else 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def is_dm(self) -> bool:
        return self.dm_user_id is not None

    @property
    def limits_kind(self) -> str:
        return {"interaction_response": "interaction_callback", "commands": "commands",
                "thread_create": "other"}.get(self.kind, "message")


@dataclass(eq=False)
class SentMessage:
    """A message the bot created; ``data`` is the current message object (edits applied)."""

    data: dict[str, Any]
    seq: int
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: the only user who sees it
    dm_user_id: int | None = None
    deleted: bool = False

    id = property(lambda self: int(self.data["id"]))
    channel_id = property(lambda self: int(self.data["channel_id"]))
    content = property(lambda self: self.data.get("content") or "")
    embeds = property(lambda self: self.data.get("embeds") or [])
    components = property(lambda self: self.data.get("components") or [])
    flags = property(lambda self: int(self.data.get("flags") or 0))
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in walk_components(self.components) if c.get("custom_id") == custom_id), None)


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict[str, Any]
    message_id: int | None = None  # the message a component lives on
    responded_with: int | None = None
    original_id: int | None = None  # message "@original" refers to
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    created: float = 0.0  # loop time the interaction was delivered (3 second rule)


@dataclass(eq=False)
class Fault:
    match: Callable[[Request], bool]
    status: int
    code: int
    message: str
    times: int | None


class FakeResponse:
    """Enough of an aiohttp response for ``discord.HTTPException``."""

    def __init__(self, status: int) -> None:
        self.status, self.headers = status, dict[str, str]()
        self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")

ROUTE_KINDS = {  # "METHOD route template" -> Request.kind
    "POST /interactions/{webhook_id}/{webhook_token}/callback": "interaction_response",
    "POST /webhooks/{webhook_id}/{webhook_token}": "followup",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": "original_edit",
    "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original": "original_get",
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original": "original_delete",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": "webhook_message_edit",
    "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": "webhook_message_get",
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": "webhook_message_delete",
    "POST /channels/{channel_id}/messages": "message_create",
    "PATCH /channels/{channel_id}/messages/{message_id}": "message_edit",
    "GET /channels/{channel_id}/messages/{message_id}": "message_get",
    "DELETE /channels/{channel_id}/messages/{message_id}": "message_delete",
    "POST /users/@me/channels": "dm_channel",
    "POST /channels/{channel_id}/threads": "thread_create",
    "POST /channels/{channel_id}/messages/{message_id}/threads": "thread_create",
    "GET /channels/{channel_id}": "channel_get",
    "GET /users/@me": "me",
    "GET /oauth2/applications/@me": "app_info",
    **{f"{m} /applications/{{application_id}}{g}/commands": "commands"
       for m in ("GET", "PUT", "POST") for g in ("", "/guilds/{guild_id}")},
}
