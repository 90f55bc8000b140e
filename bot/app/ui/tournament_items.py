"""The tournament's public messages: the registration message (Join / Leave /
Check in and the live list) and the standings message, both edited in place.

Buttons are DynamicItems ``gt:v1:tour:<verb>:<tournament>:<version>``, so they
work after a restart and each message's ids are its own.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.app.ui.embeds import fit
from bot.service.policy import names
from bot.tournaments.describe import FORMATS, STATUS_MARKS, TIE_BREAKS, number, standings_title
from bot.tournaments.standings import standings
from engines.words import plural
from storage.tournaments import Format, Phase, Tournament


class _Desk(Protocol):
    async def registration_button(
        self, interaction: discord.Interaction[Any], verb: str, tournament_id: str
    ) -> None: ...


class _Host(Protocol):
    """What the registration buttons use of the bot: its tournament desk
    (:class:`bot.app.ui.tournament_desk.TournamentDesk`, which draws them)."""

    @property
    def desk(self) -> _Desk: ...


VERBS = {"join": "Join", "leave": "Leave", "checkin": "Check in"}
LIST_LIMIT = 1024
STANDINGS_SHOWN = 40


@names("tournament")
class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gt:v1:tour:(?P<verb>join|leave|checkin):(?P<tour>[a-z0-9]{1,16}):(?P<ver>\d{1,9})",
):
    def __init__(self, verb: str, tournament_id: str, version: int) -> None:
        style = discord.ButtonStyle.primary if verb == "join" else discord.ButtonStyle.secondary
        custom_id = f"gt:v1:tour:{verb}:{tournament_id}:{version}"
        super().__init__(discord.ui.Button(label=VERBS[verb], style=style, custom_id=custom_id))
        self.verb, self.tournament_id = verb, tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["verb"], match["tour"], int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: _Host = interaction.client  # type: ignore[assignment]
        await bot.desk.registration_button(interaction, self.verb, self.tournament_id)


def registration_message(tournament: Tournament, title: str, page: str | None = None) -> dict[str, Any]:
    """The tournament's message; ``page``: its web page's address, for a link
    (see :meth:`bot.app.ui.watch_links.WatchLinks.tournament`; None: no link)."""
    t = tournament
    embed = discord.Embed(title=fit(f"🏆 {t.name}", 256), colour=discord.Colour.gold())
    rounds = f", {plural(t.rounds_planned, 'round')}" if t.rounds_planned else ""
    advance = f", top {t.advance} of each table advance" if t.format is Format.ELIMINATION else ""
    embed.description = fit(
        f"{title} · {FORMATS[t.format]}{rounds}{advance} · tables of {t.table_size}"
        + (" · rated" if t.rated else "")
        + f"\nOrganised by <@{t.organiser_id}>. "
        + _phase_line(t),
        4096,
    )
    names = [
        f"<@{e.user_id}>" + STATUS_MARKS[e.status] + (" ✅" if t.check_in and e.checked_in else "")
        for e in t.entrants
    ]
    cap = f"/{t.cap}" if t.cap else ""
    embed.add_field(name=f"Players ({len(t.entrants)}{cap})", value=_listing(names), inline=False)
    embed.set_footer(text=f"Tournament {t.id}")  # the id a command names; its version is no player's business
    view: discord.ui.View | None = None
    if t.phase is Phase.REGISTRATION:
        view = discord.ui.View(timeout=None)
        for verb in ["join", "leave", "checkin"] if t.check_in else ["join", "leave"]:
            view.add_item(TournamentButton(verb, t.id, t.version))
    if page is not None:
        view = view or discord.ui.View(timeout=None)
        # At most 3 buttons before it: one row holds them all.
        view.add_item(discord.ui.Button(label="Standings", style=discord.ButtonStyle.link, url=page))
    return {"embed": embed, "view": view, "allowed_mentions": discord.AllowedMentions.none()}


def _phase_line(t: Tournament) -> str:
    if t.phase is Phase.REGISTRATION:
        check = " Check in before the start." if t.check_in else ""
        return "Registration is open: press **Join**." + check
    if t.phase is Phase.RUNNING:
        return f"Round {len(t.rounds)} is under way."
    return "The tournament is over." if t.phase is Phase.FINISHED else "The tournament was cancelled."


def _listing(lines: list[str]) -> str:
    shown: list[str] = []
    for index, line in enumerate(lines):
        rest = f"\n… and {len(lines) - index} more"
        if len("\n".join([*shown, line])) + len(rest) > LIST_LIMIT:
            shown.append(rest.strip())
            break
        shown.append(line)
    return "\n".join(shown) or "No one yet."


def standings_message(tournament: Tournament) -> dict[str, Any]:
    t = tournament
    lines = standings(t)
    embed = discord.Embed(title=fit(f"🏆 {t.name} — {standings_title(t)}", 256), colour=discord.Colour.gold())
    rows = [
        f"**{line.place}.** <@{line.user_id}>{STATUS_MARKS[line.status]} — {plural(line.points, 'point')}"
        f" · opp {number(line.opponents)} · score {number(line.game_score)}"
        for line in lines[:STANDINGS_SHOWN]
    ]
    if len(lines) > STANDINGS_SHOWN:
        rows.append(f"… and {len(lines) - STANDINGS_SHOWN} more (use /tournament export)")
    embed.description = fit("\n".join(rows) or "No results yet.", 4096)
    embed.set_footer(text=f"Tournament {t.id} · tie-breaks: {TIE_BREAKS}")
    return {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}
