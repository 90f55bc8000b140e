"""Interaction callbacks, as Discord's "Receiving and Responding" page states them: which callback
type answers which interaction, what each carries, and autocomplete results."""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.common import NO_CONTEXT, Context, count, length
from tests.e2e.limits.components import check_modal
from tests.e2e.limits.messages import CREATE_FLAGS, check_message

EPHEMERAL = 1 << 6
RESPONSE_FLAGS = CREATE_FLAGS | EPHEMERAL  # what a response or followup may set
CALLBACK_TYPES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
    10: "PREMIUM_REQUIRED",
    12: "LAUNCH_ACTIVITY",
}
INTERACTION_TYPES = {
    1: "PING",
    2: "APPLICATION_COMMAND",
    3: "MESSAGE_COMPONENT",
    4: "AUTOCOMPLETE",
    5: "MODAL_SUBMIT",
}
ANSWERS = {  # interaction type -> the callback types that may answer it
    1: {1},
    2: {4, 5, 9},
    3: {4, 5, 6, 7, 9},
    4: {8},
    5: {4, 5, 6, 7},  # never a modal; updates only when the modal came from a message's component
}
# This app has no monetization (PREMIUM_REQUIRED, deprecated anyway) and no Activity (LAUNCH_ACTIVITY).
UNAVAILABLE = {10, 12}


def check_interaction_callback(payload: dict[str, Any], context: Context = NO_CONTEXT) -> None:
    kind, data = payload.get("type"), payload.get("data") or {}
    assert kind in CALLBACK_TYPES, f"type: {kind!r} is not an interaction callback type"
    name = CALLBACK_TYPES[kind]
    assert kind not in UNAVAILABLE, f"type {kind} ({name}): not available to this app"
    if context.interaction_type is not None:
        _answers(kind, context)
    if kind in (4, 7):
        check_message(data, "data", create=kind == 4, context=context)
    elif kind == 5:
        extra = set(data) - {"flags"}
        assert not extra, f"deferred response (type 5): data may only carry flags, got {sorted(extra)}"
        flags = int(data.get("flags") or 0)
        assert flags & ~EPHEMERAL == 0, f"deferred response (type 5): flags {flags} other than EPHEMERAL (64)"
    elif kind in (1, 6):
        assert not data, f"{name} (type {kind}) carries no data, got {sorted(data)}"
    elif kind == 8:
        check_choices(data.get("choices") or [], "data.choices")
    elif kind == 9:
        check_modal(data, where="data")
    if kind not in (4, 7):
        assert not context.files, f"type {kind} ({name}): only a message response can carry files"


def _answers(kind: int, context: Context) -> None:
    interaction = context.interaction_type or 0
    allowed = ANSWERS.get(interaction, set())
    what = INTERACTION_TYPES.get(interaction, str(interaction))
    assert kind in allowed, (
        f"type {kind} ({CALLBACK_TYPES[kind]}) cannot answer a {what} interaction "
        f"(allowed: {sorted(allowed)})"
    )
    if kind in (6, 7):
        name = CALLBACK_TYPES[kind]
        assert context.on_message, f"type {kind} ({name}): this {what} has no message to update"


def check_choices(choices: list[dict[str, Any]], where: str) -> None:
    for i, choice in enumerate(count(where, choices, 25, "choices")):
        length(f"{where}[{i}].name", choice.get("name"), 100, 1)
        if isinstance(choice.get("value"), str):
            length(f"{where}[{i}].value", choice["value"], 100)
        else:
            value = choice.get("value")
            assert isinstance(value, int | float), f"{where}[{i}].value: {value!r} is not a string or number"
