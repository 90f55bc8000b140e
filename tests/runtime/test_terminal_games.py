"""A whole game of each of the five games at the terminal, typed to the end
against easy bots, with the recap Discord posts printed at the end."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from bot.service.tables import TableService
from bot.terminal.table import CLEAR, TerminalTable
from engines.registry import GAMES
from storage.records import TableStatus
from storage.store import TableStore


class Typist(io.StringIO):
    """Types the first choice at every prompt and Enter where asked; counts its lines."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.lines = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: StringIO mixes _IOBase
        self.lines += 1
        assert self.lines < 3000, "the game never ended"
        return "\n" if "press Enter" in self.screen.getvalue().rsplit("\n", 1)[-1] else "1\n"


GAMES_TO_PLAY = [
    ("phase", 2, 1, {"preset": "short"}),
    ("time-masters", 2, 1, {}),
    ("once-upon-a-time-life", 2, 1, {"preset": "quick"}),
    ("spheres-of-life", 2, 1, {}),
    # A Journey of Scales has no shorter variant; this seed's is among the quickest (about 5 s).
    ("scales-of-influence", 3, 2, {"seed": 1}),
]


async def play_to_the_end(
    store: TableStore, game: str, seats: int, bots: int, options: dict[str, Any]
) -> str:
    screen = io.StringIO()
    service = TableService(store, games=GAMES)
    table = TerminalTable(service, stdin=Typist(screen), stdout=screen, clear_screen=True)
    options = dict(options)
    seed = options.pop("seed", 3)
    assert await table.play(game, seats=seats, bots=bots, seed=seed, options=options, level="easy") == 0
    text = screen.getvalue()
    table_id = re.findall(r"Table (\w+):", text)[0]
    record = await store.get(table_id)
    assert record is not None and record.status is TableStatus.FINISHED
    title = GAMES[game].info.title
    recap = text[text.index(f"Recap — {title}, table {table_id}") :]
    assert re.search(r"^🥇 (Player 1|Bot \d)( — |$)", recap, re.M), "the recap ranks the seats"
    assert re.search(r"\d+ moves \(\d+ by bots\)\.", recap)
    for name in ("Player 1", *(f"Bot {n}" for n in range(1, bots + 1))):
        assert f"  {name}:" in recap, f"the recap explains {name}'s place"
    assert recap.rstrip().endswith(f"The whole log, seed included: gametable log {table_id}")
    assert f"To check the game: gametable log {table_id}, then gametable replay log-{table_id}.jsonl" in text
    assert CLEAR not in text, "one player at the keyboard keeps the scrollback"
    return text


@pytest.mark.parametrize(("game", "seats", "bots", "options"), GAMES_TO_PLAY)
async def test_a_whole_game_is_typed_to_its_end_and_recapped(
    store: TableStore, game: str, seats: int, bots: int, options: dict[str, Any]
) -> None:
    await play_to_the_end(store, game, seats, bots, options)


def test_every_game_is_played_here() -> None:
    played = {p[0] for p in GAMES_TO_PLAY}
    assert played == set(GAMES)
