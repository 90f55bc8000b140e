"""Asking to take back a move, and answering (the rule is in :mod:`bot.service.undo`)."""

from __future__ import annotations

from bot.service import undo
from bot.service.clocks import wake_up
from bot.service.errors import WrongStatus
from bot.service.tables import Outcome, TableService, _Play
from storage.records import TableStatus


def _playing(play: _Play) -> None:
    if play.record.status is not TableStatus.PLAYING:
        raise WrongStatus("This table is not in play.")


async def ask_undo(service: TableService, table_id: str, user_id: int) -> Outcome:
    def ask(play: _Play) -> None:
        _playing(play)
        play.events += undo.ask(play.record, user_id, service.clock())
        point = play.record.undo
        if point is not None and not undo.voters(play.record, point):
            _take_back(service, play)  # no one else to ask
        else:
            play.record.deadline = wake_up(play.record)  # the request lapses unanswered

    return await service._change(table_id, ask, kind="undo-ask", seat_of=user_id)


async def vote_undo(
    service: TableService, table_id: str, user_id: int, asked_at: int, accept: bool
) -> Outcome:
    def vote(play: _Play) -> None:
        _playing(play)
        events, everyone = undo.vote(play.record, user_id, asked_at, accept)
        play.events += events
        if everyone:
            _take_back(service, play)
        else:
            play.record.deadline = wake_up(play.record)

    return await service._change(table_id, vote, kind="undo-vote", seat_of=user_id)


def _take_back(service: TableService, play: _Play) -> None:
    state, entry, told = undo.taken_back(play.record, service.clock())
    play.state = play.engine.load_state(state)
    play.entries.append(entry)
    play.events += told
    play.recorded += told  # carried by the undo line itself
    service._advance(play)  # the mover's clock starts again
