"""The Discord side of the e2e harness, as data (``from tests.e2e import payloads as P``).

This module gathers, under their old names, what now lives in:

* ``tests/e2e/entities.py``: users, guilds, roles, members, channels, threads, DM channels and
  uploads with deterministic snowflakes, and their payloads (GUILD_CREATE, channel, member, ...);
* ``tests/e2e/world.py``: the ``World`` factories (``create_user``, ``set_manage_guild``,
  ``upload``, ...) and the raw READY and INTERACTION_CREATE payloads (member permissions,
  ``app_permissions``);
* ``tests/e2e/options.py``: what users send: typed and nested options, ``resolved``, modal submissions;
* ``tests/e2e/records.py``: the objects Discord answers with (message) and ``ROUTE_KINDS`` naming API
  routes; the records of what the bot sent: ``Request``, ``RecordedFile``, ``SentMessage``, ...
Shapes follow Discord's API documentation (ids as strings, ISO timestamps, permissions as strings).
"""

from __future__ import annotations

from tests.e2e.entities import (
    _BASE_MS,
    BOT_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    DISCORD_EPOCH_MS,
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
    iso_of,
)
from tests.e2e.options import (
    Options,
    _typed,
    build_options,
    check_name,
    modal_submission,
    nest_options,
    resolved_channel,
    walk_components,
)
from tests.e2e.records import (
    EPHEMERAL,
    LOADING,
    ROUTE_KINDS,
    FakeResponse,
    Fault,
    InteractionRecord,
    RecordedFile,
    Request,
    SentMessage,
    apply_edit,
    message_payload,
)
from tests.e2e.world import World

__all__ = [
    "BOT_PERMISSIONS",
    "DEFAULT_PERMISSIONS",
    "DISCORD_EPOCH_MS",
    "DM",
    "EPHEMERAL",
    "LOADING",
    "PRIVATE_THREAD",
    "PUBLIC_THREAD",
    "ROUTE_KINDS",
    "TEXT",
    "_BASE_MS",
    "Channel",
    "FakeResponse",
    "Fault",
    "Guild",
    "InteractionRecord",
    "Member",
    "Options",
    "RecordedFile",
    "Request",
    "Role",
    "SentMessage",
    "Snowflakes",
    "Upload",
    "User",
    "World",
    "_typed",
    "apply_edit",
    "build_options",
    "check_name",
    "iso_of",
    "message_payload",
    "modal_submission",
    "nest_options",
    "resolved_channel",
    "walk_components",
]
