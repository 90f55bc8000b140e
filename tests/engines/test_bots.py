"""The bots: they search samples, never the true state, and they beat random play."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import pytest

from engines.ai import LEVELS, choose
from engines.ai.match import play_match
from engines.ai.search import playable
from engines.core import Engine
from engines.registry import GAMES
from tests.engines.test_determinize import SAMPLED
from tests.support.minigame import HIGH_CARD

# The normal bot's search without its clock: the iteration count alone decides,
# so the same seeds give the same moves and games on a loaded machine too.
NORMAL = dataclasses.replace(LEVELS["normal"], budget_ms=math.inf)


def _decision_points(engine: Engine[Any, Any], players: int, seed: int, count: int) -> list[tuple[Any, int]]:
    """States of a random game where a seat has a real choice to make."""
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    found: list[tuple[Any, int]] = []
    while engine.result(state) is None and len(found) < count:
        awaited = {p.seat for p in engine.prompts(state) if p.awaited}
        movers = sorted(s for s in awaited if engine.legal_actions(state, s))
        seat = rng.choice(movers)
        legal = engine.legal_actions(state, seat)
        if len(playable(engine, state, seat, legal)) > 2 and rng.random() < 0.3:
            found.append((state, seat))
        state = engine.apply(state, seat, rng.choice(legal).action).state
    return found


@pytest.mark.parametrize("key", sorted(SAMPLED))
def test_the_choice_is_the_same_for_true_states_the_seat_cannot_tell_apart(key: str) -> None:
    engine = GAMES[key]
    players = engine.info.min_players + 1
    differed = 0
    for state, seat in _decision_points(engine, players, seed=11, count=4):
        twin = engine.determinize(state, seat, random.Random(99))  # another true state, same view
        assert engine.view(twin, seat) == engine.view(state, seat)
        differed += twin.model_dump(exclude={"rng"}) != state.model_dump(exclude={"rng"})
        assert choose(engine, state, seat, NORMAL, "s").key == choose(engine, twin, seat, NORMAL, "s").key
    assert differed, "the twins never differed in what the seat cannot see"


def test_a_game_that_cannot_be_sampled_is_played_at_random_not_searched() -> None:
    # High Card hides hands but does not implement determinize: the bot must not
    # look at the true state, so it picks among the legal moves by its seed alone.
    state = HIGH_CARD.setup(3, HIGH_CARD.parse_options(), 5)
    seat = HIGH_CARD.prompts(state)[0].seat
    legal = HIGH_CARD.legal_actions(state, seat)
    picked = choose(HIGH_CARD, state, seat, LEVELS["hard"], "x")
    assert picked.key == random.Random("x").choice(legal).key




def _wins(key: str, players: int, games: int) -> int:
    """The normal bot's wins, in a different seat each game, against random
    players; the tests want at least twice its fair share."""
    engine = GAMES[key]
    wins = 0
    for seed in range(games):
        bot = seed % players
        wins += bot in play_match(engine, players, seed, {bot: NORMAL}).result.winners
    return wins


# Time Masters' and Life's games are the longest: two of them keep the suite quick.
QUICK = {"spheres-of-life": 3, "scales-of-influence": 3, "time-masters": 2, "once-upon-a-time-life": 2}
# A searched game of Phase lasts minutes: benchmarks/bench_bots.py gives its
# figures, and the slow test below still plays it.
LONG = {"phase"}


@pytest.mark.parametrize("key", sorted(set(SAMPLED) - LONG))
def test_the_normal_bot_beats_random_players(key: str) -> None:
    games = QUICK.get(key, 3)
    assert _wins(key, 3, games) >= math.ceil(2 * games / 3)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SAMPLED))
def test_the_normal_bot_beats_random_players_over_more_games(key: str) -> None:
    assert _wins(key, 3, 12) >= 8
