"""Time Masters' cards as data: the starting deck and the five Spheres of
Consciousness, validated by pydantic.

A card's effect is a list of :class:`Effect` from a small vocabulary
(``Effect.do``) that ``effects.py`` carries out, so a table may load its own
deck file with the same schema through :func:`parse_deck`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WrapValidator, model_validator

from engines.card_data import AS_DATA, CardIndex, read_once, ship
from engines.core import load_card_data

Kind = Literal["spell", "focus", "timer"]
Primitive = Literal["gain_ke", "draw", "access", "drain", "disrupt", "refresh_ke"]
LEVELS = 5
CardId = str

# Words for each primitive, so a card's text can be written from its effects
# when its deck file gives none (a custom deck then reads like the built-in one).
EFFECT_TEXT = {
    "gain_ke": "Recover {n} Kè.",
    "refresh_ke": "Recover all your Kè.",
    "draw": "Draw {n} card{s}.",
    "access": "+{n} access point{s}.",
    "drain": "Every other player loses {n} Kè.",
    "disrupt": "Every other player discards {n} random card{s} from hand.",
}


class Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Primitive
    n: int = Field(default=1, ge=1, le=5)

    def text(self) -> str:
        return EFFECT_TEXT[self.do].format(n=self.n, s="" if self.n == 1 else "s")


class CardSpec(BaseModel):
    """One card design. ``level`` is both its knowledge points and the sphere it
    is bought from (0: a starting card). ``cost`` is the Kè a spell needs to be
    cast; ``capacity`` how many spells a timer holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: CardId = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=32)
    kind: Kind
    level: int = Field(ge=0, le=LEVELS)
    cost: int = Field(default=0, ge=0, le=6)
    capacity: int = Field(default=0, ge=0, le=6)
    effects: list[Effect] = Field(default_factory=list, max_length=4)
    text: str = Field(default="", max_length=200)
    copies: int = Field(default=1, ge=1, le=20)

    @model_validator(mode="after")
    def _coherent(self) -> CardSpec:
        if self.kind == "timer" and not 1 <= self.capacity <= 6:
            raise ValueError(f"{self.id}: a timer holds 1 to 6 spells (capacity)")
        if self.kind != "timer" and self.capacity:
            raise ValueError(f"{self.id}: only timers have a capacity")
        if self.kind != "spell" and self.cost:
            raise ValueError(f"{self.id}: only spells have a Kè cost")
        if self.kind == "timer" and self.effects:
            raise ValueError(f"{self.id}: a timer has no effects of its own")
        return self

    @property
    def rules_text(self) -> str:
        if self.text:
            return self.text
        if self.kind == "timer":
            return f"Holds {self.capacity} spell{'s' if self.capacity != 1 else ''} to cast later."
        words = " ".join(e.text() for e in self.effects)
        return words or ("A spell: it counts toward your access points." if self.kind == "spell" else "—")


class DeckSpec(CardIndex[CardSpec]):
    """A whole game's cards. Level-0 cards make the starting deck every player
    gets (``copies`` each); the cards of level N make sphere N's pile."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Custom deck"
    cards: list[CardSpec] = Field(min_length=1, max_length=200)

    @model_validator(mode="after")
    def _consistent(self) -> DeckSpec:
        # Repeated ids are refused first, by CardIndex.
        for level in range(1, LEVELS + 1):
            if not self.pile(level):
                raise ValueError(f"sphere {level} has no cards (give some cards level = {level})")
        if sum(c.copies for c in self.pile(0)) < 5:
            raise ValueError("the starting deck (level 0 cards) needs at least 5 cards, a full hand")
        return self

    def pile(self, level: int) -> list[CardSpec]:
        """The card designs of one level (0: the starting deck)."""
        return [c for c in self.cards if c.level == level]


def parse_deck(toml_text: str) -> DeckSpec:
    """A deck from TOML text; :class:`IllegalAction` explains what is wrong."""
    return load_card_data(toml_text, DeckSpec)


@cache
def builtin_deck() -> DeckSpec:
    return ship(parse_deck((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8")))


# The deck inside a state: the shipped deck as its reference, any other as its
# data (as states always held it), validated once per distinct deck.
Deck = Annotated[DeckSpec, WrapValidator(read_once(DeckSpec, builtin_deck)), AS_DATA]
