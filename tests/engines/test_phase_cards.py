"""The card data: the built-in set, the rulebook's cards, custom deck files and their refusals."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engines.core import IllegalAction
from engines.phase import parse_deck
from engines.phase.cards import FACTIONS, builtin_deck
from tests.engines.test_phase_helpers import CUSTOM, ENGINE, new_game, options

CARDS = Path(__file__).parents[2] / "engines" / "phase" / "cards.toml"
RULEBOOK = {
    "Chained Horror",
    "The Flying Death",
    "Squeezle",
    "Gladiator",
    "Scout",
    "Berserker",
    "Nighthawk",
    "Sister Alexis",
    "Pennaggolan",
    "The Cognet",
    "The Undying",
    "Trivet",
    "Anonymous",
    "Caelistra",
    "No-Ne Chim 3",
    "Ted",
    "Necromancer",
    "Fire Spirit",
}


def test_the_builtin_set_has_three_factions_of_100_double_sided_cards() -> None:
    deck = builtin_deck()
    assert [deck.pool_size(f) for f in FACTIONS] == [100, 100, 100]
    for card in deck.cards:
        assert {s.alignment for s in card.sides} == {"good", "evil"}, card.id


def test_every_card_the_rulebook_names_is_marked_as_the_rulebooks() -> None:
    deck = builtin_deck()
    marked = {s.title for c in deck.cards if c.origin == "rulebook" for s in c.sides}
    assert marked >= RULEBOOK
    flying = deck.card("flying-death")
    assert [s.title for s in flying.sides] == ["The Flying Death", "Squeezle"]
    assert "swift" in flying.sides[1].flags
    assert [s.title for s in deck.card("berserker").sides] == ["Berserker", "Nighthawk"]


def test_card_text_is_written_from_the_effects() -> None:
    deck = builtin_deck()
    death = deck.card("flying-death").sides[0]
    assert death.text() == (
        "The Flying Death (evil, cost 3, 2/4) · Skill — lose 1 good influence: this warrior gets +2/+1. · "
        "Order — Choose 1 attacking warrior: the chosen warrior gets +2/+0 (+4/+0 instead if it is opposing "
        "a warrior)."
    )
    order = deck.card("caelistra").sides[0].order
    assert order is not None and order.text() == "lock X: choose X warriors: phase the chosen warriors."


def test_a_custom_deck_file_plays_and_each_seat_gets_its_faction() -> None:
    state = new_game(2, deck=tomllib.loads(CUSTOM), deck_size=16, factions=["keeper", "fengarian"])
    assert state.factions == ["keeper", "fengarian"]
    assert {state.cards[c] for c in state.decks[0] + state.hands[0]} <= {"twin-a", "twin-b"}
    assert state.options.deck is None and state.custom is not None, "the set is kept once"
    with pytest.raises(IllegalAction, match="one faction per player"):
        new_game(3, factions=["keeper"])


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'alignment = "good", cost = 2, attack = 2, defense = 3',
            'alignment = "evil", cost = 2, attack = 2, defense = 3',
            "one good side and one evil side",
        ),
        ('id = "scout"', 'id = "gladiator"', "unique"),
        ("copies = 10", "copies = 40", "must be at most 30"),
        ('[{ do = "damage" }]', '[{ do = "damage", target = "you" }]', "acts on a warrior"),
        ("{ phase = 3, effects", "{ phase = 3, choose = 1, effects", "needs an effect on the chosen"),
    ],
)
def test_a_bad_deck_is_refused_in_one_sentence(old: str, new: str, message: str) -> None:
    text = CARDS.read_text()
    assert old in text
    with pytest.raises(IllegalAction, match=message) as refused:
        parse_deck(text.replace(old, new, 1))
    assert "\n" not in refused.value.reason


def test_a_bad_deck_given_as_a_table_option_is_refused_in_one_sentence() -> None:
    data = tomllib.loads(CUSTOM)
    data["cards"][0]["sides"][1]["alignment"] = "good"
    with pytest.raises(IllegalAction, match="Bad option") as refused:
        ENGINE.parse_options({"deck": data})
    assert "\n" not in refused.value.reason


def test_options_and_presets() -> None:
    assert options(influence=3).influence == 3
    with pytest.raises(IllegalAction):
        ENGINE.parse_options({"influence": 20})
    short = ENGINE.parse_options({"preset": "short"})
    assert (short.influence, short.deck_size, short.round_limit) == (3, 20, 5)  # type: ignore[attr-defined]
    assert ENGINE.seat_range(options()) == (2, 3)
