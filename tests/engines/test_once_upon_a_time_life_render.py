"""The renderer: the board with every pawn, purses, lost turns, the last roll,
an open question and a duel, within Discord's limits; kept cards only in
their owner's hand panel."""

from __future__ import annotations

from bot.render import renderer_for
from bot.render.base import Panel
from engines.once_upon_a_time_life import ENGINE
from tests.engines.test_once_upon_a_time_life_helpers import act, keep, new_game

RENDERER = renderer_for("once-upon-a-time-life")


def _fits(panel: Panel) -> None:
    assert len(panel.title) <= 256 and len(panel.description) <= 4096 and len(panel.fields) <= 25
    assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in panel.fields)


def test_the_table_shows_board_pawns_purses_skips_roll_and_the_open_question() -> None:
    state = new_game(4)
    keep(state, 0, "master")
    state.skips[2] = 1
    state.away[3] = "park"
    state, _ = act(state, 0, "duel:1:hard")
    state, _ = act(state, 1, "accept")
    state.last_roll = 5
    panel = RENDERER.table(ENGINE.view(state, None))
    _fits(panel)
    text = panel.description + "".join(f.name + f.value for f in panel.fields)
    assert "1️⃣" in text and "2️⃣" in text and "3️⃣" in text and "4️⃣ Park" in text
    assert "loses 1 turn" in text and "🎲 5" in text and "Master duel" in text
    assert state.asked().text in text and all(a in text for a in state.asked().options)
    assert text.count("Hemo 0 · Globin 3 · Leukocyte 2 · Medicine 2") == 4
    assert "Master card" not in text and "kept" not in text, "the challenger's Master is shown, none is kept"


def test_kept_cards_show_in_their_owners_hand_alone() -> None:
    state = new_game(2)
    keep(state, 1, "virus")
    mine = RENDERER.hand(ENGINE.view(state, 1))
    _fits(mine)
    assert "Virus" in mine.description and "attack a player" in mine.description
    theirs = RENDERER.hand(ENGINE.view(state, 0))
    public = RENDERER.table(ENGINE.view(state, None))
    assert "Virus**" not in theirs.description and "1 card kept" in "".join(f.value for f in public.fields)


def test_the_result_ranks_every_seat_with_its_tokens() -> None:
    state = new_game(3)
    state.purses[1].hemo = 7
    state.bank.hemo -= 7
    state.stage, state.winner = "over", 1
    result = ENGINE.result(state)
    assert result is not None
    panel = RENDERER.result(result, ENGINE.view(state, None))
    _fits(panel)
    assert panel.fields[0].value.startswith("<seat:1> (Hemo 7")
