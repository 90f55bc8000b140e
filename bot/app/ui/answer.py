"""Answering an interaction: exactly once, within Discord's 3 seconds, and truthfully.

Every interaction runs inside :func:`guarded`. It defers when the answer is
not ready after :data:`DEFER_AFTER` seconds (slow storage must not turn into
"This interaction failed"), and the helpers here answer whichever way the
interaction was acknowledged: a first response, an edit of the deferred
message, or a followup. One lock per interaction keeps the deferral and the
answer from both being sent as the first response.

What the player reads says what really happened: a refusal changed nothing; a
change that was saved is never reported as failed, whatever breaks after the
save (:func:`after_save`); a save whose outcome is unknown says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import discord

from bot.service.errors import OutcomeUnknown, StorageUnavailable, TableError
from engines.core import IllegalAction
from storage.store import STORAGE_FAULTS, SaveUnknown

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
_T = TypeVar("_T")

DEFER_AFTER = 2.0
SUGGEST_WITHIN = 2.5
SORRY = "Something went wrong on our side; nothing was changed. Please try again."
STORAGE_DOWN = "The table's storage is not answering right now; nothing was changed. Try again shortly."
UNKNOWN = (
    "The table's storage stopped answering during your move, so I cannot tell yet whether it counted — "
    "press Refresh or use /table status in a moment to see."
)
MOVE_COUNTED = "Your move counted, but I could not show it here — press Refresh or use /hand to see it."
CHANGE_COUNTED = "That was done, but I could not show it here — the table message shows where it stands."
# Set on an interaction deferred as a "thinking" message, to its ephemeral flag:
# that message is the answer's place (edited, or replaced when the flags differ).
_THINKING = "gametable.thinking"
_LOCK = "gametable.answer-lock"


class AfterSave(Exception):
    """Something failed after a change was saved: the change stands, and
    ``message`` tells the player so."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@contextlib.asynccontextmanager
async def after_save(message: str = CHANGE_COUNTED) -> AsyncIterator[None]:
    """Wrap the work that follows a save: any failure in it becomes :class:`AfterSave`."""
    try:
        yield
    except Exception as error:
        raise AfterSave(message) from error


def _lock(interaction: Interaction) -> asyncio.Lock:
    lock = interaction.extras.get(_LOCK)
    if lock is None:
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock  # type: ignore[no-any-return]


async def reply(interaction: Interaction, content: str | None = None, **kwargs: Any) -> None:
    """A message for the user (ephemeral unless ``ephemeral=False``), however the
    interaction was acknowledged so far."""
    ephemeral = kwargs.setdefault("ephemeral", True)
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(content, **kwargs)
            return
        thinking = interaction.extras.pop(_THINKING, None)
        if thinking is not None:
            if thinking == ephemeral:
                kwargs.pop("ephemeral")
                if "files" in kwargs:  # an edit names its uploads "attachments"
                    kwargs["attachments"] = kwargs.pop("files")
                await interaction.edit_original_response(content=content, **kwargs)
                return
            await interaction.delete_original_response()
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)


async def update(interaction: Interaction, **kwargs: Any) -> None:
    """Redraw the message the clicked component is on (the act panel); a new
    message where there is none to redraw."""
    async with _lock(interaction):
        if interaction.message is not None and not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(**kwargs)
            return
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if "attachments" in kwargs:  # a new message names its uploads "files"
        kwargs["files"] = kwargs.pop("attachments")
    await reply(interaction, **kwargs)


async def public_message(interaction: Interaction, **kwargs: Any) -> discord.Message:
    """A public answer (the table message), returned so a thread can hang on it."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
            return await interaction.original_response()
        if interaction.extras.pop(_THINKING, None) is False:
            return await interaction.edit_original_response(**kwargs)
        return await interaction.followup.send(wait=True, **kwargs)


async def acknowledge(interaction: Interaction) -> None:
    """Answer a click without changing the message it is on."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


async def defer(interaction: Interaction, public: bool = False) -> None:
    """Acknowledge now, before long work (a file to build): a "thinking" message
    for a command, or a deferred update for a click. Nothing is sent when the
    interaction was already acknowledged (by :func:`guarded`'s own deferral):
    a second first response is refused by Discord."""
    async with _lock(interaction):
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()  # an update: the panel stays until redrawn
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
            interaction.extras[_THINKING] = not public


async def _defer_when_late(interaction: Interaction, public: bool) -> None:
    await asyncio.sleep(DEFER_AFTER)
    try:
        await defer(interaction, public)
    except discord.HTTPException:
        log.warning("could not defer interaction %s", interaction.id, exc_info=True)


async def suggestions(work: Awaitable[list[_T]]) -> list[_T]:
    """Autocomplete choices, or none: an autocomplete cannot be deferred, so what
    is not ready in time (or fails) suggests nothing rather than failing late."""
    try:
        return await asyncio.wait_for(work, SUGGEST_WITHIN)
    except (TableError, IllegalAction):
        return []
    except TimeoutError:
        log.warning("autocomplete not ready within %.1fs", SUGGEST_WITHIN)
    except StorageUnavailable:
        log.warning("autocomplete: the table's storage is not answering", exc_info=True)
    except Exception:
        log.exception("autocomplete failed")
    return []


async def guarded(
    interaction: Interaction, work: Awaitable[None], table_id: str | None = None, *, public: bool = False
) -> None:
    """Run ``work`` for an interaction, deferring it when late and turning every
    failure into one true sentence. ``public``: the answer is a public message."""
    watchdog = asyncio.create_task(_defer_when_late(interaction, public))
    try:
        await work
    except (TableError, IllegalAction) as refusal:
        await safe_reply(interaction, refusal.message if isinstance(refusal, TableError) else refusal.reason)
    except AfterSave as saved:
        log.error(
            "table=%s user=%s: saved, but answering failed",
            table_id,
            interaction.user.id,
            exc_info=saved.__cause__,
        )
        await safe_reply(interaction, saved.message)
    except (SaveUnknown, OutcomeUnknown):
        log.warning("table=%s user=%s: a save's outcome is unknown", table_id, interaction.user.id)
        await safe_reply(interaction, UNKNOWN)
    except (*STORAGE_FAULTS, StorageUnavailable):
        log.warning("table=%s user=%s: storage unavailable", table_id, interaction.user.id, exc_info=True)
        await safe_reply(interaction, STORAGE_DOWN)
    except Exception:
        log.exception("unexpected error table=%s user=%s", table_id, interaction.user.id)
        await safe_reply(interaction, SORRY)
    finally:
        watchdog.cancel()


async def safe_reply(interaction: Interaction, message: str) -> None:
    try:
        await reply(interaction, message)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
