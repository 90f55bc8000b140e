"""Restart-proof components. Every button and select is a DynamicItem whose
custom_id carries the table id and the version it was drawn at, so it works
after a restart (nothing lives in process memory) and an old click is
recognised. The callbacks hold no rules: they hand over to :mod:`bot.app.ui.flows`, which finds
the table as :mod:`bot.service.policy` lets the presser see it (each item declares
what it names).

custom_id templates (all well under Discord's 100 characters):

- ``gt:v1:<verb>:<table>:<version>`` — table buttons (join, leave, bot, start, kick, hand, act)
- ``gt:v1:unseat:<table>:<version>`` — the host's select of lobby seats to remove
- ``gt:v1:do:<table>:<version>:<choice key>`` — one legal choice
- ``gt:v1:menu:<table>:<version>:<path>:<part>`` — a select one menu level deep
- ``gt:v1:nav:<table>:<version>:<path>:<refresh|back>`` — refresh / back in the act panel
- ``gt:v1:text:<table>:<version>:<path>`` — the card text of the panel's choices
- ``gt:v1:undo:<table>:<version asked at>:<yes|no>`` — an answer to a request to take back a move
- ``gt:v1:list:<mine|here>:<first rank>:<prev|next>`` — a page of ``/tables`` or ``/table list``
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.render.menu import format_path, parse_path
from bot.service.policy import names

TABLE = r"(?P<table>[a-z0-9]{1,16}):(?P<ver>\d{1,9})"
VERBS = {
    "join": "Join",
    "leave": "Leave",
    "bot": "Add bot",
    "start": "Start",
    "kick": "Remove seat",
    "hand": "My hand",
    "act": "Act",
}
NAV_LABELS = {"refresh": "Refresh", "back": "Back"}


Interaction = discord.Interaction[Any]


class _TableFlows(Protocol):
    """What these items hand over to (:class:`bot.app.ui.flows.Flows`), named
    here so the items need not import the flows that draw them."""

    async def table_button(
        self, interaction: Interaction, verb: str, table_id: str, version: int
    ) -> None: ...

    async def play(self, interaction: Interaction, table_id: str, version: int | None, key: str) -> None: ...

    async def menu_pick(
        self, interaction: Interaction, table_id: str, version: int, path: list[int], picked: int
    ) -> None: ...

    async def navigate(
        self, interaction: Interaction, table_id: str, version: int, path: list[int]
    ) -> None: ...

    async def remove_pick(self, interaction: Interaction, table_id: str, version: int, seat: int) -> None: ...

    async def card_text(
        self, interaction: Interaction, table_id: str, version: int, path: list[int]
    ) -> None: ...


class _Host(Protocol):
    @property
    def flows(self) -> _TableFlows: ...


def _bot(interaction: discord.Interaction[Any]) -> _Host:
    return interaction.client  # type: ignore[return-value]


@names("table")
class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:(?P<verb>join|leave|bot|start|kick|hand|act):" + TABLE,
):
    def __init__(self, verb: str, table_id: str, version: int) -> None:
        style = discord.ButtonStyle.primary if verb in ("join", "act") else discord.ButtonStyle.secondary
        if verb == "start":
            style = discord.ButtonStyle.success
        super().__init__(
            discord.ui.Button(label=VERBS[verb], style=style, custom_id=f"gt:v1:{verb}:{table_id}:{version}")
        )
        self.verb, self.table_id, self.version = verb, table_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(match["verb"], match["table"], int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).flows.table_button(interaction, self.verb, self.table_id, self.version)


@names("table")
class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:do:" + TABLE + r":(?P<key>[A-Za-z0-9_.:+\-]{1,48})",
):
    def __init__(
        self,
        table_id: str,
        version: int,
        key: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=f"gt:v1:do:{table_id}:{version}:{key}")
        )
        self.table_id, self.version, self.key = table_id, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return cls(match["table"], int(match["ver"]), match["key"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).flows.play(interaction, self.table_id, self.version, self.key)


@names("table")
class MenuSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gt:v1:menu:" + TABLE + r":(?P<path>[0-9.]{0,40}):(?P<part>\d)",
):
    def __init__(
        self,
        table_id: str,
        version: int,
        path: list[int],
        part: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose…",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"gt:v1:menu:{table_id}:{version}:{format_path(path)}:{part}",
            placeholder=placeholder[:150],
            options=options or [discord.SelectOption(label="…", value="0")],
        )
        super().__init__(select)
        self.table_id, self.version, self.path = table_id, version, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MenuSelect:
        return cls(match["table"], int(match["ver"]), parse_path(match["path"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A value is an option index this bot drew; anything else (a forged or garbled
        # value) is answered as no option at all rather than raising in discord.py.
        value = self.item.values[0] if self.item.values else ""
        picked = int(value) if re.fullmatch(r"[0-9]{1,6}", value) else -1
        await _bot(interaction).flows.menu_pick(interaction, self.table_id, self.version, self.path, picked)


@names("table")
class NavButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # The mode keeps Refresh and Back apart: one level down both lead to the top, and Discord
    # refuses a message whose components share a custom_id. Older panels carry no mode.
    template=r"gt:v1:nav:" + TABLE + r":(?P<path>[0-9.]{0,40})(?::(?P<mode>refresh|back))?",
):
    def __init__(self, table_id: str, version: int, path: list[int], mode: str = "refresh") -> None:
        super().__init__(
            discord.ui.Button(
                label=NAV_LABELS[mode],
                style=discord.ButtonStyle.secondary,
                custom_id=f"gt:v1:nav:{table_id}:{version}:{format_path(path)}:{mode}",
            )
        )
        self.table_id, self.version, self.path = table_id, version, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NavButton:
        return cls(match["table"], int(match["ver"]), parse_path(match["path"]), match["mode"] or "refresh")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).flows.navigate(interaction, self.table_id, self.version, self.path)


@names("table")
class SeatSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gt:v1:unseat:" + TABLE,
):
    """The host's pick of a lobby seat to remove; values are seat positions at ``version``."""

    def __init__(
        self, table_id: str, version: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"gt:v1:unseat:{table_id}:{version}",
            placeholder="Remove which seat?",
            options=options or [discord.SelectOption(label="…", value="0")],
        )
        super().__init__(select)
        self.table_id, self.version = table_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatSelect:
        return cls(match["table"], int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        picked = int(values[0]) if values and re.fullmatch(r"\d{1,3}", values[0]) else -1
        await _bot(interaction).flows.remove_pick(interaction, self.table_id, self.version, picked)


@names("table")
class CardTextButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:text:" + TABLE + r":(?P<path>[0-9.]{0,40})",
):
    """The whole text of every card the act panel's current choices name."""

    def __init__(self, table_id: str, version: int, path: list[int]) -> None:
        super().__init__(
            discord.ui.Button(
                label="Card text",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gt:v1:text:{table_id}:{version}:{format_path(path)}",
            )
        )
        self.table_id, self.version, self.path = table_id, version, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardTextButton:
        return cls(match["table"], int(match["ver"]), parse_path(match["path"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).flows.card_text(interaction, self.table_id, self.version, self.path)
