"""Custom decks in options and states: validated once per distinct deck,
stored as text, and refused in a sentence when too large."""

from __future__ import annotations

import json

import pytest

from engines.card_data import decks_in_full
from engines.core import IllegalAction
from engines.scales_of_influence import ENGINE as SCALES
from engines.scales_of_influence.cards import BUILTIN_DECK
from engines.spheres_of_life import ENGINE as SPHERES
from engines.spheres_of_life import parse_deck
from engines.spheres_of_life.cards import MAX_CARDS, builtin_deck


def animals_deck(kinds: int, copies: int = 1) -> str:
    heroes = "".join(
        f'[[heroes]]\nid = "h{n}"\nname = "H{n}"\ntext = "Go."\nsteps = [{{ do = "draw" }}]\n' for n in (1, 2)
    )
    return heroes + "".join(
        f'[[animals]]\nid = "a{n}"\nname = "A{n}"\nside = "noble"\ncopies = {copies}\n' for n in range(kinds)
    )


def test_a_deck_is_validated_once_however_often_a_table_reads_it() -> None:
    options = SPHERES.parse_options({"deck": parse_deck(animals_deck(300)).model_dump(mode="json")})
    stored = options.model_dump(mode="json")
    assert isinstance(stored["deck"], str), "a deck is stored as its text"
    again = SPHERES.parse_options(json.loads(json.dumps(stored)))
    assert again.deck is options.deck, "the same text gives the deck already validated"
    state = SPHERES.setup(2, options, seed=1)
    loaded = SPHERES.load_state(SPHERES.dump_state(state))
    assert loaded.deck_spec is options.deck and loaded == state


def test_a_state_saved_with_the_deck_as_data_still_loads() -> None:
    state = SCALES.setup(3, SCALES.parse_options({}), seed=2)
    with decks_in_full():
        saved = json.loads(SCALES.dump_state(state))
        old = json.loads(SPHERES.dump_state(SPHERES.setup(2, SPHERES.parse_options({}), seed=3)))
    saved["tarot"] = json.loads(saved["tarot"])  # as states were saved before decks were text
    assert SCALES.load_state(json.dumps(saved)).tarot == BUILTIN_DECK
    old["deck_spec"] = json.loads(old["deck_spec"])
    assert SPHERES.load_state(json.dumps(old)).deck_spec == builtin_deck()


def test_a_deck_of_more_cards_than_allowed_is_refused_in_a_sentence() -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_deck(animals_deck(556, copies=9))
    assert refused.value.reason == (
        "The deck file is not valid — "
        f"a deck holds at most {MAX_CARDS} cards with copies (this one has 5006)."
    )
