"""Discord's rules for what a bot may send, written from Discord's API documentation
(components/reference, resources/message, reference#uploading-files,
interactions/receiving-and-responding, interactions/application-commands).

``check_payload(payload, kind=..., context=...)`` raises ``AssertionError`` naming the first broken
rule and where (e.g. ``components[1].components[0].label: 81 chars > 80``). The harness runs it on
every request and answers a broken one as Discord does (400, 50035 Invalid Form Body). The shape is
detected from the payload or given as ``kind``: ``commands``/``command`` (registration),
``interaction_callback``, ``modal``, ``autocomplete``, ``message`` (a new message or followup),
``message_edit``, ``thread`` (thread creation, with an optional first message).

The rules by subject: ``components`` (rows, buttons, selects, text inputs, modals, unique
custom_ids), ``embeds``, ``messages`` (content, emptiness, files, allowed_mentions),
``interactions`` (callback types and what they carry, autocomplete), ``commands``.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.commands import check_command, check_commands
from tests.e2e.limits.common import NO_CONTEXT, Context
from tests.e2e.limits.components import check_modal
from tests.e2e.limits.embeds import check_embeds
from tests.e2e.limits.interactions import EPHEMERAL, check_choices, check_interaction_callback
from tests.e2e.limits.messages import IS_COMPONENTS_V2, check_message, is_empty

__all__ = [
    "EPHEMERAL",
    "IS_COMPONENTS_V2",
    "Context",
    "check_command",
    "check_embeds",
    "check_message",
    "check_modal",
    "check_payload",
    "is_empty",
]
THREAD_ARCHIVE_MINUTES = {60, 1440, 4320, 10080}


def check_payload(payload: Any, *, kind: str | None = None, context: Context = NO_CONTEXT) -> None:
    """Assert ``payload`` is one Discord would accept."""
    kind = kind or _detect(payload)
    if kind in ("command", "commands"):
        check_commands(payload)
    elif kind == "interaction_callback":
        check_interaction_callback(payload, context)
    elif kind == "modal":
        check_modal(payload)
    elif kind == "autocomplete":
        check_choices(payload.get("choices") or [], "choices")
    elif kind == "thread":
        check_thread(payload, context)
    elif kind in ("message", "message_edit") and isinstance(payload, dict):
        check_message(payload, create=kind == "message", context=context)


def check_thread(body: dict[str, Any], context: Context = NO_CONTEXT) -> None:
    length = len(str(body.get("name") or ""))
    assert 1 <= length <= 100, f"thread.name: {length} chars, must be 1-100"
    minutes = body.get("auto_archive_duration")
    assert minutes is None or minutes in THREAD_ARCHIVE_MINUTES, (
        f"thread.auto_archive_duration: {minutes} not one of {sorted(THREAD_ARCHIVE_MINUTES)}"
    )
    if isinstance(body.get("message"), dict):  # a forum post's first message
        check_message(body["message"], "thread.message", context=context)


def _detect(payload: Any) -> str:
    if isinstance(payload, list):
        return "commands"
    if not isinstance(payload, dict):
        return "other"
    if isinstance(payload.get("type"), int) and set(payload) <= {"type", "data"}:
        return "interaction_callback"
    if "title" in payload and "custom_id" in payload and "components" in payload:
        return "modal"
    if "name" in payload and ("description" in payload or "options" in payload):
        return "command"
    return "message"
