"""A picture built top to bottom: headings, icon lines, chips and pasted parts.

Game renderers describe what to show; the sheet keeps the cursor, the margins
and the type sizes, so every game's picture has the same look and rhythm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.render.pictures.base import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PAD,
    WHOLE,
    WIDTH,
    Colour,
    canvas,
    clip,
    fit_text,
    font,
    wrap,
)
from bot.render.pictures.icons import icon

START_HEIGHT = 1200
TEXT_SIZE, HEADING_SIZE, TITLE_SIZE = 17, 18, 22
WITH_HEADING = 40  # px below a heading (or a seat's row) kept on its page
Mark = tuple[str, Colour]  # an icon name and its colour


@dataclass(frozen=True)
class Chip:
    """A small rounded label: a card on the table, a banked set, a token."""

    text: str
    colour: Colour
    icon: str = ""
    ink: Colour = INK


class Sheet:
    def __init__(self, width: int = WIDTH) -> None:
        self.width = width
        self.image, self.draw = canvas(START_HEIGHT, width)
        self.y = PAD
        self.whole: list[tuple[int, int]] = []  # spans a split into pages must not cut (a board)

    def title(self, text: str, icon_name: str = "", colour: Colour = INK, subtitle: str = "") -> None:
        self.room(60)
        x = self._icon(icon_name, PAD, self.y, 28, colour, BACKGROUND)
        fit_text(
            self.draw, text, (x, self.y, self.width - PAD, self.y + 56), [TITLE_SIZE, 19, 17], INK, bold=True
        )
        lines = min(2, len(wrap(text, font(TITLE_SIZE, True), self.width - PAD - x)))
        self.y += max(32, lines * 26 + 4)
        if subtitle:
            self.line(subtitle, colour=MUTED)

    def heading(self, text: str, icon_name: str = "", colour: Colour = MUTED) -> None:
        self.room(32)
        # A page never ends on a heading: it stays with the start of what it heads.
        self.whole.append((self.y, self.y + 32 + WITH_HEADING))
        self.y += 6
        x = self._icon(icon_name, PAD, self.y + 1, 18, colour, BACKGROUND)
        face = font(HEADING_SIZE, bold=True)
        self.draw.text((x, self.y), clip(text.upper(), face, self.width - PAD - x), font=face, fill=colour)
        self.y += 26

    def line(
        self, text: str, icon_name: str = "", colour: Colour = INK, bold: bool = False, indent: int = 0
    ) -> None:
        """Wrapped text, with an icon in front."""
        left = PAD + indent
        x = self._icon(icon_name, left, self.y + 1, 18, colour, BACKGROUND)
        face = font(TEXT_SIZE, bold)
        rows = wrap(text, face, self.width - PAD - x)
        self.room(22 * len(rows))
        for row in rows:
            self.draw.text((x, self.y), row, font=face, fill=colour)
            self.y += 22

    def stats(self, items: Sequence[tuple[str, str]], colour: Colour = INK) -> None:
        """Icon-and-number pairs on one line: ``[("cards", "Deck 23"), ...]``."""
        x, face = PAD, font(TEXT_SIZE, bold=True)
        self.room(26 * len(items))
        for icon_name, text in items:
            width = 24 + face.getlength(text) + 16
            if x + width > self.width - PAD and x > PAD:
                x, self.y = PAD, self.y + 26
            x = self._icon(icon_name, x, self.y + 1, 18, colour, BACKGROUND)
            text = clip(text, face, self.width - PAD - x)
            self.draw.text((x, self.y), text, font=face, fill=colour)
            x += round(face.getlength(text)) + 16
        self.y += 26

    def seat(
        self, name: str, marks: Sequence[str | Mark], stats: Sequence[tuple[str, str]], active: bool
    ) -> None:
        """One player's row: name and mark icons on the left (muted, or in a mark's own colour),
        icon-and-number stats on the right. The seat the game waits for gets a bright bar and name."""
        self.room(28)
        top, face, bold = self.y, font(TEXT_SIZE), font(TEXT_SIZE, bold=True)
        self.whole.append((top - 2, top + 28 + WITH_HEADING))  # stays with the row below it, if any
        if active:
            self.draw.rounded_rectangle((PAD, top - 2, PAD + 4, top + 24), radius=2, fill=HIGHLIGHT)
        right = self.width - PAD
        for icon_name, text in reversed(stats):
            right -= round(face.getlength(text))
            self.draw.text((right, top + 1), text, font=face, fill=INK)
            right -= 24
            self._icon(icon_name, right, top + 3, 18, MUTED, BACKGROUND)
            right -= 12
        x = PAD + 12
        room = right - x - len(marks) * 24
        self.draw.text((x, top + 1), clip(name, bold, room), font=bold, fill=INK if active else MUTED)
        x += round(bold.getlength(clip(name, bold, room))) + 6
        for mark in marks:
            icon_name, colour = (mark, MUTED) if isinstance(mark, str) else mark
            x = self._icon(icon_name, x, top + 3, 18, colour, BACKGROUND)
        self.y += 28

    def chips(self, chips: Sequence[Chip], columns: int = 3, indent: int = 0) -> None:
        if not chips:
            return
        gap, height = 6, 30
        self.room(-(-len(chips) // columns) * (height + gap))
        width = (self.width - 2 * PAD - indent - (columns - 1) * gap) // columns
        face = font(15, bold=True)
        for index, chip in enumerate(chips):
            row, column = divmod(index, columns)
            x = PAD + indent + column * (width + gap)
            y = self.y + row * (height + gap)
            self.draw.rounded_rectangle((x, y, x + width, y + height), radius=8, fill=chip.colour)
            left = self._icon(chip.icon, x + 6, y + 6, 18, chip.ink, chip.colour)
            text = clip(chip.text, face, x + width - 6 - left)
            self.draw.text((left, y + height / 2), text, font=face, fill=chip.ink, anchor="lm")
        rows = -(-len(chips) // columns)
        self.y += rows * (height + gap) + 2

    def paste(self, part: Image.Image, x: int | None = None, whole: bool = False) -> None:
        """``part`` below the cursor; ``whole``: never split across pages (a board, read
        as one), else it may be cut where a row of it is bare background (between cards)."""
        self.room(part.height)
        left = (self.width - part.width) // 2 if x is None else x
        self.image.paste(part, (left, self.y))
        if whole:
            self.whole.append((self.y, self.y + part.height))
        self.y += part.height

    def space(self, pixels: int = 8) -> None:
        self.y += pixels

    def room(self, height: int) -> None:
        """Make sure ``height`` px below the cursor exist: a big table grows the canvas, never crops."""
        needed = self.y + height + PAD
        if needed > self.image.height:
            bigger, self.draw = canvas(max(needed, 2 * self.image.height), self.width)
            bigger.paste(self.image, (0, 0))
            self.image = bigger

    def finish(self) -> Image.Image:
        image = self.image.crop((0, 0, self.width, self.y + PAD))
        image.info[WHOLE] = list(self.whole)
        return image

    def _icon(self, name: str, x: int, y: int, size: int, ink: Colour, back: Colour) -> int:
        """Draw icon ``name`` at (x, y); returns where the text after it starts."""
        if not name:
            return x
        icon(self.draw, name, (x, y, x + size, y + size), ink, back)
        return x + size + 6
