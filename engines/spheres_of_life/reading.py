"""What a player reads about a card, and the end of a game explained.

A card's text comes from the deck itself (a server's custom deck included), so
``/card``, the menus and the recap can never disagree with the rules applied.
"""

from __future__ import annotations

from collections import Counter

from engines.core import Choice, Recap, Seat, SeatRecap
from engines.spheres_of_life.cards import AnimalSpec, CardId, DeckSpec
from engines.spheres_of_life.scoring import (
    BANKED_CORRUPTED,
    BANKED_NOBLE,
    SET_SIZE,
    banked_points,
    hand_breakdown,
    score,
)
from engines.spheres_of_life.state import SolState
from engines.words import noun_for, plural

KIND = {"noble": "Noble animal", "corrupted": "Corrupted animal", "ability": "Ability", "hero": "Hero"}


def card_text(spec: DeckSpec, card: CardId) -> str:
    """The whole text of one kind of card, in the rulebook's terms."""
    group = spec.group(card)
    power = spec.power(card)
    if power is not None:
        once = " Once per game." if group == "hero" else ""
        unused = " −1 point if unused at the end." if group == "ability" else ""
        return f"{power.text}{once}{unused}"
    sign = "+" if group == "noble" else "−"
    banked = BANKED_NOBLE if group == "noble" else BANKED_CORRUPTED
    return (
        f"{KIND[group]}: 1, 2, 3 in hand score {sign}1, {sign}4, {sign}9. "
        f"A banked set of three scores +{banked}."
    )


def cards_of(spec: DeckSpec) -> list[tuple[CardId, str, str, dict[str, str]]]:
    """Every kind of card: id, name, kind, facts (for a card face)."""
    found: list[tuple[CardId, str, str, dict[str, str]]] = []
    for animal in spec.animals:
        found.append((animal.id, animal.name, KIND[animal.side], _facts(animal)))
    for group, powers in (("ability", spec.abilities), ("hero", spec.heroes)):
        for power in powers:
            facts = {"copies": str(power.copies), "target": power.target}
            found.append((power.id, power.name, KIND[group], facts))
    return found


def _facts(animal: AnimalSpec) -> dict[str, str]:
    return {"side": animal.side, "copies": str(animal.copies)}


def add_details(state: SolState, choices: list[Choice]) -> list[Choice]:
    """Give every choice that names a card that card's text. The card is read
    from the action (a card in play, a Hero, a set or a wanted kind), so a
    choice naming no card (a Steal by position) gets none."""
    spec = state.deck_spec
    texts: dict[str, str] = {}
    for choice in choices:
        # The action's fields as a plain dict: a pydantic model's attribute
        # lookup is slow when the field is missing, and this runs on every query.
        fields = vars(choice.action)
        card = fields.get("card")
        kind = state.kind(card) if isinstance(card, int) else None
        kind = kind or fields.get("hero") or fields.get("animal") or fields.get("wanted")
        if isinstance(kind, str):
            if kind not in texts:
                texts[kind] = card_text(spec, kind)
            choice.detail = texts[kind]
    return choices


def recap(state: SolState) -> Recap:
    """Each seat's points, animal by animal, banked sets and Abilities left, and
    what it held at the end (shown once the game is over)."""
    return Recap(seats=[_seat(state, seat) for seat in range(state.players)], history=_history(state))


def _seat(state: SolState, seat: Seat) -> SeatRecap:
    spec = state.deck_spec
    counts = Counter(state.kind(c) for c in state.hands[seat])
    lines = []
    for kind, points in sorted(hand_breakdown(state, seat).items(), key=lambda item: -item[1]):
        what = " (unused)" if spec.group(kind) == "ability" else _set_note(counts[kind])
        lines.append(f"{spec.name_of(kind)} ×{counts[kind]}{what}: {points:+d}")
    for first in state.banked[seat][::SET_SIZE]:
        noble = spec.group(state.kind(first)) == "noble"
        lines.append(f"Banked set of {state.name(first)}: +{BANKED_NOBLE if noble else BANKED_CORRUPTED}")
    if not lines:
        lines.append("Nothing in hand and no banked set: 0")
    lines.append(
        f"Total: {score(state, seat):+d} with {plural(len(state.hands[seat]), 'card')} in hand"
        f" (banked {banked_points(state, seat):+d})"
    )
    if state.options.rounds > 1:
        lines.append(
            f"Match: {state.match_scores[seat]:+d} {noun_for(state.match_scores[seat], 'point')}"
            f" over {plural(state.round_no, 'round')}"
        )
    held = [state.name(c) for c in state.hands[seat]]
    held += [f"{state.name(c)} (Hero, unused)" for c in state.heroes[seat]]
    held += [f"{state.name(c)} (Hero, used)" for c in state.heroes_used[seat]]
    return SeatRecap(seat=seat, lines=lines, held=held)


def _set_note(copies: int) -> str:
    return f" (a set and {copies - SET_SIZE} more)" if copies > SET_SIZE else ""


def _history(state: SolState) -> list[str]:
    history = [
        f"{plural(state.days_done, 'Day')} played; "
        f"{plural(len(state.discard), 'card')} in the discard pile at the end."
    ]
    if state.options.goal == "balance" and state.balance_winners:
        history.append(
            "Balance restored (exactly 0 points) by "
            + ", ".join(f"<seat:{s}>" for s in state.balance_winners)
            + "."
        )
    return history
