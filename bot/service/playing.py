"""Playing: a person's move, and a moderator's play-out of a whole table."""

from __future__ import annotations

import random
import time

from bot.ops import metrics
from bot.service import absence, clocks, undo
from bot.service.changes import Changes, Outcome, _Play, adjudicate, need, seated
from bot.service.errors import StaleClick, TableError
from bot.service.reading import awaited_seats
from engines.ai import advancing
from engines.core import Choice, Event, IllegalAction, Seat, seat_ref
from storage.records import TableStatus

# Moves a moderator's play-out makes at most (a whole game takes a few hundred).
PLAY_OUT_STEPS = 20_000


class Playing(Changes):
    """The moves people make (and a moderator makes for everyone)."""

    async def act(self, table_id: str, user_id: int, key: str, version: int | None = None) -> Outcome:
        """Play the legal choice ``key`` for the user's seat.

        ``version`` is the table version the user saw (a button's). A click made
        on an older version still counts when the seat has not acted since and
        the very same choice is still legal — a response window is open to
        several seats, and one seat's answer must not void the others' buttons.
        Otherwise it is a :class:`StaleClick`.
        """

        # The game whose move the last attempt refused: counted once the refusal
        # stands (an attempt on this process's copy is tried again on a fresh read).
        refused: list[str] = []

        def act(play: _Play) -> None:
            record, engine = play.record, play.engine
            refused.clear()
            need(record, TableStatus.PLAYING, "This table is not in play.")
            clocks.check_running(record)
            seat = seated(record, user_id)
            try:
                choice = self._current_choice(play, seat, key, version)
            except TableError:
                refused.append(record.game)
                raise
            # The state before the move is the text it was loaded from: no second dump.
            assert record.state is not None  # a game in play has a state
            before = (record.state, undo.draws(play.state), dict(record.acted_at))
            transition = adjudicate(
                lambda: engine.apply(play.state, seat, choice.action, in_place=True, legal=True)
            )
            self._record(play, seat, choice.action, transition.state, transition.events, kind="act")
            play.events += absence.acted(record, seat, self.clock())
            # Reordering one's hand gives the bots nothing new to weigh.
            self._advance(play, optional=not choice.idle)
            undo.offer(record, seat, *before, play.state, play.entries, play.events)

        started = time.perf_counter()
        try:
            outcome = await self._change(table_id, act, kind="act", seat_of=user_id, quick=True)
        except TableError:
            for game in refused:
                metrics.refused(game)
            raise
        metrics.saved(outcome.table.game, time.perf_counter() - started)
        return outcome

    def _current_choice(self, play: _Play, seat: Seat, key: str, version: int | None) -> Choice:
        record, engine = play.record, play.engine
        try:
            choice: Choice | None = engine.choice(play.state, seat, key)
        except IllegalAction:
            choice = None
        stale = version is not None and version != record.version
        if stale and (record.acted_at.get(seat, -1) >= (version or 0) or choice is None):
            raise StaleClick(record)
        if choice is None:
            if all(p.seat != seat for p in engine.prompts(play.state)):
                raise TableError("It is not your turn.")
            raise TableError("That move is not possible right now.")
        return choice

    async def play_out(self, table_id: str) -> Outcome:
        """(Moderator) Finish a table: every seat it waits for plays quick moves
        (the game's own rollout policy, as a bot's simulated games do) to the end.

        Default moves alone would not do: in several games the default move
        (pass, keep the hand) never ends the game. The moves are seeded from the
        table's seed, so the same table plays out the same way, and each is
        logged with its action, so a played-out game still replays from its log."""

        def play_out(play: _Play) -> None:
            need(play.record, TableStatus.PLAYING, "This table is not in play.")
            engine, state = play.engine, play.state
            rng = random.Random(f"{play.record.seed}:{play.record.version}:play-out")
            for _ in range(PLAY_OUT_STEPS):
                waiting = awaited_seats(engine, state) if state is not None else []
                if state is None or engine.result(state) is not None or not waiting:
                    break
                seat = waiting[0]
                choices = advancing(engine.legal_actions(state, seat))
                action = engine.rollout_choice(state, seat, choices, rng).action if choices else None
                if action is None:
                    action = engine.default_action(state, seat)
                transition = engine.apply(state, seat, action, in_place=True)
                state = transition.state
                events = [Event(text=f"The table played for {seat_ref(seat)}."), *transition.events]
                self._record(play, seat, action, transition.state, events, kind="timeout")
            self._advance(play)

        return await self._change(table_id, play_out, kind="play-out")
