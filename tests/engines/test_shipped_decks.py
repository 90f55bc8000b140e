"""A deck that ships with its game rides in a state as a reference, not as its
text: the state reads back to the very same deck, a state saved with the text
still reads (and is saved as a reference from then on), a custom deck still
travels whole, and a reference to a deck this release does not ship is refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from engines.card_data import CardData, decks_in_full, reference
from engines.core import Engine
from engines.scales_of_influence import ENGINE as SCALES
from engines.scales_of_influence.cards import builtin_deck as scales_deck
from engines.scales_of_influence.cards import earlier_decks as scales_earlier_decks
from engines.spheres_of_life import ENGINE as SPHERES
from engines.spheres_of_life import cards as spheres_cards
from engines.spheres_of_life import parse_deck
from engines.spheres_of_life.cards import builtin_deck as spheres_deck
from engines.time_masters import ENGINE as TIME_MASTERS
from engines.time_masters.cards import builtin_deck as time_masters_deck
from tests.engines.test_custom_decks import animals_deck

# Each shipped deck's reference, as the states saved by tables in play hold it.
# A change to a shipped deck's cards changes its reference, and every table
# dealt from the old deck could no longer be read: keep the old deck's data
# beside the new one and ship both (engines.card_data.ship) before changing this.
PINNED = {
    "spheres-of-life": "@baf189e319edfaec41d9a8a08a5f7ad886c98149",
    "scales-of-influence": "@2005868e81f7893658e7447d9b5798a5704f43da",
    "time-masters": "@e6aa43e803aeb2f450142689c4b55bf3697da0be",
}
# Decks of earlier releases, still shipped so that the tables dealt from them read back.
EARLIER = {"scales-of-influence": ["@1a2ae69e23a6c36ed9ce1b50c9b7efddb5f434e8"]}
# game, its engine, its shipped deck, the state field holding the deck, and the players to deal for.
SHIPPED: list[tuple[str, Engine[Any, Any], Callable[[], CardData], str, int]] = [
    ("spheres-of-life", SPHERES, spheres_deck, "deck_spec", 2),
    ("scales-of-influence", SCALES, scales_deck, "tarot", 3),
    ("time-masters", TIME_MASTERS, time_masters_deck, "deck_spec", 2),
]
CASES = pytest.mark.parametrize(
    ("game", "engine", "deck", "field", "players"), SHIPPED, ids=[case[0] for case in SHIPPED]
)


@CASES
def test_each_shipped_deck_keeps_its_pinned_reference(
    game: str, engine: Engine[Any, Any], deck: Callable[[], CardData], field: str, players: int
) -> None:
    assert reference(deck().stored()) == PINNED[game], (
        f"the shipped deck of {game} changed: tables in play refer to {PINNED[game]}; ship the old deck too"
    )


@CASES
def test_a_state_names_its_shipped_deck_and_reads_back_to_it(
    game: str, engine: Engine[Any, Any], deck: Callable[[], CardData], field: str, players: int
) -> None:
    state = engine.setup(players, engine.parse_options({}), seed=5)
    text = engine.dump_state(state)
    assert json.loads(text)[field] == PINNED[game]
    with decks_in_full():
        whole = engine.dump_state(state)
    assert len(text) * 2 < len(whole), "the deck was most of the state"
    loaded = engine.load_state(text)
    assert getattr(loaded, field) is deck() and loaded == state
    assert engine.dump_state(loaded) == text


@CASES
def test_a_state_saved_with_its_deck_written_out_reads_and_is_saved_by_reference(
    game: str, engine: Engine[Any, Any], deck: Callable[[], CardData], field: str, players: int
) -> None:
    state = engine.setup(players, engine.parse_options({}), seed=6)
    with decks_in_full():
        before = engine.dump_state(state)  # as every state was saved before references
    assert PINNED[game] not in before
    loaded = engine.load_state(before)
    assert getattr(loaded, field) is deck()
    assert json.loads(engine.dump_state(loaded))[field] == PINNED[game]
    with decks_in_full():
        assert engine.dump_state(loaded) == before, "written out in full, the state is as it was"


@CASES
def test_a_reference_to_a_deck_this_release_does_not_ship_is_refused(
    game: str, engine: Engine[Any, Any], deck: Callable[[], CardData], field: str, players: int
) -> None:
    saved = json.loads(engine.dump_state(engine.setup(players, engine.parse_options({}), seed=7)))
    for unknown in ("@" + "0" * 40, "@not-hex"):
        with pytest.raises(ValidationError, match="does not ship"):
            engine.load_state(json.dumps({**saved, field: unknown}))


def test_a_custom_deck_still_travels_whole_in_the_state() -> None:
    custom = parse_deck(animals_deck(12, copies=2))
    state = SPHERES.setup(2, SPHERES.parse_options({"deck": custom.model_dump(mode="json")}), seed=1)
    saved = json.loads(SPHERES.dump_state(state))
    assert json.loads(saved["deck_spec"])["animals"][0]["id"] == "a0"
    assert SPHERES.load_state(json.dumps(saved)).deck_spec == custom


def test_a_custom_deck_identical_to_the_shipped_one_is_stored_as_its_reference() -> None:
    same = parse_deck((Path(spheres_cards.__file__).parent / "cards.toml").read_text(encoding="utf-8"))
    assert same is not spheres_deck() and same == spheres_deck()
    options = SPHERES.parse_options({"deck": same.model_dump(mode="json")})
    assert options.deck is spheres_deck(), "the same cards are the shipped deck"
    assert json.loads(options.model_dump_json())["deck"] == PINNED["spheres-of-life"]


def test_a_table_dealt_from_an_earlier_shipped_deck_still_reads_back() -> None:
    # Scales of Influence's first tarot, before its Scale steps grew (RULES.md, Balance).
    [old] = scales_earlier_decks()
    assert [reference(old.stored())] == EARLIER["scales-of-influence"]
    saved = json.loads(SCALES.dump_state(SCALES.setup(3, SCALES.parse_options({}), seed=8)))
    loaded = SCALES.load_state(json.dumps({**saved, "tarot": EARLIER["scales-of-influence"][0]}))
    assert loaded.tarot is old and loaded.tarot != scales_deck()
    assert json.loads(SCALES.dump_state(loaded))["tarot"] == EARLIER["scales-of-influence"][0]
