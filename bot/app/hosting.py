"""What the cogs and ui use of the Discord application: its services, its
announcer, its flows, its tournament desk, its command tree. They depend on
this protocol, never on the application class, which imports them all."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands

from bot.app.announce import Announcer
from bot.app.ui.flows import Flows
from bot.app.ui.tournament_desk import TournamentDesk
from bot.ops.settings import Settings
from bot.service.tables import TableService


class TableHost(Protocol):
    """The running bot as its cogs and ui see it (``interaction.client``)."""

    @property
    def service(self) -> TableService: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def announcer(self) -> Announcer: ...

    @property
    def flows(self) -> Flows: ...

    @property
    def desk(self) -> TournamentDesk: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...


def host_of(interaction: discord.Interaction[Any]) -> TableHost:
    """The bot an interaction arrived at."""
    return interaction.client  # type: ignore[return-value]
