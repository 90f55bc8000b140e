"""Where the rulebook is silent: the decisions listed in RULES.md, one test each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction
from engines.scales_of_influence.actions import ShamanPower, ShootingStar
from engines.scales_of_influence.state import Cosmic, Prevention
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
from tests.engines.test_scales_of_influence_secrecy import states_along


def test_release_is_skipped_only_when_nothing_can_be_released() -> None:
    state = new_game(4)
    set_hand(state, 0, "The Seeker")
    fill_bag(state, "light", *list(state.source_tokens))
    state, _ = act(state, 0, "receive:energy")
    assert keys(state, 0)[0] == "pass" and not any(k.startswith(("play:", "give")) for k in keys(state, 0))


def test_receive_energy_needs_energy_in_the_source() -> None:
    state = new_game(4)
    set_energy(state, 3, state.energy[3] + state.source_energy)
    assert state.source_energy == 0 and "receive:energy" not in keys(state, 0)


def test_channel_fails_if_the_hand_empties_midway() -> None:
    state = new_game(4)
    set_hand(state, 0, "Spark", "The Seeker")
    state, _ = act(state, 0, "channel:take:1")
    seeker = state.hands[0][1]
    state, _ = act(state, 0, f"star:{seeker}")
    for seat in (1, 2, 3):
        state, _ = act(state, seat, "pass")
    spark = state.hands[0][0]
    state, events = act(state, 0, f"discard:{spark}")
    assert not state.hands[0] and state.energy[1] == 3, "no Energy taken"
    assert any("Channel fails" in t for t in public_texts(events))
    check_invariants(state)


def test_channel_clear_discards_the_whole_stack() -> None:
    state = new_game(4)
    set_energy(state, 0, 3)
    ember = place(state, 2, "Ember", 1)
    flare = place(state, 2, "Flare", 3)
    state, _ = act(state, 0, "channel:clear:future")
    assert state.discard[-2:] == [ember, flare] and state.reading[2].holder is None


def test_moon_eclipse_of_your_own_card_pays_yourself() -> None:
    state = new_game(4)
    state.phase, state.turn, state.moon_order = "moon", None, [1, 2, 3, 0]
    place(state, 0, "Ember", 1)
    set_hand(state, 1, "Flare")
    state, _ = act(state, 1, f"eclipse:{state.hands[1][0]}:past")
    assert state.energy[1] == 3 and state.reading[0].holder == 1


def test_shaman_block_then_a_higher_star_still_shines() -> None:
    state = new_game(4)
    state.shaman = 2
    set_hand(state, 1, "The Seeker")
    set_hand(state, 3, "The Healer")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    state, _ = act(state, 2, "shaman:block")
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 3, f"estar:{state.hands[3][0]}")
    state, events = act(state, 0, "pass")
    assert state.energy[3] == 4, "The Healer: +2 after paying 1"
    assert any("Healer" in t and "shines" in t for t in public_texts(events))


def test_inside_the_prevention_round_only_the_seat_in_turn_acts() -> None:
    state = at_weighing(4, variant="shadow-vs-light")
    state.shaman = 3
    set_energy(state, 3, 4)
    set_scale(state, 11, 0)
    set_hand(state, 2, "The Tower")
    state, _ = act(state, 0, "weigh")
    assert isinstance(state.stack[-1], Prevention) and awaited_seat(state) == 0
    assert keys(state, 2) == [] and keys(state, 3) == []
    with pytest.raises(IllegalAction, match="Wait for your turn"):
        ENGINE.apply(state, 2, ShootingStar(card=state.hands[2][0]))
    with pytest.raises(IllegalAction, match="Wait for your turn"):
        ENGINE.apply(state, 3, ShamanPower(power="scale", side="light"))


def test_no_second_prevention_round_inside_one() -> None:
    state = new_game(5)
    state.shaman = 1
    set_energy(state, 1, 4)
    set_scale(state, 5, 5)
    state.stack = [Prevention(trigger="harmony", remaining=[1, 2, 3, 4, 0])]
    state, _ = act(state, 1, "shaman:scale:light")
    assert sum(isinstance(i, Prevention) for i in state.stack) == 1
    for seat in (2, 3, 4, 0):
        state, _ = act(state, seat, "pass")
    assert ENGINE.result(state) is None, "7 vs 5 at the end of the round: no Harmony"


def test_a_blocked_reading_card_does_not_affect_the_next_day() -> None:
    state = at_reading(4)
    place(state, 0, "Orchard", 2)
    set_hand(state, 1, "The Fighter")
    settle_now(state)
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    for seat in (2, 3, 0):
        state, _ = act(state, seat, "pass")
    assert state.phase == "weighing"
    state, _ = act(state, 0, "weigh")
    assert not state.lingering and not any(isinstance(i, Cosmic) for i in state.stack)


def test_the_game_ends_with_tokens_in_hand_returned() -> None:
    state = new_game(5)
    state.shaman = 0
    set_scale(state, 3, 5)
    state, _ = act(state, 0, "receive:energy")
    state, _ = act(state, 0, "give")
    state, _ = act(state, 0, "shaman:scale:shadow")
    for seat in range(5):
        state, _ = act(state, seat, "pass")
    assert state.winner == "harmony"
    check_invariants(state)


def test_the_game_ends_inside_a_cosmic_event_and_its_stars_are_discarded() -> None:
    state = new_game(3)
    state.shaman = 2
    set_scale(state, 5, 3)
    set_hand(state, 1, "The Seeker")
    state, _ = act(state, 1, f"star:{state.hands[1][0]}")
    state, _ = act(state, 2, "shaman:scale:light")
    assert isinstance(state.stack[-1], Prevention) and isinstance(state.stack[-2], Cosmic)
    for seat in (0, 1, 2):
        state, _ = act(state, seat, "pass")
    assert state.winner == "harmony" and state.discard[-1] == ENGINE.view(state, None).discard_top.id  # type: ignore[union-attr]
    check_invariants(state)


ACTION_TYPES = [
    "receive",
    "play",
    "give",
    "token",
    "channel_draw",
    "channel_take",
    "channel_clear",
    "discard",
    "pass",
    "eclipse",
    "resolve",
    "weigh",
    "star",
    "eclipse_star",
    "shaman",
    "choose_shaman",
]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 50),
    stop=st.integers(0, 150),
    seat=st.integers(-1, 7),
    kind=st.sampled_from(ACTION_TYPES),
    number=st.integers(-3, 90),
    side=st.sampled_from(["shadow", "light", None, "up"]),
)
def test_bad_moves_are_refused_with_illegal_action_only(
    seed: int, stop: int, seat: int, kind: str, number: int, side: str | None
) -> None:
    state = next(s for i, s in enumerate(states_along(4, seed)) if i == stop or s.phase == "over")
    raw = {
        "type": kind,
        "how": "draw",
        "card": number,
        "slot": number % 4,
        "value": number % 5 - 2,
        "side": side,
        "target": number % 6,
        "seat": number % 6,
        "power": ["block", "scale", "token"][number % 3],
    }
    fields = ENGINE.parse_action  # the union rejects unknown fields itself
    try:
        action = fields({k: v for k, v in raw.items() if k == "type" or k in _FIELDS[kind]})
        ENGINE.apply(state, seat, action)
    except IllegalAction:
        pass


_FIELDS = {
    "receive": {"how"},
    "play": {"card", "slot"},
    "token": {"value", "side"},
    "channel_take": {"target"},
    "channel_clear": {"slot"},
    "discard": {"card"},
    "eclipse": {"card", "slot"},
    "resolve": {"target", "side"},
    "star": {"card"},
    "eclipse_star": {"card"},
    "shaman": {"power", "side", "value"},
    "choose_shaman": {"seat"},
}
for _kind in ACTION_TYPES:
    _FIELDS.setdefault(_kind, set())


def test_timeouts_take_safe_moves() -> None:
    state = new_game(4, seed=5)
    assert ENGINE.default_action(state, 0) == ENGINE.choice(state, 0, "receive:energy").action
    state, _ = act(state, 0, "receive:energy")
    assert ENGINE.default_action(state, 0) == ENGINE.choice(state, 0, "give").action
    state, _ = act(state, 0, "give")
    drawn = state.stack[-1].drawn  # type: ignore[union-attr]
    default = ENGINE.default_action(state, 0)
    assert default.type == "token" and abs(default.value) == min(abs(t) for t in drawn)  # type: ignore[union-attr]


def test_timed_out_givers_bag_is_not_fixed() -> None:
    """A timeout is public, so the bag a timed-out giver's token goes into must not
    be predictable from it: over many games both bags are chosen."""
    sides = set()
    for seed in range(40):
        state, _ = act(new_game(4, seed=seed), 0, "receive:energy")
        state, _ = act(state, 0, "give")
        default = ENGINE.default_action(state, 0)
        assert default.type == "token"  # type: ignore[union-attr]
        assert ENGINE.default_action(state, 0) == default  # the same state times out the same way
        sides.add(default.side)  # type: ignore[union-attr]
    assert len(sides) == 2
