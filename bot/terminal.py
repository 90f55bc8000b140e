"""The terminal table: one game at one keyboard, through the same
:class:`~bot.tables.TableService` and storage as the Discord bot.

People take turns at the keyboard. Before a seat's private view is shown, the
screen is cleared and a hand-over screen asks that seat's player to take the
keyboard and press Enter, so a hand is only ever on screen while its owner is
the one sitting there. Bots move inside the service, as they do on Discord.

Input and output are plain text streams so a whole game can be scripted in tests.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from bot.errors import TableError
from bot.render import Panel, renderer_for
from bot.tables import Outcome, Player, TableService
from engines.core import Choice, Engine, Event, IllegalAction, Seat
from storage.records import TableRecord, TableStatus

CLEAR = "\x1b[2J\x1b[H"
# A year per move: a Discord bot sharing this Redis must never time out the
# people at the keyboard (its sweeper plays default moves for late seats).
TERMINAL_TIMEOUT = 365 * 24 * 3600.0
FLAT_MENU = 9  # up to this many choices fit one list; more are walked step by step
SEPARATOR = "─" * 60


_MARKDOWN = re.compile(r"\*\*|__|~~|`")
_EMPHASIS = re.compile(r"(?<![\w*])\*(\S(?:[^*\n]*\S)?)\*(?![\w*])")


def plain(text: str) -> str:
    """Panels are written for Discord: drop the markdown a terminal would show raw."""
    return _EMPHASIS.sub(r"\1", _MARKDOWN.sub("", text))


class Quit(Exception):
    """The players left: ``q``, end of input, or Ctrl-C (``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__("quit")
        self.interrupted = interrupted


class Stuck(Exception):
    """No seat at the keyboard can move and the game is not over."""


@dataclass(frozen=True)
class Seating:
    seats: int
    bots: int

    @property
    def humans(self) -> int:
        return self.seats - self.bots


def plan_seating(
    engine: Engine[Any, Any], options: Mapping[str, Any], seats: int | None, bots: int
) -> Seating:
    """Check the seat counts against the game before any table is created."""
    try:
        parsed = engine.parse_options(options)
    except IllegalAction as refusal:
        raise TableError(refusal.reason) from None
    low, high = engine.seat_range(parsed)
    if bots < 0:
        raise TableError("--bots cannot be negative.")
    total = seats if seats is not None else max(low, bots + 1)
    if not low <= total <= high:
        raise TableError(
            f"{engine.info.title} seats {low}–{high} players, so --seats {total} is not possible."
        )
    if bots >= total:
        raise TableError(f"Leave at least one seat for a person: --bots must be below {total} seats.")
    return Seating(seats=total, bots=bots)


@dataclass
class _Entry:
    """One line of a menu: a choice, or a group of choices sharing a step."""

    text: str
    choice: Choice | None = None
    path: list[str] | None = None


class TerminalTable:
    def __init__(
        self,
        service: TableService,
        *,
        stdin: TextIO,
        stdout: TextIO,
        clear_screen: bool | None = None,
        flat_menu: int = FLAT_MENU,
    ) -> None:
        self.service = service
        self.stdin = stdin
        self.stdout = stdout
        self.clear_screen = stdout.isatty() if clear_screen is None else clear_screen
        self.flat_menu = flat_menu
        self._private: dict[Seat, list[str]] = defaultdict(list)  # waiting for their seat's turn
        self._news: list[str] = []  # public lines since the last hand-over
        self._on_screen: Seat | None = None  # whose private view the screen may hold

    # ----- the whole game -----

    async def play(
        self,
        game: str,
        *,
        seats: int | None = None,
        bots: int = 0,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> int:
        """Seat everyone, play to the end; returns a process exit code."""
        try:
            engine = self.service.engine(game)
            seating = plan_seating(engine, options or {}, seats, bots)
            table_id = await self._open(game, seating, seed, options or {})
        except TableError as refusal:
            self._say(refusal.message)
            return 2
        try:
            return await self._loop(table_id)
        except Quit as leaving:
            await self._abandon(table_id)
            self._say("\nYou left the table; it is abandoned.")
            return 130 if leaving.interrupted else 0
        except Stuck as stuck:
            await self._abandon(table_id)
            self._say(str(stuck))
            return 1

    async def _open(self, game: str, seating: Seating, seed: int | None, options: Mapping[str, Any]) -> str:
        people = [Player(user_id=n, name=f"Player {n}") for n in range(1, seating.humans + 1)]
        record = await self.service.create(
            game, people[0], options=options, seed=seed, turn_timeout=TERMINAL_TIMEOUT
        )
        for person in people[1:]:
            await self.service.join(record.id, person)
        for _ in range(seating.bots):
            await self.service.add_bot(record.id, people[0].user_id)
        outcome = await self.service.start(record.id, people[0].user_id)
        names = ", ".join(seat.name for seat in outcome.table.seats)
        self._say(f"Table {record.id}: {names}.")
        self._report(outcome, actor=None)
        return record.id

    async def _loop(self, table_id: str) -> int:
        while True:
            record = await self.service.get(table_id)
            if record.status is TableStatus.FINISHED:
                self._show_result(record)
                return 0
            if record.status is not TableStatus.PLAYING:
                self._say("The table was abandoned.")
                return 1
            seat = self._next_seat(record)
            if seat is None:
                await self._let_bots_move(record)
                continue
            await self._turn(record, seat)

    def _next_seat(self, record: TableRecord) -> Seat | None:
        people = [s for s in self.service.awaited(record) if not record.seats[s].bot]
        return people[0] if people else None

    async def _let_bots_move(self, record: TableRecord) -> None:
        # Only bots are awaited: their step budget inside one act ran out, and the
        # service left the deadline at "now" for the sweeper. Sweep it ourselves
        # (any other table it finds due is one the bot's own sweeper would play too).
        if record.deadline is not None:
            outcomes = [o for o in await self.service.expire(now=record.deadline) if o.table.id == record.id]
            for outcome in outcomes:
                self._report(outcome, actor=None)
            if any(o.table.state != record.state for o in outcomes):
                return
        raise Stuck("The game is stuck: nobody at this table can move. Please report this game and seed.")

    async def _abandon(self, table_id: str) -> None:
        try:
            record = await self.service.get(table_id)
            if record.status.active:
                await self.service.abandon(table_id, record.host_id)
        except TableError:
            pass  # already over or gone: nothing left to tidy

    # ----- one seat's turn -----

    async def _turn(self, record: TableRecord, seat: Seat) -> None:
        user_id = record.seats[seat].user_id
        assert user_id is not None  # _next_seat only picks people
        if self._on_screen != seat and self._people(record) > 1:
            self._hand_over(record, seat)
        self._on_screen = seat
        self._show_seat(record, seat, user_id)
        choices = self.service.choices(record, user_id)
        if not choices:
            raise Stuck(f"{record.seats[seat].name} is awaited but has no legal move; the game is stuck.")
        choice = self._choose(record, choices)
        try:
            outcome = await self.service.act(record.id, user_id, choice.key)
        except TableError as refusal:
            self._say(refusal.message)
            return
        self._report(outcome, actor=seat)

    def _hand_over(self, record: TableRecord, seat: Seat) -> None:
        name = record.seats[seat].name
        if self.clear_screen:
            self._write(CLEAR)
            # The clear wiped what happened since the last hand-over: show it again.
            for line in self._news:
                self._say(line)
        else:
            self._say(SEPARATOR)
        self._news = []
        self._ask(f"Pass the keyboard to {name}, then press Enter. ")

    def _show_seat(self, record: TableRecord, seat: Seat, user_id: int) -> None:
        renderer = renderer_for(record.game)
        title = self.service.engine(record.game).info.title
        self._say(f"\n── {title} · table {record.id} ──")
        self._show_panel(record, renderer.table(self.service.view(record, None)))
        name = record.seats[seat].name
        self._say(f"\n── only for {name} ──")
        self._show_panel(record, renderer.hand(self.service.view(record, user_id)))
        for line in self._private.pop(seat, []):
            self._say(f"  (to you) {line}")
        for prompt in self.service.prompts(record):
            if prompt.seat == seat and prompt.awaited:
                self._say(f"{name}: {self._text(record, prompt.text)}")

    def _report(self, outcome: Outcome, actor: Seat | None) -> None:
        """Public events to everyone now; private ones to their seats only."""
        record = outcome.table
        told_actor = False
        for event in outcome.events:
            line = self._text(record, event.text)
            if event.to is None:
                self._say(line)
                self._news.append(line)
            else:
                told_actor |= self._route_private(record, event, line, actor)
        handing_over = self._people(record) > 1 and self._next_seat(record) not in (None, actor)
        if told_actor and handing_over and record.status is TableStatus.PLAYING:
            # The hand-over screen clears the screen: let the actor read their
            # private news first.
            self._ask("Press Enter to end your turn. ")

    def _route_private(self, record: TableRecord, event: Event, line: str, actor: Seat | None) -> bool:
        """Show a private line to the actor now or keep it for its seat; True if shown."""
        shown = False
        for seat in event.to or []:
            if record.seats[seat].bot:
                continue
            if seat == actor:
                self._say(f"  (to you) {line}")
                shown = True
            else:
                self._private[seat].append(line)
        return shown

    def _show_result(self, record: TableRecord) -> None:
        result = self.service.result(record)
        if result is None:
            return
        if self.clear_screen:
            self._write(CLEAR)
        self._say("")
        panel = renderer_for(record.game).result(result, self.service.view(record, None))
        self._show_panel(record, panel)

    # ----- menus -----

    def _choose(self, record: TableRecord, choices: Sequence[Choice]) -> Choice:
        """Numbered menus; many choices are walked through their ``steps``."""
        stack: list[list[str]] = [[]]
        while True:
            path, entries = self._menu(choices, stack[-1])
            if path:
                self._say(self._text(record, " › ".join(path)))
            for number, entry in enumerate(entries, start=1):
                self._say(f"  {number}. {self._text(record, entry.text)}")
            back = len(stack) > 1
            if back:
                self._say("  0. Back")
            picked = self._pick(len(entries), back)
            if picked == 0:
                stack.pop()
                continue
            entry = entries[picked - 1]
            if entry.choice is not None:
                return entry.choice
            assert entry.path is not None
            stack.append(entry.path)

    def _menu(self, choices: Sequence[Choice], path: list[str]) -> tuple[list[str], list[_Entry]]:
        """The entries under ``path``, skipping levels that offer a single group."""
        path = list(path)
        while True:
            depth = len(path)
            under = [c for c in choices if c.steps[:depth] == path]
            if len(under) <= self.flat_menu:
                return path, [_Entry(text=c.label, choice=c) for c in under]
            groups: dict[str, list[Choice]] = {}
            for choice in under:
                step = choice.steps[depth] if len(choice.steps) > depth else choice.label
                groups.setdefault(step, []).append(choice)
            if len(groups) == 1 and all(len(c.steps) > depth + 1 for c in under):
                path.append(next(iter(groups)))
                continue
            entries = [
                _Entry(text=step, choice=members[0])
                if len(members) == 1
                else _Entry(text=f"{step} … ({len(members)})", path=[*path, step])
                for step, members in groups.items()
            ]
            return path, entries

    def _pick(self, count: int, back: bool) -> int:
        hint = f"a number from 1 to {count}" + (", 0 to go back" if back else "") + " or q to leave"
        while True:
            answer = self._ask("Your choice: ").strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit()
            if answer.isdigit() and (1 <= int(answer) <= count or (back and int(answer) == 0)):
                return int(answer)
            self._say(f"Please type {hint}.")

    # ----- text in and out -----

    def _show_panel(self, record: TableRecord, panel: Panel) -> None:
        def text(value: str) -> str:
            return self._text(record, value)

        if panel.title:
            self._say(text(panel.title))
        if panel.description:
            self._say(text(panel.description))
        for field in panel.fields:
            self._say(f"  {text(field.name)}: {text(field.value)}")
        if panel.footer:
            self._say(text(panel.footer))

    def _text(self, record: TableRecord, text: str) -> str:
        """Engine or renderer text with names for seats and without Discord markdown."""
        return plain(self.service.text(record, text))

    @staticmethod
    def _people(record: TableRecord) -> int:
        return sum(1 for seat in record.seats if not seat.bot)

    def _ask(self, prompt: str) -> str:
        self._write(prompt)
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            raise Quit(interrupted=True) from None
        if not line:
            self._write("\n")
            raise Quit()
        return line

    def _say(self, line: str) -> None:
        self._write(line + "\n")

    def _write(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
