"""The Discord renderer: every panel of a few playouts respects Discord's limits."""

from __future__ import annotations

from bot.render import renderer_for
from bot.render.base import Panel
from tests.engines.test_scales_of_influence_helpers import ENGINE
from tests.engines.test_scales_of_influence_secrecy import states_along


def _within_limits(panel: Panel) -> None:
    assert len(panel.title) <= 256 and len(panel.description) <= 4096 and len(panel.footer) <= 2048
    assert len(panel.fields) <= 25
    for field in panel.fields:
        assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
    total = len(panel.title) + len(panel.description) + len(panel.footer)
    assert total + sum(len(f.name) + len(f.value) for f in panel.fields) <= 6000


def test_panels_respect_discord_limits() -> None:
    renderer = renderer_for("scales-of-influence")
    for players, seed in [(3, 31), (5, 32), (7, 33)]:
        for state in states_along(players, seed):
            _within_limits(renderer.table(ENGINE.view(state, None)))
            for seat in range(players):
                _within_limits(renderer.hand(ENGINE.view(state, seat)))
        result = ENGINE.result(state)
        assert result is not None
        end = renderer.result(result, ENGINE.view(state, None))
        _within_limits(end)
        assert "Alignments revealed" in [f.name for f in end.fields]


def test_table_shows_the_public_board_and_hand_shows_the_alignment() -> None:
    renderer = renderer_for("scales-of-influence")
    state = ENGINE.setup(4, ENGINE.parse_options({"traveler": 1}), 3)
    table = renderer.table(ENGINE.view(state, None))
    text = table.description + "".join(f.name + f.value for f in table.fields)
    assert "Traveler <seat:1>" in text and "Reading" in text and "Shadow" in text and "deck" in text
    assert "You are" not in text
    hand = renderer.hand(ENGINE.view(state, 2))
    alignment = state.alignments[2]
    assert alignment.capitalize() in hand.description and "Energy" in hand.description
