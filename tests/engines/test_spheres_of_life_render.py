"""The Discord panels stay within Discord's limits and show what they should."""

from __future__ import annotations

from typing import Any

from bot.render import renderer_for
from bot.render.base import Panel
from engines.core import Transition
from engines.playout import playout
from engines.spheres_of_life import ENGINE, SolState
from tests.engines.test_spheres_of_life_helpers import fresh, give, options, to_dream

RENDERER = renderer_for("spheres-of-life")


def _within_limits(panel: Panel) -> None:
    assert len(panel.title) <= 256 and len(panel.description) <= 4096 and len(panel.footer) <= 2048
    assert len(panel.fields) <= 25
    for field in panel.fields:
        assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
    total = (
        len(panel.title)
        + len(panel.description)
        + len(panel.footer)
        + sum(len(f.name) + len(f.value) for f in panel.fields)
    )
    assert total <= 6000


def _check_panels(previous: Any, transition: Transition[Any]) -> None:
    state = transition.state
    _within_limits(RENDERER.table(ENGINE.view(state, None)))
    for seat in range(state.players):
        _within_limits(RENDERER.hand(ENGINE.view(state, seat)))


def test_every_panel_of_some_playouts_respects_discord_limits() -> None:
    for players, raw in ((3, {}), (4, {"pace": True}), (14, {"decks": 2})):
        state, result = playout(
            ENGINE, players, options(**raw), seed=5, after_step=_check_panels if players < 10 else None
        )
        _check_panels(None, Transition[SolState](state=state))
        final = RENDERER.result(result, ENGINE.view(state, None))
        _within_limits(final)
        assert "<seat:" in final.fields[0].value


def test_table_shows_phase_holder_table_cards_sizes_and_deck() -> None:
    state = to_dream(fresh(3), leader=1)
    give(state, 0, "noble-rabbit", "corrupted-snake")
    state.table = []
    panel = RENDERER.table(ENGINE.view(state, None))
    assert "Dream" in panel.description and "Phase cards: <seat:1>" in panel.description
    assert "Main Deck" in panel.description
    assert panel.fields[0].name.startswith("<seat:0>") and "2 cards" in panel.fields[0].value
    assert "Rabbit" not in panel.model_dump_json(), "the public table never shows a hand"


def test_my_hand_lists_cards_in_order_with_points() -> None:
    state = to_dream(fresh(2))
    give(state, 0, "noble-rabbit", "corrupted-snake", "noble-rabbit")
    panel = RENDERER.hand(ENGINE.view(state, 0))
    assert panel.description.splitlines()[0].endswith("Noble Rabbit")
    assert panel.description.splitlines()[1].endswith("Corrupted Snake")
    values = {f.name: f.value for f in panel.fields}
    assert "Noble Rabbit: +4" in values["Points in hand"] and values["Score now"].startswith("+3")
