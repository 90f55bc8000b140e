"""Card faces drawn from card data alone: title, type, cost, text, suit colour and icon.

Nothing here knows a game: each game maps its card data to a :class:`CardArt`,
so a server's custom deck draws just like the built-in one. :func:`card_png` is
the one call for a single card's picture (``/card``); :func:`card_grid` lays a
hand out as rows of cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict, Field

from bot.render.pictures.base import (
    BACKGROUND,
    MUTED,
    PAD,
    WIDTH,
    Colour,
    canvas,
    clip,
    fit_text,
    font,
    to_png,
)
from bot.render.pictures.icons import icon

FACE: Colour = (246, 241, 230)  # parchment: dark ink on it reads in light and dark themes
TEXT_INK: Colour = (40, 36, 32)
TYPE_INK: Colour = (105, 96, 86)
CARD_WIDTH, CARD_RATIO = 148, 1.45
GAP = 8
BIG_CARD_WIDTH = 300


class CardArt(BaseModel):
    """Everything a card face shows. ``colour`` is the suit or alignment colour
    (``#rrggbb``); ``icon`` a name from :data:`~bot.render.pictures.icons.ICONS`;
    ``cost`` a short corner value (a rank, a price) or empty."""

    model_config = ConfigDict(frozen=True)

    title: str = Field(min_length=1)
    kind: str = ""
    text: str = ""
    cost: str = ""
    colour: str = Field(default="#5865f2", pattern=r"^#[0-9a-fA-F]{6}$")
    icon: str = "star"

    @property
    def rgb(self) -> Colour:
        value = int(self.colour[1:], 16)
        return (value >> 16) & 255, (value >> 8) & 255, value & 255


def draw_card(art: CardArt, width: int = CARD_WIDTH) -> Image.Image:
    """One card face, ``width`` px wide, 1.45 times as tall."""
    return _draw_card(art, width).copy()


@lru_cache(maxsize=512)
def _draw_card(art: CardArt, width: int) -> Image.Image:
    # Faces repeat across tables and versions (a hand changes one card at a time): cache them.
    height, unit = round(width * CARD_RATIO), width / CARD_WIDTH
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    band = _frame(draw, art.rgb, width, height, unit)
    _heading(draw, art, width, band, unit)
    top = band + round(8 * unit)
    if art.text:
        # A card with text keeps its icon small, beside the type line, to leave room for the words.
        top = _small_icon_line(draw, art, art.rgb, top, width, unit)
        inner = round(10 * unit)
        box = (inner, top + round(2 * unit), width - inner, height - round(8 * unit))
        fit_text(draw, art.text, box, _sizes(unit, 15, 14), TEXT_INK)
    else:
        _big_icon(draw, art, top, width, unit)
    return image


def _frame(draw: ImageDraw.ImageDraw, colour: Colour, width: int, height: int, unit: float) -> int:
    """The card's face and border, and the coloured band its title sits in; returns the band's bottom."""
    radius, border, band = round(10 * unit), max(2, round(4 * unit)), round(44 * unit)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, fill=FACE, outline=colour, width=border
    )
    draw.rounded_rectangle((0, 0, width - 1, band), radius=radius, fill=colour)
    draw.rectangle((0, band - radius, width - 1, band), fill=colour)
    return band


def _heading(draw: ImageDraw.ImageDraw, art: CardArt, width: int, band: int, unit: float) -> None:
    """The cost in a corner disc (when the card has one) and the title beside it."""
    corner, inset = (round(30 * unit) if art.cost else 0), round(8 * unit)
    if art.cost:
        draw.ellipse((inset - 2, inset - 2, inset + corner, inset + corner), fill=FACE)
        face = font(round(17 * unit), bold=True)
        middle = inset + corner / 2 - 1
        draw.text((middle, middle), clip(art.cost, face, corner), font=face, fill=TEXT_INK, anchor="mm")
    box = (inset + corner + (4 if corner else 0), round(4 * unit), width - inset, band - round(2 * unit))
    fit_text(
        draw, art.title, box, _sizes(unit, 17, 15, 14), _title_ink(art.rgb), bold=True, centre=not art.cost
    )


def _big_icon(draw: ImageDraw.ImageDraw, art: CardArt, top: int, width: int, unit: float) -> None:
    """A card without text (an animal): a large icon, its type below."""
    size, gap = round(52 * unit), round(6 * unit)
    icon(
        draw, art.icon, ((width - size) // 2, top + gap, (width + size) // 2, top + gap + size), art.rgb, FACE
    )
    if art.kind:
        face = font(round(14 * unit))
        kind = clip(art.kind, face, width - round(16 * unit))
        draw.text((width / 2, top + size + round(14 * unit)), kind, font=face, fill=TYPE_INK, anchor="ma")


def _small_icon_line(
    draw: ImageDraw.ImageDraw, art: CardArt, colour: Colour, top: int, width: int, unit: float
) -> int:
    size, face = round(20 * unit), font(round(14 * unit))
    kind = clip(art.kind, face, width - size - round(24 * unit))
    line = size + (round(4 * unit) + face.getlength(kind) if kind else 0)
    left = round((width - line) / 2)
    icon(draw, art.icon, (left, top, left + size, top + size), colour, FACE)
    if kind:
        draw.text(
            (left + size + round(4 * unit), top + size / 2), kind, font=face, fill=TYPE_INK, anchor="lm"
        )
    return top + size + round(4 * unit)


def _sizes(unit: float, *sizes: int) -> list[int]:
    return [max(8, round(size * unit)) for size in sizes]


def _title_ink(colour: Colour) -> Colour:
    # White on dark suits, near-black on light ones (perceived brightness).
    red, green, blue = colour
    return TEXT_INK if red * 0.299 + green * 0.587 + blue * 0.114 > 160 else (255, 255, 255)


def card_png(art: CardArt, width: int = BIG_CARD_WIDTH) -> bytes:
    """One card as PNG bytes, large enough to read every word: what ``/card`` shows."""
    return to_png(draw_card(art, width))


def card_grid(arts: Sequence[CardArt], columns: int = 3, title: str = "", width: int = WIDTH) -> Image.Image:
    """Cards in rows of ``columns``, optionally under a title line."""
    card_width = (width - 2 * PAD - (columns - 1) * GAP) // columns
    card_height = round(card_width * CARD_RATIO)
    rows = max(1, -(-len(arts) // columns))
    header = 30 if title else 0
    image, draw = canvas(PAD + header + rows * card_height + (rows - 1) * GAP + PAD, width)
    if title:
        draw.text((PAD, PAD), clip(title, font(18, True), width - 2 * PAD), font=font(18, True), fill=MUTED)
    for index, art in enumerate(arts):
        row, column = divmod(index, columns)
        x = PAD + column * (card_width + GAP)
        y = PAD + header + row * (card_height + GAP)
        image.paste(_draw_card(art, card_width), (x, y))
    if not arts:
        draw.text(
            (width / 2, PAD + header + card_height / 2), "No cards", font=font(18), fill=MUTED, anchor="mm"
        )
    return image
