"""The Discord renderer: every panel along whole games respects Discord's limits,
the table shows what the public may see, and "My hand" both sides of my cards."""

from __future__ import annotations

from bot.render import renderer_for
from bot.render.base import Panel
from tests.engines.test_phase_helpers import ENGINE, new_game
from tests.engines.test_phase_secrecy import states_along


def _within_limits(panel: Panel) -> None:
    assert len(panel.title) <= 256 and len(panel.description) <= 4096 and len(panel.footer) <= 2048
    assert len(panel.fields) <= 25
    for field in panel.fields:
        assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
    total = len(panel.title) + len(panel.description) + len(panel.footer)
    assert total + sum(len(f.name) + len(f.value) for f in panel.fields) <= 6000


def _text(panel: Panel) -> str:
    return panel.description + "".join(f.name + f.value for f in panel.fields)


def test_panels_respect_discord_limits() -> None:
    renderer = renderer_for("phase")
    for players, seed in [(2, 11), (3, 12)]:
        for step, state in enumerate(states_along(players, seed)):
            if step % 3:
                continue
            _within_limits(renderer.table(ENGINE.view(state, None)))
            for seat in range(players):
                _within_limits(renderer.hand(ENGINE.view(state, seat)))
        result = ENGINE.result(state)
        assert result is not None
        _within_limits(renderer.result(result, ENGINE.view(state, None)))


def test_the_table_shows_outward_faces_and_my_hand_shows_both_sides() -> None:
    renderer = renderer_for("phase")
    state = new_game(2, seed=8)
    table = _text(renderer.table(ENGINE.view(state, None)))
    assert "The Nexus: ☀ 20 good · ☾ 20 evil" in table
    for seat in range(2):
        for card in state.hands[seat]:
            assert state.name(card) in table, "each hand card's outward face is public"
        assert state.name(state.decks[seat][-1]) in table, "and each deck's top face"
    hand = _text(renderer.hand(ENGINE.view(state, 0)))
    for card in state.hands[0]:
        assert state.side(card, flipped=True).text() in hand and state.side(card).text() in hand
