"""The balance benchmark, run on a few games: the shape of what it prints, and
its statistics (the Wilson interval, a shared win split) on known inputs.
No figure is asserted to be fair: that is what the benchmark measures."""

from __future__ import annotations

import io
import re

import pytest

from benchmarks import bench_balance
from benchmarks.bench_balance import Tally, content_lines, report, share_line, split_win, wilson
from engines.core import Result
from engines.registry import GAMES

SHARE = r"  {seat}: [\d.]+/{games} = [\d.]+% \(95% [\d.]+%–[\d.]+%\), fair {fair}"


def test_wilson_interval_matches_known_values() -> None:
    # 30 of 120 (worked by hand from the formula): 18.1%–33.4%.
    low, high = wilson(30, 120)
    assert (round(low, 3), round(high, 3)) == (0.181, 0.334)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278
    assert wilson(10, 10)[1] == 1.0 and round(wilson(10, 10)[0], 3) == 0.722
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tie_splits_the_win_and_a_side_takes_its_winners_parts() -> None:
    seats, sides = split_win(Result(ranking=[[0, 2], [1]]))
    assert seats == {0: 0.5, 2: 0.5} and sides == {}
    teams = {"Light": [0, 3], "Shadow": [1, 4], "Harmony": [2]}
    seats, sides = split_win(Result(ranking=[[0, 3], [1, 2, 4]], teams=teams))
    assert seats == {0: 0.5, 3: 0.5}
    assert sides == {"Light": 1.0, "Shadow": 0.0, "Harmony": 0.0}


def test_a_report_sums_shares_marks_unfair_seats_and_sides_and_leaves_out_unfinished() -> None:
    sides = {"Light": 1.0, "Shadow": 0.0}
    # Seat 0 plays first in two of its three wins, second in the third.
    won = [
        Tally(seed=i, seats={0: 1.0}, sides=sides, side_fair=0.5, moves=10, rounds=2, first=i // 2)
        for i in range(3)
    ]
    tied = Tally(
        seed=3, seats={0: 0.5, 1: 0.5}, sides={"Light": 0.5, "Shadow": 0.5}, side_fair=0.5, moves=20, rounds=4
    )
    lines = report("Game", 2, [*won, tied, Tally(seed=9, finished=False)])
    assert lines[0] == "Game, 2 players: 4 games; 1 never ended (seeds 9), left out"
    assert lines[1].startswith("  seat 0: 3.5/4 = 87.5% (95% ") and lines[1].endswith("from fair")
    # 3.5 of 4 games: 50% is still inside the interval; 30 of 30 puts it outside.
    assert share_line("seat 0", 30, 30, 0.5).endswith("from fair; fair is outside the 95% interval")
    assert share_line("seat 0", 16, 30, 0.5).endswith("fair 50.0%")
    assert lines[2].startswith("  seat 1: 0.5/4 = 12.5%")
    assert lines[3].startswith("  1st to play: 2.5/4 = 62.5%")
    assert lines[4].startswith("  2nd to play: 1.5/4 = 37.5%")
    assert lines[5].startswith("  Light: 3.5/4 = 87.5%") and "fair 50.0%" in lines[5]
    assert lines[6].startswith("  Shadow: 0.5/4 = 12.5%")
    assert lines[7] == "  length: moves p50 10 p99 20; rounds p50 2 p99 4"


def test_content_is_counted_per_game_and_rarely_chosen_content_is_marked() -> None:
    tallies = [
        Tally(seed=i, offered={"buy A", "buy B"}, chosen={"buy A"} | ({"buy B"} if i == 0 else set()))
        for i in range(25)
    ]
    lines = content_lines(tallies)
    assert lines[1] == "    buy B: offered in 25, chosen in 1 (4%)  ← chosen in under 5%"
    assert lines[2] == "    buy A: offered in 25, chosen in 25 (100%)"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_benchmark_prints_every_seat_length_and_content(key: str) -> None:
    # Phase's searched games take seconds each: its smallest table, one game.
    engine = GAMES[key]
    players = engine.info.min_players
    games = 1 if key == "phase" else 2
    out = io.StringIO()
    bench_balance.main(["--games", str(games), "--game", key, "--players", str(players)], out=out)
    text = out.getvalue()
    assert f"{engine.info.title}, {players} players: {games} games" in text, text
    fair = f"{100 / players:.1f}%"
    for seat in range(players):
        assert re.search(SHARE.format(seat=f"seat {seat}", games=games, fair=fair), text), text
    for place in ("1st", "2nd"):
        assert re.search(SHARE.format(seat=f"{place} to play", games=games, fair=fair), text), text
    assert re.search(r"  length: moves p50 \d+ p99 \d+; rounds p50 \d+ p99 \d+", text), text
    assert re.search(r"    .+: offered in \d+, chosen in \d+ \(\d+%\)", text), text
    if key == "scales-of-influence":
        for side in ("Light", "Shadow", "Harmony"):
            assert re.search(rf"  {side}: [\d.]+/{games} = ", text), text


def test_a_table_size_the_game_does_not_have_is_told() -> None:
    out = io.StringIO()
    bench_balance.main(["--games", "1", "--game", "phase", "--players", "5"], out=out)
    assert out.getvalue().splitlines()[1] == "Phase: no table of 5 players (2–3)"


@pytest.mark.parametrize("key", ["time-masters", "once-upon-a-time-life"])
def test_the_first_player_is_the_one_the_game_drew(key: str) -> None:
    # Both draw the first player at setup: the tally must name that seat, not seat 0.
    engine = GAMES[key]
    firsts = [bench_balance.one_game(key, 3, "easy", seed).first for seed in range(4)]
    drawn = [engine.setup(3, engine.parse_options(), seed).turn for seed in range(4)]
    assert firsts == drawn and len(set(drawn)) > 1
