"""Time Masters as pictures: the spheres (top card and pile size), the cards in play
this turn, every player's Kè, cards and timers (how full, never what lies on them),
and a seat's hand as cards.

Drawn from :class:`~engines.time_masters.views.TmView` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render.pictures.base import MUTED, Colour, hex_colour, plain_name, seat_text, view_as
from bot.render.pictures.cards import CardArt, card_grid
from bot.render.pictures.sheet import Chip, Sheet
from engines.core import CardText, View
from engines.time_masters.views import CardFace, TmView
from engines.words import plural

KINDS: dict[str, tuple[Colour, str, str]] = {
    "spell": ((99, 102, 241), "star", "Spell"),
    "focus": ((16, 185, 129), "eye", "Focus"),
    "timer": ((245, 158, 11), "hourglass", "Timer"),
}
PHASE_ICONS = {"timer": "hourglass", "main": "star", "access": "cards", "over": "crown"}
EMPTY: Colour = (74, 78, 88)


def card_art(card: CardFace) -> CardArt:
    colour, icon_name, kind = KINDS.get(card.kind, KINDS["spell"])
    corner = {"spell": f"{card.cost}", "timer": f"{card.capacity}"}.get(card.kind, "")
    points = f" · {card.level} pt" if card.level else ""
    return CardArt(
        title=card.name,
        kind=f"{kind}{points}",
        text=card.text,
        cost=corner,
        colour=hex_colour(colour),
        icon=icon_name,
    )


def _chip(card: CardFace, prefix: str = "", suffix: str = "") -> Chip:
    colour, icon_name, _ = KINDS.get(card.kind, KINDS["spell"])
    return Chip(
        f"{prefix}{card.name}{suffix}",
        colour,
        icon_name,
        (30, 27, 24) if card.kind == "timer" else (255, 255, 255),
    )


class TimeMastersPictures:
    def card(self, card: CardText) -> CardArt:
        kind = card.kind.split(",")[0].strip().lower()  # "Spell, level 2, 3 Kè"
        number = {k: int(v) for k, v in card.facts.items() if v.isdigit()}
        face = CardFace(
            uid=0,
            name=card.name,
            kind=kind,
            level=number.get("level", 0),
            cost=number.get("cost", 0),
            capacity=number.get("capacity", 0),
            text=card.text,
        )
        return card_art(face)

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        v = view_as(view, TmView)
        sheet = Sheet()
        sheet.title(seat_text(v.headline, names), PHASE_ICONS.get(v.phase, "star"))
        sheet.heading("Spheres", "token")
        sheet.chips(
            [
                _chip(s.top, f"{s.level} · ", f" ({s.size})")
                if s.top
                else Chip(f"{s.level} · empty", EMPTY, "token", MUTED)
                for s in v.spheres
            ],
            columns=2,
        )
        if v.phase != "over":
            sheet.stats(
                [
                    ("cards", f"Access points {v.access_points}"),
                    ("discard", f"Empty spheres {v.empty_spheres}/2"),
                ]
            )
        if v.played or v.released:
            sheet.heading("This turn", "star")
            sheet.chips([_chip(c) for c in v.played] + [_chip(c, "Released: ") for c in v.released])
        sheet.heading("Players", "hand")
        sheet.stats([("bolt", "Kè"), ("hand", "hand"), ("cards", "deck"), ("star", "points in sight")], MUTED)
        for info in v.seats:
            stats = [
                ("bolt", f"{info.ke}/{v.ke_limit}"),
                ("hand", str(info.hand_size)),
                ("cards", str(info.deck_size)),
                ("star", plural(info.visible_knowledge, "point")),
            ]
            sheet.seat(plain_name(names, info.seat), [], stats, active=info.seat == v.turn)
            timers = [
                Chip(f"{t.timer.name} {t.loaded}/{t.capacity}", KINDS["timer"][0], "hourglass", (30, 27, 24))
                for t in info.timers
            ]
            sheet.chips(timers, columns=2, indent=12)
        return sheet.finish()

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        v = view_as(view, TmView)
        if not v.hand or v.viewer is None:
            return None
        me = v.seats[v.viewer]
        title = f"My hand: {plural(len(v.hand), 'card')} · Kè {me.ke}/{v.ke_limit}"
        return card_grid([card_art(c) for c in v.hand], title=title)


PICTURES = TimeMastersPictures()
