"""Each game's pictures against golden files: fixed seeded states drawn the same way every run."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.render.pictures import PICTURES
from bot.render.pictures.base import to_png
from bot.render.pictures.cards import CardArt, card_png
from tests.render.golden import BLOCK_LIMIT, MEAN_LIMIT, assert_matches_golden, differences
from tests.render.states import NAMES, played

# (game, players, seed, moves): early, mid-game and finished tables.
STATES = [
    ("spheres-of-life", 3, 1, 0),
    ("spheres-of-life", 4, 3, 60),
    ("spheres-of-life", 3, 5, 5000),
    ("scales-of-influence", 5, 4, 40),
    ("scales-of-influence", 4, 2, 120),
    ("scales-of-influence", 3, 6, 5000),
    ("scales-of-influence", 4, 0, 1),  # a Cosmic Event pauses the table
    ("time-masters", 3, 2, 40),
    ("time-masters", 4, 5, 5000),
]


def _name(game: str, players: int, seed: int, moves: int, part: str) -> str:
    return f"{game}-{players}p-seed{seed}-{moves}-{part}"


@pytest.mark.parametrize(("game", "players", "seed", "moves"), STATES)
def test_table_picture_matches_golden(game: str, players: int, seed: int, moves: int) -> None:
    engine, state = played(game, players, seed, moves)
    picture = PICTURES[game].table(engine.view(state, None), NAMES[:players])
    assert_matches_golden(to_png(picture), _name(game, players, seed, moves, "table"))


@pytest.mark.parametrize(("game", "players", "seed", "moves"), [STATES[1], *STATES[3:5], STATES[7]])
def test_hand_picture_matches_golden(game: str, players: int, seed: int, moves: int) -> None:
    engine, state = played(game, players, seed, moves)
    picture = PICTURES[game].hand(engine.view(state, 1), NAMES[:players])
    assert picture is not None
    assert_matches_golden(to_png(picture), _name(game, players, seed, moves, "hand-seat1"))


def test_an_empty_hand_has_no_picture() -> None:
    engine, state = played("spheres-of-life", 3, 1, 0)  # Heroes are chosen before the deal
    assert PICTURES["spheres-of-life"].hand(engine.view(state, 1), NAMES[:3]) is None


def test_a_card_face_matches_golden() -> None:
    art = CardArt(
        title="Lantern Keeper",
        kind="Custom · Hero",
        cost="3",
        text="Draw two cards, then give one of them to the player on your left. Shines once a day.",
        colour="#2e8b57",
        icon="sun",
    )
    assert_matches_golden(card_png(art), "card-lantern-keeper")


def test_the_comparison_tolerates_a_few_pixels_but_not_a_moved_part() -> None:
    """The golden check itself: a changed glyph passes, a box moved by 20 px does not."""
    base = Image.new("RGB", (160, 120), (43, 45, 49))
    ImageDraw.Draw(base).rectangle((20, 20, 80, 80), fill=(232, 185, 72))
    nudged = base.copy()
    nudged.putpixel((50, 50), (0, 0, 0))
    moved = Image.new("RGB", (160, 120), (43, 45, 49))
    ImageDraw.Draw(moved).rectangle((40, 20, 100, 80), fill=(232, 185, 72))
    worst, mean = differences(nudged, base)
    assert worst <= BLOCK_LIMIT and mean <= MEAN_LIMIT
    worst, _ = differences(moved, base)
    assert worst > BLOCK_LIMIT
