"""Rulebook scenarios for the day: Sun, Moon, Reading, Weighing, day reset and the endings."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.scales_of_influence.actions import Eclipse, PlayCard
from engines.scales_of_influence.state import Giving, ShamanPick
from tests.engines.test_scales_of_influence_helpers import (
    ENGINE,
    act,
    at_reading,
    at_weighing,
    awaited_seat,
    card_id,
    check_invariants,
    fill_bag,
    give_cards,
    keys,
    new_game,
    place,
    public_texts,
    set_energy,
    set_scale,
    settle_now,
)

# ----- Sun -----


def test_sun_turn_receive_then_release_then_next_player() -> None:
    state = new_game(4)
    assert awaited_seat(state) == 0 and "receive:draw" in keys(state, 0)
    assert not any(k.startswith("play:") for k in keys(state, 0)), "Release comes after Receive"
    hand = len(state.hands[0])
    state, _ = act(state, 0, "receive:draw")
    assert len(state.hands[0]) == hand + 1
    spark = give_cards(state, 0, "Spark")[0]
    state, events = act(state, 0, f"play:{spark}:past")
    assert state.reading[0].cards == [spark] and state.reading[0].holder == 0
    assert awaited_seat(state) == 0 and "pass" in keys(state, 0)  # may still Channel
    state, _ = act(state, 0, "pass")
    assert awaited_seat(state) == 1 and state.turn is not None and state.turn.step == "receive"
    assert any("Spark" in t and "Past" in t for t in public_texts(events))


def test_receive_energy_and_play_needs_a_free_placement() -> None:
    state = new_game(4)
    state, _ = act(state, 0, "receive:energy")
    assert state.energy[0] == 4
    place(state, 0, "Ember", 2)
    spark = give_cards(state, 0, "Spark")[0]
    assert f"play:{spark}:past" not in keys(state, 0) and f"play:{spark}:present" in keys(state, 0)
    with pytest.raises(IllegalAction, match="Past marker is already taken"):
        ENGINE.apply(state, 0, PlayCard(card=spark, slot=0))
    star = give_cards(state, 0, "The Seeker")[0]
    with pytest.raises(IllegalAction, match="not a Hand card"):
        ENGINE.apply(state, 0, PlayCard(card=star, slot=1))


def test_give_influence_is_secret() -> None:
    state = new_game(4, seed=5)
    state, _ = act(state, 0, "receive:energy")
    state, events = act(state, 0, "give")
    giving = state.stack[-1]
    assert isinstance(giving, Giving) and len(giving.drawn) == 2 and len(state.source_tokens) == 14
    assert [p.kind for p in ENGINE.prompts(state) if p.seat == 0] == ["secret"]
    private = [e for e in events if e.to == [0]]
    assert private and all(f"{t:+d}" in private[0].text for t in giving.drawn)
    assert all("+" not in t and "-1" not in t for t in public_texts(events))
    value = giving.drawn[0]
    state, events = act(state, 0, f"token:{value:+d}:light")
    assert state.bags["light"] == [value] and len(state.source_tokens) == 15
    assert public_texts(events) == ["<seat:0> gave Influence."]
    assert ENGINE.view(state, None).revealed_bags is None


def test_channel_three_ways_once_per_turn() -> None:
    state = new_game(4)
    set_energy(state, 0, 5)
    state, _ = act(state, 0, "channel:draw")
    assert state.energy[0] == 4 and len(state.hands[0]) == 4
    assert not any(k.startswith("channel:") for k in keys(state, 0)), "Channel only once per turn"
    state = new_game(4)
    set_energy(state, 2, 3)
    state, _ = act(state, 0, "channel:take:2")
    first, second = state.hands[0][:2]
    state, _ = act(state, 0, f"discard:{first}")
    state, _ = act(state, 0, f"discard:{second}")
    assert state.energy[0] == 5 and state.energy[2] == 1 and state.discard[-2:] == [first, second]
    state = new_game(4)
    set_energy(state, 0, 4)
    ember = place(state, 1, "Ember", 3)
    state, _ = act(state, 0, "channel:clear:present")
    assert state.energy[0] == 1 and state.reading[1].holder is None and ember in state.discard


def test_end_of_turn_discard_to_seven_and_return_energy_to_seven() -> None:
    state = new_game(4)
    give_cards(state, 0, "Spark", "Kindling", "Ember", "Hearth", "Flare")
    set_energy(state, 0, 9)
    state, _ = act(state, 0, "receive:draw")
    state, _ = act(state, 0, "give")
    state, _ = act(state, 0, keys(state, 0)[0])
    state, _ = act(state, 0, "pass")
    assert state.turn is not None and state.turn.step == "discard" and len(state.hands[0]) == 9
    state, _ = act(state, 0, keys(state, 0)[0])
    state, _ = act(state, 0, keys(state, 0)[0])
    assert len(state.hands[0]) == 7 and state.energy[0] == 7 and awaited_seat(state) == 1


def _quick_turn(state, seat: int, slot: str | None):  # type: ignore[no-untyped-def]
    state, _ = act(state, seat, "receive:energy")
    if slot is None:
        state, _ = act(state, seat, "give")
        state, _ = act(state, seat, keys(state, seat)[0])
    else:
        card = give_cards(state, seat, ["Spark", "Kindling", "Ember", "Hearth"][seat])[0]
        state, _ = act(state, seat, f"play:{card}:{slot}")
    if awaited_seat(state) == seat and "pass" in keys(state, seat):
        state, _ = act(state, seat, "pass")
    return state


def test_sun_ends_when_all_played_and_markers_taken() -> None:
    state = new_game(4)
    for seat, slot in enumerate(["past", "present", "future"]):
        state = _quick_turn(state, seat, slot)
    assert state.phase == "sun", "every player must have had a turn"
    state = _quick_turn(state, 3, None)
    assert state.phase == "moon" and state.moon_order == [3, 0, 1, 2]


def test_sun_goes_round_again_until_a_condition_holds() -> None:
    state = new_game(4)
    for seat in range(4):
        state = _quick_turn(state, seat, None)
    assert state.phase == "sun" and awaited_seat(state) == 0


def test_sun_ends_when_influence_source_is_empty() -> None:
    state = new_game(4)
    fill_bag(state, "shadow", *state.source_tokens[:13])
    for seat in range(3):
        state = _quick_turn(state, seat, None)
    assert not state.source_tokens and state.phase == "sun"
    state = _quick_turn(state, 3, "past")
    assert state.phase == "moon"


# ----- Moon -----


def _at_moon(state, first: int):  # type: ignore[no-untyped-def]
    state.phase, state.turn, state.last_sun_seat = "moon", None, first
    state.moon_order = state.order_from(first)
    return state


def test_moon_eclipse_pays_the_holder_and_takes_the_marker() -> None:
    state = _at_moon(new_game(4), 2)
    place(state, 0, "Ember", 1)
    flare, wildfire = give_cards(state, 2, "Flare", "Wildfire")
    assert awaited_seat(state) == 2
    assert f"eclipse:{flare}:past" in keys(state, 2) and "pass" in keys(state, 2)
    state, _ = act(state, 2, f"eclipse:{flare}:past")
    assert state.reading[0].holder == 2 and state.reading[0].cards[-1] == flare
    assert state.energy == [3, 4, 2, 3]
    state, _ = act(state, 3, "pass")
    assert f"eclipse:{wildfire}:past" not in keys(state, 0)
    dew = give_cards(state, 0, "Dew")[0]
    with pytest.raises(IllegalAction, match="Hand card of fire ranked above 5"):
        ENGINE.apply(state, 0, Eclipse(card=dew, slot=0))


def test_moon_gives_every_player_one_turn_then_reading() -> None:
    state = _at_moon(new_game(4), 1)
    for seat in [1, 2, 3, 0]:
        assert awaited_seat(state) == seat
        state, _ = act(state, seat, "pass")
    assert state.phase == "weighing", "an empty Reading goes straight to the Weighing"


# ----- Reading -----


def test_reading_resolves_past_present_future_in_order() -> None:
    state = at_reading(4)
    place(state, 0, "Spark", 2)
    place(state, 2, "Kindling", 1)
    place(state, 1, "Pebble", 3)
    settle_now(state)
    order = []
    while state.phase == "reading":
        seat = awaited_seat(state)
        assert seat is not None
        order.append(seat)
        state, _ = act(state, seat, keys(state, seat)[0])
    assert order == [2, 3, 1]
    assert state.energy[2] == 4 and state.energy[1] == 5 and len(state.hands[3]) == 4
    assert all(p.cards for p in state.reading), "cards stay in the Reading until the day ends"


def test_reading_card_with_target_and_side() -> None:
    state = at_reading(4)
    place(state, 0, "Backdraft", 1)
    set_scale(state, 4, 1)
    settle_now(state)
    assert [k for k in keys(state, 1) if k.startswith("resolve")] == ["resolve:shadow", "resolve:light"]
    state, _ = act(state, 1, "resolve:shadow")
    assert state.scale == {"shadow": 1, "light": 4}


# ----- Weighing -----


def test_weighing_moves_the_scale_never_below_zero() -> None:
    state = at_weighing(4)
    set_scale(state, 1, 2)
    fill_bag(state, "shadow", -2, -1)
    fill_bag(state, "light", 3, 1)
    assert ENGINE.view(state, None).revealed_bags == {"shadow": [-1, -2], "light": [3, 1]}
    state, _events = act(state, 0, "weigh")
    assert state.scale == {"shadow": 0, "light": 6}
    check_invariants(state)
    assert state.phase == "sun" and state.day == 2 and state.traveler == 1


def test_weighing_adjusts_by_both_bags_before_judging() -> None:
    """3/5 with +2 Shadow and +3 Light ends at 5/8: the Scale is never judged at 5/5 in between."""
    state = at_weighing(5)
    assert state.harmony
    set_scale(state, 3, 5)
    fill_bag(state, "shadow", 2)
    fill_bag(state, "light", 3)
    state, events = act(state, 0, "weigh")
    assert state.scale == {"shadow": 5, "light": 8}
    assert state.winner is None and not any("Harmony" in t for t in public_texts(events))
    assert state.phase == "sun" and state.day == 2, "nothing to judge at 5/8: a new day"
    check_invariants(state)


def test_weighing_judges_harmony_on_the_adjusted_scale() -> None:
    state = at_weighing(5)
    set_scale(state, 5, 8)
    fill_bag(state, "shadow", 2, 1)
    fill_bag(state, "light", -2, -1)
    state, _events = act(state, 0, "weigh")
    assert state.scale == {"shadow": 8, "light": 5}, "no Harmony at 5/5 or 8/8 in between either"
    assert state.winner is None
    check_invariants(state)


def test_day_reset() -> None:
    state = at_weighing(4)
    fill_bag(state, "shadow", 1)
    place(state, 0, "Ember", 2)
    orchard = place(state, 1, "Orchard", 3)
    state.reading[1].resolved = True
    set_energy(state, 2, 6)
    state, events = act(state, 0, "weigh")
    assert state.traveler == 1 and state.shaman == 2 and not state.shaman_used
    assert len(state.source_tokens) == 16 and not state.bags["shadow"]
    assert all(p.holder is None for p in state.reading)
    assert [p.kind for p in ENGINE.prompts(state) if p.seat == 3] == ["turn"], (
        "Orchard resolves again at dawn"
    )
    assert state.lingering == [] and orchard in state.discard
    before = len(state.hands[3])
    state, events = act(state, 3, "resolve")
    assert any("Orchard" in t for t in public_texts(events))
    assert len(state.hands[3]) == before + 2, "Orchard draws 2 again at the start of the next day"


def test_shaman_tie_is_picked_by_the_new_traveler() -> None:
    state = at_weighing(4)
    set_energy(state, 0, 5)
    set_energy(state, 3, 5)
    state, _ = act(state, 0, "weigh")
    pick = state.stack[-1]
    assert isinstance(pick, ShamanPick) and pick.chooser == 1 and sorted(pick.candidates) == [0, 3]
    assert awaited_seat(state) == 1 and [k for k in keys(state, 1) if k.startswith("pick")] == [
        "pick:3",
        "pick:0",
    ]
    state, _ = act(state, 1, "pick:3")
    assert state.shaman == 3 and awaited_seat(state) == 1 and state.turn is not None


# ----- endings -----


def test_deck_ending_finishes_the_day_then_most_energy_wins() -> None:
    state = new_game(4)
    give_cards(state, 2, *[state.card(c).name for c in state.deck[1:]])
    assert len(state.deck) == 1
    state, events = act(state, 0, "receive:draw")
    assert state.final_day and not state.deck and any("final tarot card" in t for t in public_texts(events))
    assert ENGINE.result(state) is None
    state.phase, state.turn, state.weigh_step, state.revealed = "weighing", None, "confirm", True
    set_scale(state, 3, 2)
    state, _ = act(state, 0, "weigh")
    result = ENGINE.result(state)
    assert result is not None and state.winner == "shadow"
    assert sorted(result.winners) == sorted(s for s, a in enumerate(state.alignments) if a == "shadow")


def test_equal_scale_at_the_final_end_goes_to_harmony_or_is_shared() -> None:
    for variant, winner in [("standard", "harmony"), ("shadow-vs-light", "draw")]:
        state = at_weighing(4, variant=variant)
        state.final_day = True
        set_scale(state, 2, 2)
        state, _ = act(state, 0, "weigh")
        assert state.winner == winner
        result = ENGINE.result(state)
        assert result is not None
        if winner == "draw":
            assert result.ranking == [[0, 1, 2, 3]]


def test_traveler_ending_with_four_or_more() -> None:
    state = at_weighing(4)
    state.traveler = 2
    state, events = act(state, 2, "weigh")
    assert state.traveler == 3 and state.final_day
    assert any("last player" in t for t in public_texts(events))


def test_no_traveler_ending_with_three() -> None:
    state = at_weighing(3)
    state.traveler = 1
    state, _ = act(state, 1, "weigh")
    assert state.traveler == 2 and not state.final_day


def test_shadow_wins_at_the_end_of_weighing_after_the_prevention_round() -> None:
    state = at_weighing(4, variant="shadow-vs-light")
    set_scale(state, 8, 3)
    fill_bag(state, "shadow", 2)
    state, events = act(state, 0, "weigh")
    assert state.phase == "weighing" and any("would end" in t for t in public_texts(events))
    for seat in [0, 1, 2, 3]:
        assert awaited_seat(state) == seat
        assert [p.kind for p in ENGINE.prompts(state) if p.seat == seat] == ["response"]
        state, _ = act(state, seat, "pass")
    assert state.winner == "shadow"


def test_ten_each_is_no_win_for_shadow_or_light() -> None:
    state = at_weighing(4, variant="shadow-vs-light")
    set_scale(state, 10, 10)
    state, _ = act(state, 0, "weigh")
    assert ENGINE.result(state) is None and state.phase == "sun"


def test_card_ids_are_stable() -> None:
    state = new_game(4)
    assert state.card(card_id(state, "Deception")).element == "water"
