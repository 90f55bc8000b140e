"""What a player reads about a card, and the end of a journey explained: each
player's alignment, Energy and last hand, and the Scale day by day."""

from __future__ import annotations

from engines.core import CardText, Recap, SeatRecap
from engines.scales_of_influence.cards import DeckSpec
from engines.scales_of_influence.state import SoiState

TEAM = {"shadow": "Shadow", "light": "Light", "harmony": "Harmony"}


def card_texts(tarot: DeckSpec) -> list[CardText]:
    return [
        CardText(
            key=str(index),
            name=spec.name,
            kind=spec.kind(),
            text=spec.ability(),
            facts={"element": spec.element, "rank": str(spec.rank)},
        )
        for index, spec in enumerate(tarot.cards)
    ]


def recap(state: SoiState) -> Recap:
    winner = state.winner
    seats = []
    for seat, alignment in enumerate(state.alignments):
        won = winner == alignment or winner == "draw"
        lines = [
            f"{TEAM[alignment]} — {'won' if won else 'lost'}",
            f"Energy left: {state.energy[seat]}" + (" (Shaman)" if state.shaman == seat else ""),
        ]
        held = [state.card(c).short() for c in state.hands[seat]] or ["no cards"]
        seats.append(SeatRecap(seat=seat, lines=lines, held=held))
    history = [
        f"Day {d.day}: Shadow {d.shadow} · Light {d.light} "
        f"(Influence {_signed(d.influence.get('shadow', 0))} / {_signed(d.influence.get('light', 0))})"
        for d in state.days
    ]
    last = state.days[-1] if state.days else None
    final = (state.scale["shadow"], state.scale["light"])
    if last is None or last.day != state.day or (last.shadow, last.light) != final:
        history.append(f"Day {state.day}, at the end: Shadow {final[0]} · Light {final[1]}")
    return Recap(seats=seats, history=history)


def _signed(value: int) -> str:
    return f"{value:+d}"
