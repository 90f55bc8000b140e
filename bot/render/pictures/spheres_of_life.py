"""Spheres of Life as pictures: the table (phase, deck, table cards, each player's
hand size, banked sets and Heroes) and a seat's hand as cards.

Drawn from :class:`~engines.spheres_of_life.views.SolView` only: other hands are
sizes, the deck a count, exactly as in the text panel.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render.pictures.base import MUTED, Colour, hex_colour, plain_name, seat_text, view_as
from bot.render.pictures.cards import CardArt, card_grid
from bot.render.pictures.sheet import Chip, Sheet
from engines.core import CardText, View
from engines.spheres_of_life.views import CardFace, SolView
from engines.words import plural

# Suit colours: the two sides of the animals, and the two kinds of power cards.
GROUPS: dict[str, tuple[Colour, str, str]] = {
    "noble": ((232, 185, 72), "sparkle", "Noble animal"),
    "corrupted": ((142, 68, 173), "thorn", "Corrupted animal"),
    "ability": ((59, 130, 246), "eye", "Ability"),
    "hero": ((217, 83, 79), "shield", "Hero"),
}
GROUP_OF_KIND = {kind: group for group, (_, _, kind) in GROUPS.items()}
STAGE_ICONS = {
    "heroes": "shield",
    "rps": "hand",
    "day": "sun",
    "night": "moon",
    "dream": "cloud",
    "over": "crown",
}
BANKED: Colour = (74, 78, 88)
DARK_INK: Colour = (40, 36, 32)


def card_art(card: CardFace) -> CardArt:
    colour, icon_name, kind = GROUPS.get(card.group, GROUPS["ability"])
    return CardArt(
        title=card.name,
        kind=kind,
        text=card.text,
        colour=hex_colour(colour),
        icon=icon_name,
    )


def _chip(card: CardFace) -> Chip:
    colour, icon_name, _ = GROUPS.get(card.group, GROUPS["ability"])
    return Chip(card.name, colour, icon_name, DARK_INK if card.group == "noble" else (255, 255, 255))


class SpheresOfLifePictures:
    def card(self, card: CardText) -> CardArt:
        group = GROUP_OF_KIND.get(card.kind, card.facts.get("side", "ability"))
        return card_art(CardFace(uid=0, kind=card.key, name=card.name, group=group, text=card.text))

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        v = view_as(view, SolView)
        sheet = Sheet()
        sheet.title(seat_text(v.headline, names), STAGE_ICONS.get(v.stage, "star"), subtitle=v.variant)
        stats = [("cards", f"Deck {v.deck_size}"), ("discard", f"Discard {v.discard_size}")]
        if v.leader is not None:
            stats.append(("crown", f"Phase cards: {plain_name(names, v.leader)}"))
        sheet.stats(stats)
        if v.discard_top:
            sheet.line(f"Top of the discard: {v.discard_top[-1].name}", colour=MUTED)
        if v.table:
            sheet.heading(f"On the table ({len(v.table)})", "cards")
            sheet.chips([_chip(c) for c in v.table])
        for text, icon_name in [
            (v.pending, "bolt"),
            (v.exchange, "bolt"),
            *((s, "shield") for s in v.shields),
        ]:
            if text:
                sheet.line(seat_text(text, names), icon_name)
        if v.to_act:
            sheet.line("Still to act: " + ", ".join(plain_name(names, s) for s in v.to_act), "hourglass")
        sheet.heading("Players", "hand")
        for info in v.seats:
            self._seat(sheet, v, info.seat, names)
        return sheet.finish()

    def _seat(self, sheet: Sheet, v: SolView, seat: int, names: Sequence[str]) -> None:
        info = v.seats[seat]
        marks = [
            mark
            for on, mark in (
                (v.leader == seat, "crown"),
                (seat in v.waiting, "hourglass"),
                (info.locked, "lock"),
            )
            if on
        ]
        stats = [("hand", plural(info.hand_size, "card"))]
        if v.rounds > 1:
            stats.append(("star", plural(info.match_points, "point")))
        sheet.seat(plain_name(names, seat), marks, stats, active=seat == v.current or seat in v.waiting)
        chips = [Chip(name, BANKED, "bank") for name in info.banked]
        chips += [_chip(hero) for hero in info.heroes]
        chips += [Chip(f"{hero.name} (used)", BANKED, "shield", MUTED) for hero in info.heroes_used]
        sheet.chips(chips, indent=12)

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        v = view_as(view, SolView)
        if not v.hand:
            return None  # before the deal, or an emptied hand: the text says so
        score = f" · score now {v.score:+d}" if v.score is not None else ""
        cards = [card_art(c) for c in v.hand]
        me = v.seats[v.viewer] if v.viewer is not None and v.viewer < len(v.seats) else None
        if me is not None:
            cards += [card_art(h) for h in me.heroes]
        return card_grid(cards, title=f"My hand: {plural(len(v.hand), 'card')}{score}")


PICTURES = SpheresOfLifePictures()
