"""Once Upon a Time… Life as pictures: the board — the body systems' loop of
spaces, each START, the four additional spaces — with every pawn as a disc of
its colour numbered by seat, each player's tokens, lost turns and kept-card count, the last roll; and a
seat's own tokens and secret Master and Virus cards.

Drawn from :class:`~engines.once_upon_a_time_life.views.LifeView` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.pictures.base import (
    INK,
    MUTED,
    PAD,
    PANEL,
    WIDTH,
    Colour,
    canvas,
    fit_text,
    font,
    hex_colour,
    plain_name,
    seat_text,
    view_as,
)
from bot.render.pictures.cards import CardArt, card_grid
from bot.render.pictures.icons import icon
from bot.render.pictures.sheet import Chip, Sheet
from engines.core import CardText, View
from engines.once_upon_a_time_life.tokens import KINDS, NAMES, Tokens
from engines.once_upon_a_time_life.views import CardFace, LifeView, SeatInfo

# A space's type: its colour, icon and name in the legend.
SPACES: dict[str, tuple[Colour, str, str]] = {
    "question": ((168, 85, 247), "eye", "Question"),
    "chance": ((34, 197, 94), "sparkle", "Chance"),
    "bad_luck": ((239, 68, 68), "cloud", "Bad Luck"),
    "virus": ((190, 24, 93), "thorn", "Virus"),
    "bacteria": ((202, 138, 4), "flame", "Bacteria"),
    "leukocyte": ((226, 232, 240), "shield", "Leukocyte"),
    "medicine": ((56, 189, 248), "bolt", "Medicine"),
}
SYSTEMS: list[Colour] = [(220, 38, 38), (59, 130, 246), (22, 163, 74), (234, 179, 8)]
PAWNS: list[Colour] = [(249, 115, 22), (14, 165, 233), (217, 70, 239), (132, 204, 22)]
TOKEN_ICONS = {"hemo": "drop", "globin": "token", "leukocyte": "shield", "medicine": "bolt"}
DARK: Colour = (30, 27, 24)
SIDE = 11  # spaces along each side of the square loop (corners shared)
GO_SIZE = 17


def _ring(count: int) -> list[tuple[int, int]]:
    """Grid cells (column, row) of a square loop of ``count`` spaces, clockwise from the top left."""
    side = max(2, -(-count // 4) + 1)
    path = [(c, 0) for c in range(side - 1)] + [(side - 1, r) for r in range(side - 1)]
    path += [(side - 1 - c, side - 1) for c in range(side - 1)] + [(0, side - 1 - r) for r in range(side - 1)]
    return path[:count]


def pawn_colour(v: LifeView, seat: int) -> Colour:
    """The colour of the pawn a seat chose (before it chooses, a colour by seat)."""
    pawn = v.seats[seat].pawn
    if pawn is None:
        return PAWNS[seat % len(PAWNS)]
    value = int(pawn.colour.removeprefix("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


def _disc(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, seat: int, fill: Colour) -> None:
    # The seat number stays readable on a dark pawn (black, brown, purple).
    light = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 110
    draw.ellipse((x, y, x + size, y + size), fill=fill, outline=DARK if light else INK, width=1)
    number = DARK if light else INK
    draw.text((x + size / 2, y + size / 2 + 1), str(seat + 1), font=font(15, True), fill=number, anchor="mm")


def _pawns(
    draw: ImageDraw.ImageDraw, v: LifeView, seats: Sequence[int], box: tuple[float, float, float, float]
) -> None:
    """Numbered discs, each in its pawn's colour, side by side along the bottom of
    ``box``, overlapping when crowded."""
    left, _, right, bottom = box
    size = 20
    step = size + 2 if len(seats) < 2 else min(size + 2, (right - left - size) / (len(seats) - 1))
    for index, seat in enumerate(seats):
        _disc(draw, left + index * step, bottom - size, size, seat, pawn_colour(v, seat))


def board(v: LifeView) -> Image.Image:
    spaces = [(i, kind) for i, system in enumerate(v.systems) for kind in system.spaces]
    cells = _ring(len(spaces))
    side = max(c for c, _ in cells) + 1
    cell = (WIDTH - 2 * PAD) // side
    image, draw = canvas(cell * side + 2)
    on: dict[int, list[int]] = {}
    for info in v.seats:
        if info.position is not None:
            on.setdefault(info.position, []).append(info.seat)
    for index, ((system, kind), (column, row)) in enumerate(zip(spaces, cells, strict=True)):
        x, y = PAD + column * cell, 1 + row * cell
        tint = SYSTEMS[system % len(SYSTEMS)]
        box = (x + 1, y + 1, x + cell - 1, y + cell - 1)
        if kind == "start":
            draw.rounded_rectangle(box, radius=4, fill=tint)
            draw.text((x + cell / 2, y + 12), "GO", font=font(GO_SIZE, True), fill=DARK, anchor="mm")
        else:
            draw.rounded_rectangle(box, radius=4, fill=PANEL, outline=tint, width=2)
            colour, icon_name, _ = SPACES.get(kind, ((120, 120, 120), "star", kind))
            # As big as the space allows (a phone shows the board at about 5/6 size);
            # a pawn's disc may cover its lower edge.
            middle, half = x + cell // 2, (cell - 14) // 2
            icon(draw, icon_name, (middle - half, y + 4, middle + half, y + 4 + 2 * half), colour, PANEL)
        _pawns(draw, v, on.get(index, []), (x + 2, y, x + cell - 2, y + cell - 2))
    _places(draw, v, (PAD + cell + 8, cell + 8, PAD + (side - 1) * cell - 8, (side - 1) * cell - 6))
    return image


def _places(draw: ImageDraw.ImageDraw, v: LifeView, box: tuple[int, int, int, int]) -> None:
    """The additional spaces in the middle of the loop, with the pawns sent there, and the last roll."""
    left, top, right, bottom = box
    width, height = (right - left - 8) // 2, (bottom - top - 8) // 3
    for index, place in enumerate(v.places[:4]):
        row, column = divmod(index, 2)
        x, y = left + column * (width + 8), top + row * (height + 8)
        draw.rounded_rectangle((x, y, x + width, y + height), radius=8, fill=PANEL)
        fit_text(draw, place, (x + 8, y + 6, x + width - 8, y + 46), [17, 15], INK, bold=True)
        away = [s.seat for s in v.seats if s.away == place]
        _pawns(draw, v, away, (x + 8, y, x + width - 8, y + height - 8))
    y = top + 2 * (height + 8)
    roll = "—" if v.last_roll is None else str(v.last_roll)
    die = min(height, 56)
    draw.rounded_rectangle((left, y, left + die, y + die), radius=10, fill=INK)
    draw.text((left + die / 2, y + die / 2), roll, font=font(28, True), fill=DARK, anchor="mm")
    fit_text(draw, "Last roll", (left + die + 10, y + 6, right, y + height), [17, 15], MUTED, bold=True)
    fit_text(
        draw, f"First to {v.hemo_to_win} Hemo wins", (left + die + 10, y + 30, right, y + height), [15], MUTED
    )


def _pawn_words(v: LifeView, info: SeatInfo) -> str:
    """ " (Red, Circulatory)": the pawn a player chose, or that they are still choosing."""
    if info.pawn is not None:
        return f" ({info.pawn.name}, {info.pawn.system.replace(' system', '')})"
    return " (choosing a pawn)" if v.stage == "pawn" else ""


def _tokens(tokens: Tokens) -> list[tuple[str, str]]:
    return [(TOKEN_ICONS[k], str(tokens.of(k))) for k in KINDS]


def card_art(card: CardFace | CardText) -> CardArt:
    # A kept card (Master, Virus) is always a Chance card; Bad Luck is known by its deck.
    secret = bool(card.keep) if isinstance(card, CardFace) else "kept secretly" in card.kind
    bad = isinstance(card, CardText) and card.kind.startswith("Bad Luck")
    colour = SPACES["bad_luck" if bad else "virus" if card.name == "Virus" else "chance"][0]
    return CardArt(
        title=card.name,
        kind="Kept secretly" if secret else ("Bad Luck" if bad else "Chance"),
        text=card.text,
        colour=hex_colour(colour),
        icon="thorn" if card.name == "Virus" else "crown" if secret else "cloud" if bad else "sparkle",
    )


class LifePictures:
    def card(self, card: CardText) -> CardArt:
        return card_art(card)

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        v = view_as(view, LifeView)
        sheet = Sheet()
        sheet.title(seat_text(v.headline, names), "crown" if v.stage == "over" else "marker")
        sheet.paste(board(v), whole=True)
        sheet.space(4)
        sheet.chips(
            [Chip(name, colour, icon_name, DARK) for colour, icon_name, name in SPACES.values()]
            + [
                Chip(s.name.replace(" system", ""), SYSTEMS[i % len(SYSTEMS)], "star", DARK)
                for i, s in enumerate(v.systems)
            ],
            columns=3,
        )
        if v.threat is not None:
            foe = "Virus" if v.threat == "virus" else "Bacteria"
            who = "" if v.turn is None else f": {plain_name(names, v.turn)} gives a token to fend it off"
            sheet.line(f"{foe} attack{who}", SPACES[v.threat][1], colour=SPACES[v.threat][0])
        if v.challenge is not None:
            c = v.challenge
            by, target = plain_name(names, c.by), plain_name(names, c.target)
            line = (
                f"{by} challenges {target} to a duel"
                if c.kind == "duel"
                else f"{by} attacks {target} with a Virus"
            )
            if c.winner is not None:
                line += f" — {plain_name(names, c.winner)} wins"
            sheet.line(line, "thorn" if c.kind == "virus" else "crown", bold=True)
        if v.question is not None:
            sheet.heading(f"{v.question.level} question", "eye")
            sheet.line(v.question.text, bold=True)
            for letter, answer in zip("ABCD", v.question.answers, strict=False):
                sheet.line(f"{letter}. {answer}", indent=8, colour=MUTED)
        sheet.heading("Players", "hand")
        sheet.stats([*((TOKEN_ICONS[k], NAMES[k]) for k in KINDS), ("cards", "kept")], MUTED)
        for info in v.seats:
            marks: list[str | tuple[str, Colour]] = [("token", pawn_colour(v, info.seat))]
            if info.skips:
                marks.append(("hourglass", SPACES["bad_luck"][0]))
            name = f"{info.seat + 1}. {plain_name(names, info.seat)}{_pawn_words(v, info)}"
            name += f" (skips {info.skips})" if info.skips else ""
            stats = [*_tokens(info.tokens), ("cards", str(info.cards))]
            sheet.seat(name, marks, stats, active=info.seat == v.turn)
        return sheet.finish()

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        v = view_as(view, LifeView)
        if v.viewer is None or v.hand is None:
            return None
        me = v.seats[v.viewer].tokens
        sheet = Sheet()
        sheet.title("My tokens", "token")
        sheet.stats([(TOKEN_ICONS[k], f"{NAMES[k]} {me.of(k)}") for k in KINDS])
        sheet.heading(f"My kept cards: {len(v.hand)}", "cards")
        if v.hand:
            sheet.paste(card_grid([card_art(c) for c in v.hand]))
        else:
            sheet.line("None yet: a Master or a Virus from Chance is kept here, secretly.", colour=MUTED)
        return sheet.finish()


PICTURES = LifePictures()
