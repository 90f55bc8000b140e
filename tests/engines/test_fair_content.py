"""The house content's fairness fixes (see each game's RULES.md, Balance): what
the balance benchmark measured is held in place by the data's own shape."""

from __future__ import annotations

from engines.once_upon_a_time_life.board import builtin_board
from engines.spheres_of_life import ENGINE as SPHERES


def test_every_body_system_sees_the_same_loop_from_its_start() -> None:
    # A pawn's whole journey is the loop read from its own START: the same
    # sequence from every START leaves no system better placed than another.
    board = builtin_board()
    loop = [board.kind(space) for space in range(board.size)]
    starts = [board.start(system) for system in range(len(board.system))]
    seen = {tuple(loop[start:] + loop[:start]) for start in starts}
    assert len(starts) == 4 and len(seen) == 1


def test_spheres_main_deck_holds_as_many_cards_per_player_at_seven_as_at_four() -> None:
    # One deck ran out after one Day at seven players, so the Day order never came
    # round: sized by the table, the Main Deck never holds fewer cards per player
    # than one deck gives four (and so as many Days, or more).
    def per_player(players: int) -> float:
        state = SPHERES.setup(players, SPHERES.parse_options({}), seed=0)
        main = [c for c in state.cards if state.deck_spec.group(c) != "hero"]
        return len(main) / players

    assert all(per_player(players) >= per_player(4) for players in range(5, 8))
