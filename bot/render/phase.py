"""Phase as panels: the Nexus's pools, each player's influence, warriors (the
active side, with damage and locks), barracks (active faces), the outward
face of each hand card and of each deck's top; "My hand" shows both sides of
my own cards with their text.

Only views are rendered, and a view holds a back side only for its own
player, so nothing here can show a side its reader may not see.
"""

from __future__ import annotations

from collections import Counter

from bot.render.base import (
    DESCRIPTION_MAX,
    FIELD_MAX,
    FOOTER_MAX,
    MAX_FIELDS,
    NAME_MAX,
    Panel,
    add_lines,
    add_ranking,
    fit,
)
from engines.core import Result, View
from engines.phase.views import CardView, Face, PhView, SeatView

# "My hand" stays within an embed's 6000 characters in all: the barracks, the
# warriors and the discard pile whole, the hand in the room left (each card in
# brief when the whole text would not fit; its picture and /card give the rest).
HAND_MAX, PANEL_BUDGET = 2400, 5000
SIGN = {"good": "☀", "evil": "☾"}


def _view(view: View) -> PhView:
    assert isinstance(view, PhView), "the Phase renderer needs a Phase view"
    return view


def _face(face: Face) -> str:
    return f"{SIGN.get(face.alignment, '')}{face.title} ({face.cost}) {face.attack}/{face.defense}"


def _warrior(card: CardView) -> str:
    words = f"{SIGN.get(card.face.alignment, '')}**{card.face.title}** {card.attack}/{card.defense}"
    if card.damage:
        words += f" ({card.damage} dmg)"
    if card.flags:
        words += " " + ", ".join(f.capitalize() for f in card.flags)
    return words + (" 🔒" if card.locked else "")


def _resource(card: CardView) -> str:
    return _face(card.face) + (" 🔒" if card.locked else "")


def _seat(view: PhView, info: SeatView) -> tuple[str, str]:
    mark = " ▶" if view.turn == info.seat else ""
    lines = [
        f"{info.faction} · ☀ {info.good} good · ☾ {info.evil} evil",
        "Warriors: " + (", ".join(_warrior(c) for c in info.play) or "—"),
        "Barracks: " + (", ".join(_resource(c) for c in info.barracks) or "—"),
        f"Hand {info.hand_size}: " + (", ".join(c.face.title for c in info.hand) or "—"),
        f"Deck {info.deck_size}"
        + (f", top: {_face(info.deck_top)}" if info.deck_top else "")
        + f" · discard {info.discard_size}"
        + (f", top: {info.discard[-1].face.title}" if info.discard else ""),
    ]
    return fit(f"<seat:{info.seat}>{mark}", NAME_MAX), fit("\n".join(lines), FIELD_MAX)


def card_text(card: CardView) -> str:
    """One of my cards: the side up (in hand: the side facing me), then the other."""
    text = card.face.text
    if card.back is not None:
        text += f"\n  ↺ other side: {card.back.text}"
    return text


def _hand_text(view: PhView, me: SeatView, room: int) -> str:
    """My hand cards in full, or each in brief (both sides' title, cost and strength)
    when the full text would pass ``room``; a payment under way comes first."""
    head = [f"**{view.pending}**"] if view.pending else []  # what it has taken so far, what is left
    full = [f"• {card_text(c)}\n  (opponents see: {c.back.title if c.back else '?'})" for c in me.hand]
    text = "\n".join([*head, *full])
    if len(text) > room:
        brief = [f"• {_face(c.face)} ↺ {_face(c.back) if c.back else '?'}" for c in me.hand]
        text = "\n".join([*head, *brief, "(each card in full: its picture, or /card)"])
    return fit(text, max(room, 1)) or "(no cards)"


def discard_entries(pile: list[CardView]) -> list[str]:
    """My whole discard pile, both sides of each card, copies counted once
    ("Scout ↺ Skulker ×3")."""
    counts = Counter(card.face.title + (f" ↺ {card.back.title}" if card.back else "") for card in pile)
    return [entry + (f" ×{n}" if n > 1 else "") for entry, n in counts.items()]


class PhaseRenderer:
    def table(self, view: View) -> Panel:
        v = _view(view)
        lines = [
            f"**{v.headline}**",
            f"The Nexus: ☀ {v.nexus_good} good · ☾ {v.nexus_evil} evil"
            + f" · round {v.round_no}"
            + (f"/{v.round_limit}" if v.round_limit else ""),
        ]
        if v.ending:
            empty = 0 in (v.nexus_good, v.nexus_evil)
            why = "A Nexus pool is empty" if empty else "Nothing can change any more"
            lines.append(f"{why}: the game ends when this round's last player finishes.")
        if v.nexus_defender is not None:
            lines.append(f"Defending the Nexus this turn: <seat:{v.nexus_defender}>")
        for fight in v.skirmishes:
            against = ", ".join(fight.defenders) or "unopposed"
            state = "✓" if fight.done else "⚔" if fight.resolving else "·"
            lines.append(f"{state} {fight.attacker} → {fight.at} (against: {against})")
        if v.pending:
            lines.append(v.pending)
        panel = Panel(title="Phase", description=fit("\n".join(lines), DESCRIPTION_MAX))
        for info in v.seats[: MAX_FIELDS - 1]:
            panel.add(*_seat(v, info), inline=False)
        return panel

    def hand(self, view: View) -> Panel:
        v = _view(view)
        me = v.seats[v.viewer] if v.viewer is not None else None
        if me is None:
            return Panel(title="My hand", description="(no seat)")
        panel = Panel(title="My hand", footer=fit(v.headline, FOOTER_MAX))
        panel.add("Influence", f"☀ {me.good} good · ☾ {me.evil} evil")
        barracks = [card_text(c) + (" 🔒" if c.locked else "") for c in me.barracks]
        add_lines(panel, "Barracks (both sides)", barracks)
        add_lines(panel, "Warriors (both sides)", [card_text(c) for c in me.play])
        if me.discard:
            add_lines(
                panel,
                f"Discard pile ({len(me.discard)}, both sides)",
                discard_entries(me.discard),
                joiner=", ",
            )
        # Every field kept whole (the Discord layer drops the last fields of an
        # embed over 6000 characters): the hand text gives way first.
        room = min(HAND_MAX, PANEL_BUDGET - sum(len(f.name) + len(f.value) for f in panel.fields))
        panel.description = _hand_text(v, me, room)
        return panel

    def result(self, result: Result, view: View) -> Panel:
        v = _view(view)
        panel = Panel(title="Phase — game over", description=fit(result.summary, DESCRIPTION_MAX))

        def entry(s: int) -> str:
            seat = v.seats[s]
            attack = sum(c.attack or 0 for c in seat.play)
            return f"<seat:{s}> (☀ {seat.good} · ☾ {seat.evil}, attack in play {attack})"

        return add_ranking(panel, result, entry)


RENDERER = PhaseRenderer()
