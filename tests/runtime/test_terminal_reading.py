"""The terminal table read and typed at: card text under each choice, the
reading keys, any input answered briefly, moves that carry their version,
what changed between decisions, a cost being paid, and a question's answer time."""

from __future__ import annotations

import io
import re

import pytest

from bot.tables import TableService
from bot.terminal import TerminalTable
from bot.terminal_screen import Screen, menu_number
from engines.core import Choice
from engines.registry import GAMES
from storage.store import TableStore
from tests.runtime.test_terminal import Keyboard, table_for
from tests.support.clock import Clock


def _choices() -> list[Choice]:
    return [
        Choice(key="a", label="Choose Druid", steps=["Choose Druid"], action=1,
               detail="Druid — **Heal** a sphere.\nOnce per Night."),
        Choice(key="b", label="Choose Windmaster", steps=["Choose Windmaster"], action=2,
               detail="Windmaster — move a card " + "far " * 40),
        Choice(key="c", label="Pass", steps=["Pass"], action=3),
    ]  # fmt: skip


def _screen(typed: str) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    return Screen(io.StringIO(typed), out), out


def test_each_choice_shows_its_card_text_compactly_and_in_full_on_request() -> None:
    screen, out = _screen("?1\n?3\n?9\n2\n")
    assert screen.choose(_choices(), str).key == "b"
    text = out.getvalue()
    assert "  1. Choose Druid\n       Druid — **Heal** a sphere. Once per Night.\n" in text  # one line
    windmaster = re.search(r"  2\. Choose Windmaster\n       (.*)\n", text)
    assert windmaster and len(windmaster.group(1)) == 100 and windmaster.group(1).endswith("…")
    assert "  3. Pass\n  " not in text.split("Your choice")[0].replace("  3. Pass\nYour", "")
    assert "Choose Druid:\nDruid — **Heal** a sphere.\nOnce per Night.\n" in text  # ?1: in full
    assert "Choice 3 names no card." in text and "There is no choice '9' here." in text
    assert text.count("  1. Choose Druid\n") == 4  # the menu again under each answer


@pytest.mark.parametrize(
    "typed",
    ["²", "٣", "1" * 5000, "", "\x1b[A", "\x00\x07", "-1", "1.0", " 2 3", "?²", "?" + "9" * 5000, "c", "t"],
)
def test_any_input_gets_a_short_answer_and_the_prompt_again(typed: str) -> None:
    screen, out = _screen(f"{typed}\n3\n")
    assert screen.choose(_choices(), str).key == "c"
    answer = out.getvalue().split("Your choice: ", 2)[1]
    first = answer.split("\n", 1)[0]
    assert 0 < len(first) < 120 and "Traceback" not in answer  # one short line, then the menu or prompt


def test_only_short_ascii_numbers_are_menu_numbers() -> None:
    assert [menu_number(x) for x in ("7", "007", "²", "١", "9" * 7)] == [7, 7, None, None, None]


def test_end_of_input_at_a_menu_leaves_without_a_traceback() -> None:
    screen, out = _screen("")
    with pytest.raises(Exception, match="quit"):
        screen.choose(_choices(), str)
    assert "Leave the table?" in out.getvalue()


async def test_help_lists_the_keys(store: TableStore) -> None:
    table, screen = table_for(store, script=["h", "1"])
    assert await table.play("high-card", bots=1, seed=4) == 0
    assert "?N: card text of choice N · c NAME: any card · t: the whole table · q: leave" in screen.getvalue()


async def test_t_shows_the_whole_table_and_the_same_decision_goes_on(store: TableStore) -> None:
    table, screen = table_for(store, script=["1", "t", "1"])
    assert await table.play("high-card", bots=1, seed=4) == 0
    text = screen.getvalue()
    second = text.split("Your choice: ")[1]
    assert "── what changed" in second and "── only for Player 1 ──" not in second
    after_t = text.split("Your choice: ")[2]
    assert "── High Card · table" in after_t and "── only for Player 1 ──" in after_t


async def test_c_names_any_card_of_the_table_s_deck(store: TableStore) -> None:
    screen = io.StringIO()
    service = TableService(store, games=GAMES)
    keys = ["c Druid", "c zzz", "c a", "q", "y"]
    table = TerminalTable(service, stdin=Keyboard(screen, keys), stdout=screen, clear_screen=False)
    await table.play("spheres-of-life", bots=1, seed=3, level="easy")
    text = screen.getvalue()
    assert "Druid\n" in text and "Type: " in text  # the card panel, kind and all
    assert "No card's name holds 'zzz'." in text
    assert "Which one? " in text


async def test_a_move_carries_the_version_it_was_read_from(store: TableStore) -> None:
    table, screen = table_for(store)
    sent: list[int | None] = []
    act = table.service.act

    async def spy(table_id: str, user_id: int, key: str, version: int | None = None):  # type: ignore[no-untyped-def]
        sent.append(version)
        return await act(table_id, user_id, key, version)

    table.service.act = spy  # type: ignore[method-assign]
    assert await table.play("high-card", bots=1, seed=4) == 0
    assert sent and all(isinstance(v, int) for v in sent)
    # A keypress read from an older version, once the seat has moved since, is refused.
    record = await store.get(re.findall(r"Table (\w+):", screen.getvalue())[0])
    assert record is not None and len(set(sent)) == len(sent)


async def test_a_repeated_keypress_on_a_stale_version_does_not_apply_twice(store: TableStore) -> None:
    from bot.errors import StaleClick
    from bot.tables import Player

    service = TableService(store, games={"high-card": table_for(store)[0].service.engine("high-card")})
    record = await service.create("high-card", Player(1, "Player 1"), turn_timeout=3600)
    await service.join(record.id, Player(2, "Player 2"))
    started = (await service.start(record.id, 1)).table
    mover = started.seats[service.awaited(started)[0]].user_id
    assert mover is not None
    key = service.choices(started, mover)[0].key
    await service.act(record.id, mover, key, version=started.version)
    with pytest.raises(StaleClick):
        await service.act(record.id, mover, key, version=started.version)


async def test_phase_shows_what_changed_and_what_is_paid(store: TableStore) -> None:
    screen = io.StringIO()
    service = TableService(store, games=GAMES)
    table = TerminalTable(service, stdin=Keyboard(screen), stdout=screen, clear_screen=False)
    assert await table.play("phase", bots=1, seed=3, options={"preset": "short"}, level="easy") == 0
    text = screen.getvalue()
    decisions = text.split("Your choice: ")[1:-1]
    assert text.count("── Phase · table") == 1  # the whole table once, then its changes
    lengths = sorted(part.count("\n") for part in decisions)
    assert lengths[len(lengths) // 2] <= 15, "a decision prints what changed, not the whole table"
    assert "  Paid so far: nothing yet\n  Left to pay: Phase a resource" in text
    paying = [p for p in decisions if "Paid so far: " in p and "nothing yet" not in p]
    assert paying or "Paid so far: nothing yet" in text


async def test_a_question_s_answer_time_runs_out_as_no_answer(store: TableStore) -> None:
    clock = Clock(1000.0)
    screen = io.StringIO()

    class Slow(Keyboard):
        """Answers every question a second too late."""

        late = 0

        def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
            asked = self.screen.getvalue().rsplit("\nPlayer 1: ", 1)[-1]
            if asked.startswith("Answer the") and asked.endswith("Your choice: "):
                clock.now += 31  # just past the question's 30 seconds
                self.late += 1  # type: ignore[has-type]
            return super().readline()

    service = TableService(store, games=GAMES, clock=clock)
    keyboard = Slow(screen, menu="1")
    table = TerminalTable(service, stdin=keyboard, stdout=screen, clear_screen=False)
    options = {"preset": "quick", "answer_seconds": 30}
    await table.play("once-upon-a-time-life", bots=1, seed=11, options=options, level="easy")
    text = screen.getvalue()
    assert text.count("Time is up.") == keyboard.late >= 1
    assert "ran out of time" in text and "gives no answer" in text
