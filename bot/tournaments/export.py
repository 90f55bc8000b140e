"""Standings as files: CSV for spreadsheets, JSON for programs (with every round)."""

from __future__ import annotations

import csv
import io
import json

from bot.tournaments.standings import standings
from storage.tournaments import Tournament

COLUMNS = ["place", "user_id", "name", "status", "points", "opponents_points", "game_score", "played"]


def to_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for line in standings(tournament):
        writer.writerow(
            [
                line.place,
                line.user_id,
                line.name,
                line.status.value,
                line.points,
                line.opponents,
                line.game_score,
                line.played,
            ]
        )
    return out.getvalue()


def to_json(tournament: Tournament) -> str:
    lines = [
        {
            "place": s.place,
            "user_id": s.user_id,
            "name": s.name,
            "status": s.status.value,
            "points": s.points,
            "opponents_points": s.opponents,
            "game_score": s.game_score,
            "played": s.played,
        }
        for s in standings(tournament)
    ]
    rounds = [
        r.model_dump(mode="json", include={"number", "tables", "byes", "final"}) for r in tournament.rounds
    ]
    body = {
        "id": tournament.id,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format.value,
        "phase": tournament.phase.value,
        "standings": lines,
        "rounds": rounds,
    }
    return json.dumps(body, indent=2)
