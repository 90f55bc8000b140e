"""Every picture fits Discord: far below its per-message upload limit, at the width
a phone shows, for every state of whole games at the largest tables."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.pictures import PICTURES
from bot.render.pictures.base import PAGE_HEIGHT, WIDTH, pages, to_png
from bot.render.pictures.maker import draw_pngs
from engines.registry import get_engine
from tests.render.states import NAMES, played

PICTURE_BUDGET = 1024 * 1024  # our own bound per picture: a tenth of Discord's 10 MiB per message
TALLEST = 4000
LONG_NAMES = [f"{name} the Unreasonably Long-Named Player of Table Nine" for name in NAMES * 2]


def _check(png: bytes) -> int:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH and image.height <= TALLEST
    assert len(png) <= PICTURE_BUDGET
    return len(png)


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [
        ("spheres-of-life", 7, {}, 1),
        ("spheres-of-life", 14, {"decks": 2}, 2),
        ("scales-of-influence", 7, {}, 3),
        ("scales-of-influence", 3, {}, 4),
        ("time-masters", 4, {}, 5),
        ("once-upon-a-time-life", 4, {}, 6),
        ("phase", 3, {}, 7),
        ("phase", 2, {}, 8),
    ],
)
def test_every_picture_of_a_whole_game_fits(
    game: str, players: int, options: dict[str, int], seed: int
) -> None:
    engine, renderer, rng = get_engine(game), PICTURES[game], random.Random(seed)
    state = engine.setup(players, engine.parse_options(options), seed)
    names, largest, step = LONG_NAMES[:players], 0, 0
    while engine.result(state) is None and step < 3000:
        if step % 60 == 0:  # a sample along the game keeps the test quick
            largest = max(largest, _check(to_png(renderer.table(engine.view(state, None), names))))
            for seat in (0, players - 1):
                hand = renderer.hand(engine.view(state, seat), names)
                if hand is not None:
                    largest = max(largest, _check(to_png(hand)))
        movers = sorted({p.seat for p in engine.prompts(state)})
        seat, choices = rng.choice([(s, c) for s in movers if (c := engine.legal_actions(state, s))])
        state = engine.apply(state, seat, rng.choice(choices).action).state
        step += 1
    _check(to_png(renderer.table(engine.view(state, None), names)))
    assert 0 < largest <= PICTURE_BUDGET


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("spheres-of-life", 3),
        ("spheres-of-life", 7),
        ("scales-of-influence", 3),
        ("scales-of-influence", 7),
        ("time-masters", 2),
        ("time-masters", 4),
        ("once-upon-a-time-life", 2),
        ("once-upon-a-time-life", 4),
        ("phase", 2),
        ("phase", 3),
    ],
)
@pytest.mark.parametrize("moves", [0, 400])
def test_every_page_fits_a_phones_inline_preview(game: str, players: int, moves: int) -> None:
    """Each table and hand picture, at the start and late in a game, goes as pages of the
    full width and at most 600 px high: a phone shows each whole, not as a thin strip."""
    engine, state = played(game, players, players, moves)
    names = LONG_NAMES[:players]
    for viewer in (None, 0, players - 1):
        for png in draw_pngs(game, engine.view(state, viewer), names, hand=viewer is not None):
            image = Image.open(io.BytesIO(png))
            assert image.width == WIDTH and 0 < image.height <= PAGE_HEIGHT, (viewer, image.size)


def test_pages_cut_between_rows_never_through_a_board() -> None:
    """Life's board is kept whole on one page; the cuts fall on rows of bare background."""
    engine, state = played("once-upon-a-time-life", 4, 1, 60)
    picture = PICTURES["once-upon-a-time-life"].table(engine.view(state, None), NAMES[:4])
    top, bottom = max(picture.info["gametable-whole"], key=lambda span: span[1] - span[0])
    assert bottom - top > 400  # the board, some 450 px square
    parts = pages(picture)
    assert len(parts) >= 2 and sum(p.height for p in parts) == picture.height
    edges = [sum(p.height for p in parts[:n]) for n in range(1, len(parts))]
    assert not any(top < edge < bottom for edge in edges)
    for edge in edges:
        row = picture.crop((0, edge, picture.width, edge + 1)).convert("RGB")
        assert row.getcolors() == [(picture.width, (43, 45, 49))]
