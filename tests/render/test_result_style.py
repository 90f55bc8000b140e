"""Every game's results in one style: "<Game> — game over", a medal for each of the first
three places then "4th"…, and counts in their number."""

from __future__ import annotations

import pytest

from bot.render import renderer_for
from bot.render.base import place_mark
from engines.playout import playout
from engines.registry import get_engine


def test_places_are_medals_then_ordinals() -> None:
    assert [place_mark(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == [
        "🥇",
        "🥈",
        "🥉",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
    ]


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("spheres-of-life", 4),
        ("scales-of-influence", 4),
        ("time-masters", 4),
        ("once-upon-a-time-life", 4),
        ("phase", 3),
    ],
)
def test_every_games_result_reads_alike(game: str, players: int) -> None:
    engine = get_engine(game)
    state, result = playout(engine, players, seed=5)
    panel = renderer_for(game).result(result, engine.view(state, None))
    assert panel.title == f"{engine.info.title} — game over"
    names = [f.name for f in panel.fields]
    assert not any(name.startswith("#") for name in names)
    if not result.teams:  # a team game names its winning side instead of places
        assert names[: len(result.ranking)] == [place_mark(n) for n in range(1, len(result.ranking) + 1)]
    text = str(panel)
    assert "1 pts" not in text and " pts" not in text and "1 cards" not in text and "(s)" not in text
