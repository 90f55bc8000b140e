"""TablePictures: off the event loop, cached by table version, never in the way of the text."""

from __future__ import annotations

import io
import logging
import multiprocessing
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import pytest
from PIL import Image

from bot.render.pictures import PICTURES
from bot.render.pictures.maker import TablePictures
from engines.core import View
from engines.registry import get_engine
from storage.records import SeatRecord, TableRecord, TableStatus
from tests.render.states import NAMES, played
from tests.support.minigame import HIGH_CARD

USERS = [101, 102, 103, 104]


def view_of(record: TableRecord, user_id: int | None) -> View:
    """What TableService.view gives: the seat's view, or the public one."""
    engine = HIGH_CARD if record.game == HIGH_CARD.info.key else get_engine(record.game)
    seat = None if user_id is None else record.seat_of(user_id)
    assert record.state is not None
    return engine.view(engine.load_state(record.state), seat)


def record_of(
    game: str = "spheres-of-life",
    version: int = 5,
    status: TableStatus = TableStatus.PLAYING,
    moves: int = 60,
) -> TableRecord:
    if game == HIGH_CARD.info.key:
        engine, state = HIGH_CARD, HIGH_CARD.setup(4, HIGH_CARD.parse_options(), 3)
    else:
        engine, state = played(game, 4, 3, moves)
    return TableRecord(
        id="t1",
        game=game,
        status=status,
        host_id=USERS[0],
        version=version,
        created_at=0.0,
        updated_at=0.0,
        seed=3,
        turn_timeout=60.0,
        state=engine.dump_state(state),
        seats=[SeatRecord(user_id=u, name=n) for u, n in zip(USERS, NAMES, strict=False)],
    )


async def test_the_table_picture_is_a_png_drawn_once_per_version() -> None:
    pictures = TablePictures(view_of)
    record = record_of()
    first = await pictures.table(record)
    assert first and all(Image.open(io.BytesIO(page)).format == "PNG" for page in first)
    assert await pictures.table(record) is first and pictures.rendered == 1
    newer = await pictures.table(record.model_copy(update={"version": 6}))
    assert newer == first and pictures.rendered == 2  # same state, but a new version is drawn anew


async def test_each_seat_gets_its_own_hand_and_a_stranger_none() -> None:
    pictures = TablePictures(view_of)
    record = record_of()
    hands = [await pictures.hand(record, user) for user in USERS[:2]]
    assert all(hands) and hands[0] != hands[1]
    assert await pictures.hand(record, 999) == ()


async def test_no_picture_for_a_lobby_or_a_game_without_a_picture_renderer() -> None:
    pictures = TablePictures(view_of)
    assert await pictures.table(record_of(status=TableStatus.LOBBY)) == ()
    assert await pictures.table(record_of(status=TableStatus.ABANDONED)) == ()
    assert await pictures.table(record_of(HIGH_CARD.info.key)) == ()
    assert await pictures.hand(record_of(HIGH_CARD.info.key), USERS[0]) == ()
    assert pictures.rendered == 0


async def test_the_cache_is_bounded() -> None:
    pictures = TablePictures(view_of, capacity=2)
    record = record_of()
    for version in range(5):
        await pictures.table(record.model_copy(update={"version": version}))
    assert len(pictures.cache) == 2 and ("t1", 4, None) in pictures.cache


class _Spy:
    def __init__(self, fail: bool = False) -> None:
        self.threads: list[int] = []
        self.fail = fail

    def table(self, view: View, names: Sequence[str]) -> Image.Image:
        self.threads.append(threading.get_ident())
        if self.fail:
            raise RuntimeError("broken renderer")
        return Image.new("RGB", (10, 10))

    def hand(self, view: View, names: Sequence[str]) -> Image.Image | None:
        return self.table(view, names)


async def test_drawing_happens_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = _Spy()
    monkeypatch.setitem(PICTURES, "spheres-of-life", spy)
    assert await TablePictures(view_of).table(record_of())
    assert spy.threads and spy.threads[0] != threading.get_ident()


async def test_a_broken_renderer_is_logged_and_leaves_the_picture_out(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(PICTURES, "spheres-of-life", _Spy(fail=True))
    with caplog.at_level(logging.ERROR):
        assert await TablePictures(view_of).table(record_of()) == ()
    assert "could not draw its picture" in caplog.text


async def test_a_process_pool_draws_the_same_pictures() -> None:
    record = record_of("scales-of-influence")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        elsewhere = TablePictures(view_of, processes=pool)
        table, hand = await elsewhere.table(record), await elsewhere.hand(record, USERS[1])
    here = TablePictures(view_of)
    assert table and table == await here.table(record)
    assert hand and hand == await here.hand(record, USERS[1])
