"""Refusals of options and card files: our own words, the valid keys named,
user input clipped, deep nesting refused in one sentence."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core import IllegalAction, load_card_data, quote


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    rank: int = Field(ge=1, le=14)


class Deck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    style: Literal["plain", "gilded"] = "plain"
    cards: list[Card]

    @model_validator(mode="after")
    def _named(self) -> Deck:
        if any(c.name.startswith("!") for c in self.cards):
            raise ValueError(f"a card name may not start with '!': {', '.join(c.name for c in self.cards)}")
        return self


def refusal(text: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        load_card_data(text, Deck)
    return refused.value.reason


def test_quote_clips_and_flattens() -> None:
    assert quote("a\n b") == "'a b'"
    assert quote("x" * 100, 10) == "'" + "x" * 9 + "…'"


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ('cards = []\ncolour = "red"', "there is no key 'colour'; the keys are style, cards"),
        ('cards = [{name = "a", rank = 2, x = 1}]', "there is no 'x' in cards.0; valid there: name, rank"),
        ('cards = [{name = "a", rank = 20}]', "cards.0.rank must be at most 14"),
        ('cards = [{name = "a", rank = "high"}]', "cards.0.rank must be a whole number"),
        ("cards = [{rank = 2}]", "cards.0.name is missing"),
        ('style = "shiny"\ncards = []', "style must be 'plain' or 'gilded'"),
        ("cards = 3", "cards must be a list"),
    ],
)
def test_card_file_refusals_are_in_our_words(toml: str, expected: str) -> None:
    reason = refusal(toml)
    assert reason == f"The deck file is not valid — {expected}."


def test_user_text_in_a_refusal_is_clipped() -> None:
    long_key = "k" * 2500
    assert len(refusal(f"cards = []\n{long_key} = 1")) < 200
    names = ", ".join(f'{{name = "!{"n" * 300}", rank = 2}}' for _ in range(10))
    assert len(refusal(f"cards = [{names}]")) < 300


def test_nesting_is_refused_in_one_sentence() -> None:
    assert refusal("cards = " + "[" * 2000 + "]" * 2000) == "The deck file is nested too deeply."
