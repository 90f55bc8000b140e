"""The terminal table's keyboard and screen: prompts, numbered menus over a
seat's legal choices, and leaving (asked first, since one stray key must not
end an evening's game)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from bot.render.menu import level, narrow, whole_move
from engines.core import Choice

FLAT_MENU = 9  # up to this many choices fit one list; more are walked step by step
QUIT_WORDS = ("q", "quit", "exit")


class Quit(Exception):
    """The players chose to leave: ``q``, end of input, or Ctrl-C (``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("quit")
        self.interrupted = interrupted


@dataclass
class _Entry:
    """One line of a menu: a choice, or a group of choices sharing a step."""

    text: str
    choice: Choice | None = None
    path: list[int] | None = None


class Screen:
    def __init__(self, stdin: TextIO, stdout: TextIO, flat_menu: int = FLAT_MENU) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.flat_menu = flat_menu
        self.table_id: str | None = None  # named when leaving, to resume it later

    # ----- menus -----

    def choose(self, choices: list[Choice], text: Callable[[str], str]) -> Choice:
        """Numbered menus; many choices are walked through their ``steps``.
        ``text`` turns engine text into what the screen shows."""
        stack: list[list[int]] = [[]]
        while True:
            path, entries = self._menu(choices, stack[-1])
            if path:
                names = [level(choices, path[:depth])[index].label for depth, index in enumerate(path)]
                self.say(text(" › ".join(names)))
            for number, entry in enumerate(entries, start=1):
                self.say(f"  {number}. {text(entry.text)}")
            back = len(stack) > 1
            if back:
                self.say("  0. Back")
            picked = self._pick(len(entries), back)
            if picked == 0:
                stack.pop()
                continue
            entry = entries[picked - 1]
            if entry.choice is not None:
                return entry.choice
            assert entry.path is not None
            stack.append(entry.path)

    def _menu(self, choices: list[Choice], path: list[int]) -> tuple[list[int], list[_Entry]]:
        """The entries under ``path``: one list when few enough, else the next
        level of steps, skipping levels that offer a single group."""
        while True:
            under = narrow(choices, path)
            if len(under) <= self.flat_menu:
                return path, [_Entry(text=whole_move(c), choice=c) for c in under]
            options = level(choices, path)
            if len(options) == 1 and options[0].choice is None:
                path = [*path, options[0].index]
                continue
            return path, [
                _Entry(text=o.label, choice=o.choice)
                if o.choice is not None
                else _Entry(
                    text=f"{o.label} … ({len(narrow(choices, [*path, o.index]))})", path=[*path, o.index]
                )
                for o in options
            ]

    def _pick(self, count: int, back: bool) -> int:
        hint = f"a number from 1 to {count}" + (", 0 to go back" if back else "") + " or q to leave"
        while True:
            answer = self.ask("Your choice: ").strip().lower()
            if answer.isdigit() and (1 <= int(answer) <= count or (back and int(answer) == 0)):
                return int(answer)
            self.say(f"Please type {hint}.")

    # ----- lines in and out -----

    def ask(self, prompt: str) -> str:
        """A line from the keyboard. ``q``, end of input and Ctrl-C mean leaving,
        once confirmed; otherwise the same prompt again."""
        while True:
            try:
                line = self._read(prompt)
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
            answer = self._read(f"Leave the table?{kept} [y/N] ")
        except (EOFError, KeyboardInterrupt) as stop:
            self.write("\n")  # no keyboard left to answer: leave
            raise Quit(interrupted or isinstance(stop, KeyboardInterrupt)) from None
        if answer.strip().lower() in ("y", "yes"):
            raise Quit(interrupted)

    def _read(self, prompt: str) -> str:
        self.write(prompt)
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line

    def say(self, line: str) -> None:
        self.write(line + "\n")

    def write(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
