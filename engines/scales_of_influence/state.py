"""The whole game as one JSON-round-trippable model.

The main flow (phase, Sun turn, Moon order, Reading slot, Weighing step) says
where the day stands; ``stack`` holds interruptions on top of it (Cosmic Events,
card effects waiting for their owner, a secret Give Influence, the "prevent the
end" round, the Shaman pick). The top of the stack acts first; when the stack
is empty the main flow goes on exactly where it stopped.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import Rng, Seat
from engines.scales_of_influence.cards import CardSpec, Deck

Side = Literal["shadow", "light"]
Alignment = Literal["shadow", "light", "harmony"]
Winner = Literal["shadow", "light", "harmony", "draw"]
Phase = Literal["sun", "moon", "reading", "weighing", "over"]
SIDES: tuple[Side, Side] = ("shadow", "light")
SLOTS = ("Past", "Present", "Future")
ENERGY_TOTAL = 50
TOKENS: tuple[int, ...] = (3, 2, 2, 2, 1, 1, 1, 1, 1, 1, -2, -2, -1, -1, -1, -1)
HAND_LIMIT = 7
ENERGY_LIMIT = 7


class Placement(BaseModel):
    """A Reading placement: the card stack (last = visible top) and the marker's holder."""

    cards: list[int] = Field(default_factory=list)
    holder: Seat | None = None
    resolved: bool = False


class Effect(BaseModel):
    """A card ability waiting for its owner to resolve it (and pick targets)."""

    kind: Literal["effect"] = "effect"
    card: int
    owner: Seat
    origin: Literal["reading", "star", "next_day"]


class Cosmic(BaseModel):
    """An open Cosmic Event: played stars (last on top) and who still answers, in order."""

    kind: Literal["cosmic"] = "cosmic"
    stars: list[int]
    owners: list[Seat]
    responders: list[Seat]
    blocked: list[int] = Field(default_factory=list)
    # The last answer laid a star: the Shaman, who may block any star at any
    # time, gets one moment before it shines (anytime plays wait for an answer).
    shaman_turn: bool = False


class Giving(BaseModel):
    """A secret Give Influence in progress: the tokens the giver holds."""

    kind: Literal["giving"] = "giving"
    seat: Seat
    drawn: list[int]


class Tribute(BaseModel):
    """Channel "discard 2 cards face up to take 2 Energy": discards still owed."""

    kind: Literal["tribute"] = "tribute"
    seat: Seat
    target: Seat
    left: int


class Prevention(BaseModel):
    """The "prevent the end" round: each seat once, from the Traveler."""

    kind: Literal["prevention"] = "prevention"
    trigger: Alignment
    remaining: list[Seat]


class ShamanPick(BaseModel):
    """A tie for most Energy: the new Traveler picks the Shaman."""

    kind: Literal["shaman_pick"] = "shaman_pick"
    chooser: Seat
    candidates: list[Seat]


Interrupt = Annotated[
    Effect | Cosmic | Giving | Tribute | Prevention | ShamanPick, Field(discriminator="kind")
]


class Turn(BaseModel):
    """The Sun turn in progress."""

    seat: Seat
    step: Literal["receive", "release", "after", "discard"] = "receive"
    channeled: bool = False


class Lingering(BaseModel):
    """A card kept out of the day's discard because it affects the next day."""

    card: int
    owner: Seat


class ScaleDay(BaseModel):
    """The Scale as a day closed (public): for the recap's day-by-day history."""

    day: int
    shadow: int
    light: int
    influence: dict[Side, int] = Field(default_factory=dict)


def _empty_scale() -> dict[Side, int]:
    return {"shadow": 0, "light": 0}


def _empty_bags() -> dict[Side, list[int]]:
    return {"shadow": [], "light": []}


class SoiState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: int
    harmony: bool
    rng: Rng
    tarot: Deck
    alignments: list[Alignment]
    deck: list[int]
    discard: list[int] = Field(default_factory=list)
    hands: list[list[int]]
    energy: list[int]
    source_energy: int
    scale: dict[Side, int] = Field(default_factory=_empty_scale)
    source_tokens: list[int]
    bags: dict[Side, list[int]] = Field(default_factory=_empty_bags)
    reading: list[Placement] = Field(default_factory=lambda: [Placement() for _ in SLOTS])
    lingering: list[Lingering] = Field(default_factory=list)
    phase: Phase = "sun"
    day: int = 1
    traveler: Seat
    first_traveler: Seat
    shaman: Seat | None = None
    shaman_used: bool = False
    turn: Turn | None = None
    sun_turns: int = 0
    last_sun_seat: Seat | None = None
    moon_order: list[Seat] = Field(default_factory=list)
    reading_slot: int = 0
    weigh_step: Literal["confirm", "shadow", "light", "end", "done"] = "confirm"
    revealed: bool = False
    final_day: bool = False
    stack: list[Interrupt] = Field(default_factory=list)
    winner: Winner | None = None
    ending: str = ""
    days: list[ScaleDay] = Field(default_factory=list)

    def card(self, card_id: int) -> CardSpec:
        return self.tarot.cards[card_id]

    def left_of(self, seat: Seat, steps: int = 1) -> Seat:
        return (seat + steps) % self.players

    def order_from(self, seat: Seat) -> list[Seat]:
        """Every seat once, clockwise, starting with ``seat``."""
        return [self.left_of(seat, i) for i in range(self.players)]

    def top_card(self, slot: int) -> int | None:
        cards = self.reading[slot].cards
        return cards[-1] if cards else None
