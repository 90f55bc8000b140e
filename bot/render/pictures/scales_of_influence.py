"""Scales of Influence as pictures: the day tracker, the Scale with both sides,
the Reading with its markers, the players and supplies; a seat's hand as cards.

Drawn from :class:`~engines.scales_of_influence.views.SoiView` only, so
alignments, hands, drawn tokens and bags stay hidden until the view shows them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.pictures.base import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PAD,
    PANEL,
    WIDTH,
    Colour,
    clip,
    font,
    hex_colour,
    plain_name,
    seat_text,
    view_as,
)
from bot.render.pictures.cards import CARD_RATIO, CardArt, card_grid, draw_card
from bot.render.pictures.icons import icon
from bot.render.pictures.sheet import Chip, Mark, Sheet
from engines.core import CardText, View
from engines.scales_of_influence.views import CardView, PlacementView, SoiView
from engines.words import plural

ELEMENTS: dict[str, tuple[Colour, str, str]] = {
    "spirit": ((167, 139, 250), "star", "Shooting Star"),
    "fire": ((239, 68, 68), "flame", "Fire"),
    "water": ((59, 130, 246), "drop", "Water"),
    "air": ((125, 211, 252), "wind", "Air"),
    "earth": ((161, 110, 40), "mountain", "Earth"),
}
SHADOW: Colour = (124, 58, 237)
LIGHT: Colour = (250, 204, 21)
HARMONY: Colour = (45, 212, 191)
SIDES = {
    "shadow": ("Shadow", SHADOW, "moon"),
    "light": ("Light", LIGHT, "sun"),
    "harmony": ("Harmony", HARMONY, "yin_yang"),
}
PHASES = (
    ("sun", "Sun", "sun"),
    ("moon", "Moon", "moon"),
    ("reading", "Reading", "eye"),
    ("weighing", "Weighing", "scale"),
)
SLOT_CARD = 148


def card_art(card: CardView) -> CardArt:
    colour, icon_name, element = ELEMENTS.get(card.element, ELEMENTS["spirit"])
    kind = element if card.star else f"{element} · Hand card"
    return CardArt(
        title=card.name,
        kind=kind,
        text=card.ability,
        cost=str(card.rank),
        colour=hex_colour(colour),
        icon=icon_name,
    )


def _day_tracker(sheet: Sheet, phase: str) -> None:
    """The day's four phases as stations on a line; the current one lit."""
    sheet.room(70)
    draw, top, step = sheet.draw, sheet.y, (sheet.width - 2 * PAD) // len(PHASES)
    centres = [PAD + step * i + step // 2 for i in range(len(PHASES))]
    draw.line((centres[0], top + 20, centres[-1], top + 20), fill=PANEL, width=4)
    face = font(15, bold=True)
    for (key, label, icon_name), x in zip(PHASES, centres, strict=True):
        lit = key == phase
        draw.ellipse((x - 20, top, x + 20, top + 40), fill=HIGHLIGHT if lit else PANEL)
        icon(
            draw,
            icon_name,
            (x - 12, top + 8, x + 12, top + 32),
            INK if lit else MUTED,
            HIGHLIGHT if lit else PANEL,
        )
        draw.text((x, top + 46), label, font=face, fill=INK if lit else MUTED, anchor="ma")
    sheet.space(70)


def _scale(sheet: Sheet, shadow: int, light: int) -> None:
    """A balance: the heavier side hangs lower; each pan shows its Energy, its side named below."""
    sheet.room(164)
    draw, top, width = sheet.draw, sheet.y, sheet.width
    pivot = (width / 2, top + 40)
    tilt = math.radians(max(-10.0, min(10.0, (shadow - light) * 2.0)))
    arm = width / 2 - 80
    ends = [
        (pivot[0] - arm * math.cos(tilt), pivot[1] + arm * math.sin(tilt)),
        (pivot[0] + arm * math.cos(tilt), pivot[1] - arm * math.sin(tilt)),
    ]
    draw.polygon([pivot, (pivot[0] - 26, top + 150), (pivot[0] + 26, top + 150)], fill=PANEL)
    draw.line([ends[0], ends[1]], fill=MUTED, width=6)
    draw.ellipse((pivot[0] - 8, pivot[1] - 8, pivot[0] + 8, pivot[1] + 8), fill=INK)
    big, small = font(30, bold=True), font(16, bold=True)
    for (x, y), (name, colour, icon_name), amount in zip(
        ends, (SIDES["shadow"], SIDES["light"]), (shadow, light), strict=True
    ):
        pan = y + 36
        draw.line([(x, y), (x - 46, pan)], fill=MUTED, width=2)
        draw.line([(x, y), (x + 46, pan)], fill=MUTED, width=2)
        draw.chord((x - 60, pan - 36, x + 60, pan + 36), 0, 180, fill=colour)
        ink = (30, 27, 24) if colour == LIGHT else (255, 255, 255)
        draw.text((x, pan + 15), str(amount), font=big, fill=ink, anchor="mm")
        label = round(small.getlength(name)) + 24
        left = round(x - label / 2)
        icon(draw, icon_name, (left, round(pan) + 42, left + 18, round(pan) + 60), colour, BACKGROUND)
        draw.text((left + 24, pan + 51), name, font=small, fill=colour, anchor="lm")
    sheet.space(164)


def _reading(sheet: Sheet, reading: Sequence[PlacementView], names: Sequence[str]) -> None:
    """Past, Present and Future side by side: the top card and whose marker sits on it."""
    gap = (sheet.width - 2 * PAD - len(reading) * SLOT_CARD) // max(1, len(reading) - 1)
    height = round(SLOT_CARD * CARD_RATIO)
    sheet.room(22 + height + 52)
    top = sheet.y
    draw, label, face = sheet.draw, font(16, bold=True), font(15)
    for index, placement in enumerate(reading):
        x = PAD + index * (SLOT_CARD + gap)
        draw.text((x + SLOT_CARD / 2, top), placement.slot.upper(), font=label, fill=MUTED, anchor="ma")
        if placement.cards:
            sheet.image.paste(draw_card(card_art(placement.cards[-1]), SLOT_CARD), (x, top + 22))
        else:
            _empty_slot(draw, (x, top + 22, x + SLOT_CARD, top + 22 + height))
        holder = plain_name(names, placement.holder) if placement.holder is not None else "on the board"
        y = top + 28 + height
        icon(
            draw,
            "marker",
            (x, y, x + 18, y + 18),
            HIGHLIGHT if placement.holder is not None else MUTED,
            BACKGROUND,
        )
        draw.text((x + 22, y), clip(holder, face, SLOT_CARD - 22), font=face, fill=INK)
        if len(placement.cards) > 1:
            under = f"over {plural(len(placement.cards) - 1, 'card')}"
            draw.text((x + 22, y + 20), under, font=face, fill=MUTED)
    sheet.whole.append((top, top + 22 + height + 52))  # a card and its marker, on one page
    sheet.space(22 + height + 52)


def _empty_slot(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    draw.rounded_rectangle(box, radius=10, outline=PANEL, width=3)
    left, top, right, bottom = box
    draw.text(((left + right) / 2, (top + bottom) / 2), "free", font=font(17), fill=MUTED, anchor="mm")


def _tokens(tokens: Sequence[int]) -> list[Chip]:
    return [
        Chip(f"{t:+d}", LIGHT if t > 0 else SHADOW, "token", (30, 27, 24) if t > 0 else INK) for t in tokens
    ]


class ScalesOfInfluencePictures:
    def card(self, card: CardText) -> CardArt:
        element = card.facts.get("element", "spirit")
        rank = int(card.facts.get("rank", "0") or 0)
        face = CardView(
            id=0,
            name=card.name,
            element=element,
            rank=rank,
            short="",
            ability=card.text,
            star=element == "spirit",
        )
        return card_art(face)

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        v = view_as(view, SoiView)
        sheet = Sheet(WIDTH)
        final = " · final day" if v.final_day else ""
        sheet.title(f"Scales of Influence — Day {v.day}{final}", "scale")
        if v.awaiting is not None and v.awaiting_text:
            sheet.line(f"{plain_name(names, v.awaiting)}: {seat_text(v.awaiting_text, names)}", "hourglass")
        elif v.ending:
            sheet.line(seat_text(v.ending, names), "crown")
        _day_tracker(sheet, v.phase)
        _scale(sheet, v.scale.get("shadow", 0), v.scale.get("light", 0))
        sheet.heading("The Reading", "eye")
        _reading(sheet, v.reading, names)
        self._events(sheet, v, names)
        sheet.heading("Players", "hand")
        shaman = plain_name(names, v.shaman) if v.shaman is not None else "none yet"
        used = " (used today)" if v.shaman is not None and v.shaman_used else ""
        sheet.line(f"Traveler {plain_name(names, v.traveler)} · Shaman {shaman}{used}", "compass", MUTED)
        for seat in range(v.players):
            marks: list[str | Mark] = [
                m for on, m in ((seat == v.traveler, "compass"), (seat == v.shaman, "feather")) if on
            ]
            if v.alignments is not None and seat < len(v.alignments):
                _, colour, icon_name = SIDES.get(v.alignments[seat], SIDES["harmony"])
                marks.append((icon_name, colour))
            stats = [("bolt", str(v.energy[seat])), ("hand", str(v.hand_sizes[seat]))]
            sheet.seat(plain_name(names, seat), marks, stats, active=seat == v.awaiting)
        if v.alignments is not None:
            legend = [(SIDES[side][2], f"{SIDES[side][0]}") for side in ("shadow", "light", "harmony")]
            sheet.stats(legend if v.harmony_in_game else legend[:2], colour=MUTED)
        sheet.heading("Supplies", "token")
        sheet.stats(
            [
                ("bolt", f"Energy {v.source_energy}"),
                ("token", f"Influence {v.source_tokens}"),
                ("cards", f"Deck {v.deck_size}"),
                ("discard", f"Discard {v.discard_size}"),
            ]
        )
        return sheet.finish()

    def _events(self, sheet: Sheet, v: SoiView, names: Sequence[str]) -> None:
        for event in v.cosmic:
            sheet.line("Cosmic Event — the table is paused", "star", bold=True)
            for index, (star, owner) in enumerate(zip(event.stars, event.owners, strict=True)):
                blocked = " (blocked by the Shaman)" if index in event.blocked else ""
                sheet.line(f"{star.name}, by {plain_name(names, owner)}{blocked}: {star.ability}", indent=12)
            waiting = ", ".join(plain_name(names, s) for s in event.responders)
            if waiting:
                sheet.line(f"Still to answer: {waiting}", "hourglass", MUTED, indent=12)
        if v.prevention is not None:
            waiting = ", ".join(plain_name(names, s) for s in v.prevention) or "nobody"
            sheet.line(f"Prevent the end — still to choose: {waiting}", "shield")
        if v.revealed_bags is not None:
            for side in ("shadow", "light"):
                name, colour, icon_name = SIDES[side]
                bag = v.revealed_bags.get(side, [])
                sheet.line(f"{name} bag: {sum(bag):+d}", icon_name, colour=colour, bold=True)
                sheet.chips(_tokens(bag), columns=6, indent=12)
        if v.lingering:
            sheet.line("Kept for the next day: " + ", ".join(c.name for c in v.lingering), "hourglass")

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        v = view_as(view, SoiView)
        if v.hand is None or v.alignment is None or v.viewer is None:
            return None
        name, colour, icon_name = SIDES.get(v.alignment, SIDES["harmony"])
        cards = sorted(
            v.hand, key=lambda c: (list(ELEMENTS).index(c.element) if c.element in ELEMENTS else 9, c.rank)
        )
        sheet = Sheet(WIDTH)
        sheet.title(f"You are {name}", icon_name, colour=colour)
        stats = [("bolt", f"Energy {v.energy[v.viewer]}"), ("hand", plural(len(cards), "card"))]
        sheet.stats(stats)
        if v.drawn_tokens:
            sheet.line("Influence drawn:", "token", bold=True)
            sheet.chips(_tokens(v.drawn_tokens), columns=6, indent=12)
        grid = card_grid([card_art(c) for c in cards])
        sheet.paste(grid, 0)
        return sheet.finish()


PICTURES = ScalesOfInfluencePictures()
