"""Chance and Bad Luck cards as data, each built from a small vocabulary of
effect primitives (``Effect.do``) that ``effects.py`` carries out. A card with
``keep`` (Master, Virus) is not carried out: its drawer keeps it secretly."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core import load_card_data
from engines.once_upon_a_time_life.tokens import TokenKind, tokens_text

Primitive = Literal["gain", "pay", "move", "back", "goto", "home", "skip", "collect", "give"]
Keep = Literal["master", "virus"]
NEEDS_TOKEN = ("gain", "pay", "collect", "give")


class Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Primitive
    token: TokenKind | None = None
    n: int = Field(default=1, ge=1, le=6)
    place: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Effect:
        if (self.do in NEEDS_TOKEN) != (self.token is not None):
            raise ValueError(f"'{self.do}' {'needs' if self.do in NEEDS_TOKEN else 'takes no'} token")
        if (self.do == "goto") != (self.place is not None):
            raise ValueError("only 'goto' names a place, and it must")
        return self

    def text(self, place_name: str = "") -> str:
        some = tokens_text({self.token: self.n}) if self.token else ""
        s = "" if self.n == 1 else "s"
        return {
            "gain": f"Take {some} from the bank.",
            "pay": f"Return {some} to the bank (as many as you have).",
            "move": f"Move {self.n} space{s} forward.",
            "back": f"Move {self.n} space{s} back.",
            "goto": f"Go to the {place_name or self.place}.",
            "home": "Go to your own START and take its bonus.",
            "skip": f"Lose {self.n} turn{s}.",
            "collect": f"Every other player gives you {some} (as many as they have).",
            "give": f"Give every other player {some} (as far as yours go).",
        }[self.do]


class CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=32)
    text: str = Field(default="", max_length=200)
    effects: list[Effect] = Field(default_factory=list, max_length=4)
    keep: Keep | None = None
    copies: int = Field(default=1, ge=1, le=20)

    @model_validator(mode="after")
    def _does_something(self) -> CardSpec:
        if bool(self.keep) == bool(self.effects):
            raise ValueError(f"{self.id}: a card either is kept (keep) or has effects, not both or neither")
        return self


class CardsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    chance: list[CardSpec] = Field(min_length=1)
    bad_luck: list[CardSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> CardsSpec:
        ids = [c.id for c in [*self.chance, *self.bad_luck]]
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique")
        if any(c.keep for c in self.bad_luck):
            raise ValueError("only Chance cards are kept in hand")
        return self

    def card(self, card_id: str) -> CardSpec:
        return next(c for c in [*self.chance, *self.bad_luck] if c.id == card_id)


@cache
def builtin_cards() -> CardsSpec:
    text = (Path(__file__).parent / "cards.toml").read_text(encoding="utf-8")
    return load_card_data(text, CardsSpec, what="cards")


@cache
def card_spec(card_id: str) -> CardSpec:
    return builtin_cards().card(card_id)
