"""The terminal table read and typed at: card text under each choice, the
reading keys, any input answered briefly, moves that carry their version,
what changed between decisions, a cost being paid, and a question's answer time."""

from __future__ import annotations

import io
import itertools
import os
import re
import time

import pytest

from bot.service.tables import Outcome, TableService
from bot.terminal.screen import Screen, TimedOut, menu_number
from bot.terminal.table import TerminalTable
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


async def test_a_keypress_delivered_twice_is_one_move(store: TableStore) -> None:
    table, screen = table_for(store)
    act = table.service.act
    sent: list[tuple[int | None, int]] = []

    async def twice(table_id: str, user_id: int, key: str, version: int | None = None) -> Outcome:
        """Every move arrives twice, as a repeated keypress would send it."""
        sent.append((version, (await table.service.get(table_id)).version))
        first = await act(table_id, user_id, key, version)
        await act(table_id, user_id, key, version)  # refused: the seat has moved since that version
        return first

    table.service.act = twice  # type: ignore[method-assign]
    assert await table.play("high-card", bots=1, seed=4) == 0
    text = screen.getvalue()
    assert sent and all(shown == current for shown, current in sent), "each move names the version it read"
    # The last move ended the game: its echo finds the table over instead.
    assert text.count("The table moved on before that move arrived (it was not made)") == len(sent) - 1
    assert text.count("Your choice: This table is over.") == 1
    table_id = re.findall(r"Table (\w+):", text)[0]
    played = [e for e in await store.log(table_id) if e.kind == "act"]
    assert len(played) == len(sent), "no move was applied twice"


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
    # A payment under way is told by the game's own words (the table's pending line,
    # printed among the changes): what its cost has taken so far and what is left.
    assert re.search(r"is paying for .+ — nothing chosen yet; still to choose: ", text)
    followed = 0
    for made, then in itertools.pairwise(decisions):
        step = re.search(r"  1\. Phase (.+?) to pay for (.+?)\n", made)
        paying = rf"^ *Player 1 is paying for {re.escape(step.group(2))} — chosen: (.*)$" if step else ""
        if step and (line := re.search(paying, then, re.M)):
            assert f"phase {step.group(1)}" in line.group(1) or f", {step.group(1)}" in line.group(1)
            followed += 1
    assert followed, "a cost was paid in more than one step"
    # A seat's lines keep their indentation under its name.
    assert re.search(r"^  Player 1( ▶)?: .*\n    Warriors: ", text, re.M)


async def test_a_question_s_answer_time_runs_out_as_no_answer(store: TableStore) -> None:
    clock = Clock(1000.0)
    screen = io.StringIO()

    class Slow(Keyboard):
        """Answers every question a second too late."""

        late = 0

        def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
            asked = self.screen.getvalue().rsplit("\nPlayer 1: ", 1)[-1]
            if asked.startswith("Answer the") and asked.endswith("Your choice (30 s left): "):
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


def test_at_a_real_keyboard_the_answer_time_runs_out_without_enter() -> None:
    master, slave = os.openpty()
    with os.fdopen(slave, "r") as keyboard:
        out = io.StringIO()
        screen = Screen(keyboard, out)
        os.write(master, b"2")  # typed half-way, no Enter
        screen.deadline = time.time() + 0.3
        started = time.monotonic()
        with pytest.raises(TimedOut):
            screen.ask("Your choice: ")
        assert 0.2 < time.monotonic() - started < 2
        assert out.getvalue().startswith("Your choice (0 s left): ")
        screen.deadline = None
        os.write(master, b"1\n")
        assert screen.ask("Your choice: ") == "1\n", "the half-typed answer was dropped"
    os.close(master)
