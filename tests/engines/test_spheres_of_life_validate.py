"""Refused moves explain themselves; timeouts pick safe moves."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import IllegalAction, NotYourTurn
from engines.spheres_of_life import ENGINE
from engines.spheres_of_life.actions import Steal
from tests.engines.test_spheres_of_life_helpers import fresh, give, to_dream


@pytest.mark.parametrize(
    "move, words",
    [
        ({"type": "steal", "target": 0}, "another player"),
        ({"type": "steal", "target": 9}, "another player"),
        ({"type": "steal", "target": 2}, "no card to steal"),
        ({"type": "steal", "target": 1, "card": 5}, "only a card you have been shown"),
        ({"type": "gift", "card": 3, "target": 1}, "do not hold"),
        ({"type": "discard", "card": 3}, "do not hold"),
        ({"type": "pick", "card": 3}, "not on the table"),
        ({"type": "play", "card": 999}, "no such card"),
        ({"type": "want", "wanted": "dragon"}, "no such card"),
        ({"type": "fly"}, "not a move"),
        ({"type": "steal", "card": 1}, "not a move"),
    ],
)
def test_refusals_say_why(move: dict[str, Any], words: str) -> None:
    state = to_dream(fresh(3))
    give(state, 0, "noble-rabbit")
    give(state, 1, "noble-deer")
    with pytest.raises(IllegalAction, match=words):
        ENGINE.apply(state, 0, move)


def test_out_of_turn_and_ability_outside_a_dream() -> None:
    chosen = ENGINE.apply(
        ENGINE.setup(2, ENGINE.parse_options(), seed=1), 0, {"type": "choose_hero", "hero": "druid"}
    ).state
    with pytest.raises(NotYourTurn):
        ENGINE.apply(chosen, 0, {"type": "choose_hero", "hero": "oracle"})
    state = to_dream(fresh(3))
    give(state, 1, "noble-deer")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "steal", "target": 0})
    state.stage, state.dream = "day", None
    state.queue = [0, 1, 2]
    state.table = [state.deck.pop() for _ in range(3)]
    (dew,) = give(state, 1, "morning-dew")
    with pytest.raises(IllegalAction, match="only during a Dream"):
        ENGINE.apply(state, 1, {"type": "play", "card": dew})


def test_timeout_in_a_dream_steals_from_the_next_player() -> None:
    state = to_dream(fresh(3), leader=1)
    give(state, 0, "noble-rabbit")
    give(state, 2, "noble-deer", "noble-owl")
    assert ENGINE.default_action(state, 1) == Steal(target=2)


def test_random_moves_are_either_played_or_refused_with_a_sentence() -> None:
    import random

    from engines.core import Transition
    from engines.playout import playout
    from tests.engines.test_spheres_of_life_helpers import options

    seen: list[Any] = []
    playout(ENGINE, 3, options(), seed=8, after_step=lambda p, t: seen.append(t.state))
    rng = random.Random(0)
    fields = {
        "choose_hero": ["hero"],
        "throw": ["shape"],
        "pick": ["card"],
        "discard": ["card"],
        "done": [],
        "bank": ["animal"],
        "steal": ["target", "card"],
        "gift": ["card", "target"],
        "offer": ["card"],
        "want": ["wanted"],
        "cancel": [],
        "accept": [],
        "decline": [],
        "play": ["card", "target"],
        "block": ["card"],
        "pass": [],
        "reorder": ["position"],
        "peek": ["position"],
        "place": ["card"],
        "take": ["card"],
    }
    played = 0
    for state in seen[::5]:
        for _ in range(30):
            kind = rng.choice(sorted(fields))
            values = {
                "card": rng.randint(-3, 80),
                "target": rng.randint(-1, 4),
                "position": rng.randint(-1, 12),
                "hero": rng.choice(["druid", "x"]),
                "shape": rng.choice(["rock", "lizard"]),
                "animal": rng.choice(["noble-rabbit", "zebra"]),
                "wanted": rng.choice(["noble-deer", "?"]),
            }
            move = {"type": kind, **{f: values[f] for f in fields[kind]}}
            seat = rng.randint(0, 2)
            try:
                assert isinstance(ENGINE.apply(state, seat, move), Transition)
                played += 1
            except IllegalAction as error:
                assert error.reason.endswith(".")
    assert played > 0
