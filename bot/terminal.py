"""The terminal table: one game at one keyboard, through the same
:class:`~bot.tables.TableService` and storage as the Discord bot.

People take turns at the keyboard. Before a seat's private view is shown, the
screen is cleared and a hand-over screen asks that seat's player to take the
keyboard and press Enter, so a hand is only ever on screen while its owner is
the one sitting there. Bots move inside the service, as they do on Discord.

Leaving keeps the game: ``gametable play --list`` shows the unfinished tables
of this terminal and ``gametable play --resume ID`` sits everyone down again.
Terminal tables are those of the pseudo-user :data:`TERMINAL_HOST`, found
through the store's index of each user's tables; Discord user ids are
snowflakes far above the terminal's small seat numbers, so the two never mix.

Input and output are plain text streams so a whole game can be scripted in tests.
"""

from __future__ import annotations

import contextlib
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from bot.errors import TableError
from bot.render import Panel, renderer_for
from bot.tables import Outcome, Player, TableService
from bot.terminal_screen import FLAT_MENU, Quit, Screen
from bot.terminal_text import terminal_text
from engines.core import Choice, Engine, Event, IllegalAction, Seat
from storage.records import TableRecord, TableStatus

# Clear the screen, go home, and clear the scrollback too: the previous seat's
# hand must not be one scroll away from the next player.
CLEAR = "\x1b[2J\x1b[H\x1b[3J"
TERMINAL_HOST = 1  # the user id of "Player 1"; "Player n" is user n
# A year per move: a Discord bot sharing this Redis must never time out the
# people at the keyboard (its sweeper plays default moves for late seats).
TERMINAL_TIMEOUT = 365 * 24 * 3600.0
SEPARATOR = "─" * 60


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


def local_table(record: TableRecord) -> bool:
    """A table this terminal opened (not one of a Discord channel)."""
    return record.host_id == TERMINAL_HOST and record.channel_id is None and record.guild_id is None


class TerminalTable:
    def __init__(
        self,
        service: TableService,
        *,
        stdin: TextIO,
        stdout: TextIO,
        clear_screen: bool | None = None,
        bold: bool | None = None,
        flat_menu: int = FLAT_MENU,
    ) -> None:
        self.service = service
        self.screen = Screen(stdin, stdout, flat_menu)
        self.clear_screen = stdout.isatty() if clear_screen is None else clear_screen
        self.bold = stdout.isatty() if bold is None else bold
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
            self.screen.table_id = await self._open(game, seating, seed, options or {})
        except TableError as refusal:
            self.screen.say(refusal.message)
            return 2
        return await self._play_on(self.screen.table_id)

    async def resume(self, table_id: str) -> int:
        """Sit down again at an unfinished table of this terminal."""
        try:
            record = await self.service.get(table_id.strip().lower())
            if not local_table(record):
                raise TableError(f"Table {record.id} is played on Discord, not at this terminal.")
            if record.status is not TableStatus.PLAYING:
                raise TableError(f"Table {record.id} is {record.status.value}: there is nothing to resume.")
            self.service.engine(record.game)
        except TableError as refusal:
            self.screen.say(refusal.message)
            return 2
        self.screen.table_id = record.id
        self.screen.say(f"Table {record.id}: {', '.join(seat.name for seat in record.seats)}.")
        return await self._play_on(record.id)

    async def list_tables(self) -> int:
        """The unfinished tables of this terminal, oldest first."""
        found = [
            r for r in await self.service.store.of_user(TERMINAL_HOST)
            if local_table(r) and r.status is TableStatus.PLAYING
        ]  # fmt: skip
        if not found:
            self.screen.say("No unfinished tables here. Start one with: gametable play <game>")
            return 0
        for record in found:
            engine = self.service.games.get(record.game)
            title = engine.info.title if engine is not None else record.game
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.updated_at))
            names = ", ".join(seat.name for seat in record.seats)
            self.screen.say(f"{record.id}  {title} — {names} — last move {when}")
        self.screen.say("Resume one with: gametable play --resume <id>")
        return 0

    async def _play_on(self, table_id: str) -> int:
        try:
            return await self._loop(table_id)
        except Quit as leaving:
            self.screen.say(
                f"\nYou left table {table_id}; it is kept. Resume it with: gametable play --resume {table_id}"
            )
            return 130 if leaving.interrupted else 0
        except Stuck as stuck:
            await self._abandon(table_id)
            self.screen.say(str(stuck))
            return 1

    async def _open(self, game: str, seating: Seating, seed: int | None, options: Mapping[str, Any]) -> str:
        people = [Player(user_id=n, name=f"Player {n}") for n in range(TERMINAL_HOST, seating.humans + 1)]
        record = await self.service.create(
            game, people[0], options=options, seed=seed, turn_timeout=TERMINAL_TIMEOUT
        )
        try:
            for person in people[1:]:
                await self.service.join(record.id, person)
            for _ in range(seating.bots):
                await self.service.add_bot(record.id, people[0].user_id)
            outcome = await self.service.start(record.id, people[0].user_id)
        except BaseException:
            # The game refused this table (a variant's own seat rule), or the
            # players gave up while it was laid: no lobby may stay behind.
            with contextlib.suppress(Exception):
                await self.service.store.delete(record.id)
            raise
        names = ", ".join(seat.name for seat in outcome.table.seats)
        self.screen.say(f"Table {record.id}: {names}.")
        self._report(outcome, actor=None)
        return record.id

    async def _loop(self, table_id: str) -> int:
        while True:
            record = await self.service.get(table_id)
            if record.status is TableStatus.FINISHED:
                self._show_result(record)
                return 0
            if record.status is not TableStatus.PLAYING:
                self.screen.say("The table was abandoned.")
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
            self.screen.say(refusal.message)
            return
        self._report(outcome, actor=seat)

    def _hand_over(self, record: TableRecord, seat: Seat) -> None:
        name = record.seats[seat].name
        if self.clear_screen:
            self.screen.write(CLEAR)
            # The clear wiped what happened since the last hand-over: show it again.
            for line in self._news:
                self.screen.say(line)
        else:
            self.screen.say(SEPARATOR)
        self._news = []
        self.screen.ask(f"Pass the keyboard to {name}, then press Enter. ")

    def _show_seat(self, record: TableRecord, seat: Seat, user_id: int) -> None:
        renderer = renderer_for(record.game)
        title = self.service.engine(record.game).info.title
        self.screen.say(f"\n── {title} · table {record.id} ──")
        self._show_panel(record, renderer.table(self.service.view(record, None)))
        name = record.seats[seat].name
        self.screen.say(f"\n── only for {name} ──")
        self._show_panel(record, renderer.hand(self.service.view(record, user_id)))
        for line in self._private.pop(seat, []):
            self.screen.say(f"  (to you) {line}")
        for prompt in self.service.prompts(record):
            if prompt.seat == seat and prompt.awaited:
                self.screen.say(f"{name}: {self._text(record, prompt.text)}")

    def _report(self, outcome: Outcome, actor: Seat | None) -> None:
        """Public events to everyone now; private ones to their seats only."""
        record = outcome.table
        told_actor = False
        for event in outcome.events:
            if event.kind == "result":
                continue  # the result panel that ends the game says it, once
            line = self._text(record, event.text)
            if event.to is None:
                self.screen.say(line)
                self._news.append(line)
            else:
                told_actor |= self._route_private(record, event, line, actor)
        handing_over = self._people(record) > 1 and self._next_seat(record) not in (None, actor)
        if told_actor and handing_over and record.status is TableStatus.PLAYING:
            # The hand-over screen clears the screen: let the actor read their
            # private news first.
            self.screen.ask("Press Enter to end your turn. ")

    def _route_private(self, record: TableRecord, event: Event, line: str, actor: Seat | None) -> bool:
        """Show a private line to the actor now or keep it for its seat; True if shown."""
        shown = False
        for seat in event.to or []:
            if record.seats[seat].bot:
                continue
            if seat == actor:
                self.screen.say(f"  (to you) {line}")
                shown = True
            else:
                self._private[seat].append(line)
        return shown

    def _show_result(self, record: TableRecord) -> None:
        result = self.service.result(record)
        if result is None:
            return
        if self.clear_screen:
            self.screen.write(CLEAR)
        self.screen.say("")
        panel = renderer_for(record.game).result(result, self.service.view(record, None))
        self._show_panel(record, panel)

    # ----- menus -----

    def _choose(self, record: TableRecord, choices: list[Choice]) -> Choice:
        return self.screen.choose(choices, lambda text: self._text(record, text))

    # ----- text in and out -----

    def _show_panel(self, record: TableRecord, panel: Panel) -> None:
        def text(value: str) -> str:
            return self._text(record, value)

        if panel.title:
            self.screen.say(text(panel.title))
        if panel.description:
            self.screen.say(text(panel.description))
        for field in panel.fields:
            self.screen.say(f"  {text(field.name)}: {text(field.value)}")
        if panel.footer:
            self.screen.say(text(panel.footer))

    def _text(self, record: TableRecord, text: str) -> str:
        """Engine or renderer text with names for seats, Discord markdown made terminal text."""
        return terminal_text(self.service.text(record, text), bold=self.bold)

    @staticmethod
    def _people(record: TableRecord) -> int:
        return sum(1 for seat in record.seats if not seat.bot)
