"""Records of what the bot sent and what happened to each interaction.

* the records: ``Request``, ``RecordedFile``, ``SentMessage``, ``InteractionRecord``, ``Fault``,
  ``InteractionResult`` (what ``DiscordHarness.slash``/``click``/... return);
* the message objects Discord answers with and stores (``message_payload``, ``apply_edit``) and
  ``ROUTE_KINDS`` naming API routes (``Request.kind``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from tests.e2e.entities import Channel, User, iso_of
from tests.e2e.options import walk_components

if TYPE_CHECKING:
    from tests.e2e.harness import DiscordHarness

SUPPRESS_EMBEDS, EPHEMERAL, LOADING, IS_COMPONENTS_V2 = 1 << 2, 1 << 6, 1 << 7, 1 << 15


def message_payload(
    msg_id: int,
    channel: Channel,
    author: User,
    body: dict[str, Any],
    *,
    message_type: int = 0,
    interaction: dict[str, Any] | None = None,
    webhook_id: int | None = None,
    files: tuple[Any, ...] = (),
) -> dict[str, Any]:
    """The message object Discord returns for a create (also used as the stored message)."""
    data: dict[str, Any] = {
        "id": str(msg_id),
        "channel_id": str(channel.id),
        "type": message_type,
        "author": author.payload(),
        "content": body.get("content") or "",
        "timestamp": iso_of(msg_id),
        "edited_timestamp": None,
        "tts": bool(body.get("tts")),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [
            {
                "id": str(msg_id + i + 1),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"https://cdn.invalid/{msg_id}/{f.filename}",
                "proxy_url": f"https://cdn.invalid/{f.filename}",
            }
            for i, f in enumerate(files)
        ],
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "pinned": False,
        "flags": int(body.get("flags") or 0),
    }
    if channel.guild is not None:
        data["guild_id"] = str(channel.guild.id)
    if interaction is not None:
        data["interaction_metadata"] = interaction
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
        data["application_id"] = str(webhook_id)
    return data


def apply_edit(
    message: dict[str, Any],
    body: dict[str, Any],
    files: list[RecordedFile] | None = None,
    cdn: dict[str, bytes] | None = None,
) -> None:
    """Merge an edit payload into a stored message object, as Discord does. A listed attachment
    is kept by its id, or is a new upload named by its index in ``files`` (stored in ``cdn``)."""
    defaults: dict[str, Any] = {"content": "", "embeds": [], "components": [], "attachments": []}
    for key in ("content", "embeds", "components"):
        if key in body:
            value = body[key]
            message[key] = defaults[key] if value is None else value
    if "attachments" in body:
        message["attachments"] = _edited_attachments(message, body["attachments"] or [], files or [], cdn)
    if body.get("flags") is not None:
        # An edit may only toggle SUPPRESS_EMBEDS and set IS_COMPONENTS_V2; other flags (EPHEMERAL
        # above all) stay as the message was sent, whatever the edit says.
        old, new = int(message.get("flags") or 0), int(body["flags"])
        message["flags"] = (old & ~SUPPRESS_EMBEDS) | (new & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
    message["edited_timestamp"] = message["timestamp"]


def _edited_attachments(
    message: dict[str, Any],
    listed: list[dict[str, Any]],
    files: list[RecordedFile],
    cdn: dict[str, bytes] | None,
) -> list[dict[str, Any]]:
    kept = {str(a["id"]): a for a in message.get("attachments") or []}
    attachments = []
    for item in listed:
        ident = str(item.get("id"))
        if ident in kept:
            attachments.append(kept[ident])
            continue
        upload = files[int(ident)]
        url = f"https://cdn.invalid/{message['id']}/e{len(kept) + int(ident)}/{upload.filename}"
        attachments.append(
            {
                "id": str(int(message["id"]) + 1000 + int(ident)),
                "filename": upload.filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
            }
        )
        if cdn is not None:
            cdn[url] = upload.data
    return attachments


# ---------------------------------------------------------------------- records of what the bot sent


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
        """Which of Discord's rules (``tests.e2e.limits.check_payload``) this request must follow."""
        if self.method in ("GET", "DELETE"):
            return "other"
        return {
            "interaction_response": "interaction_callback",
            "commands": "commands",
            "thread_create": "thread",
            "followup": "message",
            "message_create": "message",
            "original_edit": "message_edit",
            "webhook_message_edit": "message_edit",
            "message_edit": "message_edit",
        }.get(self.kind, "other")


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


@dataclass(eq=False)
class InteractionResult:
    """What the bot did while processing one interaction."""

    harness: DiscordHarness
    record: InteractionRecord
    requests: list[Request]  # every request made until the bot went idle

    @property
    def response(self) -> Request | None:
        return next(
            (
                r
                for r in self.requests
                if r.kind == "interaction_response" and r.interaction_id == self.record.id and r.error is None
            ),
            None,
        )

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
        return [
            self.harness.messages[r.message_id]
            for r in self.requests
            if r.kind == "followup" and r.error is None and r.message_id is not None
        ]

    @property
    def sent(self) -> list[SentMessage]:
        """Every message created while processing (response, followups, channel messages, DMs)."""
        ids = dict.fromkeys(
            r.message_id
            for r in self.requests
            if r.error is None
            and r.message_id
            and r.kind in ("interaction_response", "followup", "message_create")
        )
        return [self.harness.messages[i] for i in ids if i is not None]


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
    **{
        f"{m} /applications/{{application_id}}{g}/commands": "commands"
        for m in ("GET", "PUT", "POST")
        for g in ("", "/guilds/{guild_id}")
    },
}
