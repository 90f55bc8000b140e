"""``/settings me``: a player's own settings — what they are told by DM, and
quiet hours in their own time zone. It joins the ``/settings`` group that holds
the server's settings (or makes that group, when no other part made it)."""

from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

import discord
from discord import app_commands

from bot.app.ui.flows import guarded, reply
from bot.service.errors import TableError
from bot.service.policy import names
from bot.service.user_prefs import update_settings
from storage.user_settings import UserSettings, UserSettingsStore, known_zone

Interaction = discord.Interaction[Any]


def settings_line(settings: UserSettings) -> str:
    told = {"turn": "a DM on your turn and reminders", "reminders": "reminders only", "nothing": "no DMs"}
    quiet = (
        f"quiet hours {settings.quiet_from}:00–{settings.quiet_to}:00 {settings.zone}"
        if settings.quiet_from is not None and settings.quiet_to is not None
        else "no quiet hours"
    )
    return f"{told[settings.notify]}, {quiet}"


def tables_line(count: int) -> str:
    if count == 0:
        return "the tables you join will follow them"
    return f"at the {count} table{'s' if count != 1 else ''} you sit at, and those you join"


async def time_zones(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Time zones whose name holds what was typed (Discord shows 25 at most)."""
    typed = current.strip().lower().replace(" ", "_")
    found = sorted(z for z in available_timezones() if typed in z.lower())
    return [app_commands.Choice(name=z, value=z) for z in found[:25]]


@app_commands.command(name="me")
@app_commands.describe(
    notify="What I DM you: your turn and reminders, reminders only, or nothing",
    timezone="Your time zone, e.g. Europe/Paris (for quiet hours)",
    quiet_from="The hour your quiet hours begin (0-23, your time; the same as quiet_to: none)",
    quiet_to="The hour your quiet hours end (0-23, your time)",
)
@app_commands.choices(
    notify=[
        app_commands.Choice(name="a DM on my turn, and reminders", value="turn"),
        app_commands.Choice(name="reminders only", value="reminders"),
        app_commands.Choice(name="nothing", value="nothing"),
    ]
)
@app_commands.autocomplete(timezone=time_zones)
@names("own")
async def my_settings(
    interaction: Interaction,
    notify: str | None = None,
    timezone: str | None = None,
    quiet_from: app_commands.Range[int, 0, 23] | None = None,
    quiet_to: app_commands.Range[int, 0, 23] | None = None,
) -> None:
    """Your DMs and quiet hours at every table; with no options, see them."""
    service = interaction.client.service  # type: ignore[attr-defined]

    async def save() -> None:
        store = UserSettingsStore(service.store.redis)
        mine = await store.get(interaction.user.id)
        if all(option is None for option in (notify, timezone, quiet_from, quiet_to)):
            await reply(
                interaction,
                f"Your settings: {settings_line(mine)}. Change them with the options of /settings me "
                "(no DM in quiet hours: reminders come before them).",
            )
            return
        if timezone is not None and not known_zone(timezone):
            await reply(interaction, "I do not know that time zone — write it like Europe/Paris or UTC.")
            return

        def change(mine: UserSettings) -> UserSettings:
            # Applied to the settings as stored at the save, so a save made meanwhile is kept.
            begin = quiet_from if quiet_from is not None else mine.quiet_from
            end = quiet_to if quiet_to is not None else mine.quiet_to
            if (begin is None) != (end is None):
                raise TableError("Quiet hours need both ends: give quiet_from and quiet_to.")
            if begin == end:
                begin = end = None  # an empty window: no quiet hours
            changes = {k: v for k, v in {"notify": notify, "zone": timezone}.items() if v is not None}
            return mine.model_copy(update={**changes, "quiet_from": begin, "quiet_to": end})

        mine, tables = await update_settings(service, interaction.user.id, change)
        await reply(interaction, f"Saved: {settings_line(mine)} — {tables_line(tables)}.")

    await guarded(interaction, save())


def attach_my_settings(tree: app_commands.CommandTree[Any]) -> None:
    group = tree.get_command("settings")
    if not isinstance(group, app_commands.Group):
        group = app_commands.Group(name="settings", description="Your settings and this server's")
        tree.add_command(group)
    if group.get_command("me") is None:
        group.add_command(my_settings)
