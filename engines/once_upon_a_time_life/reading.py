"""What a player reads about a card (Chance and Bad Luck, for /card and beside
the moves that play a kept card), and the end of a game explained: each
player's tokens, their worth and the cards they still kept."""

from __future__ import annotations

from engines.core import CardText, Choice, Recap, SeatRecap, seat_ref
from engines.once_upon_a_time_life.actions import Duel, Respond, VirusAttack
from engines.once_upon_a_time_life.cards import CardSpec, builtin_cards, card_spec
from engines.once_upon_a_time_life.effects import card_text
from engines.once_upon_a_time_life.state import LifeState
from engines.once_upon_a_time_life.tokens import KINDS, NAMES
from engines.words import plural


def _kind(deck: str, spec: CardSpec) -> str:
    return f"{deck}, kept secretly" if spec.keep else deck


def card_texts() -> list[CardText]:
    cards = builtin_cards()
    return [
        CardText(
            key=spec.id,
            name=spec.name,
            kind=_kind(deck, spec),
            text=card_text(spec),
            facts={"deck": deck, "copies": str(spec.copies)},
        )
        for deck, specs in (("Chance", cards.chance), ("Bad Luck", cards.bad_luck))
        for spec in specs
    ]


def add_details(found: list[Choice]) -> list[Choice]:
    """The text of the kept card a move plays: a Master to duel or to defend, a Virus to attack."""
    for choice in found:
        action = choice.action
        if isinstance(action, Duel) or (isinstance(action, Respond) and action.master):
            choice.detail = card_spec("master").text
        elif isinstance(action, VirusAttack):
            choice.detail = card_spec("virus").text
    return found


def recap(state: LifeState) -> Recap:
    seats = []
    for seat, purse in enumerate(state.purses):
        tokens = " · ".join(f"{NAMES[k]} {purse.of(k)}" for k in KINDS)
        lines = [tokens, f"Worth {purse.worth():g} Globin by the conversion card"]
        if seat == state.winner:
            lines.insert(0, f"Collected {state.options.hemo} Hemo first")
        held = [state.card("chance", c).name for c in state.hands[seat]] or ["no kept cards"]
        seats.append(SeatRecap(seat=seat, lines=lines, held=held))
    rounds = plural(state.turn_no, "round")
    history = [f"{rounds}; {seat_ref(state.winner)} won." if state.winner is not None else ""]
    return Recap(seats=seats, history=[h for h in history if h])
