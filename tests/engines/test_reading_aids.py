"""The reading aids of the engine contract: card text on choices, the deck's
cards for /card, the rules in sections and the recap at the end — for both
landed games and, by default, for a game that implements none of them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engines.core import SEAT_REF, Choice, Engine, rules_sections_from, seat_ref
from engines.playout import playout
from engines.registry import GAMES
from engines.scales_of_influence.choices import resolve_choices
from engines.scales_of_influence.state import Effect
from engines.spheres_of_life.actions import Steal
from engines.spheres_of_life.reading import add_details
from engines.spheres_of_life.scoring import score
from engines.words import plural
from tests.support.minigame import HIGH_CARD

SOL: Engine[Any, Any] = GAMES["spheres-of-life"]
SOI: Engine[Any, Any] = GAMES["scales-of-influence"]
SOL_DECK = Path(__file__).parents[2] / "engines" / "spheres_of_life" / "cards.toml"
SOI_DECK = Path(__file__).parents[2] / "engines" / "scales_of_influence" / "cards.toml"


def test_the_hero_menu_carries_each_heros_text() -> None:
    state = SOL.setup(3, SOL.parse_options({}), 5)
    heroes = SOL.legal_actions(state, 0)
    assert heroes and all(c.label.startswith("Choose ") for c in heroes)
    windmaster = next(c for c in heroes if c.label == "Choose Windmaster")
    assert windmaster.detail == "You begin the first Day, Night and Dream. Once per game."


def test_a_random_steal_carries_no_text_and_a_seen_card_its_own() -> None:
    state = SOL.setup(3, SOL.parse_options({}), 1)
    apple = next(i for i, kind in enumerate(state.cards) if kind == "apple-of-life")
    random_steal, seen = add_details(
        state,
        [
            Choice(key="steal:1", label="Steal", steps=["Steal"], action=Steal(target=1)),
            Choice(
                key=f"steal:1:{apple}", label="Steal", steps=["Steal"], action=Steal(target=1, card=apple)
            ),
        ],
    )
    assert random_steal.detail == ""
    assert seen.detail.startswith("Block: cancel an Ability or Hero just played")


def test_scales_labels_say_what_a_resolution_does() -> None:
    state = SOI.setup(4, SOI.parse_options({}), 5)
    chariot = next(i for i, c in enumerate(state.tarot.cards) if c.name == "The Chariot")
    labels = [c.label for c in resolve_choices(state, Effect(card=chariot, owner=0, origin="star"))]
    assert labels == [
        "Resolve 🌠7 The Chariot: Move 2 Energy from Shadow to Light.",
        "Resolve 🌠7 The Chariot: Move 2 Energy from Light to Shadow.",
    ]
    for index, spec in enumerate(state.tarot.cards):
        for choice in resolve_choices(state, Effect(card=index, owner=0, origin="reading")):
            assert "·" not in choice.label
            assert len(SEAT_REF.sub("x" * 24, choice.label)) <= 80, choice.label
            target, side = choice.action.target, choice.action.side
            assert choice.detail == spec.ability(None if target is None else seat_ref(target), side)
            if side is not None:
                assert side.capitalize() in choice.label
            if target is not None:
                assert seat_ref(target) in choice.label


def test_cards_come_from_the_tables_own_deck() -> None:
    text = SOL_DECK.read_text().replace('name = "Noble Rabbit"', 'name = "Noble Hare"')
    custom = SOL.parse_options({"deck": tomllib.loads(text)})
    names = {c.name for c in SOL.cards(custom)}
    assert "Noble Hare" in names and "Noble Rabbit" not in names
    assert "Noble Rabbit" in {c.name for c in SOL.cards(SOL.parse_options({}))}
    tarot = tomllib.loads(SOI_DECK.read_text().replace('name = "The Chariot"', 'name = "The Cart"'))
    cart = next(c for c in SOI.cards(SOI.parse_options({"deck": tarot})) if c.name == "The Cart")
    assert cart.kind == "Shooting Star"
    assert cart.text == "Move 2 Energy from one side of the Scale to the other."
    assert cart.facts == {"element": "spirit", "rank": "7"}


@pytest.mark.parametrize("engine", [SOL, SOI, GAMES["time-masters"]], ids=lambda e: e.info.key)
def test_rules_come_in_sections_with_the_games_decisions(engine: Engine[Any, Any]) -> None:
    sections = engine.rules_sections()
    keys = [s.key for s in sections]
    assert keys[:4] == ["setup", "turn", "scoring", "variants"]
    decisions = [s for s in sections if s.decision]
    assert decisions and all(s.key.startswith("decisions-") and len(s.key) <= 48 for s in decisions)
    assert all(s.text for s in sections)
    for proof in ("test_", "::", "tests/", "| "):
        assert all(proof not in s.text for s in sections), f"players read rulings, not their proofs ({proof})"
    assert len(set(keys)) == len(keys)


def test_a_game_without_rules_files_shows_its_help(tmp_path: Path) -> None:
    [overview] = HIGH_CARD.rules_sections()
    assert overview.key == "overview" and overview.text == (HIGH_CARD.info.help or HIGH_CARD.info.summary)
    assert rules_sections_from(tmp_path) == []
    assert HIGH_CARD.cards(HIGH_CARD.parse_options({})) == []


@pytest.mark.parametrize("seed", [2, 9])
def test_spheres_recap_adds_up_to_each_score(seed: int) -> None:
    state, result = playout(SOL, 3, seed=seed)
    recap = SOL.recap(state)
    assert [s.seat for s in recap.seats] == [0, 1, 2]
    for seat in recap.seats:
        points = [int(line.rsplit(": ", 1)[1]) for line in seat.lines if not line.startswith("Total")]
        assert sum(points) == score(state, seat.seat) == result.scores[seat.seat]
        assert f"Total: {score(state, seat.seat):+d}" in seat.lines[-1]
        hand = state.hands[seat.seat]  # type: ignore[attr-defined]
        assert [h for h in seat.held if "(Hero" not in h] == [state.name(c) for c in hand]  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [3, 4])
def test_scales_recap_reveals_alignments_and_the_scale_day_by_day(seed: int) -> None:
    state, result = playout(SOI, 4, seed=seed)
    recap = SOI.recap(state)
    alignments = state.alignments  # type: ignore[attr-defined]
    for seat in recap.seats:
        assert seat.lines[0].split(" — ")[0] == alignments[seat.seat].capitalize()
        assert ("won" in seat.lines[0]) == (seat.seat in result.winners)
    days = state.days  # type: ignore[attr-defined]
    assert [line.split(":")[0] for line in recap.history[: len(days)]] == [f"Day {d.day}" for d in days]
    assert days == sorted(days, key=lambda d: d.day)
    final = state.scale  # type: ignore[attr-defined]
    assert f"Shadow {final['shadow']} · Light {final['light']}" in recap.history[-1]  # the final Scale


def test_time_masters_choices_name_their_cards_text() -> None:
    engine: Engine[Any, Any] = GAMES["time-masters"]
    state = engine.setup(2, engine.parse_options({}), 3)
    found = {c.label: c.detail for c in engine.legal_actions(state, state.turn)}
    assert found["Play the focus Breath"] == "Focus, level 0: Recover 2 Kè."
    assert found["Go on to buying from the spheres"] == ""
    cards = {c.name: c for c in engine.cards(engine.parse_options({}))}
    assert cards["Breath"].kind == "Focus, level 0" and cards["Breath"].text == "Recover 2 Kè."


def test_time_masters_recap_adds_up_to_each_players_knowledge() -> None:
    engine: Engine[Any, Any] = GAMES["time-masters"]
    state, result = playout(engine, 3, seed=2)
    for seat in engine.recap(state).seats:
        spheres = [int(line.rsplit("+", 1)[1]) for line in seat.lines if line.startswith("Sphere")]
        assert sum(spheres) == result.scores[seat.seat]
        assert f"Knowledge: {plural(result.scores[seat.seat], 'point')} from" in seat.lines[-1]
        assert len([h for h in seat.held if " (on " not in h]) == len(state.hands[seat.seat])  # type: ignore[attr-defined]


def test_a_ruling_loses_the_sentences_that_name_its_tests_whole() -> None:
    from engines.rules_text import _plain_ruling

    text = "A ruling. Proved in `tests/engines/test_x.py`. Next ruling. See `test_y.py::test_z`."
    assert _plain_ruling(text) == "A ruling. Next ruling."
