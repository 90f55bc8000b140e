"""The house content's fairness fixes (see each game's RULES.md, Balance): what
the balance benchmark measured is held in place by the data's own shape."""

from __future__ import annotations

from engines.once_upon_a_time_life.board import builtin_board


def test_every_body_system_sees_the_same_loop_from_its_start() -> None:
    # A pawn's whole journey is the loop read from its own START: the same
    # sequence from every START leaves no system better placed than another.
    board = builtin_board()
    loop = [board.kind(space) for space in range(board.size)]
    starts = [board.start(system) for system in range(len(board.system))]
    seen = {tuple(loop[start:] + loop[:start]) for start in starts}
    assert len(starts) == 4 and len(seen) == 1
