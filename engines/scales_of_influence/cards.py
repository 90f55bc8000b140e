"""The Traveler's Tarot as data: card specs, the effect primitives and deck parsing.

Every ability is a short list of :class:`Step` s drawn from a small vocabulary
(:data:`Primitive`); the rules interpret them in ``effects.py``. A Minor Arcana
card's element says what it touches (Fire → Energy, Water → Influence, Air →
players, Earth → cards; see :data:`SUIT_OF`) and the step amounts grow with
rank. The ability text shown to players is generated from the steps, so text
and behaviour can never disagree.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, WrapValidator, model_validator

from engines.card_data import AS_TEXT, CardData, read_once, ship
from engines.core import load_card_data

Element = Literal["spirit", "fire", "water", "air", "earth"]
Primitive = Literal[
    "gain",
    "take",
    "drain_all",
    "scale_add",
    "scale_remove",
    "scale_move",
    "draw",
    "steal_card",
    "discard_random",
    "each_discard",
    "give_influence",
    "blind_token",
    "switch_token",
    "return_token",
    "block",
]

NEEDS_TARGET: frozenset[str] = frozenset({"take", "steal_card", "discard_random"})
NEEDS_SIDE: frozenset[str] = frozenset(
    {"scale_add", "scale_remove", "scale_move", "blind_token", "switch_token"}
)

# The rulebook's suits for the Minor Arcana (ranks 1-10): "Fire affects Energy • Water affects
# Influence • Air affects players • Earth affects cards". The suits each primitive fits; Court
# cards and Shooting Stars are not bound by it.
SUIT_OF: dict[str, frozenset[Element]] = {
    "gain": frozenset({"fire"}),
    "scale_add": frozenset({"fire"}),
    "scale_remove": frozenset({"fire"}),
    "scale_move": frozenset({"fire"}),
    "take": frozenset({"fire", "air"}),  # a player's Energy
    "drain_all": frozenset({"fire", "air"}),
    "give_influence": frozenset({"water"}),
    "blind_token": frozenset({"water"}),
    "switch_token": frozenset({"water"}),
    "return_token": frozenset({"water"}),
    "steal_card": frozenset({"air", "earth"}),  # a player's cards
    "discard_random": frozenset({"air", "earth"}),
    "each_discard": frozenset({"air", "earth"}),
    "draw": frozenset({"earth"}),
    "block": frozenset(),
}
SUIT_DOMAIN = {"fire": "Energy", "water": "Influence", "air": "players", "earth": "cards"}
MINOR_TOP = 10

ELEMENT_EMOJI = {"spirit": "🌠", "fire": "🔥", "water": "💧", "air": "🌬️", "earth": "🪨"}
COURT = {11: "Novice", 12: "Apprentice", 13: "Expert", 14: "Master"}

_WORDING: dict[str, str] = {
    "gain": "gain {n} Energy",
    "take": "take {n} Energy from a player",
    "drain_all": "take {n} Energy from each other player",
    "scale_add": "add {n} Energy to a side of the Scale",
    "scale_remove": "remove {n} Energy from a side of the Scale",
    "scale_move": "move {n} Energy from one side of the Scale to the other",
    "draw": "draw {n} card{s}",
    "steal_card": "take {n} random card{s} from a player",
    "discard_random": "a player discards {n} random card{s}",
    "each_discard": "each other player discards {n} random card{s}",
    "give_influence": "Give Influence",
    "blind_token": "put {n} random token{s} from the source into a bag, unseen",
    "switch_token": "move {n} random token{s} from one bag to the other, unseen",
    "return_token": "return {n} random token{s} from the bags to the source, unseen",
    "block": "block the card this Cosmic Event interrupted",
}

# The same steps once the player has chosen a player and a side: what will happen, in full.
_CHOSEN: dict[str, str] = {
    "take": "take {n} Energy from {target}",
    "steal_card": "take {n} random card{s} from {target}",
    "discard_random": "{target} discards {n} random card{s}",
    "scale_add": "add {n} Energy to {side}",
    "scale_remove": "remove {n} Energy from {side}",
    "scale_move": "move {n} Energy from {side} to {other}",
    "blind_token": "put {n} random token{s} into the {side} bag, unseen",
    "switch_token": "move {n} random token{s} from the {side} bag to the {other} bag, unseen",
}
# …and in a few words, for a menu label too short for the whole text.
_CHOSEN_SHORT: dict[str, str] = {
    "take": "take Energy from {target}",
    "steal_card": "take cards from {target}",
    "discard_random": "{target} discards",
    "scale_add": "add to {side}",
    "scale_remove": "remove from {side}",
    "scale_move": "move from {side} to {other}",
    "blind_token": "tokens into the {side} bag",
    "switch_token": "tokens from the {side} bag to the {other} bag",
}
SIDE_WORD = {"shadow": "Shadow", "light": "Light"}


class Step(BaseModel):
    """One primitive of an ability, with its strength ``n``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Primitive
    n: int = Field(default=1, ge=1, le=5)

    def words(self, target: str | None = None, side: str | None = None) -> str:
        """The step in words; with a chosen ``target`` (a seat reference) and
        ``side`` (shadow or light), what it will do to them."""
        chosen = _CHOSEN.get(self.do)
        if chosen is not None and (target is not None or side is not None):
            return self._chosen(chosen, target, side)
        return _WORDING[self.do].format(n=self.n, s="" if self.n == 1 else "s")

    def choice_words(self, target: str | None, side: str | None) -> str | None:
        """What the chosen target and side mean for this step, in a few words
        (None when the step takes neither)."""
        short = _CHOSEN_SHORT.get(self.do)
        return self._chosen(short, target, side) if short is not None else None

    def _chosen(self, template: str, target: str | None, side: str | None) -> str:
        other = "light" if side == "shadow" else "shadow"
        return template.format(
            n=self.n,
            s="" if self.n == 1 else "s",
            target=target or "a player",
            side=SIDE_WORD.get(side or "", "a side"),
            other=SIDE_WORD[other],
        )


class CardSpec(BaseModel):
    """One tarot card. Spirit cards are Shooting Stars; all others are Hand cards."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=40)
    element: Element
    rank: int = Field(ge=1, le=21)
    effect: list[Step] = Field(min_length=1, max_length=4)
    next_day: bool = Field(default=False, description="Resolves again at the start of the next day.")
    origin: Literal["rulebook", "project"] = "project"

    @model_validator(mode="after")
    def _coherent(self) -> CardSpec:
        if self.element != "spirit" and self.rank > 14:
            raise ValueError(f"{self.name}: Hand cards rank 1 to 14")
        kinds = [step.do for step in self.effect]
        if "give_influence" in kinds[:-1]:
            raise ValueError(f"{self.name}: Give Influence must be the last step")
        if "block" in kinds and self.element != "spirit":
            raise ValueError(f"{self.name}: only Shooting Stars can block")
        if self.next_day and self.element == "spirit":
            raise ValueError(f"{self.name}: only Hand cards can affect the next day")
        if self.element != "spirit" and self.rank <= MINOR_TOP:
            for kind in kinds:
                if self.element not in SUIT_OF[kind]:
                    raise ValueError(
                        f"{self.name} is a Minor Arcana card of {self.element.capitalize()}, which "
                        f"affects {SUIT_DOMAIN[self.element]}: {kind} does not"
                    )
        return self

    @property
    def star(self) -> bool:
        return self.element == "spirit"

    @property
    def needs_target(self) -> bool:
        return any(step.do in NEEDS_TARGET for step in self.effect)

    @property
    def needs_side(self) -> bool:
        return any(step.do in NEEDS_SIDE for step in self.effect)

    def ability(self, target: str | None = None, side: str | None = None) -> str:
        """The card's text; with a chosen target and side, what it will do."""
        text = ", then ".join(step.words(target, side) for step in self.effect)
        text = text[0].upper() + text[1:] + "."
        return text + (" Resolves again at the start of the next day." if self.next_day else "")

    def choice_words(self, target: str | None, side: str | None) -> str:
        """The chosen target and side in a few words: "move from Shadow to Light"."""
        words = [w for step in self.effect if (w := step.choice_words(target, side)) is not None]
        return ", ".join(dict.fromkeys(words))

    def kind(self) -> str:
        """Its type in the rulebook's words."""
        if self.star:
            return "Shooting Star"
        court = f", {COURT[self.rank]}" if self.rank in COURT else ""
        return f"{self.element.capitalize()} Hand card{court}"

    def short(self) -> str:
        """Emoji, rank and name: ``🔥7 Wildfire``."""
        return f"{ELEMENT_EMOJI[self.element]}{self.rank} {self.name}"


class DeckSpec(CardData):
    """A whole Traveler's Tarot (without the Traveler card itself)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="Custom tarot", min_length=1, max_length=60)
    cards: list[CardSpec] = Field(min_length=30, max_length=120)

    @model_validator(mode="after")
    def _unique_names(self) -> DeckSpec:
        seen: set[str] = set()
        for card in self.cards:
            if card.name in seen:
                raise ValueError(f"two cards are named {card.name!r}")
            seen.add(card.name)
        return self


# A tarot inside options and states: stored as text (the shipped tarot as its
# reference), validated once per distinct deck.
Deck = Annotated[DeckSpec, WrapValidator(read_once(DeckSpec, lambda: builtin_deck())), AS_TEXT]


def parse_deck(toml_text: str) -> DeckSpec:
    """A deck from TOML text; a bad file is refused with one clear sentence."""
    return load_card_data(toml_text, DeckSpec, "tarot deck")


@cache
def builtin_deck() -> DeckSpec:
    """The project's Traveler's Tarot: 21 Shooting Stars, 16 Court and 40 Minor cards."""
    text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
    return ship(parse_deck(text))


BUILTIN_DECK = builtin_deck()


@cache
def earlier_decks() -> tuple[DeckSpec, ...]:
    """The tarots of earlier releases, shipped beside today's so that a table
    dealt from one still reads back (its state names it by reference); no new
    table is dealt from them."""
    texts = [resources.files(__package__).joinpath(name).read_text(encoding="utf-8") for name in EARLIER]
    return tuple(ship(parse_deck(text)) for text in texts)


# Before every Scale step grew by one Energy (RULES.md, Balance).
EARLIER = ("cards_v1.toml",)
EARLIER_DECKS = earlier_decks()
