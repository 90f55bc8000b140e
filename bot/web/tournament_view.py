"""What a tournament page shows: from the stored tournament alone
(:func:`build`) its registration, rounds and their tables' results, the
standings as :func:`bot.tournaments.standings.standings` computes them, and
for elimination the bracket; and from a glance at its current round's tables
(:func:`current_round`, their records without game state) how each of those
stands now: waiting, in play with the game's public headline, or finished.
Names come from the entrants' records; no user id is ever written.

Plain data for the templates: every figure is written as the standings
message writes it (:func:`bot.tournaments.describe.number`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.tournaments.bracket import Column, bracket
from bot.tournaments.describe import (
    FORMATS,
    PHASES,
    STATUS_MARKS,
    TIE_BREAKS,
    number,
    ranked_by,
    standings_title,
)
from bot.tournaments.standings import standings
from bot.web import links
from engines.words import and_list, plural
from storage.records import TableRecord, TableStatus
from storage.tournaments import EntrantStatus, Format, Phase, Round, TableSeat, Tournament

Name = Callable[[int], str]
# A current round's tables as read now (``None``: not made yet, or unreadable).
Glances = Mapping[str, TableRecord | None]
NO_NAME = "a former player"
STATUS_WORDS = {
    EntrantStatus.ACTIVE: "In",
    EntrantStatus.DROPPED: "Dropped",
    EntrantStatus.DISQUALIFIED: "Disqualified",
}


@dataclass
class TableRow:
    number: int
    table_id: str
    href: str
    players: list[str]
    state: str  # waiting | playing | finished | decided: a CSS class and a test hook
    state_text: str
    result: str = ""


@dataclass
class RoundView:
    number: int
    final: bool
    seated: bool
    closed: bool
    current: bool
    deadline: int | None
    tables: list[TableRow]
    byes: list[str]
    bye_note: str

    @property
    def title(self) -> str:
        return f"Round {self.number}" + (" — the final" if self.final else "")

    @property
    def state(self) -> str:
        return "closed" if self.closed else "in play" if self.seated else "being seated"


@dataclass
class StandingRow:
    place: int
    name: str
    status: str
    points: str
    opponents: str
    game_score: str
    played: int
    reached: int


@dataclass
class EntrantRow:
    name: str
    status: str
    checked_in: bool


@dataclass
class MatchView:
    table: TableRow
    seats: list[tuple[str, bool]]  # each player's name, and whether they went on (or won)


@dataclass
class ColumnView:
    title: str
    final: bool
    matches: list[MatchView]
    byes: list[str]


@dataclass
class TournamentView:
    t: Tournament
    game_title: str
    format_name: str
    phase: str
    entrants: list[EntrantRow]
    rounds: list[RoundView]
    standings_title: str
    standings: list[StandingRow]
    ranked_by: str
    tie_breaks: str = TIE_BREAKS
    columns: list[ColumnView] = field(default_factory=list)

    @property
    def elimination(self) -> bool:
        return self.t.format is Format.ELIMINATION

    @property
    def registration_open(self) -> bool:
        return self.t.phase is Phase.REGISTRATION


def _namer(t: Tournament) -> Name:
    names = {e.user_id: e.name for e in t.entrants}
    return lambda user: names.get(user, NO_NAME)


def build(t: Tournament, game_title: str) -> TournamentView:
    """Everything the stored tournament alone tells (the same for every reader
    until its next version)."""
    name = _namer(t)
    rounds = [_round(t, rnd, rnd is t.current, None, name) for rnd in t.rounds]
    rows = {row.table_id: row for rnd in rounds for row in rnd.tables}
    view = TournamentView(
        t=t,
        game_title=game_title,
        format_name=FORMATS[t.format],
        phase=PHASES[t.phase],
        entrants=[EntrantRow(e.name, STATUS_WORDS[e.status], e.checked_in) for e in t.entrants],
        rounds=rounds,
        ranked_by=ranked_by(t),
        standings_title=standings_title(t),
        standings=[
            StandingRow(
                place=line.place,
                name=line.name,
                status=STATUS_MARKS[line.status].strip(" ()"),
                points=number(line.points),
                opponents=number(line.opponents),
                game_score=number(line.game_score),
                played=line.played,
                reached=line.reached,
            )
            for line in standings(t)
        ],
    )
    if t.format is Format.ELIMINATION:
        view.columns = [_column(column, rows, name) for column in bracket(t)]
    return view


def current_round(t: Tournament, glances: Glances) -> RoundView | None:
    """The current round, its unfinished tables as ``glances`` shows them."""
    rnd = t.current
    return _round(t, rnd, True, glances, _namer(t)) if rnd is not None else None


def _round(t: Tournament, rnd: Round, current: bool, glances: Glances | None, name: Name) -> RoundView:
    return RoundView(
        number=rnd.number,
        final=rnd.final,
        seated=rnd.seated,
        closed=rnd.closed,
        current=current,
        deadline=int(rnd.deadline) if rnd.deadline is not None and not rnd.closed else None,
        tables=[_table(t, table, rnd.seated, glances, name) for table in rnd.tables],
        byes=[name(u) for u in rnd.byes],
        bye_note=_bye_note(t, rnd),
    )


def _bye_note(t: Tournament, rnd: Round) -> str:
    # In elimination a bye scores nothing: it goes on (see bot.tournaments.formats).
    if t.format is Format.ELIMINATION:
        return "through to the next round"
    return f"{plural(rnd.bye_points, 'point')} each"


def _table(t: Tournament, table: TableSeat, seated: bool, glances: Glances | None, name: Name) -> TableRow:
    table_id = table.table_id or ""
    row = TableRow(
        number=table.index + 1,
        table_id=table_id,
        href=links.table("", t.guild_id, table_id),  # relative: the page's own origin
        players=[name(u) for u in table.players],
        state="waiting",
        state_text="Waiting",
    )
    score = table.score
    if score is None:
        if glances is None:  # the record alone: a seated round's tables are in play
            if seated:
                row.state, row.state_text = "playing", "In play"
        else:
            _as_it_stands(row, glances.get(table_id))
        return row
    first = [name(u) for u in (score.ranking[0] if score.ranking else []) if u in table.players]
    if score.decided == "tie":
        row.state, row.state_text, row.result = "decided", "Decided", "Scored level by the organisers"
        return row
    row.state, row.state_text = (
        ("finished", "Finished") if score.decided == "played" else ("decided", "Awarded")
    )
    # The first group: one winner, a winning team, or players level at the top alike.
    if not first:
        row.result = "No winner"
    elif len(first) == len(table.players):
        row.result = "A draw"
    else:
        row.result = f"Won by {and_list(first)}"
    return row


def _as_it_stands(row: TableRow, record: TableRecord | None) -> None:
    """An unscored table as its record stands: its public headline while in play
    (names already in it), finished while the tournament has still to count it."""
    if record is None or record.status is TableStatus.LOBBY:
        return
    if record.status is TableStatus.PLAYING:
        row.state, row.state_text, row.result = "playing", "In play", record.headline
    elif record.status is TableStatus.FINISHED:
        row.state, row.state_text, row.result = "finished", "Finished", "Being counted"
    else:
        row.state, row.state_text = "decided", "Abandoned"


def _column(column: Column, rows: Mapping[str, TableRow], name: Name) -> ColumnView:
    title = "Final" if column.final else f"Round {column.number}"
    matches = []
    for match in column.matches:
        through = set(match.through)
        row = rows[match.table.table_id or ""]
        matches.append(MatchView(row, [(name(u), u in through) for u in match.table.players]))
    return ColumnView(title, column.final, matches, [name(u) for u in column.byes])
