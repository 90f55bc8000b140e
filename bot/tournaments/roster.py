"""Who is in a tournament: registration, check-in and the organisers' changes,
as rules on the stored record (pure: the service loads, applies one of these
and saves by compare-and-set)."""

from __future__ import annotations

from bot.service.errors import TableError
from bot.service.tables import Player
from storage.tournaments import Entrant, EntrantStatus, Phase, TableSeat, Tournament

LIVE = (Phase.REGISTRATION, Phase.RUNNING)


class Unchanged(Exception):
    """Nothing to do: the change was made already (a repeated report)."""


def registering(t: Tournament) -> None:
    if t.phase is not Phase.REGISTRATION:
        raise TableError("Registration for this tournament is closed.")


def still_open(t: Tournament) -> None:
    if t.phase not in LIVE:
        raise TableError("This tournament is over.")


def entrant(t: Tournament, user_id: int) -> Entrant:
    found = t.entrant(user_id)
    if found is None:
        raise TableError("That player is not in this tournament.")
    return found


def join(t: Tournament, player: Player) -> None:
    registering(t)
    if t.entrant(player.user_id) is not None:
        raise TableError("You are already registered.")
    if t.cap is not None and len(t.entrants) >= t.cap:
        raise TableError(f"Registration is full ({t.cap} players).")
    t.entrants.append(Entrant(user_id=player.user_id, name=player.name))


def leave(t: Tournament, user_id: int) -> None:
    registering(t)
    if t.entrant(user_id) is None:
        raise TableError("You are not registered.")
    t.entrants = [e for e in t.entrants if e.user_id != user_id]


def check_in(t: Tournament, user_id: int) -> None:
    registering(t)
    found = t.entrant(user_id)
    if found is None:
        raise TableError("You are not registered.")
    if not t.check_in:
        raise TableError("This tournament needs no check-in.")
    if found.checked_in:
        raise Unchanged
    found.checked_in = True


def add(t: Tournament, player: Player) -> None:
    """(Organisers) Past the cap, and after the start (from the next round)."""
    still_open(t)
    found = t.entrant(player.user_id)
    if found is not None and found.status is EntrantStatus.ACTIVE:
        raise TableError(f"{player.name} is already registered.")
    if found is not None:
        found.status = EntrantStatus.ACTIVE
    else:
        t.entrants.append(Entrant(user_id=player.user_id, name=player.name, checked_in=True))


def drop(t: Tournament, user_id: int, disqualify: bool = False) -> None:
    """Out of the coming rounds; before the start, simply unregistered."""
    still_open(t)
    found = entrant(t, user_id)
    if t.phase is Phase.REGISTRATION:
        t.entrants.remove(found)
        return
    status = EntrantStatus.DISQUALIFIED if disqualify else EntrantStatus.DROPPED
    if found.status is status:
        raise Unchanged
    found.status = status


def replace(t: Tournament, old_id: int, new: Player) -> None:
    """``new`` takes over ``old_id``'s entry: points, history and coming rounds."""
    still_open(t)
    found = entrant(t, old_id)
    if t.entrant(new.user_id) is not None:
        raise TableError(f"{new.name} is already in this tournament.")
    found.user_id, found.name = new.user_id, new.name
    for rnd in t.rounds:
        rnd.byes = [new.user_id if u == old_id else u for u in rnd.byes]
        for table in rnd.tables:
            _rename(table, old_id, new.user_id)


def _rename(table: TableSeat, old: int, new: int) -> None:
    table.players = [new if u == old else u for u in table.players]
    if table.score is not None:
        score = table.score
        score.ranking = [[new if u == old else u for u in g] for g in score.ranking]
        score.points = {new if u == old else u: p for u, p in score.points.items()}
        score.scores = {new if u == old else u: p for u, p in score.scores.items()}
