"""TournamentService: a tournament's whole life — registration, rounds seated
on ordinary tables, results, standings — platform-neutral (no discord import).

Every change is load → check → change → compare-and-set save, re-run on a
lost race, like a table. A round is planned and stored (with its table ids)
before any table is made, so seating it again after a crash fills the gaps and
never makes a table twice (:meth:`seat_round`). A table's end reaches
:meth:`table_ended` from the table's outbox, keyed by table id, so a result is
counted once however often it is reported.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any

from bot.service.errors import TableBusy, TableError, TableNotFound
from bot.service.policy import Actor, in_server, no_such_tournament, seen_tournament
from bot.service.ratings import ordinal
from bot.service.tables import Player
from bot.tournaments import formats, roster
from bot.tournaments.changing import RETRIES, close_if_done
from bot.tournaments.results import TournamentResults
from bot.tournaments.roster import LIVE, Unchanged
from engines.core import IllegalAction
from storage.records import TableRecord, TableStatus
from storage.store import VersionConflict
from storage.tournaments import (
    Format,
    Phase,
    Round,
    TableSeat,
    Tournament,
)

log = logging.getLogger(__name__)
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
OnTable = Callable[[TableRecord], Awaitable[None]]


class TournamentService(TournamentResults):
    """Registration, rounds and their seating, the tournament's end (its
    tables' results are counted in :class:`~bot.tournaments.results.TournamentResults`)."""

    # ----- reading -----

    async def named(self, actor: Actor, tournament_id: str) -> Tournament:
        """The tournament ``tournament_id`` names, if ``actor`` may see it (see
        :mod:`bot.service.policy`); another server's is answered as an id that names none."""
        asked = tournament_id.strip().lower()
        tournament = await self.store.get(asked)
        if tournament is None:
            raise no_such_tournament(asked)
        return seen_tournament(actor, tournament, asked)

    async def find(
        self,
        guild_id: int,
        channel_id: int | None,
        tournament_id: str | None = None,
        *,
        finished: bool = False,
        actor: Actor | None = None,
    ) -> Tournament:
        """The tournament a command means: the one named (as ``actor`` may see
        it: every Discord command gives one), else this channel's one unfinished
        tournament, else the server's one unfinished tournament; with
        ``finished``, else the last one held in this channel."""
        if tournament_id and actor is not None:
            return await self.named(actor, tournament_id)
        if tournament_id:
            return await self.get(tournament_id)
        if actor is not None and not in_server(actor, guild_id):
            raise TableNotFound("There is no tournament running here.")
        every = await self.store.in_guild(guild_id)
        live = [t for t in every if t.phase in LIVE]
        for candidates in ([t for t in live if t.channel_id == channel_id], live):
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                raise TableError("Several tournaments are running — name one with the `tournament` option.")
        here = [t for t in every if t.channel_id == channel_id]
        if finished and here:
            return here[-1]  # the latest one played here, for its standings and export
        raise TableNotFound("There is no tournament running here.")

    def smallest(self, tournament: Tournament) -> int:
        engine = self.tables.engine(tournament.game)
        low, _ = engine.seat_range(engine.parse_options(tournament.options))
        return max(low, 2)

    # ----- setting up -----

    async def create(
        self,
        *,
        name: str,
        game: str,
        organiser_id: int,
        guild_id: int,
        channel_id: int,
        fmt: Format,
        table_size: int | None = None,
        rounds: int | None = None,
        advance: int = 1,
        options: Mapping[str, Any] | None = None,
        turn_timeout: float = 24 * 3600.0,
        round_time: float | None = None,
        cap: int | None = None,
        rated: bool = False,
        check_in: bool = False,
    ) -> Tournament:
        engine = self.tables.engine(game)
        try:
            parsed = engine.parse_options(options)
        except IllegalAction as refusal:
            raise TableError(refusal.reason) from None
        low, high = engine.seat_range(parsed)
        size = table_size or max(low, min(high, 4))
        if not low <= size <= high:
            raise TableError(f"{engine.info.title} seats {low}–{high} players a table, not {size}.")
        if not 1 <= advance < size:
            raise TableError(f"From tables of {size}, between 1 and {size - 1} players can advance.")
        if rounds is not None and not 1 <= rounds <= 50:
            raise TableError("A tournament has between 1 and 50 rounds.")
        if cap is not None and cap < low:
            raise TableError(f"The registration cap must allow at least one table ({low} players).")
        for _ in range(RETRIES):
            tournament = Tournament(
                id="".join(secrets.choice(_ID_ALPHABET) for _ in range(6)),
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                name=name.strip()[:80] or "Tournament",
                game=game,
                options=parsed.model_dump(mode="json"),
                format=fmt,
                table_size=size,
                advance=advance,
                rounds_planned=rounds or 0,
                turn_timeout=turn_timeout,
                round_time=round_time,
                cap=cap,
                rated=rated,
                check_in=check_in,
                seed=secrets.randbits(32),
                created_at=self.clock(),
            )
            try:
                return await self.store.create(tournament)
            except VersionConflict:
                continue
        raise TableBusy("Could not find a free tournament id; please try again.")

    async def attach(
        self, tournament_id: str, *, message_id: int | None = None, standings_message_id: int | None = None
    ) -> Tournament:
        def attach(t: Tournament) -> None:
            t.message_id = message_id or t.message_id
            t.standings_message_id = standings_message_id or t.standings_message_id

        return await self._change(tournament_id, attach)

    # ----- registration and the organisers' changes (rules in bot.tournaments.roster) -----

    async def join(self, tournament_id: str, player: Player) -> Tournament:
        return await self._change(tournament_id, partial(roster.join, player=player))

    async def leave(self, tournament_id: str, user_id: int) -> Tournament:
        return await self._change(tournament_id, partial(roster.leave, user_id=user_id))

    async def check_in(self, tournament_id: str, user_id: int) -> Tournament:
        return await self._change(tournament_id, partial(roster.check_in, user_id=user_id))

    async def add(self, tournament_id: str, player: Player) -> Tournament:
        return await self._change(tournament_id, partial(roster.add, player=player))

    async def drop(self, tournament_id: str, user_id: int, *, disqualify: bool = False) -> Tournament:
        """Take a player out of the coming rounds; a bot plays out their seat at a table still running."""
        tournament = await self._change(
            tournament_id, partial(roster.drop, user_id=user_id, disqualify=disqualify)
        )
        await self._hand_to_bots(tournament, user_id)
        return tournament

    async def replace(self, tournament_id: str, old_id: int, new: Player) -> Tournament:
        """``new`` takes over ``old_id``'s entry; at a table still running a bot finishes the seat."""
        tournament = await self._change(tournament_id, partial(roster.replace, old_id=old_id, new=new))
        await self._hand_to_bots(tournament, old_id)
        return tournament

    async def _hand_to_bots(self, tournament: Tournament, user_id: int) -> None:
        current = tournament.current
        for table in current.open_tables if current else []:
            if table.table_id is None:
                continue
            record = await self.tables.store.get(table.table_id)
            if record is not None and record.status is TableStatus.PLAYING and user_id in record.user_ids:
                with contextlib.suppress(TableError):
                    await self.tables.leave(table.table_id, user_id)

    # ----- rounds -----

    async def start(self, tournament_id: str) -> Tournament:
        """Close registration (dropping whoever did not check in), seed by
        rating, and plan round 1. Seat it with :meth:`seat_round`."""
        seeds = await self._seeds(await self.get(tournament_id))

        def start(t: Tournament) -> None:
            roster.registering(t)
            if t.check_in:
                t.entrants = [e for e in t.entrants if e.checked_in]
            if len(t.entrants) < self.smallest(t):
                raise TableError(f"At least {self.smallest(t)} players are needed to start.")
            for entrant in t.entrants:
                entrant.rating = seeds.get(entrant.user_id, 0.0)
            if not t.rounds_planned:
                t.rounds_planned = formats.default_rounds(t)
            t.phase = Phase.RUNNING
            self._plan(t)

        started = await self._change(tournament_id, start)
        # Durable before any table is made: the tick resumes seating after a crash.
        await self.store.schedule(tournament_id, 0.0)
        return started

    async def _seeds(self, tournament: Tournament) -> dict[int, float]:
        if self.ratings is None:
            return {}
        board = await self.ratings.leaderboard(tournament.guild_id, tournament.game)
        return {s.rating.user_id: ordinal(s.rating) for s in board}

    def _plan(self, t: Tournament) -> Round | None:
        planned = formats.plan_next(t, self.smallest(t))
        if planned is None:
            t.phase = Phase.FINISHED
            return None
        if not planned.tables:
            planned.closed = planned.seated = True  # everyone has a bye: nothing to play
        t.rounds.append(planned)
        return planned

    async def seat_round(self, tournament_id: str, on_table: OnTable | None = None) -> Tournament:
        """Create and start every table of the current round that is not yet
        made (idempotent: ids were fixed when the round was planned), calling
        ``on_table`` for each so it can be shown; then mark the round seated.
        Any number of seaters may run at once, and any may die half-way."""
        return (await self.seat_round_once(tournament_id, on_table))[0]

    async def seat_round_once(
        self, tournament_id: str, on_table: OnTable | None = None
    ) -> tuple[Tournament, bool]:
        """:meth:`seat_round`, and whether this very call marked the round seated
        (of seaters running at once, one does: it alone announces the round).

        A table that fails (to be made or shown) does not stop the others: each
        is tried, then the first failure is raised and the round stays unseated,
        for the next seater to finish."""
        tournament = await self.get(tournament_id)
        current = tournament.current
        if tournament.phase is not Phase.RUNNING or current is None or current.seated:
            return tournament, False
        failures: list[Exception] = []
        for table in current.tables:
            try:
                await self._seat_table(tournament, table, on_table)
            except Exception as failure:
                log.warning(
                    "tournament %s: table %s is not seated yet: %s", tournament.id, table.table_id, failure
                )
                failures.append(failure)
        if failures:
            raise failures[0]
        number = current.number
        deadline = self.clock() + tournament.round_time if tournament.round_time else None
        marked: list[bool] = []

        def seated(t: Tournament) -> None:
            marked.clear()
            rnd = t.current
            if rnd is None or rnd.number != number or rnd.seated:
                raise Unchanged
            rnd.seated, rnd.deadline = True, deadline
            marked.append(True)
            close_if_done(t)  # tables that ended while the rest were being made

        tournament = await self._change(tournament_id, seated)
        rnd = tournament.current
        if rnd is not None and rnd.number == number and rnd.deadline is not None and not rnd.closed:
            await self.store.schedule(tournament_id, rnd.deadline)
        return tournament, bool(marked)

    async def _seat_table(self, tournament: Tournament, table: TableSeat, on_table: OnTable | None) -> None:
        assert table.table_id is not None
        names = {e.user_id: e.name for e in tournament.entrants}
        record = await self.tables.open_seated(
            table.table_id,
            tournament.game,
            tournament.organiser_id,
            [Player(u, names.get(u, str(u))) for u in table.players],
            guild_id=tournament.guild_id,
            channel_id=tournament.channel_id,
            options=tournament.options,
            turn_timeout=tournament.turn_timeout,
            rated=tournament.rated,
            tournament_id=tournament.id,
            # From the tournament's seed: every game of a tournament can be replayed.
            seed=random.Random(f"{tournament.seed}:{table.table_id}").getrandbits(48),
        )
        if on_table is not None:
            await on_table(record)

    async def advance(self, tournament_id: str) -> Tournament:
        """Plan the next round once the current one has closed, or finish."""

        def advance(t: Tournament) -> None:
            if t.phase is not Phase.RUNNING or t.current is None or not t.current.closed:
                raise Unchanged
            while self._plan(t) is not None and t.current is not None and t.current.closed:
                continue  # a round of byes only: plan on

        tournament = await self._change(tournament_id, advance)
        if tournament.phase is not Phase.RUNNING:
            await self.store.unschedule(tournament_id)
        return tournament

    async def deadline_passed(self, tournament_id: str) -> Tournament | None:
        """Mark the current round's deadline as told; the tournament if it just passed."""
        now = self.clock()

        def told(t: Tournament) -> None:
            rnd = t.current
            if rnd is None or rnd.closed or rnd.deadline is None or rnd.deadline > now or rnd.deadline_told:
                raise Unchanged
            rnd.deadline_told = True

        try:
            return await self._change(tournament_id, told, quiet=False)
        except Unchanged:
            return None

    async def cancel(self, tournament_id: str) -> Tournament:
        def cancel(t: Tournament) -> None:
            roster.still_open(t)
            t.phase = Phase.CANCELLED

        tournament = await self._change(tournament_id, cancel)
        await self.store.unschedule(tournament_id)
        return tournament
