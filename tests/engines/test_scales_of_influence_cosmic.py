"""Cosmic Events, the Shaman's three powers, Harmony at any moment and the "prevent the end" round."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.scales_of_influence.actions import ShamanPower, ShootingStar
from engines.scales_of_influence.state import Cosmic, Effect, Prevention
from tests.engines.test_scales_of_influence_helpers import (
    ENGINE,
    act,
    at_reading,
    at_weighing,
    awaited_seat,
    check_invariants,
    fill_bag,
    keys,
    new_game,
    place,
    public_texts,
    set_energy,
    set_hand,
    set_scale,
    settle_now,
)

MADISON, COOPER, AMANDA, BRUNO = 0, 1, 2, 3  # clockwise: Cooper sits left of Madison


def test_rulebook_cosmic_event_example() -> None:
    """Cooper resolves Deception; Madison plays The Fighter; Cooper passes (no Energy);
    Amanda Eclipses with The Light; Bruno passes (no stars); The Light resolves; then Deception."""
    state = at_reading(4)
    deception = place(state, 1, "Deception", COOPER)
    fill_bag(state, "shadow", 3, 2)
    set_hand(state, MADISON, "The Fighter", "Spark")
    set_hand(state, AMANDA, "The Light")
    set_hand(state, BRUNO, "Pebble", "Dew")
    set_energy(state, COOPER, 0)
    settle_now(state)
    assert state.stack == [Effect(card=deception, owner=COOPER, origin="reading")]
    assert awaited_seat(state) == COOPER

    fighter = state.hands[MADISON][0]
    state, events = act(state, MADISON, f"star:{fighter}")
    assert any("Cosmic Event" in t for t in public_texts(events))
    event = state.stack[-1]
    assert isinstance(event, Cosmic) and event.responders == [COOPER, AMANDA, BRUNO]

    assert keys(state, COOPER) == ["pass"], "no Energy: Cooper can only pass, but gets his turn"
    state, _ = act(state, COOPER, "pass")
    light = state.hands[AMANDA][0]
    state, _ = act(state, AMANDA, f"estar:{light}")
    assert state.energy[AMANDA] == 2, "an Eclipse of a star costs 1 Energy"
    assert [p.kind for p in ENGINE.prompts(state) if p.seat == BRUNO] == ["response"]
    assert keys(state, BRUNO) == ["pass"]
    state, events = act(state, BRUNO, "pass")
    assert any("The Light" in t and "shines" in t for t in public_texts(events))
    assert awaited_seat(state) == AMANDA, "The Light's side is chosen by Amanda"
    state, _ = act(state, AMANDA, "resolve:light")
    assert state.scale["light"] == 3 and state.energy[AMANDA] == 3
    assert state.stack == [Effect(card=deception, owner=COOPER, origin="reading")], "play resumes"
    state, events = act(state, COOPER, "resolve:shadow")
    assert any("Deception" in t for t in public_texts(events))
    assert sorted(state.bags["light"]) == [2, 3] and not state.bags["shadow"]
    check_invariants(state)


def test_the_fighter_blocks_the_card_being_resolved() -> None:
    state = at_reading(4)
    place(state, 0, "Hearth", COOPER)
    set_hand(state, MADISON, "The Fighter")
    settle_now(state)
    fighter = state.hands[MADISON][0]
    state, _ = act(state, MADISON, f"star:{fighter}")
    for seat in (COOPER, AMANDA, BRUNO):
        state, _ = act(state, seat, "pass")
    assert state.phase == "weighing" and state.scale == {"shadow": 0, "light": 0}, "Hearth never resolved"


def test_a_star_needs_one_energy_and_cannot_be_started_inside_a_cosmic_event() -> None:
    state = new_game(4)
    set_hand(state, 2, "The Seeker", "The Dreamer")
    set_energy(state, 2, 0)
    assert not any(k.startswith("star:") for k in keys(state, 2))
    with pytest.raises(IllegalAction, match="at least 1 Energy"):
        ENGINE.apply(state, 2, ShootingStar(card=state.hands[2][0]))
    set_energy(state, 2, 2)
    state, _ = act(state, 2, f"star:{state.hands[2][0]}")
    with pytest.raises(IllegalAction, match="Cosmic Event is under way"):
        ENGINE.apply(state, 2, ShootingStar(card=state.hands[2][0]))


def test_cosmic_event_interrupts_a_sun_turn_and_play_resumes_there() -> None:
    state = new_game(4)
    state, _ = act(state, 0, "receive:energy")
    set_hand(state, 3, "The Seeker")
    state, _ = act(state, 3, f"star:{state.hands[3][0]}")
    assert awaited_seat(state) == 0 and [p.kind for p in ENGINE.prompts(state) if p.seat == 0] == ["response"]
    for seat in (0, 1, 2):
        state, _ = act(state, seat, "pass")
    assert state.energy[3] == 4, "The Seeker: gain 1 Energy, resolved with no choice to make"
    assert awaited_seat(state) == 0 and state.turn is not None and state.turn.step == "release"


# ----- the Shaman -----


def _with_shaman(state, seat: int, energy: int = 4):  # type: ignore[no-untyped-def]
    state.shaman = seat
    set_energy(state, seat, energy)
    return state


def test_shaman_blocks_a_shooting_star_even_off_turn() -> None:
    state = _with_shaman(new_game(4), 3)
    set_hand(state, 1, "The World")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    assert "shaman:block" in keys(state, 3), "the Shaman may act while another seat answers"
    state, _ = act(state, 3, "shaman:block")
    assert state.energy[3] == 2 and state.shaman_used
    for seat in (2, 3, 0):
        state, _ = act(state, seat, "pass")
    assert state.scale == {"shadow": 0, "light": 0} and not any(isinstance(i, Effect) for i in state.stack)
    assert not any(k.startswith("shaman:") for k in keys(state, 3)), "once per day"


def _last_answer_eclipses(state):  # type: ignore[no-untyped-def]
    """Seat 1 starts a Cosmic Event; 2 and 3 pass; 0, the last to answer, lays The World on it."""
    set_hand(state, 1, "The Seeker")
    set_hand(state, 0, "The World")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    for seat in (2, 3):
        state, _ = act(state, seat, "pass")
    return act(state, 0, f"estar:{state.hands[0][0]}")


def test_shaman_may_block_the_star_the_last_answerer_lays_before_it_shines() -> None:
    """ "Block any Shooting Star ... at any time": the last answer's star waits for the Shaman."""
    state, events = _last_answer_eclipses(_with_shaman(new_game(4), 2))
    assert not any("shines" in t for t in public_texts(events)), "The World must not resolve yet"
    assert [(p.seat, p.kind) for p in ENGINE.prompts(state) if p.awaited] == [(2, "response")]
    cosmic = ENGINE.view(state, None).cosmic
    assert cosmic is not None and cosmic[-1].responders == [2]
    assert {"shaman:block", "pass"} <= set(keys(state, 2))
    assert not any(k.startswith("estar:") for k in keys(state, 2)), "the Shaman already had an answer"
    state, events = act(state, 2, "shaman:block")
    assert any("no star shines" in t for t in public_texts(events))
    assert state.scale == {"shadow": 0, "light": 0} and state.shaman_used
    assert awaited_seat(state) == 0 and state.turn is not None, "the Sun turn goes on"
    check_invariants(state)


def test_the_shaman_may_let_the_last_star_shine() -> None:
    state, _ = _last_answer_eclipses(_with_shaman(new_game(4), 2))
    state, events = act(state, 2, "pass")
    assert any("The World" in t and "shines" in t for t in public_texts(events))
    assert not state.shaman_used


def test_no_shaman_window_when_the_shaman_cannot_block() -> None:
    for shaman, energy, used in ((2, 1, False), (2, 4, True), (0, 4, False), (None, 0, False)):
        state = new_game(4)
        if shaman is not None:
            _with_shaman(state, shaman, energy)
        state.shaman_used = used
        state, events = _last_answer_eclipses(state)
        assert any("shines" in t for t in public_texts(events)), (shaman, energy, used)


def test_shaman_adds_two_energy_to_a_side() -> None:
    state = _with_shaman(new_game(4), 2)
    state, _events = act(state, 2, "shaman:scale:light")
    assert state.scale["light"] == 2 and state.energy[2] == 2
    with pytest.raises(IllegalAction, match="already used today"):
        ENGINE.apply(state, 2, ShamanPower(power="scale", side="shadow"))
    check_invariants(state)


def test_shaman_returns_a_revealed_token_at_weighing_only() -> None:
    state = _with_shaman(new_game(4), 1)
    with pytest.raises(IllegalAction, match="only at Weighing"):
        ENGINE.apply(state, 1, ShamanPower(power="token", side="shadow", value=3))
    state = _with_shaman(at_weighing(4), 1)
    fill_bag(state, "shadow", 3, -1)
    assert "shaman:token:shadow:+3" in keys(state, 1)
    state, _ = act(state, 1, "shaman:token:shadow:+3")
    assert state.bags["shadow"] == [-1] and len(state.source_tokens) == 15
    state, _ = act(state, 0, "weigh")
    assert state.scale["shadow"] == 0


def test_only_the_shaman_has_the_power() -> None:
    state = _with_shaman(new_game(4), 1)
    with pytest.raises(IllegalAction, match="Only the Shaman"):
        ENGINE.apply(state, 2, ShamanPower(power="scale", side="shadow"))


# ----- Harmony and preventing the end -----


def test_harmony_wins_in_the_middle_of_the_sun_phase() -> None:
    state = _with_shaman(new_game(5), 4)
    set_scale(state, 5, 3)
    state, _events = act(state, 4, "shaman:scale:light")
    top = state.stack[-1]
    assert isinstance(top, Prevention) and top.trigger == "harmony" and top.remaining == [0, 1, 2, 3, 4]
    for seat in range(5):
        assert awaited_seat(state) == seat
        state, _ = act(state, seat, "pass")
    assert state.winner == "harmony" and state.phase == "over"
    result = ENGINE.result(state)
    assert result is not None and result.winners == [state.alignments.index("harmony")]
    assert ENGINE.view(state, None).alignments == state.alignments


def test_no_harmony_in_shadow_vs_light() -> None:
    state = _with_shaman(new_game(4, variant="shadow-vs-light"), 1)
    set_scale(state, 5, 3)
    state, _ = act(state, 1, "shaman:scale:light")
    assert not state.stack and ENGINE.result(state) is None


def test_prevention_by_shaman_lets_the_game_go_on_where_it_stopped() -> None:
    state = _with_shaman(new_game(5), 2)
    set_scale(state, 3, 3)
    set_hand(state, 1, "The World")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    for seat in (2, 3, 4, 0):
        state, _ = act(state, seat, "pass")
    state, _ = act(state, 1, "resolve:light")
    state.scale = {"shadow": 6, "light": 6}  # equal at 5+: reopen the check by hand
    state.source_energy -= 6
    state.stack = [Prevention(trigger="harmony", remaining=state.order_from(state.traveler))]
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert "shaman:scale:shadow" in keys(state, 2)
    state, events = act(state, 2, "shaman:scale:shadow")
    for seat in (3, 4):
        state, _ = act(state, seat, "pass")
    assert ENGINE.result(state) is None and any("prevented" in t for t in public_texts(events + _))
    assert awaited_seat(state) == 0 and state.turn is not None and state.turn.step == "receive"


def test_prevention_with_a_shooting_star() -> None:
    state = at_weighing(4, variant="shadow-vs-light")
    set_scale(state, 10, 2)
    set_hand(state, 1, "The Tower")
    state, _ = act(state, 0, "weigh")
    state, _ = act(state, 0, "pass")
    assert next(p.text for p in ENGINE.prompts(state) if p.seat == 1).startswith("Prevent the end")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    for seat in (2, 3, 0):
        state, _ = act(state, seat, "pass")
    state, _ = act(state, 1, "resolve:shadow")
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 3, "pass")
    assert ENGINE.result(state) is None and state.scale["shadow"] == 6 and state.phase == "sun"


def test_every_seat_gets_the_same_prevention_prompt() -> None:
    state = at_weighing(4, variant="shadow-vs-light")
    set_scale(state, 12, 0)
    state, _ = act(state, 0, "weigh")
    texts = set()
    for seat in range(4):
        texts.add(next(p.text for p in ENGINE.prompts(state) if p.awaited))
        state, _ = act(state, seat, "pass")
    assert len(texts) == 1 and state.winner == "shadow"


def test_shooting_star_eclipse_needs_a_higher_rank() -> None:
    state = new_game(4)
    set_hand(state, 1, "The Chariot")
    set_hand(state, 2, "The Seeker", "The World")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    seeker, world = state.hands[2]
    assert f"estar:{world}" in keys(state, 2) and f"estar:{seeker}" not in keys(state, 2)
