"""Phase in words: a payment shows what it has taken and what is left, and the hand
panel shows every barracks card and warrior whole, within one embed's limits."""

from __future__ import annotations

import random
from typing import Any

from bot.app.ui.embeds import EMBED_TOTAL, to_embed
from bot.render.phase import RENDERER, card_text
from engines.phase import costs
from engines.phase.actions import PhaseResource
from engines.registry import get_engine

PHASE = get_engine("phase")


def _games(seed: int, players: int = 2, moves: int = 3000) -> Any:
    """Each state of a seeded random game, in order."""
    rng = random.Random(seed)
    state = PHASE.setup(players, PHASE.parse_options(), seed)
    for _ in range(moves):
        if PHASE.result(state) is not None:
            return
        yield state
        movers = sorted({p.seat for p in PHASE.prompts(state)})
        seat, choices = rng.choice([(s, c) for s in movers if (c := PHASE.legal_actions(state, s))])
        state = PHASE.apply(state, seat, rng.choice(choices).action).state


def test_a_payment_says_what_is_chosen_and_what_is_left() -> None:
    for state in _games(3):
        pending = state.pending
        if pending is None or pending.phased or costs.phase_need(state, pending) < 2:
            continue  # a cost of two phases or more: the first leaves the action pending
        phases = [c for c in PHASE.legal_actions(state, pending.seat) if isinstance(c.action, PhaseResource)]
        if not phases:
            continue
        before = PHASE.view(state, None).pending
        assert "nothing chosen yet; still to choose: " in before and "to phase" in before
        after = PHASE.apply(state, pending.seat, phases[0].action).state
        text = PHASE.view(after, None).pending
        assert f"chosen: phase {state.name(phases[0].action.card)}" in text
        assert text.endswith("to phase.") and "nothing chosen" not in text
        assert text in RENDERER.hand(PHASE.view(after, pending.seat)).description  # its player's panel too
        return
    raise AssertionError("no payment by phasing in this game")


def test_a_long_barracks_is_split_into_fields_never_cut() -> None:
    # The first seeded random game whose barracks outgrows one field (seed 1 today).
    for state in (state for seed in range(12) for state in _games(seed)):
        me = PHASE.view(state, 0).seats[0]
        barracks = [card_text(c) for c in me.barracks]
        if len("\n".join(barracks)) <= 1024:
            continue
        panel = RENDERER.hand(PHASE.view(state, 0))
        parts = [f.value for f in panel.fields if f.name.startswith("Barracks")]
        assert len(parts) >= 2 and [f.name for f in panel.fields if f.name.startswith("Barracks")][1:] == [
            "Barracks (both sides) (continued)"
        ] * (len(parts) - 1)
        assert "\n".join(parts).split("\n") == "\n".join(barracks).split("\n")
        assert not any(value.endswith("…") for value in parts)
        embed = to_embed(panel, lambda text: text.replace("<seat:0>", "A rather long display name"))
        assert len(embed) <= EMBED_TOTAL and len(embed.fields) == len(panel.fields)
        return
    raise AssertionError("no barracks longer than one field in this game")


def test_every_hand_panel_of_a_game_keeps_its_fields_whole() -> None:
    for step, state in enumerate(_games(1, players=3, moves=2000)):
        if step % 40:
            continue
        for seat in range(3):
            panel = RENDERER.hand(PHASE.view(state, seat))
            embed = to_embed(panel, str)
            assert len(embed) <= EMBED_TOTAL and len(embed.fields) == len(panel.fields)
            assert not any(f.value.endswith("…") for f in panel.fields if "Discard" not in f.name)
