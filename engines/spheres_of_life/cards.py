"""The deck as data: animals, Ability cards and Heroes, validated by pydantic.

An Ability's or Hero's effect is a list of :class:`Step` taken from a small
vocabulary (``Step.do``) that ``effects.py`` interprets, so a table can load its
own deck file with the same schema through :func:`parse_deck`.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, WrapValidator, model_validator

from engines.card_data import AS_TEXT, CardData, read_once, ship
from engines.core import load_card_data

Primitive = Literal[
    "draw",
    "peek_reorder",
    "look_take",
    "arrange_target",
    "lock_order",
    "shield",
    "restart_dream",
    "change_phase",
    "swap_hands",
    "reverse_order",
    "skip_action",
    "discard",
    "take_discard",
    "block",
    "lead_first_three",
]
# Steps that act on the chosen player's hand, so the card must name another player.
TARGETED: frozenset[str] = frozenset(
    {"peek_reorder", "look_take", "arrange_target", "lock_order", "swap_hands", "skip_action"}
)
# Steps that only make sense while a Dream is being played.
DREAM_ONLY: frozenset[str] = frozenset(
    {"shield", "restart_dream", "change_phase", "reverse_order", "skip_action"}
)
Origin = Literal["rulebook", "faq", "project"]
MIN_ANIMALS = 8  # two players: three cards each dealt, and a first Day
# The base deck has 56 cards. A table must stay quick to play and to show: a
# deck of more cards than this is refused when it is loaded.
MAX_CARDS = 5000
CardId = str


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Primitive
    n: int = Field(default=1, ge=1, le=6, description="How many cards the step moves or shows.")
    to: Literal["day", "night"] | None = Field(default=None, description="change_phase: the next phase.")
    against: Literal["steal", "gift"] | None = Field(default=None, description="shield: what it stops.")

    @model_validator(mode="after")
    def _parameters(self) -> Step:
        if self.do == "change_phase" and self.to is None:
            raise ValueError("a change_phase step needs `to` (day or night)")
        if self.do == "shield" and self.against is None:
            raise ValueError("a shield step needs `against` (steal or gift)")
        return self


class AnimalSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: CardId = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=32)
    side: Literal["noble", "corrupted"]
    copies: int = Field(default=3, ge=1, le=9)
    origin: Origin = "project"


class PowerSpec(BaseModel):
    """An Ability card or a Hero: what it says and the steps it takes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: CardId = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=32)
    text: str = Field(min_length=1, max_length=200)
    target: Literal["self", "another", "any"] = "self"
    copies: int = Field(default=1, ge=1, le=9)
    origin: Origin = "project"
    steps: list[Step] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _coherent(self) -> PowerSpec:
        dos = [s.do for s in self.steps]
        if ("block" in dos or "lead_first_three" in dos) and len(dos) > 1:
            raise ValueError(f"{self.id}: block and lead_first_three must be the only step")
        if self.target == "self" and TARGETED & set(dos):
            raise ValueError(f"{self.id}: a step that acts on another hand needs target another or any")
        return self

    @property
    def passive(self) -> bool:
        return self.steps[0].do == "lead_first_three"

    @property
    def is_block(self) -> bool:
        return self.steps[0].do == "block"


class DeckSpec(CardData):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Custom deck"
    animals: list[AnimalSpec] = Field(min_length=1)
    abilities: list[PowerSpec] = Field(default_factory=list)
    heroes: list[PowerSpec] = Field(default_factory=list)
    _index: dict[str, tuple[str, AnimalSpec | PowerSpec]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _unique(self) -> DeckSpec:
        ids = [c.id for c in self.animals] + [c.id for c in self.abilities] + [c.id for c in self.heroes]
        doubles = sorted(i for i, n in Counter(ids).items() if n > 1)
        if doubles:
            raise ValueError(f"card ids must be unique; repeated: {', '.join(doubles)}")
        if any(h.is_block for h in self.heroes) or any(a.passive for a in self.abilities):
            raise ValueError("block belongs on Ability cards and lead_first_three on Heroes")
        if sum(a.copies for a in self.animals) < MIN_ANIMALS:
            raise ValueError(f"a deck needs at least {MIN_ANIMALS} animal cards")
        total = sum(c.copies for group in (self.animals, self.abilities, self.heroes) for c in group)
        if total > MAX_CARDS:
            raise ValueError(f"a deck holds at most {MAX_CARDS} cards with copies (this one has {total})")
        return self

    def model_post_init(self, __context: Any) -> None:
        # Lookups happen on every legal-move query: index the cards once.
        index: dict[str, tuple[str, AnimalSpec | PowerSpec]] = {a.id: (a.side, a) for a in self.animals}
        index |= {p.id: ("ability", p) for p in self.abilities}
        index |= {h.id: ("hero", h) for h in self.heroes}
        self._index = index

    def _lookup(self, card: CardId) -> tuple[str, AnimalSpec | PowerSpec] | None:
        # Straight to the private dict: pydantic's attribute hook is slow on this hot path.
        private = self.__pydantic_private__ or {}
        found: tuple[str, AnimalSpec | PowerSpec] | None = private["_index"].get(card)
        return found

    def animal(self, card: CardId) -> AnimalSpec | None:
        found = self._lookup(card)
        return found[1] if found and isinstance(found[1], AnimalSpec) else None

    def power(self, card: CardId) -> PowerSpec | None:
        found = self._lookup(card)
        return found[1] if found and isinstance(found[1], PowerSpec) else None

    def name_of(self, card: CardId) -> str:
        found = self._lookup(card)
        return found[1].name if found else card

    def group(self, card: CardId) -> str:
        """noble, corrupted, ability or hero."""
        found = self._lookup(card)
        return found[0] if found else "ability"

    @property
    def has_block(self) -> bool:
        return any(a.is_block for a in self.abilities)


# A deck inside options and states: stored as text (the shipped deck as its
# reference), validated once per distinct deck.
Deck = Annotated[DeckSpec, WrapValidator(read_once(DeckSpec, lambda: builtin_deck())), AS_TEXT]


def parse_deck(toml_text: str) -> DeckSpec:
    """A deck from TOML text; :class:`IllegalAction` explains what is wrong."""
    return load_card_data(toml_text, DeckSpec)


@cache
def builtin_deck() -> DeckSpec:
    return ship(parse_deck((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8")))
