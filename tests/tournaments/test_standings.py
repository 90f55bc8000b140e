"""Standings: points first, then opponents' points, game score and head to head;
disqualified players last; exports carry the same order."""

from __future__ import annotations

import csv
import io
import json

from bot.tournaments.export import to_csv, to_json
from bot.tournaments.standings import standings
from storage.tournaments import Entrant, EntrantStatus, Format, Round, TableScore, TableSeat, Tournament


def scored(index: int, ranking: list[list[int]], points: dict[int, float], **scores: float) -> TableSeat:
    players = [u for group in ranking for u in group]
    game = {int(k[1:]): v for k, v in scores.items()}
    return TableSeat(
        index=index, players=players, score=TableScore(ranking=ranking, points=points, scores=game)
    )


def cup(rounds: list[Round]) -> Tournament:
    entrants = [Entrant(user_id=u, name=f"p{u}") for u in range(1, 7)]
    return Tournament(
        id="cup",
        guild_id=1,
        channel_id=2,
        organiser_id=3,
        name="Cup",
        game="g",
        format=Format.SWISS,
        table_size=2,
        turn_timeout=1.0,
        created_at=0.0,
        entrants=entrants,
        rounds=rounds,
    )


def test_tie_breaks_in_order() -> None:
    one = Round(
        number=1,
        closed=True,
        seated=True,
        tables=[
            scored(0, [[1], [2]], {1: 1.0, 2: 0.0}),
            scored(1, [[3], [4]], {3: 1.0, 4: 0.0}),
            scored(2, [[5], [6]], {5: 1.0, 6: 0.0}),
        ],
    )
    two = Round(
        number=2,
        closed=True,
        seated=True,
        tables=[
            scored(0, [[1], [3]], {1: 1.0, 3: 0.0}),
            scored(1, [[5], [2]], {5: 1.0, 2: 0.0}),
            scored(2, [[4], [6]], {4: 1.0, 6: 0.0}),
        ],
    )
    t = cup([one, two])
    order = [line.user_id for line in standings(t)]
    # 1 and 5 have 2 points; 1 met 2 and 3 (1 point together), 5 met 6 and 2 (0): 1 first.
    # 3 and 4 have 1 point; 3 met 4 and 1 (3 points between them), 4 met 3 and 6 (1 point).
    assert order[:2] == [1, 5] and order[2:4] == [3, 4]
    t.entrants[0].status = EntrantStatus.DISQUALIFIED
    assert [line.user_id for line in standings(t)][-1] == 1


def test_game_score_breaks_a_tie_of_points_and_opponents() -> None:
    t = cup(
        [
            Round(
                number=1,
                closed=True,
                seated=True,
                tables=[
                    scored(0, [[1, 2]], {1: 0.5, 2: 0.5}, u1=3.0, u2=7.0),
                ],
            )
        ]
    )
    t.entrants = t.entrants[:2]
    assert [line.user_id for line in standings(t)] == [2, 1]


def test_head_to_head_breaks_a_tie_left_by_everything_else() -> None:
    t = cup(
        [
            Round(
                number=1,
                closed=True,
                seated=True,
                tables=[
                    scored(0, [[2], [1]], {2: 0.5, 1: 0.5}),
                ],
            )
        ]
    )
    t.entrants = t.entrants[:2]
    assert [line.user_id for line in standings(t)] == [2, 1], "2 finished ahead of 1 at their table"


def test_exports_follow_the_standings() -> None:
    t = cup(
        [
            Round(
                number=1,
                closed=True,
                seated=True,
                byes=[6],
                bye_points=1.0,
                tables=[
                    scored(0, [[1], [2]], {1: 1.0, 2: 0.0}),
                ],
            )
        ]
    )
    rows = list(csv.DictReader(io.StringIO(to_csv(t))))
    assert [r["user_id"] for r in rows[:2]] == ["1", "6"] and rows[1]["points"] == "1.0"
    data = json.loads(to_json(t))
    assert data["standings"][0]["user_id"] == 1 and data["rounds"][0]["byes"] == [6]


def test_a_tie_at_an_elimination_cut_goes_to_the_better_seed() -> None:
    from bot.tournaments.formats import plan_next

    t = cup(
        [
            Round(
                number=1,
                closed=True,
                seated=True,
                tables=[
                    scored(0, [[4, 1]], {4: 0.5, 1: 0.5}),
                    scored(1, [[2], [3]], {2: 1.0, 3: 0.0}),
                ],
            )
        ]
    )
    t.format, t.entrants = Format.ELIMINATION, t.entrants[:4]
    t.entrants[0].rating = 10.0  # player 1 is the top seed
    final = plan_next(t, 2)
    assert final is not None and final.final and final.tables[0].players == [1, 2]
