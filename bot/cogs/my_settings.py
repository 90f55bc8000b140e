"""``/settings me``: a player's own settings — what they are told by DM, and
quiet hours in their own time zone. It joins the ``/settings`` group that holds
the server's settings (or makes that group, when no other part made it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.ui.flows import guarded, reply
from bot.user_prefs import save_settings
from storage.user_settings import UserSettings, UserSettingsStore, known_zone

Interaction = discord.Interaction[Any]


def settings_line(settings: UserSettings) -> str:
    told = {"turn": "a DM on your turn and reminders", "reminders": "reminders only", "nothing": "no DMs"}
    quiet = (
        f"quiet {settings.quiet_from}:00–{settings.quiet_to}:00 {settings.zone}"
        if settings.quiet_from is not None and settings.quiet_to is not None
        else "no quiet hours"
    )
    return f"{told[settings.notify]}, {quiet}"


@app_commands.command(name="me")
@app_commands.describe(
    notify="What I tell you by DM",
    timezone="Your time zone, e.g. Europe/Paris (for quiet hours)",
    quiet_from="Quiet hours begin at this hour (0-23, your time)",
    quiet_to="Quiet hours end at this hour (0-23, your time)",
)
@app_commands.choices(
    notify=[
        app_commands.Choice(name="a DM on my turn, and reminders", value="turn"),
        app_commands.Choice(name="reminders only", value="reminders"),
        app_commands.Choice(name="nothing", value="nothing"),
    ]
)
async def my_settings(
    interaction: Interaction,
    notify: str | None = None,
    timezone: str | None = None,
    quiet_from: app_commands.Range[int, 0, 23] | None = None,
    quiet_to: app_commands.Range[int, 0, 23] | None = None,
) -> None:
    """Your DMs and quiet hours, at every table (no DM in quiet hours: reminders come before)."""
    service = interaction.client.service  # type: ignore[attr-defined]

    async def save() -> None:
        store = UserSettingsStore(service.store.redis)
        mine = await store.get(interaction.user.id)
        if timezone is not None and not known_zone(timezone):
            await reply(interaction, "I do not know that time zone — write it like Europe/Paris or UTC.")
            return
        changes = {"notify": notify, "zone": timezone, "quiet_from": quiet_from, "quiet_to": quiet_to}
        mine = mine.model_copy(update={k: v for k, v in changes.items() if v is not None})
        tables = await save_settings(service, interaction.user.id, mine)
        await reply(interaction, f"Saved: {settings_line(mine)} — at the {tables} tables you sit at.")

    await guarded(interaction, save())


def attach_my_settings(tree: app_commands.CommandTree[Any]) -> None:
    group = tree.get_command("settings")
    if not isinstance(group, app_commands.Group):
        group = app_commands.Group(name="settings", description="Your settings")
        tree.add_command(group)
    if group.get_command("me") is None:
        group.add_command(my_settings)
