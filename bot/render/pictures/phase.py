"""Phase as pictures: the Nexus pools, each player's influence, warriors in play
(active side, attack/defense, damage, locked), barracks, the outward faces of
each hand and the face on each deck's top, whose turn and which step; and both
sides of each of a seat's own hand cards.

Drawn from :class:`~engines.phase.views.PhView` only: a face the viewer may not
see is not in the view, so it cannot reach a picture.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render.pictures.base import MUTED, Colour, hex_colour, plain_name, seat_text, view_as
from bot.render.pictures.cards import CardArt, card_grid
from bot.render.pictures.sheet import Chip, Sheet
from engines.core import CardText, View
from engines.phase.views import CardView, Face, PhView
from engines.words import plural

# Alignment colours and the ink on them; a two-sided card for /card sits between.
SIDES: dict[str, tuple[Colour, Colour, str]] = {
    "good": ((234, 196, 84), (30, 27, 24), "sun"),
    "evil": ((109, 40, 217), (255, 255, 255), "moon"),
}
BOTH: Colour = (71, 85, 105)
ZONES = {"play": "bolt", "barracks": "bank", "hand": "hand", "deck": "cards"}
STEP_ICONS = {"pick": "cards", "training": "bank", "over": "crown"}
PAIR_WIDTH = 320  # two cards side by side, centred: the side facing me, then the side others see
FULL_FACES = 8  # a larger hand is drawn as a chip per side


def _rules_text(face: Face) -> str:
    """A face's abilities: its text without the leading "Title (good, cost 3, 1/6)"."""
    return face.text.split(" · ", 1)[1] if " · " in face.text else ""


def face_art(face: Face) -> CardArt:
    colour, _, icon_name = SIDES.get(face.alignment, SIDES["good"])
    return CardArt(
        title=face.title,
        kind=f"{face.alignment.capitalize()} · {face.attack}/{face.defense}",
        text=_rules_text(face),
        cost=str(face.cost),
        colour=hex_colour(colour),
        icon=icon_name,
    )


def _chip(card: CardView | Face, zone: str) -> Chip:
    face = card.face if isinstance(card, CardView) else card
    colour, ink, _ = SIDES.get(face.alignment, SIDES["good"])
    text = face.title
    if isinstance(card, CardView):
        if card.attack is not None:
            text += f" {card.attack}/{card.defense}"
        if card.damage:
            text += f" ·{card.damage} dmg"
        if card.back is not None and zone != "hand":
            text += f" ↺ {card.back.title}"
        if card.locked:
            return Chip(text, colour, "lock", ink)
    return Chip(text, colour, ZONES[zone], ink)


def _side_chip(face: Face) -> Chip:
    colour, ink, icon_name = SIDES.get(face.alignment, SIDES["good"])
    return Chip(f"{face.title} ({face.cost}) {face.attack}/{face.defense}", colour, icon_name, ink)


class PhasePictures:
    def card(self, card: CardText) -> CardArt:
        return CardArt(
            title=card.name, kind=card.kind, text=card.text, colour=hex_colour(BOTH), icon="yin_yang"
        )

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        v = view_as(view, PhView)
        sheet = Sheet()
        sheet.title(seat_text(v.headline, names), STEP_ICONS.get(v.step, "bolt"))
        sheet.heading("The Nexus", "yin_yang")
        sheet.stats(
            [
                ("sun", f"Good pool {v.nexus_good}"),
                ("moon", f"Evil pool {v.nexus_evil}"),
                ("hourglass", f"Round {v.round_no}" + (f"/{v.round_limit}" if v.round_limit else "")),
            ]
        )
        if v.ending:
            why = "A pool is empty" if 0 in (v.nexus_good, v.nexus_evil) else "Nothing can change any more"
            sheet.line(f"{why}: the game ends after this round.", "hourglass", colour=MUTED)
        if v.nexus_defender is not None:
            sheet.line(f"Defending the Nexus: {plain_name(names, v.nexus_defender)}", "shield", colour=MUTED)
        for fight in v.skirmishes:
            state = "done" if fight.done else "resolving" if fight.resolving else "to come"
            guards = ", ".join(fight.defenders) or "no defenders"
            sheet.line(seat_text(f"{fight.attacker} attacks {fight.at} ({guards}) — {state}", names), "thorn")
        if v.pending:
            sheet.line(seat_text(v.pending, names), "token", colour=MUTED)
        sheet.heading("Players", "hand")
        sheet.stats([(icon_name, zone) for zone, icon_name in ZONES.items()] + [("lock", "locked")], MUTED)
        for info in v.seats:
            stats = [
                ("sun", str(info.good)),
                ("moon", str(info.evil)),
                ("hand", str(info.hand_size)),
                ("cards", str(info.deck_size)),
            ]
            name = f"{plain_name(names, info.seat)} · {info.faction}"
            sheet.seat(name, [], stats, active=info.seat in (v.turn, v.to_act))
            chips = [_chip(c, "play") for c in info.play] + [_chip(c, "barracks") for c in info.barracks]
            chips += [_chip(c, "hand") for c in info.hand]
            chips += [_chip(info.deck_top, "deck")] if info.deck_top else []
            sheet.chips(chips, columns=2, indent=12)
        return sheet.finish()

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        v = view_as(view, PhView)
        if v.viewer is None:
            return None
        me = v.seats[v.viewer]
        cards = [c for c in me.hand if c.back is not None]
        if not cards:
            return None
        sheet = Sheet()
        subtitle = "Left: the side facing me · right: the side shown outward"
        sheet.title(f"My hand: {plural(len(cards), 'card')}", "hand", subtitle=subtitle)
        sides = [side for card in cards for side in (card.face, card.back) if side is not None]
        if len(cards) <= FULL_FACES:
            # One grid, two columns: each row is one card, the side facing me on the left.
            sheet.paste(card_grid([face_art(side) for side in sides], 2, width=PAIR_WIDTH))
        else:
            # A hand this big as whole faces would outgrow a phone's scrolling: one chip per side.
            sheet.chips([_side_chip(side) for side in sides], columns=2)
        return sheet.finish()


PICTURES = PhasePictures()
