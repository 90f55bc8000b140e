"""How a tournament is described in words, the same on every face (the
Discord messages, the web page): its format's name, an entrant's status, the
standings' title, the tie-breaks and the numbers in a standings line."""

from __future__ import annotations

from storage.tournaments import EntrantStatus, Format, Phase, Tournament

FORMATS = {
    Format.SWISS: "Swiss",
    Format.ROUND_ROBIN: "Round robin",
    Format.ELIMINATION: "Single elimination",
    Format.SWISS_FINAL: "Swiss, then a final table",
}
# Written after a name: nothing for a player still in.
STATUS_MARKS = {
    EntrantStatus.ACTIVE: "",
    EntrantStatus.DROPPED: " (dropped)",
    EntrantStatus.DISQUALIFIED: " (disqualified)",
}
# In the order :func:`bot.tournaments.standings.standings` applies them after the points.
TIE_BREAKS = "opponents' points, game score, head to head"
PHASES = {
    Phase.REGISTRATION: "Registration open",
    Phase.RUNNING: "Running",
    Phase.FINISHED: "Finished",
    Phase.CANCELLED: "Cancelled",
}


def ranked_by(t: Tournament) -> str:
    """What decides a place before the tie-breaks (the order of
    :func:`bot.tournaments.standings.standings`)."""
    if t.format is Format.ELIMINATION:
        return "the final's result, then the round reached, then points"
    if t.format is Format.SWISS_FINAL:
        return "the final table's result, then points"
    return "points"


def closed_rounds(t: Tournament) -> int:
    return sum(1 for r in t.rounds if r.closed)


def standings_title(t: Tournament) -> str:
    return "Final standings" if t.phase is Phase.FINISHED else f"Standings after round {closed_rounds(t)}"


def number(value: float) -> str:
    """A standings figure as the standings message writes it: 1.5, 0.666667, 3."""
    return f"{value:g}"
