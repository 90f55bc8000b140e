"""Each game's quick moves for the bots' simulated games: always one of the
offered choices, whole games end with them, and in a small situation the
move is the one the rulebook makes obviously right."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engines.core import Choice, Engine
from engines.phase import skirmish
from engines.phase.state import KINDS, PhState
from engines.registry import GAMES
from engines.scales_of_influence.state import Giving, SoiState
from engines.spheres_of_life.state import SolState

HEURISTIC = sorted(
    key for key, engine in GAMES.items() if type(engine).rollout_choice is not Engine.rollout_choice
)
CASES = [
    (key, n) for key in HEURISTIC for n in sorted({GAMES[key].info.min_players, GAMES[key].info.max_players})
]


def _mover(engine: Engine[Any, Any], state: Any, rng: random.Random) -> tuple[int, list[Choice]]:
    """A seat the game waits for (else one with an optional play), as in a search's quick game."""
    prompts = engine.prompts(state)
    for awaited in (True, False):
        seats = sorted({p.seat for p in prompts if p.awaited == awaited})
        rng.shuffle(seats)
        for seat in seats:
            choices = engine.legal_actions(state, seat)
            if choices:
                return seat, choices
    raise AssertionError("nobody can move and the game is not over")


def test_every_game_has_its_own_quick_moves() -> None:
    assert set(HEURISTIC) == set(GAMES)


@pytest.mark.parametrize(("key", "players"), CASES)
def test_the_quick_move_is_always_an_offered_choice_and_games_end(key: str, players: int) -> None:
    engine = GAMES[key]
    for seed in range(2):
        rng = random.Random(seed)
        state = engine.setup(players, engine.parse_options(), seed)
        for _ in range(3000):
            if engine.result(state) is not None:
                break
            seat, choices = _mover(engine, state, rng)
            picked = engine.rollout_choice(state, seat, choices, rng)
            assert any(picked is c for c in choices)
            assert not picked.key.startswith("reorder"), "an idle move"
            engine.apply(state, seat, picked.action, in_place=True)
        assert engine.result(state) is not None, f"{key} seed {seed}: no end within 3000 quick moves"


def _random_until(
    engine: Engine[Any, Any],
    players: int,
    seed: int,
    wanted: Callable[[Any], int | None],
) -> tuple[Any, int]:
    """A random game up to a state where ``wanted`` names the seat to test."""
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    for _ in range(5000):
        seat = wanted(state)
        if seat is not None:
            return state, seat
        if engine.result(state) is not None:
            state = engine.setup(players, engine.parse_options(), seed := seed + 1)
            continue
        mover, choices = _mover(engine, state, rng)
        engine.apply(state, mover, rng.choice(choices).action, in_place=True)
    raise AssertionError("the situation never came up")


def _quick_key(engine: Engine[Any, Any], state: Any, seat: int, seed: int = 0) -> str:
    choices = engine.legal_actions(state, seat)
    return engine.rollout_choice(state, seat, choices, random.Random(seed)).key


# ----- Scales of Influence: a seat never pushes the other alignment's side -----


@pytest.mark.parametrize(
    ("alignment", "expected"),
    [
        ("shadow", "token:+3:shadow"),
        ("light", "token:+3:light"),
        # Shadow leads by 3: Harmony levels the Scale with +3 for Light.
        ("harmony", "token:+3:light"),
    ],
)
def test_scales_a_giver_helps_its_own_alignment(alignment: str, expected: str) -> None:
    engine = GAMES["scales-of-influence"]

    def giving(state: SoiState) -> int | None:
        top = state.stack[-1] if state.stack else None
        return top.seat if isinstance(top, Giving) else None

    state, seat = _random_until(engine, 3, 3, giving)
    top = state.stack[-1]
    assert isinstance(top, Giving)
    top.drawn = [3, -2]
    state.alignments[seat] = alignment
    state.scale = {"shadow": 4, "light": 1}
    state.bags = {"shadow": [], "light": []}
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) == expected


# ----- Spheres of Life: gather Noble sets, leave Corrupted animals, never shuffle one's hand -----


def test_spheres_a_day_pick_completes_a_noble_set_and_is_never_a_reorder() -> None:
    engine = GAMES["spheres-of-life"]

    def day_turn(state: SolState) -> int | None:
        if state.stage != "day" or state.pending is not None or len(state.table) < 2:
            return None
        return next((p.seat for p in engine.prompts(state) if p.kind == "turn"), None)

    state, seat = _random_until(engine, 3, 5, day_turn)
    animals = state.deck_spec.animals
    noble, other = [a.id for a in animals if a.side == "noble"][:2]
    corrupted = next(a.id for a in animals if a.side == "corrupted")
    assert len(state.hands[seat]) >= 2
    for card in state.hands[seat]:
        state.cards[card] = other
    first, second = state.hands[seat][:2]
    state.cards[first] = state.cards[second] = noble
    good, bad, *rest = state.table
    state.cards[good], state.cards[bad] = noble, corrupted
    for card in rest:
        state.cards[card] = corrupted
    choices = engine.legal_actions(state, seat)
    assert any(c.key.startswith("reorder") for c in choices)
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) == f"pick:{good}"


# ----- Time Masters: buy from the highest sphere the access points reach -----


def test_time_masters_buys_from_the_highest_sphere_in_reach() -> None:
    engine = GAMES["time-masters"]
    state = engine.setup(2, engine.parse_options(), 1)
    state.phase = "access"
    state.spells_cast = 4
    keys = {c.key for c in engine.legal_actions(state, state.turn)}
    assert {"buy:1", "buy:4", "buy:3:hidden", "end-turn"} <= keys
    for seed in range(5):
        assert _quick_key(engine, state, state.turn, seed) == "buy:4"


def test_time_masters_casts_rather_than_recover_ke_it_still_has() -> None:
    engine = GAMES["time-masters"]
    state = engine.setup(2, engine.parse_options(), 1)
    seat = state.turn
    designs = {state.cards[c]: c for c in range(len(state.cards))}
    hand = [designs["spark"], designs["breath"]]
    for card in hand:
        for pile in (*state.decks, *state.hands):
            if card in pile:
                pile.remove(card)
    state.hands[seat] = hand
    assert state.ke[seat] == state.options.ke
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) == f"cast:{hand[0]}"


# ----- Phase: an attacker strikes where an unopposed strike takes influence -----


def test_phase_sends_a_warrior_at_the_nexus_for_its_influence() -> None:
    engine = GAMES["phase"]

    def attackers(state: PhState) -> int | None:
        if state.step != "attackers" or state.pending is not None or state.round is not None:
            return None
        strong = [
            c
            for c in skirmish.may_attack(state)
            if state.attack(c) > 0 and state.nexus[KINDS.index(state.side(c).alignment)]
        ]
        return state.turn if strong else None

    state, seat = _random_until(engine, 2, 2, attackers)
    for seed in range(5):
        key = _quick_key(engine, state, seat, seed)
        card = int(key.split(":")[1])
        assert key.startswith("send:") and key.endswith(":nexus")
        assert state.attack(card) > 0


def test_phase_never_cancels_an_action_being_paid_for() -> None:
    engine = GAMES["phase"]

    def paying(state: PhState) -> int | None:
        return state.pending.seat if state.pending is not None else None

    state, seat = _random_until(engine, 2, 4, paying)
    assert "cancel" in {c.key for c in engine.legal_actions(state, seat)}
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) != "cancel"


# ----- Once Upon a Time... Life: Globin becomes Hemo as soon as four are saved -----


def _life_rolling() -> tuple[Any, Any]:
    """A new game of Life past the choice of pawns (each the late seat's default)."""
    engine = GAMES["once-upon-a-time-life"]
    state = engine.setup(2, engine.parse_options(), 1)
    while state.stage == "pawn":
        state = engine.apply(state, state.turn, engine.default_action(state, state.turn)).state
    return engine, state


def test_life_a_bot_chooses_a_pawn_of_a_body_system_nobody_plays() -> None:
    engine = GAMES["once-upon-a-time-life"]
    state = engine.setup(2, engine.parse_options(), 1)
    first = state.turn
    state = engine.apply(state, first, engine.legal_actions(state, first)[0].action).state
    taken = state.pawn(first).system
    for seed in range(5):
        key = _quick_key(engine, state, state.turn, seed)
        assert state.board.pawn_named(key.removeprefix("pawn:")).system != taken


def test_life_changes_four_globin_into_hemo_before_rolling() -> None:
    engine, state = _life_rolling()
    assert state.stage == "act"
    seat = state.turn
    state.purses[seat].globin = 5
    keys = {c.key for c in engine.legal_actions(state, seat)}
    assert {"exchange:globin", "roll"} <= keys
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) == "exchange:globin"


def test_life_pays_a_virus_with_a_leukocyte_rather_than_globin() -> None:
    engine, state = _life_rolling()
    seat = state.turn
    state.stage, state.threat = "defend", "virus"
    assert {c.key for c in engine.legal_actions(state, seat)} == {"defend:leukocyte", "defend:globin"}
    for seed in range(5):
        assert _quick_key(engine, state, seat, seed) == "defend:leukocyte"


def test_life_a_cut_off_search_rates_a_hemo_above_the_four_globin_it_costs() -> None:
    engine = GAMES["once-upon-a-time-life"]
    state = engine.setup(2, engine.parse_options(), 1)
    state.purses[0] = state.purses[1].model_copy()
    state.purses[0].hemo += 1
    state.purses[1].globin += 4
    scores = engine.evaluate(state)
    assert scores[0] > 0.5 > scores[1]
