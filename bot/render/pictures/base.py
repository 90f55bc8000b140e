"""What every picture renderer shares: the interface, the fonts, text fitting, PNG encoding.

A picture renderer draws a game's :class:`~engines.core.View` — never raw state —
so a picture can show no more than the text panels do. Pictures are about 480 px
wide: Discord shows images about 400 px wide on a phone, so every font here is at
least 14 px and stays readable after that scaling.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

from PIL import Image, ImageChops, ImageDraw, ImageFont

from engines.core import View, render_seats

WIDTH = 480
PAD = 10
Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
BACKGROUND: Colour = (43, 45, 49)  # Discord's dark theme, so the picture sits in the message
PANEL: Colour = (56, 58, 64)
INK: Colour = (242, 243, 245)
MUTED: Colour = (181, 186, 193)
HIGHLIGHT: Colour = (88, 101, 242)
FONTS = Path(__file__).parent / "fonts"
# A phone shows a picture inline about 400 px wide and scrolls past a tall one as a
# thin strip: a taller picture goes as several pages, each at most PAGE_HEIGHT high,
# cut along rows of bare background (between lines, chips and cards), never through
# a span the renderer keeps whole (``Image.info[WHOLE]``, a board).
PAGE_HEIGHT, SHORTEST_PAGE, MOST_PAGES = 600, 200, 9  # 9 pages and the text: 10 embeds
WHOLE = "gametable-whole"
# Palette quantisation keeps a picture near 30-80 KB, far below Discord's per-file limit.
PALETTE_COLOURS = 96
ESCAPED = re.compile(r"\\(.)")
V = TypeVar("V", bound=View)


def view_as(view: View, kind: type[V]) -> V:
    """The game's own view; a renderer handed another game's view is a wiring bug."""
    assert isinstance(view, kind), (
        f"this picture renderer draws a {kind.__name__}, not a {type(view).__name__}"
    )
    return view


def hex_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@cache
def font(size: int, bold: bool = False) -> Font:
    """The bundled Source Sans Pro (SIL OFL, see fonts/OFL.txt); Pillow's own
    scalable default if the file is missing from an install."""
    path = FONTS / ("SourceSansPro-Bold.ttf" if bold else "SourceSansPro-Regular.ttf")
    try:
        # BASIC layout: Latin text needs no shaping, and it measures several times faster than raqm.
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        return ImageFont.load_default(size)


def seat_text(text: str, names: Sequence[str]) -> str:
    """Engine text with ``<seat:N>`` swapped for plain names (no markdown escapes in a picture)."""
    return render_seats(text, lambda seat: plain_name(names, seat))


def plain_name(names: Sequence[str], seat: int) -> str:
    return ESCAPED.sub(r"\1", names[seat]) if 0 <= seat < len(names) else f"Seat {seat + 1}"


def wrap(text: str, face: Font, width: float) -> list[str]:
    """Greedy word wrap by measured width; a word longer than the line is cut by characters."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if face.getlength(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while face.getlength(word) > width and len(word) > 1:
                cut = max(1, next(i for i in range(len(word), 0, -1) if face.getlength(word[:i]) <= width))
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def clip(text: str, face: Font, width: float) -> str:
    """One line cut with an ellipsis to fit ``width``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: Box,
    sizes: Sequence[int],
    fill: Colour,
    bold: bool = False,
    centre: bool = False,
) -> None:
    """Draw ``text`` wrapped inside ``box`` at the largest size that fits; at the
    smallest size the lines that do not fit are dropped and the last ends in "…"."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    for size in sizes:
        face = font(size, bold)
        lines = wrap(text, face, width)
        step = round(size * 1.18)
        if len(lines) * step <= height or size == sizes[-1]:
            break
    room = max(1, height // step)
    if len(lines) > room:
        lines = [*lines[: room - 1], clip(lines[room - 1] + " …", face, width)]
    for index, line in enumerate(lines):
        x = left + (width - face.getlength(line)) / 2 if centre else left
        draw.text((x, top + index * step), line, font=face, fill=fill)


def canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def to_png(image: Image.Image) -> bytes:
    """A small, deterministic PNG: a fixed palette quantisation without dithering,
    so the same picture always gives the same bytes."""
    small = image.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=3)  # twice as fast as the default, a fifth bigger
    return out.getvalue()


def pages(image: Image.Image, tallest: int = PAGE_HEIGHT) -> list[Image.Image]:
    """``image`` as few pages as may be, each at most ``tallest`` px, cut along rows
    of bare background (a part with none is cut at ``tallest``) as near to equal
    heights as those rows allow; at most MOST_PAGES, the last then taking the rest."""
    height = image.height
    if height <= tallest:
        return [image]
    plain = Image.new("RGB", image.size, BACKGROUND)
    ink = ImageChops.difference(image.convert("RGB"), plain).convert("L").tobytes()
    empty = bytes(image.width)
    bare = [ink[y * image.width : (y + 1) * image.width] == empty for y in range(height)]
    for top, bottom in image.info.get(WHOLE, []):
        bare[top + 1 : bottom] = [False] * (bottom - top - 1)
    cuts = [0]
    while height - cuts[-1] > tallest and len(cuts) < MOST_PAGES:
        top = cuts[-1]
        left = _pages_from(bare, top, tallest)
        target = top + (height - top) // left
        window = [y for y in range(top + SHORTEST_PAGE, top + tallest + 1) if bare[y]]
        # The cut nearest an equal share that still leaves the rest to as few pages.
        fitting = [y for y in window if _pages_from(bare, y, tallest) <= left - 1]
        cuts.append(min(fitting, key=lambda y: abs(y - target)) if fitting else _cut(bare, top, tallest))
    cuts.append(height)
    return [image.crop((0, a, image.width, b)) for a, b in pairwise(cuts)]


def _cut(bare: list[bool], top: int, tallest: int) -> int:
    """The lowest bare row a page from ``top`` may end on, else ``top + tallest``."""
    return next((y for y in range(top + tallest, top + SHORTEST_PAGE - 1, -1) if bare[y]), top + tallest)


def _pages_from(bare: list[bool], top: int, tallest: int) -> int:
    """How many pages the picture needs from row ``top`` on, each page as tall as may be."""
    count = 1
    while len(bare) - top > tallest:
        top, count = _cut(bare, top, tallest), count + 1
    return count
