"""The card data: the built-in set, custom deck files, and their refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core import IllegalAction
from engines.time_masters import parse_deck
from engines.time_masters.cards import builtin_deck
from tests.engines.test_time_masters_helpers import ENGINE, new_game, options

CARDS = Path(__file__).parents[2] / "engines" / "time_masters" / "cards.toml"


def test_the_builtin_set() -> None:
    deck = builtin_deck()
    starting = deck.pile(0)
    assert sum(c.copies for c in starting) == 10 and all(c.level == 0 for c in starting)
    assert [sum(c.copies for c in deck.pile(level)) for level in range(1, 6)] == [12, 10, 8, 7, 6]
    for card in deck.cards:
        assert card.rules_text and len(card.rules_text) <= 100, card.id
        if card.kind == "spell":
            assert 0 <= card.cost <= 4


def test_card_text_is_written_from_the_effects() -> None:
    deck = builtin_deck()
    assert deck.card("echo").rules_text == "+1 access point. Draw 1 card."
    assert deck.card("sand-glass").rules_text == "Holds 3 spells to cast later."
    assert deck.card("spark").rules_text == "A spell: it counts toward your access points."


def test_a_custom_deck_plays() -> None:
    text = CARDS.read_text().replace('name = "Spark"', 'name = "Ember"')
    deck = parse_deck(text)
    state = ENGINE.setup(2, options(deck=deck), 1)
    assert "Ember" in {state.name(c) for c in state.hands[0] + state.decks[0]}
    assert state.options.deck is None, "the deck is kept once, in deck_spec"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ([("level = 5", "level = 4", -1)], "sphere 5 has no cards"),
        ([('id = "echo"', 'id = "spark"', 1)], "unique"),
        ([('kind = "timer"\nlevel = 0\ncapacity = 2', 'kind = "timer"\nlevel = 0', 1)], "timer holds"),
        ([("copies = 5", "copies = 1", 1), ("copies = 3", "copies = 1", 1)], "starting deck"),
    ],
)
def test_a_bad_deck_is_refused_in_one_sentence(change: list[tuple[str, str, int]], message: str) -> None:
    text = CARDS.read_text()
    for old, new, count in change:
        assert old in text
        text = text.replace(old, new, count)
    with pytest.raises(IllegalAction, match=message) as refused:
        parse_deck(text)
    assert "\n" not in refused.value.reason


def test_options_and_presets() -> None:
    assert new_game(2, hand_limit=6).options.hand_limit == 6
    with pytest.raises(IllegalAction):
        ENGINE.parse_options({"hand_limit": 2})
    assert ENGINE.parse_options({"preset": "quick"}).hand_limit == 6  # type: ignore[attr-defined]
