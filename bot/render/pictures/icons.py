"""Icons drawn with ImageDraw primitives: no emoji font, no image files.

Each icon is drawn inside a square box in one colour; ``back`` is the colour
behind it (a crescent or a lock's hole is cut out with it). Shapes are defined
on a unit square and scaled, so an icon stays sharp at any size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from bot.render.pictures.base import Box, Colour

Point = tuple[float, float]
IconDrawer = Callable[[ImageDraw.ImageDraw, Box, Colour, Colour], None]


def _at(box: Box, points: Sequence[Point]) -> list[Point]:
    left, top, right, bottom = box
    return [(left + x * (right - left), top + y * (bottom - top)) for x, y in points]


def _part(box: Box, x0: float, y0: float, x1: float, y1: float) -> Box:
    (a, b), (c, d) = _at(box, [(x0, y0), (x1, y1)])
    return round(a), round(b), round(c), round(d)


def _star_points(spikes: int, inner: float, turn: float = -math.pi / 2) -> list[Point]:
    points = []
    for i in range(spikes * 2):
        radius = 0.5 if i % 2 == 0 else inner
        angle = turn + i * math.pi / spikes
        points.append((0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle)))
    return points


def _width(box: Box, share: float) -> int:
    return max(1, round((box[2] - box[0]) * share))


def sun(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    for i in range(8):
        angle = i * math.pi / 4
        draw.line(
            _at(
                box,
                [
                    (0.5 + 0.3 * math.cos(angle), 0.5 + 0.3 * math.sin(angle)),
                    (0.5 + 0.48 * math.cos(angle), 0.5 + 0.48 * math.sin(angle)),
                ],
            ),
            fill=ink,
            width=_width(box, 0.09),
        )
    draw.ellipse(_part(box, 0.26, 0.26, 0.74, 0.74), fill=ink)


def moon(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.08, 0.08, 0.92, 0.92), fill=ink)
    draw.ellipse(_part(box, 0.32, 0.0, 1.0, 0.7), fill=back)


def star(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(_at(box, _star_points(5, 0.2)), fill=ink)


def sparkle(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(_at(box, _star_points(4, 0.12)), fill=ink)


def thorn(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(_at(box, _star_points(7, 0.26, turn=math.pi / 2)), fill=ink)
    draw.ellipse(_part(box, 0.38, 0.38, 0.62, 0.62), fill=back)


def eye(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.04, 0.24, 0.96, 0.76), fill=ink)
    draw.ellipse(_part(box, 0.3, 0.3, 0.7, 0.7), fill=back)
    draw.ellipse(_part(box, 0.4, 0.4, 0.6, 0.6), fill=ink)


def shield(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(
        _at(box, [(0.12, 0.1), (0.5, 0.02), (0.88, 0.1), (0.84, 0.55), (0.5, 0.98), (0.16, 0.55)]), fill=ink
    )


def cloud(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    for part in ((0.05, 0.42, 0.45, 0.82), (0.25, 0.18, 0.7, 0.66), (0.52, 0.36, 0.95, 0.82)):
        draw.ellipse(_part(box, *part), fill=ink)
    draw.rectangle(_part(box, 0.25, 0.6, 0.75, 0.82), fill=ink)


def cards(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    """A deck: three stacked cards."""
    for shift in (0.0, 0.1, 0.2):
        draw.rounded_rectangle(
            _part(box, 0.12 + shift, 0.2 - shift / 2, 0.68 + shift, 0.9 - shift / 2),
            radius=_width(box, 0.08),
            fill=back,
            outline=ink,
            width=_width(box, 0.07),
        )


def hand(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    """A fan of three cards."""
    for turn in (-0.45, 0.0, 0.45):
        corners = [(-0.17, -0.42), (0.17, -0.42), (0.17, 0.18), (-0.17, 0.18)]
        rotated = [
            (0.5 + x * math.cos(turn) - y * math.sin(turn), 0.78 + x * math.sin(turn) + y * math.cos(turn))
            for x, y in corners
        ]
        draw.polygon(_at(box, rotated), fill=back, outline=ink, width=_width(box, 0.07))


def bank(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(_at(box, [(0.5, 0.04), (0.96, 0.3), (0.04, 0.3)]), fill=ink)
    for x in (0.14, 0.42, 0.7):
        draw.rectangle(_part(box, x, 0.36, x + 0.16, 0.8), fill=ink)
    draw.rectangle(_part(box, 0.04, 0.84, 0.96, 0.96), fill=ink)


def crown(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(
        _at(
            box, [(0.06, 0.22), (0.3, 0.5), (0.5, 0.14), (0.7, 0.5), (0.94, 0.22), (0.84, 0.82), (0.16, 0.82)]
        ),
        fill=ink,
    )


def hourglass(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(
        _at(box, [(0.18, 0.06), (0.82, 0.06), (0.54, 0.5), (0.82, 0.94), (0.18, 0.94), (0.46, 0.5)]), fill=ink
    )


def lock(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.arc(_part(box, 0.24, 0.06, 0.76, 0.62), 180, 360, fill=ink, width=_width(box, 0.1))
    draw.line(_at(box, [(0.29, 0.34), (0.29, 0.45)]), fill=ink, width=_width(box, 0.1))
    draw.line(_at(box, [(0.71, 0.34), (0.71, 0.45)]), fill=ink, width=_width(box, 0.1))
    draw.rounded_rectangle(_part(box, 0.14, 0.44, 0.86, 0.96), radius=_width(box, 0.08), fill=ink)


def bolt(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(
        _at(box, [(0.6, 0.02), (0.18, 0.56), (0.46, 0.56), (0.38, 0.98), (0.82, 0.42), (0.54, 0.42)]),
        fill=ink,
    )


def flame(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.18, 0.4, 0.82, 0.98), fill=ink)
    draw.polygon(_at(box, [(0.2, 0.66), (0.5, 0.02), (0.8, 0.66)]), fill=ink)
    draw.ellipse(_part(box, 0.36, 0.62, 0.64, 0.9), fill=back)


def drop(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.2, 0.36, 0.8, 0.96), fill=ink)
    draw.polygon(_at(box, [(0.22, 0.6), (0.5, 0.02), (0.78, 0.6)]), fill=ink)


def wind(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    thick = _width(box, 0.09)
    for y, end in ((0.28, 0.7), (0.5, 0.9), (0.72, 0.6)):
        draw.line(_at(box, [(0.06, y), (end, y)]), fill=ink, width=thick)
        draw.arc(_part(box, end - 0.1, y - 0.2, end + 0.1, y), 270, 90, fill=ink, width=thick)


def mountain(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.polygon(_at(box, [(0.02, 0.92), (0.38, 0.2), (0.58, 0.56), (0.7, 0.38), (0.98, 0.92)]), fill=ink)


def token(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.06, 0.06, 0.94, 0.94), fill=ink)
    draw.ellipse(_part(box, 0.26, 0.26, 0.74, 0.74), outline=back, width=_width(box, 0.08))


def scale(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    thick = _width(box, 0.08)
    draw.line(_at(box, [(0.5, 0.1), (0.5, 0.86)]), fill=ink, width=thick)
    draw.line(_at(box, [(0.1, 0.24), (0.9, 0.24)]), fill=ink, width=thick)
    draw.rectangle(_part(box, 0.3, 0.86, 0.7, 0.96), fill=ink)
    for x in (0.18, 0.82):
        draw.pieslice(_part(box, x - 0.16, 0.34, x + 0.16, 0.66), 0, 180, fill=ink)
        draw.line(_at(box, [(x, 0.24), (x - 0.14, 0.5)]), fill=ink, width=max(1, thick // 2))
        draw.line(_at(box, [(x, 0.24), (x + 0.14, 0.5)]), fill=ink, width=max(1, thick // 2))


def discard(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    cards(draw, box, ink, back)
    draw.line(_at(box, [(0.4, 0.3), (0.76, 0.72)]), fill=ink, width=_width(box, 0.08))
    draw.line(_at(box, [(0.76, 0.3), (0.4, 0.72)]), fill=ink, width=_width(box, 0.08))


def marker(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    """A pawn: the Reading's marker."""
    draw.ellipse(_part(box, 0.32, 0.04, 0.68, 0.4), fill=ink)
    draw.polygon(_at(box, [(0.38, 0.34), (0.62, 0.34), (0.8, 0.86), (0.2, 0.86)]), fill=ink)
    draw.rectangle(_part(box, 0.12, 0.84, 0.88, 0.96), fill=ink)


def yin_yang(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    draw.ellipse(_part(box, 0.04, 0.04, 0.96, 0.96), fill=back, outline=ink, width=_width(box, 0.06))
    draw.pieslice(_part(box, 0.04, 0.04, 0.96, 0.96), 90, 270, fill=ink)
    draw.ellipse(_part(box, 0.27, 0.04, 0.73, 0.5), fill=back)
    draw.ellipse(_part(box, 0.27, 0.5, 0.73, 0.96), fill=ink)


def compass(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    """The Traveler."""
    draw.ellipse(_part(box, 0.04, 0.04, 0.96, 0.96), outline=ink, width=_width(box, 0.09))
    draw.polygon(_at(box, [(0.5, 0.14), (0.62, 0.5), (0.5, 0.86), (0.38, 0.5)]), fill=ink)


def feather(draw: ImageDraw.ImageDraw, box: Box, ink: Colour, back: Colour) -> None:
    """The Shaman."""
    draw.polygon(_at(box, [(0.86, 0.04), (0.7, 0.5), (0.3, 0.86), (0.26, 0.6), (0.5, 0.24)]), fill=ink)
    draw.line(_at(box, [(0.8, 0.14), (0.1, 0.96)]), fill=ink, width=_width(box, 0.06))


ICONS: dict[str, IconDrawer] = {
    "compass": compass,
    "feather": feather,
    "sun": sun,
    "moon": moon,
    "star": star,
    "sparkle": sparkle,
    "thorn": thorn,
    "eye": eye,
    "shield": shield,
    "cloud": cloud,
    "cards": cards,
    "hand": hand,
    "bank": bank,
    "crown": crown,
    "hourglass": hourglass,
    "lock": lock,
    "bolt": bolt,
    "flame": flame,
    "drop": drop,
    "wind": wind,
    "mountain": mountain,
    "token": token,
    "scale": scale,
    "discard": discard,
    "marker": marker,
    "yin_yang": yin_yang,
}


def icon(draw: ImageDraw.ImageDraw, name: str, box: Box, ink: Colour, back: Colour) -> None:
    """Draw the icon ``name`` (a star for a name this module does not know)."""
    ICONS.get(name, star)(draw, box, ink, back)
