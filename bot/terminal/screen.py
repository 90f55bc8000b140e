"""The terminal table's keyboard and screen: prompts, numbered menus over a
seat's legal choices with each card's text under it, a few reading keys, and
leaving (asked first, since one stray key must not end an evening's game).

Whatever is typed — a digit from another script (``²``), a number of five
thousand digits, control characters, nothing at all — gets a short answer and
the same prompt again.
"""

from __future__ import annotations

import contextlib
import select
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TextIO

from bot.render.base import fit
from bot.render.cardtext import option_details
from bot.render.menu import level, narrow, whole_move
from engines.core import Choice

FLAT_MENU = 9  # up to this many choices fit one list; more are walked step by step
QUIT_WORDS = ("q", "quit", "exit")
DETAIL_WIDTH = 100  # a choice's card text under it, as long as a Discord select description
MAX_NUMBER = 6  # digits a menu number may have: anything longer is no menu's
KEYS_HELP = "?N: card text of choice N · c NAME: any card · t: the whole table · q: leave"
# A reading key ("t", "c NAME", …) and what it does with the rest of the line.
Keys = Mapping[str, Callable[[str], None]]


class Quit(Exception):
    """The players chose to leave: ``q``, end of input, or Ctrl-C (``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("quit")
        self.interrupted = interrupted


class TimedOut(Exception):
    """The prompt's answer time ran out before an answer came."""


@dataclass
class _Entry:
    """One line of a menu: a choice, or a group of choices sharing a step."""

    text: str
    choice: Choice | None = None
    path: list[int] | None = None
    detail: str = ""


def compact(detail: str, width: int = DETAIL_WIDTH) -> str:
    """A card's text on one short line: its lines joined, cut with "…"."""
    return fit(" ".join(detail.split()), width)


def menu_number(answer: str) -> int | None:
    """The number typed, or None: only ASCII digits, and few of them (``int``
    takes ``²`` for a digit and refuses numbers of thousands of digits)."""
    if answer.isascii() and answer.isdigit() and len(answer) <= MAX_NUMBER:
        return int(answer)
    return None


def printable(text: str) -> str:
    """What was typed, as a short answer may quote it: no control characters."""
    return "".join(c for c in text if unicodedata.category(c)[0] != "C")[:20]


class Screen:
    def __init__(
        self,
        stdin: TextIO,
        stdout: TextIO,
        flat_menu: int = FLAT_MENU,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.flat_menu = flat_menu
        self.clock = clock
        self.table_id: str | None = None  # named when leaving, to resume it later
        self.deadline: float | None = None  # when the current question's answer time runs out

    # ----- menus -----

    def choose(self, choices: list[Choice], text: Callable[[str], str], keys: Keys | None = None) -> Choice:
        """Numbered menus; many choices are walked through their ``steps``.
        ``text`` turns engine text into what the screen shows; ``keys`` are the
        reading keys (``t``, ``c``) offered beside the numbers."""
        stack: list[list[int]] = [[]]
        while True:
            path, entries = self._menu(choices, stack[-1])
            if path:
                names = [level(choices, path[:depth])[index].label for depth, index in enumerate(path)]
                self.say(text(" › ".join(names)))
            self._list(entries, text)
            back = len(stack) > 1
            if back:
                self.say("  0. Back")
            picked = self._pick(entries, back, text, keys or {})
            if picked is None:
                continue  # a reading key printed something: the menu again, under it
            if picked == 0:
                stack.pop()
                continue
            entry = entries[picked - 1]
            if entry.choice is not None:
                return entry.choice
            assert entry.path is not None
            stack.append(entry.path)

    def _list(self, entries: list[_Entry], text: Callable[[str], str]) -> None:
        details = {e.detail for e in entries}
        shared = len(entries) > 1 and len(details) == 1 and "" not in details
        if shared:
            # The same card under every line: said once, for all of them.
            self.say(f"  ({text(compact(entries[0].detail))})")
        for number, entry in enumerate(entries, start=1):
            self.say(f"  {number}. {text(entry.text)}")
            if entry.detail and not shared:
                self.say(f"       {text(compact(entry.detail))}")

    def _menu(self, choices: list[Choice], path: list[int]) -> tuple[list[int], list[_Entry]]:
        """The entries under ``path``: one list when few enough, else the next
        level of steps, skipping levels that offer a single group."""
        while True:
            under = narrow(choices, path)
            if len(under) <= self.flat_menu:
                return path, [_Entry(text=whole_move(c), choice=c, detail=c.detail) for c in under]
            options = level(choices, path)
            if len(options) == 1 and options[0].choice is None:
                path = [*path, options[0].index]
                continue
            details = option_details(choices, path, options)
            return path, [
                _Entry(text=o.label, choice=o.choice, detail=details.get(o.index, ""))
                if o.choice is not None
                else _Entry(
                    text=f"{o.label} … ({len(narrow(choices, [*path, o.index]))} choices)",
                    path=[*path, o.index],
                    detail=details.get(o.index, ""),
                )
                for o in options
            ]

    def _pick(self, entries: list[_Entry], back: bool, text: Callable[[str], str], keys: Keys) -> int | None:
        """The number picked, or None once a reading key has been answered."""
        count = len(entries)
        hint = f"a number from 1 to {count}" + (", 0 to go back" if back else "") + " or q to leave"
        while True:
            answer = self.ask("Your choice: ").strip()
            number = menu_number(answer)
            if number is not None and (1 <= number <= count or (back and number == 0)):
                return number
            if self._read_key(answer, entries, text, keys):
                return None
            if answer.lower() in ("h", "help", "?"):
                self.say(f"Type {hint}. {KEYS_HELP}")
                continue
            self.say(f"Please type {hint} (h: more keys).")

    def _read_key(self, answer: str, entries: list[_Entry], text: Callable[[str], str], keys: Keys) -> bool:
        """A reading key: ``?N`` shows choice N's card text in full; a key of
        ``keys`` runs with the rest of the line. True if the answer was one."""
        if answer.startswith("?") and len(answer) > 1:
            number = menu_number(answer[1:].strip())
            if number is None or not 1 <= number <= len(entries):
                self.say(f"There is no choice {printable(answer[1:].strip())!r} here.")
            elif not entries[number - 1].detail:
                self.say(f"Choice {number} names no card.")
            else:
                self.say(f"{text(entries[number - 1].text)}:\n{text(entries[number - 1].detail)}")
            return True
        word, _, rest = answer.partition(" ")
        handler = keys.get(word.lower())
        if handler is None:
            return False
        handler(rest.strip())
        return True

    # ----- lines in and out -----

    def ask(self, prompt: str) -> str:
        """A line from the keyboard. ``q``, end of input and Ctrl-C mean leaving,
        once confirmed; otherwise the same prompt again."""
        while True:
            try:
                line = self._read(prompt, self.deadline)
            except (EOFError, KeyboardInterrupt) as stop:
                self.write("\n")
                self._leave_if_sure(interrupted=isinstance(stop, KeyboardInterrupt))
                continue
            if line.strip().lower() in QUIT_WORDS:
                self._leave_if_sure(interrupted=False)
                continue
            return line

    def _leave_if_sure(self, interrupted: bool) -> None:
        kept = ""
        if self.table_id is not None:
            kept = f" Your game is kept; resume it with gametable play --resume {self.table_id}"
        try:
            answer = self._read(f"Leave the table?{kept} [y/N] ", None)
        except (EOFError, KeyboardInterrupt) as stop:
            self.write("\n")  # no keyboard left to answer: leave
            raise Quit(interrupted or isinstance(stop, KeyboardInterrupt)) from None
        if answer.strip().lower() in ("y", "yes"):
            raise Quit(interrupted)

    def _read(self, prompt: str, deadline: float | None) -> str:
        if deadline is not None:
            left = max(0, int(deadline - self.clock()))
            base = prompt.rstrip()
            colon = ":" if base.endswith(":") else ""
            prompt = f"{base.removesuffix(':')} ({left} s left){colon} "
        self.write(prompt)
        if deadline is not None:
            self._wait_for_input(deadline)
        line = self.stdin.readline()
        if not line:
            raise EOFError
        if deadline is not None and self.clock() >= deadline:
            raise TimedOut  # typed, but too late: no answer, as at a table
        return line

    def _wait_for_input(self, deadline: float) -> None:
        """Wait for a line until ``deadline`` at a real keyboard. Other streams
        (a pipe, a test's) are read as they come: their reader may hold lines
        already read ahead that ``select`` cannot see."""
        try:
            if not self.stdin.isatty():
                return
            fileno = self.stdin.fileno()
        except (OSError, ValueError):
            return
        ready, _, _ = select.select([fileno], [], [], max(0.0, deadline - self.clock()))
        if not ready:
            # What was typed half-way must not become the next prompt's answer.
            with contextlib.suppress(OSError, ImportError):
                import termios

                termios.tcflush(fileno, termios.TCIFLUSH)
            self.write("\n")
            raise TimedOut

    def say(self, line: str) -> None:
        self.write(line + "\n")

    def write(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
