"""Properties of seating: nobody is seated twice, repeat opponents are as few
as the field allows, byes go round before anyone has a second."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    Meetings,
    Seating,
    elimination,
    meetings_of,
    round_robin,
    round_robin_rounds,
    swiss,
    table_sizes,
)
from bot.tournaments.scoring import Scoring, table_points


def _everyone_once(seating: Seating, players: list[int]) -> None:
    seated = [p for t in seating.tables for p in t] + seating.byes
    assert sorted(seated) == sorted(players), "each player sits exactly once (or has the bye)"


def _play_swiss(
    players: int, size: int, smallest: int, rounds: int, seed: int
) -> tuple[Meetings, Counter[int]]:
    rng = random.Random(seed)
    ids = list(range(players))
    points: dict[int, float] = {p: 0.0 for p in ids}
    met: Meetings = Counter()
    byes: Counter[int] = Counter()
    for _ in range(rounds):
        standings = sorted(ids, key=lambda p: (-points[p], p))
        seating = swiss(standings, points, size, smallest, met, byes)
        _everyone_once(seating, ids)
        assert all(smallest <= len(t) <= size for t in seating.tables)
        for table in seating.tables:
            order = table[:]
            rng.shuffle(order)
            for seat, share in table_points([[p] for p in order]).items():
                points[seat] += share
        for p in seating.byes:
            byes[p] += 1
            points[p] += 1.0
        met += meetings_of(seating.tables)
    return met, byes


@given(st.integers(2, 40), st.integers(1, 6), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_head_to_head_swiss_never_repeats_while_it_can(players: int, rounds: int, seed: int) -> None:
    # A field of n has n-1 rounds without a repeat (a round robin exists); Swiss need not
    # find it greedily, but the matching must avoid repeats in the first few rounds.
    rounds = min(rounds, max(1, (players - 1) // 2))
    met, byes = _play_swiss(players, 2, 2, rounds, seed)
    assert all(count == 1 for count in met.values()), "no pair met twice"
    assert max(byes.values(), default=0) <= 1, "nobody has a second bye before everyone had one"


@given(st.integers(3, 40), st.integers(3, 7), st.integers(1, 4), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_multi_seat_swiss_seats_everyone_once_at_allowed_tables(
    players: int, size: int, rounds: int, seed: int
) -> None:
    _met, byes = _play_swiss(players, size, 3, rounds, seed)
    assert max(byes.values(), default=0) - min((byes[p] for p in range(players)), default=0) <= 1


def test_multi_seat_swiss_avoids_a_repeat_the_cut_would_make() -> None:
    # Round 2 with unchanged standings: the plain cut would seat the same tables again.
    players = list(range(12))
    met = meetings_of([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
    seating = swiss(players, {}, 4, 3, met, Counter())
    again = sum(met[frozenset(pair)] for t in seating.tables for pair in itertools.combinations(t, 2))
    assert again < 18, "swaps between neighbouring tables break up the old tables"


@given(st.integers(2, 30), st.integers(1, 10**6))
@settings(max_examples=40, deadline=None)
def test_head_to_head_round_robin_meets_everyone_exactly_once(players: int, seed: int) -> None:
    ids = random.Random(seed).sample(range(10**6), players)
    met: Meetings = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, round_robin_rounds(players, 2) + 1):
        seating = round_robin(ids, 2, 2, number, met, byes)
        _everyone_once(seating, ids)
        met += meetings_of(seating.tables)
        byes.update(seating.byes)
    assert len(met) == players * (players - 1) // 2 and set(met.values()) == {1}
    assert set(byes.values()) <= {1}, "an odd field gives each player one bye"


@given(st.integers(4, 16), st.integers(3, 5), st.integers(0, 1000))
@settings(max_examples=30, deadline=None)
def test_multi_seat_round_robin_spreads_meetings(players: int, size: int, seed: int) -> None:
    ids = list(range(players))
    met: Meetings = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, round_robin_rounds(players, size) + 1):
        seating = round_robin(ids, size, 3, number, met, byes, seed)
        _everyone_once(seating, ids)
        met += meetings_of(seating.tables)
        byes.update(seating.byes)
    if players <= size:
        assert len(met) == players * (players - 1) // 2
    assert max(byes.values(), default=0) - min((byes[p] for p in ids), default=0) <= 1


@given(st.integers(1, 200), st.integers(2, 7), st.integers(2, 7))
def test_table_sizes_use_k_and_k_minus_one_where_allowed(players: int, size: int, smallest: int) -> None:
    smallest = min(smallest, size)
    sizes, byes = table_sizes(players, size, smallest)
    assert sum(sizes) + byes == players
    assert all(smallest <= s <= size for s in sizes)
    if players >= smallest and smallest <= size - 1:
        assert byes == 0 or byes < smallest


def test_elimination_seats_the_top_seeds_apart() -> None:
    seating = elimination(list(range(1, 9)), 2, 2, 1)
    assert seating.tables == [[1, 8], [2, 7], [3, 6], [4, 5]] and seating.byes == []
    odd = elimination(list(range(1, 8)), 2, 2, 1)
    assert odd.byes == [1] and sorted(p for t in odd.tables for p in t) == list(range(2, 8))


def test_scoring_shares_per_table_and_team() -> None:
    assert table_points([[0], [1]]) == {0: 1.0, 1: 0.0}
    assert table_points([[0, 1]]) == {0: 0.5, 1: 0.5}
    assert table_points([[2], [0, 1], [3]]) == {2: 1.0, 0: 0.5, 1: 0.5, 3: 0.0}
    assert table_points([[0, 3], [1, 2, 4]], teams=True) == {0: 1.0, 3: 1.0, 1: 0.0, 2: 0.0, 4: 0.0}
    assert table_points([[0, 1, 2, 3, 4]], teams=True) == dict.fromkeys(range(5), 0.5)
    assert table_points([[1, 2], [0]], scoring=Scoring.WINNER) == {1: 0.5, 2: 0.5, 0: 0.0}


def test_a_big_head_to_head_field_is_matched_in_blocks_without_repeats() -> None:
    met, byes = _play_swiss(301, 2, 2, 4, seed=5)
    assert set(met.values()) == {1} and sorted(byes.values()) == [1, 1, 1, 1]
