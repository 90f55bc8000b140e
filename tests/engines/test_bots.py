"""The bots: they search samples, never the true state, and they beat random play."""

from __future__ import annotations

import dataclasses
import io
import math
import random
from typing import Any

import pytest

from benchmarks import bench_bots
from benchmarks.bench_bots import duel, share
from engines.ai import LEVELS, Level, choose, consider
from engines.ai.match import Unfinished, play_match
from engines.ai.search import playable
from engines.core import Engine, Result
from engines.registry import GAMES
from tests.engines.test_determinize import SAMPLED
from tests.engines.test_spheres_of_life_helpers import fresh, give, to_dream
from tests.engines.test_time_masters_helpers import new_game as tm_new_game
from tests.engines.test_time_masters_helpers import set_hand as tm_set_hand
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


# Time Masters' games are the longest: two of them keep the suite quick. Life
# is half dice and its bots answer with the table's odds (as at a table), so
# two games say little: four.
QUICK = {"spheres-of-life": 3, "scales-of-influence": 3, "time-masters": 2, "once-upon-a-time-life": 4}
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


# ----- moves that change nothing, and optional plays out of turn -----

# Short games: three Hemo to win; small decks and few rounds of Phase.
SHORT: dict[str, dict[str, Any]] = {
    "once-upon-a-time-life": {"hemo": 3},
    "phase": {"influence": 2, "deck_size": 15, "round_limit": 5},
}


def _few_iterations(level: Level) -> Level:
    """A level's own rollouts and exploration with a handful of iterations and
    no clock: the same choices on any machine, and quick enough for every game."""
    return dataclasses.replace(level, iterations=min(level.iterations, 4), budget_ms=math.inf)


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("key", sorted(GAMES))
def test_bots_at_every_level_finish_every_game_at_both_table_sizes(key: str, level: str) -> None:
    # Seat 0 plays at random, as a person would, so the bots both move when
    # waited for and weigh their optional plays; a bot that kept choosing a
    # move that changes nothing (reordering its hand) would never finish.
    engine = GAMES[key]
    for players in sorted({engine.info.min_players, engine.info.max_players}):
        bots = {seat: _few_iterations(LEVELS[level]) for seat in range(1, players)}
        for seed in range(2):
            match = play_match(engine, players, seed, bots, max_steps=5000, options=SHORT.get(key))
            assert match.result.ranking


@pytest.mark.slow
@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("key", sorted(GAMES))
def test_bots_at_every_full_level_finish_every_game(key: str, level: str) -> None:
    engine = GAMES[key]
    for players in sorted({engine.info.min_players, engine.info.max_players}):
        for seed in range(2):
            bots = {seat: LEVELS[level] for seat in range(players) if seat != seed % players}
            assert play_match(engine, players, seed, bots, max_steps=5000, options=SHORT.get(key)).result


@pytest.mark.parametrize("key", ["scales-of-influence", "spheres-of-life"])
def test_bots_alone_still_play_out_of_turn(key: str) -> None:
    # In a game of bots alone a bot is always waited for; were it to move at
    # once, as a table's own bot does, nobody would ever weigh an optional play
    # and the balance benchmark would measure a game without Abilities played
    # out of turn, Shooting Stars or the Shaman's power.
    engine = GAMES[key]
    bots = {seat: _few_iterations(LEVELS["easy"]) for seat in range(3)}
    matches = [play_match(engine, 3, seed, bots) for seed in range(2)]
    assert all(m.result.ranking for m in matches)
    assert sum(len(m.decisions.get("easy optional", [])) for m in matches) > 10
    assert sum(m.optional_plays for m in matches) > 0


def test_an_easy_bot_no_longer_swaps_its_cards_for_ever() -> None:
    # Spheres of Life, two players, an easy bot in seat 0: the bot used to
    # choose "swap two cards in my hand" again and again.
    engine = GAMES["spheres-of-life"]
    assert play_match(engine, 2, 0, {0: LEVELS["easy"]}).result.ranking


def test_a_bot_chooses_an_idle_move_only_when_nothing_else_is_legal() -> None:
    engine = GAMES["spheres-of-life"]
    state = engine.setup(2, engine.parse_options(), 3)
    seen = 0
    for step in range(400):
        if engine.result(state) is not None:
            break
        seat = next(p.seat for p in engine.prompts(state) if p.awaited)
        legal = engine.legal_actions(state, seat)
        choice = choose(engine, state, seat, LEVELS["easy"], step)
        if any(c.idle for c in legal):
            seen += 1
            assert not choice.idle or all(c.idle for c in legal)
        state = engine.apply(state, seat, choice.action).state
    assert seen, "no decision offered an idle move"


def _spheres_dream(bot_hand: list[str]) -> tuple[Any, int]:
    """A two-player Dream, seat 0 to act; seat 1 (the bot) holds Mirror Lake
    (swap hands with another player) and ``bot_hand``."""
    state = to_dream(fresh(2))
    give(state, 0, "noble-rabbit", "noble-owl", "corrupted-crow", "noble-fox", "morning-dew")
    (lake,) = give(state, 1, "mirror-lake")
    give(state, 1, *bot_hand)
    return state, lake


@pytest.mark.parametrize("seed", range(3))
def test_a_bot_swaps_a_bad_hand_out_of_turn(seed: int) -> None:
    engine = GAMES["spheres-of-life"]
    state, lake = _spheres_dream(["corrupted-snake"] * 3 + ["corrupted-rat"] * 2)
    assert [p.kind for p in engine.prompts(state) if p.seat == 1] == ["anytime"]
    played = consider(engine, state, 1, NORMAL, seed)
    assert played is not None and played.key == f"play:{lake}:0"


@pytest.mark.parametrize("seed", range(3))
def test_a_bot_keeps_a_good_hand_and_lets_the_game_go_on(seed: int) -> None:
    engine = GAMES["spheres-of-life"]
    state, _ = _spheres_dream(["noble-bear"] * 3 + ["noble-swan"] * 2)
    assert any(c.key.startswith("play:") for c in engine.legal_actions(state, 1))
    assert consider(engine, state, 1, NORMAL, seed) is None


def test_a_bot_with_no_optional_play_but_idle_ones_does_not_search() -> None:
    engine = GAMES["spheres-of-life"]
    state, lake = _spheres_dream(["noble-bear"] * 3)
    state.hands[1].remove(lake)
    state.discard.append(lake)
    assert all(c.idle for c in engine.legal_actions(state, 1))
    assert consider(engine, state, 1, NORMAL, 0) is None


# ----- Phase at three players: a simulated attack reaches its strike -----


def _phase_attack_step(players: int, seed: int) -> Any:
    """A random game of Phase at its first Attack step from round 3 on where the
    active player has a warrior free to strike."""
    engine = GAMES["phase"]
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    while engine.result(state) is None:
        if (
            state.step == "attack"
            and state.round_no >= 3
            and any(state.attack(c) > 0 for c in state.play[state.turn] if not state.is_locked(c))
        ):
            return state
        seat = engine.prompts(state)[0].seat
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action).state
    raise AssertionError("no Attack step with a warrior free to strike")


@pytest.mark.parametrize("seed", range(5))
def test_phase_a_bot_at_three_players_attacks_a_nexus_nobody_can_defend(seed: int) -> None:
    # Round 3, three players: seat 2 has Burnt Guard (2 evil) in play and every
    # warrior of the others is locked, so nobody can oppose it and an attack
    # takes 2 evil influence from the Nexus for nothing. When every pass of the
    # three-player action rounds counted toward the rollout depth, the simulated
    # attack ended before the strike, training looked better, and the bot
    # declined this attack in every one of these searches.
    engine = GAMES["phase"]
    state = _phase_attack_step(3, 0)
    seat = state.turn
    for other in state.others(seat):
        state.locked += [c for c in state.play[other] if c not in state.locked]
    assert [state.name(c) for c in state.play[seat] if state.attack(c) > 0] == ["Burnt Guard"]
    assert state.nexus[1] > 0
    assert choose(engine, state, seat, NORMAL, seed).key == "attack"


def test_phase_passes_and_cost_steps_do_not_count_toward_the_rollout_depth() -> None:
    engine = GAMES["phase"]
    state = _phase_attack_step(3, 0)
    counted = {c.key: engine.counts_in_rollout(c) for c in engine.legal_actions(state, state.turn)}
    assert counted == {"attack": True, "no-attack": True}
    state = engine.apply(state, state.turn, {"type": "attack", "attack": True}).state
    assert state.round is not None  # Maneuvering: an action round
    passing = [c for c in engine.legal_actions(state, state.round.seat) if c.key == "pass"]
    assert passing and not engine.counts_in_rollout(passing[0])


def test_the_benchmark_counts_a_tied_win_as_a_share_and_a_team_win_whole() -> None:
    # A 3-way tie once counted as a whole win for each tied seat, so a bot and
    # the all-random baseline could both exceed their fair share together.
    tie = Result(ranking=[[0, 2], [1]])
    assert [share(tie, s) for s in range(3)] == [0.5, 0.0, 0.5]
    team = Result(ranking=[[1, 3], [0, 2]], teams={"a": [1, 3], "b": [0, 2]})
    assert [share(team, s) for s in range(4)] == [0.0, 1.0, 0.0, 1.0]


def test_a_benchmark_run_split_by_first_seed_adds_up_to_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # A thousand games take hours on a small machine: runs on disjoint seeds add
    # up, and a long run tells its wins so far as it goes.
    monkeypatch.setattr(bench_bots, "PROGRESS_EVERY", 2)
    engine, easy, told = GAMES["spheres-of-life"], LEVELS["easy"], io.StringIO()
    whole = duel(engine, 2, 4, easy, None, progress=told)
    first, second = duel(engine, 2, 2, easy, None), duel(engine, 2, 2, easy, None, first=2)
    assert (first[0] + second[0], first[1] + second[1]) == whole[:2]
    assert len(first[2]["easy"]) + len(second[2]["easy"]) == len(whole[2]["easy"])
    assert told.getvalue() == f"  ... easy wins {first[0]:g}/2 (seeds 0-1)\n"


def test_a_benchmark_game_that_never_ends_is_told_and_loses_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    real = bench_bots.play_match

    def play_match(engine: Engine[Any, Any], players: int, seed: int, bots: Any) -> Any:
        if seed == 1:
            raise Unfinished("game did not end within 20000 steps")
        return real(engine, players, seed, bots)

    monkeypatch.setattr(bench_bots, "play_match", play_match)
    wins, _, decisions = duel(GAMES["spheres-of-life"], 2, 3, LEVELS["easy"], None)
    assert decisions["unfinished"] == [1.0] and len(decisions["easy"]) > 0
    assert wins <= 2, "a game that never ended is no win"
    assert bench_bots.unfinished(decisions) == "; 1 never ended (seeds 1)"


def test_the_easy_bot_casts_and_buys() -> None:
    # Time Masters' cut-off score counts the access points still to spend: on
    # knowledge and Kè alone a cast only cost Kè, and the easy bot (which scores
    # each move at once) rested every turn, so a game against a stuck player
    # (all its spells on timers that can no longer fill) never ended.
    engine = GAMES["time-masters"]
    state = tm_new_game(2, seed=5)
    seat = state.turn
    tm_set_hand(state, seat, "spark", "spark", "spark", "breath", "breath")
    assert state.phase == "main" and state.ke[seat] == state.options.ke
    assert choose(engine, state, seat, LEVELS["easy"], "easy").key.startswith("cast:")
    match = play_match(engine, 2, 51, {1: LEVELS["easy"]})  # a seed that never ended
    assert match.result.winners == [1]
