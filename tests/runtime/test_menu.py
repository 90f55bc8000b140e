"""The step-by-step menu over legal choices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from bot.render.menu import MenuOption, format_path, level, narrow, parse_path, whole_move
from engines.core import Choice, Engine
from engines.registry import GAMES


def choice(key: str, *steps: str) -> Choice:
    return Choice(key=key, label=" ".join(steps), steps=list(steps), action={"k": key})


CHOICES = [
    choice("pass", "Pass"),
    choice("steal:1:0", "Steal", "Bob", "Card 1"),
    choice("steal:1:1", "Steal", "Bob", "Card 2"),
    choice("steal:2:0", "Steal", "Cid", "Card 1"),
    choice("gift:a:1", "Gift", "Rabbit", "Bob"),
]


def test_top_level_lists_distinct_first_steps_in_engine_order() -> None:
    top = level(CHOICES, [])
    assert [o.label for o in top] == ["Pass", "Steal", "Gift Rabbit Bob"]
    assert top[0].choice is not None and top[0].choice.key == "pass"
    assert top[1].choice is None


def test_walking_the_path_reaches_one_choice() -> None:
    assert [o.label for o in level(CHOICES, [1])] == ["Bob", "Steal Cid Card 1"]
    finals = level(CHOICES, [1, 0])
    assert [o.choice.key for o in finals if o.choice] == ["steal:1:0", "steal:1:1"]
    assert [o.label for o in finals] == ["Steal Bob Card 1", "Steal Bob Card 2"]
    assert [c.key for c in narrow(CHOICES, [1, 1])] == ["steal:2:0"]


def test_a_path_that_leads_nowhere_is_empty() -> None:
    assert narrow(CHOICES, [7]) == [] and level(CHOICES, [1, 5]) == []


def test_paths_round_trip_as_text() -> None:
    assert parse_path(format_path([1, 0, 12])) == [1, 0, 12] and parse_path("") == []


def test_a_label_that_leaves_out_its_group_is_led_by_it() -> None:
    rain = Choice(key="play:7:me", label="Cleansing Rain", steps=["Play ability", "Cleansing Rain"], action=7)
    bank = Choice(key="bank:fox", label="Bank a set of Foxes", steps=["Bank a set", "Foxes"], action=1)
    assert whole_move(rain) == "Play ability: Cleansing Rain"
    assert whole_move(bank) == "Bank a set of Foxes"
    druid = Choice(key="hero:druid", label="Choose Druid", steps=["Choose a Hero", "Druid"], action=2)
    assert whole_move(druid) == "Choose Druid"  # the group's verb is there: no need to repeat it
    assert [o.label for o in level([rain, bank, *CHOICES[1:4]], [])] == [
        "Play ability: Cleansing Rain",
        "Bank a set of Foxes",
        "Steal",
    ]


def _states(engine: Engine[Any, Any], players: int, seed: int, steps: int) -> Iterator[BaseModel]:
    """Every state of a random game, for as many steps."""
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    for _ in range(steps):
        if engine.result(state) is not None:
            return
        yield state
        movers = [
            (s, c)
            for s in sorted({p.seat for p in engine.prompts(state)})
            if (c := engine.legal_actions(state, s))
        ]
        seat, choices = rng.choice(movers)
        state = engine.apply(state, seat, rng.choice(choices).action).state


def _walk(choices: list[Choice], path: list[int]) -> Iterator[tuple[list[int], MenuOption]]:
    for option in level(choices, path):
        yield path, option
        if option.choice is None:
            yield from _walk(choices, [*path, option.index])


@pytest.mark.parametrize(
    ("game", "groups"),
    [
        ("spheres-of-life", ["Play ability: ", "Bank a set of "]),
        ("scales-of-influence", ["Channel: ", "Shooting Star: "]),
    ],
)
def test_every_option_of_a_real_game_that_makes_a_move_names_the_whole_move(
    game: str, groups: list[str]
) -> None:
    engine = GAMES[game]
    seen_beside_a_group: set[str] = set()
    for seed in (4, 5, 6):
        for state in _states(engine, engine.info.min_players + 1, seed, 400):
            for seat in {p.seat for p in engine.prompts(state)}:
                choices = engine.legal_actions(state, seat)
                for path, option in _walk(choices, []):
                    under = narrow(choices, [*path, option.index])
                    if option.choice is None:
                        assert len(under) > 1, f"{option.label!r} leads to one move without naming it"
                        continue
                    assert under == [option.choice]
                    # The whole move: the choice's own words and the group it was listed under.
                    assert option.choice.label in option.label
                    assert option.choice.steps[0].split()[0].casefold() in option.label.casefold()
                    if not path and len(option.choice.steps) > 1:
                        seen_beside_a_group.update(g for g in groups if option.label.startswith(g))
    assert seen_beside_a_group == set(groups), "the games offered one-choice groups of these kinds"
