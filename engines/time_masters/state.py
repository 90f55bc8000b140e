"""The state of a game of Time Masters, and its options.

Every physical card has an id (its index in ``TmState.cards``, which names its
design); a card is always in exactly one place: a sphere's pile, a player's
deck, hand, discard pile, played area, or on a timer (the timer card itself, a
spell laid on it, or a card delaying it), or among the spells of a timer
activated this turn.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import Rng
from engines.time_masters.cards import CardSpec, Deck, DeckSpec

Phase = Literal["timer", "main", "access", "over"]


class TmOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand_limit: int = Field(default=5, ge=3, le=8, description="Cards a hand is refilled to.")
    ke: int = Field(default=4, ge=1, le=10, description="Starting Kè, and the most a player can hold.")
    # The rulebook sets no limit; a table may set one. A timer that cannot be set
    # may then be discarded, or a hand of timers would be stuck (RULES.md decision 3).
    max_timers: int | None = Field(
        default=None, ge=1, le=4, description="Timers a player may have in play at once (none: no limit)."
    )
    deck: DeckSpec | None = Field(default=None, description="A custom deck (None: the built-in cards).")


class Timer(BaseModel):
    """A timer in play: the timer card, the spells laid on it (face down, known
    to its owner) and the cards placed on it to delay it (face down)."""

    card: int
    spells: list[int] = Field(default_factory=list)
    delays: list[int] = Field(default_factory=list)


class TmState(BaseModel):
    players: int
    options: TmOptions
    deck_spec: Deck
    rng: Rng
    cards: list[str]
    # spheres[level - 1][0] is the face-up top card, [1] the hidden second card.
    spheres: list[list[int]]
    decks: list[list[int]]
    hands: list[list[int]]
    discards: list[list[int]]
    timers: list[list[Timer]]
    ke: list[int]
    turn: int = 0
    turn_no: int = 1
    phase: Phase = "main"
    # This turn's work, for the player whose turn it is.
    played: list[int] = Field(default_factory=list)
    released: list[int] = Field(default_factory=list)  # spells of a timer activated this turn
    activated: bool = False
    handled: list[int] = Field(default_factory=list)  # full timers already delayed this turn
    acted: bool = False
    spells_cast: int = 0
    bonus_access: int = 0
    access_spent: int = 0
    bought_from: list[int] = Field(default_factory=list)

    def spec(self, card: int) -> CardSpec:
        return self.deck_spec.card(self.cards[card])

    def name(self, card: int) -> str:
        return self.spec(card).name

    @property
    def access_points(self) -> int:
        return self.spells_cast + self.bonus_access - self.access_spent

    def delaying(self, seat: int) -> int:
        """Cards face down on this seat's timers: each one less card at refill."""
        return sum(len(t.delays) for t in self.timers[seat])

    def full_timers(self, seat: int) -> list[Timer]:
        """This seat's full timers not yet activated or delayed this turn."""
        return [
            t
            for t in self.timers[seat]
            if len(t.spells) >= self.spec(t.card).capacity and t.card not in self.handled
        ]

    def owned(self, seat: int) -> list[int]:
        """Every card this seat owns, wherever it lies."""
        cards = [*self.decks[seat], *self.hands[seat], *self.discards[seat]]
        for timer in self.timers[seat]:
            cards += [timer.card, *timer.spells, *timer.delays]
        if seat == self.turn:
            cards += [*self.played, *self.released]
        return cards

    def knowledge(self, seat: int) -> int:
        return sum(self.spec(c).level for c in self.owned(seat))

    def empty_spheres(self) -> int:
        return sum(1 for pile in self.spheres if not pile)
