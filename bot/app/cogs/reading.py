"""Reading commands: /rules (a game's rules by section, and its own rulings)
and /card (a card of your table's deck, picture and text, only for you)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.cogs.options import table_choices
from bot.app.ui.answer import suggestions
from bot.app.ui.embeds import fit, to_embed
from bot.app.ui.flows import actor, guarded, reply
from bot.render.cardtext import card_panel, card_picture, find_card
from bot.service.errors import TableError
from bot.service.policy import names
from engines.core import CardText, Engine, RulesSection, quote

if TYPE_CHECKING:
    from bot.app.hosting import TableHost

Interaction = discord.Interaction[Any]
DESCRIPTION = 4096
# Discord: 6000 characters across a message's embeds; leave room for titles and footers.
MESSAGE_TEXT = 5600


class ReadingCommands(commands.Cog):
    def __init__(self, bot: TableHost) -> None:
        self.bot = bot

    def _engine(self, game: str) -> Engine[Any, Any]:
        key = game.strip().lower()
        games = self.bot.service.games
        found = games.get(key) or next((e for e in games.values() if e.info.title.lower() == key), None)
        if found is None:
            raise TableError(f"There is no game called {quote(game)}. Try /games.")
        return found

    # ----- /rules -----

    @app_commands.command(name="rules")
    @app_commands.describe(game="The game", topic="A section: setup, a turn, scoring, variants or a ruling")
    @names("public")
    async def rules(self, interaction: Interaction, game: str, topic: str | None = None) -> None:
        """A game's rules in sections, and the rulings this bot follows (only you see them)."""

        async def rules() -> None:
            engine = self._engine(game)
            sections = engine.rules_sections()
            if not topic:
                await reply(interaction, embed=_overview(engine, sections))
                return
            wanted = topic.strip().lower()
            section = next((s for s in sections if wanted in (s.key, s.title.lower())), None)
            if section is None:
                names = ", ".join(s.key for s in sections if not s.decision)
                raise TableError(f"{engine.info.title} has no rules section {quote(topic)}. Try: {names}.")
            for embeds in _section_messages(engine, section):
                await reply(interaction, embeds=embeds)

        await guarded(interaction, rules())

    @rules.autocomplete("game")
    async def _games(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=fit(e.info.title, 100), value=key)
            for key, e in self.bot.service.games.items()
            if current.lower() in f"{key} {e.info.title.lower()}"
        ][:25]

    @rules.autocomplete("topic")
    async def _topics(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            engine = self._engine(getattr(interaction.namespace, "game", "") or "")
        except TableError:
            return []
        return [
            app_commands.Choice(name=fit(_topic_name(s), 100), value=s.key)
            for s in engine.rules_sections()
            if current.lower() in _topic_name(s).lower()
        ][:25]

    # ----- /card -----

    @app_commands.command(name="card")
    @app_commands.describe(
        name="The card (start typing: your table's own deck)",
        table="Which table (leave empty for your table here)",
    )
    @names("table")
    async def card(self, interaction: Interaction, name: str, table: str | None = None) -> None:
        """Show a card of your table's deck, its picture and text (only you see it)."""

        async def card() -> None:
            record = await self.bot.service.find(actor(interaction), interaction.channel_id, table)
            engine = self.bot.service.engine(record.game)
            cards = engine.cards(engine.parse_options(record.options))
            if not cards:
                raise TableError(f"{engine.info.title} has no cards to show.")
            found = find_card(cards, name)
            if found is None:
                raise TableError(f"There is no card {quote(name)} in this deck: pick one from the list.")
            deck = "custom deck" if record.options.get("deck") else "built-in deck"
            panel = card_panel(found, f"Table {record.id}'s {deck}")
            embed = to_embed(panel, str, discord.Colour.dark_teal())
            picture = await asyncio.to_thread(card_picture, record.game, found)  # drawing is CPU work
            if picture is None:
                await reply(interaction, embed=embed)
                return
            embed.set_image(url="attachment://card.png")
            await reply(interaction, embed=embed, file=discord.File(io.BytesIO(picture), "card.png"))

        await guarded(interaction, card(), table)

    @card.autocomplete("name")
    async def _card_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggestions(self._cards_named(interaction, current))

    async def _cards_named(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        record = await service.find(
            actor(interaction), interaction.channel_id, getattr(interaction.namespace, "table", None)
        )
        engine = service.engine(record.game)
        cards = engine.cards(engine.parse_options(record.options))
        typed = current.lower()
        return [
            app_commands.Choice(name=fit(_card_name(c), 100), value=c.key[:100])
            for c in cards
            if typed in _card_name(c).lower()
        ][:25]

    @card.autocomplete("table")
    async def _tables(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await table_choices(self.bot.service, interaction, current)


def _card_name(card: CardText) -> str:
    return f"{card.name} — {card.kind}"


def _topic_name(section: RulesSection) -> str:
    return f"Ruling: {section.title}" if section.decision else section.title


def _overview(engine: Engine[Any, Any], sections: list[RulesSection]) -> discord.Embed:
    info = engine.info
    embed = discord.Embed(title=fit(f"{info.title} — rules", 256), colour=discord.Colour.blurple())
    embed.description = fit(f"{info.summary}\n{info.min_players}–{info.max_players} players.", DESCRIPTION)
    for section in [s for s in sections if not s.decision][:20]:
        more = f"\n… `/rules game:{info.key} topic:{section.key}`"
        text = section.text if len(section.text) <= 1024 else fit(section.text, 1024 - len(more)) + more
        embed.add_field(name=fit(section.title, 256), value=text, inline=False)
    rulings = [s for s in sections if s.decision]
    if rulings:
        listed = "\n".join(f"• {s.title} — `topic:{s.key}`" for s in rulings)
        embed.add_field(
            name="This table's rulings (where the rulebook is silent)", value=fit(listed, 1024), inline=False
        )
    while len(embed) > 6000 and embed.fields:
        embed.remove_field(0)
    return embed


def _section_messages(engine: Engine[Any, Any], section: RulesSection) -> list[list[discord.Embed]]:
    """The section as embeds of at most 4096 characters, grouped into messages
    within Discord's 6000 characters per message."""
    title = f"{engine.info.title} — {_topic_name(section)}"
    pages = _pages(section.text, DESCRIPTION)
    messages: list[list[discord.Embed]] = [[]]
    used = 0
    for number, page in enumerate(pages, start=1):
        heading = title if len(pages) == 1 else f"{title} ({number}/{len(pages)})"
        embed = discord.Embed(title=fit(heading, 256), description=page, colour=discord.Colour.blurple())
        if messages[-1] and used + len(embed) > MESSAGE_TEXT:
            messages.append([])
            used = 0
        messages[-1].append(embed)
        used += len(embed)
    return messages


def _pages(text: str, limit: int) -> list[str]:
    """Pages of at most ``limit`` characters, cut between lines (a line longer
    than a page is cut inside it)."""
    pages: list[str] = []
    current = ""
    for line in text.splitlines():
        for piece in [line[i : i + limit] for i in range(0, len(line), limit)] or [""]:
            if current and len(current) + 1 + len(piece) > limit:
                pages.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        pages.append(current)
    return pages or ["—"]
