"""Each game's pictures against golden files.

Each case is a view of a seeded game, kept beside its golden picture as JSON
(``<name>.view.json``): the test draws that stored view, so a change to a game's
rules or card data does not move the pictures under it, while a change to how a
view is drawn does. ``UPDATE_GOLDEN=1`` replays the seeded games and rewrites both.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.render.pictures import PICTURES
from bot.render.pictures.base import pages, to_png
from bot.render.pictures.cards import CardArt, card_png
from engines.core import View
from engines.registry import get_engine
from tests.render.golden import BLOCK_LIMIT, GOLDEN, MEAN_LIMIT, assert_matches_golden, differences, updating
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
    ("once-upon-a-time-life", 4, 8, 60),  # a question open, kept cards
    ("once-upon-a-time-life", 3, 5, 120),  # a pawn sent to an additional space
    ("once-upon-a-time-life", 4, 7, 300),
    ("once-upon-a-time-life", 3, 2, 190),  # a duel called
    ("once-upon-a-time-life", 3, 5, 90),  # a Bacteria to fend off
    ("phase", 3, 3, 80),
    ("phase", 2, 1, 5000),
    ("phase", 2, 1, 4000),  # a hand too big for whole faces
]
HANDS = [STATES[1], *STATES[3:5], STATES[7], STATES[9], *STATES[14:17:2]]


def _name(game: str, players: int, seed: int, moves: int, part: str) -> str:
    return f"{game}-{players}p-seed{seed}-{moves}-{part}"


def stored_view(game: str, players: int, seed: int, moves: int, viewer: int | None, name: str) -> View:
    """The case's view: from its JSON file, or (updating, or none stored yet) from the seeded game."""
    path = GOLDEN / f"{name}.view.json"
    if not updating() and path.exists():
        engine = get_engine(game)
        kind = type(engine.view(engine.setup(players, engine.parse_options(), 0), None))
        return kind.model_validate_json(path.read_text(encoding="utf-8"))
    engine, state = played(game, players, seed, moves)
    view = engine.view(state, viewer)
    if updating():
        path.write_text(view.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return view


@pytest.mark.parametrize(("game", "players", "seed", "moves"), STATES)
def test_table_picture_matches_golden(game: str, players: int, seed: int, moves: int) -> None:
    name = _name(game, players, seed, moves, "table")
    picture = PICTURES[game].table(stored_view(game, players, seed, moves, None, name), NAMES[:players])
    assert_matches_golden(to_png(picture), name)


@pytest.mark.parametrize(("game", "players", "seed", "moves"), HANDS)
def test_hand_picture_matches_golden(game: str, players: int, seed: int, moves: int) -> None:
    name = _name(game, players, seed, moves, "hand-seat1")
    picture = PICTURES[game].hand(stored_view(game, players, seed, moves, 1, name), NAMES[:players])
    assert picture is not None
    assert_matches_golden(to_png(picture), name)


# Tall pictures, sent as pages a phone shows whole: each page against its own golden file.
PAGED = [
    ("phase", 3, 3, 80, 1),
    ("phase", 3, 3, 80, None),
    ("scales-of-influence", 5, 4, 40, None),
    ("once-upon-a-time-life", 4, 8, 60, None),
]


@pytest.mark.parametrize(("game", "players", "seed", "moves", "viewer"), PAGED)
def test_a_tall_pictures_pages_match_golden(
    game: str, players: int, seed: int, moves: int, viewer: int | None
) -> None:
    name = _name(game, players, seed, moves, "table" if viewer is None else f"hand-seat{viewer}")
    view, names = stored_view(game, players, seed, moves, viewer, name), NAMES[:players]
    picture = PICTURES[game].table(view, names) if viewer is None else PICTURES[game].hand(view, names)
    assert picture is not None
    parts = pages(picture)
    assert len(parts) >= 2 and all(part.height <= 600 for part in parts)
    for number, part in enumerate(parts, start=1):
        assert_matches_golden(to_png(part), f"{name}-page{number}")


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
