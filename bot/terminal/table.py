"""The terminal table: one game at one keyboard, through the same
:class:`~bot.service.tables.TableService` and storage as the Discord bot.

People take turns at the keyboard. Before a seat's private view is shown, the
screen is cleared and a hand-over screen asks that seat's player to take the
keyboard and press Enter, so a hand is only ever on screen while its owner is
the one sitting there. Bots move inside the service, as they do on Discord.

Leaving keeps the game: ``gametable play --list`` shows the unfinished tables
of this terminal and ``gametable play --resume ID`` sits everyone down again
(see :mod:`bot.terminal.tables`). After the first showing, the table and a hand
are printed as what changed (:mod:`bot.terminal.show`); ``t`` shows them whole.
A game's end prints the recap Discord posts.

Input and output are plain text streams so a whole game can be scripted in tests.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from bot.render import Panel, renderer_for
from bot.render.cardtext import card_panel
from bot.render.recap import recap_panel
from bot.service.errors import OutcomeUnknown, ServiceError, StaleClick, StorageUnavailable, TableError
from bot.service.tables import Outcome, Player, TableService
from bot.terminal.screen import FLAT_MENU, Quit, Screen, TimedOut
from bot.terminal.show import Shown, card_named, print_panel
from bot.terminal.tables import (
    TERMINAL_HOST,
    Seating,
    abandon,
    listing,
    local_table,
    plan_seating,
    terminal_record,
)
from bot.terminal.text import terminal_text
from engines.core import Choice, Event, Seat
from storage.records import BotLevel, TableRecord, TableStatus

# Clear the screen, go home, and clear the scrollback too: the previous seat's
# hand must not be one scroll away from the next player.
CLEAR = "\x1b[2J\x1b[H\x1b[3J"
# A year per move: a Discord bot sharing this Redis must never time out the
# people at the keyboard (its sweeper plays default moves for late seats).
TERMINAL_TIMEOUT = 365 * 24 * 3600.0
SEPARATOR = "─" * 60
__all__ = [
    "CLEAR", "TERMINAL_HOST", "TERMINAL_TIMEOUT", "Seating", "Stuck", "TerminalTable",
    "local_table", "plan_seating",
]  # fmt: skip


class Stuck(Exception):
    """No seat at the keyboard can move and the game is not over."""


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
        self.screen = Screen(stdin, stdout, flat_menu, clock=service.clock)
        self.clear_screen = stdout.isatty() if clear_screen is None else clear_screen
        self.bold = stdout.isatty() if bold is None else bold
        self._private: dict[Seat, list[str]] = defaultdict(list)  # waiting for their seat's turn
        self._news: list[str] = []  # public lines since the last hand-over
        self._on_screen: Seat | None = None  # whose private view the screen may hold
        self._shown = Shown()

    # ----- the whole game -----

    async def play(
        self,
        game: str,
        *,
        seats: int | None = None,
        bots: int = 0,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        level: BotLevel = "normal",
    ) -> int:
        """Seat everyone, play to the end; returns a process exit code."""
        try:
            engine = self.service.engine(game)
            seating = plan_seating(engine, options or {}, seats, bots)
            self.screen.table_id = await self._open(game, seating, seed, options or {}, level)
        except ServiceError as refusal:
            self.screen.say(refusal.message)
            return 2
        return await self._play_on(self.screen.table_id)

    async def resume(self, table_id: str) -> int:
        """Sit down again at an unfinished table of this terminal."""
        try:
            record = await terminal_record(self.service, table_id)
            if record.status is not TableStatus.PLAYING:
                raise TableError(f"Table {record.id} is {record.status.value}: there is nothing to resume.")
            self.service.engine(record.game)
        except ServiceError as refusal:
            self.screen.say(refusal.message)
            return 2
        self.screen.table_id = record.id
        self.screen.say(f"Table {record.id}: {', '.join(seat.name for seat in record.seats)}.")
        return await self._play_on(record.id)

    async def list_tables(self, kept_in: str = "this store") -> int:
        """The unfinished tables of this terminal, oldest first."""
        for line in await listing(self.service, kept_in):
            self.screen.say(line)
        return 0

    async def abandon(self, table_id: str) -> int:
        """Give up an unfinished table of this terminal."""
        try:
            self.screen.say(await abandon(self.service, table_id))
        except ServiceError as refusal:
            self.screen.say(refusal.message)
            return 2
        return 0

    async def _play_on(self, table_id: str) -> int:
        try:
            return await self._loop(table_id)
        except (Quit, KeyboardInterrupt) as leaving:
            self.screen.say(
                f"\nYou left table {table_id}; it is kept. Resume it with: gametable play --resume {table_id}"
            )
            interrupted = not isinstance(leaving, Quit) or leaving.interrupted
            return 130 if interrupted else 0
        except Stuck as stuck:
            await self._abandon(table_id)
            self.screen.say(str(stuck))
            return 1
        except StorageUnavailable as away:
            # The store went away mid-game: what was saved is kept, and so is the table.
            self.screen.say(f"{away.message}\nTable {table_id} is kept: gametable play --resume {table_id}")
            return 1

    async def _open(
        self, game: str, seating: Seating, seed: int | None, options: Mapping[str, Any], level: BotLevel
    ) -> str:
        people = [Player(user_id=n, name=f"Player {n}") for n in range(TERMINAL_HOST, seating.humans + 1)]
        record = await self.service.create(
            game, people[0], options=options, seed=seed, turn_timeout=TERMINAL_TIMEOUT
        )
        try:
            for person in people[1:]:
                await self.service.join(record.id, person)
            for _ in range(seating.bots):
                await self.service.add_bot(record.id, people[0].user_id, level=level)
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
                await self._show_result(record)
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
        except ServiceError:
            pass  # already over or gone: nothing left to tidy

    # ----- one seat's turn -----

    async def _turn(self, record: TableRecord, seat: Seat) -> None:
        user_id = record.seats[seat].user_id
        assert user_id is not None  # _next_seat only picks people
        if self._on_screen != seat:
            if self._people(record) > 1:
                self._hand_over(record, seat)
            self._shown.forget()  # a new reader: everything whole
        self._on_screen = seat
        self._show_seat(record, seat, user_id)
        choices = self.service.choices(record, user_id)
        if not choices:
            raise Stuck(f"{record.seats[seat].name} is awaited but has no legal move; the game is stuck.")
        self.screen.deadline = self._answer_time(record, seat)
        try:
            choice = self._choose(record, choices, seat, user_id)
        except TimedOut:
            await self._time_out(record)
            return
        finally:
            self.screen.deadline = None
        try:
            # The version this choice was read from: the same keypress twice is one move.
            outcome = await self.service.act(record.id, user_id, choice.key, version=record.version)
        except StaleClick:
            self.screen.say("The table moved on before that move arrived (it was not made); here it is now.")
            return
        except OutcomeUnknown as unknown:
            self.screen.say(unknown.message)  # the table is read again below: it shows whether it counted
            return
        except TableError as refusal:
            self.screen.say(refusal.message)
            return
        self._report(outcome, actor=seat)

    def _answer_time(self, record: TableRecord, seat: Seat) -> float | None:
        """When this seat's answer time runs out, for a prompt with its own limit
        (a timed question); None at the terminal's own unhurried pace."""
        timed = [p for p in self.service.prompts(record) if p.seat == seat and p.awaited and p.timeout]
        return record.clocks.due.get(seat) if timed else None

    async def _time_out(self, record: TableRecord) -> None:
        """Running out of time counts as no answer: the default move, as a table's sweeper plays it."""
        self.screen.say("Time is up.")
        outcome = await self.service.expire_table(record.id, self.service.clock())
        if outcome is not None:
            self._report(outcome, actor=None)

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

    def _show_seat(self, record: TableRecord, seat: Seat, user_id: int, whole: bool = False) -> None:
        renderer = renderer_for(record.game)
        title = self.service.engine(record.game).info.title
        name = record.seats[seat].name
        table = renderer.table(self.service.view(record, None))
        hand = renderer.hand(self.service.view(record, user_id))
        if whole or "table" not in self._shown.panels:
            self.screen.say(f"\n── {title} · table {record.id} ──")
            self._show_panel(record, table, "table", whole=True)
            self.screen.say(f"\n── only for {name} ──")
            self._show_panel(record, hand, f"hand:{seat}", whole=True)
        else:
            self.screen.say("\n── what changed · t: the whole table, h: keys ──")
            changed = self._show_panel(record, table, "table", whole=False)
            changed |= self._show_panel(record, hand, f"hand:{seat}", whole=False, label=hand.title)
            if not changed:
                self.screen.say("    (nothing changed)")
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

    async def _show_result(self, record: TableRecord) -> None:
        """The result and the recap Discord posts. The screen is cleared first
        only when several people share it (the last hand may still be on it);
        one player keeps the last moves and the seed in the scrollback."""
        result = self.service.result(record)
        if result is None:
            return
        if self.clear_screen and self._people(record) > 1:
            self.screen.write(CLEAR)
        self.screen.say("")
        engine = self.service.engine(record.game)
        panel = renderer_for(record.game).result(result, self.service.view(record, None))
        self._show_panel(record, panel)
        entries = await self.service.store.log(record.id)
        why = engine.recap(self.service.state(record))
        recap = recap_panel(engine.info.title, record, result, why, entries)
        recap.footer = f"The whole log, seed included: gametable log {record.id}"
        if result.summary:
            # The result just above says it already.
            recap.description = "\n".join(x for x in recap.description.split("\n") if x != result.summary)
        self.screen.say("")
        self._show_panel(record, recap)

    # ----- menus and reading keys -----

    def _choose(
        self, record: TableRecord, choices: list[Choice], seat: Seat | None = None, user_id: int | None = None
    ) -> Choice:
        keys: dict[str, Callable[[str], None]] = {"c": lambda name: self._show_card(record, name)}
        if seat is not None and user_id is not None:
            keys["t"] = lambda _: self._show_seat(record, seat, user_id, whole=True)
        return self.screen.choose(choices, lambda text: self._text(record, text), keys)

    def _show_card(self, record: TableRecord, name: str) -> None:
        """``c NAME``: any card of this table's deck in full."""
        engine = self.service.engine(record.game)
        cards = engine.cards(engine.parse_options(record.options))
        found = card_named(cards, name) if cards else f"{engine.info.title} has no cards to show."
        if isinstance(found, str):
            self.screen.say(found)
        else:
            panel = card_panel(found, "")
            panel.footer = ""  # a card's text is no secret: nothing to say about who sees it
            self._show_panel(record, panel)

    # ----- text in and out -----

    def _show_panel(
        self, record: TableRecord, panel: Panel, key: str | None = None, whole: bool = True, label: str = ""
    ) -> bool:
        """Print ``panel``; under a ``key``, only what changed unless ``whole``.
        True if anything was printed."""

        def text(value: str) -> str:
            return self._text(record, value)

        if key is None:
            print_panel(panel, self.screen.say, text)
            return True
        return self._shown.show(key, panel, self.screen.say, text, whole=whole, label=label)

    def _text(self, record: TableRecord, text: str) -> str:
        """Engine or renderer text with names for seats, Discord markdown made terminal text."""
        return terminal_text(self.service.text(record, text), bold=self.bold)

    @staticmethod
    def _people(record: TableRecord) -> int:
        return sum(1 for seat in record.seats if not seat.bot)
